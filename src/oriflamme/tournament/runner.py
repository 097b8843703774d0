"""Bot tournaments behind ``oriflamme tournament``: many seeded games, rotated seats, ratings.

One spec per seat (``random``, ``heuristic``, ``ismcts:hard``, ...) makes one
*entrant*; two identical specs are two entrants (``heuristic#1``,
``heuristic#2``) with their own results, also summed per spec.

Fairness and reproducibility come from three rules:

* **Seat rotation.** Game ``g`` seats entrant ``i`` at seat ``(i + g) % n``,
  and seat 0 (p1) always starts the first round. So over any ``n``
  consecutive games every entrant plays every seat once, and starts once.
  Rotation keeps each entrant's neighbours, though, and in this game the
  player after you is the one whose cards land next to yours; the
  ``permute`` seating also cycles through every cyclic order of the
  entrants (a full cycle is ``n!`` games), for comparing different bots.
* **Seeds per game.** Everything random in game ``g`` (the recipe when the
  deck is ``random``, the deal, each bot's own generator) is derived from
  ``(seed, g)`` alone, never from a shared stream. A game plays the same
  whichever process runs it and whenever.
* **Aggregation in game order.** Results are collected as they come, then
  summed and rated in game index order; the rating update is order
  dependent, and this makes the numbers independent of the worker count,
  the backend and the completion order.

Games run in a :class:`~concurrent.futures.ProcessPoolExecutor`, in this
process (``workers=1``), or as Ray tasks (the optional ``cluster`` extra).
Ctrl-C stops the run and raises :class:`TournamentInterrupted`, which carries
the results of the games finished so far; with a record file
(:mod:`oriflamme.tournament_record`) a later run picks up where it stopped.
"""

from __future__ import annotations

import importlib
import itertools
import logging
import math
import multiprocessing
import os
import signal
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from functools import cache
from statistics import median
from time import perf_counter
from typing import Any

from ..bots import Bot, make_bot, parse_bot_spec
from ..build import build_kind
from ..engine import seeds
from ..engine.cards import SLUGS
from ..engine.errors import SetupError
from ..engine.game import Game
from ..engine.options import RuleOptions

#: Player counts a tournament can seat (the engine's 2 to 5).
MIN_ENTRANTS = 2
MAX_ENTRANTS = 5

#: The z value of a two-sided 95% interval.
Z95 = 1.959963984540054

#: Version of the ``--json`` layout; bumped when a field changes meaning.
JSON_SCHEMA = "oriflamme.tournament/1"

#: Seating schemes (see :func:`seating`).
SEATINGS = ("rotate", "permute")

#: What ``pip`` must install for the Ray backend.
RAY_HINT = "pip install 'oriflamme[cluster]'"


class TournamentInterrupted(KeyboardInterrupt):
    """Ctrl-C during a run; ``result`` holds the games that finished before it.

    A :class:`KeyboardInterrupt`, so a script that does not expect it still
    stops the way Ctrl-C always does.
    """

    def __init__(self, result: TournamentResult) -> None:
        super().__init__(f"tournament interrupted after {result.games} of {result.games_requested} games")
        self.result = result


# ----------------------------------------------------------------- set-up


def normalize_spec(spec: str) -> str:
    """The canonical form of a bot spec: lower case, with the kind's default level filled in."""
    kind, level = parse_bot_spec(spec, custom=True)
    return kind if level is None else f"{kind}:{level}"


def normalize_deck(deck: str) -> str:
    """A deck argument in the one spelling that names it (``Base`` -> ``base``, no spaces after commas).

    The deck is part of what identifies a tournament (its games, a record
    file), so two spellings of one deck must not look like two tournaments.
    """
    return ",".join(part.strip() for part in deck.strip().lower().split(","))


def parse_entrants(specs: str | Sequence[str]) -> tuple[str, ...]:
    """Check a comma-separated list (or sequence) of bot specs, one per seat; return them normalized.

    Raises :class:`SetupError` for an unknown bot or level, and for fewer than
    2 or more than 5 specs.
    """
    items = specs.split(",") if isinstance(specs, str) else list(specs)
    items = [s.strip() for s in items]
    if any(not s for s in items):
        raise SetupError(f"empty bot spec in {','.join(items)!r}; give one spec per seat, e.g. random,random")
    if not MIN_ENTRANTS <= len(items) <= MAX_ENTRANTS:
        raise SetupError(
            f"a tournament seats {MIN_ENTRANTS} to {MAX_ENTRANTS} bots (one spec per seat), got {len(items)}"
        )
    return tuple(normalize_spec(s) for s in items)


