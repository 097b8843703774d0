"""One of the project's bots against OpenSpiel's own ``ISMCTSBot``, through the OpenSpiel game.

The outside reference for the project's players: OpenSpiel's Python
information-set MCTS (random rollouts, UCT), playing ``python_oriflamme``
with the project's resampler dealing the cards a seat cannot see (the
only part of its search that knows the game). One seat is the project's
bot, given only its seat's view as always; every other seat is an
``ISMCTSBot`` of ``simulations`` simulations. Each deal is played once
with the bot in every seat, so no seat's advantage counts for or against
it. Wins are counted as the tournament counts them (a shared win is 1/k),
with a Wilson interval, and the time of every decision is kept on both
sides: "equal time per decision" is then a figure in the result, read
off the medians, not a promise.

Everything is seeded: a deal's seed, the bot's seed and each
``ISMCTSBot``'s random state are derived from ``seed`` and the game's number
(``engine.seeds.derive_seed``), so the same arguments replay the same games
(a bot searching for a time aside), and two seeds share no deal.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from ..bots import make_bot
from ..encoding.actions import game_legal_indices
from ..engine.game import Game
from ..engine.seeds import derive_seed
from ..pools import worker_pool
from ..stats import wilson_interval
from . import openspiel_game

__all__ = ["GameOutcome", "MatchResult", "check_match", "deal_seed", "play_match"]

#: OpenSpiel's exploration constant for its ISMCTS examples, kept here.
UCT_C = 2.0


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """One game of a match: the bot's seat, its share of the win, and the time of each decision."""

    number: int
    seat: int
    #: The seed of the deal (``Game.new(players, deck, seed=deal_seed)`` deals it again).
    deal_seed: int
    win: float
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    bot_seconds: tuple[float, ...]
    openspiel_seconds: tuple[float, ...]


@dataclass(frozen=True, slots=True)
class MatchResult:
    """A whole match: the bot's share of the wins and both sides' time per decision."""

    spec: str
    players: int
    deck: str
    simulations: int
    seed: int
    games: tuple[GameOutcome, ...]

    @property
    def wins(self) -> float:
        return sum(g.win for g in self.games)

    @property
    def win_rate(self) -> float:
        return self.wins / len(self.games) if self.games else 0.0

    @property
    def win_rate_ci95(self) -> tuple[float, float]:
        return wilson_interval(self.wins, len(self.games))

    def median_ms(self, side: str) -> float:
        """The median time of one decision in milliseconds, ``side`` ``"bot"`` or ``"openspiel"``."""
        times = [t for g in self.games for t in (g.bot_seconds if side == "bot" else g.openspiel_seconds)]
        return 1000 * statistics.median(times) if times else 0.0

    def to_dict(self) -> dict[str, Any]:
        lo, hi = self.win_rate_ci95
        return {
            "bot": self.spec,
            "opponent": f"open_spiel ISMCTSBot ({self.simulations} simulations, uct_c {UCT_C}, random rollouts)",
            "players": self.players,
            "deck": self.deck,
            "seed": self.seed,
            "games": len(self.games),
            "wins": self.wins,
            "win_rate": self.win_rate,
            "win_rate_ci95": [lo, hi],
            "chance": 1 / self.players,
            "seat_games": [sum(1 for g in self.games if g.seat == s) for s in range(self.players)],
            "mean_score": statistics.fmean(g.scores[g.seat] for g in self.games) if self.games else 0.0,
            "bot_median_ms": self.median_ms("bot"),
            "openspiel_median_ms": self.median_ms("openspiel"),
            "bot_decisions": sum(len(g.bot_seconds) for g in self.games),
            "openspiel_decisions": sum(len(g.openspiel_seconds) for g in self.games),
        }


@dataclass(frozen=True, slots=True)
class _Task:
    spec: str
    players: int
    deck: str
    simulations: int
    seed: int
    number: int


def _openspiel_bot(game: pyspiel.Game, simulations: int, seed: int) -> ismcts.ISMCTSBot:
    """An ``ISMCTSBot`` whose rollouts, choices and resampled deals all come from ``seed``."""
    state = np.random.RandomState(seed % 2**32)
    bot = ismcts.ISMCTSBot(
        game, mcts.RandomRolloutEvaluator(1, state), UCT_C, simulations, random_state=state
    )
    deals = random.Random(seed)
    bot.set_resampler(lambda s, player: openspiel_game.resampler(s, player, deals))
    return bot


def _load(players: int, deck: str) -> pyspiel.Game:
    """The OpenSpiel game; a random deck is refused (its recipe is not one of the game's chance nodes)."""
    return pyspiel.load_game(
        openspiel_game.GAME_NAME, {"players": players, "deck": openspiel_game.deck_parameter(deck)}
    )


