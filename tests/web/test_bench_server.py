"""``oriflamme bench server`` runs against a real server, in both modes (it measures; nothing here is timed)."""

from __future__ import annotations

import os
from pathlib import Path

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


def test_with_accounts_the_tables_they_hold_are_rated_when_their_games_end() -> None:
    """Half of four 2-player tables held by accounts (two accounts, each at both of those tables): the
    quick games end within the run, and exactly the held tables' games are rated."""
    report = run_load(tables=4, players=2, seconds=12.0, think=(0.0, 0.02), seed=3, rated=0.5)
    assert report.errors == 0
    assert (report.accounts, report.rated_tables) == (2, 2)
    assert report.finished_games == 4
    assert report.rated_games == 2


def test_clients_shared_among_processes_add_up_to_one_report() -> None:
    """Two client processes, three tables between them (two and one), one held by accounts: their
    windows open together and the report counts every seat's actions, accounts and rated games."""
    report = run_load(tables=3, players=2, seconds=6.0, think=(0.0, 0.02), seed=4, rated=0.5, clients=2)
    assert report.errors == 0
    assert report.finished_games == 3 and report.actions > 0
    # Each process rates its share's half: one table of its two, none of its one.
    assert (report.rated_tables, report.accounts, report.rated_games) == (1, 2, 1)


def test_killing_a_worker_during_load_loses_no_action_shown_and_every_table_moves_on(
    postgres_server: str,
) -> None:
    """Two workers on PostgreSQL, eight tables of one person and two server bots; one worker is killed with
    SIGKILL two seconds in. Its people reconnect; no action a client was shown is missing from the
    database, and every table shows a new state after the kill."""
    report = run_load(
        tables=8,
        players=3,
        seconds=10.0,
        think=(0.0, 0.0),
        seed=2,
        shipped=True,
        bot_workers=0,
        db=postgres_server,
        workers=2,
        kill_after=2.0,
    )
    assert report.workers == 2 and report.database == "postgresql"
    assert report.killed_at is not None and report.reconnects > 0
    assert report.lost_actions == 0
    assert report.recovered_tables == 8, (report.error_codes, report.reconnects, report.server_problems)
    print(f"\nrecovery after the kill: slowest table {report.recovery_max} s, median {report.recovery_p50} s")
    # The server, the worker that replaced the killed one and their helpers are all gone.
    assert not _processes_with(f"oriflamme_bench_{os.getpid()}_")


def _processes_with(text: str) -> list[int]:
    """Live processes whose command line holds ``text`` (this test's scratch database's name)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                cmdline = (entry / "cmdline").read_bytes().decode(errors="replace")
                state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
            except OSError:
                continue
            if text in cmdline and state != "Z":
                found.append(int(entry.name))
    return found
