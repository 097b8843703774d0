"""Information-set Monte Carlo tree search (single-observer ISMCTS, Cowling, Powley & Whitehouse 2012).

One search builds one tree for the deciding seat (the *observer*). Each
iteration

1. **determinizes**: :class:`~oriflamme.engine.sampler.Determinizer` deals every card
   the observer cannot see from what is unseen; then opponents' face-down
   cards that carry IP are re-dealt with a bias towards the kinds people keep
   hidden (bait and savings rather than characters, see :func:`~oriflamme.bots.inference.infer`);
2. **selects** down the tree. A node is what the observer knows of the
   history; each player to move picks by UCB1 for *its own* reward (max^n),
   counting an edge's trials by *availability* (how often its action was
   legal when the node was visited), since a determinization may not allow
   every action seen before. Below the root, progressive widening lets a
   node visited n times try only about ``1 + sqrt(n)`` of its actions, the
   heuristic bot's choice first, so that the few iterations a deep node gets
   go to plausible moves;
3. **expands** one untried action and **plays out** the game with the
   heuristic bot's policy, with a little randomness (10% random moves),
   until the end of the round after the decision's (the *horizon*); a
   playout that stops before the end of the game is scored by the
   heuristic's projection of the final scores (IP now plus what each seat's
   cards on the table and in hand are still worth), read as win chances
   (see :mod:`~oriflamme.bots.heuristic.projection`). Two rounds of play and
   a projection play as well as six rounds of play against the heuristic
   bots, in a fraction of the time (README);
4. **backs up** each seat's reward: 1 for a win, shared among tied winners
   (or the projection's win chance), plus a small term for the score margin so that the search still prefers
   winning big and losing small when the win is (nearly) decided. The win
   chances it *reports* read the projection at a calibrated temperature
   instead (``SearchLevel.win_scale``): the sharp reading that steers it
   ranks moves better but overstates the odds far from the end.

Two keys per edge keep opponents' hidden information straight. The edge's
*statistics* are keyed by the action as its player knows it: an opponent's
keep-or-reveal is recorded together with the kind of the card it decides
about, so that the opponent "knows" its own card and does not reveal an
Ambush as often as a Conspiracy. The *child node* is keyed by what the
observer sees of the action: the card of an opponent's face-down placement
(or Informant exchange) is masked, so every determinization in which an
opponent places "some card" first leads to the same node.

The tree's nodes and how an action leads to a child are in
:mod:`~oriflamme.bots.search_tree`; what a bot keeps between decisions, in
:mod:`~oriflamme.bots.tree_reuse`; the optional self-determinization, in
:mod:`~oriflamme.bots.self_deal`.

A bot keeps the subtree below the move it played. When its seat decides
again having learned nothing in between (no other seat decided, no card
became known to it: its own keep and then its next card, a reveal and then
the ability's target), the statistics there are still those of its
information set, so the next search starts from them and tops them up to
the budget (*tree reuse*); anything learned discards them.

The move played is the root action with the most visits. Once it leads
every other root action by more than the iterations left, those iterations
cannot change it, so the search stops there (*early stop*): the same move
as the whole budget's, in less time. A level may stop sooner, once the
leader is ahead by a share of the iterations left (``SearchLevel.settle``):
a lead the runner-up could close only by taking more of them than UCB1
gives an action that trails far behind. Budgets are iteration counts, so a seeded bot replays exactly; a time cap only guards
against a machine far slower than expected (a search cut short by the clock
is no longer reproducible). The measurements behind the defaults (made
with ``oriflamme tournament``) are in the README.
"""

from __future__ import annotations

import dataclasses
import gc
import importlib.util
import math
import random
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from time import perf_counter
from typing import Any

from ..engine.game import Game
from ..engine.registry import D_KEEP_OR_REVEAL, P_ACTOR, P_DECISION, P_SEAT
from ..engine.sampler import Determinizer
from ..engine.view import SeatView
from .heuristic import heuristic_action
from .heuristic.fitted import fitted_scores
from .heuristic.projection import SHARE_TEMPERATURE, projected_scores, projected_shares, share_temperature
from .inference import Inference
from .search_levels import LEVELS, SearchLevel, parse_level
from .search_settings import SearchSettings
from .search_tree import Node, descend, ranked_actions
from .self_deal import own_secrets, shuffle_secrets
from .tree_reuse import Kept

