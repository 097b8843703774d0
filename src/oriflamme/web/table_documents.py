"""What the HTTP API answers about one table: its lobby summary, its save file's seats, its replay."""

from __future__ import annotations

from typing import Any

from ..engine.events import Event
from ..engine.game import Game
from ..engine.view import redact
from ..notation.replay import replay
from .live_table import LiveTable
from .protocol import dumps, event_payload, result_payload, reveal_payload, view_payload
from .table_game import table_setup
from .table_messages import table_info


def table_summary(table: LiveTable, token: str, role: str, seat: int | None) -> dict[str, Any]:
    """What the lobby shows about one table to the holder of ``token``."""
    g = table.game
    r = table.record
    online = table.online()
    seats = []
    for i, s in enumerate(r.seats):
        entry: dict[str, Any] = {
            "name": s.name,
            "kind": s.kind,
            "bot": s.bot,
            "joined": s.kind == "bot" or i in table.joined,
            "online": online[i],
        }
        if role == "host" and s.kind == "person" and r.host_sees_links:
            entry["token"] = s.token  # the host hands out the invite links (never a stranger's)
        seats.append(entry)
    return {
        "token": token,
        "role": role,
        "seat": seat,
        "table": r.id,
        "deck": r.deck,
        "players": r.players,
        "created": r.created,
        "round": g.round,
        "rounds": g.rules.rounds,
        "state": table.state,
        "over": g.is_over(),
        "to_move": g.current_player(),
        "scores": list(g.score),
        "winners": list(g.winners),
        "spectator": r.spectator_token,
        "seats": seats,
    }


def save_seats(table: LiveTable) -> list[str]:
    """Who played each seat, in the terminal's terms: ``you`` for a person, a bot's spec.

    So ``oriflamme review`` judges the people's moves and ``oriflamme play --load`` seats the same bots.
    """
    return [s.bot if s.kind == "bot" and s.bot else "you" for s in table.record.seats]


def replay_document(table: LiveTable, seat: int | None) -> str:
    """Every state of a finished game as ``seat`` saw it (None: public information only)."""
    steps: list[dict[str, Any]] = []

    def snapshot(g: Game, events: list[Event], text: str | None, actor: int) -> None:
        view = g.view(seat)
        steps.append(
            {
                "state": view.state_number,
                # A seat sees its own choices; others see only what the events tell.
                "action": text if actor == seat else None,
                "actor": None if actor < 0 else actor,
                "view": view_payload(view),
                "events": [event_payload(redact(g, e, seat)) for e in events],
                "result": result_payload(view),
                "reveal": reveal_payload(g),
            }
        )

    replay(table_setup(table.record), table.actions, snapshot)
    info = table_info(table.record)
    return dumps({"table": info, "seat": seat, "steps": steps})
