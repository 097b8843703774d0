"""Self-determinization (``SearchLevel.self_deal``): dealing the searching seat's own secrets again.

A search deals every card its seat cannot see but never its own, so the
other seats in its tree learn from deals that always hold the seat's true
face-down cards. A blind iteration deals those cards among their places as
the other seats see them (Cowling, Powley and Whitehouse, "Emergent bluffing
and inference with Monte Carlo tree search", 2015); the search loop
(:mod:`oriflamme.bots.ismcts`) lets such iterations teach only the other seats.
"""

from __future__ import annotations

import random

from ..engine.game import Game
from ..engine.layout import family_ids
from ..engine.registry import P_ACTOR, P_DATA, P_DATA2
from ..engine.sampler import sample_game
from ..engine.view import SeatView
from ..engine.zones import ASIDE, COVERED, TOP
from .inference import swap_hidden

__all__ = ["own_secrets", "shuffle_secrets"]


def own_secrets(view: SeatView) -> list[int]:
    """The seat's cards whose identity no other seat knows and whose places may be dealt again.

    Its face-down cards on the table and its set-aside cards. Not its hand (its
    legal moves must stay those of the search), not a card the pending decision
    or an effect under way names, and nothing while an effect is under way.
    """
    me = view.seat
    g = sample_game(view, random.Random(0))
    if g.stack or g.pending is None or me is None:
        return []
    p = g.pending
    # P_DATA is mostly a kind or an IP count, but a card for some decisions (the Twin's): a number
    # that only looks like a card id excludes a card for nothing, which is the safe side.
    named = {g.cur, p[P_ACTOR], p[P_DATA], p[P_DATA2]}
    out = []
    for c in family_ids(g.owner, me):
        if c in named or g.up[c] or g.exposed[c] or g.ctrl[c] != me:
            continue
        if g.zone[c] in (TOP, COVERED, ASIDE):
            out.append(c)
    return out if len(out) > 1 else []


def shuffle_secrets(g: Game, secrets: list[int], rng: random.Random) -> None:
    """Deal ``secrets`` among their places at random (each place keeps its IP and tokens)."""
    at = secrets[:]
    for i in range(len(at) - 1, 0, -1):
        j = int(rng.random() * (i + 1))
        if i != j:
            swap_hidden(g, at[i], at[j])
            at[i], at[j] = at[j], at[i]
