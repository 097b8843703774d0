"""A projection fitted to who won: per-seat worth at the start of a round, learned from recorded games.

The hand-made projection (:mod:`.projection`) adds what each seat's cards will
still earn as if nothing ever killed them. Fitted by maximum likelihood to
who won the recorded games between search bots (``tools/fit_projection.py``,
a conditional logit over the seats), a seat's worth reads its IP, the
projection's own terms at fitted weights, and a weight per kind for each
card revealed (per activation left), face down and in hand (per turn left),
plus the IP on its face-down cards and the number of cards it has on the
table. It predicts the winners better than the projection (README), and the
search may steer by it (``SearchLevel.evaluation``).
"""

from __future__ import annotations

from ...engine.cards import AGREEMENT, IS_CHARACTER, KINDS, OFFICIAL_KINDS
from ...engine.game import Game
from .context import Context
from .projection import best_of_hand, plays_left

__all__ = [
    "CARDS",
    "FEATURES",
    "FITTED_WEIGHTS",
    "HAND",
    "HIDDEN",
    "HIDDEN_IP",
    "REVEALED",
    "fitted_scores",
    "weights_for",
]

#: Per box: the weights, in IP per unit, of [IP, the projection's revealed characters, its
#: face-down cards, its hand, its kept Agreements, then per kind (OFFICIAL_KINDS each: only recipes of one official box have a table): activations
#: left of revealed characters, face-down cards, turns left per card in hand; then the IP on
#: face-down cards and the cards on the table].
FITTED_WEIGHTS: dict[str, tuple[float, ...]] = {
    "base": (
        1.0, 0.517, 0.584, 0.007, 0.0, -0.186, 0.379, -0.316, -0.447, -0.026, 0.404, 0.0,
        0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
        0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
        0.084, 1.261, -0.154, -1.338, -0.488, 1.151, 0.759, 0.441, -1.094, 1.309, 0.0, 0.0,
        0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
        0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -0.228, -0.754, -1.71, -0.7, -0.471,
        1.049, 1.278, 0.311, 1.481, -0.257, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
        0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
        0.0, 0.0, 0.348, 1.064,
    ),
    "ablaze": (
        1.0, 0.406, 0.889, 0.069, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
        0.0, 0.0, 0.0, -0.723, -0.079, 0.255, 0.053, 0.166, 0.182, -0.043, 0.0, 0.0,
        0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
        0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.456, 0.0,
        0.312, -0.115, 0.91, 0.22, -0.266, -0.224, 0.548, -1.38, -0.606, 0.0, 0.0, 0.0,
        0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
        0.0, 0.0, 0.0, 0.0, 0.0, -0.782, 0.0, 0.308, -0.332, 0.717, -0.969, -0.26,
        0.801, -0.227, 1.282, -0.538, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
        0.0, 0.0, 0.118, 0.633,
    ),
    "alliance": (
        1.0, 0.344, 0.548, 0.236, 1.052, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
        0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
        0.0, 0.0, -0.127, -0.274, -0.168, -0.28, 0.527, 0.113, 0.0, 0.0, 0.0, 0.0,
        0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
        0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.23, -0.382, -0.295,
        -0.548, 1.017, 0.219, -0.076, -0.077, 0.752, 0.595, 0.0, 0.0, 0.0, 0.0, 0.0,
        0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
        0.0, 0.0, 0.0, 0.0, 0.116, -0.435, -0.508, -0.962, 1.758, -0.294, -0.707, 1.409,
        0.26, -0.638, 0.49, 1.046,
    ),
}  # fmt: skip

#: Where each group of weights starts in a table (tools/fit_projection.py builds its features so).
REVEALED = 5
HIDDEN = REVEALED + OFFICIAL_KINDS
HAND = HIDDEN + OFFICIAL_KINDS
HIDDEN_IP = HAND + OFFICIAL_KINDS
CARDS = HIDDEN_IP + 1
#: Weights in a table.
FEATURES = CARDS + 1


def weights_for(recipe: tuple[int, ...]) -> tuple[float, ...] | None:
    """The fitted weights of the box all of recipe's kinds come from (None: no such table)."""
    boxes = {KINDS[k].box for k in recipe}
    if len(boxes) != 1:
        return None
    return FITTED_WEIGHTS.get(boxes.pop())


def fitted_scores(g: Game, w: tuple[float, ...]) -> list[float]:
    """Per seat: its worth in IP under the fitted weights ``w`` (see the module docstring)."""
    ctx = Context(g, 0)
    est = [float(x) for x in g.score]
    kind = g.kind
    up = g.up
    ip = g.ip
    ctrl = g.ctrl
    cards = w[CARDS]
    for j, c in enumerate(g.queue):
        k = kind[c]
        x = ctrl[c]
        value = cards
        if up[c]:
            if IS_CHARACTER[k]:
                n = ctx.acts(j)
                value += w[1] * (ctx.char_act(k, j, x) * n + ip[c]) + w[REVEALED + k] * n
        else:
            value += w[2] * ctx.hidden_worth(k, ip[c]) + w[HIDDEN + k] + w[HIDDEN_IP] * ip[c]
        est[x] += value
    rounds = ctx.left + 1
    for s, kept in enumerate(g.kept):
        for c in kept:
            if kind[c] == AGREEMENT:
                est[s] += w[4] * ip[c] * rounds
    for s, hand in enumerate(g.hands):
        if hand:
            plays = plays_left(g, ctx, s)
            share = plays / len(hand)
            est[s] += w[3] * best_of_hand(g, ctx, s, plays) + share * sum(w[HAND + kind[c]] for c in hand)
    return est
