"""The exercises an instructor assigns to a class, each with an optional due time: the columns
of the class's gradebook (classroom/tables.py).

Revision ID: 0007
Revises: 0006
Created: 2026-12-07
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "assignments",
        sa.Column("class_id", sa.Text, primary_key=True),
        sa.Column("exercise", sa.Text, primary_key=True),
        sa.Column("due_at", sa.Text),
        sa.Column("assigned_at", sa.Text, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("assignments")
