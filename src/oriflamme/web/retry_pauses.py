"""Pauses between tries that spread out: exponential backoff with full jitter (tenacity's).

Server processes that lose the same thing at the same moment (the database
restarting, a table changing hands) would, with fixed pauses, all try again in
the same millisecond, every time, and meet again. Drawing each pause at random
within a window that doubles from try to try (the "full jitter" of AWS's
backoff study, ``tenacity.wait_random_exponential``) spreads them out while the
window stays as short as a fixed backoff's.
"""

from __future__ import annotations

from collections.abc import Iterator

from tenacity import RetryCallState, Retrying, wait_random_exponential


def jittered_pauses(first: float, most: float, *, least: float) -> Iterator[float]:
    """Endless pauses in seconds, the n-th drawn uniformly from ``least`` to ``first * 2**(n-1)``.

    The window stops growing at ``most``; ``least`` keeps a loop that asks the
    database each time from asking it again at once.
    """
    wait = wait_random_exponential(multiplier=first, max=most, min=least)
    # The strategy reads only the number of the try from tenacity's record of a retried call.
    tries = RetryCallState(Retrying(), None, (), {})
    while True:
        yield wait(tries)
        tries.attempt_number += 1
