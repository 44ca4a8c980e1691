"""The sweeps domain's table: a series of runs, one per (server, value) point."""

from sqlalchemy import Column, Index, Table, Text

from c10klab.db import metadata

sweeps = Table(
    "sweeps",
    metadata,
    Column("id", Text, primary_key=True),
    Column("request", Text, nullable=False),  # JSON
    Column("points", Text, nullable=False),  # JSON: [{server, value, run_id, skipped}]
    Column("created_at", Text, nullable=False),
    Column("owner_id", Text, nullable=False, server_default="solo"),
    Column("class_id", Text),
    Column("browser", Text),  # solo mode: the browser that queued it (see runs.browser)
    Index("sweeps_by_owner", "owner_id", "created_at"),
)
