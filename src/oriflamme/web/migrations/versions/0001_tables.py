"""The first layout: tables (setup and progress), seats, tokens, and one row per action.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tables",
        sa.Column("id", sa.Text, primary_key=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("setup", sa.Text, nullable=False),
        sa.Column("spectator_token", sa.Text, nullable=False),
        sa.Column("host_token", sa.Text, nullable=False),
        sa.Column("finished", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    op.create_table(
        "seats",
        sa.Column("table_id", sa.Text, sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("kind", sa.Text, nullable=False),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("token", sa.Text, nullable=False, unique=True),
        sa.Column("bot", sa.Text),
        sa.Column("lang", sa.Text, nullable=False),
        sa.Column("joined", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    op.create_table(
        "tokens",
        sa.Column("token", sa.Text, primary_key=True),
        sa.Column("table_id", sa.Text, sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("role", sa.Text, nullable=False),
        sa.Column("seat", sa.Integer),
    )
    op.create_table(
        "actions",
        sa.Column("table_id", sa.Text, sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("idx", sa.Integer, primary_key=True),
        sa.Column("action", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    for name in ("actions", "tokens", "seats", "tables"):
        op.drop_table(name)
