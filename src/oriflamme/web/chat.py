"""A table's chat: short lines, a rate per connection, spectators only when the host allows, and
the host's say over each seat's voice.

The host is the person at seat 1, who made the table in the lobby (and keeps
seat 1 at its rematches). The chat lives in memory, on every process that has
the table (lines and the host's decisions travel on the bus): a short
conversation at a table, not a record; a restart forgets it.
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any

#: Longest chat line, in characters (after cleaning).
MAX_CHAT = 300
#: Lines a connection may send: at most this many ...
CHAT_BURST = 5
#: ... in this many seconds.
CHAT_WINDOW = 10.0
#: Lines a table remembers for people who join later.
CHAT_KEPT = 50
#: The seat whose person is the table's host.
HOST_SEAT = 0


@dataclass(slots=True)
class TableChat:
    """What a table's chat remembers, and who may speak."""

    lines: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=CHAT_KEPT))
    #: Seats the host silenced.
    muted: set[int] = field(default_factory=set)
    spectators_allowed: bool = False
    #: Numbers lines, so that a line heard twice (here and from the bus) is kept once.
    counter: int = 0

    def add(self, line: dict[str, Any]) -> bool:
        """Keep a line (False if it was kept already)."""
        if any(kept["id"] == line["id"] for kept in self.lines):
            return False
        self.lines.append(line)
        return True

    def remove_seat(self, seat: int) -> None:
        """Forget every line of ``seat`` (the host removed them)."""
        kept = [line for line in self.lines if line.get("seat") != seat]
        self.lines.clear()
        self.lines.extend(kept)

    def state(self) -> dict[str, Any]:
        """What a page shows of the chat: the lines and who may speak."""
        return {"lines": list(self.lines), "muted": sorted(self.muted), "spectators": self.spectators_allowed}


@dataclass(slots=True)
class ChatRate:
    """One connection's recent lines, for its rate."""

    sent: deque[float] = field(default_factory=lambda: deque(maxlen=CHAT_BURST))

    def allow(self, now: float | None = None) -> float:
        """0 if a line may go now (and count it); else the seconds to wait."""
        now = time.monotonic() if now is None else now
        if len(self.sent) == CHAT_BURST and now - self.sent[0] < CHAT_WINDOW:
            return CHAT_WINDOW - (now - self.sent[0])
        self.sent.append(now)
        return 0.0
