"""The heuristic bot: a seat's view in, one legal action out."""

from __future__ import annotations

import random

from ...engine.sampler import sample_game
from ...engine.view import SeatView
from .policy import heuristic_action


class HeuristicBot:
    """Plays :func:`heuristic_action` from its seat's view; deterministic given its seed."""

    def __init__(self, seed: int | None = None) -> None:
        self.spec = "heuristic"
        self.rng = random.Random(seed)

    def choose(self, view: SeatView) -> int:
        actions = view.legal_actions
        if len(actions) == 1:
            return actions[0]
        return heuristic_choice(view, self.rng)


def heuristic_choice(view: SeatView, rng: random.Random | None = None) -> int:
    """What the heuristic policy plays from ``view`` (ties broken by ``rng``, or a fixed generator).

    The dealt unknown cards are never read by the policy; a fixed generator
    keeps them (and so nothing at all) from depending on the caller's stream.
    """
    g = sample_game(view, random.Random(0))
    return heuristic_action(g, rng if rng is not None else random.Random(0))
