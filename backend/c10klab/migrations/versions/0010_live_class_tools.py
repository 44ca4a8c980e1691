"""The tools of a live class: raised hands, the class's timer, announcements, and students'
answers to the lessons' "Check yourself" questions with the questions revealed
(classroom/tables.py). New tables only.

Revision ID: 0010
Revises: 0009
Created: 2026-12-07
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "hands",
        sa.Column("class_id", sa.Text, primary_key=True),
        sa.Column("person_id", sa.Text, primary_key=True),
        sa.Column("lesson", sa.Text),
        sa.Column("experiment", sa.Text),
        sa.Column("raised_at", sa.Text, nullable=False),
    )
    op.create_table(
        "class_timers",
        sa.Column("class_id", sa.Text, primary_key=True),
        sa.Column("label", sa.Text, nullable=False, server_default=""),
        sa.Column("started_at", sa.Text, nullable=False),
        sa.Column("ends_at", sa.Text, nullable=False),
    )
    op.create_table(
        "announcements",
        sa.Column("id", sa.Text, primary_key=True),
        sa.Column("class_id", sa.Text, nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("at", sa.Text, nullable=False),
    )
    op.create_index("announcements_by_class", "announcements", ["class_id", "at"])
    op.create_table(
        "question_answers",
        sa.Column("class_id", sa.Text, primary_key=True),
        sa.Column("lesson", sa.Text, primary_key=True),
        sa.Column("question", sa.Integer, primary_key=True),
        sa.Column("person_id", sa.Text, primary_key=True),
        sa.Column("answer", sa.Text, nullable=False),
        sa.Column("at", sa.Text, nullable=False),
    )
    op.create_table(
        "revealed_questions",
        sa.Column("class_id", sa.Text, primary_key=True),
        sa.Column("lesson", sa.Text, primary_key=True),
        sa.Column("question", sa.Integer, primary_key=True),
        sa.Column("at", sa.Text, nullable=False),
    )


def downgrade() -> None:
    for table in (
        "revealed_questions",
        "question_answers",
        "announcements",
        "class_timers",
        "hands",
    ):
        op.drop_table(table)
