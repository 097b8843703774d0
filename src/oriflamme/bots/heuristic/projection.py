"""Where a game is heading: each seat's score plus what its cards on the table are still worth.

A search that stops its playouts before the end of the game (see
``SearchLevel.horizon`` in :mod:`oriflamme.bots.ismcts`) scores the position it
stopped at with this projection instead of the final scores. It reads a
determinized game, where every card's kind is set, so it values a face-down
card by what it is rather than by the odds: the playout's hidden cards are
one guess of the search, not what any seat sees.
"""

from __future__ import annotations

import math

from ...engine.cards import AGREEMENT, IS_CHARACTER
from ...engine.game import Game
from ...engine.zones import PLACE
from .context import Context

#: Weight of the cards in hand: each seat will play the best of them, but not all where it wants.
HAND_WEIGHT = 0.5
#: How many IP of projected lead make a win about e (2.7) times likelier (see projected_shares).
SHARE_TEMPERATURE = 2.0


def projected_scores(g: Game, survival: float = 1.0) -> list[float]:
    """Per seat: IP now plus the IP-equivalents its cards are expected to bring by the end.

    A revealed character counts its per-activation value for the activations
    it still has, each weighted by the chance that it is still there
    (``survival`` per round after its next activation: 1 counts them all, as if
    nothing ever killed it), plus any IP lying on it; a face-down card its worth to its
    owner as a hidden card (IP on it, savings, bait); a kept Agreement its
    income for the rounds to come; and the cards in hand that the seat still
    has turns to play (the best of them), each at ``HAND_WEIGHT`` of its worth
    as a hidden card.
    """
    ctx = Context(g, 0)
    est = [float(x) for x in g.score]
    kind = g.kind
    up = g.up
    ip = g.ip
    ctrl = g.ctrl
    for j, c in enumerate(g.queue):
        k = kind[c]
        if up[c]:
            if IS_CHARACTER[k]:
                x = ctrl[c]
                n = ctx.acts(j)
                if survival < 1.0:
                    # 1 + p + ... + p^(n-1): the next activation surely, each later one if still there.
                    est[x] += ctx.char_act(k, j, x) * (1.0 - survival**n) / (1.0 - survival) + ip[c]
                else:
                    est[x] += ctx.char_act(k, j, x) * n + ip[c]
        else:
            est[ctrl[c]] += ctx.hidden_worth(k, ip[c])
    rounds = ctx.left + 1
    for s, kept in enumerate(g.kept):
        for c in kept:
            if kind[c] == AGREEMENT:
                est[s] += ip[c] * rounds
    for s, hand in enumerate(g.hands):
        if hand:
            est[s] += HAND_WEIGHT * best_of_hand(g, ctx, s, plays_left(g, ctx, s))
    return est


def plays_left(g: Game, ctx: Context, s: int) -> int:
    """The cards seat ``s`` will still place: in the rounds after this one, and its placements of
    this round not made yet."""
    per_round = g.rules.two_player_cards_per_round if g.players == 2 else 1
    return ctx.left * per_round + (g.order[g.turn :].count(s) if g.phase == PLACE else 0)


def best_of_hand(g: Game, ctx: Context, s: int, plays: int) -> float:
    """The worth as hidden cards of the best ``plays`` cards of seat ``s``'s hand."""
    kind = g.kind
    worth = sorted([ctx.hidden_worth(kind[c], 0) for c in g.hands[s]], reverse=True)
    return sum(worth[:plays])


def projected_shares(est: list[float], temperature: float = SHARE_TEMPERATURE) -> list[float]:
    """Per seat: its chance of winning from the projections, a softmax that sums to 1.

    A projection two rounds before the end is rough, so a small lead is not
    a sure win: each ``temperature`` IP of lead multiply the odds by e.
    (A hard winner-takes-all reading played worse in *Alliance*, see the README;
    :func:`share_temperature` gives the temperature that fits real outcomes.)
    """
    top = max(est)
    weights = [math.exp((e - top) / temperature) for e in est]
    total = sum(weights)
    return [w / total for w in weights]


def share_temperature(g: Game, per_round: float) -> float:
    """The temperature of :func:`projected_shares` for ``g``: ``per_round`` IP for each round left.

    The further the end, the less a projected lead says. Fitted on heuristic
    self-play (the projection at the start of rounds 3 to 6 against who won,
    ``tools/fit_share_temperature.py``), the likeliest temperature grows about
    linearly with the rounds left, counting the one starting: 1.2 to 1.6 IP per
    round on the three boxes. Four rounds from the end, the fixed
    ``SHARE_TEMPERATURE`` forecasts worse than giving every seat even odds
    (README, *Calibrated win chances*).
    """
    return per_round * max(1, g.rules.rounds - g.round + 1)
