"""Small helpers for the Ablaze scenario tests: build a table, play text actions, read it back.

Seats in the scenarios follow the notes' colours: Red is p1 (seat 0), Blue p2,
Green p3, Yellow p4. A face-down card whose identity does not matter is written
as a card without a "when eliminated" or "when revealed" clause (Schemer, Felon,
Heir, ...), face down.
"""

from __future__ import annotations

from collections.abc import Sequence

from oriflamme.engine.action_text import action_text, parse_action
from oriflamme.engine.game import Game
from oriflamme.engine.options import RuleOptions
from oriflamme.notation.position import build_position, pile_slugs, queue_string

R, B, G, Y = 0, 1, 2, 3

#: Custom recipes for scenarios that need base cards beside the Ablaze ones.
WITH_SOLDIER = "soldier,archer,heir,prince,queen,felon,schemer,trap,bribery,plot"
WITH_LORD = "lord,spy,heir,soldier,archer,prince,queen,felon,bribery,trap"
WITH_SHAPESHIFTER = "shapeshifter,soldier,heir,prince,queen,schemer,felon,bribery,trap,impersonation"
WITH_AMBUSH = "ambush,assassination,soldier,heir,apothecary,cutthroat,queen,plot,trap,schemer"


def table(
    queue: str,
    *,
    players: int = 3,
    deck: str = "ablaze",
    scores: Sequence[int] | None = None,
    round: int = 6,
    pointer: int = 0,
    rules: RuleOptions | None = None,
    hands: dict[int, str] | None = None,
    discards: dict[int, str] | None = None,
    aside: dict[int, str] | None = None,
) -> Game:
    """A position in the resolution phase; by default the last round, so the game ends after it."""
    return build_position(
        players,
        deck,
        queue,
        hands=hands,
        discards=discards,
        aside=aside,
        scores=scores,
        round=round,
        pointer=pointer,
        rules=rules,
    )


def play(g: Game, *texts: str) -> Game:
    """Apply actions given in the text notation, one after the other."""
    for text in texts:
        g.apply(parse_action(g, text))
    return g


def legal(g: Game) -> list[str]:
    """The legal actions of the pending decision, as text."""
    return [action_text(g, a) for a in g.legal_actions()]


def qs(g: Game) -> str:
    return queue_string(g)


def discard_pile(g: Game, seat: int) -> list[str]:
    return sorted(pile_slugs(g, g.discards[seat]))


def aside_pile(g: Game, seat: int) -> list[str]:
    return sorted(pile_slugs(g, g.aside[seat]))


def events_of(g: Game, code: int) -> list[tuple[int, ...]]:
    """The events of one code produced by the last step (build or apply)."""
    return [e for e in g.events if e[0] == code]
