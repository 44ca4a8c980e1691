"""Several runner hosts: each registers and heartbeats in `runners` (in place of the single
runner's `runner_status` row), and a run records whether its measuring had begun and how often
it was queued again after losing its runner.

Revision ID: 0002
Revises: 0001
Created: 2026-11-25
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "runners",
        sa.Column("id", sa.Text, primary_key=True),
        sa.Column("host", sa.Text, nullable=False),
        sa.Column("server_cpus", sa.Text, nullable=False),
        sa.Column("loadgen_cpus", sa.Text, nullable=False),
        sa.Column("docker", sa.Text, nullable=False),
        sa.Column("images", sa.Text, nullable=False),
        sa.Column("state", sa.Text, nullable=False),
        sa.Column("run_id", sa.Text),
        sa.Column("started_at", sa.Text, nullable=False),
        sa.Column("heartbeat_unix", sa.Float, nullable=False),
    )
    # A heartbeat is news for seconds only: the old row is not carried over.
    op.drop_table("runner_status")
    with op.batch_alter_table("runs") as table:
        table.add_column(sa.Column("measuring_unix", sa.Float))
        table.add_column(sa.Column("requeued", sa.Integer, nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("runs") as table:
        table.drop_column("requeued")
        table.drop_column("measuring_unix")
    op.create_table(
        "runner_status",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("updated_at", sa.Float, nullable=False),
        sa.Column("data", sa.Text, nullable=False),
        sa.CheckConstraint("id = 1", name="runner_status_one_row"),
    )
    op.drop_table("runners")
