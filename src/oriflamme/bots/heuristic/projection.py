"""Where a game is heading: each seat's score plus what its cards on the table are still worth.

A search that stops its playouts before the end of the game (see
``SearchLevel.horizon`` in :mod:`oriflamme.bots.ismcts`) scores the position it
stopped at with this projection instead of the final scores. It reads a
determinized game, where every card's kind is set, so it values a face-down
card by what it is rather than by the odds: the playout's hidden cards are
one guess of the search, not what any seat sees.
"""

from __future__ import annotations

from ...engine.cards import AGREEMENT, IS_CHARACTER
from ...engine.game import Game
from .context import Context


def projected_scores(g: Game) -> list[float]:
    """Per seat: IP now plus the IP-equivalents its cards are expected to bring by the end.

    A revealed character counts its per-activation value for the activations
    it still has; a face-down card its worth to its owner as a hidden card
    (IP on it, savings, bait); a kept Agreement its income for the rounds to
    come. Cards in hand are left out: every seat plays one per round.
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
                est[x] += ctx.char_act(k, j, x) * ctx.acts(j)
        else:
            est[ctrl[c]] += ctx.hidden_worth(k, ip[c])
    rounds = ctx.left + 1
    for s, kept in enumerate(g.kept):
        for c in kept:
            if kind[c] == AGREEMENT:
                est[s] += ip[c] * rounds
    return est


def projected_returns(est: list[float]) -> list[float]:
    """Per seat: 1 shared among the seats with the best projection, 0 for the others (as ``Game.returns``)."""
    top = max(est)
    winners = [s for s, e in enumerate(est) if e >= top - 1e-9]
    share = 1.0 / len(winners)
    return [share if s in winners else 0.0 for s in range(len(est))]
