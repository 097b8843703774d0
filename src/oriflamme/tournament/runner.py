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
(:mod:`oriflamme.tournament.record`) a later run picks up where it stopped.
"""

from __future__ import annotations

import importlib
import logging
import os
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, wait
from time import perf_counter
from typing import Any, Protocol, TypeVar

from ..engine.errors import SetupError
from ..pools import abandon, worker_pool
from .config import RAY_HINT, TournamentConfig
from .games import Batches, GameRecord, play_games, play_tournament_game
from .results import TournamentResult, summarize


class TournamentInterrupted(KeyboardInterrupt):
    """Ctrl-C during a run; ``result`` holds the games that finished before it.

    A :class:`KeyboardInterrupt`, so a script that does not expect it still
    stops the way Ctrl-C always does.
    """

    def __init__(self, result: TournamentResult) -> None:
        super().__init__(f"tournament interrupted after {result.games} of {result.games_requested} games")
        self.result = result


#: Called with each finished game, in completion order (progress display).
OnGame = Callable[[GameRecord], None]


class Indexed(Protocol):
    """What a batch of games returns per game: anything that says which game it is."""

    @property
    def index(self) -> int: ...


R = TypeVar("R", bound=Indexed)
#: Plays a batch of games and returns one result per game and the batch's wall time. A
#: module-level function, so that worker processes and Ray tasks can be sent it.
BatchPlayer = Callable[[TournamentConfig, Sequence[int]], tuple[list[R], float]]


def _run_in_process(
    config: TournamentConfig,
    indices: Sequence[int],
    play: BatchPlayer[R] | None,
    on_game: Callable[[R], None],
) -> None:
    for g in indices:
        if play is None:
            # Looked up at call time on purpose, so tests can substitute the game runner.
            record: Any = play_tournament_game(config, g)
        else:
            record = play(config, [g])[0][0]
        on_game(record)


def _run_pool(
    config: TournamentConfig,
    indices: Sequence[int],
    play: BatchPlayer[R],
    workers: int,
    on_game: Callable[[R], None],
) -> None:
    pool = worker_pool(workers)  # not forked: the progress bar's thread is running
    todo = Batches(indices, workers, 16)
    # A few batches in flight per worker, not all of them: waiting costs a
    # pass over the pending futures, and Ctrl-C has less to cancel.
    pending: set[Future[tuple[list[R], float]]] = set()
    try:
        while True:
            while len(pending) < 4 * workers and (batch := todo.next()) is not None:
                pending.add(pool.submit(play, config, batch))
            if not pending:
                break
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                records, seconds = future.result()
                todo.timed(len(records), seconds)
                for record in records:
                    on_game(record)
    except KeyboardInterrupt:
        # Keep what has finished; abandon running games at once (an ISMCTS game
        # can take minutes) by stopping the workers.
        abandon(pool, pending)
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
    play: BatchPlayer[R],
    address: str | None,
    workers: int,
    on_game: Callable[[R], None],
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
        task = ray.remote(num_cpus=1)(play)
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
                    for record in records:
                        on_game(record)
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


def run_games(
    config: TournamentConfig,
    todo: Sequence[int],
    play: BatchPlayer[R] | None,
    on_game: Callable[[R], None],
    *,
    workers: int,
    use_ray: bool = False,
    ray_address: str | None = None,
) -> tuple[int, float]:
    """Play games ``todo`` of ``config`` with ``play`` (``None``: :func:`play_games`).

    The engine room shared by :func:`run_tournament` and ``oriflamme analyze``:
    in this process (``workers == 1``), in worker processes, or as Ray tasks.
    Each game's result is passed to ``on_game`` as it finishes, in completion
    order; nothing is kept here, so a run of a million games holds only what
    the callback keeps. Returns the workers used (a Ray cluster's CPU count)
    and the seconds spent starting Ray. Ctrl-C raises
    :class:`KeyboardInterrupt` once the games in flight are abandoned.
    """
    if use_ray:
        import_ray()
    if not todo:
        return workers, 0.0  # every game came from the record: start no worker, no Ray
    batch: BatchPlayer[Any] = play_games if play is None else play
    if use_ray:
        return _run_ray(config, todo, batch, ray_address, workers, on_game)
    if workers == 1:
        _run_in_process(config, todo, play, on_game)
    else:
        _run_pool(config, todo, batch, workers, on_game)
    return workers, 0.0


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
    :mod:`oriflamme.tournament.record`); they are counted, not replayed, and
    ``on_game`` is called only for the games played now. Those with an index
    of ``config.games`` or more are ignored.

    Ctrl-C raises :class:`TournamentInterrupted` with the games finished so far.
    """
    config.check()
    done: dict[int, GameRecord] = {r.index: r for r in previous if r.index < config.games}
    resumed = len(done)
    todo = [g for g in range(config.games) if g not in done]
    workers = resolve_workers(workers, max(1, len(todo)))
    backend = "ray" if use_ray else ("in-process" if workers == 1 else "processes")

    def keep(record: GameRecord) -> None:
        done[record.index] = record
        if on_game is not None:
            on_game(record)

    start = perf_counter()
    try:
        workers, startup = run_games(
            config, todo, None, keep, workers=workers, use_ray=use_ray, ray_address=ray_address
        )
        start += startup  # games per second should not count Ray's start-up
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
