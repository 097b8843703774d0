"""Random-play simulation and the engine benchmark behind ``oriflamme simulate`` and ``oriflamme bench``.

Everything here is plain measurement returning dataclasses; the command line
only formats them. Both commands drive the engine with the cheapest possible
random policy (one ``random()`` call per decision) so that the numbers measure
the rules engine, not the policy.

Timing uses :func:`time.perf_counter` on one core: the engine is pure Python
and single-threaded, so a cell's rate is what one worker process gets. The
time spent dealing (:meth:`Game.new`) is counted in games per second but not
in decisions per second, which measures ``legal_actions`` + the random choice
+ ``apply`` only. Games record their event log, as a client's do, unless the
run asks for games without it (``record_events=False``: how playouts,
tournaments and the training environments play).
"""

from __future__ import annotations

import platform
import random
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from time import perf_counter
from typing import Any

from ..build import build_kind
from ..engine.cards import SLUGS
from ..engine.errors import SetupError
from ..engine.game import Game
from ..engine.options import RuleOptions
from ..engine.seeds import derive_seed

#: The decks and player counts a full benchmark run covers.
BENCH_DECKS: tuple[str, ...] = ("base", "ablaze", "alliance")
BENCH_PLAYERS: tuple[int, ...] = (2, 3, 4, 5)

#: Performance goals on one core (what search-based bots and RL training need).
TARGET_DECISIONS_PER_SECOND = 300_000
TARGET_BASE_4P_GAMES_PER_SECOND = 3_000

#: Share of a benchmark cell's time budget spent timing ``clone``.
CLONE_SHARE = 0.2
#: How many mid-game states a cell clones (each repeatedly).
CLONE_STATES = 32


def check_setup(players: Sequence[int], decks: Sequence[str], rules: RuleOptions | None = None) -> None:
    """Raise the engine's own error for any player count or deck that cannot be dealt.

    Done up front so that a bad value fails before minutes of measuring, with
    the engine's message (e.g. the allowed player counts, the known card slugs).
    """
    if not players:
        raise SetupError("no player count given")
    if not decks:
        raise SetupError("no deck given")
    for p in players:
        for d in decks:
            Game.new(players=p, deck=d, seed=0, rules=rules)


def play_random_game(
    players: int,
    deck: str,
    seed: int,
    rules: RuleOptions | None = None,
    stop_after: int | None = None,
    record_events: bool = True,
) -> tuple[Game, int]:
    """Deal game ``seed`` and play uniformly random legal actions with ``random.Random(seed)``.

    Returns the game and the number of decisions taken. With ``stop_after`` the
    game is left at its ``stop_after``-th decision point (used to sample
    mid-game states: the same seed replays the same game).
    """
    g = Game.new(players=players, deck=deck, seed=seed, rules=rules, record_events=record_events)
    n = random_playout(g, random.Random(seed), -1 if stop_after is None else stop_after)
    if stop_after is None and not g.is_over():
        raise RuntimeError(f"engine offered no legal action before the end (seed {seed}, {n} decisions)")
    return g, n


def random_playout(g: Game, rng: random.Random, limit: int = -1) -> int:
    """Play uniformly random legal actions until the game ends (or ``limit`` decisions); return the count.

    The one random-play loop of the benchmarks, written for speed: bound methods, and
    ``int(random() * n)`` rather than ``choice`` (the same stream for the same seed).
    """
    rnd = rng.random
    legal = g.legal_actions
    apply = g.apply
    n = 0
    while n != limit:
        a = legal()
        if not a:
            break
        apply(a[int(rnd() * len(a))])
        n += 1
    return n


class _Rates:
    """Games per second (dealing included) and decisions per second (dealing excluded)."""

    __slots__ = ()
    games: int
    decisions: int
    seconds: float
    setup_seconds: float

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else 0.0

    @property
    def decisions_per_second(self) -> float:
        play = self.seconds - self.setup_seconds
        return self.decisions / play if play > 0 else 0.0


