"""Learners' edited servers: a variant is one edited model file, kept with the run that
builds and checks it, and whose it is.

Revision ID: 0004
Revises: 0003
Created: 2026-11-25
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "variants",
        sa.Column("id", sa.Text, primary_key=True),
        sa.Column("server", sa.Text, nullable=False),
        sa.Column("source", sa.Text, nullable=False),
        sa.Column("source_sha256", sa.Text, nullable=False),
        sa.Column("exercise", sa.Text),
        sa.Column("check_run_id", sa.Text, nullable=False),
        sa.Column("created_at", sa.Text, nullable=False),
        sa.Column("owner_id", sa.Text, nullable=False, server_default="solo"),
        sa.Column("class_id", sa.Text),
        sa.Column("browser", sa.Text),
    )
    op.create_index("variants_by_owner", "variants", ["owner_id", "created_at"])


def downgrade() -> None:
    op.drop_index("variants_by_owner", "variants")
    op.drop_table("variants")
