"""The information-state log of ``python_oriflamme``: what each seat has been told, step by step.

A seat's information-state string is ``p<n>|`` then one text per entry, joined
by ``|``: the first player, each seat's set-aside cards (``?`` to the
others), and for every step who decided what kind of decision, the seat's own
choice, and the events as redacted for that seat (``engine.view.redact``).

**Why it is a chain of shared entries.** OpenSpiel's searches clone a state
at every simulation and apply hundreds of actions to clones whose
information state no one asks for. So the log is a chain of immutable
entries shared by every clone: a step appends one entry holding the engine's
events, and the text (the events redacted and encoded for a seat) is made
only when a seat's string is asked for, then kept on that entry for the next
question. The observation string (:func:`observation_text`) lives here too:
a resampled world tells the other seats their view of it as such a text.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from typing import Any

from ..encoding.actions import index_name
from ..engine.cards import SLUGS
from ..engine.events import Event
from ..engine.game import Game
from ..engine.view import redact

__all__ = [
    "AsideEntry",
    "LogEntry",
    "NoteEntry",
    "ResampledEntry",
    "RestoredEntry",
    "StepEntry",
    "info_string",
    "observation_text",
    "pile_text",
]


class LogEntry(ABC):
    """One entry of the information-state log, shared by every state descending from it.

    Never changed once made, except ``texts``: each seat's whole information
    string up to here, kept once asked for (the next entry's string is this
    one plus its own text, and OpenSpiel's search asks again and again).
    """

    __slots__ = ("prev", "texts")

    def __init__(self, prev: LogEntry | None) -> None:
        self.prev = prev
        self.texts: dict[int, str] | None = None

    @abstractmethod
    def text(self, seat: int) -> str | None:
        """This entry as ``seat`` is told it (None: nothing)."""

    def earlier_seat(self, seat: int) -> int:
        """Whose log the entries before this one are, for ``seat`` (a resample changes it)."""
        return seat


class NoteEntry(LogEntry):
    """An entry every seat is told alike (the first player)."""

    __slots__ = ("note",)

    def __init__(self, prev: LogEntry | None, note: str) -> None:
        super().__init__(prev)
        self.note = note

    def text(self, seat: int) -> str:
        return self.note


class AsideEntry(LogEntry):
    """A seat's set-aside cards: by name and card id to itself, ``?`` to the others."""

    __slots__ = ("seat", "pile", "kinds")

    def __init__(
        self, prev: LogEntry | None, seat: int, pile: tuple[int, ...], kinds: tuple[int, ...]
    ) -> None:
        super().__init__(prev)
        self.seat = seat
        self.pile = pile
        self.kinds = kinds

    def text(self, seat: int) -> str:
        return f"p{self.seat + 1} aside " + (pile_text(self.pile, self.kinds) if seat == self.seat else "?")


class StepEntry(LogEntry):
    """A player's action: its decision kind, the action to the mover alone, the events as each seat is told."""

    __slots__ = ("table", "mover", "decision", "action", "events")

    def __init__(
        self,
        prev: LogEntry | None,
        table: Game,
        mover: int,
        decision: str | None,
        action: int,
        events: list[Event],
    ) -> None:
        # The base's two fields set here: this is the one entry made at every step of every playout.
        self.prev = prev
        self.texts = None
        #: The game the step was taken in; redaction reads only what never changes (kinds, owners).
        self.table = table
        self.mover = mover
        self.decision = decision
        self.action = action
        self.events = events

    def text(self, seat: int) -> str:
        told = ";".join(
            json.dumps(redact(self.table, e, seat), sort_keys=True, separators=(",", ":"))
            for e in self.events
        )
        mine = f" {index_name(self.action)}" if seat == self.mover else ""
        return f"p{self.mover + 1} {self.decision}{mine}: {told}"


class ResampledEntry(LogEntry):
    """A resampled world starts here: every seat's earlier log is the resampling seat's.

    The other seats are told their view of the new world (``world``, a copy
    taken when it was dealt), so that their information states stay
    consistent within one world; while dealing there is nothing to tell.
    """

    __slots__ = ("viewer", "world")

    def __init__(self, prev: LogEntry | None, viewer: int, world: Game | None) -> None:
        super().__init__(prev)
        self.viewer = viewer
        self.world = world

    def text(self, seat: int) -> str | None:
        if seat == self.viewer or self.world is None:
            return None
        return f"as p{seat + 1}: {observation_text(self.world, seat)}"

    def earlier_seat(self, seat: int) -> int:
        return self.viewer


class RestoredEntry(LogEntry):
    """The first entry of a deserialized state: every seat's information string, as serialized."""

    __slots__ = ()

    def __init__(self, texts: tuple[str, ...]) -> None:
        super().__init__(None)
        self.texts = dict(enumerate(texts))

    def text(self, seat: int) -> str:  # pragma: no cover - its texts answer for every seat
        raise AssertionError("a restored log answers from its texts")


def _prefix(seat: int) -> str:
    return f"p{seat + 1}|"


def info_string(log: LogEntry | None, seat: int) -> str:
    """``seat``'s information string at ``log``: ``p<n>|`` then its entries' texts joined by ``|``.

    Walks back only to the nearest entry whose string for that seat is
    known, and keeps the result on ``log``.
    """
    pieces: list[str] = []
    node = log
    s = seat
    known = _prefix(seat)
    while node is not None:
        texts = node.texts
        if texts is not None and s in texts:
            known = _prefix(seat) + texts[s][len(_prefix(s)) :] if s != seat else texts[s]
            break
        text = node.text(s)
        if text is not None:
            pieces.append(text)
        s = node.earlier_seat(s)
        node = node.prev
    if pieces:
        pieces.reverse()
        joined = "|".join(pieces)
        known = f"{known}|{joined}" if len(known) > len(_prefix(seat)) else known + joined
    if log is not None:
        if log.texts is None:
            log.texts = {}
        log.texts[seat] = known
    return known


def pile_text(pile: tuple[int, ...], kinds: tuple[int, ...]) -> str:
    # Card ids too: in the 2-player variant a family has two cards (two colours) of each kind.
    return ",".join(f"{SLUGS[kinds[c]]}#{c}" for c in pile)


def observation_text(game: Game, seat: int) -> str:
    """The seat's view as JSON, without what the information state does not hold either."""
    view = game.view(seat).to_dict()
    # Not the number of actions so far (a resampled world has no history), and cards by
    # kind only: in the 2-player variant, which copy of a kind is which is not in the
    # information state either.
    del view["state_number"]
    _drop_ids(view)
    return json.dumps(view, sort_keys=True, separators=(",", ":"))


def _drop_ids(value: Any) -> None:
    """Remove every card ``id`` from a view's plain data, in place."""
    if isinstance(value, dict):
        value.pop("id", None)
        for v in value.values():
            _drop_ids(v)
    elif isinstance(value, list):
        for v in value:
            _drop_ids(v)
