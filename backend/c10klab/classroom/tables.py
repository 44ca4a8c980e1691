"""The classroom's tables: who is online and where, which lessons each person has read, what
each class is being shown, and the exercises assigned to it."""

from sqlalchemy import Column, Float, Integer, Table, Text

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