__all__ = ["LEVELS", "ActionValue", "IsmctsBot", "SearchLevel", "parse_level"]


@dataclass(frozen=True, slots=True)
class ActionValue:
    """What a search makes of one legal action (see :meth:`IsmctsBot.evaluate`)."""

    action: int
    #: Simulations that began with this action (0: not tried; ``win`` and ``value`` are then NaN).
    visits: int
    #: Estimated probability that the deciding seat wins after it (a shared win counts its share;
    #: a simulation stopped at the horizon counts the projection's win chance, read at the
    #: calibrated temperature of ``SearchLevel.win_scale``).
    win: float
    #: Mean search reward: the win share plus a small term for the score margin.
    value: float


class IsmctsBot:
    """Information-set MCTS from the deciding seat's view; deterministic given its seed."""

    def __init__(self, level: str | SearchLevel = "normal", seed: int | None = None) -> None:
        if isinstance(level, SearchLevel):
            self.level = level
            self.spec = "ismcts"
        else:
            name, self.level = parse_level(level)
            self.spec = f"ismcts:{name}"
        if self.level.prior == "net" and importlib.util.find_spec("numpy") is None:
            raise ValueError("prior=net needs numpy: install the rl extra (pip install 'oriflamme[rl]')")
        self.rng = random.Random(seed)
        #: Iterations run by the last search (for measurements).
        self.last_iterations = 0
        #: The iterations the last search had in its budget (the level's, for the game's deck).
        self.last_budget = 0
        #: Simulations of the last search's root that came from the previous search's tree.
        self.last_reused = 0
        #: Simulations of the last search scored by the projection at the horizon (the others
        #: reached the end of the game).
        self.last_projected = 0
        #: Whether the last search stopped early because its move was settled (see early_stop).
        self.last_settled = False
        #: The subtree below the last action played, and what the seat knew then (see Kept).
        self._kept: Kept | None = None

    def choose(self, view: SeatView) -> int:
        actions = view.legal_actions
        if len(actions) == 1:
            self.last_iterations = self.last_reused = 0
            kept = self._kept
            # A forced answer leads to the same next choice: the kept subtree stays valid.
            self._kept = kept.after_forced(view) if kept is not None else None
            return actions[0]
        return self.search(view)

    def evaluate(self, view: SeatView) -> tuple[ActionValue, ...]:
        """Every legal action of ``view``'s decision with what the search makes of it, best first.

        One search of the level's budget, from the view alone (so it never uses
        what the seat cannot see). The first entry is the action :meth:`choose`
        would play with the same seed. A decision with one option is not
        searched: its only action comes back with no simulations.
        """
        actions = view.legal_actions
        if len(actions) == 1:
            self.last_iterations = 0
            return (ActionValue(actions[0], 0, math.nan, math.nan),)
        self._kept = None  # an evaluation always searches afresh, so its figures are its own
        # ... and runs the whole budget: its figures cover every action, not only the move played.
        root, wins = self._search(view, complete=True)
        stats = root.stats
        # The order of choose(): most simulations, then the higher reward sum; ties keep legal order.
        ranked = ranked_actions(actions, root)
        out = []
        for a in ranked:
            s = stats.get(a)
            if s is None or not s[0]:
                out.append(ActionValue(a, 0, math.nan, math.nan))
            else:
                out.append(ActionValue(a, int(s[0]), wins.get(a, 0.0) / s[0], s[1] / s[0]))
        return tuple(out)

    # ------------------------------------------------------------- search

    def search(self, view: SeatView) -> int:
        """The root action with the most simulations (then the higher reward sum)."""
        level = self.level
        kept, self._kept = self._kept, None
        start = kept.subtree_for(view) if kept is not None and level.reuse else None
        if start is not None and level.workers == 1 and not level.timed:
            root, _ = self._one_search(view, start)
        else:
            root, _ = self._search(view)
        action = ranked_actions(view.legal_actions, root)[0]
        if level.reuse and level.workers == 1 and not level.timed:
            child = root.children.get(action)
            if child is not None and child.visits:
                self._kept = Kept(view, child, action)
        return action

    def _search(self, view: SeatView, complete: bool = False) -> tuple[Node, dict[int, float]]:
        """Run the level's budget; the root node, and each root action's summed win share for the seat.

        ``complete`` runs the whole budget even where the level stops a settled search early.
        """
        if self.level.workers > 1:
            return self._parallel_search(view, complete)
        return self._one_search(view, complete=complete)

    def _parallel_search(self, view: SeatView, complete: bool = False) -> tuple[Node, dict[int, float]]:
        """Independent searches in worker processes, their root statistics added up.

        Each worker's seed is drawn from this bot's generator before any runs,
        so the result does not depend on which process finishes first.
        """
        level = self.level
        # The level travels as a dict: a compiled (mypyc) frozen dataclass does not unpickle.
        # Each search may stop once its own choice is settled: deterministic, but unlike a single
        # search, not sure to give the move the whole budget would (the sum could differ).
        single = dataclasses.asdict(
            dataclasses.replace(level, workers=1, early_stop=level.early_stop and not complete)
        )
        seeds = [self.rng.getrandbits(63) for _ in range(level.workers)]
        jobs = [(single, seed, view) for seed in seeds]
        results = list(_pool(level.workers).map(_root_statistics, jobs))
        root = Node()
        wins: dict[int, float] = {}
        done = 0
        for stats, partial_wins, iterations in results:
            done += iterations
            for a, (visits, reward) in stats.items():
                s = root.stats.setdefault(a, [0.0, 0.0, 0.0])
                s[0] += visits
                s[1] += reward
            for a, w in partial_wins.items():
                wins[a] = wins.get(a, 0.0) + w
        self.last_iterations = done
        return root, wins

    def _one_search(
        self, view: SeatView, start: Node | None = None, complete: bool = False
    ) -> tuple[Node, dict[int, float]]:
        """One search of the level's budget in this process, from scratch or topping up ``start``.

        A reused subtree already holds ``start.visits`` simulations of this
        decision; the search adds what the budget lacks (the figures of
        ``wins`` then cover the new simulations only). With the level's
        ``early_stop`` and not ``complete``, the search ends once the move it
        will play can no longer change (see :func:`_settled`): the same move
        as the whole budget's, from fewer random numbers. With ``settle``
        below 1 it ends sooner, once the lead passes that share of the
        iterations left.
        """
        settings = SearchSettings.of(self.level, complete)
        rng = self.rng
        me = view.seat
        assert me is not None
        root = Node() if start is None else start
        self.last_reused = root.visits
        self.last_settled = False
        projected = 0
        # The seat's own cards that the other seats cannot tell apart (see own_secrets).
        secrets = own_secrets(view) if settings.self_deal else []
        deadline = perf_counter() + settings.max_seconds
        done = 0
        #: Per root action: the seat's win share summed over the simulations that began with it.
        wins: dict[int, float] = {}
        determinizer = Determinizer(view, record_events=False)
        deal = determinizer.sample
        self.last_budget = self.level.iterations_for(determinizer.template.recipe)
        iterations = max(self.last_budget - root.visits, 0)
        fitted = settings.fitted_weights(determinizer.template.recipe)
        # Playouts stop when this round begins (a round number no game reaches: at the end).
        stop_round = settings.stop_round(view.round)
        fair = settings.fair_opponents
        leaf_mix = settings.leaf_mix
        sqrt = math.sqrt
        log = math.log
        redeal: Inference | None = None
        # The cyclic collector stays off while the search runs: a search makes millions of
        # short-lived containers and no cycles (the tree and the dealt games hold no reference
        # back up), so the collector's passes found nothing and cost a few percent of the time.
        collecting = gc.isenabled()
        gc.disable()
        try:
            for done in range(1, iterations + 1):
                g = deal(rng)
                if settings.infer:
                    if redeal is None:
                        # Read from the first deal: every deal of the view has its kept cards alike.
                        redeal = Inference(g, me, settings.infer_strength, settings.keeps)
                    redeal(g, rng)
                # In a blind iteration the seat's own secrets are dealt again; it teaches the others only.
                blind = bool(secrets) and rng.random() < settings.self_deal
                if blind:
                    shuffle_secrets(g, secrets, rng)
                path: list[tuple[list[float], int]] = []
                node = root
                root_action = -1
                # The tree stops at the horizon too, so that every simulation is scored the same
                # way: by the game's end, or by the projection at the start of the horizon round.
                while g.pending is not None and g.round < stop_round:
                    opts = g.options
                    p = g.pending
                    seat = p[P_SEAT]
                    if len(opts) == 1:
                        # Not a choice (a placement with one card and spot, a 0-IP Insurrection).
                        g.apply(opts[0])
                        continue
                    if (fair or blind) and ((fair and seat != me) or (blind and seat == me)):
                        if seat == me:
                            # The seat's most-tried move, without a trace in its statistics.
                            a = _most_tried(node.stats, opts)
                            if a < 0:
                                a = heuristic_action(g, rng)
                        else:
                            # Another seat's move, by a policy that reads only what that seat may know.
                            a = heuristic_action(g, rng)
                        node = descend(node, g, a, seat, me)
                        continue
                    stats = node.stats
                    # The statistics key adds what the mover privately knows about a keep-or-reveal.
                    salt = 0
                    if seat != me and p[P_DECISION] == D_KEEP_OR_REVEAL:
                        salt = (g.kind[p[P_ACTOR]] + 1) << 24
                    visits = node.visits = node.visits + 1
                    c = (
                        settings.explore_other
                        if settings.explore_split and seat != me
                        else settings.explore_own
                    )
                    untried = []
                    best_a = -1
                    best_s: list[float] | None = None
                    best_u = -1.0
                    for a in opts:
                        s = stats.get(a | salt)
                        if s is None:
                            untried.append(a)
                            continue
                        s[2] += 1
                        u = s[1] / s[0] + c * sqrt(log(s[2]) / s[0])
                        if u > best_u:
                            best_u = u
                            best_a = a
                            best_s = s
                    # Progressive widening below the root: a node with few visits
                    # tries few of its actions, the heuristic's first.
                    if untried and (
                        best_s is None
                        or node is root
                        or not settings.widening
                        or len(stats) < 1 + settings.widening * math.sqrt(visits)
                    ):
                        a = -1
                        if settings.prior_first:
                            h = settings.prior(g, rng)
                            if h in untried:
                                a = h
                        if a < 0:
                            a = untried[int(rng.random() * len(untried))]
                        s = [0.0, 0.0, 1.0]
                        stats[a | salt] = s
                        path.append((s, seat))
                        if node is root:
                            root_action = a
                        descend(node, g, a, seat, me)  # the new child is where the playout starts
                        break
                    assert best_s is not None
                    path.append((best_s, seat))
                    if node is root:
                        root_action = best_a
                    node = descend(node, g, best_a, seat, me)
                leaf: tuple[list[float], float] | None = None
                if leaf_mix and g.pending is not None and g.round < stop_round:
                    leaf = _projected(g, me, settings, fitted)
                # Playout, to the end of the game or to the horizon (none where the leaf alone scores).
                while g.pending is not None and g.round < stop_round and leaf_mix < 1.0:
                    opts = g.options
                    if len(opts) == 1:
                        g.apply(opts[0])
                    elif settings.epsilon and rng.random() < settings.epsilon:
                        g.apply(opts[int(rng.random() * len(opts))])
                    else:
                        g.apply(settings.playout(g, rng))
                if leaf is not None and leaf_mix >= 1.0:
                    rewards, won = leaf
                    projected += 1
                elif g.pending is None:
                    share = g.returns()
                    rewards = _rewards(g.score, share, settings.margin_weight)
                    won = share[me]
                else:
                    rewards, won = _projected(g, me, settings, fitted)
                    projected += 1
                if leaf is not None and leaf_mix < 1.0:
                    keep = 1.0 - leaf_mix
                    rewards = [keep * r + leaf_mix * x for r, x in zip(rewards, leaf[0], strict=True)]
                    won = keep * won + leaf_mix * leaf[1]
                for s, seat in path:
                    s[0] += 1
                    s[1] += rewards[seat]
                if root_action >= 0:
                    wins[root_action] = wins.get(root_action, 0.0) + won
                if not done & 15 and perf_counter() > deadline:
                    break
                if (
                    settings.early_stop
                    and not done & 7
                    and _settled(root.stats, (iterations - done) * settings.settle)
                ):
                    self.last_settled = True
                    break
        finally:
            if collecting:
                gc.enable()
        self.last_iterations = done
        self.last_projected = projected
        return root, wins


