"""Values in IP-equivalents: what cards earn per activation or once, and how likely a kind stays hidden."""

from __future__ import annotations

from ...engine.cards import (
    AGREEMENT,
    AMBUSH,
    APOTHECARY,
    ARCHER,
    ASSASSINATION,
    BRIBERY,
    CONSPIRACY,
    CUTTHROAT,
    DESERTER,
    DIPLOMAT,
    EMPRESS,
    EXTORTION,
    FANATIC,
    FELON,
    HEIR,
    IMPERSONATION,
    INFILTRATION,
    INFORMANT,
    INSURRECTION,
    IS_CHARACTER,
    JUDGE,
    KINDS,
    LORD,
    MAX_KINDS,
    OFFICIAL_KINDS,
    PLOT,
    PRINCE,
    QUEEN,
    ROYAL_DECREE,
    SCHEMER,
    SHAPESHIFTER,
    SOLDIER,
    SPY,
    TRAP,
    TWIN,
)

#: IP-equivalents a revealed character earns its controller per activation
#: (Lord, Heir, Spy and Fanatic are refined by their neighbourhood below).
#: A designer's kind has the defaults here (1.0) until its hints say otherwise (:func:`learn_kind`).
ACT: list[float] = [0.0] * OFFICIAL_KINDS + [1.0] * (MAX_KINDS - OFFICIAL_KINDS)
for _k, _v in (
    (ARCHER, 1.5), (SOLDIER, 1.5), (SPY, 1.3), (HEIR, 2.0), (SHAPESHIFTER, 1.2), (LORD, 1.5),
    (PRINCE, 1.0), (TWIN, 1.0), (QUEEN, 2.0), (CUTTHROAT, 1.2), (APOTHECARY, 1.3), (FELON, 0.3),
    (SCHEMER, 1.0), (EMPRESS, 2.0), (FANATIC, 1.5), (INFORMANT, 1.0), (DIPLOMAT, 1.0),
    (DESERTER, 1.8), (JUDGE, 1.2),
):  # fmt: skip
    ACT[_k] = _v

#: What an intrigue is worth to its owner when it resolves, besides the IP on it.
ONCE: list[float] = [0.0] * OFFICIAL_KINDS + [1.0] * (MAX_KINDS - OFFICIAL_KINDS)
for _k, _v in (
    (ASSASSINATION, 2.5), (ROYAL_DECREE, 1.0), (AMBUSH, 1.0), (CONSPIRACY, 2.0), (PLOT, 1.5),
    (TRAP, 1.0), (BRIBERY, 2.5), (IMPERSONATION, 2.0), (INSURRECTION, 1.5), (EXTORTION, 1.0),
    (INFILTRATION, 2.0), (AGREEMENT, 2.0),
):  # fmt: skip
    ONCE[_k] = _v

#: Characters whose ability eliminates a neighbour.
NEIGHBOUR_KILLERS = frozenset((SOLDIER, CUTTHROAT, DESERTER))
#: Bait: intrigues that pay their owner when an opponent eliminates them.
BAIT = frozenset((AMBUSH, TRAP, EXTORTION))
#: Intrigues that pay only when revealed late with many IP on them.
SAVINGS = frozenset((CONSPIRACY, AGREEMENT))


#: How likely a casual player is to keep a card of each kind hidden when it
#: resolves (and so let IP pile up on it): bait and savings stay down,
#: characters are mostly revealed at once. A card with m IP on it is weighted
#: by ``KEEP_LIKELIHOOD[kind] ** m`` (capped at 3).
KEEP_LIKELIHOOD: list[float] = [0.2 if IS_CHARACTER[k] else 0.6 for k in range(OFFICIAL_KINDS)] + [0.4] * (
    MAX_KINDS - OFFICIAL_KINDS
)
for _k, _v in (
    (HEIR, 0.35), (SOLDIER, 0.3), (ARCHER, 0.3), (CUTTHROAT, 0.3), (DESERTER, 0.3), (SCHEMER, 0.3),
    (CONSPIRACY, 1.0), (AGREEMENT, 1.0), (AMBUSH, 1.0), (TRAP, 1.0), (EXTORTION, 1.0),
    (INSURRECTION, 1.0), (PLOT, 0.8), (ASSASSINATION, 0.5), (BRIBERY, 0.5), (IMPERSONATION, 0.5),
    (INFILTRATION, 0.15),
):  # fmt: skip
    KEEP_LIKELIHOOD[_k] = _v

#: Where a kind's non-eliminating target is best put, for a designer's kind that says so in its
#: hints: 1 on its controller's own cards, -1 on an opponent's, 0 no preference (the official kinds
#: have their own rules in the policy).
TARGET_SIDE: list[int] = [0] * MAX_KINDS

_UNSEEN: dict[int, list[tuple[float, float, float, float, float, float]]] = {}


def learn_kind(
    kind: int, act: float | None = None, once: float | None = None, keep: float | None = None, target: int = 0
) -> None:
    """Set a designer's kind's values from its hints (a value left None keeps the default).

    A character earns ``act`` per activation (default 1.0), an intrigue ``once``
    when it resolves (default 1.0); ``keep`` is how likely a player keeps it
    hidden when it resolves (default 0.2 for a character, 0.6 for an intrigue).
    """
    if kind < OFFICIAL_KINDS:
        raise ValueError(f"kind {kind} is official: its values are fitted, not hinted")
    character = KINDS[kind].character
    ACT[kind] = 1.0 if act is None else float(act)
    ONCE[kind] = 1.0 if once is None else float(once)
    KEEP_LIKELIHOOD[kind] = (0.2 if character else 0.6) if keep is None else float(keep)
    TARGET_SIDE[kind] = target
    _UNSEEN.clear()


def unseen_table(left: int) -> list[tuple[float, float, float, float, float, float]]:
    """Per kind: (is Ambush, is Trap, is Extortion, is character, worth a, IP multiplier b), by rounds left."""
    table = _UNSEEN.get(left)
    if table is None:
        acts = left + 0.5
        table = []
        for k in range(len(KINDS)):
            a = b = 0.0
            if IS_CHARACTER[k]:
                a, b = ACT[k] * acts, 1.0
            elif k == CONSPIRACY:
                a, b = (2.0 if left else 0.0), 2.0
            elif k in BAIT:
                a = 0.5
            elif k == AGREEMENT:
                b = left + 1.0
            else:
                a, b = ONCE[k], 1.0
            table.append(
                (float(k == AMBUSH), float(k == TRAP), float(k == EXTORTION), float(IS_CHARACTER[k]), a, b)
            )
        _UNSEEN[left] = table
    return table
