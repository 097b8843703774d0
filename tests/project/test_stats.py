"""The one percentile of the tournament and the benchmarks: nearest rank on sorted values."""

from __future__ import annotations

from oriflamme.stats import percentile


def test_nearest_rank_percentiles() -> None:
    values = [float(v) for v in range(1, 101)]  # 1 .. 100
    assert percentile(values, 50) == 50.0
    assert percentile(values, 95) == 95.0
    assert percentile(values, 100) == 100.0
    assert percentile(values, 0) == 1.0  # the first rank at least
    assert percentile([3.0], 95) == 3.0
    assert percentile([1.0, 2.0, 3.0, 4.0], 95) == 4.0
    assert percentile([], 95) == 0.0
