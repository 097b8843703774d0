"""A tournament stopped with SIGTERM (``kill PID``) stops as on Ctrl-C: partial results, no orphans."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from oriflamme.commandline import EXIT_INTERRUPTED, stop_on_sigterm

pytestmark = pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads processes from /proc")


def _children(pid: int) -> set[int]:
    """Every descendant of ``pid`` now (the worker pool's server and its workers)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            parents[int(entry.name)] = int(fields[1])
    found: set[int] = set()
    todo = [pid]
    while todo:
        parent = todo.pop()
        for child, ppid in parents.items():
            if ppid == parent and child not in found:
                found.add(child)
                todo.append(child)
    return found


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def test_sigterm_inside_the_helper_is_ctrl_c_and_the_handler_is_put_back() -> None:
    before = signal.getsignal(signal.SIGTERM)
    with pytest.raises(KeyboardInterrupt), stop_on_sigterm():
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(5)  # the handler runs before this ends
    assert signal.getsignal(signal.SIGTERM) == before


def test_a_killed_tournament_keeps_its_finished_games_and_leaves_no_worker_behind(tmp_path: Path) -> None:
    record = tmp_path / "games.jsonl"
    command = [sys.executable, "-m", "oriflamme", "tournament", "--bots", "ismcts:normal,heuristic",
               "--deck", "base", "-n", "400", "--workers", "2", "--record", str(record), "--json"]  # fmt: skip
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while not (record.exists() and record.read_text().count("\n") >= 2):
            assert process.poll() is None, process.communicate()
            assert time.monotonic() < deadline, "no game finished in two minutes"
            time.sleep(0.2)
        workers = _children(process.pid)
        assert workers  # the pool's processes are running
        process.send_signal(signal.SIGTERM)
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == EXIT_INTERRUPTED, err
    assert "interrupted after" in err and '"games"' in out
    deadline = time.monotonic() + 10
    while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not [pid for pid in workers if _alive(pid)]