def _projected(
    g: Game, me: int, settings: SearchSettings, fitted: tuple[float, ...] | None = None
) -> tuple[list[float], float]:
    """The rewards of a position scored by the projection (or the ``fitted`` one), and the
    observer's reported win chance."""
    est = projected_scores(g, settings.survival) if fitted is None else fitted_scores(g, fitted)
    scale = settings.share_scale
    share = projected_shares(est, share_temperature(g, scale) if scale else SHARE_TEMPERATURE)
    # The figure reported as a win chance reads the projection at the calibrated
    # temperature, whatever temperature steers the search (see SearchLevel.win_scale).
    win_scale = settings.win_scale
    won = projected_shares(est, share_temperature(g, win_scale))[me] if win_scale else share[me]
    return _rewards(est, share, settings.margin_weight), won


def _most_tried(stats: dict[int, list[float]], opts: Sequence[int]) -> int:
    """The legal action with the most simulations in ``stats`` (-1: none tried)."""
    best, most = -1, 0.0
    for a in opts:
        s = stats.get(a)
        if s is not None and s[0] > most:
            best, most = a, s[0]
    return best


def _settled(stats: dict[int, list[float]], left: float) -> bool:
    """Whether the root's most-visited action leads every other by more than ``left`` visits.

    Each iteration adds one visit to one root action, so when ``left`` is
    the number of iterations still to run, no outcome of them can change
    which action has the most visits (the move played; a tie would be broken
    by the reward sum, and none can occur). A level's ``settle`` below 1
    passes a share of them. Untried actions count as 0 visits.
    """
    first = second = 0.0
    for s in stats.values():
        v = s[0]
        if v > first:
            first, second = v, first
        elif v > second:
            second = v
    return first - second > left


