"""The classroom's tables: who is online and where, which lessons each person has read, and
what each class is being shown."""

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
