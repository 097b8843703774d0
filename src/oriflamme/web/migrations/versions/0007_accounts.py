"""Accounts, their sessions and links, and their ratings (optional: a server without any works as before).

Revision ID: 0007
Revises: 0006
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.String(32), primary_key=True),
        # Null once the account is deleted: its games stay, its seat reads "a former player".
        sa.Column("name", sa.String(64), nullable=True),
        # The name as compared for uniqueness (see web.accounts.name_key); null once deleted.
        # (Text: normalising can make a 24-character name's key several times longer.)
        sa.Column("name_key", sa.Text, nullable=True, unique=True),
        sa.Column("password_hash", sa.Text, nullable=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("deleted", sa.Float, nullable=True),
        # Set by an administrator (oriflamme admin suspend): no log-in, no session, not on a ladder.
        sa.Column("suspended", sa.Float, nullable=True),
        # Where "your turn" and "game over" mails go (optional), whether they are wanted, and the
        # token of the unsubscribe link every mail carries.
        sa.Column("email", sa.Text, nullable=True),
        sa.Column("mail_wanted", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("mail_token", sa.String(64), nullable=True, unique=True),
    )
    op.create_table(
        "sessions",
        # A digest of the cookie's token: a copy of the database opens no session.
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column(
            "account_id", sa.String(32), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
    )
    op.create_index("sessions_account", "sessions", ["account_id"])
    op.create_table(
        "account_tokens",
        # The links an account holds (its seats, its tables' host links, games it watches): what
        # "My games" lists on any browser where its owner logs in.
        sa.Column(
            "account_id", sa.String(32), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("token", sa.Text, nullable=False),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("table_id", sa.Text, sa.ForeignKey("tables.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("added", sa.Float, nullable=False),
        sa.PrimaryKeyConstraint("account_id", "token"),
    )
    # A person's seat belongs to one account at most (what its rating will count).
    op.create_index(
        "account_tokens_seat",
        "account_tokens",
        ["table_id", "seat"],
        unique=True,
        postgresql_where=sa.text("role = 'person'"),
        sqlite_where=sa.text("role = 'person'"),
    )
    # ... and an account holds one person's seat at a table at most: nobody rates two seats at once.
    op.create_index(
        "account_tokens_one_seat",
        "account_tokens",
        ["account_id", "table_id"],
        unique=True,
        postgresql_where=sa.text("role = 'person'"),
        sqlite_where=sa.text("role = 'person'"),
    )

    # The turn timer as a column, so that a server finds its turn-based tables at start.
    op.add_column("tables", sa.Column("turn_seconds", sa.Integer, nullable=False, server_default="0"))
    # Tables anyone may watch: listed in the lobby's live games, with their players' ratings.
    op.add_column("tables", sa.Column("watchable", sa.Boolean, nullable=False, server_default=sa.false()))
    op.create_index(
        "tables_watchable",
        "tables",
        ["created"],
        postgresql_where=sa.text("watchable AND NOT finished"),
        sqlite_where=sa.text("watchable = 1 AND finished = 0"),
    )
    # The seasons begun (oriflamme admin new-season): the latest is the one played; the first from the start.
    seasons = op.create_table(
        "seasons",
        sa.Column("number", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("started", sa.Float, nullable=False),
    )
    op.bulk_insert(seasons, [{"number": 1, "started": 0.0}])
    # One rating per account, ladder (2 players, or 3 to 5) and season.
    op.create_table(
        "ratings",
        sa.Column(
            "account_id", sa.String(32), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("ladder", sa.String(8), nullable=False),
        sa.Column("season", sa.Integer, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
        sa.PrimaryKeyConstraint("account_id", "ladder", "season"),
    )
    op.create_index("ratings_board", "ratings", ["ladder", "season", "mu"])
    # A game is rated once: its row is written in the transaction that updates the ratings.
    op.create_table(
        "rated_games",
        sa.Column("table_id", sa.Text, sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("ladder", sa.String(8), nullable=False),
        sa.Column("season", sa.Integer, nullable=False),
        sa.Column("rated", sa.Float, nullable=False),
    )
    # Each account's rating after each rated game (its profile's plot).
    op.create_table(
        "rating_history",
        sa.Column(
            "account_id", sa.String(32), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("table_id", sa.Text, sa.ForeignKey("tables.id", ondelete="CASCADE"), nullable=False),
        sa.Column("ladder", sa.String(8), nullable=False),
        sa.Column("season", sa.Integer, nullable=False),
        # A tie's shared place is an average (1.5).
        sa.Column("rank", sa.Float, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.PrimaryKeyConstraint("account_id", "table_id"),
    )

    # Mails waiting to be sent, kept until sent so that a server stopped in between sends them when
    # it starts again; ``key`` makes the same news one mail, whichever process noticed it.
    op.create_table(
        "mail_outbox",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("key", sa.Text, nullable=False, unique=True),
        sa.Column(
            "account_id", sa.String(32), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("subject", sa.Text, nullable=False),
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("next_try", sa.Float, nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False, server_default="0"),
        sa.Column("sent", sa.Float, nullable=True),
    )
    op.create_index(
        "mail_outbox_due",
        "mail_outbox",
        ["next_try"],
        postgresql_where=sa.text("sent IS NULL"),
        sqlite_where=sa.text("sent IS NULL"),
    )


def downgrade() -> None:
    op.drop_index("mail_outbox_due", table_name="mail_outbox")
    op.drop_table("mail_outbox")
    op.drop_table("seasons")
    op.drop_table("rating_history")
    op.drop_table("rated_games")
    op.drop_index("ratings_board", table_name="ratings")
    op.drop_table("ratings")
    op.drop_index("tables_watchable", table_name="tables")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("watchable")
        batch.drop_column("turn_seconds")
    op.drop_index("account_tokens_one_seat", table_name="account_tokens")
    op.drop_index("account_tokens_seat", table_name="account_tokens")
    op.drop_table("account_tokens")
    op.drop_index("sessions_account", table_name="sessions")
    op.drop_table("sessions")
    op.drop_table("accounts")