@dataclass(frozen=True, slots=True)
class SimulationResult(_Rates):
    """Outcome of ``games`` random games: who won, with what scores, how fast."""

    players: int
    deck: str
    #: The distinct deck recipes played, as card slugs, in order of first use
    #: (one for a preset; ``random`` draws one per game).
    recipes: tuple[tuple[str, ...], ...]
    games: int
    decisions: int
    seconds: float
    #: Time spent dealing, excluded from the decision rate.
    setup_seconds: float
    #: Wins per seat; a shared win counts 1/k for each of the k winners.
    wins: tuple[float, ...]
    mean_score: tuple[float, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "deck": self.deck,
            "recipes": [list(r) for r in self.recipes],
            "games": self.games,
            "decisions": self.decisions,
            "seconds": self.seconds,
            "games_per_second": self.games_per_second,
            "decisions_per_second": self.decisions_per_second,
            "wins": list(self.wins),
            "mean_score": list(self.mean_score),
        }


def simulate(
    players: int = 4,
    deck: str = "base",
    games: int = 100,
    seed: int = 0,
    rules: RuleOptions | None = None,
) -> SimulationResult:
    """Play ``games`` random games; game ``i`` is dealt and played with seed ``seed + i``."""
    if games < 1:
        raise SetupError(f"the number of games must be at least 1, got {games}")
    check_setup([players], [deck], rules)
    wins = [0.0] * players
    totals = [0] * players
    recipes: dict[tuple[str, ...], None] = {}
    decisions = 0
    setup = 0.0
    start = perf_counter()
    for i in range(games):
        t0 = perf_counter()
        g = Game.new(players=players, deck=deck, seed=seed + i, rules=rules)
        setup += perf_counter() - t0
        decisions += random_playout(g, random.Random(seed + i))
        if not g.is_over():
            raise RuntimeError(f"engine offered no legal action before the end (seed {seed + i})")
        for s, r in enumerate(g.returns()):
            wins[s] += r
            totals[s] += g.score[s]
        recipes.setdefault(tuple(SLUGS[k] for k in g.recipe), None)
    seconds = perf_counter() - start
    return SimulationResult(
        players=players,
        deck=deck,
        recipes=tuple(recipes),
        games=games,
        decisions=decisions,
        seconds=seconds,
        setup_seconds=setup,
        wins=tuple(wins),
        mean_score=tuple(t / games for t in totals),
    )


@dataclass(frozen=True, slots=True)
class BenchCell(_Rates):
    """One deck and player count: random full games, decisions, and ``clone`` cost."""

    deck: str
    players: int
    games: int
    decisions: int
    seconds: float
    setup_seconds: float
    clone_us: float
    clones: int

    @property
    def decisions_per_game(self) -> float:
        return self.decisions / self.games if self.games else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "deck": self.deck,
            "players": self.players,
            "games": self.games,
            "decisions": self.decisions,
            "seconds": self.seconds,
            "games_per_second": self.games_per_second,
            "decisions_per_second": self.decisions_per_second,
            "decisions_per_game": self.decisions_per_game,
            "clone_us": self.clone_us,
            "clones": self.clones,
        }


@dataclass(frozen=True, slots=True)
class BenchReport:
    """A benchmark run: its cells and the machine it ran on."""

    machine: str
    seconds_per_cell: float
    cells: tuple[BenchCell, ...]
    #: Whether the games recorded their event log.
    record_events: bool = True

    def to_dict(self) -> dict[str, Any]:
        return {
            "machine": self.machine,
            "seconds_per_cell": self.seconds_per_cell,
            "record_events": self.record_events,
            "targets": {
                "decisions_per_second": TARGET_DECISIONS_PER_SECOND,
                "base_4p_games_per_second": TARGET_BASE_4P_GAMES_PER_SECOND,
            },
            "cells": [c.to_dict() for c in self.cells],
        }


