"""Identities that last a class: a student's personal code (its keyed hash), which brings them
back on another device, and how many days a class's students may read their results after it
ends (7 for every class made before).

Revision ID: 0009
Revises: 0008
Created: 2026-12-07
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("people", sa.Column("personal_code_hash", sa.Text))
    op.add_column(
        "classes", sa.Column("results_days", sa.Integer, nullable=False, server_default="7")
    )


def downgrade() -> None:
    op.drop_column("classes", "results_days")
    op.drop_column("people", "personal_code_hash")
