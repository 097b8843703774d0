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

from ...engine.cards import AGREEMENT, IS_CHARACTER, KINDS, NUM_KINDS
from ...engine.game import Game
from ...engine.zones import PLACE
from .context import Context

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
#: face-down cards, its hand, its kept Agreements, then per kind (NUM_KINDS each): activations
#: left of revealed characters, face-down cards, turns left per card in hand; then the IP on
#: face-down cards and the cards on the table].
FITTED_WEIGHTS: dict[str, tuple[float, ...]] = {
    "alliance": (
        1.0,
        0.335,
        0.548,
        0.24,
        1.032,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        -0.03,
        -0.254,
        -0.119,
        -0.333,
        0.503,
        0.131,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.324,
        -0.353,
        -0.33,
        -0.565,
        1.022,
        0.23,
        -0.183,
        0.008,
        0.8,
        0.556,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.148,
        -0.315,
        -0.476,
        -1.04,
        1.655,
        -0.251,
        -0.78,
        1.361,
        0.264,
        -0.566,
        0.471,
        1.084,
    ),
}

#: Where each group of weights starts in a table (tools/fit_projection.py builds its features so).
REVEALED = 5
HIDDEN = REVEALED + NUM_KINDS
HAND = HIDDEN + NUM_KINDS
HIDDEN_IP = HAND + NUM_KINDS
CARDS = HIDDEN_IP + 1
#: Weights in a table.
FEATURES = CARDS + 1
_BOX = [card.box for card in KINDS]


def weights_for(recipe: tuple[int, ...]) -> tuple[float, ...] | None:
    """The fitted weights of the box all of recipe's kinds come from (None: no such table)."""
    boxes = {_BOX[k] for k in recipe}
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
    per_round = g.rules.two_player_cards_per_round if g.players == 2 else 1
    placing = g.phase == PLACE
    for s, hand in enumerate(g.hands):
        if hand:
            plays = ctx.left * per_round + (g.order[g.turn :].count(s) if placing else 0)
            worth = sorted([ctx.hidden_worth(kind[c], 0) for c in hand], reverse=True)
            share = plays / len(hand)
            est[s] += w[3] * sum(worth[:plays]) + share * sum(w[HAND + kind[c]] for c in hand)
    return est
