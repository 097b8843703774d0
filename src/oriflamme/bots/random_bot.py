"""The uniformly random bot: the baseline every other bot must beat."""

from __future__ import annotations

import random

from ..engine.view import SeatView


class RandomBot:
    """Picks uniformly among the legal actions."""

    def __init__(self, seed: int | None = None) -> None:
        self.spec = "random"
        self.rng = random.Random(seed)

    def choose(self, view: SeatView) -> int:
        actions = view.legal_actions
        return actions[int(self.rng.random() * len(actions))]
