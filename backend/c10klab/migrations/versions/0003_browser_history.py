"""A learner's history in solo mode is kept by browser: each run and sweep records the browser
that queued it (a random id in a cookie), so two people sharing one solo host each see their
own. In a class the owner already says whose it is; there `browser` stays empty.

Revision ID: 0003
Revises: 0002
Created: 2026-11-25
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("runs") as table:
        table.add_column(sa.Column("browser", sa.Text))
        table.create_index("runs_by_browser", ["browser", "created_unix"])
    with op.batch_alter_table("sweeps") as table:
        table.add_column(sa.Column("browser", sa.Text))
        table.create_index("sweeps_by_owner", ["owner_id", "created_at"])


def downgrade() -> None:
    with op.batch_alter_table("sweeps") as table:
        table.drop_index("sweeps_by_owner")
        table.drop_column("browser")
    with op.batch_alter_table("runs") as table:
        table.drop_index("runs_by_browser")
        table.drop_column("browser")
