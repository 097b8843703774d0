"""Fixtures of the web tests: a real PostgreSQL server per test session (per xdist worker), and a
server process with a headless browser per browser-test module."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, sync_playwright
from support.browser import CHROMIUM, CHROMIUM_ARGS, Server
from support.postgres import fresh_database, running_postgres


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    with running_postgres() as dsn:
        yield dsn


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A new, empty database of each kind a server keeps its games in: an SQLite file's path, then a
    PostgreSQL database's URL."""
    if request.param == "sqlite":
        return str(tmp_path / "games.sqlite3")
    dsn: str = request.getfixturevalue("postgres_dsn")
    return dsn


@pytest.fixture(params=["memory", "sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str | None:
    """Every store an app can have: None (in memory), an SQLite file, a PostgreSQL database."""
    if request.param == "memory":
        return None
    if request.param == "sqlite":
        return str(tmp_path / "games.sqlite3")
    dsn: str = request.getfixturevalue("postgres_dsn")
    return dsn


@pytest.fixture
def postgres_dsn(postgres_server: str) -> str:
    """An empty database of its own for one test."""
    return fresh_database(postgres_server)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    s = Server(tmp_path_factory.mktemp("web") / "games.sqlite3")
    s.start()
    yield s
    s.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()
