"""The cluster's retry loops pause at random within a doubling window: two processes that lost the same
thing at the same moment do not try again in step."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import islice

import pytest

from oriflamme.web import cluster, cluster_routing

TRIES = 12


@pytest.mark.parametrize(
    ("pauses", "first", "most", "least"),
    [
        (cluster_routing._pauses, 0.02, 0.5, 0.01),  # asking again who holds a table
        (cluster._reconnect_pauses, 0.2, 5.0, 0.1),  # the bus reaching the database again
    ],
    ids=["routing", "bus"],
)
def test_two_loops_pause_differently_within_the_doubling_window(
    pauses: Callable[[], Iterator[float]], first: float, most: float, least: float
) -> None:
    one, other = (list(islice(pauses(), TRIES)) for _ in range(2))
    assert all(a != b for a, b in zip(one, other, strict=True)), "jittered: two loops never in step"
    for n, (a, b) in enumerate(zip(one, other, strict=True)):
        window = max(least, min(most, first * 2**n))
        assert least <= a <= window and least <= b <= window, f"try {n + 1} within {least} to {window} s"
    # The window grows: late pauses are not all stuck at the first window's size.
    assert max(one[-4:] + other[-4:]) > first
