"""The ``zero-search`` bot: information-set search guided by the self-played network (needs numpy).

The search of :mod:`~oriflamme.bots.ismcts` with the two things a network
gives in place of hand-made ones, as AlphaZero's search uses them:

* **priors**: a node's moves are tried in proportion to the network's
  policy from the mover's view, by PUCT (a move's mean reward plus
  ``exploration`` x its prior x sqrt(node visits) / (1 + its visits)),
  instead of UCB1 with the heuristic's move first;
* **values instead of playouts**: a simulation stops at the first position
  the tree has not seen, and every seat's reward there is the value head's
  estimate from that seat's own view (the reward the environments give: a
  seat's share of the win less 1/n), instead of a playout to the horizon and
  the projection. A finished game counts its real rewards.

What stays the search's: each iteration deals the cards the deciding seat
cannot see afresh (``Determinizer``, with the IP-biased re-deal of
:class:`~oriflamme.bots.inference.Inference`), one tree of what the deciding
seat knows (:mod:`~oriflamme.bots.search_tree`), each mover choosing for its
own reward, an opponent's keep-or-reveal counted with the card it knows. A
node's priors come from the first deal that reaches it (from another deal
only for moves that deal allows and the first did not). The move played is
the root's most visited.

Levels are iteration counts, so a seeded bot replays exactly: ``fast`` (100),
``normal`` (400), ``strong`` (1,200); ``zero-search:N`` searches N.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Final

import numpy as np

from ..encoding.actions import legal_indices
from ..encoding.observation import observe
from ..engine.game import Game
from ..engine.registry import D_KEEP_OR_REVEAL, P_ACTOR, P_DECISION, P_SEAT
from ..engine.sampler import Determinizer
from ..engine.view import SeatView
from .inference import Inference
from .ismcts import ActionValue
from .net.bot import ZeroBot
from .net.model import Matrix, Network
from .search_tree import Node, descend, ranked_actions
from .zero_levels import zero_iterations

__all__ = ["ZeroSearchBot", "back_up", "puct_edge"]

#: PUCT's exploration constant (rewards lie in [-1, 1]).
EXPLORATION: Final = 1.5


class ZeroSearchBot:
    """Information-set PUCT search with the network's priors and values; deterministic given its seed."""

    def __init__(
        self, level: str = "normal", seed: int | None = None, network: Network | None = None
    ) -> None:
        self.iterations = zero_iterations(level)
        self.spec = f"zero-search:{level}"
        #: Which network plays which game: ``zero``'s choice (a setup's own network in its games,
        #: ``ZeroBot.SETUP_WEIGHTS``, when no network is given); ``network`` is the one of the
        #: current search.
        self._zero = ZeroBot(network)
        self.network = self._zero.network
        self.rng = random.Random(seed)
        #: Simulations of the last search (for measurements).
        self.last_iterations = 0
        #: Per node of the current search (by id: the tree keeps them alive), its priors by
        #: statistics key, filled from the first deal that reaches it.
        self._priors: dict[int, dict[int, float]] = {}

    def choose(self, view: SeatView) -> int:
        actions = view.legal_actions
        if len(actions) == 1:
            self.last_iterations = 0
            return actions[0]
        return ranked_actions(actions, self.search(view))[0]

    def evaluate(self, view: SeatView) -> tuple[ActionValue, ...]:
        """Every legal action of ``view``'s decision with what the search makes of it, best first.

        What :meth:`IsmctsBot.evaluate <oriflamme.bots.ismcts.IsmctsBot.evaluate>` gives for the
        hand-made search, so either can label training examples with its root visits (search-guided
        targets, docs/training.md §6). The first entry is what :meth:`choose` plays with the same
        seed. ``value`` is the mean reward (a share of the win less 1/n, the value head's
        currency) and ``win`` that plus 1/n: an estimate of the win share that, read from the
        value head, may stray a little outside [0, 1]. A decision with one option is not searched.
        """
        actions = view.legal_actions
        if len(actions) == 1:
            self.last_iterations = 0
            return (ActionValue(actions[0], 0, math.nan, math.nan),)
        root = self.search(view)
        share = 1.0 / view.players
        out = []
        for a in ranked_actions(actions, root):
            s = root.stats.get(a)
            if s is None or not s[0]:
                out.append(ActionValue(a, 0, math.nan, math.nan))
            else:
                out.append(ActionValue(a, int(s[0]), s[1] / s[0] + share, s[1] / s[0]))
        return tuple(out)

    def search(self, view: SeatView) -> Node:
        """The root of a search of the level's iterations from ``view`` (its edges' visits and rewards)."""
        me = view.seat
        assert me is not None
        self.network = self._zero.network_for(view)
        rng = self.rng
        root = Node()
        self._priors = {}
        determinizer = Determinizer(view, record_events=False)
        redeal: Inference | None = None
        for _ in range(self.iterations):
            g = determinizer.sample(rng)
            if redeal is None:
                redeal = Inference(g, me)
            redeal(g, rng)
            self._simulate(g, root, me)
        self.last_iterations = self.iterations
        return root

    def _simulate(self, g: Game, root: Node, me: int) -> None:
        path: list[tuple[list[float], int]] = []
        node = root
        while g.pending is not None:
            opts = g.options
            p = g.pending
            seat = p[P_SEAT]
            if len(opts) == 1:
                g.apply(opts[0])
                continue
            salt = _salt(g, me)
            best_a, edge, fresh = puct_edge(node, opts, self._node_priors(node, g, opts, salt), salt)
            path.append((edge, seat))
            node = descend(node, g, best_a, seat, me)
            if fresh:
                break
        back_up(path, self._rewards(g, node, me))

    def _node_priors(self, node: Node, g: Game, opts: Sequence[int], salt: int) -> dict[int, float]:
        known = self._priors.setdefault(id(node), {})
        if any((a | salt) not in known for a in opts):
            view = g.view(g.current_player())
            self._remember(known, view, self.network.features(observe(view)), salt)
        return known

    def _remember(self, known: dict[int, float], view: SeatView, features: Matrix, salt: int) -> None:
        """Add the network's probabilities of the mover's moves in ``view`` to ``known`` (moves it
        already has keep theirs: a node's priors come from the first deal that reaches it)."""
        by_index = legal_indices(view)
        indices = np.fromiter(by_index, dtype=np.intp, count=len(by_index))
        logits = self.network.logits(features, indices).astype(np.float64)
        probs = np.exp(logits - logits.max())
        probs /= probs.sum()
        for i, q in zip(indices, probs, strict=True):
            known.setdefault(by_index[int(i)] | salt, float(q))

    def _rewards(self, g: Game, leaf: Node, me: int) -> list[float]:
        """Each seat's reward: the real one at the end, else the value head's from the seat's view.

        The mover's view at ``leaf`` also gives the node its priors, from the same forward pass:
        the next simulation to reach it needs them (unless the move there is forced).
        """
        n = g.players
        if g.pending is None:
            return [share - 1.0 / n for share in g.returns()]
        network = self.network
        mover = g.current_player() if len(g.options) > 1 else -1
        values = []
        for seat in range(n):
            view = g.view(seat)
            features = network.features(observe(view))
            values.append(network.evaluate(features))
            if seat == mover:
                self._remember(self._priors.setdefault(id(leaf), {}), view, features, _salt(g, me))
        return values


