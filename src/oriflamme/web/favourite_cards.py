"""A player's favourite cards, for their public profile: the kinds they placed most often.

Definition: over the account's last :data:`FAVOURITE_GAMES` rated games (every
ladder, every season), each ``place`` action its own seat played counts once
for the kind placed; the kinds are ranked by those counts (then by the number
of games they were placed in, then by name). Placing is the one choice a
player makes with every card, and the replay of a finished game says who
placed what, so the figure is cheap and exact. Only finished games count
(a rated game is one), whose every card is public in their replay already.

A game counts where the account holds its seat's link (``account_tokens``):
that is how a seat is known to be theirs. A game whose seat its owner forgot
(hidden, still theirs for rating) drops out, as it drops out of their "My games".

What each seat placed in a finished game never changes, so it is computed
once per table and process (replaying a game takes well under a millisecond
per action, reading its rows a query or two) and kept in a bounded cache.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter, OrderedDict
from typing import Any

from ..engine.errors import OriflammeError
from ..engine.events import Event
from ..engine.game import Game
from ..engine.setup import Setup
from ..notation.replay import replay
from .store import Storage
from .table_game import effective_actions, table_setup

__all__ = ["FAVOURITE_CARDS", "FAVOURITE_GAMES", "FavouriteCards", "placed_by_seat"]

log = logging.getLogger("oriflamme.web")

#: The rated games, newest first, a profile's favourite cards are counted over.
FAVOURITE_GAMES = 50
#: The kinds a profile lists.
FAVOURITE_CARDS = 5
#: Finished tables whose placements a process keeps (each a few small counters).
_CACHED_TABLES = 4096


def placed_by_seat(setup: Setup, actions: list[str], version: int) -> list[Counter[str]]:
    """Each seat's placements in a game: kind slug -> how many times that seat placed one.

    ``setup`` is the table's deal; ``actions`` its stored
    rows (take-backs applied here) written in action-sequence ``version``."""
    placed: list[Counter[str]] = [Counter() for _ in range(setup.players)]

    def step(_: Game, __: list[Event], text: str | None, actor: int) -> None:
        if text is not None and text.startswith("place ") and actor >= 0:
            placed[actor][text.split()[1]] += 1

    replay(setup, effective_actions(actions), step, version=version)
    return placed


class FavouriteCards:
    """Counts a player's placements over their last rated games, each table replayed once per process."""

    def __init__(self, store: Storage, games: int = FAVOURITE_GAMES) -> None:
        self.store = store
        self.games = games
        self._placed: OrderedDict[str, list[Counter[str]]] = OrderedDict()

    async def of(self, account_id: str, shown: int = FAVOURITE_CARDS) -> list[dict[str, Any]]:
        """The account's most placed kinds: ``[{card, placed, games}]``, most placed first."""
        rows = await self.store.run_statements(
            [
                (
                    "SELECT h.table_id, k.seat FROM rating_history h JOIN account_tokens k "
                    "ON k.table_id = h.table_id AND k.account_id = h.account_id AND k.role = 'person' AND NOT k.hidden "
                    "WHERE h.account_id = ? ORDER BY h.at DESC, h.table_id LIMIT ?",
                    (account_id, self.games),
                )
            ]
        )
        placed: Counter[str] = Counter()
        games: Counter[str] = Counter()
        for table_id, seat in rows:
            by_seat = await self._table(table_id)
            if by_seat is None or not 0 <= seat < len(by_seat):
                continue
            placed.update(by_seat[seat])
            games.update(by_seat[seat].keys())
        ranked = sorted(placed, key=lambda kind: (-placed[kind], -games[kind], kind))
        return [{"card": kind, "placed": placed[kind], "games": games[kind]} for kind in ranked[:shown]]

    async def _table(self, table_id: str) -> list[Counter[str]] | None:
        """What each seat placed at a finished table (None: not readable, left out)."""
        if table_id in self._placed:
            self._placed.move_to_end(table_id)
            return self._placed[table_id]
        stored = await self.store.load_table(table_id)
        if stored is None or not stored.finished:
            return None
        try:
            # Off the event loop, which every table shares: a cold profile replays dozens of games.
            by_seat = await asyncio.to_thread(
                placed_by_seat, table_setup(stored.record), stored.actions, stored.actions_version
            )
        except (OriflammeError, KeyError, ValueError) as exc:
            log.warning("table %s left out of favourite cards: %s", table_id, exc)
            return None
        self._placed[table_id] = by_seat
        while len(self._placed) > _CACHED_TABLES:
            self._placed.popitem(last=False)
        return by_seat
