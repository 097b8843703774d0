"""What one run of ``oriflamme bench server`` measured (see :mod:`.server`)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

__all__ = ["LoadReport"]


@dataclass
class LoadReport:
    """What one run measured; latencies in milliseconds."""

    tables: int
    players: int
    seconds: float
    think: tuple[float, float]
    actions: int
    actions_per_second: float
    messages: int
    errors: int
    actor_p50: float
    actor_p95: float
    actor_p99: float
    actor_max: float
    all_seats_p95: float
    all_seats_p99: float
    #: CPU of the server and its bot processes, in percent of one core.
    server_cpu_percent: float | None
    finished_games: int
    #: The server as shipped (its bots, bot delay and bot processes) with one person a table.
    shipped: bool = False
    #: Server processes, and the database they shared (sqlite or postgresql; 0 and "given": a
    #: running server, as --url gave it).
    workers: int = 1
    database: str = "sqlite"
    #: Errors by the code the server gave.
    error_codes: dict[str, int] = field(default_factory=dict)
    #: Server CPU per table: milliseconds per second of play.
    server_cpu_ms_per_table_second: float | None = None
    #: Growth of the server process's memory per table during the run.
    server_memory_kib_per_table: float | None = None
    #: With a worker killed during the run: when (seconds into it), the reconnections it caused,
    #: actions a client was shown but the database lacks (must be 0), and the seconds from the kill
    #: until each table showed a new state (the slowest, and the median).
    killed_at: float | None = None
    reconnects: int = 0
    lost_actions: int | None = None
    recovery_max: float | None = None
    recovery_p50: float | None = None
    recovered_tables: int | None = None
    #: With a worker killed: the server's warnings and errors (its last lines), to tell why a table
    #: did not move on.
    server_problems: list[str] = field(default_factory=list)
    #: With accounts (--rated): the tables whose every seat an account holds, the accounts that
    #: hold them (each at several tables, as a player of games over days is), and the games
    #: rated during the run (their end updates the ratings in the same transaction).
    rated_tables: int = 0
    accounts: int = 0
    rated_games: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)
