"""Helpers for the web server's tests: a WebSocket seat wrapper and the hidden-card leak check."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

from oriflamme.engine.action_text import parse_action
from oriflamme.engine.cards import SLUGS
from oriflamme.engine.game import Game
from oriflamme.web.table_game import deal

CARD_KEYS = {"owner", "ctrl", "kind", "up", "ip", "verdict", "bribe", "asleep"}
#: Frames that tell what the table is like (who is here, the chat) rather than answer a message.
INFORMATION = frozenset({"presence", "chat_state"})


class Seat:
    """One WebSocket connection of the test client, remembering every frame it received."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.frames: list[str] = []
        self.last_state: dict[str, Any] | None = None

    def send(self, message: dict[str, Any] | str | bytes) -> None:
        if isinstance(message, bytes):
            self.ws.send_bytes(message)
        else:
            self.ws.send_text(message if isinstance(message, str) else json.dumps(message))

    def recv(self) -> dict[str, Any]:
        text = self.ws.receive_text()
        self.frames.append(text)
        msg: dict[str, Any] = json.loads(text)
        if msg["type"] == "state":
            self.last_state = msg
        return msg

    def until(self, wanted: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        while True:
            msg = self.recv()
            if wanted(msg):
                return msg

    def join(self, token: str) -> dict[str, Any]:
        """Join with ``token``; return the first state message."""
        self.send({"type": "join", "token": token})
        welcome = self.recv()
        assert welcome["type"] == "welcome", welcome
        return self.until(lambda m: m["type"] == "state")

    def state_at_least(self, n: int) -> dict[str, Any]:
        if self.last_state is not None and self.last_state["state"] >= n:
            return self.last_state
        return self.until(lambda m: m["type"] == "state" and m["state"] >= n)

    def act(self, action: str, state: int | None = None) -> None:
        assert self.last_state is not None
        self.send(
            {"type": "act", "state": self.last_state["state"] if state is None else state, "action": action}
        )

    def expect_error(self, code: str) -> dict[str, Any]:
        """The next frame (news of who is here and of the chat aside) is an error with ``code``, and a
        ping right after shows nothing else came."""
        msg = self.until(lambda m: m["type"] not in INFORMATION)
        assert msg["type"] == "error" and msg["code"] == code, msg
        self.send({"type": "ping"})
        assert self.until(lambda m: m["type"] not in INFORMATION)["type"] == "pong"
        return msg


def replay_states(record: Any, actions: list[str]) -> list[Game]:
    """The game after 0, 1, ... len(actions) actions."""
    g = deal(record)
    states = [g.clone()]
    for text in actions:
        g.apply(parse_action(g, text))
        states.append(g.clone())
    return states


def _walk(data: Any) -> Iterator[dict[str, Any]]:
    if isinstance(data, dict):
        yield data
        for v in data.values():
            yield from _walk(v)
    elif isinstance(data, list):
        for v in data:
            yield from _walk(v)


def _known(games: list[Game], owner: int, slug: str, seat: int | None) -> bool:
    """Whether some card of ``owner`` named ``slug`` is known to ``seat`` in one of ``games``."""
    for g in games:
        for c in range(len(g.kind)):
            if g.owner[c] == owner and SLUGS[g.kind[c]] == slug and (g.up[c] or owner == seat):
                return True
    return False


def leaks(frames: list[str], seat: int | None, states: list[Game]) -> list[str]:
    """Every place in ``frames`` where ``seat`` (None: a spectator) is told of a card hidden from it.

    A card in a view must be known at that message's state; a card named by an
    event must be known just before or just after the action that produced it.
    Cards never carry engine ids, and only the deciding seat receives legal actions.
    """
    problems: list[str] = []
    for text in frames:
        msg = json.loads(text)
        if "seed" in text:
            problems.append("a frame mentions a seed")
        if msg["type"] != "state":
            continue
        n = msg["state"]
        view = msg["view"]
        if msg.get("reveal") is not None and not states[n].is_over():
            problems.append(f"state {n}: the final reveal is sent while the game goes on")
        for d in _walk(view):
            if "owner" in d and "kind" in d:
                if set(d) != CARD_KEYS:
                    problems.append(f"state {n}: card with keys {sorted(d)}")
                if d["kind"] is not None and not _known([states[n]], d["owner"], d["kind"], seat):
                    problems.append(f"state {n}: view shows hidden p{d['owner'] + 1}:{d['kind']}")
        steps: list[tuple[int, Any]] = [(n, msg["events"])]
        if "log" in msg:
            steps += list(enumerate(msg["log"]))
        for i, events in steps:
            around = [states[i]] if i == 0 else [states[i - 1], states[i]]
            for d in _walk(events):
                for key in ("card", "hand_card"):
                    slug = d.get(key)
                    if slug is not None and "owner" in d and not _known(around, d["owner"], slug, seat):
                        problems.append(f"state {i}: event {d['type']} names hidden p{d['owner'] + 1}:{slug}")
        if msg["legal"] and view["to_move"] != seat:
            problems.append(f"state {n}: legal actions sent to a seat that is not deciding")
    return problems