def _engine_game(state: openspiel_game.OriflammeState) -> Game:
    """The engine's game under a dealt OpenSpiel state."""
    game = state.game
    if game is None:
        raise RuntimeError("the state is not dealt yet")
    return game


def deal_seed(seed: int, deal: int) -> int:
    """The seed of a match's ``deal``-th deal (each match seed its own stream of deals)."""
    return derive_seed("openspiel-match", seed, deal, "deal")


def play_one(task: _Task) -> GameOutcome:
    """Play game ``task.number``: deal ``number // players``, the bot in seat ``number % players``."""
    game = _load(task.players, task.deck)
    deal = task.number // task.players
    seat = task.number % task.players
    bot = make_bot(task.spec, seed=derive_seed("openspiel-match", task.seed, task.number, "bot"))
    others = {
        s: _openspiel_bot(game, task.simulations, derive_seed("openspiel-match", task.seed, task.number, s))
        for s in range(task.players)
        if s != seat
    }
    state = game.new_initial_state()
    dealt = deal_seed(task.seed, deal)
    for action in openspiel_game.deal_actions(game, Game.new(task.players, task.deck, seed=dealt)):
        state.apply_action(action)
    ours: list[float] = []
    theirs: list[float] = []
    while not state.is_terminal():
        mover = state.current_player()
        if mover == seat:
            now = _engine_game(state)
            view = now.view(seat)
            start = time.perf_counter()
            chosen = bot.choose(view)
            ours.append(time.perf_counter() - start)
            index = {a: i for i, a in game_legal_indices(now).items()}.get(chosen)
            if index is None:
                raise RuntimeError(
                    f"{task.spec} chose {chosen}, not a legal move, in seat {seat} of game {task.number} "
                    f"(deal seed {dealt}, {len(ours)} decisions in)"
                )
        else:
            start = time.perf_counter()
            index = others[mover].step(state)
            theirs.append(time.perf_counter() - start)
        state.apply_action(index)
    share = state.returns()[seat] + 1 / task.players  # returns are the win share minus 1/n
    end = _engine_game(state)
    return GameOutcome(
        task.number,
        seat,
        dealt,
        round(share, 9),
        tuple(end.score),
        tuple(end.winners),
        tuple(ours),
        tuple(theirs),
    )


def check_match(spec: str, *, players: int, deck: str, games: int, simulations: int, workers: int) -> None:
    """Refuse a match that cannot be played as asked, before any game: ``SetupError`` for the bot or
    the deck, ``ValueError`` for the counts."""
    if simulations < 2:
        raise ValueError("OpenSpiel's ISMCTSBot needs at least 2 simulations (the first only makes the root)")
    if games < 1 or workers < 1:
        raise ValueError("games and workers must be at least 1")
    if games % players:
        raise ValueError(
            f"{games} games do not share out over {players} seats: give a multiple of {players} "
            "(each deal is played once with the bot in every seat)"
        )
    make_bot(spec, seed=0)
    Game.new(players, deck, seed=0)
    _load(players, deck)


def play_match(
    spec: str,
    *,
    players: int = 4,
    deck: str = "base",
    games: int = 100,
    simulations: int = 100,
    seed: int = 0,
    workers: int = 1,
    on_game: Callable[[GameOutcome], None] | None = None,
) -> MatchResult:
    """Play ``games`` games of ``spec`` in one seat against ``players - 1`` OpenSpiel ``ISMCTSBot``s.

    ``games`` is a multiple of ``players``: deal ``k`` is played with the bot in
    every seat. ``workers`` processes play games at once (the time per
    decision is then each process's own, as in the tournament). ``on_game``
    hears of each finished game in order. Bad arguments raise before any
    game (:func:`check_match`); a bot that fails mid-game stops the match
    with the game it failed in.
    """
    check_match(spec, players=players, deck=deck, games=games, simulations=simulations, workers=workers)
    tasks = [_Task(spec, players, deck, simulations, seed, n) for n in range(games)]
    outcomes: list[GameOutcome] = []
    for outcome in _outcomes(tasks, workers):
        outcomes.append(outcome)
        if on_game is not None:
            on_game(outcome)
    return MatchResult(spec, players, deck, simulations, seed, tuple(outcomes))


def _outcomes(tasks: list[_Task], workers: int) -> Iterator[GameOutcome]:
    if workers == 1:
        yield from map(play_one, tasks)
        return
    with worker_pool(workers) as pool:  # not forked: a progress bar's thread may be running
        yield from pool.map(play_one, tasks)
