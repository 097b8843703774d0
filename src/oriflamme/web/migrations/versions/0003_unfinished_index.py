"""An index of the unfinished tables, which a server looks up at start.

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index(
        "tables_unfinished",
        "tables",
        ["created"],
        postgresql_where=sa.text("NOT finished"),
        sqlite_where=sa.text("finished = 0"),
    )


def downgrade() -> None:
    op.drop_index("tables_unfinished", table_name="tables")
