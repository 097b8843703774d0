"""Ratings of the people with accounts, by OpenSkill's Plackett-Luce model, on two ladders.

A game is rated when it was played to its end, every seat is an account or a
bot, and nobody took a move back; a seat that conceded counts as last. Two
ladders: ``duel`` (2 players) and ``multi`` (3 to 5), each with its seasons.

Bots sit on the same ladders as fixed anchors: each level has a rating that
no game changes (:data:`BOT_ANCHORS`), so a newcomer's first games against
bots already place them on the scale people are measured on.

Exactly once, whichever process ends the game: the ``rated_games`` row of a
table and every rating it changes are written in one transaction, and each
rating is updated only if nobody updated it since it was read (its game
count); a process that loses such a race reads again and retries, and one
that finds the table rated already stops.
"""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..engine.outcome import outcome
from .favourite_cards import FavouriteCards
from .seat_holders import seat_holders
from .store import Statement, Storage
from .store_errors import StorageConflict

if TYPE_CHECKING:
    from .live_table import LiveTable

__all__ = ["BOT_ANCHORS", "LADDERS", "RatedSeat", "Ratings", "ladder_of"]

LADDERS = ("duel", "multi")
#: The ladder recorded for a finished game that was examined and not rated (a guest, a take-back).
UNRATED = "unrated"
#: How a rated game's public replay link begins (then the table's id): a profile shows it instead
#: of the table's spectator link, which would open the table's socket (and any rematch of it).
RATED_REPLAY = "rated-"
#: A new account's rating (OpenSkill's defaults).
START_MU, START_SIGMA = 25.0, 25.0 / 3
#: Each bot level's fixed rating: what the levels were measured to be worth against one another
#: (docs/bots.md's strength rows), spread on OpenSkill's scale; sigma small, since it never moves.
BOT_ANCHORS: dict[str, float] = {
    "random": 12.0,
    "heuristic": 22.0,
    "tutor": 18.0,
    "ismcts:easy": 24.0,
    "ismcts:normal": 27.0,
    "ismcts:hard": 29.0,
    "ismcts:expert": 30.0,
    "ismcts:master": 31.0,
    "net": 23.0,
    # As net, for now: in 4-player base games 38.3% against three heuristic bots (net 44.2%) and
    # 23.1% against three normal ones (net 10.3%), in 2-player ones about 60-75% against normal
    # (docs/bots.md); an anchor between heuristic's and normal's until the bots' own games rate it.
    # zero-search's levels are not yet measured apart.
    "zero": 23.0,
    "zero-search": 23.0,
}
BOT_SIGMA = 1.0
#: Games before a rating is shown without a provisional mark.
PROVISIONAL_GAMES = 10
_RETRIES = 8
#: The rows of a season's ladder (its ladder and season the two parameters): a deleted or suspended
#: account's rating is kept but not listed.
_LISTED = "r.ladder = ? AND r.season = ? AND a.deleted IS NULL AND a.suspended IS NULL"


def ladder_of(players: int) -> str:
    return "duel" if players == 2 else "multi"


def bot_anchor(spec: str | None) -> float:
    """The fixed rating of a bot seat (a spec it does not list: the heuristic's)."""
    if spec is None:
        return BOT_ANCHORS["heuristic"]
    return BOT_ANCHORS.get(spec, BOT_ANCHORS.get(spec.split(":")[0], BOT_ANCHORS["heuristic"]))


@dataclass(frozen=True, slots=True)
class RatedSeat:
    """One seat of a finished game as rating sees it: an account or a bot, and its place (1: first)."""

    rank: float
    account: str | None = None
    bot: str | None = None


