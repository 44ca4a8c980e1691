"""The runners domain's table: each runner's last heartbeat."""

from sqlalchemy import CheckConstraint, Column, Float, Integer, Table, Text

from c10klab.db import metadata

runner_status = Table(
    "runner_status",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=False),
    Column("updated_at", Float, nullable=False),
    Column("data", Text, nullable=False),  # JSON: what the runner reported
    CheckConstraint("id = 1", name="runner_status_one_row"),
)
