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

The terminal's end-of-game review, ``oriflamme review FILE`` and the web
page's review all call :func:`review_game` with the game's deal and its whole
list of actions, so that one game gives one review everywhere: the search is
seeded by :func:`review_seed` (the deal's seed) and never cut short by the
clock, and a move is graded on its cost in whole points, the number every
review shows.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace

from ..engine.action_text import action_text
from ..engine.cards import SLUGS
from ..engine.errors import SetupError
from ..engine.game import Game
from ..engine.registry import D_DECREE_DEST, P_ACTOR, P_DECISION, P_PICKED
from ..engine.seeds import derive_seed
from ..engine.setup import Setup
from ..notation import savefile
from ..notation.replay import ACTIONS_VERSION, replay
from .ismcts import ActionValue, IsmctsBot
from .search_levels import SearchLevel, parse_level

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


def whole_points(x: float) -> int:
    """``x`` rounded half up, as the browser's ``Math.round`` does (Python's ``round`` rounds half to even).

    Every review and hint shows its percentages and costs through this, so that a
    number reads the same in the terminal and the browser, and a grade can rest on it.
    """
    return math.floor(x + 0.5)


def win_percent(p: float) -> int | None:
    """A win chance (0 to 1) as the whole percentage shown; None where the search did not try it."""
    return None if math.isnan(p) else whole_points(100.0 * p)


def by_shown_win(values: Iterable[ActionValue]) -> list[ActionValue]:
    """``values`` ordered by the win chance a person reads (whole percent), highest first.

    The search ranks by simulations, which can put 32% above 33%: a list that shows
    percentages must read in their order. Ties keep the search's order (the sort is
    stable), and untried actions come last.
    """
    return sorted(values, key=lambda v: (math.isnan(v.win), -(win_percent(v.win) or 0)))


def review_seed(setup: Setup) -> int:
    """The search seed of a game's review: its deal's seed (0 for a built position).

    One rule for every place that reviews a game, so that the terminal at the end of
    the game, ``oriflamme review`` on its save file and the browser agree.
    """
    return setup.seed if setup.seed is not None else 0


def review_level(level: str | SearchLevel) -> SearchLevel:
    """The search budget of ``level`` without its clock cap (a budget given in seconds keeps it).

    The cap guards play against a slow machine; a review on a busy server cut short
    by it would grade the same game differently from one on an idle laptop.
    """
    budget = parse_level(level)[1] if isinstance(level, str) else level
    return budget if budget.timed else replace(budget, max_seconds=math.inf)


@dataclass(frozen=True, slots=True)
class MoveFacts:
    """What one action did, as data the terminal and the browser put into words.

    A review line says when and what ("Round 3: Archer placed at the right end of the
    queue (4th)"): the card and the position the action is about, as the deciding
    seat saw them, with the queue's length to tell its ends.
    """

    #: The action's text form (``place archer last``, ``target 3``...); its first word is the verb.
    text: str
    #: The card the action is about (placed, kept, revealed, targeted, moved), when the seat knew it.
    card: str | None = None
    #: Its position in the queue, 1-based, once the action is played (0: no position).
    position: int = 0
    #: The number of positions in the queue once the action is played.
    queue_length: int = 0

    @property
    def verb(self) -> str:
        """The first word of the text form: ``place``, ``keep``, ``target``, ``to``..."""
        return self.text.split()[0]

    def to_dict(self) -> dict[str, object]:
        """Plain data for JSON (the browser words it with the same catalogs)."""
        return {
            "text": self.text,
            "verb": self.verb,
            "card": self.card,
            "position": self.position,
            "queue_length": self.queue_length,
        }


def _seen(g: Game, seat: int, card: int) -> str | None:
    """The slug of ``card`` if ``seat`` knew it (its own, face up or exposed), else None."""
    if card < 0:
        return None
    if g.up[card] or g.exposed[card] or g.owner[card] == seat:
        return SLUGS[g.kind[card]]
    return None


def move_facts(g: Game, action: int) -> MoveFacts:
    """What ``action`` at ``g``'s pending decision is about, from the deciding seat's view."""
    text = action_text(g, action)
    words = text.split()
    seat = g.current_player()
    length = len(g.queue)
    pending = g.pending
    if words[0] == "place":
        where = {"first": 1, "last": length + 1}.get(words[2])
        if where is not None:
            return MoveFacts(text, words[1], where, length + 1)
        return MoveFacts(text, words[1], int(words[3]), length)
    if words[0] in ("keep", "reveal") and pending is not None:
        card = pending[P_ACTOR]
        position = g.queue.index(card) + 1 if card in g.queue else 0
        return MoveFacts(text, _seen(g, seat, card), position, length)
    if words[0] in ("target", "use"):
        position = int(words[1])
        return MoveFacts(text, _seen(g, seat, g.queue[position - 1]), position, length)
    if words[0] == "to" and pending is not None and pending[P_DECISION] == D_DECREE_DEST:
        # The card the Decree moves, at the position it picked (not the card's id).
        return MoveFacts(text, _seen(g, seat, g.queue[pending[P_PICKED]]), int(words[1]), length)
    return MoveFacts(text)


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
    #: What the move played and the search's move were about (card, position), for the review's words.
    played_move: MoveFacts | None = None
    best_move: MoveFacts | None = None

    @property
    def exact_cost(self) -> float:
        """Win-probability points lost by not playing the best move (0 when it was played)."""
        if self.played == self.best or math.isnan(self.played_win):
            return 0.0
        return max(0.0, 100.0 * (self.best_win - self.played_win))

    @property
    def cost(self) -> int:
        """The cost in whole points, as every review shows it (:func:`whole_points`)."""
        return whole_points(self.exact_cost)

    @property
    def grade(self) -> str | None:
        """``blunder``, ``mistake``, ``inaccuracy`` or None, for the cost as shown.

        A cost shown as 10 is a mistake, as the README's thresholds say, even when the
        search's estimate was 9.6.
        """
        cost = self.cost
        return next((name for limit, name in GRADES if cost >= limit), None)


def review_game(
    setup: Setup,
    actions: Sequence[str],
    seats: Iterable[int],
    level: str = DEFAULT_LEVEL,
    seed: int | None = None,
    version: int = ACTIONS_VERSION,
    on_move: Callable[[MoveReview], None] | None = None,
    describe: Describe = action_text,
) -> list[MoveReview]:
    """Review ``seats``' decisions in the game ``setup`` deals and ``actions`` play.

    Each decision is searched with a bot seeded from ``seed`` (by default
    :func:`review_seed`) and the decision's index, so a review is reproducible.
    ``on_move`` is called as each review is ready (for a progress display);
    ``describe`` words an action at its decision (the text form by default).
    """
    if seed is None:
        seed = review_seed(setup)
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


def game_record(game: Game) -> tuple[Setup, list[str]]:
    """The deal and the whole list of actions of ``game``, as its save file holds them.

    A game resumed from a save file has its whole history, not only the moves played
    since: a review of it (and its log) starts at the deal.
    """
    doc = savefile.to_dict(game)
    if doc["actions"] is None:
        raise SetupError("this game is a built position: it has no deal to replay")
    return savefile.read_setup(doc["setup"]), list(doc["actions"])


def review_played_game(
    game: Game,
    seats: Iterable[int],
    level: str = DEFAULT_LEVEL,
    describe: Describe = action_text,
) -> list[MoveReview]:
    """Review ``seats``' decisions in ``game`` from its deal, as its save file would be reviewed."""
    setup, actions = game_record(game)
    return review_game(setup, actions, seats, level, describe=describe)


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
    values = IsmctsBot(review_level(level), seed).evaluate(g.view(seat))
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
        played_move=move_facts(g, played),
        best_move=move_facts(g, best.action),
    )


__all__ = [
    "DEFAULT_LEVEL",
    "GRADES",
    "Describe",
    "MoveFacts",
    "MoveReview",
    "by_shown_win",
    "game_record",
    "move_facts",
    "review_game",
    "review_level",
    "review_played_game",
    "review_points",
    "review_position",
    "review_seed",
    "whole_points",
    "win_percent",
]
