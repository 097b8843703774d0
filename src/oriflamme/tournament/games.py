"""Playing tournament games: one game as a pure function of (config, index), and batches sized by time."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from time import perf_counter

from ..bots import Bot, make_bot
from ..engine.cards import SLUGS
from ..engine.errors import OriflammeError
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
    #: The deal: each *seat*'s set-aside card ids (round 1's first player is seat 0). With
    #: ``actions`` it determines the game (:meth:`Game.deal_from`, then apply them); empty
    #: in records of schema 2, which kept only outcomes.
    aside: tuple[tuple[int, ...], ...] = ()
    #: Every action of the game, in order (``Game.history``).
    actions: tuple[int, ...] = ()

    @property
    def has_actions(self) -> bool:
        """Whether the game can be replayed (records of schema 2 and earlier kept outcomes only)."""
        return bool(self.aside)


def deal(config: TournamentConfig, index: int) -> Game:
    """Game ``index`` of the tournament as dealt, before its first action; seat 0 starts round 1."""
    return Game.new(
        players=config.players,
        deck=config.deck,
        seed=derive_seed(config.seed, index, "deal"),
        first_player=0,
        rules=config.rules,
    )


def play_tournament_game(config: TournamentConfig, index: int) -> GameRecord:
    """Deal and play game ``index`` of the tournament; a pure function of ``(config, index)``."""
    n = config.players
    at_seat = seating(n, index, config.seating)
    game = deal(config, index)
    game.record_events = False  # nobody reads them: bots see views, the record keeps actions
    aside = tuple(tuple(cards) for cards in game.aside)
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
        aside=aside,
        actions=tuple(game.history),
    )


def replay(config: TournamentConfig, record: GameRecord) -> Game:
    """A recorded game dealt again and played through its actions, checked against the record.

    Raises :class:`ValueError` saying what disagrees: a deal that is not the
    one the tournament's seed gives, an action the rules refuse, a game that
    does not end where its actions do, or final scores other than those
    recorded. A record without actions (schema 2) cannot be replayed.
    """
    if not record.has_actions:
        raise ValueError(
            f"game {record.index} was recorded without its deal and actions: it cannot be replayed"
        )
    game = deal(config, record.index)
    if [list(a) for a in record.aside] != game.aside:
        raise ValueError(f"'aside' {[list(a) for a in record.aside]} is not the deal of game {record.index}")
    for number, action in enumerate(record.actions, start=1):
        if game.is_over():
            raise ValueError(
                f"the game is over after {number - 1} actions, but {len(record.actions)} are recorded"
            )
        try:
            game.apply(action)
        except OriflammeError as exc:
            raise ValueError(f"action {number} of {len(record.actions)}: {exc}") from None
    if not game.is_over():
        raise ValueError(f"the game is not over after its {len(record.actions)} recorded actions")
    check_outcome(record, game)
    return game


def check_outcome(record: GameRecord, game: Game) -> None:
    """Refuse a record whose scores, ranks or win shares are not those its replayed ``game`` ends with.

    Ranks and shares are compared too: with tied scores they are decided by
    the tie-break (positions controlled), which only the replay knows.
    """
    seats = record.seats
    n = len(seats)
    scores = tuple(game.score[seats[e]] for e in range(n))
    if scores != record.scores:
        raise ValueError(f"replayed, the game ends with scores {list(scores)}, not {list(record.scores)}")
    outcome = game.outcome()
    ranks = tuple(float(outcome.ranks[seats[e]]) for e in range(n))
    shares = game.returns()
    if ranks != record.ranks or any(abs(shares[seats[e]] - record.shares[e]) > 1e-9 for e in range(n)):
        raise ValueError(
            f"replayed, the game ends with ranks {list(ranks)} and win shares "
            f"{[shares[seats[e]] for e in range(n)]}, not {list(record.ranks)} and {list(record.shares)}"
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