def _root_statistics(
    job: tuple[dict[str, Any], int, SeatView],
) -> tuple[dict[int, tuple[float, float]], dict[int, float], int]:
    """One search in a worker process: the root's (visits, reward sum) per action, wins, iterations."""
    fields, seed, view = job
    level = SearchLevel(**fields)
    bot = IsmctsBot(level, seed)
    root, wins = bot._one_search(view)
    stats = {a: (s[0], s[1]) for a, s in root.stats.items()}
    left = bot.last_budget - bot.last_iterations
    if level.settled_credit and bot.last_settled:
        # Stopped early because the move's lead was settled (not by the clock): credit it with the
        # rest of the budget (with settle below 1, a lead the rest would most likely not close).
        move = max(stats, key=lambda a: stats[a])
        visits, reward = stats[move]
        stats[move] = (visits + left, reward + left * reward / visits)
        wins[move] = wins.get(move, 0.0) * (visits + left) / visits
    return stats, wins, bot.last_iterations


_POOLS: dict[int, ProcessPoolExecutor] = {}


def _pool(workers: int) -> ProcessPoolExecutor:
    """The process pool of root-parallel searches with ``workers`` processes (made once, kept)."""
    pool = _POOLS.get(workers)
    if pool is None:
        import multiprocessing

        # Spawned, not forked: a fork of a threaded program (the web server, a test runner) may hang.
        pool = _POOLS[workers] = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"))
        # Shut down before the process joins its children at exit. In a worker process (a
        # tournament's, the web server's bot pool) only multiprocessing's exit hook runs: it joins
        # these searchers, which wait for work until their pool says stop, so without this the
        # worker never exits. The priority runs it before the pool's own queue closes (10).
        multiprocessing.util.Finalize(pool, pool.shutdown, exitpriority=100)
    return pool


def _rewards(score: list[int] | list[float], share: list[float], margin_w: float) -> list[float]:
    """Per seat: the win share, plus a small term for the margin to the best other score."""
    # The best other score is the best score but for the seat holding it alone: the runner-up's.
    first = max(score)
    top = 0
    while score[top] != first:
        top += 1
    second = max(score[o] for o in range(len(score)) if o != top)
    out = []
    for s, x in enumerate(score):
        m = (x - (second if s == top else first)) / 10.0
        out.append(share[s] + margin_w * (1.0 if m > 1 else (-1.0 if m < -1 else m)))
    return out
