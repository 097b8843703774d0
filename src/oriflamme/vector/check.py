"""The differential check: the Python engine and the vector ``Env`` stepped side by side (``oriflamme check vector``).

Games are dealt by the Python engine (``Game.new``, seed ``seed + i``) and
converted; at every step a random legal index (drawn by ``random.Random(seed
+ i)``) is applied to the game and, for the whole batch in one call, to its
vector state through :meth:`Env.step_batch`. Then the current player, the
mask, the environment's observation (the current player's), every seat's
observation (``observe``), the scores and the end (terminated, the rewards,
the winners) must agree, at every step until the game ends.
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
import os
import random
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from ..encoding.actions import game_legal_indices
from ..encoding.observation import mask_of, observe
from ..engine.errors import OriflammeError
from ..engine.game import Game
from ..engine.options import RuleOptions
from ..notation.position import pile_slugs, queue_string
from ..pools import abandon, worker_pool
from .convert import from_games, to_game
from .env import Env, EnvState, batched

__all__ = ["CheckResult", "check_vector", "describe"]


@dataclasses.dataclass
class CheckResult:
    """What a check compared, and every disagreement (empty when the engines agree)."""

    games: int
    players: int
    deck: str
    seed: int
    #: Steps compared (every one: mask, current player, each seat's observation, scores, end).
    steps: int = 0
    #: Games played to their end on both sides.
    finished: int = 0
    disagreements: list[str] = dataclasses.field(default_factory=list)

    def add(self, part: CheckResult) -> None:
        """Count what ``part`` (a batch of this check) compared and found."""
        self.steps += part.steps
        self.finished += part.finished
        self.disagreements += part.disagreements

    def to_dict(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "players": self.players,
            "deck": self.deck,
            "seed": self.seed,
            "steps": self.steps,
            "finished": self.finished,
            "disagreements": self.disagreements,
        }


def describe(g: Game) -> str:
    """A position in the notation: round, phase, scores, the queue and each seat's piles."""
    seats = "; ".join(
        f"p{s + 1} hand {pile_slugs(g, g.hands[s])} aside {pile_slugs(g, g.aside[s])} "
        f"discard {pile_slugs(g, g.discards[s])}"
        for s in range(g.players)
    )
    return (
        f"round {g.round}, {('place', 'resolve', 'over')[g.phase]}, first p{g.first + 1}, "
        f"scores {g.score}, decision {g.decision()} {g.pending}, queue {queue_string(g)}; {seats}"
    )


def _row(state: EnvState, i: int) -> EnvState:
    row: EnvState = jax.tree.map(lambda a: a[i], state)
    return row


def _compare(g: Game, legal: dict[int, int], state: EnvState, seen: np.ndarray, i: int) -> str | None:
    """The first difference between game ``g`` (``legal``: its legal indices) and row ``i`` of the batch, or None."""
    n = g.players
    # Each seat's observation, computed once: the engine's side is most of a check's time.
    want_seen = [observe(g.view(seat)) for seat in range(n)]
    if g.is_over():
        want_rewards = np.asarray([r - 1.0 / n for r in g.returns()], dtype=np.float32)
        checks = [
            ("the end", bool(state.terminated[i]), True),
            ("rewards", state.rewards[i].tolist(), want_rewards.tolist()),
            ("winners", np.flatnonzero(state.game.winners[i]).tolist(), list(g.winners)),
        ]
    else:
        want_mask = mask_of(legal).astype(bool)
        checks = [
            ("the end", bool(state.terminated[i]), False),
            ("current player", int(state.current_player[i]), g.current_player()),
            (
                "mask",
                np.flatnonzero(state.legal_action_mask[i]).tolist(),
                np.flatnonzero(want_mask).tolist(),
            ),
        ]
        # The environment's own observation (its option count taken from the mask) as well as
        # ``observe``'s, compared for every seat below.
        differ = np.flatnonzero(state.observation[i] != want_seen[g.current_player()])
        if differ.size:
            return f"the environment's observation differs at indices {differ[:8].tolist()}"

    checks.append(("scores", state.game.score[i].tolist(), list(g.score)))
    for name, got, want in checks:
        if got != want:
            return f"{name}: vector {got}, engine {want}"
    for seat in range(n):
        differ = np.flatnonzero(seen[i, seat] != want_seen[seat])
        if differ.size:
            return f"seat {seat}'s observation differs at indices {differ[:8].tolist()}"
    return None


def _disagreement(g: Game, state: EnvState, i: int, what: str) -> str:
    try:
        vector = describe(to_game(_row(state, i).game))
    except (OriflammeError, ValueError, TypeError, IndexError) as exc:  # a broken state can be anything
        vector = f"(not a position the engine holds: {exc})"
    return f"seed {g.seed}, step {len(g.history)}: {what}\n  engine: {describe(g)}\n  vector: {vector}"


