"""Tree reuse: the subtree a search keeps for its seat's next decision, and when it still counts."""

from __future__ import annotations

import dataclasses
import random

from ..engine.sampler import sample_game
from ..engine.view import SeatView
from .search_tree import Node

__all__ = ["Kept", "known_cards"]


class Kept:
    """A subtree kept after a decision, for the same seat's next one (tree reuse).

    The subtree below the action played holds simulations of what follows it,
    dealt from what the seat knew then. They still count for the next
    decision only if the seat has learned nothing in between: the one action
    applied since is its own (``state_number`` went up by one; a forced
    answer of its own may add more, see :meth:`after_forced`), the round is
    the same (the horizon counts from it), no card became known to it (every
    card whose identity the new view shows, the old one showed), and the new
    view is the one that action leads to in a deal of the old view (so a
    caller that applied another action, or a consequence that depended on
    hidden cards, discards the subtree). Scores and IP that moved follow from
    what was public.
    """

    __slots__ = ("seat", "state_number", "round", "known", "node", "expected")

    def __init__(self, view: SeatView, node: Node, action: int) -> None:
        self.seat = view.seat
        self.state_number = view.state_number + 1
        self.round = view.round
        self.known = known_cards(view)
        self.node = node
        #: The seat's view after ``action`` in a deal of ``view`` (its own generator: the bot's
        #: random numbers are untouched), with the action count left out.
        after = sample_game(view, random.Random(0))
        after.apply(action)
        self.expected = dataclasses.replace(after.view(view.seat), state_number=0)

    def _unchanged(self, view: SeatView) -> bool:
        return (
            view.seat == self.seat
            and view.state_number == self.state_number
            and view.round == self.round
            and known_cards(view) <= self.known
            and dataclasses.replace(view, state_number=0) == self.expected
        )

    def after_forced(self, view: SeatView) -> Kept | None:
        """Still valid after the seat's one-option answer in ``view`` (no node: it was no choice)."""
        if not self._unchanged(view):
            return None
        kept = Kept(view, self.node, view.legal_actions[0])
        kept.known = self.known
        return kept

    def subtree_for(self, view: SeatView) -> Node | None:
        """The kept subtree as the root of ``view``'s decision, or None if the seat learned something."""
        if not self._unchanged(view):
            return None
        legal = set(view.legal_actions)
        if not all(a in legal for a in self.node.stats):
            return None  # not this decision's node (another seat's, or salted keys)
        return self.node


def known_cards(view: SeatView) -> frozenset[int]:
    """The ids of every card whose identity ``view`` shows."""
    known = {c.id for c in view.hand}
    known.update(c.id for c in view.aside)
    for stack in view.queue:
        known.update(c.id for c in stack)
    for piles in (view.known_hands, view.twins, view.discards, view.kept):
        for pile in piles:
            known.update(c.id for c in pile)
    known.discard(None)
    return frozenset(k for k in known if k is not None)
