"""A class's staff beside its instructor: co-teachers and teaching assistants
(people/tables.py). A new table only.

Revision ID: 0011
Revises: 0010
Created: 2026-12-07
"""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "class_staff",
        sa.Column("class_id", sa.Text, sa.ForeignKey("classes.id"), primary_key=True),
        sa.Column("person_id", sa.Text, sa.ForeignKey("people.id"), primary_key=True),
        sa.Column("role", sa.Text, nullable=False),
        sa.Column("added_at", sa.Text, nullable=False),
        sa.CheckConstraint("role IN ('co-teacher', 'assistant')", name="class_staff_role"),
    )


def downgrade() -> None:
    op.drop_table("class_staff")
