"""What a live table remembers so that a person may take back their last decision.

A take-back is offered while no other person has decided since, and while
nothing since (the decision's own consequences and the bots' moves after it)
named a card the seat did not know then (:func:`~oriflamme.engine.takeback.learned`):
withdrawing a move must never hide again what somebody has seen.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine.events import Event
from ..engine.game import Game
from ..engine.takeback import learned


class TakeBacks:
    """The seat that took each action in play, and each person's last decision here."""

    def __init__(self) -> None:
        #: The seat that took each action in play (-1: read from the store, not needed).
        self.actors: list[int] = []
        #: For each person seat, its last decision here: the action's number and the game just before it.
        self.last_decision: dict[int, tuple[int, Game]] = {}

    def remember(self, seat: int, before: Game, played: int, person: bool, by_person: bool = True) -> None:
        """Note that ``seat`` takes action number ``played``, from the game ``before`` it.

        A stand-in bot's move for an absent person is not theirs to take back.
        """
        while len(self.actors) < played:
            self.actors.append(-1)
        self.actors.append(seat)
        if person:
            if by_person:
                self.last_decision[seat] = (played, before.clone())
            else:
                self.last_decision.pop(seat, None)

    def refusal(
        self, seat: int, played: int, events: Sequence[Sequence[Event]], people: Sequence[int]
    ) -> str | None:
        """Why ``seat`` may not take back its last decision (None: it may).

        ``played`` is the number of actions in play, ``events`` the events of each step (the deal
        first), ``people`` the person seats.
        """
        found = self.last_decision.get(seat)
        if found is None or found[0] >= played:
            return "you have no decision to take back here"
        index, before = found
        if any(s in people and s != seat for s in self.actors[index:]):
            return "another player has decided since"
        since = [e for step in events[index + 1 :] for e in step]
        if learned(before, since, seat):
            return "you have seen something since"
        if any(learned(before, since, other) for other in people if other != seat):
            # Withdrawing it would turn face down again a card another player has seen.
            return "a card was shown to another player since"
        return None

    def decision(self, seat: int) -> int:
        """The number of ``seat``'s last decision (a refusal of None says there is one)."""
        return self.last_decision[seat][0]

    def game_before(self, index: int) -> Game | None:
        """A copy of the game just before action ``index``, if a person's decision kept it."""
        for played, before in self.last_decision.values():
            if played == index:
                return before.clone()
        return None

    def withdraw(self, index: int) -> None:
        """Actions from ``index`` on are withdrawn; nobody else takes back past them: they saw them happen."""
        del self.actors[index:]
        self.last_decision = {}