def entrant_names(specs: Sequence[str]) -> tuple[str, ...]:
    """Display names: the spec itself, numbered ``spec#k`` when the spec appears more than once."""
    counts: dict[str, int] = {}
    for s in specs:
        counts[s] = counts.get(s, 0) + 1
    seen: dict[str, int] = {}
    names = []
    for s in specs:
        if counts[s] == 1:
            names.append(s)
        else:
            seen[s] = seen.get(s, 0) + 1
            names.append(f"{s}#{seen[s]}")
    return tuple(names)


@dataclass(frozen=True, slots=True)
class TournamentConfig:
    """What a tournament plays; with it, game ``g`` is fully determined (see :func:`play_tournament_game`)."""

    #: Normalized bot specs, entrant ``i`` first seated at seat ``i``.
    specs: tuple[str, ...]
    deck: str = "random"
    games: int = 100
    seed: int = 0
    rules: RuleOptions = field(default_factory=RuleOptions)
    #: ``rotate`` or ``permute``, see :func:`seating`.
    seating: str = "rotate"

    @property
    def players(self) -> int:
        return len(self.specs)

    @property
    def names(self) -> tuple[str, ...]:
        return entrant_names(self.specs)

    def check(self) -> None:
        """Raise :class:`SetupError` for anything that would fail only once games are running."""
        if self.games < 1:
            raise SetupError(f"the number of games must be at least 1, got {self.games}")
        if self.seating not in SEATINGS:
            raise SetupError(f"unknown seating {self.seating!r}; use one of {', '.join(SEATINGS)}")
        if tuple(parse_entrants(self.specs)) != self.specs:
            raise SetupError(f"bot specs must be normalized with parse_entrants, got {self.specs}")
        Game.new(players=self.players, deck=self.deck, seed=0, first_player=0, rules=self.rules)


def derive_seed(seed: int, game: int, purpose: str) -> int:
    """A 63-bit seed for one use (``deal``, ``bot3``, ...) in one game, from the tournament seed."""
    return seeds.derive_seed("tournament", seed, game, purpose)


@cache
def cyclic_orders(players: int) -> tuple[tuple[int, ...], ...]:
    """Every order of the entrants around the table, up to rotation: entrant 0 first, the rest permuted.

    Lexicographic, so the first is ``0, 1, ..., n-1``, the order ``rotate`` keeps.
    """
    return tuple((0, *rest) for rest in itertools.permutations(range(1, players)))


