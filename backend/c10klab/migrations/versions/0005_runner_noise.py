"""A runner host's own noise: how far identical runs scatter on it, as it last measured it
(c10klab.uncertainty.HostNoise, JSON), for /api/health and each result.

Revision ID: 0005
Revises: 0004
Created: 2026-11-28
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("runners") as table:
        table.add_column(sa.Column("noise", sa.Text))


def downgrade() -> None:
    with op.batch_alter_table("runners") as table:
        table.drop_column("noise")
