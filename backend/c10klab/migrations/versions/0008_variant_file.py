"""The file a variant edits when it is not its server's model file: a shared module an
exercise names, such as servers/c/protocol.c (variants/tables.py). Null for every variant
before it: they all edited the model file.

Revision ID: 0008
Revises: 0007
Created: 2026-12-07
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("variants", sa.Column("file", sa.Text))


def downgrade() -> None:
    op.drop_column("variants", "file")
