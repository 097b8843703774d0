"""Mail to players who asked for it: "your turn" at a turn-based table, and "game over".

A server sends mail only when started with an SMTP server (``serve --smtp``).
News becomes a row of an *outbox* table first, and a background task of each
server process sends the rows that are due. So a mail survives a restart: a
server stopped after the news and before the sending sends it when it starts
again. Each piece of news has a key (the table, the seat, the decision), so two
processes noticing it make one row. A process claims a row before sending it,
so two processes never send the same row; the row is marked sent once the SMTP
server has accepted the mail. Only a process stopped between the SMTP server's
acceptance and that mark sends a mail twice.

Every mail carries an unsubscribe link; the texts are in the seat's language.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import secrets
import smtplib
import time
from collections.abc import Callable
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..engine.outcome import outcome
from .seat_holders import seat_holders
from .store import Storage
from .store_errors import StorageConflict

if TYPE_CHECKING:
    from .live_table import LiveTable

__all__ = ["MailSettings", "Mailer"]

log = logging.getLogger("oriflamme.web")

_LOCALES = Path(__file__).parent / "locales"
#: How many times a mail is tried before it is given up, and how long the first wait is.
MAX_ATTEMPTS = 8
FIRST_RETRY_SECONDS = 60.0
#: How long a claimed row is left to its claimer before another process may try it.
CLAIM_SECONDS = 120.0


@dataclass(frozen=True, slots=True)
class MailSettings:
    """Where mail goes out, who it is from, and the server's address as players reach it (for links)."""

    host: str
    port: int
    sender: str
    public_url: str
    username: str | None = None
    password: str | None = None
    starttls: bool = False
    #: Seconds between two looks at the outbox.
    interval: float = 5.0


@functools.cache
def _texts(lang: str) -> dict[str, Any]:
    path = _LOCALES / f"{lang}.json"
    data = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    return data if isinstance(data, dict) else {}


def text(lang: str, key: str, **values: str) -> str:
    """A mail text in ``lang`` (English where that language lacks it), its ``{names}`` filled in."""
    template = _texts(lang).get(key) or _texts("en")[key]
    for name, value in values.items():
        template = template.replace("{" + name + "}", value)
    return str(template)


class Mailer:
    """Puts news in the outbox and sends what is due."""

    def __init__(self, store: Storage, settings: MailSettings | None, clock: Callable[[], float] = time.time):
        self.store = store
        self.settings = settings
        self.clock = clock

    # ---------------------------------------------------------------- news

    async def game_over(self, table: LiveTable) -> int:
        """Tell the players with accounts who want mail that the game ended; how many mails were queued."""
        if self.settings is None:
            return 0
        record = table.record
        result = outcome(table.game)
        scores = ", ".join(
            f"{seat.name or f'#{i + 1}'} {score}"
            for i, (seat, score) in enumerate(zip(record.seats, result.scores, strict=True))
        )
        link = f"{self.settings.public_url}/replay/{record.spectator_token}"
        queued = 0
        for seat, account, name, token in await self._recipients(record.id):
            lang = record.seats[seat].lang
            body = text(lang, "mail.over_body", name=name, scores=scores, link=link)
            subject = text(lang, "mail.over_subject")
            queued += await self._queue(f"over:{record.id}:{account}", account, subject, body, lang, token)
        return queued

    async def your_turn(self, table: LiveTable, seat: int) -> int:
        """Tell a person whose decision at a turn-based table is asked, and who is not at the table."""
        if self.settings is None:
            return 0
        record = table.record
        link = f"{self.settings.public_url}/play/{record.seats[seat].token}"
        queued = 0
        for at, account, name, token in await self._recipients(record.id):
            if at != seat:
                continue
            lang = record.seats[seat].lang
            body = text(lang, "mail.turn_body", name=name, link=link)
            subject = text(lang, "mail.turn_subject")
            queued += await self._queue(
                f"turn:{record.id}:{seat}:{table.state}", account, subject, body, lang, token
            )
        return queued

    async def _recipients(self, table_id: str) -> list[tuple[int, str, str, str]]:
        """(seat, account, name, unsubscribe token) of the table's people who want mail."""
        return [
            (h.seat, h.account, h.name, h.mail_token)
            for h in await seat_holders(self.store, table_id)
            if h.mail_to is not None and h.mail_token is not None and not h.hidden
        ]

    async def _queue(self, key: str, account: str, subject: str, body: str, lang: str, token: str) -> int:
        assert self.settings is not None
        unsubscribe = f"{self.settings.public_url}/api/mail/unsubscribe/{token}"
        full = body + "\n\n-- \n" + text(lang, "mail.unsubscribe", link=unsubscribe) + "\n"
        now = self.clock()
        try:
            await self.store.run_statements(
                [
                    (
                        "INSERT INTO mail_outbox (id, key, account_id, subject, body, created, next_try) "
                        "VALUES (?, ?, ?, ?, ?, ?, ?)",
                        (secrets.token_hex(16), key, account, subject, full, now, now),
                    )
                ]
            )
        except StorageConflict:
            return 0  # the same news, queued already (here or by another process)
        return 1

    # ---------------------------------------------------------------- sending

    async def send_due(self, limit: int = 20) -> int:
        """Send the mails that are due; how many the SMTP server accepted."""
        if self.settings is None:
            return 0
        now = self.clock()
        rows = await self.store.run_statements(
            [
                (
                    "SELECT m.id, m.subject, m.body, m.attempts, m.next_try, a.email FROM mail_outbox m "
                    "JOIN accounts a ON a.id = m.account_id WHERE m.sent IS NULL AND m.next_try <= ? "
                    "AND m.attempts < ? AND a.mail_wanted AND a.email IS NOT NULL ORDER BY m.next_try LIMIT ?",
                    (now, MAX_ATTEMPTS, limit),
                )
            ]
        )
        sent = 0
        for mail_id, subject, body, attempts, next_try, address in rows:
            # Claimed by moving its next try on: a process that read the row at the same time
            # finds it changed and leaves it.
            wait = CLAIM_SECONDS + FIRST_RETRY_SECONDS * 2**attempts
            try:
                await self.store.run_statements(
                    [
                        (
                            "UPDATE mail_outbox SET next_try = ?, attempts = attempts + 1 "
                            "WHERE id = ? AND next_try = ? AND sent IS NULL",
                            (now + wait, mail_id, next_try),
                        )
                    ],
                    must_change=True,
                )
            except StorageConflict:
                continue
            try:
                await asyncio.to_thread(self._send, address, subject, body)
            except (OSError, smtplib.SMTPException) as exc:
                log.warning("mail %s to an account: not sent (%s); tried again later", mail_id, exc)
                continue
            await self.store.run_statements(
                [("UPDATE mail_outbox SET sent = ? WHERE id = ?", (self.clock(), mail_id))]
            )
            sent += 1
        return sent

    def _send(self, address: str, subject: str, body: str) -> None:
        settings = self.settings
        assert settings is not None
        message = EmailMessage()
        message["From"] = settings.sender
        message["To"] = address
        message["Subject"] = subject
        message.set_content(body)
        with smtplib.SMTP(settings.host, settings.port, timeout=30) as smtp:
            if settings.starttls:
                smtp.starttls()
            if settings.username:
                smtp.login(settings.username, settings.password or "")
            smtp.send_message(message)

    async def run_forever(self) -> None:
        """Send what is due every :attr:`MailSettings.interval` seconds, for as long as the server runs."""
        assert self.settings is not None
        while True:
            try:
                await self.send_due()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("mail: the outbox could not be read; trying again")
            await asyncio.sleep(self.settings.interval)