class Ratings:
    """Rates finished games and reads the ladders."""

    def __init__(
        self, store: Storage, clock: Callable[[], float] = time.time, season: int | None = None
    ) -> None:
        self.store = store
        self.clock = clock
        #: A season to use whatever the database says (tests); None: the latest one begun.
        self.season = season
        #: The kinds each player placed most (their profile's favourite cards), tables kept replayed.
        self.favourites = FavouriteCards(store)

    async def season_now(self) -> int:
        """The season being played: the latest begun (``oriflamme admin new-season``), 1 at first."""
        if self.season is not None:
            return self.season
        rows = await self.store.run_statements([("SELECT MAX(number) FROM seasons", ())])
        return int(rows[0][0] or 1)

    async def new_season(self) -> int:
        """Begin the next season: the ladders start afresh, earlier seasons stay readable; its number."""
        number = await self.season_now() + 1
        await self.store.run_statements(
            [("INSERT INTO seasons (number, started) VALUES (?, ?)", (number, self.clock()))]
        )
        return number

    async def rate(self, table_id: str, players: int, seats: Sequence[RatedSeat]) -> bool:
        """Rate one finished game; whether this call rated it (False: rated already, or not rateable)."""
        accounts = [s.account for s in seats if s.account]
        if len(seats) != players or not accounts or len(set(accounts)) != len(accounts):
            return False  # nobody to rate, or one account at two seats
        ladder = ladder_of(players)
        for _ in range(_RETRIES):
            if await self._rated(table_id):
                return False
            season = await self.season_now()
            current = await self._current(ladder, [s.account for s in seats if s.account], season)
            try:
                await self.store.run_statements(
                    self._update(table_id, ladder, seats, current, season), must_change=True
                )
            except StorageConflict:
                continue  # another game changed one of these ratings first (or this table was rated): again
            return True
        raise StorageConflict(f"table {table_id}: ratings kept changing under this update")

    async def rate_table(self, table: LiveTable) -> bool:
        """Rate a table whose game just ended, if it is rateable (see the module's docstring).

        A finished game with an account that is not rateable is noted as examined (``unrated``),
        so that :meth:`rate_missed` looks at each game once."""
        if not table.game.is_over():
            return False
        if await self._rate_table(table):
            return True
        await self.store.run_statements(
            [
                (
                    "INSERT INTO rated_games (table_id, ladder, season, rated) VALUES (?, ?, ?, ?) "
                    "ON CONFLICT (table_id) DO NOTHING",
                    (table.record.id, UNRATED, await self.season_now(), self.clock()),
                )
            ]
        )
        return False

    async def rate_missed(self, load: Callable[[str], Awaitable[LiveTable | None]], limit: int = 500) -> int:
        """Rate the finished games with an account that no process rated (one stopped between storing a
        game's end and its rating); how many were rated. ``load`` reads a table by id."""
        rows = await self.store.run_statements(
            [
                (
                    "SELECT t.id FROM tables t WHERE t.finished AND EXISTS (SELECT 1 FROM account_tokens a "
                    "WHERE a.table_id = t.id AND a.role = 'person') AND NOT EXISTS "
                    "(SELECT 1 FROM rated_games r WHERE r.table_id = t.id) LIMIT ?",
                    (limit,),
                )
            ]
        )
        rated = 0
        for (table_id,) in rows:
            table = await load(table_id)
            if table is not None and await self.rate_table(table):
                rated += 1
        return rated

    async def _rate_table(self, table: LiveTable) -> bool:
        record = table.record
        if table.taken_back:
            return False
        # A deleted or suspended account's seat counts as a guest's: the game is not rated.
        # So does a seat claimed after it had decided something (a won game kept, a lost one not).
        holders = await seat_holders(self.store, record.id)
        accounts = {holder.seat: holder.account for holder in holders if not holder.late}
        ranks = outcome(table.game).ranks
        seats = []
        for i, seat in enumerate(record.seats):
            # A seat that conceded is last, whatever its bot stand-in made of it.
            rank = float(record.players + 1) if i in table.conceded else ranks[i]
            if seat.kind == "bot":
                seats.append(RatedSeat(rank, bot=seat.bot))
            elif i in accounts:
                seats.append(RatedSeat(rank, account=accounts[i]))
            else:
                return False  # a guest's seat: the game is not rated
        return await self.rate(record.id, record.players, seats)

    async def seat_ratings(self, table: LiveTable) -> dict[int, dict[str, Any]]:
        """Each seat's rating on the table's ladder, where it has one: an account's, or a bot's anchor."""
        record = table.record
        ladder = ladder_of(record.players)
        rows = await self.store.run_statements(
            [
                (
                    "SELECT t.seat, r.mu, r.sigma, r.games FROM account_tokens t "
                    "JOIN ratings r ON r.account_id = t.account_id JOIN accounts a ON a.id = t.account_id "
                    "WHERE t.table_id = ? AND t.role = 'person' AND r.ladder = ? AND r.season = ? "
                    "AND a.deleted IS NULL AND a.suspended IS NULL",
                    (record.id, ladder, await self.season_now()),
                )
            ]
        )
        found: dict[int, dict[str, Any]] = {
            seat: {"rating": round(mu - 3 * sigma, 2), "provisional": games < PROVISIONAL_GAMES}
            for seat, mu, sigma, games in rows
        }
        for i, seat in enumerate(record.seats):
            if seat.kind == "bot":
                found[i] = {"rating": round(bot_anchor(seat.bot) - 3 * BOT_SIGMA, 2), "provisional": False}
        return found

    async def was_rated(self, table_id: str) -> bool:
        """Whether the game at ``table_id`` was rated (not merely examined): its replay is public."""
        rows = await self.store.run_statements(
            [("SELECT 1 FROM rated_games WHERE table_id = ? AND ladder <> ?", (table_id, UNRATED))]
        )
        return bool(rows)

    async def _rated(self, table_id: str) -> bool:
        rows = await self.store.run_statements(
            [("SELECT 1 FROM rated_games WHERE table_id = ?", (table_id,))]
        )
        return bool(rows)

    async def _current(
        self, ladder: str, accounts: list[str], season: int
    ) -> dict[str, tuple[float, float, int]]:
        marks = ", ".join("?" for _ in accounts)
        rows = await self.store.run_statements(
            [
                (
                    f"SELECT account_id, mu, sigma, games FROM ratings WHERE ladder = ? AND season = ? "
                    f"AND account_id IN ({marks})",
                    (ladder, season, *accounts),
                )
            ]
        )
        return {a: (mu, sigma, games) for a, mu, sigma, games in rows}

    def _update(
        self,
        table_id: str,
        ladder: str,
        seats: Sequence[RatedSeat],
        current: dict[str, tuple[float, float, int]],
        season: int,
    ) -> list[Statement]:
        from openskill.models import PlackettLuce

        model = PlackettLuce()
        teams = []
        for s in seats:
            if s.account is not None:
                mu, sigma, _ = current.get(s.account, (START_MU, START_SIGMA, 0))
            else:
                mu, sigma = bot_anchor(s.bot), BOT_SIGMA
            teams.append([model.rating(mu=mu, sigma=sigma)])
        rated = model.rate(teams, ranks=[s.rank for s in seats])
        now = self.clock()
        statements: list[Statement] = [
            (
                "INSERT INTO rated_games (table_id, ladder, season, rated) VALUES (?, ?, ?, ?)",
                (table_id, ladder, season, now),
            )
        ]
        # In one order of accounts, so that two games rated at once never wait on each other's rows.
        for s, (after,) in sorted(zip(seats, rated, strict=True), key=lambda pair: pair[0].account or ""):
            if s.account is None:
                continue  # an anchor: its rating never moves
            mu, sigma = float(after.mu), float(after.sigma)
            if s.account in current:
                games = current[s.account][2]
                statements.append(
                    (
                        "UPDATE ratings SET mu = ?, sigma = ?, games = games + 1, updated = ? "
                        "WHERE account_id = ? AND ladder = ? AND season = ? AND games = ?",
                        (mu, sigma, now, s.account, ladder, season, games),
                    )
                )
            else:
                statements.append(
                    (
                        "INSERT INTO ratings (account_id, ladder, season, mu, sigma, games, updated) "
                        "VALUES (?, ?, ?, ?, ?, 1, ?)",
                        (s.account, ladder, season, mu, sigma, now),
                    )
                )
            statements.append(
                (
                    "INSERT INTO rating_history (account_id, table_id, ladder, season, rank, mu, sigma, at) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (s.account, table_id, ladder, season, float(s.rank), mu, sigma, now),
                )
            )
        return statements

    async def board(
        self, ladder: str, limit: int = 100, season: int | None = None, offset: int = 0
    ) -> list[dict[str, Any]]:
        """A season's standing on ``ladder`` (default: this season's), best first by the conservative
        rating (mu - 3 sigma); ``offset`` rows skipped (a page of the full ladder), each row's ``rank``
        its place on the whole ladder."""
        season = season or await self.season_now()
        rows = await self.store.run_statements(
            [
                (
                    "SELECT a.name, r.mu, r.sigma, r.games FROM ratings r JOIN accounts a ON a.id = r.account_id "
                    f"WHERE {_LISTED} ORDER BY r.mu - 3 * r.sigma DESC, r.games DESC, a.name LIMIT ? OFFSET ?",
                    (ladder, season, limit, offset),
                )
            ]
        )
        return [
            {
                "rank": offset + i + 1,
                "name": name,
                "rating": round(mu - 3 * sigma, 2),
                "mu": round(mu, 2),
                "sigma": round(sigma, 2),
                "games": games,
                "provisional": games < PROVISIONAL_GAMES,
            }
            for i, (name, mu, sigma, games) in enumerate(rows)
        ]

    async def board_size(self, ladder: str, season: int | None = None) -> int:
        """How many accounts a season's ladder lists (the pages of :meth:`board`).

        Counted as every rating on the ladder less those of deleted or suspended accounts: the
        ratings' index counts the first, and the second are few; joining every rating to its
        account took as long as reading the page itself (19 ms for 8,000 ratings, against 2)."""
        season = season or await self.season_now()
        rows = await self.store.run_statements(
            [
                (
                    "SELECT (SELECT COUNT(*) FROM ratings WHERE ladder = ? AND season = ?) - (SELECT COUNT(*) "
                    "FROM ratings r WHERE r.ladder = ? AND r.season = ? AND r.account_id IN "
                    "(SELECT id FROM accounts WHERE deleted IS NOT NULL OR suspended IS NOT NULL))",
                    (ladder, season, ladder, season),
                )
            ]
        )
        return int(rows[0][0])

    async def profile(self, account_id: str, last: int = 10) -> dict[str, Any]:
        """What a player's public profile shows: this season's rating and its course on each ladder,
        results by player count and by deck over every season, the last rated games, and the kinds
        they placed most (:mod:`.favourite_cards`)."""
        season = await self.season_now()
        rows = await self.store.run_statements(
            [
                (
                    "SELECT ladder, mu, sigma, games FROM ratings WHERE account_id = ? AND season = ?",
                    (account_id, season),
                )
            ]
        )
        ratings: dict[str, Any] = {ladder: None for ladder in LADDERS}
        for ladder, mu, sigma, games in rows:
            ratings[ladder] = {
                "rating": round(mu - 3 * sigma, 2),
                "games": games,
                "provisional": games < PROVISIONAL_GAMES,
            }
        games = await self.store.run_statements(
            [
                (
                    "SELECT h.table_id, h.rank, h.at, t.setup FROM rating_history h "
                    "JOIN tables t ON t.id = h.table_id WHERE h.account_id = ? ORDER BY h.at DESC",
                    (account_id,),
                )
            ]
        )
        by_players: dict[str, dict[str, float]] = {}
        by_deck: dict[str, dict[str, float]] = {}
        recent: list[dict[str, Any]] = []
        for table_id, rank, at, setup_text in games:
            try:
                setup = json.loads(setup_text)
                players, deck = int(setup["players"]), str(setup["deck"])
            except (ValueError, KeyError, TypeError):
                continue  # a damaged row: left out of the figures
            # A shared first place counts as half a win, as the tournaments count it.
            won = 1.0 if rank == 1 else 0.5 if rank == 1.5 else 0.0
            for tally, key in ((by_players, str(players)), (by_deck, deck)):
                entry = tally.setdefault(key, {"games": 0, "wins": 0.0})
                entry["games"] += 1
                entry["wins"] += won
            if len(recent) < last:
                recent.append({"table": table_id, "players": players, "deck": deck, "rank": rank, "at": at,
                               "replay": f"/replay/{RATED_REPLAY}{table_id}"})  # fmt: skip
        return {
            "season": season,
            "ratings": ratings,
            "history": {ladder: await self.history(account_id, ladder) for ladder in LADDERS},
            "by_players": by_players,
            "by_deck": by_deck,
            "last_games": recent,
            "favourite_cards": await self.favourites.of(account_id),
            "favourite_games": self.favourites.games,
        }

    async def history(self, account_id: str, ladder: str) -> list[dict[str, Any]]:
        """An account's rating after each rated game on ``ladder`` this season, oldest first."""
        season = await self.season_now()
        rows = await self.store.run_statements(
            [
                (
                    "SELECT table_id, rank, mu, sigma, at FROM rating_history "
                    "WHERE account_id = ? AND ladder = ? AND season = ? ORDER BY at",
                    (account_id, ladder, season),
                )
            ]
        )
        return [
            {"table": t, "rank": rank, "rating": round(mu - 3 * sigma, 2), "at": at}
            for t, rank, mu, sigma, at in rows
        ]
