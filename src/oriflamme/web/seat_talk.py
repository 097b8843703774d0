"""A table's people talking: chat and its moderation, leaving and coming back, conceding, names.

A mixin of :class:`~.live_table.LiveTable` (the table's state stays in one object
under one lock); it declares here the table's members it reads.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import table_messages
from .chat import HOST_SEAT, TableChat
from .client import Client
from .friends import seats_not_hearing, seats_unheard_by
from .names import RESERVED_NAME, clean_name, looks_like_a_default_name
from .protocol import ChatModMessage, ProtocolError, dumps
from .store import TableRecord
from .table_host import TableHost

if TYPE_CHECKING:
    from ..engine.game import Game


class SeatTalk:
    """What a seat says to its table besides its moves (see the module docstring)."""

    registry: TableHost[Any]
    record: TableRecord
    game: Game
    chat: TableChat
    conceded: set[int]
    away: set[int]
    clients: dict[Client, None]

    if TYPE_CHECKING:

        @property
        def state(self) -> int: ...

        def send_all(self, text: str) -> None: ...

        def set_away(self, seat: int, away: bool) -> bool: ...

        def broadcast_presence(self, coming_and_going: bool = False) -> None: ...

    # -- chat

    async def say(self, client: Client, text: str) -> None:
        """A line from a connection: checked, kept, and sent here and elsewhere to every seat whose
        account does not block the speaker's (spectators' lines reach everyone)."""
        cluster = self.registry.cluster
        said = self.chat.new_line(
            client.seat,
            text,
            lambda: self.count("chat", client),
            "local" if cluster is None else cluster.worker,
        )
        # Asked at each line: blocks and the seats' accounts change while a game goes on.
        unheard = (
            frozenset()
            if client.seat is None
            else await seats_not_hearing(self.registry.store, self.record.id, client.seat)
        )
        self.heard(said, unheard)
        self.registry.announce_chat(self, {"k": "ch", "l": said, "x": sorted(unheard)})

    def heard(self, line: dict[str, Any], unheard: frozenset[int] = frozenset()) -> None:
        if self.chat.add(line, unheard):
            text = dumps({"type": "chat", "state": self.state, "line": line})
            for client in list(self.clients):
                if client.seat not in unheard:
                    client.send(text)

    def moderate(self, client: Client, msg: ChatModMessage) -> None:
        """The host silences, lets speak or clears a seat, or opens the chat to spectators."""
        host_is_person = self.record.seats[HOST_SEAT].kind == "person"
        change = self.chat.moderation(client.seat, host_is_person, msg, self.record.players)
        self.count("chat_mod", client)
        self.moderated(change)
        self.registry.announce_chat(self, {"k": "cm", "c": change})

    def moderated(self, change: dict[str, Any]) -> None:
        self.chat.apply(change, self.record.players)
        self.send_chat_state()

    async def deaf_to(self, seat: int | None) -> frozenset[int]:
        """The seats whose accounts the account holding ``seat`` blocks: their lines said before the
        block are not shown to ``seat`` either (a newcomer's chat; later lines are never sent)."""
        if seat is None:
            return frozenset()
        return await seats_unheard_by(self.registry.store, self.record.id, seat)

    def send_chat_state(self, client: Client | None = None, deaf_to: frozenset[int] = frozenset()) -> None:
        """The chat's state to ``client`` (None: everyone), each seat seeing the lines for it."""
        texts: dict[int | None, str] = {}
        for c in [client] if client is not None else list(self.clients):
            seat = c.seat
            if seat not in texts:
                texts[seat] = dumps(
                    {"type": "chat_state", "state": self.state, **self.chat.state(seat, deaf_to)}
                )
            c.send(texts[seat])

    # -- leaving and coming back

    def count(self, what: str, client: Client) -> None:
        """Count a message that makes this table hear something against its sender's rate
        (:mod:`.seat_rates`: per seat, whichever of its connections sends); ProtocolError over it."""
        self.registry.rates.check(what, self.record.id, client.seat, client.address)

    def _seat_in_play(self, client: Client, doing: str) -> int:
        """``client``'s seat, if it has one and the game goes on (ProtocolError otherwise)."""
        seat = client.seat
        if seat is None:
            raise ProtocolError("not_a_player", f"only a player can {doing}")
        if self.game.is_over():
            raise ProtocolError("game_over", "the game is over")
        return seat

    def leave_or_return(self, client: Client, away: bool) -> None:
        """A person hands their seat to a bot (``away``), or takes it back."""
        seat = self._seat_in_play(client, "leave or take back a seat")
        if seat in self.conceded:
            raise ProtocolError("conceded", "this seat was conceded: a bot plays it to the end")
        if (seat in self.away) == away or self.record.seats[seat].kind != "person":
            return  # nothing would change, and nobody is told
        self.count("away", client)
        if self.set_away(seat, away):
            self.registry.announce_away(self, seat, away)

    async def concede(self, client: Client) -> None:
        """A person gives up for good: stored, then a bot plays the seat to the end."""
        seat = self._seat_in_play(client, "concede")
        if seat in self.conceded:
            return
        await self.registry.store.concede(self.record.id, seat)
        self.conceded_by(seat)
        self.registry.announce_concession(self, seat)

    def conceded_by(self, seat: int) -> None:
        self.conceded.add(seat)
        if not self.set_away(seat, True):
            self.broadcast_presence()

    # -- names

    async def rename(self, client: Client, text: str) -> None:
        """A person names their own seat: cleaned, stored, then shown to everyone (here and elsewhere)."""
        seat = client.seat
        if seat is None:
            raise ProtocolError("not_a_player", "only a player can name their seat")
        name = clean_name(text)
        if not name:
            raise ProtocolError("bad_name", "a name needs at least one visible character")
        if looks_like_a_default_name(name):
            raise ProtocolError("reserved_name", RESERVED_NAME)
        self.count("rename", client)
        await self.registry.store.rename_seat(self.record.id, seat, name)
        self.renamed(seat, name)
        self.registry.announce_rename(self, seat, name)

    def renamed(self, seat: int, name: str) -> None:
        self.record = self.record.renamed(seat, name)
        self.send_all(
            dumps(
                {
                    "type": "seats",
                    "state": self.state,
                    "seats": table_messages.table_info(self.record)["seats"],
                }
            )
        )
