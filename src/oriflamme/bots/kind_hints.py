"""What a designer's card tells the bots about itself, in the place every bot reads it.

The heuristic and the inference of the search bots keep per-kind tables
(values per activation, how often a kind is kept hidden ...), fitted or
written for the 31 official kinds. A designer's kind starts with defaults
there (the bots play it from its declared ability: a search by playing it out,
the heuristic from those defaults) and its card module's hints refine them.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..engine.cards import KINDS, OFFICIAL_KINDS
from .heuristic.values import learn_kind
from .inference import learn_keep_rate

__all__ = ["HINT_NAMES", "hint_problem", "learn_hints"]

#: The hints a card may give, and what each means.
HINT_NAMES: Mapping[str, str] = {
    "act": "IP a revealed character earns its controller per activation (default 1.0)",
    "once": "IP an intrigue is worth to its owner when it resolves, besides the IP on it (default 1.0)",
    "keep": "how likely a player keeps the card hidden when it resolves, 0 to 1 (default 0.2 or 0.6)",
    "target": "where its non-eliminating target is best put: 'own' or 'opponent' (default: no preference)",
}
_SIDES: Mapping[str, int] = {"own": 1, "opponent": -1}


def hint_problem(hints: Mapping[str, object]) -> str | None:
    """What is wrong with ``hints`` (None: nothing). Changes nothing."""
    for name, value in hints.items():
        if name not in HINT_NAMES:
            return f"unknown bot hint {name!r}; hints: {', '.join(HINT_NAMES)}"
        if name == "target":
            if value not in _SIDES:
                return f"the 'target' hint is 'own' or 'opponent', not {value!r}"
        elif isinstance(value, bool) or not isinstance(value, int | float):
            return f"the {name!r} hint is a number, not {value!r}"
        elif name == "keep" and not 0.0 <= value <= 1.0:
            return f"the 'keep' hint is a likelihood from 0 to 1, not {value!r}"
        elif not -20.0 <= value <= 20.0:
            return f"the {name!r} hint is IP per use, from -20 to 20, not {value!r}"
    return None


def learn_hints(kind: int, hints: Mapping[str, object]) -> None:
    """Give the bots' tables a designer's kind's values: its hints, or the defaults."""
    problem = hint_problem(hints)
    if problem is not None:
        raise ValueError(problem)
    if not OFFICIAL_KINDS <= kind < len(KINDS):
        raise ValueError(f"kind {kind} is not a designer's loaded kind")

    def number(name: str) -> float | None:
        value = hints.get(name)
        return None if value is None else float(value)  # type: ignore[arg-type]

    learn_kind(kind, number("act"), number("once"), number("keep"), _SIDES.get(str(hints.get("target")), 0))
    learn_keep_rate(kind)