def puct_edge(
    node: Node, opts: Sequence[int], priors: dict[int, float], salt: int
) -> tuple[int, list[float], bool]:
    """PUCT's choice among ``opts`` at ``node`` (counted as a visit): the move, its edge's
    statistics (made if new) and whether the edge is new, which ends the simulation's descent."""
    node.visits += 1
    scale = EXPLORATION * math.sqrt(node.visits)
    best_a, best_u, fresh = -1, -math.inf, True
    for a in opts:
        s = node.stats.get(a | salt)
        n, total = (s[0], s[1]) if s is not None else (0.0, 0.0)
        u = (total / n if n else 0.0) + scale * priors[a | salt] / (1.0 + n)
        if u > best_u:
            best_a, best_u, fresh = a, u, s is None
    return best_a, node.stats.setdefault(best_a | salt, [0.0, 0.0, 0.0]), fresh


def back_up(path: Sequence[tuple[list[float], int]], rewards: Sequence[float]) -> None:
    """Add a simulation's outcome to every edge it took: a visit, and the reward of the edge's mover."""
    for edge, seat in path:
        edge[0] += 1
        edge[1] += rewards[seat]


def _salt(g: Game, me: int) -> int:
    """What sets an opponent's keep-or-reveal apart in the tree's statistics: the kind it knows it
    decides about (0 for every other decision)."""
    p = g.pending
    assert p is not None
    return (g.kind[p[P_ACTOR]] + 1) << 24 if p[P_SEAT] != me and p[P_DECISION] == D_KEEP_OR_REVEAL else 0
