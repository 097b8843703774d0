"""The WebSocket every table page plays and watches through (see :mod:`.protocol`).

Route::

    WS   /ws                       play (see oriflamme.web.protocol)

A connection is refused at the handshake when its page is another site's, and
told so when its address holds too many; then each frame goes to the table
registry, which checks and routes it.
"""

from __future__ import annotations

import time

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from .addresses import address_of
from .client import Client
from .guard import Refused
from .protocol import error_message
from .routes_accounts import HOST_ONLY, SESSION_COOKIE
from .server_parts import Parts

#: Frames a connection may get wrong before it is closed: a client that only sends garbage is not
#: worth a connection.
MAX_CLIENT_ERRORS = 100

router = APIRouter()


@router.websocket("/ws")
async def play(ws: WebSocket, parts: Parts) -> None:
    guard, metrics = parts.guard, parts.metrics
    if not guard.origin_allowed(ws.headers.get("origin"), ws.headers.get("host")):
        # A page of another site: refused at the handshake, before it learns anything.
        metrics.refused.labels("origin").inc()
        await ws.close(code=1008)
        return
    address = address_of(ws.client)
    await ws.accept()
    try:
        guard.open_connection(address)
    except Refused as stop:
        metrics.refused.labels("connections_per_address").inc()
        await ws.send_text(error_message("too_many_connections", stop.message))
        await ws.close(code=1008)
        return
    client = Client(ws.send_text, ws.close, address)
    parts.sockets += 1
    try:
        # An account's socket counts as its being here (online, for the friends who listed it back).
        cookie = (HOST_ONLY if ws.url.scheme == "wss" else "") + SESSION_COOKIE
        account = await parts.accounts.session(ws.cookies.get(cookie))
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            received = time.perf_counter()
            data = message.get("text")
            if data is None:
                data = message.get("bytes") or b""
            await parts.registry.handle(client, data, received)
            if account is not None:
                await parts.accounts.seen(account.id)
            if client.errors > MAX_CLIENT_ERRORS:
                break
    except WebSocketDisconnect:
        pass
    finally:
        parts.sockets -= 1
        guard.close_connection(address)
        parts.registry.disconnect(client)
