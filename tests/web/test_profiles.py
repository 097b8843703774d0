"""Profiles and ladder pages through the API: a ladder read a page at a time with the bots' anchors
among its rows, bad paging refused, a player's favourite cards counted from their rated games, and
no profile for a name nobody plays under (unknown, deleted or suspended alike)."""

from __future__ import annotations

import asyncio
import itertools
from collections import Counter
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from support.accounts import app_for
from support.rated_games import Played, make_accounts, play_rated

from oriflamme.web.app import _store
from oriflamme.web.favourite_cards import FavouriteCards
from oriflamme.web.ladder_pages import offered_anchors
from oriflamme.web.ratings import Ratings
from oriflamme.web.store import Storage


def _seeded(database: str, seed: Any) -> Any:
    """``seed(store)`` run on a server's database (then closed), its answer returned."""

    async def run() -> Any:
        store = _store(database)
        await store.open()
        try:
            return await seed(store)
        finally:
            await store.close()

    return asyncio.run(run())


async def _ladder_of(store: Storage, count: int) -> list[str]:
    """``count`` accounts on the duel ladder, rated 30, 29.5, 29 ... (one of them with few games)."""
    ids = await make_accounts(store, [f"P{i:03}" for i in range(count)])
    await store.run_statements(
        [
            (
                "INSERT INTO ratings (account_id, ladder, season, mu, sigma, games, updated) "
                "VALUES (?, 'duel', 1, ?, 1, ?, 0)",
                (ids[f"P{i:03}"], 33.0 - i / 2, 3 if i == 4 else 12),
            )
            for i in range(count)
        ]
    )
    return [f"P{i:03}" for i in range(count)]


def test_a_ladder_is_read_a_page_at_a_time_with_each_bot_anchor_on_one_page(database_url: str) -> None:
    """65 accounts rated 30 down to -2 in steps of a half: pages of 19 list them by rank, the total says
    how many there are; every bot this server offers appears once across the pages, between the
    accounts its fixed rating falls between. The first page ends with the account rated 21, as
    ismcts:easy is: the bot comes after it, at the top of the second page."""
    names = _seeded(database_url, lambda store: _ladder_of(store, 65))
    with TestClient(app_for(database_url)) as client:  # type: ignore[arg-type]
        seen: list[str] = []
        anchors: list[dict[str, Any]] = []
        #: Every page's rows as the page shows them: each anchor before its page's first account
        #: rated below it (after those rated the same), else at the page's end.
        shown: list[tuple[float, int, str]] = []
        for offset in (0, 19, 38, 57):
            page = client.get(f"/api/ratings/duel?offset={offset}&limit=19").json()
            assert page["total"] == 65 and page["offset"] == offset and page["limit"] == 19
            rows = page["players"]
            assert [r["rank"] for r in rows] == list(range(offset + 1, min(offset + 19, 65) + 1))
            if offset == 19:
                assert page["anchors"][0] == {"bot": "ismcts:easy", "rating": 21.0}
            seen += [r["name"] for r in rows]
            waiting = sorted(page["anchors"], key=lambda a: -a["rating"])
            for r in rows:
                while waiting and waiting[0]["rating"] > r["rating"]:
                    a = waiting.pop(0)
                    shown.append((a["rating"], 1, a["bot"]))
                shown.append((r["rating"], 0, r["name"]))
            shown += [(a["rating"], 1, a["bot"]) for a in waiting]
            anchors += page["anchors"]
        # Read in page order, the ladder runs from the best rating down, each anchor after the
        # accounts rated as high as it: no anchor is on a page its rating does not fall within.
        assert shown == sorted(shown, key=lambda x: (-x[0], x[1])), shown
        assert seen == names
        assert sorted(a["bot"] for a in anchors) == sorted(a["bot"] for a in offered_anchors())
        assert len(anchors) == len(offered_anchors()) >= 5
        # P004 has 3 games: provisional, and ranked by its rating all the same.
        fifth = client.get("/api/ratings/duel?offset=4&limit=1").json()["players"]
        assert fifth == [{"rank": 5, "name": "P004", "rating": 28.0, "mu": 31.0, "sigma": 1.0, "games": 3,
                          "provisional": True}]  # fmt: skip
        # Past the end: nothing, and no anchors either (they were all on the pages above).
        past = client.get("/api/ratings/duel?offset=65").json()
        assert past["players"] == [] and past["anchors"] == [] and past["total"] == 65
        # The default page is 50 accounts.
        assert len(client.get("/api/ratings/duel").json()["players"]) == 50

    # A suspended account leaves the ladder (and so does a deleted one whose rating stayed behind):
    # the count of what it lists, and its ranks, close up.
    _seeded(
        database_url,
        lambda store: store.run_statements(
            [
                ("UPDATE accounts SET suspended = 5 WHERE name = 'P010'", ()),
                ("UPDATE accounts SET name = NULL, name_key = NULL, deleted = 5 WHERE name = 'P011'", ()),
            ]
        ),
    )
    with TestClient(app_for(database_url)) as client:  # type: ignore[arg-type]
        page = client.get("/api/ratings/duel?offset=9&limit=3").json()
        assert page["total"] == 63
        assert [(r["rank"], r["name"]) for r in page["players"]] == [(10, "P009"), (11, "P012"), (12, "P013")]


