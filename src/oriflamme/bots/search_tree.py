"""The observer's search tree: what a node holds, and which child an action leads to.

Kept apart from the search loop (:mod:`oriflamme.bots.ismcts`) because tree
reuse (:mod:`oriflamme.bots.tree_reuse`) keeps nodes between decisions too.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine.actions import ARG_MASK, PLACE_FIRST, PLACE_LAST, PLACE_ON, SHIFT, SWAP
from ..engine.game import Game

__all__ = ["Node", "descend", "observed", "ranked_actions"]

_PLACE_VERBS = (PLACE_FIRST, PLACE_LAST, PLACE_ON)


class Node:
    """What the observer knows at one point of the history: per-edge statistics and children."""

    __slots__ = ("stats", "children", "visits")

    def __init__(self) -> None:
        self.visits = 0
        #: statistics key -> [visits, reward sum, availability]
        self.stats: dict[int, list[float]] = {}
        #: observed action -> child node
        self.children: dict[int, Node] = {}


def ranked_actions(actions: Sequence[int], root: Node) -> list[int]:
    """The root's actions, most visited first, then the higher reward sum; ties keep legal order.

    The order both searches play and report in (the first is the move played). The root is the
    deciding seat's own decision, so its statistics are keyed by the plain action.
    """
    stats = root.stats
    return sorted(actions, key=lambda a: (-stats[a][0], -stats[a][1]) if a in stats else (1.0, 0.0))


def descend(node: Node, g: Game, a: int, seat: int, me: int) -> Node:
    """Play ``a`` in ``g`` and go to the child of ``node`` that the observer sees it lead to."""
    key = observed(g, a, seat, me)
    g.apply(a)
    child = node.children.get(key)
    if child is None:
        child = node.children[key] = Node()
    return child


def observed(g: Game, a: int, seat: int, me: int) -> int:
    """The action as the observer sees it: an opponent's hidden card is masked out."""
    if seat == me:
        return a
    verb = a >> SHIFT
    if verb in _PLACE_VERBS:
        c = (a & ARG_MASK) >> 8 if verb == PLACE_ON else a & ARG_MASK
        if g.up[c]:
            return a  # a publicly known card (the Twin, an Informant taken back)
        return verb << SHIFT | (0xFF00 | a & 255 if verb == PLACE_ON else ARG_MASK)
    if verb == SWAP:
        return SWAP << SHIFT | ARG_MASK
    return a