def seating(players: int, game: int, scheme: str = "rotate") -> tuple[int, ...]:
    """Entrant at each seat in game ``game``.

    ``rotate``: entrant ``i`` sits at seat ``(i + game) % players``, so the
    entrants keep one order around the table. ``permute``: games are taken
    in blocks of ``players``; block ``b`` uses cyclic order
    ``b % (players - 1)!`` (see :func:`cyclic_orders`), rotated by ``game %
    players`` as in ``rotate``. Over ``players!`` games every entrant then
    plays every seat equally often and follows every other entrant equally
    often. Both schemes agree on the first ``players`` games.
    """
    if scheme == "rotate":
        order: Sequence[int] = range(players)
    else:
        orders = cyclic_orders(players)
        order = orders[(game // players) % len(orders)]
    shift = game % players
    return tuple(order[(s - shift) % players] for s in range(players))


def seating_rule(scheme: str) -> str:
    """The seating scheme in words, for the ``--json`` output."""
    if scheme == "rotate":
        return "game g seats entrant i at seat (i + g) % players; seat 0 (p1) starts"
    return (
        "game g: cyclic order (g // players) % (players - 1)! of the entrants (entrant 0 first, the "
        "others in lexicographic permutation order), rotated by g % players; seat 0 (p1) starts"
    )


# ------------------------------------------------------------------ games


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


# ---------------------------------------------------------------- results


def wilson_interval(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion; fractional successes (shared wins) are allowed."""
    if trials <= 0:
        return (0.0, 1.0)
    p = min(max(successes / trials, 0.0), 1.0)
    z2 = z * z
    denom = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denom
    # At p = 0 or 1 the bound is exactly 0 or 1; say so rather than leave rounding noise.
    lo = 0.0 if p == 0 else max(0.0, centre - half)
    hi = 1.0 if p == 1 else min(1.0, centre + half)
    return (lo, hi)


def percentile(sorted_values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (``q`` in 0..100) of already sorted values; 0 for none."""
    if not sorted_values:
        return 0.0
    rank = max(1, math.ceil(q / 100 * len(sorted_values)))
    return sorted_values[rank - 1]


@dataclass(frozen=True, slots=True)
class Rating:
    """A Plackett-Luce rating (openskill): skill estimate ``mu`` and its uncertainty ``sigma``."""

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """``mu - 3 sigma``: a conservative skill estimate, what the leaderboard sorts by."""
        return self.mu - 3 * self.sigma

    def to_dict(self) -> dict[str, float]:
        return {"mu": self.mu, "sigma": self.sigma, "ordinal": self.ordinal}


def rate_games(players: int, records: Iterable[GameRecord]) -> list[Rating]:
    """Rate entrants with openskill's Plackett-Luce model, one update per game, in the given order."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    current = [[model.rating()] for _ in range(players)]
    for r in records:
        current = model.rate(current, ranks=list(r.ranks))
    return [Rating(mu=float(team[0].mu), sigma=float(team[0].sigma)) for team in current]


@dataclass(frozen=True, slots=True)
class Standing:
    """One row of the results: an entrant, or all entrants with the same spec summed."""

    name: str
    spec: str
    #: Entrant-games: a spec held by two entrants counts each game twice.
    games: int
    wins: float
    mean_score: float
    mean_rank: float
    #: Games played at each seat (seat 0 starts the first round).
    seat_games: tuple[int, ...]
    decisions: int
    decision_median_ms: float
    decision_p95_ms: float
    rating: Rating | None = None

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def win_rate_ci95(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.games)

    def to_dict(self) -> dict[str, Any]:
        lo, hi = self.win_rate_ci95
        data: dict[str, Any] = {
            "name": self.name,
            "spec": self.spec,
            "games": self.games,
            "wins": self.wins,
            "win_rate": self.win_rate,
            "win_rate_ci95": [lo, hi],
            "mean_score": self.mean_score,
            "mean_rank": self.mean_rank,
            "seat_games": list(self.seat_games),
        }
        if self.rating is not None:
            data["rating"] = self.rating.to_dict()
        return data

    def timing_dict(self) -> dict[str, Any]:
        return {
            "decisions": self.decisions,
            "median_ms": self.decision_median_ms,
            "p95_ms": self.decision_p95_ms,
        }


def standing(
    name: str, spec: str, entrants: Sequence[int], records: Sequence[GameRecord], rating: Rating | None
) -> Standing:
    """Sum the results of ``entrants`` over ``records``."""
    games = len(records) * len(entrants)
    players = len(records[0].seats) if records else 0
    seat_games = [0] * players
    times: list[float] = []
    wins = score = rank = 0.0
    for r in records:
        for e in entrants:
            wins += r.shares[e]
            score += r.scores[e]
            rank += r.ranks[e]
            seat_games[r.seats[e]] += 1
            times.extend(r.decision_seconds[e])
    times.sort()
    return Standing(
        name=name,
        spec=spec,
        games=games,
        wins=wins,
        mean_score=score / games if games else 0.0,
        mean_rank=rank / games if games else 0.0,
        seat_games=tuple(seat_games),
        decisions=len(times),
        decision_median_ms=median(times) * 1000 if times else 0.0,
        decision_p95_ms=percentile(times, 95) * 1000,
        rating=rating,
    )


@dataclass(frozen=True, slots=True)
class TournamentResult:
    """Standings of a (possibly interrupted) tournament, and how the run went."""

    config: TournamentConfig
    #: Games finished, in game index order (all of them unless interrupted).
    records: tuple[GameRecord, ...]
    entrants: tuple[Standing, ...]
    #: One row per distinct spec, in order of first appearance.
    specs: tuple[Standing, ...]
    interrupted: bool
    seconds: float
    backend: str
    workers: int
    #: Games taken from a record file rather than played in this run (not in ``seconds``).
    resumed: int = 0

    @property
    def games(self) -> int:
        return len(self.records)

    @property
    def games_requested(self) -> int:
        return self.config.games

    @property
    def games_played(self) -> int:
        """Games played in this run: all of them but the resumed ones."""
        return self.games - self.resumed

    @property
    def games_per_second(self) -> float:
        """The speed of this run: games played in it over its wall time."""
        return self.games_played / self.seconds if self.seconds > 0 else 0.0

    @property
    def recipes(self) -> int:
        """How many distinct recipes were played."""
        return len({r.recipe for r in self.records})

    def to_dict(self) -> dict[str, Any]:
        """The ``--json`` document. Everything but ``run`` depends only on the configuration."""
        return {
            "schema": JSON_SCHEMA,
            "players": self.config.players,
            "bots": list(self.config.specs),
            "deck": self.config.deck,
            "seed": self.config.seed,
            "rules": self.config.rules.to_dict(),
            "seating_scheme": self.config.seating,
            "seating": seating_rule(self.config.seating),
            "games_requested": self.games_requested,
            "games": self.games,
            "interrupted": self.interrupted,
            "recipes": self.recipes,
            "entrants": [s.to_dict() for s in self.entrants],
            "specs": [s.to_dict() for s in self.specs],
            "run": {
                "backend": self.backend,
                "build": build_kind(),
                "workers": self.workers,
                "resumed_games": self.resumed,
                "seconds": self.seconds,
                "games_per_second": self.games_per_second,
                "decision_time": {s.name: s.timing_dict() for s in self.entrants},
                "decision_time_by_spec": {s.spec: s.timing_dict() for s in self.specs},
            },
        }


def summarize(
    config: TournamentConfig,
    records: Iterable[GameRecord],
    *,
    interrupted: bool = False,
    seconds: float = 0.0,
    backend: str = "local",
    workers: int = 1,
    resumed: int = 0,
) -> TournamentResult:
    """Aggregate game records (in any order) into standings, rating them in game index order."""
    ordered = tuple(sorted(records, key=lambda r: r.index))
    names = config.names
    ratings = rate_games(config.players, ordered)
    entrants = tuple(
        standing(names[e], spec, [e], ordered, ratings[e]) for e, spec in enumerate(config.specs)
    )
    by_spec: dict[str, list[int]] = {}
    for e, spec in enumerate(config.specs):
        by_spec.setdefault(spec, []).append(e)
    specs = tuple(standing(spec, spec, es, ordered, None) for spec, es in by_spec.items())
    return TournamentResult(
        config=config,
        records=ordered,
        entrants=entrants,
        specs=specs,
        interrupted=interrupted,
        seconds=seconds,
        backend=backend,
        workers=workers,
        resumed=resumed,
    )


# --------------------------------------------------------------- backends

#: Called with each finished game, in completion order (progress display).
OnGame = Callable[[GameRecord], None]


def _ignore_sigint() -> None:
    """Worker initializer: Ctrl-C is the parent's to handle (workers would print tracebacks)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _run_in_process(
    config: TournamentConfig, indices: Sequence[int], on_game: OnGame, done: dict[int, GameRecord]
) -> None:
    for g in indices:
        # Looked up at call time on purpose, so tests can substitute the game runner.
        record = play_tournament_game(config, g)
        done[g] = record
        on_game(record)


def _collect(records: list[GameRecord], on_game: OnGame, done: dict[int, GameRecord]) -> None:
    for record in records:
        done[record.index] = record
        on_game(record)


def _run_pool(
    config: TournamentConfig,
    indices: Sequence[int],
    workers: int,
    on_game: OnGame,
    done: dict[int, GameRecord],
) -> None:
    # Not fork: the progress bar's thread is running, and forking a threaded
    # process can deadlock (Python 3.12+ warns about it).
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_ignore_sigint)
    todo = Batches(indices, workers, 16)
    # A few batches in flight per worker, not all of them: waiting costs a
    # pass over the pending futures, and Ctrl-C has less to cancel.
    pending: set[Future[tuple[list[GameRecord], float]]] = set()
    try:
        while True:
            while len(pending) < 4 * workers and (batch := todo.next()) is not None:
                pending.add(pool.submit(play_games, config, batch))
            if not pending:
                break
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                records, seconds = future.result()
                todo.timed(len(records), seconds)
                _collect(records, on_game, done)
    except KeyboardInterrupt:
        # Keep what has finished; abandon running games at once (an ISMCTS game
        # can take minutes) by stopping the workers, then shut down cleanly.
        for future in pending:
            future.cancel()
        processes = getattr(pool, "_processes", None) or {}
        for process in list(processes.values()):
            process.terminate()
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    except BaseException:
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    pool.shutdown(wait=True)


def import_ray() -> Any:
    """The ``ray`` module, or a :class:`SetupError` that says how to install it."""
    try:
        return importlib.import_module("ray")
    except ImportError:
        raise SetupError(f"the Ray backend needs the optional 'ray' package: {RAY_HINT}") from None


def _run_ray(
    config: TournamentConfig,
    indices: Sequence[int],
    address: str | None,
    workers: int,
    on_game: OnGame,
    done: dict[int, GameRecord],
) -> tuple[int, float]:
    """Play the games as Ray tasks; return the cluster's CPU count and the seconds spent starting Ray."""
    ray = import_ray()
    t0 = perf_counter()
    started = False
    if not ray.is_initialized():
        options: dict[str, Any] = {
            "include_dashboard": False,
            "log_to_driver": False,
            "logging_level": logging.WARNING,
        }
        if address is None:
            options["num_cpus"] = workers
        else:
            options["address"] = address
        try:
            ray.init(**options)
        except (ConnectionError, RuntimeError, ValueError) as exc:
            raise SetupError(f"cannot start or reach Ray ({address or 'local instance'}): {exc}") from None
        started = True
    startup = perf_counter() - t0
    try:
        cpus = max(1, int(ray.cluster_resources().get("CPU", workers)))
        task = ray.remote(num_cpus=1)(play_games)
        todo = Batches(indices, cpus, 64)
        pending: list[Any] = []
        try:
            while True:
                while len(pending) < 4 * cpus and (batch := todo.next()) is not None:
                    pending.append(task.remote(config, batch))
                if not pending:
                    break
                finished, pending = ray.wait(pending, num_returns=1)
                for ref in finished:
                    records, seconds = ray.get(ref)
                    todo.timed(len(records), seconds)
                    _collect(records, on_game, done)
        except KeyboardInterrupt:
            for ref in pending:
                ray.cancel(ref, force=True)
            raise
        return cpus, startup
    finally:
        if started:
            ray.shutdown()


def resolve_workers(workers: int | None, games: int) -> int:
    """The worker count to use: ``os.cpu_count()`` by default, never more than the games."""
    if workers is None:
        workers = os.cpu_count() or 1
    if workers < 1:
        raise SetupError(f"the number of workers must be at least 1, got {workers}")
    return max(1, min(workers, games))


def run_tournament(
    config: TournamentConfig,
    workers: int | None = None,
    *,
    ray_address: str | None = None,
    use_ray: bool = False,
    on_game: OnGame | None = None,
    previous: Iterable[GameRecord] = (),
) -> TournamentResult:
    """Play ``config.games`` games and return the standings.

    ``workers``: processes for the local backend (default ``os.cpu_count()``;
    1 plays in this process), or CPUs of a local Ray instance. ``use_ray``
    with ``ray_address=None`` starts a local Ray instance, with an address it
    connects to that cluster (whose nodes must have the same oriflamme
    installed). Results are the same for every backend and worker count.

    ``previous``: games already played (read back from a record file, see
    :mod:`oriflamme.tournament_record`); they are counted, not replayed, and
    ``on_game`` is called only for the games played now. Those with an index
    of ``config.games`` or more are ignored.

    Ctrl-C raises :class:`TournamentInterrupted` with the games finished so far.
    """
    config.check()
    done: dict[int, GameRecord] = {r.index: r for r in previous if r.index < config.games}
    resumed = len(done)
    todo = [g for g in range(config.games) if g not in done]
    workers = resolve_workers(workers, max(1, len(todo)))
    if use_ray:
        import_ray()
    callback: OnGame = on_game if on_game is not None else (lambda record: None)
    backend = "ray" if use_ray else ("in-process" if workers == 1 else "processes")
    start = perf_counter()
    try:
        if not todo:
            pass  # every game came from the record: start no worker, no Ray
        elif use_ray:
            workers, startup = _run_ray(config, todo, ray_address, workers, callback, done)
            start += startup  # games per second should not count Ray's start-up
        elif workers == 1:
            _run_in_process(config, todo, callback, done)
        else:
            _run_pool(config, todo, workers, callback, done)
    except KeyboardInterrupt:
        result = summarize(
            config,
            done.values(),
            interrupted=True,
            seconds=perf_counter() - start,
            backend=backend,
            workers=workers,
            resumed=resumed,
        )
        raise TournamentInterrupted(result) from None
    return summarize(
        config,
        done.values(),
        seconds=perf_counter() - start,
        backend=backend,
        workers=workers,
        resumed=resumed,
    )
