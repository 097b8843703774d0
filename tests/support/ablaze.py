"""Scenario helpers for the Ablaze tests (see :mod:`support.scenario`).

A face-down card whose identity does not matter is written as a card without a
"when eliminated" or "when revealed" clause (Schemer, Felon, Heir, ...), face
down.
"""

from __future__ import annotations

from functools import partial

from oriflamme import Game

from . import scenario
from .scenario import B, G, R, Y, aside_slugs, events_of, play, queue

__all__ = [
    "B",
    "G",
    "Game",
    "R",
    "Y",
    "aside_pile",
    "discard_pile",
    "events_of",
    "legal",
    "play",
    "qs",
    "table",
]

#: Custom recipes for scenarios that need base cards beside the Ablaze ones.
WITH_SOLDIER = "soldier,archer,heir,prince,queen,felon,schemer,trap,bribery,plot"
WITH_LORD = "lord,spy,heir,soldier,archer,prince,queen,felon,bribery,trap"
WITH_SHAPESHIFTER = "shapeshifter,soldier,heir,prince,queen,schemer,felon,bribery,trap,impersonation"
WITH_AMBUSH = "ambush,assassination,soldier,heir,apothecary,cutthroat,queen,plot,trap,schemer"

table = partial(scenario.table, deck="ablaze")
legal = scenario.options
qs = queue


def discard_pile(g: Game, seat: int) -> list[str]:
    return sorted(scenario.pile(g, seat))


def aside_pile(g: Game, seat: int) -> list[str]:
    return sorted(aside_slugs(g, seat))
