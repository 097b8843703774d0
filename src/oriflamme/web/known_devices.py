"""Browsers that logged into an account before, recognised by a cookie (OWASP's "device cookies").

A limit on log-in attempts per account stops a password being guessed from many addresses, but
it also lets anyone lock an account's owner out, by failing on purpose. A browser that logged
into the account before carries a device cookie: its attempts count against its address only,
never against the account's limit, so its owner still gets in while a stranger is refused.

The database keeps a SHA-256 digest of each device token, as it does for sessions; a token is
good for one account and lapses after :data:`DEVICE_SECONDS`.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable

from .accounts import account_key
from .store import Storage

__all__ = ["DEVICE_SECONDS", "KnownDevices", "device_digest"]

#: How long a browser stays known without logging in again.
DEVICE_SECONDS = 365 * 24 * 3600
#: The most devices kept per account (the oldest go first).
MOST_DEVICES = 20


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def device_digest(token: str) -> str:
    """What a device token is counted by in the log-in limits (never the token itself)."""
    return _digest(token)


class KnownDevices:
    """Which browsers logged into which account (see the module's docstring)."""

    def __init__(self, store: Storage, clock: Callable[[], float]) -> None:
        self.store = store
        self.clock = clock

    async def recognised(self, token: str | None, name: str) -> bool:
        """Whether the device cookie ``token`` was given by a log-in to the account named ``name``."""
        if not token or len(token) > 64:
            return False
        rows = await self.store.run_statements(
            [
                (
                    "SELECT 1 FROM known_devices d JOIN accounts a ON a.id = d.account_id "
                    "WHERE d.token_hash = ? AND a.name_key = ? AND d.created > ?",
                    (_digest(token), account_key(name), self.clock() - DEVICE_SECONDS),
                )
            ]
        )
        return bool(rows)

    async def remember(self, account_id: str, token: str | None) -> str:
        """The device token of this browser, kept for the account (its oldest devices beyond
        :data:`MOST_DEVICES` forgotten). One browser keeps one token for every account logged into
        there: ``token``, the one it has, if the server gave it; any other value (one planted in
        the browser) is replaced by a new token."""
        if not token or len(token) > 64 or not await self._issued(token):
            token = secrets.token_urlsafe(32)
        await self.store.run_statements(
            [
                (
                    "DELETE FROM known_devices WHERE token_hash = ? AND account_id = ?",
                    (_digest(token), account_id),
                ),
                (
                    "INSERT INTO known_devices (token_hash, account_id, created) VALUES (?, ?, ?)",
                    (_digest(token), account_id, self.clock()),
                ),
                (
                    "DELETE FROM known_devices WHERE account_id = ? AND token_hash NOT IN (SELECT token_hash "
                    "FROM known_devices WHERE account_id = ? ORDER BY created DESC LIMIT ?)",
                    (account_id, account_id, MOST_DEVICES),
                ),
            ]
        )
        return token

    async def _issued(self, token: str) -> bool:
        rows = await self.store.run_statements(
            [("SELECT 1 FROM known_devices WHERE token_hash = ?", (_digest(token),))]
        )
        return bool(rows)

    async def forget_others(self, account_id: str, token: str | None) -> None:
        """Forget every browser known to the account but this one (``token``): after a new
        password, a browser that logged in with the old one is a stranger again."""
        await self.store.run_statements(
            [
                (
                    "DELETE FROM known_devices WHERE account_id = ? AND token_hash <> ?",
                    (account_id, _digest(token or "")),
                )
            ]
        )
