"""``oriflamme backup``: a copy taken while the server plays, from which a server plays on."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from support.web import Seat
from typer.testing import CliRunner

from oriflamme.cli.app import app as cli
from oriflamme.web.app import create_app
from oriflamme.web.bot_runners import InlineBotRunner

runner = CliRunner()
SEATS = [
    {"kind": "person", "name": "Ann"},
    {"kind": "bot", "bot": "random"},
    {"kind": "bot", "bot": "random"},
]


def play(seat: Seat, msg: dict[str, Any], rng: random.Random, moves: int | None) -> dict[str, Any]:
    """Play ``moves`` of this seat's decisions (None: to the end); the last state message."""
    done = 0
    while msg["result"] is None and (moves is None or done < moves):
        if msg["legal"]:
            seat.act(rng.choice(msg["legal"]))
            done += 1
        msg = seat.until(lambda m: m["type"] == "state" and (m["legal"] or m["result"] is not None))
    return msg


def test_a_backup_taken_during_play_restores_and_the_game_goes_on(tmp_path: Path) -> None:
    db, copy = tmp_path / "games.sqlite3", tmp_path / "backup.sqlite3"
    rng = random.Random(7)
    with TestClient(create_app(db, bot_runner=InlineBotRunner(), bot_delay=0.0)) as client:
        token = client.post("/api/tables", json={"players": 3, "deck": "base", "seats": SEATS}).json()[
            "seats"
        ][0]["token"]
        with client.websocket_connect("/ws") as ws:
            ann = Seat(ws)
            msg = play(ann, ann.join(token), rng, moves=5)
            at_backup = msg["state"]
            result = runner.invoke(cli, ["backup", "--db", str(db), str(copy)])  # the server still runs
            assert result.exit_code == 0, result.output
            assert "1 tables" in result.stdout and "oriflamme serve --db" in result.stdout
            play(ann, msg, rng, moves=3)  # the original goes on past the backup
    restored_app = create_app(copy, bot_runner=InlineBotRunner(), bot_delay=0.0)
    with TestClient(restored_app) as client, client.websocket_connect("/ws") as ws:
        ann = Seat(ws)
        restored = ann.join(token)
        assert restored["state"] == at_backup  # exactly what was committed when the copy was taken
        final = play(ann, restored, rng, moves=None)
    assert final["result"] is not None


def test_a_backup_never_overwrites_and_says_what_is_wrong(tmp_path: Path) -> None:
    taken = tmp_path / "taken.sqlite3"
    taken.write_text("keep")
    not_a_db = tmp_path / "notes.txt"
    not_a_db.write_text("hello")
    cases = [
        (["backup", "--db", str(tmp_path / "missing.sqlite3"), str(tmp_path / "a")], "no database at"),
        (["backup", "--db", str(not_a_db), str(taken)], "exists; give a new file name"),
        (["backup", "--db", str(not_a_db), str(tmp_path / "b")], "is not a games database of this server"),
    ]
    for args, message in cases:
        result = runner.invoke(cli, args)
        assert result.exit_code == 2, result.output
        assert message in result.output
    assert taken.read_text() == "keep"
    assert not (tmp_path / "b").exists() and not list(tmp_path.glob(".*partial"))
