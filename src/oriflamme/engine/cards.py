"""The 31 card kinds as data: identity, box, character or intrigue, reveal income.

Kinds are small integers so that the engine's per-card arrays stay flat lists
of ints. Everything shown to people (names, texts) lives in the message
catalogs of the user interfaces; here a kind has only a stable slug, which is
also what the action and position notations use.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

# Base box.
ARCHER: Final = 0
SOLDIER: Final = 1
SPY: Final = 2
HEIR: Final = 3
SHAPESHIFTER: Final = 4
LORD: Final = 5
ASSASSINATION: Final = 6
ROYAL_DECREE: Final = 7
AMBUSH: Final = 8
CONSPIRACY: Final = 9
# Ablaze.
PRINCE: Final = 10
TWIN: Final = 11
QUEEN: Final = 12
CUTTHROAT: Final = 13
APOTHECARY: Final = 14
FELON: Final = 15
SCHEMER: Final = 16
IMPERSONATION: Final = 17
PLOT: Final = 18
TRAP: Final = 19
BRIBERY: Final = 20
# Alliance.
EMPRESS: Final = 21
FANATIC: Final = 22
INFORMANT: Final = 23
DIPLOMAT: Final = 24
DESERTER: Final = 25
JUDGE: Final = 26
INSURRECTION: Final = 27
EXTORTION: Final = 28
INFILTRATION: Final = 29
AGREEMENT: Final = 30


@dataclass(frozen=True, slots=True)
class CardKind:
    """One kind of card, the same for every family."""

    id: int
    slug: str
    box: str
    character: bool
    #: Whether revealing the card pays its IP to the revealer. The intrigues
    #: that do something else with the IP on them (Conspiracy doubles them,
    #: Ambush throws them away, Plot spends them, ...) say False.
    reveal_takes_ip: bool = True
    #: Intrigues that leave the queue into their owner's kept area.
    kept: bool = False
    #: Intrigues that turn face down again after resolving, staying in the queue.
    turns_down: bool = False


KINDS: Final[tuple[CardKind, ...]] = (
    CardKind(ARCHER, "archer", "base", True),
    CardKind(SOLDIER, "soldier", "base", True),
    CardKind(SPY, "spy", "base", True),
    CardKind(HEIR, "heir", "base", True),
    CardKind(SHAPESHIFTER, "shapeshifter", "base", True),
    CardKind(LORD, "lord", "base", True),
    CardKind(ASSASSINATION, "assassination", "base", False),
    CardKind(ROYAL_DECREE, "royal-decree", "base", False),
    CardKind(AMBUSH, "ambush", "base", False, reveal_takes_ip=False),
    CardKind(CONSPIRACY, "conspiracy", "base", False, reveal_takes_ip=False),
    CardKind(PRINCE, "prince", "ablaze", True),
    CardKind(TWIN, "twin", "ablaze", True),
    CardKind(QUEEN, "queen", "ablaze", True),
    CardKind(CUTTHROAT, "cutthroat", "ablaze", True),
    CardKind(APOTHECARY, "apothecary", "ablaze", True),
    CardKind(FELON, "felon", "ablaze", True),
    CardKind(SCHEMER, "schemer", "ablaze", True),
    CardKind(IMPERSONATION, "impersonation", "ablaze", False),
    CardKind(PLOT, "plot", "ablaze", False, reveal_takes_ip=False),
    CardKind(TRAP, "trap", "ablaze", False, reveal_takes_ip=False),
    CardKind(BRIBERY, "bribery", "ablaze", False),
    CardKind(EMPRESS, "empress", "alliance", True),
    CardKind(FANATIC, "fanatic", "alliance", True),
    CardKind(INFORMANT, "informant", "alliance", True),
    CardKind(DIPLOMAT, "diplomat", "alliance", True),
    CardKind(DESERTER, "deserter", "alliance", True),
    CardKind(JUDGE, "judge", "alliance", True),
    CardKind(INSURRECTION, "insurrection", "alliance", False, reveal_takes_ip=False, turns_down=True),
    CardKind(EXTORTION, "extortion", "alliance", False, reveal_takes_ip=False),
    CardKind(INFILTRATION, "infiltration", "alliance", False, kept=True),
    CardKind(AGREEMENT, "agreement", "alliance", False, reveal_takes_ip=False, kept=True),
)

NUM_KINDS: Final = len(KINDS)
SLUGS: Final[tuple[str, ...]] = tuple(k.slug for k in KINDS)
KIND_BY_SLUG: Final[dict[str, int]] = {k.slug: k.id for k in KINDS}
IS_CHARACTER: Final[tuple[bool, ...]] = tuple(k.character for k in KINDS)
REVEAL_TAKES_IP: Final[tuple[bool, ...]] = tuple(k.reveal_takes_ip for k in KINDS)
IS_KEPT: Final[tuple[bool, ...]] = tuple(k.kept for k in KINDS)
TURNS_DOWN: Final[tuple[bool, ...]] = tuple(k.turns_down for k in KINDS)


def kind_from_slug(text: str) -> int:
    """Parse a kind slug (case-insensitive; spaces and underscores may stand for '-')."""
    slug = text.strip().lower().replace("_", "-").replace(" ", "-")
    try:
        return KIND_BY_SLUG[slug]
    except KeyError:
        raise ValueError(f"unknown card {text!r}; known cards: {', '.join(sorted(SLUGS))}") from None
