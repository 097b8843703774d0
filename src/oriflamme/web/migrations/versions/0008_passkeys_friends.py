"""Passkeys, known devices, friends, blocks, invites by name and presence (all optional, like accounts).

Revision ID: 0008
Revises: 0007
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def _account(name: str) -> sa.Column:  # type: ignore[type-arg]
    return sa.Column(name, sa.String(32), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False)


def upgrade() -> None:
    # A passkey (WebAuthn credential): a second way into an account, with no password to steal.
    op.create_table(
        "passkeys",
        # The credential's id as the authenticator gives it (base64url, no padding).
        sa.Column("credential_id", sa.Text, primary_key=True),
        _account("account_id"),
        # The credential's public key (COSE), and the signature counter it last reported.
        sa.Column("public_key", sa.LargeBinary, nullable=False),
        sa.Column("sign_count", sa.Integer, nullable=False, server_default="0"),
        # What the browser said the authenticator speaks (usb, internal, hybrid ...), comma-separated.
        sa.Column("transports", sa.Text, nullable=False, server_default=""),
        # A label its owner recognises in the list ("phone"), and when it was made and last used.
        sa.Column("label", sa.Text, nullable=False, server_default=""),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("last_used", sa.Float, nullable=True),
    )
    op.create_index("passkeys_account", "passkeys", ["account_id"])
    # The challenges of ceremonies under way: in the database, since with --workers the options
    # and the answer may reach two processes. Each is used once and lapses within minutes.
    op.create_table(
        "passkey_challenges",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("challenge", sa.Text, nullable=False),
        # "register" (an account adding a passkey: its id) or "login" (anyone: null).
        sa.Column("purpose", sa.String(16), nullable=False),
        sa.Column(
            "account_id", sa.String(32), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=True
        ),
        sa.Column("expires", sa.Float, nullable=False),
    )
    # An account's friends list: one direction (I add you); being online shows only both ways.
    op.create_table(
        "friends",
        _account("account_id"),
        _account("friend_id"),
        sa.Column("added", sa.Float, nullable=False),
        sa.PrimaryKeyConstraint("account_id", "friend_id"),
    )
    op.create_index("friends_friend", "friends", ["friend_id"])
    # Whom an account blocked: no invite and no chat from them reach it.
    op.create_table(
        "blocks",
        _account("account_id"),
        _account("blocked_id"),
        sa.Column("added", sa.Float, nullable=False),
        sa.PrimaryKeyConstraint("account_id", "blocked_id"),
    )
    op.create_index("blocks_blocked", "blocks", ["blocked_id"])
    # A seat offered to an account by name: it shows in that account's lobby until taken or
    # declined, or until the table ends; the seat's link stays with the server until then.
    op.create_table(
        "invites",
        sa.Column("table_id", sa.Text, sa.ForeignKey("tables.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        _account("from_account"),
        _account("to_account"),
        sa.Column("created", sa.Float, nullable=False),
        sa.PrimaryKeyConstraint("table_id", "seat"),
    )
    op.create_index("invites_to", "invites", ["to_account"])
    # Browsers that logged into an account before (a digest of their device cookie's token): their
    # attempts do not count towards the account's own log-in limit, so that nobody can lock its
    # owner out by failing on purpose from elsewhere (OWASP's "device cookies").
    op.create_table(
        "known_devices",
        # One browser's token serves every account logged into there.
        sa.Column("token_hash", sa.String(64), nullable=False),
        _account("account_id"),
        sa.Column("created", sa.Float, nullable=False),
        sa.PrimaryKeyConstraint("token_hash", "account_id"),
    )
    op.create_index("known_devices_account", "known_devices", ["account_id"])
    # A person's seat claimed into an account after that seat had decided something: "My games"
    # lists it, but it does not make the game rated (no keeping a won game and dropping a lost one).
    op.add_column("account_tokens", sa.Column("late", sa.Boolean, nullable=False, server_default=sa.false()))
    # A person's seat its holder forgot from "My games": hidden there, still theirs (its rating, a
    # blocker's deafness to its chat), so that forgetting a seat cannot unrate a game going badly.
    op.add_column(
        "account_tokens", sa.Column("hidden", sa.Boolean, nullable=False, server_default=sa.false())
    )
    # When an account was last seen (a page or a socket of its own): "online" for its friends.
    op.add_column("accounts", sa.Column("last_seen", sa.Float, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("last_seen")
    with op.batch_alter_table("account_tokens") as batch:
        batch.drop_column("hidden")
        batch.drop_column("late")
    op.drop_index("known_devices_account", table_name="known_devices")
    op.drop_table("known_devices")
    op.drop_index("invites_to", table_name="invites")
    op.drop_table("invites")
    op.drop_index("blocks_blocked", table_name="blocks")
    op.drop_table("blocks")
    op.drop_index("friends_friend", table_name="friends")
    op.drop_table("friends")
    op.drop_table("passkey_challenges")
    op.drop_index("passkeys_account", table_name="passkeys")
    op.drop_table("passkeys")
