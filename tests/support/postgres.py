"""A real PostgreSQL for tests: started from Debian's binaries on a loopback port in a temporary directory.

Debian keeps the server under ``/usr/lib/postgresql/NN/bin``; ``initdb`` and
``postgres`` refuse to run as root, so as root they run as the ``postgres``
user (or ``nobody``) through ``runuser``. The server is stopped by its process
id when the test session ends. Without the binaries the tests that need it
skip with the reason, unless ``ORIFLAMME_REQUIRE_SERVICES=1`` (CI) makes that
a failure.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest


def postgres_bin() -> Path | None:
    """The newest Debian PostgreSQL server's bin directory, if installed."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/postgres"), key=lambda p: int(p.split("/")[4]))
    return Path(found[-1]).parent if found else None


def missing(reason: str) -> None:
    if os.environ.get("ORIFLAMME_REQUIRE_SERVICES") == "1":
        pytest.fail(f"PostgreSQL is required here: {reason}")
    pytest.skip(reason)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _as_user() -> tuple[list[str], str | None]:
    """The command prefix that runs as an unprivileged user, and that user (None: ourselves)."""
    if os.geteuid() != 0:
        return [], None
    runuser = shutil.which("runuser")
    if runuser is None:
        missing("running as root without runuser, PostgreSQL cannot be started")
    for name in ("postgres", "nobody"):
        with contextlib.suppress(KeyError):
            pwd.getpwnam(name)
            return [runuser, "-u", name, "--"], name
    missing("no unprivileged user to run PostgreSQL as")
    raise AssertionError("unreachable")


@contextlib.contextmanager
def running_postgres() -> Iterator[str]:
    """A PostgreSQL server for the duration of the block; yields the DSN of its ``postgres`` database."""
    bin_dir = postgres_bin()
    if bin_dir is None:
        missing("PostgreSQL is not installed (Debian package postgresql)")
    assert bin_dir is not None
    prefix, user = _as_user()
    root = Path(tempfile.mkdtemp(prefix="oriflamme-pg-"))
    data = root / "data"
    if user is not None:
        shutil.chown(root, user=user)
        root.chmod(0o700)
    process: subprocess.Popen[bytes] | None = None
    try:
        subprocess.run(
            [
                *prefix,
                str(bin_dir / "initdb"),
                "-D",
                str(data),
                "-A",
                "trust",
                "-U",
                "oriflamme",
                "-E",
                "UTF8",
                "--no-sync",
            ],
            check=True,
            capture_output=True,
        )
        port = _free_port()
        process = subprocess.Popen(
            [
                *prefix,
                str(bin_dir / "postgres"),
                "-D", str(data),
                "-p", str(port),
                "-k", str(root),
                "-c", "listen_addresses=127.0.0.1",
                "-c", "fsync=off",
                "-c", "synchronous_commit=off",
                "-c", "full_page_writes=off",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        dsn = f"postgresql://oriflamme@127.0.0.1:{port}/postgres"
        _wait_until_up(dsn, process)
        yield dsn
    finally:
        if process is not None:
            process.terminate()  # SIGTERM: the server's smart shutdown
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        shutil.rmtree(root, ignore_errors=True)


def _wait_until_up(dsn: str, process: subprocess.Popen[bytes]) -> None:
    import psycopg

    deadline = time.monotonic() + 30
    while True:
        if process.poll() is not None:
            raise RuntimeError(f"PostgreSQL exited at start with code {process.returncode}")
        try:
            psycopg.connect(dsn, connect_timeout=2).close()
            return
        except psycopg.OperationalError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def fresh_database(server_dsn: str) -> str:
    """A new, empty database on the server; its DSN."""
    import psycopg

    name = f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(server_dsn, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return server_dsn.rsplit("/", 1)[0] + f"/{name}"
