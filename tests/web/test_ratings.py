"""Ratings: a rated game moves its accounts' ratings once, whoever races to rate it; bots are fixed
anchors; a game with a take-back or a guest is not rated; the ladder lists the accounts."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from support.accounts import Browser, app_for, play_to_the_end
from support.web import Seat

from oriflamme.web.app import _store
from oriflamme.web.ratings import BOT_ANCHORS, START_MU, RatedSeat, Ratings
from oriflamme.web.sqlite_store import SqliteStore
from oriflamme.web.store import Storage, TableRecord


async def _accounts(store: Storage, names: list[str]) -> list[str]:
    """Accounts made straight in the database (their passwords do not matter here)."""
    ids = [f"acct{i:04}" for i, _ in enumerate(names)]
    await store.run_statements(
        [
            ("INSERT INTO accounts (id, name, name_key, created) VALUES (?, ?, ?, ?)", (i, n, n.lower(), 0.0))
            for i, n in zip(ids, names, strict=True)
        ]
    )
    return ids


async def _table(store: Storage, table_id: str) -> None:
    from oriflamme.web.store import SeatRecord

    seats = (SeatRecord("person", "a", f"{table_id}-a"), SeatRecord("person", "b", f"{table_id}-b"),
             SeatRecord("bot", "", f"{table_id}-c", bot="random"))  # fmt: skip
    record = TableRecord(id=table_id, created=time.time(), deck="base", players=3, recipe=("archer",) * 10,
                         rules={}, seed=1, first_player=0, seats=seats, spectator_token=f"{table_id}-s",
                         host_token=f"{table_id}-h")  # fmt: skip
    await store.create_table(record)


async def _ratings(store: Storage) -> dict[str, tuple[float, float, int]]:
    rows = await store.run_statements([("SELECT account_id, mu, sigma, games FROM ratings", ())])
    return {a: (mu, sigma, games) for a, mu, sigma, games in rows}


class Racing(Ratings):
    """Ratings whose first read waits for the other racer's: both then write from the same figures."""

    def __init__(self, store: Storage, barrier: asyncio.Barrier) -> None:
        super().__init__(store)
        self.barrier = barrier
        self.waited = False

    async def _current(
        self, ladder: str, accounts: list[str], season: int
    ) -> dict[str, tuple[float, float, int]]:
        found = await super()._current(ladder, accounts, season)
        if not self.waited:
            self.waited = True
            await self.barrier.wait()
        return found


def test_two_processes_racing_to_rate_one_game_rate_it_once(database_url: str) -> None:
    """Two Ratings (as two server processes would) rate the same finished game at once, both having
    read the ratings before either writes: one rates it, the other finds it rated; the winner's
    rating rose, the loser's fell, the bot's was not stored. Then two games of the same people rated
    at once from the same figures: neither update is lost."""

    async def scenario() -> None:
        one, two = _store(database_url), _store(database_url)
        await one.open()
        await two.open()
        try:
            ann, bob = await _accounts(one, ["Ann", "Bob"])
            await _table(one, "t1")
            seats = [RatedSeat(1.0, account=ann), RatedSeat(3.0, account=bob), RatedSeat(2.0, bot="random")]
            barrier = asyncio.Barrier(2)
            done = await asyncio.gather(
                Racing(one, barrier).rate("t1", 3, seats), Racing(two, barrier).rate("t1", 3, seats)
            )
            assert sorted(done) == [False, True]
            after = await _ratings(one)
            assert set(after) == {ann, bob}
            assert after[ann][2] == after[bob][2] == 1
            assert after[ann][0] > START_MU > after[bob][0]
            assert await one.run_statements([("SELECT count(*) FROM rated_games", ())]) == [(1,)]
            assert await one.run_statements([("SELECT count(*) FROM rating_history", ())]) == [(2,)]
            # Another game of the same two, rated at the same moment as a third: neither update is lost.
            await _table(one, "t2")
            await _table(one, "t3")
            again = [
                RatedSeat(2.0, account=ann),
                RatedSeat(1.0, account=bob),
                RatedSeat(3.0, bot="heuristic"),
            ]
            barrier = asyncio.Barrier(2)
            both = await asyncio.gather(
                Racing(one, barrier).rate("t2", 3, again), Racing(two, barrier).rate("t3", 3, again)
            )
            assert both == [True, True]
            assert {a: games for a, (_, _, games) in (await _ratings(one)).items()} == {ann: 3, bob: 3}
        finally:
            await one.close()
            await two.close()

    asyncio.run(scenario())


