"""Benchmarks, not tests: ``oriflamme bench engine`` measures the rules engine on random play,
``oriflamme bench server`` drives a real web server with many tables.
"""

from .._compat import moved_names

#: 0.1's ``oriflamme.bench`` module is now :mod:`oriflamme.bench.engine`.
__getattr__ = moved_names(
    __name__,
    {name: f"oriflamme.bench.engine:{name}" for name in (
        "BenchCell",
        "BenchReport",
        "CLONE_SHARE",
        "CLONE_STATES",
        "SimulationResult",
        "TARGET_BASE_4P_GAMES_PER_SECOND",
        "TARGET_DECISIONS_PER_SECOND",
        "WARMUP_GAMES",
        "bench_cell",
        "check_setup",
        "machine_description",
        "measure_clone",
        "measure_games",
        "play_random_game",
        "random_playout",
        "run_bench",
        "sample_states",
        "simulate",
    )},
)  # fmt: skip
