"""`oriflamme serve` refuses an address it cannot listen on, in one line, before saying where to go."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path

import pytest
from typer.testing import CliRunner

from oriflamme.cli.app import app
from oriflamme.web.sqlite_store import SqliteStore
from oriflamme.web.store import StorageError

runner = CliRunner()


def _one_line_error(args: list[str]) -> str:
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert "Open http" not in result.output  # nothing promised before failing
    text = result.output.strip()
    assert "\n" not in text and "Traceback" not in text
    return text


@pytest.mark.parametrize("port", ["99999", "0", "-1"])
def test_a_port_out_of_range_is_refused(port: str) -> None:
    assert _one_line_error(["serve", "--port", port]) == f"error: --port must be 1 to 65535, got {port}"


def test_a_port_in_use_is_refused_before_anything_is_printed() -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        text = _one_line_error(["serve", "--host", "127.0.0.1", "--port", str(port)])
    assert text == f"error: cannot listen on 127.0.0.1:{port}: the port is in use"


def test_an_unknown_host_is_refused() -> None:
    text = _one_line_error(["serve", "--host", "no.such.host.invalid", "--port", "8000"])
    assert text.startswith("error: cannot listen on no.such.host.invalid:8000: ")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--limit-tables", "lots"], "error: --limit-tables: 'lots' is not a rate; write e.g. 20/minute"),
        (["--limit-accounts", "many"], "error: --limit-accounts: 'many' is not a rate; write e.g. 20/minute"),
        (["--limit-logins", "1/fortnight"], "error: --limit-logins: '1/fortnight' is not a rate"),
        (["--limit-connections", "0"], "error: --limit-connections must be at least 1, got 0"),
        (["--limit-table-connections", "-3"], "error: --limit-table-connections must be at least 1, got -3"),
        (
            ["--allowed-origin", "example.org"],
            "error: --allowed-origin 'example.org' must look like https://host",
        ),
    ],
)
def test_unusable_limits_are_refused_naming_the_option(args: list[str], message: str) -> None:
    assert _one_line_error(["serve", "--port", "8000", *args]).startswith(message)


@pytest.mark.parametrize("hours", ["nan", "-1", "inf"])
def test_an_idle_time_that_is_not_hours_is_refused(hours: str) -> None:
    assert _one_line_error(["serve", "--port", "8000", "--idle-hours", hours]).startswith(
        "error: --idle-hours must be a number of hours, 0 or more"
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--smtp", "mail.example.org"], "error: --smtp must be HOST:PORT, got 'mail.example.org'"),
        (["--smtp", "mail.example.org:25"], "error: --smtp needs --mail-from ADDRESS"),
        (["--mail-from", "a@example.org"], "error: --mail-from, --public-url and --smtp-user go with --smtp"),
        (
            ["--smtp", "localhost:25", "--mail-from", "a@example.org", "--public-url", "oriflamme.example"],
            "error: --public-url must start with http:// or https://",
        ),
    ],
)
def test_unusable_mail_settings_are_refused_naming_the_option(args: list[str], message: str) -> None:
    assert _one_line_error(["serve", "--port", "8000", *args]).startswith(message)


def test_an_unknown_bot_runner_is_refused() -> None:
    assert _one_line_error(["serve", "--port", "8000", "--bot-runner", "gpu"]) == (
        "error: --bot-runner must be split, processes or threads, got 'gpu'"
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--workers", "2"], "error: --workers 2 needs a PostgreSQL database (--db postgresql://"),
        (["--workers", "2", "--db", "games.sqlite3"], "error: --workers 2 needs a PostgreSQL database"),
        (["--workers", "0"], "error: --workers must be 1 to 64, got 0"),
        (["--lease-seconds", "0.1"], "error: --lease-seconds must be 0.5 to 600, got 0.1"),
        (["--lease-seconds", "nan"], "error: --lease-seconds must be 0.5 to 600, got nan"),
    ],
)
def test_several_workers_need_postgresql_and_a_usable_lease(args: list[str], message: str) -> None:
    assert _one_line_error(["serve", "--port", "8000", *args]).startswith(message)


def test_parallel_bots_reach_the_app_built_for_each_server_process() -> None:
    """`serve --parallel-bots` lands in the settings each process builds its app from."""
    from oriflamme.web.serve import build_app

    settings = {
        "db": ":memory:",
        "bot_delay": 0.0,
        "bot_workers": 0,
        "bot_runner": "threads",
        "limits": {},
        "idle_seconds": None,
    }
    assert build_app(settings).state.registry.parallel_bots is False
    assert build_app({**settings, "parallel_bots": True}).state.registry.parallel_bots is True


def test_an_empty_database_file_is_refused_not_made_anew(tmp_path: Path) -> None:
    """A 0-byte file (a failed copy, a full disk) once became a new database, every game forgotten."""
    empty = tmp_path / "games.sqlite3"
    empty.touch()
    text = _one_line_error(["serve", "--db", str(empty), "--port", "8000"])
    assert text.startswith(f"error: the database file {empty} is empty (0 bytes), not a database")
    assert empty.stat().st_size == 0

    async def open_it() -> None:
        await SqliteStore(empty).open()

    with pytest.raises(StorageError, match="empty"):
        asyncio.run(open_it())
    assert empty.stat().st_size == 0


def test_a_server_process_may_hold_as_many_sockets_as_the_system_allows() -> None:
    import resource

    from oriflamme.web.serve import raise_open_file_limit

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(256, hard), hard))
        raise_open_file_limit()
        raised, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
        assert raised == hard or (hard == resource.RLIM_INFINITY and raised >= 65_536)
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
