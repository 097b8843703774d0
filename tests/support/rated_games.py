"""Rated games seeded straight into a server's database: whole games played by a seeded random
policy, stored row by row as a server stores them, held by accounts and rated by :class:`Ratings`.

What each seat placed is counted here as the game is played (the seat to move, the ``place`` action
chosen), independently of how the server reads it back from the stored rows."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from oriflamme.engine.action_text import action_text
from oriflamme.engine.cards import SLUGS
from oriflamme.engine.outcome import outcome
from oriflamme.engine.recipes import PRESETS
from oriflamme.web.accounts import account_key
from oriflamme.web.ratings import RatedSeat, Ratings
from oriflamme.web.store import SeatRecord, Storage, TableRecord
from oriflamme.web.table_game import deal


async def make_accounts(store: Storage, names: list[str], first: int = 0) -> dict[str, str]:
    """Accounts made straight in the database (no password: nobody logs in as them): name -> id."""
    ids = {name: f"acct{first + i:04}" for i, name in enumerate(names)}
    await store.run_statements(
        [
            (
                "INSERT INTO accounts (id, name, name_key, created) VALUES (?, ?, ?, ?)",
                (ids[n], n, account_key(n), 1_700_000_000.0),
            )
            for n in names
        ]
    )
    return ids


@dataclass
class Played:
    """A seeded game: its table, who sat where (an account id, or None for a bot), how it ended."""

    table_id: str
    spectator: str
    players: int
    accounts: list[str | None]
    ranks: list[float]
    placed: list[Counter[str]] = field(default_factory=list)


async def play_rated(
    store: Storage, ratings: Ratings, table_id: str, seats: list[str], seed: int, deck: str = "base"
) -> Played:
    """One game played to its end and rated. ``seats``: an account id, or ``bot:SPEC`` for a bot."""
    records = tuple(
        SeatRecord("bot", "", f"{table_id}-{i}", bot=s[4:])
        if s.startswith("bot:")
        else SeatRecord("person", "", f"{table_id}-{i}")
        for i, s in enumerate(seats)
    )
    record = TableRecord(
        id=table_id,
        created=1_700_000_000.0,
        deck=deck,
        players=len(seats),
        recipe=tuple(SLUGS[k] for k in PRESETS[deck]),
        rules={},
        seed=seed,
        first_player=0,
        seats=records,
        spectator_token=f"{table_id}-s",
        host_token=f"{table_id}-h",
    )
    await store.create_table(record)
    g = deal(record)
    rng = random.Random(seed)
    placed: list[Counter[str]] = [Counter() for _ in seats]
    index = 0
    while not g.is_over():
        actor = g.current_player()
        action = rng.choice(list(g.options))
        text = action_text(g, action)
        if text.startswith("place "):
            placed[actor][text.split()[1]] += 1
        g.apply(action)
        await store.append_action(table_id, index, text, finishes=g.is_over())
        index += 1
    accounts = [None if s.startswith("bot:") else s for s in seats]
    await store.run_statements(
        [
            (
                "INSERT INTO account_tokens (account_id, token, role, table_id, seat, added) "
                "VALUES (?, ?, 'person', ?, ?, 0)",
                (a, records[i].token, table_id, i),
            )
            for i, a in enumerate(accounts)
            if a is not None
        ]
    )
    ranks = [float(r) for r in outcome(g).ranks]
    rated = [
        RatedSeat(ranks[i], account=a) if a is not None else RatedSeat(ranks[i], bot=seats[i][4:])
        for i, a in enumerate(accounts)
    ]
    assert await ratings.rate(table_id, len(seats), rated)
    return Played(table_id, record.spectator_token, len(seats), accounts, ranks, placed)
