"""Table ownership for several server processes: a lease per live table, and a heartbeat per process.

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "leases",
        sa.Column("table_id", sa.Text, sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("owner", sa.Text, nullable=False),
        # Seconds since the epoch, by the database's clock (every process reads the same one).
        sa.Column("expires", sa.Float, nullable=False),
        # Raised at every change of owner.
        sa.Column("epoch", sa.Integer, nullable=False, server_default="1"),
    )
    op.create_index("leases_owner", "leases", ["owner"])
    op.create_table(
        "workers",
        sa.Column("id", sa.Text, primary_key=True),
        sa.Column("seen", sa.Float, nullable=False),
        sa.Column("started", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("workers")
    op.drop_index("leases_owner", table_name="leases")
    op.drop_table("leases")
