"""Reviewing a game move by move: what a seat played, what the search preferred, what it cost.

Each decision of the reviewed seat that had a real choice is searched again
from that seat's view at that moment (:meth:`IsmctsBot.evaluate`), so a
review never uses what the seat could not see then: not the cards dealt to
others, not what happened later. The cost of a move is the estimated win
probability of the best action minus that of the action played, in points
(0 to 100), as chess sites grade moves.

The evaluations are estimates from a fixed number of simulations: the
played action's estimate rests on fewer of them when the search liked it
less, and each review line carries its simulation counts.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from ..engine.action_text import action_text
from ..engine.game import Game
from ..engine.seeds import derive_seed
from ..engine.setup import Setup
from ..notation.replay import ACTIONS_VERSION, replay
from .ismcts import ActionValue, IsmctsBot

#: Thresholds of a move's cost, in win-probability points, and their names (worst first).
GRADES: tuple[tuple[float, str], ...] = (
    (20.0, "blunder"),
    (10.0, "mistake"),
    (5.0, "inaccuracy"),
)

#: Words an action at its decision: ``describe(game_before_the_action, action)``.
Describe = Callable[[Game, int], str]

#: The search level a review uses unless told otherwise.
DEFAULT_LEVEL = "normal"


@dataclass(frozen=True, slots=True)
class MoveReview:
    """One reviewed decision of one seat."""

    #: Index of the decision in the game's history (0-based).
    index: int
    seat: int
    round: int
    #: The decision kind (``place``, ``keep_or_reveal``, ``eliminate`` ...).
    decision: str
    played: str
    best: str
    #: Estimated win probability (0 to 1) after the move played, and after the best move.
    played_win: float
    best_win: float
    played_visits: int
    best_visits: int
    #: Every legal action as described, with the evaluation the search gave it, best first.
    options: tuple[tuple[str, ActionValue], ...]

    @property
    def cost(self) -> float:
        """Win-probability points lost by not playing the best move (0 when it was played)."""
        if self.played == self.best or math.isnan(self.played_win):
            return 0.0
        return max(0.0, 100.0 * (self.best_win - self.played_win))

    @property
    def grade(self) -> str | None:
        """``blunder``, ``mistake``, ``inaccuracy`` or None."""
        cost = self.cost
        return next((name for limit, name in GRADES if cost >= limit), None)


def review_game(
    setup: Setup,
    actions: Sequence[str],
    seats: Iterable[int],
    level: str = DEFAULT_LEVEL,
    seed: int = 0,
    version: int = ACTIONS_VERSION,
    on_move: Callable[[MoveReview], None] | None = None,
    describe: Describe = action_text,
) -> list[MoveReview]:
    """Review ``seats``' decisions in the game ``setup`` deals and ``actions`` play.

    Each decision is searched with a bot seeded from ``seed`` and the
    decision's index, so a review is reproducible. ``on_move`` is called as
    each review is ready (for a progress display); ``describe`` words an
    action at its decision (the text form by default).
    """
    wanted = set(seats)
    # The state before each action is the one after the step before it (the deal, first).
    states: list[Game] = []
    history = replay(setup, actions, lambda g, *_: states.append(g.clone()), version=version).history
    points = [
        (before, a)
        for before, a in zip(states[:-1], history, strict=True)
        if before.current_player() in wanted
    ]
    return review_points(points, level, seed, on_move, describe)


def review_points(
    points: Iterable[tuple[Game, int]],
    level: str = DEFAULT_LEVEL,
    seed: int = 0,
    on_move: Callable[[MoveReview], None] | None = None,
    describe: Describe = action_text,
) -> list[MoveReview]:
    """Review each (game before a decision, action played there) that had a real choice."""
    reviews: list[MoveReview] = []
    for before, action in points:
        if len(before.options) < 2:
            continue
        i = len(before.history)
        review = review_position(before, action, level, derive_seed("review", seed, i), i, describe)
        reviews.append(review)
        if on_move is not None:
            on_move(review)
    return reviews


def review_position(
    g: Game,
    played: int,
    level: str = DEFAULT_LEVEL,
    seed: int = 0,
    index: int = -1,
    describe: Describe = action_text,
) -> MoveReview:
    """Review the action ``played`` at ``g``'s pending decision, from the deciding seat's view."""
    seat = g.current_player()
    values = IsmctsBot(level, seed).evaluate(g.view(seat))
    by_action = {v.action: v for v in values}
    best = values[0]
    mine = by_action[played]
    return MoveReview(
        index=index if index >= 0 else len(g.history),
        seat=seat,
        round=g.round,
        decision=g.decision() or "",
        played=describe(g, played),
        best=describe(g, best.action),
        played_win=mine.win,
        best_win=best.win,
        played_visits=mine.visits,
        best_visits=best.visits,
        options=tuple((describe(g, v.action), v) for v in values),
    )


__all__ = [
    "DEFAULT_LEVEL",
    "GRADES",
    "Describe",
    "MoveReview",
    "review_game",
    "review_points",
    "review_position",
]
