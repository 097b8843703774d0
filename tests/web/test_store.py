"""The server's storage: tables as setup + actions, tokens, and the order guarantees the server relies on."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import sqlite3
import time
from pathlib import Path

import pytest

from oriflamme.engine.action_text import action_text
from oriflamme.engine.cards import SLUGS
from oriflamme.engine.options import RuleOptions
from oriflamme.engine.recipes import PRESETS
from oriflamme.engine.setup import Setup
from oriflamme.notation.replay import ACTIONS_VERSION, replay
from oriflamme.web.bot_runners import InlineBotRunner
from oriflamme.web.memory_store import MemoryStore
from oriflamme.web.pg_store import PostgresStore
from oriflamme.web.schema import HEAD
from oriflamme.web.sqlite_store import SqliteStore
from oriflamme.web.store import (
    SeatRecord,
    Storage,
    StorageError,
    TableRecord,
    TokenRef,
)
from oriflamme.web.table_game import TAKEBACK, table_setup
from oriflamme.web.tables import SeatRequest, SetupProblem, TableRegistry


def record(table_id: str) -> TableRecord:
    seats = (
        SeatRecord("person", "Ann", f"{table_id}-ann", None, "ru"),
        SeatRecord("bot", "Bot 2", f"{table_id}-bot", "random", "en"),
        SeatRecord("person", "Cyd", f"{table_id}-cyd", None, "en"),
    )
    return TableRecord(
        id=table_id, created=1.0, deck="base", players=3,
        recipe=("archer", "soldier", "spy", "heir", "shapeshifter", "lord", "assassination", "royal-decree",
                "ambush", "conspiracy"),
        rules={"schemer_gain": 1, "two_player_cards_per_round": 2, "rounds": 6}, seed=42, first_player=None,
        seats=seats, spectator_token=f"{table_id}-watch", host_token=f"{table_id}-host",
    )  # fmt: skip


KINDS = ["memory", "sqlite", "postgres"]


def make_store(kind: str, tmp_path: Path, request: pytest.FixtureRequest) -> Storage:
    """A fresh, empty store of ``kind`` (PostgreSQL: a new database on the session's server)."""
    if kind == "memory":
        return MemoryStore()
    if kind == "sqlite":
        return SqliteStore(tmp_path / "games.sqlite3")
    return PostgresStore(request.getfixturevalue("postgres_dsn"))


@pytest.mark.parametrize("kind", KINDS)
def test_a_table_comes_back_as_stored_with_its_actions_and_tokens(
    tmp_path: Path, kind: str, request: pytest.FixtureRequest
) -> None:
    """Setup, seats, tokens and the action list survive a round trip; a repeated index is refused."""

    async def scenario() -> None:
        store = make_store(kind, tmp_path, request)
        await store.open()
        await store.create_table(record("t1"))
        fresh = await store.load_table("t1")
        assert fresh is not None and fresh.last_at is None  # no action yet: a timer counts from creation
        before = time.time()
        await store.append_action("t1", 0, "place soldier first")
        await store.append_action("t1", 1, "place spy last")
        with pytest.raises(StorageError):
            await store.append_action("t1", 1, "place heir last")
        await store.mark_joined("t1", 2)
        stored = await store.load_table("t1")
        assert stored is not None
        assert stored.record == record("t1")
        assert stored.actions == ["place soldier first", "place spy last"]
        assert stored.joined == {2} and not stored.finished
        assert stored.last_at is not None and before - 1 <= stored.last_at <= time.time() + 1
        assert await store.resolve_token("t1-cyd") == TokenRef("t1", "person", 2)
        assert await store.resolve_token("t1-watch") == TokenRef("t1", "spectator", None)
        assert await store.resolve_token("nope") is None
        await store.mark_finished("t1")
        assert await store.unfinished_tables() == []
        await store.rename_seat("t1", 2, "Cydonia")
        renamed = await store.load_table("t1")
        assert renamed is not None and renamed.record == record("t1").renamed(2, "Cydonia")
        assert [s.name for s in renamed.record.seats][2] == "Cydonia"
        await store.close()

    asyncio.run(scenario())


def test_concurrent_actions_of_many_tables_are_all_committed_and_survive_a_reopen(tmp_path: Path) -> None:
    """Appends from 50 tables at once are grouped into transactions; every row is there after a restart."""
    path = tmp_path / "games.sqlite3"

    async def write() -> None:
        store = SqliteStore(path)
        await store.open()
        for i in range(50):
            await store.create_table(record(f"t{i}"))
        for n in range(4):
            await asyncio.gather(*(store.append_action(f"t{i}", n, f"action {n}") for i in range(50)))
        await store.close()

    async def read() -> None:
        store = SqliteStore(path)
        await store.open()
        assert len(await store.unfinished_tables()) == 50
        for i in range(50):
            stored = await store.load_table(f"t{i}")
            assert stored is not None and stored.actions == [f"action {n}" for n in range(4)]
        await store.close()

    asyncio.run(write())
    asyncio.run(read())


#: The database layout of servers before action-sequence versions (oriflamme 0.1).
_LAYOUT_0_1 = """
CREATE TABLE tables (id TEXT PRIMARY KEY, created REAL NOT NULL, setup TEXT NOT NULL,
    spectator_token TEXT NOT NULL, host_token TEXT NOT NULL, finished INTEGER NOT NULL DEFAULT 0);
CREATE TABLE seats (table_id TEXT NOT NULL REFERENCES tables(id), seat INTEGER NOT NULL, kind TEXT NOT NULL,
    name TEXT NOT NULL, token TEXT NOT NULL UNIQUE, bot TEXT, lang TEXT NOT NULL,
    joined INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (table_id, seat));
CREATE TABLE tokens (token TEXT PRIMARY KEY, table_id TEXT NOT NULL REFERENCES tables(id), role TEXT NOT NULL,
    seat INTEGER);
CREATE TABLE actions (table_id TEXT NOT NULL REFERENCES tables(id), idx INTEGER NOT NULL, action TEXT NOT NULL,
    at REAL NOT NULL, PRIMARY KEY (table_id, idx));
"""


def _old_database(path: Path, rec: TableRecord, actions: list[str]) -> None:
    conn = sqlite3.connect(path)
    conn.executescript(_LAYOUT_0_1)
    conn.execute(
        "INSERT INTO tables VALUES (?,?,?,?,?,0)",
        (rec.id, rec.created, rec.setup_json(), rec.spectator_token, rec.host_token),
    )
    for i, s in enumerate(rec.seats):
        conn.execute(
            "INSERT INTO seats VALUES (?,?,?,?,?,?,?,1)", (rec.id, i, s.kind, s.name, s.token, s.bot, s.lang)
        )
        conn.execute("INSERT INTO tokens VALUES (?,?,?,?)", (s.token, rec.id, s.kind, i))
    conn.executemany(
        "INSERT INTO actions VALUES (?,?,?,?)", [(rec.id, i, a, 1.0) for i, a in enumerate(actions)]
    )
    conn.commit()
    conn.close()


def test_a_table_stored_by_an_older_server_is_upgraded_when_loaded(tmp_path: Path) -> None:
    """A 0.1 database gains the version column; its tables replay, and their actions are rewritten once."""
    golden = json.loads((Path(__file__).parents[1] / "data" / "golden_games_v1.json").read_text("utf-8"))
    game = next(r for r in golden if (r["deck"], r["players"], r["seed"]) == ("ablaze", 4, 1006))
    kinds = PRESETS["ablaze"]
    seats = tuple(SeatRecord("person", f"P{i}", f"old-{i}", None, "en") for i in range(4))
    rec = TableRecord(
        id="old", created=1.0, deck="ablaze", players=4, recipe=tuple(SLUGS[k] for k in kinds),
        rules=RuleOptions().to_dict(), seed=game["seed"], first_player=None, seats=seats,
        spectator_token="old-watch", host_token="old-host",
    )  # fmt: skip
    v1 = game["actions"][:-3]  # an unfinished table
    path = tmp_path / "games.sqlite3"
    _old_database(path, rec, v1)
    expected = replay(Setup(4, kinds, RuleOptions(), game["seed"], None), v1, version=1)
    assert len(expected.history) > len(v1)  # the upgrade has something to do

    async def scenario() -> None:
        store = SqliteStore(path)
        await store.open()
        stored = await store.load_table("old")
        assert stored is not None and stored.actions_version == 1 and stored.actions == v1
        registry = TableRegistry(store, InlineBotRunner(), bot_delay=0)
        table = await registry.get("old")
        assert table is not None
        assert table.game.history == expected.history
        again = await store.load_table("old")
        assert again is not None and again.actions_version == ACTIONS_VERSION
        assert again.actions == table.actions and len(again.actions) == len(expected.history)
        # The next action is stored after the upgraded ones, and the whole list replays as current.
        next_text = action_text(table.game, table.game.legal_actions()[0])
        await store.append_action("old", len(again.actions), next_text)
        await store.close()

    asyncio.run(scenario())
    conn = sqlite3.connect(path)
    assert conn.execute("SELECT version_num FROM alembic_version").fetchone() == (HEAD,)
    texts = [a for (a,) in conn.execute("SELECT action FROM actions WHERE table_id='old' ORDER BY idx")]
    conn.close()
    replay(Setup(4, kinds, RuleOptions(), game["seed"], None), texts)  # raises if it does not replay


def test_an_older_tables_take_back_survives_its_upgrade_so_its_game_stays_unrated(tmp_path: Path) -> None:
    """An older sequence with a take-back is rewritten as the actions in play and a take-back that
    withdraws nothing: read again, the table is still known as taken back, in the same position."""
    golden = json.loads((Path(__file__).parents[1] / "data" / "golden_games_v1.json").read_text("utf-8"))
    game = next(r for r in golden if (r["deck"], r["players"], r["seed"]) == ("ablaze", 4, 1006))
    seats = tuple(SeatRecord("person", f"P{i}", f"old-{i}", None, "en") for i in range(4))
    rec = TableRecord(
        id="old", created=1.0, deck="ablaze", players=4, recipe=tuple(SLUGS[k] for k in PRESETS["ablaze"]),
        rules=RuleOptions().to_dict(), seed=game["seed"], first_player=None, seats=seats,
        spectator_token="old-watch", host_token="old-host",
    )  # fmt: skip
    played = game["actions"][:-3]
    path = tmp_path / "games.sqlite3"
    _old_database(path, rec, [*played, f"{TAKEBACK} {len(played) - 2}"])

    async def scenario() -> None:
        store = SqliteStore(path)
        await store.open()
        first = await TableRegistry(store, InlineBotRunner(), bot_delay=0).get("old")
        assert first is not None and first.taken_back
        upgraded = await store.load_table("old")
        assert upgraded is not None and upgraded.actions_version == ACTIONS_VERSION
        assert upgraded.actions[-1] == f"{TAKEBACK} {len(first.actions)}"
        assert first.state == len(upgraded.actions)  # state numbers go on from the rows stored
        again = await TableRegistry(store, InlineBotRunner(), bot_delay=0).get("old")
        assert again is not None and again.taken_back
        assert again.game.history == first.game.history and again.actions == first.actions
        await store.close()

    asyncio.run(scenario())


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_a_database_of_a_newer_server_is_refused_and_left_alone(
    tmp_path: Path, kind: str, request: pytest.FixtureRequest
) -> None:
    """A revision this server does not know: refused with a clear reason, nothing changed."""

    async def scenario() -> None:
        store = make_store(kind, tmp_path, request)
        await store.open()
        await store.create_table(record("t1"))
        await store.close()
        _set_revision(kind, store, "0999")
        again = make_store(kind, tmp_path, request) if kind == "sqlite" else PostgresStore(store.dsn)  # type: ignore[attr-defined]
        with pytest.raises(StorageError, match="newer server"):
            await again.open()
        await again.close()
        assert _revision(kind, store) == "0999"

    asyncio.run(scenario())


def _set_revision(kind: str, store: Storage, revision: str) -> None:
    if kind == "sqlite":
        conn = sqlite3.connect(store.path)  # type: ignore[attr-defined]
        conn.execute("UPDATE alembic_version SET version_num=?", (revision,))
        conn.commit()
        conn.close()
    else:
        import psycopg

        with psycopg.connect(store.dsn) as conn:  # type: ignore[attr-defined]
            conn.execute("UPDATE alembic_version SET version_num=%s", (revision,))


def _revision(kind: str, store: Storage) -> str:
    if kind == "sqlite":
        conn = sqlite3.connect(store.path)  # type: ignore[attr-defined]
        (found,) = conn.execute("SELECT version_num FROM alembic_version").fetchone()
        conn.close()
        return str(found)
    import psycopg

    with psycopg.connect(store.dsn) as conn:  # type: ignore[attr-defined]
        row = conn.execute("SELECT version_num FROM alembic_version").fetchone()
        assert row is not None
        return str(row[0])


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_a_new_database_gets_every_migration(
    tmp_path: Path, kind: str, request: pytest.FixtureRequest
) -> None:
    async def scenario() -> None:
        store = make_store(kind, tmp_path, request)
        await store.open()
        await store.close()
        assert _revision(kind, store) == HEAD

    asyncio.run(scenario())


def _played_to_the_end(seed: int) -> tuple[TableRecord, list[str]]:
    """A 3-player base table and every action of its game, played at random."""
    import random as rnd

    from oriflamme.engine.game import Game

    rec = record("end")
    g = Game.new(3, "base", seed=seed)
    rng = rnd.Random(seed)
    texts = []
    while not g.is_over():
        a = rng.choice(g.legal_actions())
        texts.append(action_text(g, a))
        g.apply(a)
    return dataclasses.replace(rec, seed=seed), texts


@pytest.mark.parametrize("kind", KINDS)
def test_the_last_action_and_the_games_end_are_one_write(
    tmp_path: Path, kind: str, request: pytest.FixtureRequest
) -> None:
    """append_action(finishes=True) stores the action and the end together: one commit, not two."""

    async def scenario() -> None:
        store = make_store(kind, tmp_path, request)
        await store.open()
        await store.create_table(record("t1"))
        await store.append_action("t1", 0, "place soldier first")
        assert await store.unfinished_tables() == ["t1"]
        await store.append_action("t1", 1, "place spy last", finishes=True)
        assert await store.unfinished_tables() == []
        stored = await store.load_table("t1")
        assert stored is not None and stored.finished and len(stored.actions) == 2
        await store.close()

    asyncio.run(scenario())


def test_a_server_marks_the_end_with_the_last_action_and_repairs_a_table_left_unfinished(
    tmp_path: Path,
) -> None:
    """Played through the registry, the last action's commit marks the table finished. A table an
    older server stored complete but unmarked (killed in between) is marked when loaded."""
    rec, texts = _played_to_the_end(seed=77)
    path = tmp_path / "games.sqlite3"

    async def scenario() -> None:
        store = SqliteStore(path)
        await store.open()
        await store.create_table(rec)
        for i, t in enumerate(texts):
            await store.append_action(rec.id, i, t)  # all stored, the end never marked
        assert await store.unfinished_tables() == [rec.id]
        registry = TableRegistry(store, InlineBotRunner(), bot_delay=0)
        await registry.start()
        assert await store.unfinished_tables() == []
        table = await registry.get(rec.id)
        assert table is not None and table.finished and table.game.is_over()
        await registry.close()
        await store.close()

    asyncio.run(scenario())


@pytest.mark.parametrize("kind", KINDS)
def test_tables_idle_for_long_stay_in_the_store_until_someone_opens_them(
    tmp_path: Path, kind: str, request: pytest.FixtureRequest
) -> None:
    """A server with idle_seconds loads at start only tables created or played since; an old table comes
    back when one of its links is opened, and a table nobody uses leaves memory again."""
    import time as clock

    async def scenario() -> None:
        store = make_store(kind, tmp_path, request)
        await store.open()
        await store.create_table(record("old"))  # created at time 1.0, never played
        await store.create_table(dataclasses.replace(record("new"), created=clock.time()))
        await store.create_table(record("played"))
        first = replay(table_setup(record("played")), [])
        await store.append_action(
            "played", 0, action_text(first, first.legal_actions()[0])
        )  # played just now
        now = clock.time()
        assert sorted(await store.unfinished_tables(active_since=now - 60)) == ["new", "played"]
        assert sorted(await store.unfinished_tables()) == ["new", "old", "played"]
        registry = TableRegistry(store, InlineBotRunner(), bot_delay=0)
        registry.idle_seconds = 60
        await registry.start()
        assert sorted(registry.tables) == ["new", "played"]
        found = await registry.resolve("old-ann")
        assert found is not None and found[0].record.id == "old" and "old" in registry.tables
        assert registry.sweep(idle=3600) == []  # nothing idle that long
        assert sorted(registry.sweep(idle=0)) == ["new", "old", "played"]  # nobody connected
        assert registry.tables == {}
        await registry.close()
        await store.close()

    asyncio.run(scenario())


def test_a_table_loaded_on_demand_starts_its_bot(tmp_path: Path) -> None:
    """A table not loaded at start (idle) whose bot was to move: opening it lets the bot play on."""
    rec = dataclasses.replace(
        record("idle"),
        seats=(
            SeatRecord("bot", "Bot 1", "idle-b1", "random", "en"),
            SeatRecord("person", "Ann", "idle-ann", None, "en"),
            SeatRecord("bot", "Bot 3", "idle-b3", "random", "en"),
        ),
        first_player=0,
    )

    async def scenario() -> None:
        store = SqliteStore(tmp_path / "games.sqlite3")
        await store.open()
        await store.create_table(rec)  # created long ago (time 1.0), seat 1's bot to move
        registry = TableRegistry(store, InlineBotRunner(), bot_delay=0)
        registry.idle_seconds = 60
        await registry.start()
        assert registry.tables == {}
        found = await registry.resolve("idle-ann")
        assert found is not None
        table = found[0]
        for _ in range(200):
            if table.game.current_player() == 1:
                break
            await asyncio.sleep(0.01)
        assert table.game.current_player() == 1 and len(table.actions) >= 1
        await registry.close()
        await store.close()

    asyncio.run(scenario())


def test_a_database_of_the_server_before_migrations_is_stamped_and_brought_up_to_date(tmp_path: Path) -> None:
    """The layout with actions_version (PRAGMA user_version 2, no alembic_version) is revision 0002."""
    path = tmp_path / "games.sqlite3"
    rec = record("t1")
    conn = sqlite3.connect(path)
    conn.executescript(_LAYOUT_0_1)
    conn.execute("ALTER TABLE tables ADD COLUMN actions_version INTEGER NOT NULL DEFAULT 1")
    conn.execute("PRAGMA user_version=2")
    conn.execute(
        "INSERT INTO tables VALUES (?,?,?,?,?,0,2)",
        (rec.id, rec.created, rec.setup_json(), rec.spectator_token, rec.host_token),
    )
    for i, s in enumerate(rec.seats):
        conn.execute(
            "INSERT INTO seats VALUES (?,?,?,?,?,?,?,0)", (rec.id, i, s.kind, s.name, s.token, s.bot, s.lang)
        )
    conn.commit()
    conn.close()

    async def scenario() -> None:
        store = SqliteStore(path)
        await store.open()
        stored = await store.load_table("t1")
        assert stored is not None and stored.record.seats == rec.seats and stored.actions_version == 2
        await store.close()

    asyncio.run(scenario())
    conn = sqlite3.connect(path)
    assert conn.execute("SELECT version_num FROM alembic_version").fetchone() == (HEAD,)
    indexes = {name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type='index'")}
    conn.close()
    assert "tables_unfinished" in indexes


@pytest.mark.parametrize("kind", KINDS)
def test_open_tables_and_claimed_seats(tmp_path: Path, kind: str, request: pytest.FixtureRequest) -> None:
    """An open table is listed while a person seat is free; a seat is claimed once, by one caller."""

    async def scenario() -> None:
        store = make_store(kind, tmp_path, request)
        await store.open()
        await store.create_table(record("closed"))
        await store.create_table(dataclasses.replace(record("open"), open=True))
        listed = await store.open_tables()
        # Seat 1 is the creator's from the start (no stranger can be given it), seat 2 is a bot's.
        assert [(t.record.id, t.free) for t in listed] == [("open", (2,))]
        assert listed[0].record == dataclasses.replace(record("open"), open=True)
        old = listed[0].record.seats[2].token
        assert await store.claim_seat("open", 0, "t0") is False
        assert await store.claim_seat("open", 1, "t1") is False  # a bot's seat is nobody's to take
        assert await store.claim_seat("open", 2, "stranger") is True
        assert await store.claim_seat("open", 2, "another") is False
        assert await store.open_tables() == []
        # The seat opens with the stranger's new token only, in the store and in the record read back.
        assert await store.resolve_token("stranger") == TokenRef("open", "person", 2)
        assert await store.resolve_token(old) is None
        assert await store.resolve_token("another") is None
        stored = await store.load_table("open")
        assert stored is not None and stored.record.seats[2].token == "stranger" and 2 in stored.joined
        await store.close()

    asyncio.run(scenario())


def _to_revision(kind: str, store: Storage, revision: str) -> None:
    """Take the store's database back to ``revision`` with the migrations' own downgrades."""
    from alembic import command
    from sqlalchemy import create_engine

    from oriflamme.web.schema import _config

    if kind == "sqlite":
        url = "sqlite:///" + str(store.path)  # type: ignore[attr-defined]
    else:
        url = "postgresql+psycopg://" + store.dsn.split("://", 1)[1]  # type: ignore[attr-defined]
    engine = create_engine(url)
    with engine.connect() as connection:
        command.downgrade(_config(connection), revision)
        connection.commit()
    engine.dispose()


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_a_database_of_the_server_before_accounts_is_brought_up_to_date_with_its_games(
    tmp_path: Path, kind: str, request: pytest.FixtureRequest
) -> None:
    """A database at revision 0006 (before accounts) with a game in it: opened by this server, it is
    upgraded, the game loads with its actions, and accounts, links and ratings can be written."""
    from oriflamme.web.accounts import Accounts
    from oriflamme.web.store import TokenRef

    async def scenario() -> None:
        store = make_store(kind, tmp_path, request)
        await store.open()
        await store.create_table(record("old"))
        await store.append_action("old", 0, "place soldier first")
        await store.close()
        _to_revision(kind, store, "0006")
        assert _revision(kind, store) == "0006"

        store = make_store(kind, tmp_path, request) if kind == "sqlite" else store
        await store.open()
        try:
            assert _revision(kind, store) == HEAD
            loaded = await store.load_table("old")
            assert loaded is not None and loaded.actions == ["place soldier first"]
            accounts = Accounts(store)
            account, _ = await accounts.register("Quinn", "quinn's password")
            token = loaded.record.seats[0].token
            assert await accounts.keep_links(account, [(token, TokenRef("old", "person", 0))]) == []
            assert await accounts.links(account) == [(token, "person")]
        finally:
            await store.close()

    asyncio.run(scenario())


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_a_two_day_turn_timer_survives_a_restart_with_its_clock_unchanged(
    tmp_path: Path, kind: str, request: pytest.FixtureRequest
) -> None:
    """A turn-based table (2 days a decision) whose last move was 30 hours ago, longer than the idle
    time after which tables stay in the store: a restarted server loads it at once, and Ann has the
    18 hours left she had, not a fresh 2 days; a live table as old is left in the store."""
    two_days, thirty_hours = 2 * 24 * 3600, 30 * 3600
    seats = (
        SeatRecord("person", "Ann", "days-ann", None, "en"),
        SeatRecord("bot", "Bot 2", "days-bot2", "random", "en"),
        SeatRecord("bot", "Bot 3", "days-bot3", "random", "en"),
    )
    days = dataclasses.replace(record("days"), seats=seats, first_player=1, turn_seconds=two_days)
    live = dataclasses.replace(record("live"), turn_seconds=60)
    assert days.turn_based and not live.turn_based

    async def scenario() -> None:
        store = make_store(kind, tmp_path, request)
        await store.open()
        for rec in (days, live):
            await store.create_table(rec)
        await store.mark_joined("days", 0)
        game = replay(table_setup(days), [])
        for index in range(2):  # the two bots place their first cards; then it is Ann's decision
            action = game.legal_actions()[0]
            await store.append_action("days", index, action_text(game, action))
            game.apply(action)
        assert game.current_player() == 0
        long_ago = time.time() - thirty_hours
        await store.run_statements([("UPDATE actions SET at = ?", (long_ago,))])

        registry = TableRegistry(store, InlineBotRunner(), bot_delay=0)
        registry.idle_seconds = 24 * 3600
        await registry.start()
        try:
            assert sorted(registry.tables) == ["days"]
            left = registry.tables["days"].turn_left()
            assert left is not None and abs(left - (two_days - thirty_hours)) < 60
            assert registry.sweep(idle=0) == []  # a running clock keeps its table in memory
        finally:
            await registry.close()
            await store.close()

    asyncio.run(scenario())


def test_a_turn_timer_is_at_most_three_days() -> None:
    async def scenario() -> None:
        registry = TableRegistry(MemoryStore(), InlineBotRunner(), bot_delay=0)
        people = [SeatRequest("person", "Ann", None, "en"), SeatRequest("bot", "", "random", "en")]
        with pytest.raises(SetupProblem, match="10 to 259200 seconds"):
            await registry.create(players=2, deck="base", seats=people, turn_seconds=3 * 24 * 3600 + 1)
        table = await registry.create(players=2, deck="base", seats=people, turn_seconds=3 * 24 * 3600)
        assert table.record.turn_based

    asyncio.run(scenario())
