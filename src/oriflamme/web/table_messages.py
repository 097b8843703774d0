"""The messages a live table sends its connections, each built for one seat.

A state message is built from that seat's view and from events redacted for
that seat (:mod:`oriflamme.web.protocol`): it holds nothing the seat may not
know. The functions take plain values, not the table, so that what each
message may contain is visible in its signature.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from .. import tutorial
from ..engine.action_text import action_text
from ..engine.events import Event
from ..engine.game import Game
from ..engine.view import redact
from .protocol import dumps, event_payload, result_payload, reveal_payload, view_payload
from .store import TableRecord


def table_info(record: TableRecord) -> dict[str, Any]:
    """What every page shows of a table: its deck, rules, seats and timer."""
    return {
        "id": record.id,
        "deck": record.deck,
        "players": record.players,
        "recipe": list(record.recipe),
        "rules": record.rules,
        "seats": [{"name": s.name, "kind": s.kind, "bot": s.bot} for s in record.seats],
        "turn_seconds": record.turn_seconds,
    }


def welcome_message(
    state: int, record: TableRecord, seat: int | None, invites: Sequence[dict[str, Any]] = ()
) -> str:
    """The first message of a connection that joined: the table, and who it is there.

    ``invites``: the links of the seats not joined yet, for the host to hand out (see
    :meth:`~.live_table.LiveTable.invites`); empty for everybody else."""
    return dumps(
        {
            "type": "welcome",
            "state": state,
            "table": table_info(record),
            "seat": seat,
            "role": "player" if seat is not None else "spectator",
            "lang": record.seats[seat].lang if seat is not None else "en",
            "spectator_token": record.spectator_token,
            "invites": list(invites),
        }
    )


def state_message(
    game: Game,
    events: Sequence[Sequence[Event]],
    state: int,
    seat: int | None,
    turn_left: float | None,
    can_take_back: bool,
    with_log: bool = False,
) -> str:
    """The game as ``seat`` (None: a spectator) sees it, with the last step's events, or all of them."""
    view = game.view(seat)
    legal = [action_text(game, a) for a in view.legal_actions] if view.to_move == seat else []
    msg: dict[str, Any] = {
        "type": "state",
        "state": state,
        "seat": seat,
        "view": view_payload(view),
        "events": [event_payload(redact(game, e, seat)) for e in events[-1]],
        "legal": legal,
        "result": result_payload(view),
        "reveal": reveal_payload(game),
        "turn_left": turn_left,
        "can_take_back": can_take_back,
        "lesson": lesson_payload(game, seat),
    }
    if with_log:
        msg["log"] = [[event_payload(redact(game, e, seat)) for e in step] for step in events]
    return dumps(msg)


def lesson_payload(game: Game, seat: int | None) -> dict[str, Any] | None:
    """The tutorial's lesson for its learner at this moment (None: not the learner, or no lesson now).

    ``key`` is the lesson's message key; ``move``, during the guided rounds, the action text of
    the move the lesson asks for (the page offers only that one until the person plays freely)."""
    if seat != tutorial.LEARNER:
        return None
    lesson = tutorial.lesson(game)
    if lesson is None:
        return None
    return {"key": lesson.key, "move": lesson.text}


def presence_message(
    state: int, online: list[bool], away: Iterable[int], conceded: Iterable[int], waiting: Iterable[int] = ()
) -> str:
    """Which seats are connected, played by a bot for now (away), given up, or not joined yet
    (``waiting``: until none is, no turn timer runs)."""
    return dumps(
        {
            "type": "presence",
            "state": state,
            "online": online,
            "away": sorted(away),
            "conceded": sorted(conceded),
            "waiting": sorted(waiting),
        }
    )
