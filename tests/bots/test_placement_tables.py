"""Placement remembers each kind's priority and loss by rounds left: they must depend on nothing else.

``placement._priority`` is shared between placements for every kind outside
``_PRIORITY_READS_TABLE`` and ``placement._loss`` for every kind, keyed by the
rounds left. If a later change makes one of them read the table, this test
names the kind, before any game plays differently.
"""

from __future__ import annotations

import random

from oriflamme import Game
from oriflamme.bots.heuristic.context import Context
from oriflamme.bots.heuristic.placement import _PRIORITY_READS_TABLE, _loss, _priority
from oriflamme.engine.cards import OFFICIAL_KINDS


def test_priority_and_loss_of_the_shared_kinds_depend_on_the_rounds_left_alone() -> None:
    seen: dict[tuple[str, int, int], float] = {}
    checked = 0
    for deck in ("base", "ablaze", "alliance", "random"):
        for seed in range(12):
            g = Game.new(4, deck, seed=seed)
            rng = random.Random(seed)
            while not g.is_over():
                for me in range(4):
                    ctx = Context(g, me)
                    for k in range(OFFICIAL_KINDS):
                        pairs = [("loss", _loss(ctx, k))]
                        if k not in _PRIORITY_READS_TABLE:
                            pairs.append(("priority", _priority(ctx, k)))
                        for what, value in pairs:
                            first = seen.setdefault((what, ctx.left, k), value)
                            assert value == first, (what, k, ctx.left, deck, seed)
                            checked += 1
                g.apply(rng.choice(g.legal_actions()))
    assert checked > 10_000
    # The set is not larger than it must be: each of its kinds does read the table.
    for k in _PRIORITY_READS_TABLE:
        values = set()
        for seed in range(40):
            g = Game.new(4, "random:base+ablaze+alliance", seed=seed)
            rng = random.Random(seed)
            for _ in range(rng.randrange(20, 60)):
                if g.is_over():
                    break
                g.apply(rng.choice(g.legal_actions()))
            if not g.is_over():
                ctx = Context(g, 0)
                values.add((ctx.left, _priority(ctx, k)))
        assert len(values) > len({left for left, _ in values}), k
