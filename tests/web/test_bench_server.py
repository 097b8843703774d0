"""``oriflamme bench server`` runs against a real server, in both modes (it measures; nothing here is timed)."""

from __future__ import annotations

import pytest

from oriflamme.bench.server import run_load


@pytest.mark.parametrize("shipped", [False, True])
def test_the_load_benchmark_plays_against_a_real_server(shipped: bool) -> None:
    """Two tables for a few seconds: actions are answered, nothing is refused (the server's public limits are
    lifted for the benchmark), and the report has the server's CPU and memory per table."""
    report = run_load(tables=2, players=3, seconds=3.0, think=(0.0, 0.05), seed=1, shipped=shipped)
    assert report.errors == 0
    assert report.actions > 0 and report.actor_p95 == report.actor_p95  # not NaN: latencies were measured
    assert report.shipped is shipped
    assert report.server_cpu_percent is not None and report.server_memory_kib_per_table is not None
