"""The search's budgets: :class:`SearchLevel`, the named levels and custom budgets (``ismcts:2000``, ``ismcts:1.5s``, ``hard@2``, ``normal+horizon=1``).

Kept apart from the search itself (:mod:`oriflamme.bots.ismcts`) because the
command line, the registry and the training command read levels without
searching.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

from ..engine.recipes import PRESETS

__all__ = [
    "CAP_SECONDS_PER_ITERATION",
    "KNOBS",
    "LEVELS",
    "MAX_BUDGET_SECONDS",
    "MAX_ITERATIONS",
    "MAX_WORKERS",
    "SearchLevel",
    "parse_level",
]


#: The values of each knob that is a choice among names.
_CHOICES: dict[str, tuple[str, ...]] = {
    "playout": ("heuristic", "random"),
    "reveals": ("heuristic", "fitted"),
    "places": ("heuristic", "fitted"),
    "covers": ("heuristic", "fitted"),
    "keeps": ("guess", "fitted"),
    "opponents": ("search", "heuristic"),
    "prior": ("heuristic", "net"),
    "evaluation": ("projection", "fitted"),
}


#: Most iterations a budget may ask for: enough for any experiment, small enough that a typo does
#: not start a search of days.
MAX_ITERATIONS = 1_000_000


@dataclass(frozen=True, slots=True)
class SearchLevel:
    """A search budget and its knobs."""

    #: Iterations (determinize, select, expand, play out, back up) per decision.
    iterations: int
    #: Wall-clock safety cap per decision, in seconds.
    max_seconds: float
    #: UCB1 exploration constant (rewards lie in about [0, 1.1]).
    exploration: float = 0.7
    #: The other seats' UCB1 constant inside the tree, as a share of ``exploration`` (1: the same).
    #: Lower, they pick what they found best more surely: a stronger model of opponents who search.
    opponent_exploration: float = 1.0
    #: Weight of the score-margin term in the reward.
    margin_weight: float = 0.1
    #: Playout: probability of a uniformly random action instead of the heuristic's.
    epsilon: float = 0.1
    #: Playout policy: "heuristic" (epsilon-greedy around the heuristic bot) or "random".
    playout: str = "heuristic"
    #: How a playout keeps or reveals a face-down card: "heuristic", as the playout policy does
    #: (the heuristic reveals a character almost always), or "fitted", drawn at the odds the search
    #: bots were counted to reveal at, by kind, rounds left and IP on the card
    #: (heuristic.habits): playouts among players who keep cards hidden as the bots do.
    reveals: str = "heuristic"
    #: Which kind a playout places: "heuristic", the policy's choice, or "fitted", drawn in
    #: proportion to how often the search bots were counted to place each kind, by rounds left,
    #: the heuristic choosing where (heuristic.habits).
    places: str = "heuristic"
    #: Whether a playout places a card onto one of the seat's own cards: as the policy chooses
    #: ("heuristic"), or drawn at the odds the search bots were counted to, by kind and rounds
    #: left, where it can ("fitted"; heuristic.habits).
    covers: str = "heuristic"
    #: Bias the deal of opponents' face-down cards by the IP on them (see bots.inference.infer).
    infer: bool = True
    #: How surely the inference reads a kept card (its keep likelihoods raised to this power; see
    #: bots.inference.infer): 1 as the heuristic's table has them.
    infer_strength: float = 1.0
    #: The keep likelihoods the inference reads: "guess", the heuristic's guess of a casual player,
    #: or "fitted", how often the search bots keep each kind (bots.inference.KEEP_TABLES).
    keeps: str = "guess"
    #: Progressive widening below the root: a node visited n times has at most
    #: ``1 + widening * sqrt(n)`` actions tried (0: no limit).
    widening: float = 1.0
    #: How the other seats decide inside the tree: "search", each by UCB1 for its own reward, or
    #: "heuristic", by the heuristic's policy, which reads only what that seat may know (a seat
    #: choosing by UCB1 learns from deals in which the observer's face-down cards are always the
    #: true ones, so it plays as if it saw them).
    opponents: str = "search"
    #: Self-determinization: this share of the iterations also deals the seat's own face-down
    #: cards on the table and its set-aside cards among their places at random, as the other seats
    #: see them. Those iterations teach only the other seats' nodes (the seat plays its most-tried
    #: moves there and learns nothing), so that the other seats in the tree stop playing as if they
    #: saw the seat's hidden cards (0: every deal holds the seat's true cards). A spec allows up to
    #: 0.9: at 1 the seat itself would learn nothing. With ``opponents="heuristic"`` there is
    #: nothing for blind iterations to teach.
    self_deal: float = 0.0
    #: Expand the prior's choice first when it has not been tried.
    prior_first: bool = True
    #: The prior: "heuristic", the heuristic bot's move, or "net", the move the shipped policy
    #: network (``net``, trained on the search's choices) rates highest from the mover's view,
    #: a likelier guess of what a searching opponent plays, at about 0.2 ms a node (numpy).
    prior: str = "heuristic"
    #: The budget is ``max_seconds`` of thinking rather than ``iterations`` (not reproducible).
    timed: bool = False
    #: Root parallelism: this many independent searches of the whole budget, each in its own
    #: process with its own seed, whose root statistics are added up (1: one search, here).
    workers: int = 1
    #: Playouts stop once this many rounds have ended, counted from the round of the decision, and
    #: the position is scored by the heuristic's projection of the final scores (0: play to the end).
    horizon: int = 2
    #: How a projection at the horizon becomes the rewards that steer the search: each
    #: ``share_scale`` IP of projected lead per round left multiply a seat's odds by e (see
    #: heuristic.projection.share_temperature). 0: the fixed SHARE_TEMPERATURE, sharper early on
    #: than the outcomes warrant but, measured, the better guide to moves (README).
    share_scale: float = 0.0
    #: The projection at the horizon weights a revealed character's later activations by this
    #: chance per round that it is still there (see heuristic.projection.projected_scores; 1:
    #: every activation it has left counts).
    survival: float = 1.0
    #: What scores a position at the horizon: "projection", the heuristic's hand-made projection,
    #: or "fitted", the projection fitted to who won recorded games between search bots
    #: (heuristic.fitted; for a box without a fitted table, such as a mixed deck, the hand-made
    #: one). The fitted one has no ``survival`` discount (its weights already say how much a
    #: revealed character's future counts), and the win chances reported read it at ``win_scale``,
    #: which was calibrated on the hand-made one (the fit's own temperature is close: 1.5 to 1.9
    #: IP per round left against 1.8 to 2.3).
    evaluation: str = "projection"
    #: Weight of the projection at the leaf (the position where the simulation leaves the tree,
    #: before its playout) in each simulation's reward; the rest is the playout's outcome, as
    #: AlphaGo mixed its value network with rollouts. 0: the playout's outcome alone.
    leaf_mix: float = 0.0
    #: The win chances a search reports (``IsmctsBot.evaluate``, reviews, audits) read a projection
    #: at the horizon at this temperature per round left, the one that fits who really wins
    #: (``tools/fit_share_temperature.py``: 1.24, 1.62 and 1.40 on base, *Ablaze* and *Alliance*),
    #: not at the temperature that steers the search, which reads a lead four rounds from the end as
    #: nearly sure. It changes no move. 0: report the steering figure.
    win_scale: float = 1.4
    #: Tree reuse: when this bot decides again and the seat has learned nothing since its last
    #: decision (no other seat has decided, no card became known), the search starts from the
    #: subtree it already built below the action it played, and tops it up to ``iterations``.
    reuse: bool = True
    #: Stop a search once its move is settled: when the most-visited root action leads every other
    #: by more than the iterations left, none of them can change the move, so they are not run. A
    #: single search (with ``settle`` 1) plays the move of the whole budget, in less time; it draws
    #: fewer random numbers, so a seeded game goes on differently from there, as strong.
    #: (Root-parallel searches each stop on their own statistics, so their sum may differ from the
    #: whole budget's.)
    early_stop: bool = True
    #: How settled a move must be to stop early: the most-visited root action must lead every other
    #: by more than this share of the iterations left. 1: by all of them, so that no run of the rest
    #: could change the move (the whole budget's move). Below 1 the search stops sooner, on a lead
    #: that the runner-up could close only by taking more than this share of the iterations left,
    #: and more than ``(1 + settle) / 2`` of them while the leader keeps drawing the rest, which
    #: UCB1 rarely gives an action that trails far behind. Measured at 0.5 (README): one move
    #: changed in 201 decisions of two Ablaze games, and no measurable loss of strength over 400
    #: games each of Ablaze and Alliance (+0.6 and +1.1 points against 1 on the same deals).
    settle: float = 1.0
    #: Root parallelism with early stop: a search that stopped early counts the iterations it did
    #: not run as simulations of its move, at that move's mean reward, as the whole budget would
    #: have spent them for the most part, so that a search settled early weighs as much in the
    #: sum as one that ran to the end (off: each weighs by the simulations it ran).
    settled_credit: bool = False
    #: Iterations per decision in a game of one box's own deck, in place of ``iterations``:
    #: ``(box, iterations)`` pairs. A level calibrated to a time per decision gives more
    #: iterations to a box whose simulations cost less; a mixed or custom deck, and a box not
    #: named, search ``iterations``.
    box_iterations: tuple[tuple[str, int], ...] = ()

    def __post_init__(self) -> None:
        # A level built by hand is checked like a spec's knobs, so that a misspelt choice
        # (``evaluation="fited"``) is refused rather than quietly run as the default.
        for name, allowed in _CHOICES.items():
            if getattr(self, name) not in allowed:
                raise ValueError(f"{name} must be one of {', '.join(allowed)}, got {getattr(self, name)!r}")
        if not 0.0 <= self.settle <= 1.0:  # also refuses nan
            raise ValueError(
                f"settle must be a share from 0 to 1 of the iterations left, got {self.settle!r}"
            )
        for box, count in self.box_iterations:
            if box not in PRESETS:
                raise ValueError(f"box_iterations names an unknown box {box!r}; boxes: {', '.join(PRESETS)}")
            if not 1 <= count <= MAX_ITERATIONS:
                raise ValueError(f"box_iterations for {box} must be 1 to {MAX_ITERATIONS:,}, got {count!r}")

    def iterations_for(self, recipe: tuple[int, ...]) -> int:
        """The iterations per decision in a game of ``recipe`` (sorted kind ids, as ``Game.recipe``)."""
        for box, count in self.box_iterations:
            if PRESETS[box] == recipe:
                return count
        return self.iterations


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
    # Two cores: two searches of 3,500 iterations in two processes (4,500 in Ablaze, whose
    # decisions cost least), their root statistics added up (root parallelism), each stopping once
    # its own choice is settled, here once its leading move is ahead by half the iterations left
    # (settle=0.5): under a second per decision on two free cores, pure Python (README). The web
    # server offers it only when started with --parallel-bots. Its playouts place the kinds the
    # search bots were counted to place (places="fitted"). Against three normal bots it won 42.8%
    # on base, 43.5% in Ablaze and 41.6% in Alliance (400 games each), and before settle=0.5 45.1%,
    # 42.8% and 40.5% on the same deals; with 3,500 iterations in Ablaze too it won
    # 38.5% of the same Ablaze deals (README).
    "master": SearchLevel(
        iterations=3500,
        max_seconds=60.0,
        workers=2,
        places="fitted",
        box_iterations=(("ablaze", 4500),),
        settle=0.5,
    ),
}

#: Limit of a custom time budget: enough for any experiment, small enough that a typo does not
#: start a search of days.
MAX_BUDGET_SECONDS = 3600.0
#: The safety cap of an iteration budget: the named levels' ratio of cap to iterations.
CAP_SECONDS_PER_ITERATION = 0.03
#: Most processes a root-parallel level may use.
MAX_WORKERS = 16


#: The knobs a spec may set after ``+`` (``expert+widening=2+horizon=3``): what tuning studies vary.
#: The budget (iterations, thinking time, processes) has its own spelling; the time cap follows it.
#: knob -> (kind of value, lowest, highest); bounds keep a typo from booking a search of days.
KNOBS: dict[str, tuple[str, float, float]] = {
    "exploration": ("number", 0.0, 10.0),
    "opponent_exploration": ("number", 0.0, 10.0),
    "margin_weight": ("number", 0.0, 1.0),
    "epsilon": ("number", 0.0, 1.0),
    "playout": ("choice", 0.0, 0.0),
    "reveals": ("choice", 0.0, 0.0),
    "places": ("choice", 0.0, 0.0),
    "covers": ("choice", 0.0, 0.0),
    "infer": ("switch", 0.0, 0.0),
    "infer_strength": ("number", 0.0, 10.0),
    "keeps": ("choice", 0.0, 0.0),
    "widening": ("number", 0.0, 100.0),
    "opponents": ("choice", 0.0, 0.0),
    "self_deal": ("number", 0.0, 0.9),
    "prior_first": ("switch", 0.0, 0.0),
    "prior": ("choice", 0.0, 0.0),
    "horizon": ("rounds", 0.0, 99.0),
    "share_scale": ("number", 0.0, 20.0),
    "survival": ("number", 0.0, 1.0),
    "evaluation": ("choice", 0.0, 0.0),
    "leaf_mix": ("number", 0.0, 1.0),
    "win_scale": ("number", 0.0, 20.0),
    "reuse": ("switch", 0.0, 0.0),
    "early_stop": ("switch", 0.0, 0.0),
    "settle": ("number", 0.0, 1.0),
    "settled_credit": ("switch", 0.0, 0.0),
}
_SWITCH = {
    "on": True,
    "true": True,
    "yes": True,
    "1": True,
    "off": False,
    "false": False,
    "no": False,
    "0": False,
}


def _knob(name: str, value: str, text: str) -> tuple[str, float | int | bool | str]:
    """One ``knob=value`` of ``text``: the value read and checked, and its canonical text."""
    if name not in KNOBS:
        raise ValueError(f"unknown search knob {name!r} in {text!r}; knobs: {', '.join(KNOBS)}")
    kind, low, high = KNOBS[name]
    if kind == "switch":
        if value not in _SWITCH:
            raise ValueError(f"{name} in {text!r} must be on or off, got {value!r}")
        return ("on" if _SWITCH[value] else "off"), _SWITCH[value]
    if kind == "choice":
        if value not in _CHOICES[name]:
            raise ValueError(f"{name} in {text!r} must be one of {', '.join(_CHOICES[name])}, got {value!r}")
        return value, value
    if kind == "rounds":
        if not value.isdigit() or not low <= int(value) <= high:
            raise ValueError(
                f"horizon in {text!r} must be a number of rounds from {low:g} to {high:g} (0: to the end), "
                f"got {value!r}"
            )
        return str(int(value)), int(value)
    try:
        number = float(value)
    except ValueError:
        number = math.nan
    if not low <= number <= high:  # also refuses nan and inf
        raise ValueError(f"{name} in {text!r} must be a number from {low:g} to {high:g}, got {value!r}")
    return f"{number:g}", number


def _with_knobs(base: str, knobs: str, text: str) -> tuple[str, SearchLevel]:
    """``base`` (a level or budget) with the ``+knob=value`` settings of ``knobs`` applied."""
    canonical, level = parse_level(base)
    changes: dict[str, float | int | bool | str] = {}
    shown: dict[str, str] = {}
    for item in knobs.split("+"):
        name, eq, value = item.partition("=")
        name = name.strip()
        if not eq or not name or not value.strip():
            raise ValueError(
                f"write search knobs as +name=value (e.g. normal+horizon=1), got {item!r} in {text!r}"
            )
        if name in changes:
            raise ValueError(f"search knob {name!r} is set twice in {text!r}")
        shown[name], changes[name] = _knob(name, value.strip(), text)
    # The canonical text lists the knobs in KNOBS order, so one setting has one spelling.
    suffix = "".join(f"+{name}={shown[name]}" for name in KNOBS if name in shown)
    return canonical + suffix, dataclasses.replace(level, **changes)  # type: ignore[arg-type]


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
    Settings ``+knob=value`` after the budget (``expert+widening=2``,
    ``normal+horizon=1+epsilon=0``, before any ``@N``) change the search's
    knobs (:data:`KNOBS`), for tuning studies: a tournament between
    ``expert`` and ``expert+widening=2`` is a reproducible experiment.
    Raises :class:`ValueError` saying what is accepted.
    """
    name = text.strip().lower()
    base, at, count = name.partition("@")
    if at:
        if not count.isdigit() or not 2 <= int(count) <= MAX_WORKERS:
            raise ValueError(
                f"ISMCTS processes {count!r} in {text!r}: write e.g. hard@2 for 2 to {MAX_WORKERS} processes"
                " (search knobs go before it: hard+widening=2@2)"
            )
        canonical, level = parse_level(base)
        return f"{canonical}@{int(count)}", dataclasses.replace(level, workers=int(count))
    base, plus, knobs = name.partition("+")
    if plus:
        return _with_knobs(base, knobs, text)
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
