"""A table's bots: the bot seats, the stand-ins for people away, and the turn clocks that call them.

A mixin of :class:`~.live_table.LiveTable` (the table's state stays in one object
under one lock); it declares here the table's members it reads.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from typing import TYPE_CHECKING, Any

from ..engine.seeds import derive_seed
from .bot_runners import is_search
from .protocol import dumps
from .store import StorageError, TableRecord
from .store_errors import LeaseLost
from .table_host import STAND_IN, TableHost

if TYPE_CHECKING:
    from ..engine.game import Game

log = logging.getLogger("oriflamme.web")


class TableBots:
    """Who plays when no person does (see the module docstring)."""

    registry: TableHost[Any]
    record: TableRecord
    game: Game
    actions: list[str]
    away: set[int]
    conceded: set[int]
    owned: bool
    bot_task: asyncio.Task[None] | None
    turn_started: float
    last_change: float
    share_key: str
    lock: asyncio.Lock

    if TYPE_CHECKING:

        @property
        def state(self) -> int: ...

        def clocks_run(self) -> bool: ...

        def watched(self) -> bool: ...

        def send_all(self, text: str) -> None: ...

        def broadcast_presence(self, coming_and_going: bool = False) -> None: ...

        def release_if_done(self) -> None: ...

        async def _commit(self, seat: int, action: int, received: float, by_person: bool = True) -> None: ...

    def schedule_bot(self) -> None:
        """Start the bot whose turn it is, unless one is already thinking (or another process owns the table)."""
        g = self.game
        if self.bot_task is not None or g.is_over() or self.registry.closing or not self.owned:
            return
        seat = g.current_player()
        s = self.record.seats[seat]
        timer: float | None = None
        if s.kind == "bot" and s.bot is not None:
            spec = s.bot
        elif seat in self.away:
            spec = STAND_IN  # the person left or let their timer run out: a bot plays until they return
        elif self.record.turn_seconds and self.clocks_run():
            spec = STAND_IN
            timer = max(0.0, self.turn_started + self.record.turn_seconds - time.time())
        else:
            return
        if is_search(spec) and not self.watched():
            return  # nobody has the table open: its search gets no time until somebody does
        self.bot_task = asyncio.create_task(self._bot_move(seat, spec, self.state, timer))
        self.registry.bot_tasks.add(self.bot_task)
        self.bot_task.add_done_callback(self._bot_done)

    def turn_left(self) -> float | None:
        """Seconds before a bot plays the decision now asked, when a person's turn timer runs."""
        g = self.game
        if not self.record.turn_seconds or g.is_over() or not self.clocks_run():
            return None
        seat = g.current_player()
        if self.record.seats[seat].kind != "person" or seat in self.away:
            return None
        return max(0.0, self.turn_started + self.record.turn_seconds - time.time())

    def restart_bot(self) -> None:
        """The position changed under a waiting bot (a person acted, or came back): think again."""
        if self.bot_task is not None:
            self.bot_task.cancel()
            self.bot_task = None
        self.schedule_bot()

    def set_away(self, seat: int, away: bool) -> bool:
        """Mark a person seat as played by a bot (or no longer); True if that changed anything."""
        if self.record.seats[seat].kind != "person" or (seat in self.away) == away:
            return False
        if not away and seat in self.conceded:
            return False  # a conceded seat is played by a bot to the end
        if away:
            self.away.add(seat)
        else:
            self.away.discard(seat)
        self.broadcast_presence()
        if self.owned:
            self.restart_bot()
        self.broadcast_clock()
        return True

    def broadcast_clock(self) -> None:
        """The time left for the decision now asked changed without a move (a seat left or came back)."""
        self.send_all(dumps({"type": "clock", "state": self.state, "turn_left": self.turn_left()}))

    def _bot_done(self, task: asyncio.Task[None]) -> None:
        self.registry.bot_tasks.discard(task)
        if self.bot_task is task:
            self.bot_task = None
        if not task.cancelled():
            self.schedule_bot()
        self.release_if_done()

    async def _bot_move(self, seat: int, spec: str, state: int, timer: float | None = None) -> None:
        """``spec`` plays ``seat``'s decision at ``state``; with ``timer``, only once that many
        seconds have passed with nothing played (a person's turn timer), and the seat is then away."""
        g = self.game
        if timer is not None:
            await asyncio.sleep(timer)
            if self.state != state or not self.owned:
                return
            log.info("table %s: seat %d let the turn timer run out; a bot plays for it", self.record.id, seat)
            if seat not in self.away:
                self.away.add(seat)
                self.broadcast_presence()
                self.registry.announce_away(self, seat, True)
        view = g.view(seat)
        # Seeded by the position (the actions in play), not the state number: after a take-back
        # the bots answer the same position the same way, so it cannot be used to re-roll them.
        seed = derive_seed("table-bot", self.record.seed, len(self.actions), seat)
        try:
            if is_search(spec):
                runner = self.registry.bot_runner
                action = await self.registry.bot_share.run(
                    self.share_key, lambda: runner.choose(spec, seed, view)
                )
            else:
                action = await self.registry.bot_runner.choose(spec, seed, view)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception(
                "bot %s failed at table %s, state %d; playing at random", spec, self.record.id, state
            )
            action = -1
        wait = self.registry.bot_delay - (time.monotonic() - self.last_change)
        if wait > 0:
            await asyncio.sleep(wait)
        # Shielded: a restart of the bot (somebody left or came back) must not cut a move in half,
        # its row stored and the table not told.
        await asyncio.shield(self._bot_commit(g, seat, action, state, seed, spec))

    async def _bot_commit(self, g: Game, seat: int, action: int, state: int, seed: int, spec: str) -> None:
        async with self.lock:
            if self.state != state or self.game is not g or g.current_player() != seat or not self.owned:
                return
            if action not in g.legal_actions():
                if action != -1:
                    log.error("bot %s chose an illegal action %r; playing at random", spec, action)
                action = random.Random(seed).choice(g.legal_actions())
            started = time.perf_counter()
            try:
                await self._commit(seat, action, started, by_person=False)
            except LeaseLost:
                self.registry.lost(self)
            except StorageError:
                log.exception("table %s: could not store a bot action", self.record.id)
