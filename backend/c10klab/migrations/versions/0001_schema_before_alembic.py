"""The schema as the course kept it before Alembic, made on a fresh store or completed in place.

A store from before Alembic has these tables already, perhaps without the columns that came
later (people, fair share, leases, a class's planned end), and no alembic_version: this
revision adds what is missing and keeps every row. On a fresh store it makes everything.

Revision ID: 0001
Revises:
Created: 2026-11-25
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.schema import SchemaItem

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def tables(dialect: str) -> dict[str, list[SchemaItem]]:
    """The tables, frozen here as they were (later revisions change them, never this), made
    afresh at each call: a column belongs to one table."""
    # SQLite takes a reference to a table not made yet; PostgreSQL gets it once both exist.
    class_key = [sa.ForeignKey("classes.id")] if dialect == "sqlite" else []
    return {
        "runs": [
            sa.Column("id", sa.Text, primary_key=True),
            sa.Column("server", sa.Text, nullable=False),
            sa.Column("status", sa.Text, nullable=False),
            sa.Column("request", sa.Text, nullable=False),
            sa.Column("result", sa.Text),
            sa.Column("error", sa.Text),
            sa.Column("cancel_requested", sa.Integer, nullable=False, server_default="0"),
            sa.Column("created_at", sa.Text, nullable=False),
            sa.Column("started_at", sa.Text),
            sa.Column("finished_at", sa.Text),
            sa.Column("owner_id", sa.Text, nullable=False, server_default="solo"),
            sa.Column("class_id", sa.Text),
            sa.Column("priority", sa.Integer, nullable=False, server_default="0"),
            sa.Column("vstart", sa.Float, nullable=False, server_default="0"),
            sa.Column("vfinish", sa.Float, nullable=False, server_default="0"),
            sa.Column("expected_s", sa.Float, nullable=False, server_default="0"),
            sa.Column("queue_seq", sa.Integer, nullable=False, server_default="0"),
            sa.Column("announced_position", sa.Integer),
            sa.Column("created_unix", sa.Float),
            sa.Column("started_unix", sa.Float),
            sa.Column("finished_unix", sa.Float),
            sa.Column("claimed_by", sa.Text),
            sa.Column("lease_until", sa.Float),
            sa.CheckConstraint(
                "status IN ('queued', 'running', 'done', 'failed', 'cancelled')", name="runs_status"
            ),
        ],
        "events": [
            sa.Column("run_id", sa.Text, sa.ForeignKey("runs.id"), primary_key=True),
            sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
            sa.Column("type", sa.Text, nullable=False),
            sa.Column("data", sa.Text, nullable=False),
            sa.Column("created_at", sa.Text, nullable=False),
        ],
        "sweeps": [
            sa.Column("id", sa.Text, primary_key=True),
            sa.Column("request", sa.Text, nullable=False),
            sa.Column("points", sa.Text, nullable=False),
            sa.Column("created_at", sa.Text, nullable=False),
            sa.Column("owner_id", sa.Text, nullable=False, server_default="solo"),
            sa.Column("class_id", sa.Text),
        ],
        "runner_status": [
            sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),
            sa.Column("updated_at", sa.Float, nullable=False),
            sa.Column("data", sa.Text, nullable=False),
            sa.CheckConstraint("id = 1", name="runner_status_one_row"),
        ],
        "queue_state": [
            sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),
            sa.Column("vclock", sa.Float, nullable=False),
            sa.Column("next_seq", sa.Integer, nullable=False),
            sa.CheckConstraint("id = 1", name="queue_state_one_row"),
        ],
        "held_classes": [
            sa.Column("class_id", sa.Text, primary_key=True),
            sa.Column("held_at", sa.Text, nullable=False),
        ],
        # people before classes before the rest of people's tables: the foreign keys' order
        "people": [
            sa.Column("id", sa.Text, primary_key=True),
            sa.Column("kind", sa.Text, nullable=False),
            sa.Column("name", sa.Text, nullable=False),
            sa.Column("name_key", sa.Text, nullable=False),
            sa.Column("class_id", sa.Text, *class_key),
            sa.Column("password_hash", sa.Text),
            sa.Column("created_at", sa.Text, nullable=False),
            sa.Column("removed_at", sa.Text),
            sa.CheckConstraint("kind IN ('instructor', 'student')", name="people_kind"),
        ],
        "classes": [
            sa.Column("id", sa.Text, primary_key=True),
            sa.Column("name", sa.Text, nullable=False),
            sa.Column("join_code", sa.Text, nullable=False, unique=True),
            sa.Column("instructor_id", sa.Text, sa.ForeignKey("people.id"), nullable=False),
            sa.Column("created_at", sa.Text, nullable=False),
            sa.Column("ended_at", sa.Text),
            sa.Column("ends_at", sa.Text),
        ],
        "sessions": [
            sa.Column("token_hash", sa.Text, primary_key=True),
            sa.Column("person_id", sa.Text, sa.ForeignKey("people.id"), nullable=False),
            sa.Column("created_at", sa.Text, nullable=False),
            sa.Column("expires_unix", sa.Float, nullable=False),
        ],
        "login_attempts": [
            sa.Column("key", sa.Text, nullable=False),
            sa.Column("at_unix", sa.Float, nullable=False),
        ],
        "site_secrets": [
            sa.Column("name", sa.Text, primary_key=True),
            sa.Column("value", sa.Text, nullable=False),
        ],
        "presence": [
            sa.Column("person_id", sa.Text, primary_key=True),
            sa.Column("streams", sa.Integer, nullable=False, server_default="0"),
            sa.Column("seen_unix", sa.Float, nullable=False, server_default="0"),
            sa.Column("seen_at", sa.Text),
            sa.Column("lesson", sa.Text),
        ],
        "lessons_read": [
            sa.Column("person_id", sa.Text, primary_key=True),
            sa.Column("lesson", sa.Text, primary_key=True),
            sa.Column("read_at", sa.Text, nullable=False),
        ],
        "presentations": [
            sa.Column("class_id", sa.Text, primary_key=True),
            sa.Column("lesson", sa.Text, nullable=False),
            sa.Column("experiment", sa.Text),
            sa.Column("title", sa.Text, nullable=False),
            sa.Column("run_id", sa.Text),
            sa.Column("sweep_id", sa.Text),
            sa.Column("spotlight_id", sa.Text),
            sa.Column("started_at", sa.Text, nullable=False),
        ],
    }


# (name, table, columns, unique, WHERE of a partial index)
INDEXES = [
    ("runs_queue", "runs", ["status", "priority", "vstart", "queue_seq"], False, None),
    ("runs_by_owner", "runs", ["owner_id", "created_unix"], False, None),
    ("runs_by_class", "runs", ["class_id", "created_at"], False, None),
    ("runs_finished", "runs", ["status", "finished_unix"], False, None),
    ("instructor_names", "people", ["name_key"], True, "kind = 'instructor'"),
    (
        "present_student_names",
        "people",
        ["class_id", "name_key"],
        True,
        "kind = 'student' AND removed_at IS NULL",
    ),
    ("login_attempts_by_key", "login_attempts", ["key", "at_unix"], False, None),
]


def add_missing_columns(table: str, items: list[SchemaItem]) -> None:
    have = {c["name"] for c in sa.inspect(op.get_bind()).get_columns(table)}
    for column in items:
        if isinstance(column, sa.Column) and column.name not in have:
            op.add_column(table, column)


def upgrade() -> None:
    bind = op.get_bind()
    existing = set(sa.inspect(bind).get_table_names())
    made = tables(bind.dialect.name)
    for table, items in made.items():
        if table in existing:
            add_missing_columns(table, items)
        else:
            op.create_table(table, *items)
    if bind.dialect.name != "sqlite" and "people" not in existing:
        op.create_foreign_key("people_class_id_fkey", "people", "classes", ["class_id"], ["id"])
    # The first version kept a removed student's name taken for good.
    inspector = sa.inspect(bind)
    names = {i["name"] for t in made for i in inspector.get_indexes(t)}
    if "student_names" in names:
        op.drop_index("student_names", table_name="people")
    for name, table, columns, unique, where in INDEXES:
        if name not in names:
            condition = sa.text(where) if where else None
            op.create_index(
                name,
                table,
                columns,
                unique=unique,
                sqlite_where=condition,
                postgresql_where=condition,
            )
    op.execute(
        "INSERT INTO queue_state (id, vclock, next_seq) "
        "SELECT 1, 0, 1 WHERE NOT EXISTS (SELECT 1 FROM queue_state)"
    )


def downgrade() -> None:
    if op.get_bind().dialect.name != "sqlite":
        op.drop_constraint("people_class_id_fkey", "people", type_="foreignkey")
    for table in reversed(tables(op.get_bind().dialect.name)):
        op.drop_table(table)
