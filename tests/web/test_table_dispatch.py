"""Every message a connection may send has one handler, and every one but ping and join needs a
joined connection, checked in one place."""

from __future__ import annotations

import typing

import pytest
from fastapi.testclient import TestClient
from support.web import Seat

from oriflamme.web.app import create_app
from oriflamme.web.bot_runners import InlineBotRunner
from oriflamme.web.protocol import AnyClientMessage, JoinMessage, PingMessage
from oriflamme.web.table_dispatch import TABLE_HANDLERS

#: One example of each message a joined connection sends its table.
EXAMPLES = {
    "act": {"type": "act", "state": 0, "action": "keep"},
    "name": {"type": "name", "name": "Ann"},
    "away": {"type": "away"},
    "back": {"type": "back"},
    "concede": {"type": "concede"},
    "takeback": {"type": "takeback"},
    "chat": {"type": "chat", "text": "hello"},
    "chat_mod": {"type": "chat_mod", "seat": 1, "mute": True},
}


def test_every_message_of_the_protocol_but_ping_and_join_has_a_table_handler() -> None:
    kinds = set(typing.get_args(AnyClientMessage))
    assert kinds - {PingMessage, JoinMessage} == set(TABLE_HANDLERS)
    names = {kind.model_fields["type"].annotation.__args__[0] for kind in TABLE_HANDLERS}
    assert names == set(EXAMPLES)


@pytest.mark.parametrize("kind", sorted(EXAMPLES))
def test_a_connection_that_has_not_joined_is_told_to_join_first(kind: str) -> None:
    with (
        TestClient(create_app(None, bot_runner=InlineBotRunner(), bot_delay=0.0)) as client,
        client.websocket_connect("/ws") as ws,
    ):
        seat = Seat(ws)
        seat.send(EXAMPLES[kind])
        assert seat.expect_error("unauthenticated")["state"] is None
