"""The one set of scenario helpers: build a table in position notation, play text actions, read it back.

The scenarios read like the rulebook examples: build a position, play the
players' choices in action text, then look at the queue, the supplies and the
piles. Seats follow the examples' colours: Red is p1 (seat 0), Blue p2, Green
p3, Yellow p4. The per-box modules (:mod:`support.base`, ``ablaze``,
``alliance``) only fix the deck.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from oriflamme import Game, action_text, build_position, parse_action, queue_string
from oriflamme.engine.events import NAMES, Event
from oriflamme.notation.position import pile_slugs

R, B, G, Y = 0, 1, 2, 3


def table(
    queue: str,
    scores: Sequence[int] | None = None,
    players: int = 3,
    round: int = 6,
    *,
    deck: str = "base",
    **kw: Any,
) -> Game:
    """A position run to its first decision; by default in the last round, so the game ends after it.

    Round 6 is the default so that the game ends right after the resolution
    under test: later rounds would make face-up cards act again and blur the
    numbers the test is about.
    """
    return build_position(players, deck, queue, scores=scores, round=round, **kw)


def play(g: Game, *moves: str) -> list[Event]:
    """Apply each move (action text) in turn; return all the events they caused."""
    out: list[Event] = []
    for move in moves:
        out.extend(g.apply(parse_action(g, move)))
    return out


def options(g: Game) -> list[str]:
    """The legal actions of the pending decision, as text."""
    return [action_text(g, a) for a in g.legal_actions()]


def queue(g: Game) -> str:
    """The queue in position notation."""
    return queue_string(g)


def pile(g: Game, seat: int) -> list[str]:
    """The slugs in ``seat``'s discard pile, in the order the cards arrived."""
    return pile_slugs(g, g.discards[seat])


def kept_slugs(g: Game, seat: int) -> list[str]:
    return pile_slugs(g, g.kept[seat])


def hand_slugs(g: Game, seat: int) -> list[str]:
    return pile_slugs(g, g.hands[seat])


def aside_slugs(g: Game, seat: int) -> list[str]:
    return pile_slugs(g, g.aside[seat])


def event_names(events: Sequence[Event]) -> list[str]:
    return [NAMES[e[0]] for e in events]


def events_of(g: Game, code: int) -> list[tuple[int, ...]]:
    """The events of one code produced by the last step (build or apply)."""
    return [e for e in g.events if e[0] == code]


def waiting_for(g: Game) -> tuple[str | None, int, int]:
    """Who must decide what, and at which queue index the resolution stands."""
    return g.decision(), g.current_player(), g.ptr
