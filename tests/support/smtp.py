"""A real SMTP server (aiosmtpd) on a loopback port, keeping every mail it accepts."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from contextlib import contextmanager
from email import message_from_bytes
from email.message import Message
from typing import Any


class Inbox:
    """The mails the server accepted, in order."""

    def __init__(self) -> None:
        self.mails: list[Message] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.mails.append(message_from_bytes(envelope.original_content or envelope.content))
        return "250 OK"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def smtp_server(port: int | None = None) -> Iterator[tuple[int, Inbox]]:
    """An SMTP server on 127.0.0.1 for the ``with`` block: its port and its inbox."""
    from aiosmtpd.controller import Controller

    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=port or free_port())
    controller.start()
    try:
        yield controller.port, inbox
    finally:
        controller.stop()
