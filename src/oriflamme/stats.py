"""Small statistics shared by the tournament, the benchmarks and the training (standard library only)."""

from __future__ import annotations

import math
from collections.abc import Sequence

#: The z value of a two-sided 95% interval.
Z95 = 1.959963984540054


def percentile(sorted_values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (``q`` in 0..100) of already sorted values; 0 for none."""
    if not sorted_values:
        return 0.0
    rank = max(1, math.ceil(q / 100 * len(sorted_values)))
    return sorted_values[rank - 1]


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
