"""What the server benchmark reads about running processes (Linux /proc): CPU, memory, children, sockets.

Each reader returns None (or nothing) where /proc is missing, so the benchmark still runs elsewhere,
without those figures.
"""

from __future__ import annotations

import os
import socket
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU time of a process (Linux /proc), or None elsewhere."""
    try:
        fields_ = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields_[11]) + int(fields_[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def descendants(pid: int) -> list[int]:
    """The processes below ``pid`` (Linux /proc): the server's workers and their bot processes."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parents[int(entry.name)] = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
    found: list[int] = []
    level = [pid]
    while level:
        level = [child for child, parent in parents.items() if parent in level]
        found += level
    return found


def tree_cpu_seconds(pid: int) -> float | None:
    """CPU time of a process and its children (the bots think in child processes)."""
    own = cpu_seconds(pid)
    if own is None:
        return None
    return own + sum(cpu_seconds(child) or 0.0 for child in descendants(pid))


def tree_rss_bytes(pid: int) -> int | None:
    """Resident memory of a process and the processes below it."""
    own = rss_bytes(pid)
    if own is None:
        return None
    return own + sum(rss_bytes(child) or 0 for child in descendants(pid))


def rss_bytes(pid: int) -> int | None:
    """Resident memory of a process (Linux /proc), or None elsewhere."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError):
        return None
    return None


def busiest_worker(server: int) -> int:
    """The busiest worker process of ``serve --workers N`` (the one holding the most sockets: its clients).

    The kernel spreads connections over the workers unevenly; killing one that has no client would
    test nothing.
    """
    workers = []
    for child in descendants(server):
        try:
            cmdline = Path(f"/proc/{child}/cmdline").read_bytes()
        except OSError:
            continue
        if b"spawn_main" in cmdline and parent(child) == server:
            workers.append(child)
    if not workers:
        raise RuntimeError(
            "the server has no worker process to kill (--kill-after needs --workers 2 or more)"
        )
    return max(workers, key=sockets)


def sockets(pid: int) -> int:
    """Open sockets of a process (Linux /proc)."""
    count = 0
    try:
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            try:
                if fd.readlink().as_posix().startswith("socket:"):
                    count += 1
            except OSError:
                continue
    except OSError:
        return 0
    return count


def parent(pid: int) -> int | None:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return None
