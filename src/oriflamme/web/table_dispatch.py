"""What each message of a joined connection does at its table: one handler per message type.

The registry answers ``ping`` and ``join`` itself (they are about the
connection); every other message needs a joined connection, checked once in
:func:`handler_for`, and goes to the table's method for its type.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from .client import Client, JoinedTable
from .protocol import (
    ActMessage,
    AwayMessage,
    BackMessage,
    ChatMessage,
    ChatModMessage,
    ConcedeMessage,
    NameMessage,
    ProtocolError,
    TakeBackMessage,
)

#: A table's handling of one message: (table, connection, message, when it was received) -> maybe awaitable.
Handler = Callable[[JoinedTable, Client, Any, float], Awaitable[None] | None]

#: Every message a joined connection may send its table, by type.
TABLE_HANDLERS: dict[type, Handler] = {
    ActMessage: lambda table, client, msg, received: table.act(client, msg, received),
    NameMessage: lambda table, client, msg, _: table.rename(client, msg.name),
    AwayMessage: lambda table, client, _msg, _: table.leave_or_return(client, away=True),
    BackMessage: lambda table, client, _msg, _: table.leave_or_return(client, away=False),
    ConcedeMessage: lambda table, client, _msg, _: table.concede(client),
    TakeBackMessage: lambda table, client, _msg, _: table.take_back(client),
    ChatMessage: lambda table, client, msg, _: table.say(client, msg.text),
    ChatModMessage: lambda table, client, msg, _: table.moderate(client, msg),
}


def handler_for(client: Client, msg: object) -> tuple[JoinedTable, Handler]:
    """The table of a joined connection and its handler of ``msg``; a connection that has not
    joined a table is told to join first, whatever it sent."""
    if client.table is None:
        raise ProtocolError("unauthenticated", "join the table with your token first")
    return client.table, TABLE_HANDLERS[type(msg)]