def measure_games(
    players: int,
    deck: str,
    seconds: float,
    seed: int = 0,
    rules: RuleOptions | None = None,
    record_events: bool = True,
) -> tuple[int, int, float, float]:
    """Play random games for about ``seconds`` (at least one game).

    Returns (games, decisions, elapsed seconds, of which dealing seconds).
    """
    games = decisions = 0
    setup = 0.0
    start = perf_counter()
    deadline = start + seconds
    while True:
        t0 = perf_counter()
        if games and t0 >= deadline:
            break
        g = Game.new(players=players, deck=deck, seed=seed + games, rules=rules, record_events=record_events)
        setup += perf_counter() - t0
        decisions += random_playout(g, random.Random(seed + games))
        if not g.is_over():
            raise RuntimeError(f"engine offered no legal action before the end (seed {seed + games})")
        games += 1
    return games, decisions, perf_counter() - start, setup


def sample_states(
    players: int, deck: str, count: int, seed: int = 0, rules: RuleOptions | None = None
) -> list[Game]:
    """``count`` states at uniformly random decision points of random games."""
    pick = random.Random(seed)
    states: list[Game] = []
    for k in range(count):
        game_seed = derive_seed("bench-states", seed, k)  # unrelated to the games being timed
        _, n = play_random_game(players, deck, game_seed, rules)
        g, _ = play_random_game(players, deck, game_seed, rules, stop_after=pick.randrange(n))
        states.append(g)
    return states


def measure_clone(states: Sequence[Game], seconds: float) -> tuple[float, int]:
    """Mean wall time of ``Game.clone`` in microseconds over ``states``, cycled for about ``seconds``."""
    if not states:
        return 0.0, 0
    clones = 0
    start = perf_counter()
    deadline = start + seconds
    while True:
        for s in states:
            s.clone()
        clones += len(states)
        if perf_counter() >= deadline:
            break
    return (perf_counter() - start) / clones * 1e6, clones


#: Untimed games played before each cell, so that the first timed games do
#: not pay for warming the interpreter's caches (noticeable in short cells).
WARMUP_GAMES = 5


def bench_cell(
    deck: str,
    players: int,
    seconds: float = 2.0,
    seed: int = 0,
    rules: RuleOptions | None = None,
    record_events: bool = True,
) -> BenchCell:
    """Measure one deck and player count within roughly ``seconds`` (plus warm-up and state sampling)."""
    for k in range(WARMUP_GAMES):
        play_random_game(players, deck, seed - 1 - k, rules, record_events=record_events)
    games, decisions, elapsed, setup = measure_games(
        players, deck, seconds * (1 - CLONE_SHARE), seed, rules, record_events
    )
    states = sample_states(players, deck, CLONE_STATES, seed, rules)
    clone_us, clones = measure_clone(states, seconds * CLONE_SHARE)
    return BenchCell(
        deck=deck,
        players=players,
        games=games,
        decisions=decisions,
        seconds=elapsed,
        setup_seconds=setup,
        clone_us=clone_us,
        clones=clones,
    )


def run_bench(
    decks: Sequence[str] = BENCH_DECKS,
    players: Sequence[int] = BENCH_PLAYERS,
    seconds: float = 2.0,
    seed: int = 0,
    rules: RuleOptions | None = None,
    on_cell: Callable[[str, int], None] | None = None,
    record_events: bool = True,
) -> BenchReport:
    """Measure every (deck, player count) cell, one after the other on this core.

    ``on_cell(deck, players)`` is called before each cell is measured (progress display).
    """
    if not seconds > 0:
        raise SetupError(f"seconds per cell must be positive, got {seconds}")
    check_setup(players, decks, rules)
    cells: list[BenchCell] = []
    for d in decks:
        for p in players:
            if on_cell is not None:
                on_cell(d, p)
            cells.append(bench_cell(d, p, seconds, seed, rules, record_events))
    return BenchReport(
        machine=machine_description(),
        seconds_per_cell=seconds,
        cells=tuple(cells),
        record_events=record_events,
    )


def machine_description() -> str:
    """Interpreter, OS and CPU model, to label benchmark numbers."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.partition(":")[2].strip()
                break
    except OSError:
        pass
    impl = platform.python_implementation()
    version = ".".join(str(v) for v in sys.version_info[:3])
    return f"{impl} {version} on {platform.system()} {platform.machine()}, {cpu}; build: {build_kind()}"
