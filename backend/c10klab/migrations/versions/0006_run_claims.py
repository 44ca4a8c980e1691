"""How many times each run was claimed: with the runner's name, a claim's identity, which every
write a runner makes to the run must still hold (runs/store.py's Lease). A run queued again
after its runner was lost is claimed anew, perhaps by the same runner, so the name alone
cannot tell the old hold from the new.

Revision ID: 0006
Revises: 0005
Created: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("runs") as table:
        table.add_column(sa.Column("claims", sa.Integer, nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("runs") as table:
        table.drop_column("claims")
