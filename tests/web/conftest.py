"""Fixtures of the web tests: a real PostgreSQL server per test session (per xdist worker)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from support.postgres import fresh_database, running_postgres


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    with running_postgres() as dsn:
        yield dsn


@pytest.fixture
def postgres_dsn(postgres_server: str) -> str:
    """An empty database of its own for one test."""
    return fresh_database(postgres_server)
