"""Who a request comes from, as far as its address tells: the keys rates, seats and bot shares count by."""

from __future__ import annotations

import contextlib
import ipaddress
from typing import Any

from starlette.requests import HTTPConnection

from .guard import client_key, network_key


def address_of(client: Any) -> str:
    """The client's address (behind a trusted proxy, uvicorn puts the real one here: see --forwarded-allow-ips)."""
    return str(client.host) if client is not None and client.host else "unknown"


def maker_of(address: str) -> str:
    """Whose turns at the bot processes a table's search bots take (:mod:`.bot_share`): the address,
    or for IPv6 its /48 network, so that a /48's many /64 networks do not get as many shares."""
    return network_key(address) or client_key(address)


def person_of(connection: HTTPConnection) -> str:
    """Who asks for a seat at an open table, as far as an address tells: an IPv6 address's /48 (as the
    bot share counts makers: one site holds 65,536 /64 networks), else its :func:`~.guard.client_key`;
    or "" (nobody in particular) for a loopback address, where every local player looks the same."""
    address = address_of(connection.client)
    with contextlib.suppress(ValueError):
        if ipaddress.ip_address(address).is_loopback:
            return ""
    return maker_of(address)
