"""Where a card is (zones) and what a game is doing (phases)."""

from __future__ import annotations

from typing import Final

HAND: Final = 0
ASIDE: Final = 1
TOP: Final = 2  # in the queue, uncovered (active)
COVERED: Final = 3  # in the queue, under another card
DISCARD: Final = 4
KEPT: Final = 5  # Infiltration / Agreement lying before their owner
TWIN_ASIDE: Final = 6  # a Twin waiting, face up, for its Prince
ZONE_NAMES: Final = ("hand", "aside", "top", "covered", "discard", "kept", "twin_aside")

PLACE: Final = 0
RESOLVE: Final = 1
OVER: Final = 2
PHASE_NAMES: Final = ("place", "resolve", "over")
