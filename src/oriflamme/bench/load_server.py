"""What a load benchmark does around its server: its scratch database, the accounts that hold
seats, waiting for it to answer, and reading back what it logged and rated."""

from __future__ import annotations

import contextlib
import json
import os
import time
import urllib.request
from pathlib import Path
from typing import Any

__all__ = [
    "TABLES_PER_ACCOUNT",
    "drop_database",
    "post",
    "problems",
    "rated_games",
    "register_and_claim",
    "scratch_database",
    "wait_for",
]


def post(url: str, body: dict[str, Any], headers: dict[str, str] | None = None) -> dict[str, Any]:
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"content-type": "application/json", **(headers or {})}
    )
    with urllib.request.urlopen(request, timeout=60) as r:
        data: dict[str, Any] = json.load(r)
        return data


#: Tables at which one benchmark account holds a seat at once.
TABLES_PER_ACCOUNT = 5
#: The double-submit CSRF token a script sends: the cookie and the header must only agree.
_CSRF = "bench"


def register_and_claim(base: str, name: str, tokens: list[str]) -> None:
    """Register the account ``name`` and keep ``tokens`` (its seats) with it, as the lobby does."""
    csrf = {"cookie": f"oriflamme_csrf={_CSRF}", "x-csrf-token": _CSRF}
    request = urllib.request.Request(
        base + "/api/account/register",
        json.dumps({"name": name, "password": f"{name} password"}).encode(),
        {"content-type": "application/json", **csrf},
    )
    with urllib.request.urlopen(request, timeout=60) as r:
        session = r.headers["set-cookie"].split(";", 1)[0]
    claimed = post(
        base + "/api/account/links", {"tokens": tokens}, {**csrf, "cookie": f"{csrf['cookie']}; {session}"}
    )
    if claimed.get("kept", len(tokens)) != len(tokens):
        raise RuntimeError(f"{name} could keep {claimed.get('kept')} of its {len(tokens)} seats")


def problems(log: Path, most: int = 40) -> list[str]:
    """The warnings, errors and tracebacks of a server's log (the last ``most`` lines of them)."""
    lines = log.read_text(errors="replace").splitlines() if log.is_file() else []
    wanted = [line for line in lines if any(w in line for w in ("WARNING", "ERROR", "Error", "Traceback"))]
    return wanted[-most:]


def rated_games(database: str) -> int:
    """How many games the server rated (its ``rated_games`` rows), in SQLite or PostgreSQL."""
    query = "SELECT count(*) FROM rated_games WHERE ladder <> 'unrated'"
    if database.startswith(("postgresql://", "postgres://")):
        import psycopg

        with psycopg.connect(database) as conn:
            row = conn.execute(query).fetchone()
    else:
        import sqlite3

        with contextlib.closing(sqlite3.connect(database)) as conn:
            row = conn.execute(query).fetchone()
    return int(row[0]) if row else 0


def scratch_database(server: str) -> str:
    """A new database on the PostgreSQL server at ``server``; its URL."""
    import psycopg

    name = f"oriflamme_bench_{os.getpid()}_{time.monotonic_ns()}"
    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return server.rsplit("/", 1)[0] + f"/{name}"


def drop_database(server: str, url: str) -> None:
    import psycopg

    name = url.rsplit("/", 1)[1]
    with contextlib.suppress(psycopg.Error), psycopg.connect(server, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def wait_for(url: str) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url + "/api/meta", timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"the server at {url} did not start")
