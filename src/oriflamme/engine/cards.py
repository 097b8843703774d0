"""The card kinds as data: identity, box, character or intrigue, reveal income.

Kinds are small integers so that the engine's per-card arrays stay flat lists
of ints. Everything shown to people (names, texts) lives in the message
catalogs of the user interfaces; here a kind has only a stable slug, which is
also what the action and position notations use.

The 31 official kinds have the ids 0 to 30, always. A designer's kind (see
:mod:`oriflamme.engine.catalog` and ``docs/new-cards.md``) takes the next free
id when it is declared, up to :data:`MAX_KINDS`; the per-kind tables below are
lists that grow in place, so a module that imported one sees the kinds declared
after it.
"""

from __future__ import annotations

import re
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


KINDS: Final[list[CardKind]] = [
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
]

#: The official kinds (ids 0 to 30): what the shipped network, the fitted tables and the seeded
#: ``random`` recipe know.
OFFICIAL_KINDS: Final = 31
#: The most kinds a process can hold, official and designed together: the engine's per-kind
#: behaviour tables and the IP causes after the kinds (:mod:`.causes`) are sized by it.
MAX_KINDS: Final = 64
#: The official boxes (the presets of :mod:`.recipes`).
OFFICIAL_BOXES: Final = ("base", "ablaze", "alliance")

SLUGS: Final[list[str]] = [k.slug for k in KINDS]
KIND_BY_SLUG: Final[dict[str, int]] = {k.slug: k.id for k in KINDS}
IS_CHARACTER: Final[list[bool]] = [k.character for k in KINDS]
REVEAL_TAKES_IP: Final[list[bool]] = [k.reveal_takes_ip for k in KINDS]
IS_KEPT: Final[list[bool]] = [k.kept for k in KINDS]
TURNS_DOWN: Final[list[bool]] = [k.turns_down for k in KINDS]

_SLUG = re.compile(r"[a-z][a-z0-9]*(-[a-z0-9]+)*")


def num_kinds() -> int:
    """How many kinds this process knows: the official ones and every designer's kind declared so far."""
    return len(KINDS)


def kind_problem(slug: str, box: str, character: bool, kept: bool, turns_down: bool) -> str | None:
    """Why a kind with these facts cannot be added (None: it can). Changes nothing."""
    if not isinstance(slug, str) or not _SLUG.fullmatch(slug):
        return f"a card's slug is lower-case letters, digits and single hyphens (like 'royal-decree'), not {slug!r}"
    if slug in KIND_BY_SLUG:
        return f"a card named {slug!r} is already loaded"
    if slug in ("random", "start", "revealed-ip", "eliminating", "position") or slug in OFFICIAL_BOXES:
        return f"{slug!r} is a reserved word (a deck or an IP cause), not a card's slug"
    if not isinstance(box, str) or not _SLUG.fullmatch(box) or box in OFFICIAL_BOXES:
        return f"a designer's card needs its own box name (letters, digits, hyphens; not an official box): {box!r}"
    if character and (kept or turns_down):
        return f"{slug}: only an intrigue can be kept or turn face down again"
    if len(KINDS) >= MAX_KINDS:
        return f"no room for {slug!r}: a process holds at most {MAX_KINDS} kinds"
    return None


def add_kind(
    slug: str,
    box: str,
    character: bool,
    *,
    reveal_takes_ip: bool = True,
    kept: bool = False,
    turns_down: bool = False,
) -> CardKind:
    """Add a designer's kind with the next free id (ValueError, and nothing added, where it cannot be)."""
    problem = kind_problem(slug, box, character, kept, turns_down)
    if problem is not None:
        raise ValueError(problem)
    kind = CardKind(len(KINDS), slug, box, character, reveal_takes_ip, kept, turns_down)
    KINDS.append(kind)
    SLUGS.append(slug)
    KIND_BY_SLUG[slug] = kind.id
    IS_CHARACTER.append(character)
    REVEAL_TAKES_IP.append(reveal_takes_ip)
    IS_KEPT.append(kept)
    TURNS_DOWN.append(turns_down)
    return kind


def remove_last_kind(slug: str) -> None:
    """Take back the last kind added (a test's card, at its end); ValueError unless it is ``slug``."""
    if len(KINDS) <= OFFICIAL_KINDS or KINDS[-1].slug != slug:
        raise ValueError(f"{slug!r} is not the last designer's kind added")
    KINDS.pop()
    SLUGS.pop()
    del KIND_BY_SLUG[slug]
    IS_CHARACTER.pop()
    REVEAL_TAKES_IP.pop()
    IS_KEPT.pop()
    TURNS_DOWN.pop()


def kind_from_slug(text: str) -> int:
    """Parse a kind slug (case-insensitive; spaces and underscores may stand for '-')."""
    slug = text.strip().lower().replace("_", "-").replace(" ", "-")
    try:
        return KIND_BY_SLUG[slug]
    except KeyError:
        raise ValueError(f"unknown card {text!r}; known cards: {', '.join(sorted(SLUGS))}") from None
