"""Why a player's IP changed: the causes an IP ledger is kept by.

A cause is a small int. The card kinds are their own causes (the card
whose ability or reaction gave or took the IP: a Shapeshifter that copies an
Heir is the Shapeshifter; the character a Plot applies is that character);
the few rules that move IP without a card have the codes after the last kind
a process may hold (:data:`~.cards.MAX_KINDS`), so a designer's kind never
takes a rule's code.
"""

from __future__ import annotations

from typing import Final

from .cards import MAX_KINDS, SLUGS

#: The 1 IP every player starts with.
START: Final = MAX_KINDS
#: IP lying on a card, taken by the player who reveals it.
REVEALED_IP: Final = MAX_KINDS + 1
#: The 1 IP for eliminating a card (docs/rules.md §4).
ELIMINATING: Final = MAX_KINDS + 2
#: Scores given to a hand-built position, whose history is unknown.
POSITION: Final = MAX_KINDS + 3
NUM_CAUSES: Final = MAX_KINDS + 4
_RULE_NAMES: Final = ("start", "revealed-ip", "eliminating", "position")


def cause_name(cause: int) -> str:
    """A cause's stable name: its card's slug, or the rule's name."""
    return SLUGS[cause] if cause < MAX_KINDS else _RULE_NAMES[cause - MAX_KINDS]


def cause_code(name: str) -> int | None:
    """The cause named ``name`` (a loaded card's slug or a rule's name); None for no such cause."""
    if name in _RULE_NAMES:
        return MAX_KINDS + _RULE_NAMES.index(name)
    return SLUGS.index(name) if name in SLUGS else None
