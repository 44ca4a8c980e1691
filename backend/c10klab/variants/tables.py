"""The variants domain's table: learners' edited versions of a server's model file (or of a
shared module an exercise names)."""

from sqlalchemy import Column, Index, Table, Text

from c10klab.db import metadata

variants = Table(
    "variants",
    metadata,
    Column("id", Text, primary_key=True),
    Column("server", Text, nullable=False),  # the catalog server whose model file it edits
    Column("source", Text, nullable=False),  # the whole edited file
    # the file edited, relative to sandboxes/, when it is not the model file (an exercise's
    # shared module); null: the model file
    Column("file", Text),
    Column("source_sha256", Text, nullable=False),
    Column("exercise", Text),  # the exercise it answers, if any
    Column("check_run_id", Text, nullable=False),  # the run that builds and checks it
    Column("created_at", Text, nullable=False),
    Column("owner_id", Text, nullable=False, server_default="solo"),
    Column("class_id", Text),
    Column("browser", Text),  # solo mode: the browser that made it (see runs.browser)
    Index("variants_by_owner", "owner_id", "created_at"),
)
