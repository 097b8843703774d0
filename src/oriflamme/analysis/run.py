"""Playing a balance study: tournament games whose facts are taken in the worker that played them.

A study is one :class:`~oriflamme.tournament.TournamentConfig` per player
count and deck. Its games are played by the tournament's own machinery
(:func:`~oriflamme.tournament.run_games`: in this process, in worker
processes or on Ray), so game ``g`` of a study is game ``g`` of the same
tournament, and a record file of one is a record file of the other. Each
worker replays the game it just played into :class:`GameFacts`, so only the
facts (and, when recording, the record) travel back.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from time import perf_counter
from typing import Generic, TypeVar

from ..tournament.config import TournamentConfig
from ..tournament.games import GameRecord, play_tournament_game
from .facts import GameFacts, facts_of


@dataclass(frozen=True, slots=True)
class Analyzed:
    """One played game: its record (for the record file) and its facts."""

    index: int
    record: GameRecord
    facts: GameFacts


def analyze_games(config: TournamentConfig, indices: Sequence[int]) -> tuple[list[Analyzed], float]:
    """Play a batch of a study's games and take their facts (a worker's task); also its wall time."""
    start = perf_counter()
    out = []
    for g in indices:
        record = play_tournament_game(config, g)
        out.append(Analyzed(g, record, facts_of(config, record)))
    return out, perf_counter() - start


T = TypeVar("T")


class InOrder(Generic[T]):
    """Passes items on in game order although they finish in any order.

    Per-game tables are written in game order, so that a seed gives the same
    files whatever the workers: an item waits here until every game before it
    has come. Only the games finished out of order wait, a few batches' worth.
    """

    def __init__(self, expected: Iterable[int], sink: Callable[[T], None]) -> None:
        # A range stays a range: a study of a million games needs no list of their numbers.
        self._expected: Sequence[int] = expected if isinstance(expected, range) else sorted(expected)
        self._next = 0
        self._waiting: dict[int, T] = {}
        self._sink = sink

    def add(self, index: int, item: T) -> None:
        self._waiting[index] = item
        expected = self._expected
        while self._next < len(expected) and expected[self._next] in self._waiting:
            self._sink(self._waiting.pop(expected[self._next]))
            self._next += 1

    def flush(self) -> None:
        """Pass on what is waiting, gaps and all (a run stopped by Ctrl-C keeps what finished)."""
        for index in sorted(self._waiting):
            self._sink(self._waiting.pop(index))
