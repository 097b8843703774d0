"""Open tables: listed in the lobby, where anyone may take a free person seat.

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A plain ADD COLUMN (SQLite has it): a batch copy of `tables` would trip the keys that point at it.
    op.add_column("tables", sa.Column("open", sa.Boolean, nullable=False, server_default=sa.false()))
    op.create_index(
        "tables_open",
        "tables",
        ["created"],
        postgresql_where=sa.text("open AND NOT finished"),
        sqlite_where=sa.text("open = 1 AND finished = 0"),
    )


def downgrade() -> None:
    op.drop_index("tables_open", table_name="tables")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("open")