def test_beating_a_strong_bot_is_worth_more_than_beating_a_weak_one() -> None:
    """The bots are anchors at fixed ratings: a first win against ismcts:normal lifts a newcomer more
    than one against random, and neither bot's rating is stored or moved."""

    async def scenario() -> None:
        store = SqliteStore(":memory:")
        await store.open()
        try:
            strong, weak = await _accounts(store, ["Cleo", "Dan"])
            for table_id in ("s", "w"):
                await _table(store, table_id)
            ratings = Ratings(store)
            await ratings.rate("s", 2, [RatedSeat(1.0, account=strong), RatedSeat(2.0, bot="ismcts:normal")])
            await ratings.rate("w", 2, [RatedSeat(1.0, account=weak), RatedSeat(2.0, bot="random")])
            after = await _ratings(store)
            assert after[strong][0] > after[weak][0] > START_MU
            assert BOT_ANCHORS["ismcts:normal"] > BOT_ANCHORS["random"]
            board = await ratings.board("duel")
            assert [row["name"] for row in board] == ["Cleo", "Dan"] and all(r["provisional"] for r in board)
            assert await ratings.board("multi") == []
        finally:
            await store.close()

    asyncio.run(scenario())


def _rated_game(
    take_back: bool,
    database: str | None = None,
    crash_before_rating: bool = False,
    claim_after: bool = False,
    forget_mid_game: bool = False,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Two accounts and a bot play a whole 3-player game through the server; the multi ladder after.
    ``crash_before_rating``: the server stores the game's end but never gets to rate it.
    ``claim_after``: the two play as guests, and claim their seats into their accounts once each made
    a few moves (when a game looks won). ``forget_mid_game``: Flo forgets her seat from "My games"
    a few moves in (when a game looks lost)."""
    app = app_for(database)
    if crash_before_rating:
        app.app.state.registry.on_game_over = None  # type: ignore[attr-defined]
    with TestClient(app) as client:  # type: ignore[arg-type]
        people = [Browser(client, "198.51.100.1"), Browser(client, "198.51.100.2")]
        seats = [
            {"kind": "person", "name": "Eli"},
            {"kind": "person", "name": "Flo"},
            {"kind": "bot", "bot": "random"},
        ]
        made = client.post(
            "/api/tables", json={"players": 3, "deck": "base", "seats": seats, "seed": 4}
        ).json()
        pairs = list(zip(people, ("Eli", "Flo"), made["seats"], strict=False))
        for person, name, seat in pairs:
            person.post("/api/account/register", {"name": name, "password": f"{name} password"})
            if not claim_after:
                assert person.post("/api/account/links", {"tokens": [seat["token"]]}).json()["kept"] == 1
        with (
            client.websocket_connect("/ws") as ws0,
            client.websocket_connect("/ws") as ws1,
        ):
            players = [Seat(ws0), Seat(ws1)]
            for player, seat in zip(players, made["seats"], strict=False):
                player.join(seat["token"])

            def claim(moves: int) -> None:
                if forget_mid_game and moves == 8:
                    flo, _, seat = pairs[1]
                    assert (
                        flo.post("/api/account/links/forget", {"tokens": [seat["token"]]}).status_code == 204
                    )
                    assert flo.get("/api/account/links").json()["links"] == []
                if claim_after and moves == 8:  # kept for "My games" all the same
                    for person, _, seat in pairs:
                        assert (
                            person.post("/api/account/links", {"tokens": [seat["token"]]}).json()["kept"] == 1
                        )
                        links = person.get("/api/account/links").json()["links"]
                        assert [link["token"] for link in links] == [seat["token"]]

            play_to_the_end(players, take_back_first=take_back, before_move=claim)
        board: list[dict[str, Any]] = []
        for _ in range(100):  # the rating is written just after the end is stored
            board = client.get("/api/ratings/multi").json()["players"]
            if board or take_back or crash_before_rating:
                break
            time.sleep(0.05)
        history = people[0].get("/api/account/ratings").json()["multi"]
        return board, history


def test_a_game_of_two_accounts_and_a_bot_played_to_the_end_is_rated_once() -> None:
    board, history = _rated_game(take_back=False)
    assert sorted(row["name"] for row in board) == ["Eli", "Flo"]
    assert all(row["games"] == 1 and row["provisional"] for row in board)
    assert len(history) == 1 and 1 <= history[0]["rank"] <= 3  # a tie shares the average of its places


def test_a_game_with_a_move_taken_back_is_not_rated() -> None:
    board, history = _rated_game(take_back=True)
    assert board == [] and history == []


def test_an_unknown_ladder_is_refused() -> None:
    with TestClient(app_for(None)) as client:  # type: ignore[arg-type]
        answer = client.get("/api/ratings/triple")
        assert answer.status_code == 404 and "duel or multi" in answer.json()["detail"]


def test_a_game_where_one_account_holds_two_seats_is_not_rated() -> None:
    async def scenario() -> None:
        store = SqliteStore(":memory:")
        await store.open()
        try:
            (only,) = await _accounts(store, ["Wes"])
            await _table(store, "twice")
            seats = [RatedSeat(1.0, account=only), RatedSeat(2.0, account=only), RatedSeat(3.0, bot="random")]
            assert await Ratings(store).rate("twice", 3, seats) is False
            assert await _ratings(store) == {}
        finally:
            await store.close()

    asyncio.run(scenario())


def test_a_game_whose_server_stopped_before_rating_it_is_rated_at_the_next_start(tmp_path: Path) -> None:
    """The end of the game is stored, the server stops before the rating: the next server rates it at
    start, once; the one after finds nothing left to rate."""
    db = str(tmp_path / "games.sqlite3")
    board, _ = _rated_game(take_back=False, database=db, crash_before_rating=True)
    assert board == []
    for _ in range(2):  # two restarts: rated by the first, left alone by the second
        with TestClient(app_for(db)) as client:  # type: ignore[arg-type]
            for _ in range(100):
                board = client.get("/api/ratings/multi").json()["players"]
                if board:
                    break
                time.sleep(0.05)
            assert sorted(row["name"] for row in board) == ["Eli", "Flo"]
            assert all(row["games"] == 1 for row in board)


def test_seats_claimed_after_they_played_do_not_make_a_game_rated_even_after_a_restart(
    tmp_path: Path,
) -> None:
    """Guests who claim their seats once they have played (keeping a game that looks won, dropping
    one that looks lost) are not rated for it: not at its end, nor by the next server's look for
    games it missed."""
    db = str(tmp_path / "games.sqlite3")
    board, history = _rated_game(take_back=False, database=db, claim_after=True)
    assert board == [] and history == []
    with TestClient(app_for(db)) as client:  # type: ignore[arg-type]
        time.sleep(0.3)  # the start's look for missed games runs in the background
        assert client.get("/api/ratings/multi").json()["players"] == []


def test_forgetting_ones_seat_mid_game_hides_it_but_the_game_is_rated_all_the_same() -> None:
    """A seat forgotten from "My games" is hidden there, not given up: the game is rated for both
    (or a player could unrate, for everybody, any game going badly)."""
    board, _ = _rated_game(take_back=False, forget_mid_game=True)
    assert sorted(row["name"] for row in board) == ["Eli", "Flo"]


def test_the_seats_that_decided_are_those_that_took_an_action_in_play() -> None:
    from oriflamme.engine.action_text import action_text
    from oriflamme.engine.cards import SLUGS
    from oriflamme.engine.recipes import PRESETS
    from oriflamme.web.store import SeatRecord
    from oriflamme.web.table_game import deal, seats_that_decided

    seats = tuple(SeatRecord("person", "", f"t{i}", None, "en") for i in range(3))
    record = TableRecord(
        id="d", created=1.0, deck="base", players=3, recipe=tuple(SLUGS[k] for k in PRESETS["base"]),
        rules={}, seed=5, first_player=None, seats=seats, spectator_token="d-s", host_token="d-h",
    )  # fmt: skip
    game = deal(record)
    texts: list[str] = []
    movers: list[int] = []
    for _ in range(4):
        movers.append(game.current_player())
        action = game.legal_actions()[0]
        texts.append(action_text(game, action))
        game.apply(action)
    assert seats_that_decided(record, []) == set()
    assert seats_that_decided(record, texts[:1]) == {movers[0]}
    assert seats_that_decided(record, texts) == set(movers)
    assert len(set(movers)) == 3  # the first round's placements: each seat in turn, then one again


def test_a_players_profile_shows_the_rated_game_its_results_and_its_replay(tmp_path: Path) -> None:
    db = str(tmp_path / "games.sqlite3")
    board, _ = _rated_game(take_back=False, database=db)
    assert board
    with TestClient(app_for(db)) as client:  # type: ignore[arg-type]
        profile = client.get("/api/players/ELI").json()  # any case or lookalike names the player
        assert profile["name"] == "Eli" and profile["season"] == 1
        assert profile["ratings"]["duel"] is None and profile["ratings"]["multi"]["games"] == 1
        assert len(profile["history"]["multi"]) == 1 and profile["history"]["duel"] == []
        assert profile["by_players"]["3"]["games"] == 1 and profile["by_deck"]["base"]["games"] == 1
        (last,) = profile["last_games"]
        assert last["players"] == 3 and last["replay"] == f"/replay/rated-{last['table']}"
        assert client.get(last["replay"]).status_code == 200
        # The public link opens the replay only: the table's own links are nobody's business here.
        assert client.get(f"/api/replay/rated-{last['table']}").json()["steps"]
        assert client.get(f"/api/save/rated-{last['table']}").status_code == 200
        with contextlib.closing(sqlite3.connect(db)) as conn:
            (spectator,) = conn.execute("SELECT spectator_token FROM tables").fetchone()
        assert spectator not in client.get("/api/players/Eli").text
        assert client.get("/api/replay/rated-no-such-table").status_code == 404
        missing = client.get("/api/players/nobody")
        assert missing.status_code == 404 and missing.json() == {"detail": "no player has this name"}
