"""The search's budgets: :class:`SearchLevel`, the named levels and custom budgets (``ismcts:2000``, ``ismcts:1.5s``, ``hard@2``).

Kept apart from the search itself (:mod:`oriflamme.bots.ismcts`) because the
command line, the registry and the training command read levels without
searching.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

__all__ = [
    "CAP_SECONDS_PER_ITERATION",
    "LEVELS",
    "MAX_BUDGET_SECONDS",
    "MAX_ITERATIONS",
    "MAX_WORKERS",
    "SearchLevel",
    "parse_level",
]


@dataclass(frozen=True, slots=True)
class SearchLevel:
    """A search budget and its knobs."""

    #: Iterations (determinize, select, expand, play out, back up) per decision.
    iterations: int
    #: Wall-clock safety cap per decision, in seconds.
    max_seconds: float
    #: UCB1 exploration constant (rewards lie in about [0, 1.1]).
    exploration: float = 0.7
    #: Weight of the score-margin term in the reward.
    margin_weight: float = 0.1
    #: Playout: probability of a uniformly random action instead of the heuristic's.
    epsilon: float = 0.1
    #: Playout policy: "heuristic" (epsilon-greedy around the heuristic bot) or "random".
    playout: str = "heuristic"
    #: Bias the deal of opponents' face-down cards by the IP on them (see _infer).
    infer: bool = True
    #: Progressive widening below the root: a node visited n times has at most
    #: ``1 + widening * sqrt(n)`` actions tried (0: no limit).
    widening: float = 1.0
    #: Expand the heuristic's choice first when it has not been tried.
    prior_first: bool = True
    #: The budget is ``max_seconds`` of thinking rather than ``iterations`` (not reproducible).
    timed: bool = False
    #: Root parallelism: this many independent searches of the whole budget, each in its own
    #: process with its own seed, whose root statistics are added up (1: one search, here).
    workers: int = 1
    #: Playouts stop once this many rounds have ended, counted from the round of the decision, and
    #: the position is scored by the heuristic's projection of the final scores (0: play to the end).
    horizon: int = 2
    #: Tree reuse: when this bot decides again and the seat has learned nothing since its last
    #: decision (no other seat has decided, no card became known), the search starts from the
    #: subtree it already built below the action it played, and tops it up to ``iterations``.
    reuse: bool = True


#: Named levels. ``normal`` is meant to answer well under a second on one core.
#: The time caps are ten times the usual search time or more: they exist for a
#: machine far slower or busier than expected, not to shape play, because a
#: search cut short by the clock is not reproducible.
LEVELS: dict[str, SearchLevel] = {
    "easy": SearchLevel(iterations=50, max_seconds=5.0),
    "normal": SearchLevel(iterations=250, max_seconds=10.0),
    "hard": SearchLevel(iterations=1000, max_seconds=30.0),
    # About one second per decision on one core of the development machine, pure Python (README).
    "expert": SearchLevel(iterations=3500, max_seconds=60.0),
}

#: Limits of a custom budget: enough for any experiment, small enough that a typo does not
#: start a search of days.
MAX_ITERATIONS = 1_000_000
MAX_BUDGET_SECONDS = 3600.0
#: The safety cap of an iteration budget: the named levels' ratio of cap to iterations.
CAP_SECONDS_PER_ITERATION = 0.03
#: Most processes a root-parallel level may use.
MAX_WORKERS = 16


def parse_level(text: str) -> tuple[str, SearchLevel]:
    """A level by name (``normal``), by iterations (``2000``) or by thinking time (``1.5s``).

    Returns the level's canonical text (what a spec shows) and its budget.
    An iteration budget is reproducible: a seeded bot plays the same moves on
    any machine (its clock cap only guards against a machine far slower than
    expected). A time budget searches until the time is up, as long as a
    player is willing to wait, so its moves depend on the machine's speed
    and load: fine for play, not for reproducible measurements.
    A suffix ``@N`` (``hard@2``) runs N searches of that budget in N processes
    and adds up their root statistics: about N times the thinking in the
    same wall time on N free cores, still reproducible from the seed.
    Raises :class:`ValueError` saying what is accepted.
    """
    name = text.strip().lower()
    base, at, count = name.partition("@")
    if at:
        if not count.isdigit() or not 2 <= int(count) <= MAX_WORKERS:
            raise ValueError(
                f"ISMCTS processes {count!r} in {text!r}: write e.g. hard@2 for 2 to {MAX_WORKERS} processes"
            )
        canonical, level = parse_level(base)
        return f"{canonical}@{int(count)}", dataclasses.replace(level, workers=int(count))
    if name in LEVELS:
        return name, LEVELS[name]
    accepted = (
        f"use a level ({', '.join(LEVELS)}), a number of iterations (1 to {MAX_ITERATIONS:,}) "
        f"or a thinking time in seconds such as 1.5s (up to {MAX_BUDGET_SECONDS:g}s)"
    )
    if name.endswith("s") and name[:-1]:
        try:
            seconds = float(name[:-1])
        except ValueError:
            raise ValueError(f"unknown ISMCTS budget {text!r}: {accepted}") from None
        if not 0 < seconds <= MAX_BUDGET_SECONDS:  # also refuses nan
            raise ValueError(f"ISMCTS thinking time {text!r} is out of range: {accepted}")
        return f"{seconds:g}s", SearchLevel(iterations=MAX_ITERATIONS, max_seconds=seconds, timed=True)
    if name.isdigit():
        iterations = int(name)
        if not 1 <= iterations <= MAX_ITERATIONS:
            raise ValueError(f"ISMCTS iterations {text!r} out of range: {accepted}")
        cap = max(5.0, iterations * CAP_SECONDS_PER_ITERATION)
        return str(iterations), SearchLevel(iterations=iterations, max_seconds=cap)
    raise ValueError(f"unknown ISMCTS level {text!r}: {accepted}")
