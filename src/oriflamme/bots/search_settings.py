"""What one information-set search reads of its level, worked out once per search.

A :class:`~.search_levels.SearchLevel` says how a level searches in the
user's terms (exploration, opponents' model, playout policy, habits, prior,
horizon ...). The search loop wants those settings in the form it uses them:
the two exploration constants, the playout and prior policies as functions,
the fitted weights of the recipe. :class:`SearchSettings` holds them, built by
:meth:`SearchSettings.of`, so the loop reads one object rather than copying
two dozen settings into locals.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from ..engine.game import Game
from ..engine.registry import D_KEEP_OR_REVEAL, D_PLACE, P_DECISION
from .heuristic import heuristic_action
from .heuristic.fitted import weights_for
from .heuristic.habits import place_draw, reveal_draw
from .search_levels import SearchLevel

#: A move chooser for playouts and priors: the game at a decision, a random source; an action.
Policy = Callable[[Game, random.Random], int]

#: The round number no game reaches: a playout without a horizon runs to the game's end.
NO_HORIZON = 1 << 30


@dataclass(frozen=True, slots=True)
class SearchSettings:
    """A level's settings as the search loop uses them (see :class:`~.search_levels.SearchLevel`)."""

    #: The exploration constant at the searching seat's decisions, and at the other seats'.
    explore_own: float
    explore_other: float
    #: Whether the other seats explore differently (two constants to choose between).
    explore_split: bool
    #: The weight of the score margin in a simulation's reward.
    margin_weight: float
    #: The projection's survival rate and its two temperatures (steering, and the reported win chance).
    survival: float
    share_scale: float
    win_scale: float
    #: The share of a leaf's reward taken from the projection at the leaf (1: no playout).
    leaf_mix: float
    #: The chance that a playout move is uniformly random instead of the policy's.
    epsilon: float
    #: Whether the other seats' hidden cards are dealt by inference, how strongly, and how it reads
    #: their kept cards ("guess" or "fitted").
    infer: bool
    infer_strength: float
    keeps: str
    #: Progressive widening below the root (0: off).
    widening: float
    #: Whether a node's first untried move is the prior's.
    prior_first: bool
    #: Whether the other seats move by the heuristic instead of by the tree ("fair" opponents).
    fair_opponents: bool
    #: The share of iterations in which the seat's own secrets are dealt again.
    self_deal: float
    #: Whether the search may stop once its move is settled, and the share of the iterations left
    #: that the lead must pass.
    early_stop: bool
    settle: float
    #: The search's wall-clock limit in seconds.
    max_seconds: float
    #: Rounds searched ahead (0: to the game's end).
    horizon: int
    #: The playout policy and the prior.
    playout: Policy
    prior: Policy
    #: Whether leaves are scored by the fitted projection (its weights are per recipe).
    fitted: bool

    @classmethod
    def of(cls, level: SearchLevel, complete: bool = False) -> SearchSettings:
        """The settings of ``level``; ``complete`` searches spend the whole budget (no early stop)."""
        explore_other = level.exploration * level.opponent_exploration
        playout: Policy = random_action if level.playout == "random" else heuristic_action
        if "fitted" in (level.reveals, level.places, level.covers):
            playout = with_habits(
                playout, level.reveals == "fitted", level.places == "fitted", level.covers == "fitted"
            )
        return cls(
            explore_own=level.exploration,
            explore_other=explore_other,
            explore_split=explore_other != level.exploration,
            margin_weight=level.margin_weight,
            survival=level.survival,
            share_scale=level.share_scale,
            win_scale=level.win_scale,
            leaf_mix=level.leaf_mix,
            epsilon=level.epsilon,
            infer=level.infer,
            infer_strength=level.infer_strength,
            keeps=level.keeps,
            widening=level.widening,
            prior_first=level.prior_first,
            fair_opponents=level.opponents == "heuristic",
            self_deal=level.self_deal,
            early_stop=level.early_stop and not complete,
            settle=level.settle,
            max_seconds=level.max_seconds,
            horizon=level.horizon,
            playout=playout,
            prior=net_policy() if level.prior == "net" else heuristic_action,
            fitted=level.evaluation == "fitted",
        )

    def stop_round(self, round_now: int) -> int:
        """The round at whose start playouts stop, for a search at round ``round_now``."""
        return round_now + self.horizon if self.horizon else NO_HORIZON

    def fitted_weights(self, recipe: tuple[int, ...]) -> tuple[float, ...] | None:
        """The fitted projection's weights for ``recipe`` (None: the plain projection scores)."""
        return weights_for(recipe) if self.fitted else None


def net_policy() -> Policy:
    """The shipped network's favourite move as a policy (numpy is imported only for it)."""
    from .net.bot import default_network, net_action

    network = default_network()
    return lambda g, rng: net_action(network, g, rng)


def with_habits(policy: Policy, reveals: bool, places: bool, covers: bool) -> Policy:
    """``policy``, but a keep-or-reveal, a placement's kind and whether it covers an own card
    drawn as the search bots were counted to play them (see heuristic.habits), as asked."""

    placing = places or covers

    def play(g: Game, rng: random.Random) -> int:
        # Each draw answers its own decision only: the others go straight to the policy.
        p = g.pending
        assert p is not None
        d = p[P_DECISION]
        a = -1
        if d == D_KEEP_OR_REVEAL:
            if reveals:
                a = reveal_draw(g, rng)
        elif d == D_PLACE and placing:
            a = place_draw(g, rng, places, covers)
        return a if a >= 0 else policy(g, rng)

    return play


def random_action(g: Game, rng: random.Random) -> int:
    """A uniformly random legal move."""
    opts = g.options
    return opts[int(rng.random() * len(opts))]
