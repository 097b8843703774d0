"""The worker pool of every command that plays or replays games on several cores."""

from __future__ import annotations

import multiprocessing
import signal
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any

__all__ = ["abandon", "worker_pool"]


def worker_pool(
    workers: int,
    *,
    ignore_ctrl_c: bool = True,
    initializer: Callable[..., None] | None = None,
    initargs: tuple[Any, ...] = (),
) -> ProcessPoolExecutor:
    """A pool of ``workers`` fresh processes (forkserver, else spawn; never fork).

    Not fork: the caller may be running threads (a progress bar's, JAX's), and
    forking a threaded process can deadlock (Python 3.12+ warns about it).
    ``ignore_ctrl_c``: the workers leave Ctrl-C to the parent, which stops
    them itself (otherwise each would print its traceback, and take the next
    task). ``initializer(*initargs)`` then runs in each worker as it starts.
    """
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    return ProcessPoolExecutor(
        max_workers=workers,
        mp_context=context,
        initializer=_start_worker,
        initargs=(ignore_ctrl_c, initializer, initargs),
    )


def abandon(pool: ProcessPoolExecutor, futures: Iterable[Future[Any]]) -> None:
    """Stop ``pool`` at once (Ctrl-C, SIGTERM, a failed task): the tasks not begun are
    cancelled and the workers ended, so running tasks (a search's game can take minutes) are
    dropped rather than waited for; then the pool shuts down cleanly."""
    for future in futures:
        future.cancel()
    processes = getattr(pool, "_processes", None) or {}
    for process in list(processes.values()):
        process.terminate()
    pool.shutdown(wait=True, cancel_futures=True)


def _start_worker(
    ignore_ctrl_c: bool, initializer: Callable[..., None] | None, initargs: tuple[Any, ...]
) -> None:
    """Worker initializer: Ctrl-C is the parent's to handle; then the caller's own start."""
    if ignore_ctrl_c:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    if initializer is not None:
        initializer(*initargs)
