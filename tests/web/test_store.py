"""The server's storage: tables as setup + actions, tokens, and the order guarantees the server relies on."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from oriflamme.web.store import (
    MemoryStore,
    SeatRecord,
    SqliteStore,
    Storage,
    StorageError,
    TableRecord,
    TokenRef,
)


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


def stores(tmp_path: Path) -> list[Storage]:
    return [MemoryStore(), SqliteStore(tmp_path / "games.sqlite3")]


@pytest.mark.parametrize("kind", ["memory", "sqlite"])
def test_a_table_comes_back_as_stored_with_its_actions_and_tokens(tmp_path: Path, kind: str) -> None:
    """Setup, seats, tokens and the action list survive a round trip; a repeated index is refused."""

    async def scenario() -> None:
        store = stores(tmp_path)[kind == "sqlite"]
        await store.open()
        await store.create_table(record("t1"))
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
        assert await store.resolve_token("t1-cyd") == TokenRef("t1", "person", 2)
        assert await store.resolve_token("t1-watch") == TokenRef("t1", "spectator", None)
        assert await store.resolve_token("nope") is None
        await store.mark_finished("t1")
        assert await store.unfinished_tables() == []
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