def _check_batch(env: Env, seeds: list[int], size: int, deck: str, result: CheckResult) -> None:
    """Check the games of ``seeds``, padded to ``size`` games (one shape, one compilation) with idle copies."""
    wrap, step, observe_all = (batched(env).wrap, batched(env).step, batched(env).observe_all)
    games = [Game.new(env.num_players, deck, seed=s, rules=env.rules, record_events=False) for s in seeds]
    rngs = [random.Random(s) for s in seeds]
    active = [True] * len(games) + [False] * (size - len(games))
    games += [games[0].clone() for _ in range(size - len(games))]
    state = wrap(from_games(games))
    while True:
        seen = np.asarray(observe_all(state))
        host: EnvState = jax.device_get(state)  # NumPy: rows read without a device call each
        legal: list[dict[int, int]] = [{} for _ in games]
        for i, g in enumerate(games):
            if not active[i]:
                continue
            result.steps += 1
            if not g.is_over():
                legal[i] = game_legal_indices(g)
            what = _compare(g, legal[i], host, seen, i)
            if what is not None:
                result.disagreements.append(_disagreement(g, host, i, what))
                active[i] = False
            elif g.is_over():
                result.finished += 1
                active[i] = False
        if not any(active):
            return
        actions = np.zeros(len(games), dtype=np.int32)
        for i, g in enumerate(games):
            if active[i]:
                actions[i] = rngs[i].choice(sorted(legal[i]))
                g.apply(legal[i][int(actions[i])])
        state = step(state, jnp.asarray(actions))


def check_vector(
    games: int,
    players: int,
    deck: str = "base",
    seed: int = 0,
    batch: int = 256,
    rules: RuleOptions | None = None,
    jobs: int = 1,
    on_part: Callable[[CheckResult], None] | None = None,
) -> CheckResult:
    """Step ``games`` random games on both engines (``batch`` at a time) and report every disagreement.

    ``rules`` (default: the standard ones) apply to every game. ``jobs`` processes share the
    batches (the Python engine's side is most of a check's time, and one process uses one core
    for it): each compiles the vector programs once, or loads them from JAX's compilation cache
    when one is set (``JAX_COMPILATION_CACHE_DIR``, or this process's). The result is the same
    for any ``jobs``. ``on_part``, when given, is called in this process with each batch's result
    as it ends (in the order they end; a long run's progress). Raises ValueError, with one line,
    for arguments that are not a check.
    """
    if type(games) is not int or games < 1:
        raise ValueError(f"games must be a positive int, got {games!r}")
    if type(batch) is not int or batch < 1:
        raise ValueError(f"batch must be a positive int, got {batch!r}")
    if type(jobs) is not int or jobs < 1:
        raise ValueError(f"jobs must be a positive int, got {jobs!r}")
    Env(players, deck, rules)  # refuses a wrong player count, deck or rules, before any process starts
    result = CheckResult(games=games, players=players, deck=deck, seed=seed)
    size = min(batch, games)
    parts = [
        _Part(players, deck, rules, seed + start, min(size, games - start), size)
        for start in range(0, games, size)
    ]
    report = on_part or (lambda _: None)
    done: list[CheckResult] = []
    if jobs == 1 or len(parts) == 1:
        for part in parts:
            done.append(_check_part(part))
            report(done[-1])
    else:
        cache = getattr(jax.config, "jax_compilation_cache_dir", None)
        # Fresh processes (JAX's threads do not survive a fork) that leave Ctrl-C to this one.
        pool = worker_pool(min(jobs, len(parts)), initializer=_use_cache, initargs=(cache,))
        futures = [pool.submit(_check_part, part) for part in parts]
        try:
            for future in concurrent.futures.as_completed(futures):
                report(future.result())
        except BaseException:  # Ctrl-C, SIGTERM, a failed batch: the workers stop at once
            abandon(pool, futures)
            raise
        pool.shutdown(wait=True)
        done = [future.result() for future in futures]  # the batches' order, whatever the jobs
    for checked in done:
        result.add(checked)
    return result


@dataclasses.dataclass(frozen=True)
class _Part:
    """One batch of a check: ``count`` games from seed ``first``, padded to ``size`` (one shape for all)."""

    players: int
    deck: str
    rules: RuleOptions | None
    first: int
    count: int
    size: int


def _check_part(part: _Part) -> CheckResult:
    env = Env(part.players, part.deck, part.rules)
    result = CheckResult(games=part.count, players=part.players, deck=part.deck, seed=part.first)
    _check_batch(env, list(range(part.first, part.first + part.count)), part.size, part.deck, result)
    return result


def _use_cache(directory: str | None) -> None:
    """A worker's start: the parent's compilation cache, so programs compiled once load in the others;
    and, on an accelerator, memory taken as needed rather than most of it by each worker."""
    os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
    if directory:
        jax.config.update("jax_compilation_cache_dir", directory)  # type: ignore[no-untyped-call]
