"""Playing tournament games: one game as a pure function of (config, index), and batches sized by time."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from time import perf_counter

from ..bots import Bot, make_bot
from ..engine.cards import SLUGS
from ..engine.game import Game
from .config import TournamentConfig, derive_seed
from .seating import seating


@dataclass(frozen=True, slots=True)
class GameRecord:
    """The outcome of one tournament game; every per-player tuple is indexed by entrant, not seat."""

    index: int
    recipe: tuple[str, ...]
    #: Seat of each entrant.
    seats: tuple[int, ...]
    scores: tuple[int, ...]
    #: Win share: 1 for a sole winner, 1/k for each of k tied winners, else 0.
    shares: tuple[float, ...]
    #: 1 = best; tied entrants share the mean of the ranks they span.
    ranks: tuple[float, ...]
    #: Wall time of each of the entrant's ``choose`` calls, in seconds.
    decision_seconds: tuple[tuple[float, ...], ...]


def play_tournament_game(config: TournamentConfig, index: int) -> GameRecord:
    """Deal and play game ``index`` of the tournament; a pure function of ``(config, index)``."""
    n = config.players
    at_seat = seating(n, index, config.seating)
    game = Game.new(
        players=n,
        deck=config.deck,
        seed=derive_seed(config.seed, index, "deal"),
        first_player=0,
        rules=config.rules,
    )
    bots: list[Bot] = [make_bot(config.specs[e], derive_seed(config.seed, index, f"bot{e}")) for e in at_seat]
    times: list[list[float]] = [[] for _ in range(n)]
    clock = perf_counter
    while not game.is_over():
        seat = game.current_player()
        view = game.view(seat)
        t0 = clock()
        action = bots[seat].choose(view)
        times[seat].append(clock() - t0)
        game.apply(action)
    seat_of = [0] * n
    for s, e in enumerate(at_seat):
        seat_of[e] = s
    shares = game.returns()
    ranks = list(game.outcome().ranks)
    return GameRecord(
        index=index,
        recipe=tuple(SLUGS[k] for k in game.recipe),
        seats=tuple(seat_of),
        scores=tuple(game.score[seat_of[e]] for e in range(n)),
        shares=tuple(shares[seat_of[e]] for e in range(n)),
        ranks=tuple(ranks[seat_of[e]] for e in range(n)),
        decision_seconds=tuple(tuple(times[seat_of[e]]) for e in range(n)),
    )


def play_games(config: TournamentConfig, indices: Sequence[int]) -> tuple[list[GameRecord], float]:
    """Play a batch of games (one task of a worker process or of Ray); also return its wall time."""
    start = perf_counter()
    records = [play_tournament_game(config, g) for g in indices]
    return records, perf_counter() - start


#: Wall time a batch of games should take: long enough that the cost of a task does not count,
#: short enough that Ctrl-C, which abandons the running batches, loses little finished work.
BATCH_SECONDS = 1.0


class Batches:
    """Hands out the games to play in consecutive batches, sized from the games timed so far.

    Bots differ by five orders of magnitude in time per game (random: a
    millisecond; ``ismcts:hard``: half a minute), so no fixed batch size
    suits all: batches start at one game and grow to about
    :data:`BATCH_SECONDS` of play, never beyond ``largest`` nor a sixteenth
    of a worker's share (which keeps the workers evenly busy and the
    progress bar moving). Batching does not change any result: records are
    summed in game order whatever the batches were.
    """

    def __init__(self, indices: Sequence[int], workers: int, largest: int) -> None:
        self._todo = list(indices)
        self._next = 0
        self._cap = max(1, min(largest, len(self._todo) // (workers * 16)))
        self._games = 0
        self._seconds = 0.0

    def timed(self, games: int, seconds: float) -> None:
        """Learn from a finished batch of ``games`` games that took ``seconds``."""
        self._games += games
        self._seconds += seconds

    def size(self) -> int:
        """The size of the next batch."""
        if not self._games:
            return 1
        per_game = max(self._seconds / self._games, 1e-9)
        return max(1, min(self._cap, int(BATCH_SECONDS / per_game)))

    def next(self) -> Sequence[int] | None:
        """The next batch, or ``None`` when every game has been handed out."""
        if self._next >= len(self._todo):
            return None
        batch = self._todo[self._next : self._next + self.size()]
        self._next += len(batch)
        return batch
