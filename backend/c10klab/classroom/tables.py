"""The classroom's tables: who is online and where, which lessons each person has read, what
each class is being shown, the exercises assigned to it, and the tools of a live class."""

from sqlalchemy import Column, Float, Index, Integer, Table, Text

from c10klab.db import metadata

presence = Table(
    "presence",
    metadata,
    Column("person_id", Text, primary_key=True),
    Column("streams", Integer, nullable=False, server_default="0"),  # open event streams
    Column("seen_unix", Float, nullable=False, server_default="0"),
    Column("seen_at", Text),
    Column("lesson", Text),
)

lessons_read = Table(
    "lessons_read",
    metadata,
    Column("person_id", Text, primary_key=True),
    Column("lesson", Text, primary_key=True),
    Column("read_at", Text, nullable=False),
)

presentations = Table(
    "presentations",
    metadata,
    Column("class_id", Text, primary_key=True),
    Column("lesson", Text, nullable=False),
    Column("experiment", Text),
    Column("title", Text, nullable=False),
    Column("run_id", Text),
    Column("sweep_id", Text),
    Column("spotlight_id", Text),
    Column("started_at", Text, nullable=False),
)

# An exercise set for a class, with an optional due time: the gradebook's columns.
assignments = Table(
    "assignments",
    metadata,
    Column("class_id", Text, primary_key=True),
    Column("exercise", Text, primary_key=True),
    Column("due_at", Text),  # ISO 8601, UTC; null: no due time
    Column("assigned_at", Text, nullable=False),
)

# --- live-class tools (issue 26.5) --------------------------------------------------------

# A student's raised hand ("I'm stuck"), with where they are; lowered by them or the instructor.
hands = Table(
    "hands",
    metadata,
    Column("class_id", Text, primary_key=True),
    Column("person_id", Text, primary_key=True),
    Column("lesson", Text),
    Column("experiment", Text),
    Column("raised_at", Text, nullable=False),
)

# The class's timer: running until `ends_at`; none while stopped.
class_timers = Table(
    "class_timers",
    metadata,
    Column("class_id", Text, primary_key=True),
    Column("label", Text, nullable=False, server_default=""),
    Column("started_at", Text, nullable=False),
    Column("ends_at", Text, nullable=False),
)

# Short notes from the instructor to every student of the class.
announcements = Table(
    "announcements",
    metadata,
    Column("id", Text, primary_key=True),
    Column("class_id", Text, nullable=False),
    Column("text", Text, nullable=False),
    Column("at", Text, nullable=False),
    Index("announcements_by_class", "class_id", "at"),
)

# Students' answers to the lessons' "Check yourself" questions (numbered from 1, per lesson),
# and which questions' answers the instructor revealed to the class.
question_answers = Table(
    "question_answers",
    metadata,
    Column("class_id", Text, primary_key=True),
    Column("lesson", Text, primary_key=True),
    Column("question", Integer, primary_key=True),
    Column("person_id", Text, primary_key=True),
    Column("answer", Text, nullable=False),
    Column("at", Text, nullable=False),
)

revealed_questions = Table(
    "revealed_questions",
    metadata,
    Column("class_id", Text, primary_key=True),
    Column("lesson", Text, primary_key=True),
    Column("question", Integer, primary_key=True),
    Column("at", Text, nullable=False),
)
