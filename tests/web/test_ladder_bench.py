"""``oriflamme bench ladder`` seeds what it says and measures a real server (it measures; nothing here is timed)."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path

from typer.testing import CliRunner

from oriflamme.cli.app import app
from oriflamme.web.ladder_bench import seed_ladders
from oriflamme.web.sqlite_store import SqliteStore


def test_the_seed_holds_the_accounts_games_and_three_players_history_per_game(tmp_path: Path) -> None:
    path = tmp_path / "ladder.sqlite3"

    async def layout() -> None:
        store = SqliteStore(path)
        await store.open()
        await store.close()

    asyncio.run(layout())
    seed_ladders(path, accounts=40, games=70, seed=3)
    with sqlite3.connect(path) as db:
        counts = [
            db.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
            for t in ("accounts", "rated_games", "rating_history")
        ]
        assert counts == [40, 70, 210]
        assert db.execute("SELECT count(DISTINCT table_id) FROM rating_history").fetchone()[0] == 70
        assert 0 < db.execute("SELECT count(*) FROM ratings WHERE ladder = 'multi'").fetchone()[0] <= 40


def test_the_command_answers_with_both_ladders_timed() -> None:
    result = CliRunner().invoke(
        app, ["bench", "ladder", "--accounts", "30", "--games", "20", "--requests", "10", "--json"]
    )
    assert result.exit_code == 0, result.output
    figures = json.loads(result.stdout)
    assert figures["accounts"] == 30 and figures["rated_games"] == 20
    for ladder in ("multi", "duel"):
        assert figures[ladder]["requests"] == 10 and 0 < figures[ladder]["listed"] <= 30
        assert figures[ladder]["p50_ms"] <= figures[ladder]["p95_ms"] <= figures[ladder]["max_ms"]
