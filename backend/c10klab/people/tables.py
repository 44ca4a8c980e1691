"""The people domain's tables: instructors and students, classes, sessions, failed logins and
the site's signing secret."""

from sqlalchemy import (
    CheckConstraint,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    Table,
    Text,
    text,
)

from c10klab.db import metadata

people = Table(
    "people",
    metadata,
    Column("id", Text, primary_key=True),
    Column("kind", Text, nullable=False),
    Column("name", Text, nullable=False),
    Column("name_key", Text, nullable=False),  # the name as compared: see name_key()
    # A student's class. people and classes refer to each other: this key is the one made
    # after both tables (use_alter), as the migrations do on PostgreSQL.
    Column("class_id", Text, ForeignKey("classes.id", use_alter=True)),
    Column("password_hash", Text),
    # A student's personal code, keyed with the site's secret (people/service.py): it brings
    # them back on another device.
    Column("personal_code_hash", Text),
    Column("created_at", Text, nullable=False),
    Column("removed_at", Text),
    CheckConstraint("kind IN ('instructor', 'student')", name="people_kind"),
    # No two instructors share a name, nor two present students of one class (a removed
    # student's name is free again).
    Index(
        "instructor_names",
        "name_key",
        unique=True,
        sqlite_where=text("kind = 'instructor'"),
        postgresql_where=text("kind = 'instructor'"),
    ),
    Index(
        "present_student_names",
        "class_id",
        "name_key",
        unique=True,
        sqlite_where=text("kind = 'student' AND removed_at IS NULL"),
        postgresql_where=text("kind = 'student' AND removed_at IS NULL"),
    ),
)

classes = Table(
    "classes",
    metadata,
    Column("id", Text, primary_key=True),
    Column("name", Text, nullable=False),
    Column("join_code", Text, nullable=False, unique=True),
    Column("instructor_id", Text, ForeignKey("people.id"), nullable=False),
    Column("created_at", Text, nullable=False),
    Column("ended_at", Text),
    Column("ends_at", Text),  # when it ends by itself, if its instructor said
    # How long after it ends its students may still read their results.
    Column("results_days", Integer, nullable=False, server_default="7"),
)

# The instructors who teach a class beside its own: co-teachers (all its instructor may do but
# managing its staff) and teaching assistants (see everything, help students: docs/ARCHITECTURE.md).
class_staff = Table(
    "class_staff",
    metadata,
    Column("class_id", Text, ForeignKey("classes.id"), primary_key=True),
    Column("person_id", Text, ForeignKey("people.id"), primary_key=True),
    Column("role", Text, nullable=False),
    Column("added_at", Text, nullable=False),
    CheckConstraint("role IN ('co-teacher', 'assistant')", name="class_staff_role"),
)

sessions = Table(
    "sessions",
    metadata,
    Column("token_hash", Text, primary_key=True),
    Column("person_id", Text, ForeignKey("people.id"), nullable=False),
    Column("created_at", Text, nullable=False),
    Column("expires_unix", Float, nullable=False),
)

login_attempts = Table(
    "login_attempts",
    metadata,
    Column("key", Text, nullable=False),
    Column("at_unix", Float, nullable=False),
    Index("login_attempts_by_key", "key", "at_unix"),
)

site_secrets = Table(
    "site_secrets",
    metadata,
    Column("name", Text, primary_key=True),
    Column("value", Text, nullable=False),
)
