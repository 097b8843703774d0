"""Optional player accounts: a name and a password, and sessions that a cookie carries.

A server works without any account, as before: a seat is a link. An account
adds an identity that outlives one browser. What matters here is what an
attacker can learn or do:

- passwords are hashed with Argon2id (``pwdlib``), on a thread, since a hash
  costs a tenth of a second of CPU by design;
- a wrong name and a wrong password get the same answer, after the same
  work (an unknown name is checked against a stand-in hash);
- a session is a random token in an HttpOnly cookie; the database keeps only
  its SHA-256 digest, so a copy of the database opens no session; logging in
  always makes a new token (no session fixation), and a changed password ends
  every other session;
- deleting an account erases its name and password hash at once (its games
  stay; a seat it played reads "a former player"), and the name is free again.

The rate limits on logging in and registering are the :class:`~.guard.Guard`'s.
"""

from __future__ import annotations

import asyncio
import hashlib
import re
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .account_names import account_key, name_key, reads_as_a_default_name
from .names import MAX_NAME, RESERVED_NAME, clean_name, looks_like_a_default_name
from .store import Statement, Storage, TokenRef
from .store_errors import StorageConflict

__all__ = [
    "Account",
    "AccountError",
    "Accounts",
    "account_key",
    "name_key",
]

#: How long a session lasts without logging in again.
SESSION_SECONDS = 30 * 24 * 3600
#: Password length: long enough to resist guessing, short enough that hashing one is bounded.
MIN_PASSWORD = 8
MAX_PASSWORD = 256
MIN_NAME = 2
MAX_EMAIL = 254
#: An account's last visit is written at most this often (seconds), per process: being online is
#: counted in minutes, and a write per request would cost every page and socket a database write.
SEEN_EVERY = 60.0
#: Accounts whose last write this process remembers; past this many, it starts again from none.
SEEN_KEPT = 10_000
#: An address as mail software takes it: something, one @, a domain with a dot (no spaces, no brackets).
_EMAIL = re.compile(r"[^@\s<>()\[\],;:\"]+@[^@\s<>()\[\],;:\"]+\.[^@\s<>()\[\],;:\"]+")
#: The one answer to a failed log-in, whichever part was wrong.
WRONG_CREDENTIALS = "wrong name or password"
SUSPENDED = "this account is suspended; ask the server's administrator"


@dataclass(frozen=True, slots=True)
class Account:
    """An account as the server shows it to its owner."""

    id: str
    name: str
    created: float
    #: Where its mail goes (None: no mail), and whether mail is wanted there.
    email: str | None = None
    mail_wanted: bool = False


