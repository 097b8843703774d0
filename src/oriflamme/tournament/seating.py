"""Who sits where in game ``g``: rotation, and the ``permute`` scheme's cycle of orders."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from functools import cache


@cache
def cyclic_orders(players: int) -> tuple[tuple[int, ...], ...]:
    """Every order of the entrants around the table, up to rotation: entrant 0 first, the rest permuted.

    Lexicographic, so the first is ``0, 1, ..., n-1``, the order ``rotate`` keeps.
    """
    return tuple((0, *rest) for rest in itertools.permutations(range(1, players)))


def seating(players: int, game: int, scheme: str = "rotate") -> tuple[int, ...]:
    """Entrant at each seat in game ``game``.

    ``rotate``: entrant ``i`` sits at seat ``(i + game) % players``, so the
    entrants keep one order around the table. ``permute``: games are taken
    in blocks of ``players``; block ``b`` uses cyclic order
    ``b % (players - 1)!`` (see :func:`cyclic_orders`), rotated by ``game %
    players`` as in ``rotate``. Over ``players!`` games every entrant then
    plays every seat equally often and follows every other entrant equally
    often. Both schemes agree on the first ``players`` games.
    """
    if scheme == "rotate":
        order: Sequence[int] = range(players)
    else:
        orders = cyclic_orders(players)
        order = orders[(game // players) % len(orders)]
    shift = game % players
    return tuple(order[(s - shift) % players] for s in range(players))


def seating_rule(scheme: str) -> str:
    """The seating scheme in words, for the ``--json`` output."""
    if scheme == "rotate":
        return "game g seats entrant i at seat (i + g) % players; seat 0 (p1) starts"
    return (
        "game g: cyclic order (g // players) % (players - 1)! of the entrants (entrant 0 first, the "
        "others in lexicographic permutation order), rotated by g % players; seat 0 (p1) starts"
    )
