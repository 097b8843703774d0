"""Taking back a decision, but never acting on what it showed.

A person who mis-types ``reveal`` for ``keep`` wants it back, but a take-back
must not become a free look: after revealing a card, seeing an Ambush spring
or watching another player answer, going back and choosing again would be
acting on information the table did not give at the time. So a decision may
be taken back only while the seat has learned nothing since it:

- nobody else has decided since (another player's choice always says
  something), and
- the decision's own consequences named no card the seat did not know
  before it (a revealed or eliminated face-down card, a sprung Ambush or
  Trap, a card swapped in by another family...).

Numbers that move (IP, scores, verdict tokens) follow from what was public
before the decision and teach nothing. A take-back restores the game as it
was before the decision, so the same seat decides again; several can follow
one another while each one is allowed.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final, Literal

from .events import FIELDS, Event
from .game import Game
from .state import SLOTS
from .view import knows

#: Why a take-back is refused (``None`` from :meth:`Timeline.refusal`: it is allowed).
Refusal = Literal["none", "others", "learned"]

_CARD_EXTRAS: Final = ("by_card", "hand_card")


@dataclass(frozen=True, slots=True)
class Step:
    """One decision: the game just before it, who took it, and what it caused."""

    before: Game
    seat: int
    events: tuple[Event, ...]


class Timeline:
    """The decisions played since a game was opened here, each with the state before it."""

    def __init__(self) -> None:
        self.steps: list[Step] = []

    def apply(self, game: Game, action: int) -> list[Event]:
        """Play ``action`` in ``game``, remembering the state before it; its events."""
        before = game.clone()
        seat = game.current_player()
        events = game.apply(action)
        self.steps.append(Step(before, seat, tuple(events)))
        return events

    def refusal(self, seat: int) -> Refusal | None:
        """Why ``seat`` may not take back its last decision now, or None if it may."""
        if not self.steps:
            return "none"
        last = self.steps[-1]
        if last.seat != seat:
            mine = any(step.seat == seat for step in self.steps)
            return "others" if mine else "none"
        if any(_tells(last.before, event, seat) for event in last.events):
            return "learned"
        return None

    def take_back(self, game: Game, seat: int) -> Step:
        """Put ``game`` back as it was before ``seat``'s last decision; that decision's step.

        The game object is restored in place, so whoever holds it sees the
        restored state. Raises ValueError when :meth:`refusal` gives a reason.
        """
        why = self.refusal(seat)
        if why is not None:
            raise ValueError(f"p{seat + 1} cannot take back a decision now ({why})")
        step = self.steps.pop()
        restored = step.before.clone()
        for name in SLOTS:
            setattr(game, name, getattr(restored, name))
        return step


def learned(before: Game, events: Iterable[Event], seat: int) -> bool:
    """Whether any of ``events`` (from a decision taken at ``before`` on) told ``seat`` of a card it
    did not know then: a take-back past them would act on what they showed."""
    return any(_tells(before, event, seat) for event in events)


def _tells(before: Game, event: Event, seat: int) -> bool:
    """Whether ``event`` names to ``seat`` a card it did not know before the decision."""
    _code, _who, card, _pos, _n, extra, public = event
    if card >= 0 and (public or before.owner[card] == seat) and not knows(before, card, seat):
        return True
    extra_key = FIELDS[event[0]][1]
    if extra_key in _CARD_EXTRAS and extra >= 0:
        # The eliminating card is face up; a swapped-in hand card is seen by its owner only.
        visible = extra_key == "by_card" or before.owner[extra] == seat
        return visible and not knows(before, extra, seat)
    return False


__all__ = ["Refusal", "Step", "Timeline", "learned"]