class AccountError(Exception):
    """A request about an account that cannot be done; the message is safe to show, with its HTTP status."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _hasher() -> Any:
    from pwdlib import PasswordHash
    from pwdlib.hashers.argon2 import Argon2Hasher

    return PasswordHash((Argon2Hasher(),))


class Accounts:
    """Registering, logging in and out, changing a password, deleting and exporting an account."""

    def __init__(self, store: Storage, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.clock = clock
        self._hash = _hasher()
        # What an unknown name's password is checked against, so that it costs what a known one does.
        self._stand_in = self._hash.hash(secrets.token_urlsafe(16))
        #: When this process last wrote each account's last visit (see :meth:`seen`).
        self._seen: dict[str, float] = {}

    # ---------------------------------------------------------------- checks

    @staticmethod
    def checked_name(text: str) -> str:
        """The name as it will be shown, or AccountError saying why it cannot be an account's."""
        name = clean_name(text)
        if len(name_key(name)) < MIN_NAME:
            raise AccountError(f"a name needs at least {MIN_NAME} letters or digits")
        if len(text.strip()) > MAX_NAME:
            raise AccountError(f"a name has at most {MAX_NAME} characters")
        if looks_like_a_default_name(name) or reads_as_a_default_name(name):
            raise AccountError(RESERVED_NAME)
        return name

    @staticmethod
    def checked_password(password: str) -> str:
        if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
            raise AccountError(f"a password has {MIN_PASSWORD} to {MAX_PASSWORD} characters")
        return password

    # ---------------------------------------------------------------- the owner's requests

    async def register(self, name: str, password: str) -> tuple[Account, str]:
        """A new account and a session token for it; AccountError (409) if the name is taken."""
        shown = self.checked_name(name)
        hashed = await asyncio.to_thread(self._hash.hash, self.checked_password(password))
        account = Account(secrets.token_hex(16), shown, self.clock())
        try:
            await self.store.run_statements(
                [
                    (
                        "INSERT INTO accounts (id, name, name_key, password_hash, created) VALUES (?, ?, ?, ?, ?)",
                        (account.id, shown, name_key(shown), hashed, account.created),
                    )
                ]
            )
        except StorageConflict:
            raise AccountError(f"the name {shown!r} is taken", 409) from None
        return account, await self._new_session(account.id)

    async def log_in(self, name: str, password: str) -> tuple[Account, str]:
        """The account and a new session token; AccountError (401) with one message for any mistake."""
        rows = await self.store.run_statements(
            [
                (
                    "SELECT id, name, created, password_hash, suspended FROM accounts WHERE name_key = ?",
                    (account_key(name),),
                )
            ]
        )
        hashed = rows[0][3] if rows else self._stand_in
        good = await asyncio.to_thread(self._hash.verify, password[:MAX_PASSWORD], hashed)
        if not rows or not good:
            raise AccountError(WRONG_CREDENTIALS, 401)
        account_id, shown, created, _, suspended = rows[0]
        if suspended is not None:
            raise AccountError(SUSPENDED, 403)  # said only to whoever knows the password
        return Account(account_id, shown, created), await self._new_session(account_id)

    async def log_in_proven(self, account_id: str) -> tuple[Account, str]:
        """The account and a new session token, for a log-in proven otherwise than by the password (a
        passkey); AccountError if the account is deleted (401) or suspended (403)."""
        rows = await self.store.run_statements(
            [
                (
                    "SELECT name, created, suspended FROM accounts WHERE id = ? AND deleted IS NULL",
                    (account_id,),
                )
            ]
        )
        if not rows:
            raise AccountError("this account no longer exists", 401)  # deleted while its passkey answered
        shown, created, suspended = rows[0]
        if suspended is not None:
            raise AccountError(SUSPENDED, 403)  # said only to whoever holds the account's passkey
        return Account(account_id, shown, created), await self._new_session(account_id)

    async def session(self, token: str | None) -> Account | None:
        """The account a session token opens (None: no such session, or it ended)."""
        if not token or len(token) > 128:
            return None
        rows = await self.store.run_statements(
            [
                (
                    "SELECT a.id, a.name, a.created, a.email, a.mail_wanted FROM sessions s "
                    "JOIN accounts a ON a.id = s.account_id "
                    "WHERE s.token_hash = ? AND s.expires > ? AND a.deleted IS NULL AND a.suspended IS NULL",
                    (_digest(token), self.clock()),
                )
            ]
        )
        if not rows:
            return None
        account_id, name, created, email, wanted = rows[0]
        await self.seen(account_id)
        return Account(account_id, name, created, email, bool(wanted))

    async def seen(self, account_id: str) -> None:
        """Note that the account is here now (its session opened a page, an API call or a socket):
        written at most once a :data:`SEEN_EVERY` per account and process."""
        now = self.clock()
        if now - self._seen.get(account_id, float("-inf")) < SEEN_EVERY:
            return
        if len(self._seen) >= SEEN_KEPT:
            self._seen.clear()
        self._seen[account_id] = now
        await self.store.run_statements(
            [
                (
                    "UPDATE accounts SET last_seen = ? WHERE id = ? AND deleted IS NULL AND suspended IS NULL",
                    (now, account_id),
                )
            ]
        )

    async def log_out(self, token: str) -> None:
        await self.store.run_statements([("DELETE FROM sessions WHERE token_hash = ?", (_digest(token),))])

    async def change_password(self, account: Account, current: str, new: str, token: str) -> None:
        """Set a new password (the current one is asked again) and end every other session."""
        await self._check_password(account, current)
        hashed = await asyncio.to_thread(self._hash.hash, self.checked_password(new))
        await self.store.run_statements(
            [
                ("UPDATE accounts SET password_hash = ? WHERE id = ?", (hashed, account.id)),
                (
                    "DELETE FROM sessions WHERE account_id = ? AND token_hash <> ?",
                    (account.id, _digest(token)),
                ),
            ]
        )

    async def delete(self, account: Account, password: str) -> list[tuple[str, int]]:
        """Erase the account's name and password and end its sessions; the row stays as "a former player".
        The seats whose names were erased, as :meth:`erase` gives them."""
        await self._check_password(account, password)
        return await self.erase(account.id)

    async def erase(self, account_id: str) -> list[tuple[str, int]]:
        """Erase an account's personal data (its owner's request, or an administrator's).

        The seats (table, seat) it played, whose names are erased from the store: tables loaded in
        memory show them until told (:meth:`~.tables.Registry.names_erased`)."""
        seats = await self.store.run_statements(
            [
                (
                    "SELECT table_id, seat FROM account_tokens WHERE account_id = ? AND role = 'person'",
                    (account_id,),
                )
            ]
        )
        await self.store.run_statements(
            [
                (
                    "UPDATE accounts SET name = NULL, name_key = NULL, password_hash = NULL, email = NULL, "
                    "mail_wanted = FALSE, mail_token = NULL, last_seen = NULL, deleted = ? WHERE id = ?",
                    (self.clock(), account_id),
                ),
                ("DELETE FROM sessions WHERE account_id = ?", (account_id,)),
                # The names its seats were shown by go too: the games stay, with default seat names.
                (
                    "UPDATE seats SET name = '' WHERE EXISTS (SELECT 1 FROM account_tokens t "
                    "WHERE t.account_id = ? AND t.role = 'person' AND t.table_id = seats.table_id "
                    "AND t.seat = seats.seat)",
                    (account_id,),
                ),
                ("DELETE FROM account_tokens WHERE account_id = ?", (account_id,)),
                ("DELETE FROM rating_history WHERE account_id = ?", (account_id,)),
                ("DELETE FROM mail_outbox WHERE account_id = ?", (account_id,)),
                ("DELETE FROM ratings WHERE account_id = ?", (account_id,)),
                ("DELETE FROM passkeys WHERE account_id = ?", (account_id,)),
                ("DELETE FROM known_devices WHERE account_id = ?", (account_id,)),
                ("DELETE FROM passkey_challenges WHERE account_id = ?", (account_id,)),
                # Whom it listed, and who listed it: a former player is nobody's friend nor foe.
                ("DELETE FROM friends WHERE account_id = ? OR friend_id = ?", (account_id, account_id)),
                ("DELETE FROM blocks WHERE account_id = ? OR blocked_id = ?", (account_id, account_id)),
                ("DELETE FROM invites WHERE from_account = ? OR to_account = ?", (account_id, account_id)),
            ]
        )
        return [(str(table_id), int(seat)) for table_id, seat in seats]

    async def export(self, account: Account) -> dict[str, Any]:
        """Everything the server keeps about the account, for its owner (JSON data)."""
        rows = await self.store.run_statements(
            [("SELECT created, expires FROM sessions WHERE account_id = ? ORDER BY created", (account.id,))]
        )
        links = await self.store.run_statements(
            [
                (
                    "SELECT table_id, role, seat, added FROM account_tokens WHERE account_id = ? ORDER BY added",
                    (account.id,),
                )
            ]
        )
        ratings = await self.store.run_statements(
            [
                (
                    "SELECT ladder, season, mu, sigma, games FROM ratings WHERE account_id = ? ORDER BY ladder, season",
                    (account.id,),
                )
            ]
        )
        history = await self.store.run_statements(
            [
                (
                    "SELECT table_id, ladder, season, rank, mu, sigma, at FROM rating_history WHERE account_id = ? "
                    "ORDER BY at",
                    (account.id,),
                )
            ]
        )
        passkeys = await self.store.run_statements(
            [
                (
                    "SELECT label, created, last_used, transports FROM passkeys WHERE account_id = ? ORDER BY created",
                    (account.id,),
                )
            ]
        )
        return {
            "format": "oriflamme-account-export",
            "version": 1,
            "account": {"name": account.name, "created": account.created, "email": account.email},
            "sessions": [{"started": created, "expires": expires} for created, expires in rows],
            # The tables it holds links to (not the links themselves: a download may be shared).
            "tables": [{"table": t, "role": r, "seat": seat, "added": a} for t, r, seat, a in links],
            "ratings": [
                {"ladder": ladder, "season": season, "mu": mu, "sigma": sigma, "games": games}
                for ladder, season, mu, sigma, games in ratings
            ],
            # Its passkeys as its owner knows them (not their public keys: they open nothing, but say nothing either).
            "passkeys": [
                {
                    "label": label,
                    "created": created,
                    "last_used": used,
                    "transports": transports.split(",") if transports else [],
                }
                for label, created, used, transports in passkeys
            ],
            "rated_games": [
                {
                    "table": t,
                    "ladder": ladder,
                    "season": season,
                    "rank": rank,
                    "mu": mu,
                    "sigma": sigma,
                    "at": at,
                }
                for t, ladder, season, rank, mu, sigma, at in history
            ],
            **await self._social_export(account),
        }

    async def _social_export(self, account: Account) -> dict[str, Any]:
        """The export's lists of people and devices: friends, blocks, invitations both ways, the
        browsers known to the account (when they became known; not their tokens), the last visit."""
        me = account.id

        async def rows(sql: str) -> list[tuple[Any, ...]]:
            return await self.store.run_statements([(sql, (me,))])

        named = "SELECT a.name, x.added FROM {} x JOIN accounts a ON a.id = x.{} WHERE x.account_id = ? ORDER BY x.added"
        invites = "SELECT i.table_id, i.seat, a.name, i.created FROM invites i JOIN accounts a ON a.id = i.{} WHERE i.{} = ? ORDER BY i.created"
        friends = await rows(named.format("friends", "friend_id"))
        blocks = await rows(named.format("blocks", "blocked_id"))
        sent = await rows(invites.format("to_account", "from_account"))
        received = await rows(invites.format("from_account", "to_account"))
        devices = await rows("SELECT created FROM known_devices WHERE account_id = ? ORDER BY created")
        seen = await rows("SELECT last_seen FROM accounts WHERE id = ?")
        return {
            "friends": [{"name": n, "added": a} for n, a in friends],
            "blocks": [{"name": n, "added": a} for n, a in blocks],
            "invitations_sent": [{"table": t, "seat": s, "to": n, "at": a} for t, s, n, a in sent],
            "invitations_received": [{"table": t, "seat": s, "by": n, "at": a} for t, s, n, a in received],
            "known_browsers": [{"since": c} for (c,) in devices],
            "last_seen": seen[0][0] if seen else None,
        }

    # ---------------------------------------------------------------- mail

    async def set_email(self, account: Account, email: str) -> str | None:
        """Send the account's mail to ``email`` ("" stops all mail); the address kept."""
        address = email.strip()
        if not address:
            await self.store.run_statements(
                [("UPDATE accounts SET email = NULL, mail_wanted = FALSE WHERE id = ?", (account.id,))]
            )
            return None
        if len(address) > MAX_EMAIL or not _EMAIL.fullmatch(address):
            raise AccountError("that does not look like an e-mail address")
        await self.store.run_statements(
            [
                (
                    "UPDATE accounts SET email = ?, mail_wanted = TRUE, mail_token = ? WHERE id = ?",
                    (address, secrets.token_urlsafe(24), account.id),
                )
            ]
        )
        return address

    async def unsubscribe(self, token: str) -> bool:
        """Stop the mail of the account whose unsubscribe link holds ``token``; whether one did."""
        if not token or len(token) > 64:
            return False
        try:
            await self.store.run_statements(
                [("UPDATE accounts SET mail_wanted = FALSE WHERE mail_token = ?", (token,))], must_change=True
            )
        except StorageConflict:
            return False
        return True

    # ---------------------------------------------------------------- an administrator's requests

    async def find(self, name: str) -> tuple[str, str, float, float | None]:
        """(id, name, created, suspended since) of the account named ``name`` (lookalikes too)."""
        rows = await self.store.run_statements(
            [
                (
                    "SELECT id, name, created, suspended FROM accounts WHERE name_key = ?",
                    (account_key(name),),
                )
            ]
        )
        if not rows:
            raise AccountError(f"no account is named {name!r}", 404)
        account_id, shown, created, suspended = rows[0]
        return account_id, shown, created, suspended

    async def public(self, name: str) -> Account | None:
        """The account a profile link names (lookalikes too), unless it is deleted or suspended."""
        try:
            account_id, shown, created, suspended = await self.find(name)
        except AccountError:
            return None
        return None if suspended is not None else Account(account_id, shown, created)

    async def listed(self) -> list[tuple[str, float, float | None]]:
        """Every account not deleted: (name, created, suspended since), by name."""
        rows = await self.store.run_statements(
            [("SELECT name, created, suspended FROM accounts WHERE deleted IS NULL ORDER BY name_key", ())]
        )
        return [(name, created, suspended) for name, created, suspended in rows]

    async def rename(self, name: str, new: str) -> str:
        """Give the account ``name`` the name ``new`` (checked as a registration's); the name shown."""
        account_id, _, _, _ = await self.find(name)
        shown = self.checked_name(new)
        try:
            await self.store.run_statements(
                [
                    (
                        "UPDATE accounts SET name = ?, name_key = ? WHERE id = ?",
                        (shown, name_key(shown), account_id),
                    )
                ]
            )
        except StorageConflict:
            raise AccountError(f"the name {shown!r} is taken", 409) from None
        return shown

    async def suspend(self, name: str, suspended: bool) -> None:
        """Suspend the account (its sessions end; it cannot log in; it leaves the ladders), or lift that."""
        account_id, _, _, _ = await self.find(name)
        statements: list[Statement] = [
            (
                "UPDATE accounts SET suspended = ? WHERE id = ?",
                (self.clock() if suspended else None, account_id),
            )
        ]
        if suspended:
            statements.append(("DELETE FROM sessions WHERE account_id = ?", (account_id,)))
        await self.store.run_statements(statements)

    # ---------------------------------------------------------------- the links an account holds

    async def keep_links(
        self, account: Account, links: list[tuple[str, TokenRef]], late: frozenset[str] = frozenset()
    ) -> list[str]:
        """Keep ``links`` (tokens and what they open) with the account; the tokens refused, each a person's
        seat another account holds already. A link kept already is kept once, as first kept. The
        tokens in ``late`` are seats that decided something already: kept, but not rated."""
        refused: list[str] = []
        for token, ref in links:
            try:
                await self.store.run_statements(
                    [
                        (
                            "INSERT INTO account_tokens (account_id, token, role, table_id, seat, added, late) "
                            "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (account_id, token) DO UPDATE SET hidden = FALSE",
                            (
                                account.id,
                                token,
                                ref.role,
                                ref.table_id,
                                ref.seat,
                                self.clock(),
                                token in late,
                            ),
                        )
                    ]
                )
            except StorageConflict:
                refused.append(token)
        return refused

    async def links(self, account: Account, limit: int = 200) -> list[tuple[str, str]]:
        """The account's links, newest first: (token, role)."""
        rows = await self.store.run_statements(
            [
                (
                    "SELECT token, role FROM account_tokens WHERE account_id = ? AND NOT hidden "
                    "ORDER BY added DESC LIMIT ?",
                    (account.id, limit),
                )
            ]
        )
        return [(token, role) for token, role in rows]

    async def forget_links(self, account: Account, tokens: list[str]) -> None:
        """Drop ``tokens`` from the account's links; a person's seat is only hidden: it stays the
        account's (its rating), so that forgetting a game going badly cannot leave it unrated."""
        statements: list[Statement] = []
        for t in tokens:
            statements += [
                (
                    "UPDATE account_tokens SET hidden = TRUE WHERE account_id = ? AND token = ? AND role = 'person'",
                    (account.id, t),
                ),
                (
                    "DELETE FROM account_tokens WHERE account_id = ? AND token = ? AND role <> 'person'",
                    (account.id, t),
                ),
            ]
        await self.store.run_statements(statements)

    # ---------------------------------------------------------------- helpers

    async def check_password(self, account: Account, password: str) -> None:
        """AccountError (403) unless ``password`` is the account's."""
        await self._check_password(account, password)

    async def _check_password(self, account: Account, password: str) -> None:
        rows = await self.store.run_statements(
            [("SELECT password_hash FROM accounts WHERE id = ? AND deleted IS NULL", (account.id,))]
        )
        hashed = rows[0][0] if rows else self._stand_in
        if not await asyncio.to_thread(self._hash.verify, password[:MAX_PASSWORD], hashed) or not rows:
            raise AccountError("the password is not right", 403)

    async def _new_session(self, account_id: str) -> str:
        token = secrets.token_urlsafe(32)
        now = self.clock()
        await self.store.run_statements(
            [
                # Ended sessions go as new ones come: the table holds only live ones.
                ("DELETE FROM sessions WHERE account_id = ? AND expires <= ?", (account_id, now)),
                (
                    "INSERT INTO sessions (token_hash, account_id, created, expires) VALUES (?, ?, ?, ?)",
                    (_digest(token), account_id, now, now + SESSION_SECONDS),
                ),
            ]
        )
        return token
