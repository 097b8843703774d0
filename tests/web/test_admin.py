"""``oriflamme admin`` on a server's database (SQLite and PostgreSQL): list, rename, suspend, delete."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from oriflamme.cli.app import app
from oriflamme.web.accounts import SUSPENDED, WRONG_CREDENTIALS, AccountError, Accounts
from oriflamme.web.app import _store

runner = CliRunner()


def _with_accounts(db: str, work: Any) -> Any:
    async def go() -> Any:
        store = _store(db)
        await store.open()
        try:
            return await work(Accounts(store))
        finally:
            await store.close()

    return asyncio.run(go())


def _admin(db: str, *words: str) -> Any:
    return runner.invoke(app, ["admin", *words, "--db", db])


def _log_in(db: str, name: str, password: str) -> str:
    """What logging in answers: the account's name, or the refusal's message."""

    async def attempt(accounts: Accounts) -> str:
        try:
            account, _ = await accounts.log_in(name, password)
        except AccountError as exc:
            return exc.message
        return account.name

    result: str = _with_accounts(db, attempt)
    return result


def test_an_administrator_renames_suspends_and_deletes_accounts(database_url: str) -> None:
    db = database_url

    async def register(accounts: Accounts) -> str:
        await accounts.register("Olga", "olga's password")
        _, token = await accounts.register("Pavel", "pavel's password")
        return token

    pavel_session = _with_accounts(db, register)
    listed = _admin(db, "list")
    assert listed.exit_code == 0 and "Olga" in listed.output and "Pavel" in listed.output

    renamed = _admin(db, "rename", "olga", "Olya")
    assert renamed.exit_code == 0 and "olga is now Olya" in renamed.output
    assert _log_in(db, "Olya", "olga's password") == "Olya"
    taken = _admin(db, "rename", "Olya", "PAVEL")
    assert taken.exit_code == 2 and "'PAVEL' is taken" in taken.output

    assert _admin(db, "suspend", "Pavel").exit_code == 0
    assert _log_in(db, "Pavel", "pavel's password") == SUSPENDED
    assert _log_in(db, "Pavel", "a wrong password") == WRONG_CREDENTIALS  # no word of it without the password
    assert _with_accounts(db, lambda accounts: accounts.session(pavel_session)) is None
    assert "suspended since" in _admin(db, "list").output
    assert _admin(db, "unsuspend", "Pavel").exit_code == 0
    assert _log_in(db, "Pavel", "pavel's password") == "Pavel"

    deleted = _admin(db, "delete", "Olya", "--yes")
    assert deleted.exit_code == 0
    assert "Olya" not in _admin(db, "list").output
    assert _log_in(db, "Olya", "olga's password") == WRONG_CREDENTIALS
    missing = _admin(db, "suspend", "Nobody")
    assert missing.exit_code == 2 and "no account is named 'Nobody'" in missing.output


def test_a_new_season_starts_the_ladders_afresh_and_keeps_the_last_ones_readable(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient
    from support.accounts import app_for

    db = str(tmp_path / "games.sqlite3")

    async def rated(accounts: Accounts) -> None:
        account, _ = await accounts.register("Xena", "xena's password")
        await accounts.store.run_statements(
            [("INSERT INTO ratings VALUES (?, 'duel', 1, 30.0, 2.0, 12, 0)", (account.id,))]
        )

    _with_accounts(db, rated)
    refused = runner.invoke(app, ["admin", "new-season", "--db", db], input="n\n")
    assert refused.exit_code == 1
    begun = _admin(db, "new-season", "--yes")
    assert begun.exit_code == 0 and "season 2 begins" in begun.output
    with TestClient(app_for(db)) as client:  # type: ignore[arg-type]
        now = client.get("/api/ratings/duel").json()
        assert now["season"] == 2 and now["seasons"] == 2 and now["players"] == []
        before = client.get("/api/ratings/duel?season=1").json()
        assert [row["name"] for row in before["players"]] == ["Xena"]
        assert client.get("/api/ratings/duel?season=3").status_code == 404


def test_a_database_path_with_no_database_is_refused_and_nothing_is_made_there(tmp_path: Path) -> None:
    """A mistyped --db would otherwise open a new, empty database: a server with no accounts."""
    missing = tmp_path / "typo.sqlite3"
    result = _admin(str(missing), "list")
    assert result.exit_code == 2
    assert f"no database at {missing}: give --db the database the server uses" in result.output
    assert not missing.exists()
