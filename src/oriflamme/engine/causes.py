"""Why a player's IP changed: the causes an IP ledger is kept by.

A cause is a small int. The 31 card kinds are their own causes (the card
whose ability or reaction gave or took the IP: a Shapeshifter that copies an
Heir is the Shapeshifter; the character a Plot applies is that character);
the few rules that move IP without a card have the codes after them.
"""

from __future__ import annotations

from typing import Final

from .cards import NUM_KINDS, SLUGS

#: The 1 IP every player starts with.
START: Final = NUM_KINDS
#: IP lying on a card, taken by the player who reveals it.
REVEALED_IP: Final = NUM_KINDS + 1
#: The 1 IP for eliminating a card (docs/rules.md §4).
ELIMINATING: Final = NUM_KINDS + 2
#: Scores given to a hand-built position, whose history is unknown.
POSITION: Final = NUM_KINDS + 3
NUM_CAUSES: Final = NUM_KINDS + 4

#: Stable names: a card's slug, or the rule's name.
CAUSE_NAMES: Final[tuple[str, ...]] = SLUGS + ("start", "revealed-ip", "eliminating", "position")