def test_bad_paging_is_refused_with_a_reason() -> None:
    with TestClient(app_for(None)) as client:  # type: ignore[arg-type]
        for query in ("offset=-1", "limit=0", "limit=101", "offset=1000000001"):
            answer = client.get(f"/api/ratings/multi?{query}")
            assert answer.status_code == 400, query
            assert answer.json()["detail"] == "offset must be 0 to 1000000000 and limit 1 to 100"
        assert client.get("/api/ratings/multi?limit=ten").status_code == 422
        assert client.get("/api/ratings/multi?limit=100&offset=1000000000").status_code == 200
        # An empty ladder still shows where the bots stand.
        empty = client.get("/api/ratings/multi").json()
        assert empty["players"] == [] and empty["total"] == 0
        assert [a["bot"] for a in empty["anchors"]] == [a["bot"] for a in offered_anchors()]


def _expected_favourites(games: list[Played], account: str) -> list[dict[str, Any]]:
    placed: Counter[str] = Counter()
    held: Counter[str] = Counter()
    for g in games:
        seat = g.accounts.index(account)
        placed.update(g.placed[seat])
        held.update(g.placed[seat].keys())
    kinds = sorted(placed, key=lambda k: (-placed[k], -held[k], k))[:5]
    return [{"card": k, "placed": placed[k], "games": held[k]} for k in kinds]


def test_favourite_cards_are_the_kinds_a_player_placed_most_in_their_last_rated_games(
    database_url: str,
) -> None:
    """Ann plays five rated games at different seats (with Bob and bots): her favourite cards are the
    kinds she placed most, counted over her last three games only when the profile counts three;
    Bob's games without her, and the cards others placed, are not hers."""

    async def scenario() -> None:
        store = _store(database_url)
        await store.open()
        try:
            ids = await make_accounts(store, ["Ann", "Bob"])
            ann, bob = ids["Ann"], ids["Bob"]
            clock = itertools.count(1000)
            ratings = Ratings(store, clock=lambda: float(next(clock)))
            ratings.favourites = FavouriteCards(store, games=3)
            seatings = [
                [ann, "bot:random"],
                [bob, ann, "bot:heuristic"],
                ["bot:random", bob],  # without her
                ["bot:random", "bot:heuristic", ann, bob],
                [ann, "bot:random", "bot:random"],
                ["bot:heuristic", ann],
            ]
            played = [
                await play_rated(store, ratings, f"g{i}", s, seed=31 + i) for i, s in enumerate(seatings)
            ]
            hers = [g for g in played if ann in g.accounts]
            profile = await ratings.profile(ann)
            assert profile["favourite_games"] == 3
            assert profile["favourite_cards"] == _expected_favourites(hers[-3:], ann)
            # Counted over all five, the answer differs: the bound is what the test sees.
            assert _expected_favourites(hers, ann) != _expected_favourites(hers[-3:], ann)
            assert (await FavouriteCards(store, games=50).of(ann)) == _expected_favourites(hers, ann)
            assert (await FavouriteCards(store).of(bob)) == _expected_favourites(
                [g for g in played if bob in g.accounts], bob
            )
            # Read again (from the tables kept replayed): the same.
            assert (await ratings.favourites.of(ann)) == profile["favourite_cards"]
        finally:
            await store.close()

    asyncio.run(scenario())


def test_no_profile_for_an_unknown_deleted_or_suspended_name(tmp_path: Path) -> None:
    """The three answer alike, so a profile link tells nobody whether an account was ever there."""
    db = str(tmp_path / "games.sqlite3")

    async def seed(store: Storage) -> None:
        await make_accounts(store, ["Cleo", "Dora", "Emil"])
        await store.run_statements(
            [
                ("UPDATE accounts SET suspended = 5 WHERE name = 'Dora'", ()),
                ("UPDATE accounts SET name = NULL, name_key = NULL, deleted = 5 WHERE name = 'Emil'", ()),
            ]
        )

    _seeded(db, seed)
    with TestClient(app_for(db)) as client:  # type: ignore[arg-type]
        assert client.get("/api/players/cleo").json()["favourite_cards"] == []
        for name in ("Dora", "Emil", "Nobody"):
            answer = client.get(f"/api/players/{name}")
            assert answer.status_code == 404 and answer.json() == {"detail": "no player has this name"}
        # The pages themselves: a profile's is the one page (it says "no such player" itself); a
        # ladder that does not exist is a 404.
        assert client.get("/players/Nobody").status_code == 200
        assert client.get("/ladders/duel").status_code == 200
        assert client.get("/ladders/multi?season=1&page=2").status_code == 200
        assert client.get("/ladders/triple").status_code == 404
