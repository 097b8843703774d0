"""Shared helpers for the base-game scenario tests.

The scenarios read like the rulebook examples: build a table in position
notation, play the players' choices in action text, then look at the queue,
the supplies and the piles. Seats follow the examples' colours: Red is p1,
Blue p2, Green p3, Yellow p4.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from oriflamme import Game
from oriflamme.engine.action_text import action_text, parse_action
from oriflamme.engine.events import NAMES, Event
from oriflamme.notation.position import build_position, pile_slugs

R, B, G, Y = 0, 1, 2, 3


def table(
    queue: str,
    scores: Sequence[int] | None = None,
    players: int = 3,
    round: int = 6,
    **kw: Any,
) -> Game:
    """A base-game position, run to its first decision.

    Round 6 is the default so that the game ends right after the resolution
    under test: later rounds would make face-up cards act again and blur the
    numbers the test is about.
    """
    return build_position(players, "base", queue, scores=scores, round=round, **kw)


def options(g: Game) -> list[str]:
    """The legal actions of the pending decision, as text."""
    return [action_text(g, a) for a in g.legal_actions()]


def play(g: Game, *moves: str) -> list[Event]:
    """Apply each move (action text) in turn; return all the events they caused."""
    out: list[Event] = []
    for move in moves:
        out.extend(g.apply(parse_action(g, move)))
    return out


def pile(g: Game, seat: int) -> list[str]:
    """The slugs in ``seat``'s discard pile, in the order the cards arrived."""
    return pile_slugs(g, g.discards[seat])


def event_names(events: Sequence[Event]) -> list[str]:
    return [NAMES[e[0]] for e in events]


def waiting_for(g: Game) -> tuple[str | None, int, int]:
    """Who must decide what, and at which queue index the resolution stands."""
    return g.decision(), g.current_player(), g.ptr
