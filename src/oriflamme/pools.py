"""The worker pool of every command that plays or replays games on several cores."""

from __future__ import annotations

import multiprocessing
import signal
from concurrent.futures import ProcessPoolExecutor

__all__ = ["worker_pool"]


def worker_pool(workers: int, *, ignore_ctrl_c: bool = True) -> ProcessPoolExecutor:
    """A pool of ``workers`` fresh processes (forkserver, else spawn; never fork).

    Not fork: the caller may be running threads (a progress bar's, JAX's), and
    forking a threaded process can deadlock (Python 3.12+ warns about it).
    ``ignore_ctrl_c``: the workers leave Ctrl-C to the parent, which stops
    them itself (otherwise each would print its traceback).
    """
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    initializer = _ignore_sigint if ignore_ctrl_c else None
    return ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=initializer)


def _ignore_sigint() -> None:
    """Worker initializer: Ctrl-C is the parent's to handle."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
