"""A batched self-play policy-gradient loop on ``oriflamme.vector`` (an example: ``python -m oriflamme.rl.vector_train``).

It shows the vector ``Env`` used the way pgx's examples use theirs: every
seat of ``batch`` games played by one network (self-play), ``horizon`` steps
rolled out in one jitted ``lax.scan`` with auto-reset, then one gradient step
of an advantage actor-critic loss with optax. The network is the ``net``
bot's (``oriflamme.rl.train``: a ReLU trunk, a policy head over the 1,502
indices and a ``tanh`` value head), so weights learned here have the shape
the ``net`` bot plays.

**Returns.** A seat's reward comes when its game ends (its share of the win
minus 1/n). Each decision's return is the reward its seat gets at the end of
that game, found by a backward scan over the rollout; a decision whose game
has not ended by the end of the rollout has no return yet and is left out of
the loss (no bootstrapping: the horizon is longer than most games).

**What it reports.** After each iteration: the loss, the share of decisions
that counted, the steps per second of the rollout, and, before training and
every ``eval_every`` iterations, the network's mean reward in seat 0 against
random seats over ``eval_games`` fresh games (0 is a random player's
expectation; 1 - 1/n is winning every game alone).

It is an example to start from, not a tuned trainer; it is not run in CI
(a test runs two tiny iterations).
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import optax

from ..vector.env import Env, EnvState
from ..vector.sparse import batched
from .train import _forward, _init
from .vector_bench import random_legal

__all__ = [
    "IterationStats",
    "TrainConfig",
    "bootstrapped_targets",
    "evaluate_against_random",
    "main",
    "mover_returns",
    "rollout_with_rivals",
    "seat_returns",
    "shaped_rewards",
    "train_self_play",
]

Params = dict[str, jax.Array]


@dataclasses.dataclass(frozen=True)
class TrainConfig:
    """The loop's settings; :meth:`check` refuses what is not a setting, with one line."""

    players: int = 4
    deck: str = "base"
    batch: int = 512
    horizon: int = 128
    iterations: int = 50
    hidden: tuple[int, ...] = (256, 256)
    learning_rate: float = 3e-4
    entropy: float = 0.01
    value_weight: float = 0.5
    eval_every: int = 10
    eval_games: int = 512
    seed: int = 0

    def check(self) -> None:
        for name in ("batch", "horizon", "iterations", "eval_every", "eval_games"):
            value = getattr(self, name)
            if type(value) is not int or value < 1:
                raise ValueError(f"{name} must be a positive int, got {value!r}")
        if not self.hidden or any(type(h) is not int or h < 1 for h in self.hidden):
            raise ValueError(f"hidden must be positive layer widths, got {self.hidden!r}")
        if not self.learning_rate > 0:
            raise ValueError(f"the learning rate must be positive, got {self.learning_rate!r}")


@dataclasses.dataclass(frozen=True)
class IterationStats:
    iteration: int
    loss: float
    #: Share of the rollout's decisions whose game ended within it (those the loss counts).
    counted: float
    #: Environment steps per second of this iteration's rollout and update.
    steps_per_s: float
    #: Seat 0's mean reward against random seats, when evaluated this iteration.
    reward_vs_random: float | None


class Rollout(NamedTuple):
    """(T, B, ...) what each step saw and did, and how it ended."""

    observation: jax.Array
    mask: jax.Array
    action: jax.Array
    #: The log-probability the acting network gave ``action`` (for importance ratios, as PPO's).
    logp: jax.Array
    #: The acting network's value estimate and the entropy of its policy at the decision.
    value: jax.Array
    entropy: jax.Array
    seat: jax.Array
    rewards: jax.Array
    done: jax.Array
    #: Whether the network being trained made the move (False where a rival network played it).
    mine: jax.Array


def _policy(
    params: Params, layers: int, observation: jax.Array, mask: jax.Array
) -> tuple[jax.Array, jax.Array]:
    """Masked logits and values of a batch of observations."""
    logits, value = _forward(params, observation, jnp.zeros(observation.shape[0], jnp.int32), layers)
    return jnp.where(mask, logits, -1e9), value


def _rollout(env: Env, layers: int, horizon: int) -> Callable[..., tuple[EnvState, Rollout]]:
    """``horizon`` steps of a batch, every seat sampling from the network, in one ``lax.scan``."""
    play = rollout_with_rivals(env, layers, horizon)

    def run(params: Params, state: EnvState, key: jax.Array) -> tuple[EnvState, Rollout]:
        return play(params, params, state, key)

    return run


def shaped_rewards(after: EnvState, score_weight: float) -> jax.Array:
    """The (B, N) rewards of a step: the environment's, and where a game ended, ``score_weight``
    times each seat's final IP less the table's mean, over 10 (the observation's IP scale),
    clipped to [-1, 1], the range of the value head (``tanh``) that estimates them.

    Why: a 4-player game's winner says little about a move, its scores say more; the margin
    keeps the rewards summing to zero (unless clipped). With ``score_weight`` 0 the environment's
    rewards alone. ``after`` is the state a step of a game in progress led to: a finished game is
    dealt afresh before its next step (``Env.reset_done``), so its margin is added once.
    """
    if not score_weight:
        return after.rewards
    score = after.game.score.astype(jnp.float32)
    margin = (score - score.mean(axis=-1, keepdims=True)) / 10.0
    shaped = after.rewards + jnp.where(after.terminated[:, None], score_weight * margin, 0.0)
    return jnp.clip(shaped, -1.0, 1.0)


def rollout_with_rivals(
    env: Env, layers: int, horizon: int, rival_games: int = 0, score_weight: float = 0.0
) -> Callable[..., tuple[EnvState, Rollout]]:
    """``horizon`` steps of a batch in one ``lax.scan``, games that end dealt afresh.

    ``run(params, rival, state, key)``: in the first ``rival_games`` games of
    the batch, game ``b`` seats ``params`` at seat ``b % players`` (the slot
    keeps that seat for every game dealt into it, so every seat is learned
    from about as often) and ``rival`` at the others; every seat of the other
    games samples from ``params`` (self-play). Log-probabilities, values and
    entropies are always ``params``'s, and ``mine`` says which moves it made.
    The rival network is evaluated on the rival games only; with none, never.
    The rewards recorded are :func:`shaped_rewards`'s with ``score_weight``.
    """
    seats = jnp.arange(rival_games, dtype=jnp.int32) % env.num_players

    def run(params: Params, rival: Params, state: EnvState, key: jax.Array) -> tuple[EnvState, Rollout]:
        def one(carry: tuple[EnvState, jax.Array], _: None) -> tuple[tuple[EnvState, jax.Array], Rollout]:
            state, key = carry
            key, pick, deal = jax.random.split(key, 3)
            logits, value = _policy(params, layers, state.observation, state.legal_action_mask)
            mine, acting = jnp.ones(logits.shape[0], dtype=bool), logits
            if rival_games:
                k = rival_games
                theirs = _policy(rival, layers, state.observation[:k], state.legal_action_mask[:k])[0]
                mine = mine.at[:k].set(state.current_player[:k] == seats)
                acting = acting.at[:k].set(jnp.where(mine[:k, None], logits[:k], theirs))
            action = jax.random.categorical(pick, acting, axis=-1).astype(jnp.int32)
            logp_all = jax.nn.log_softmax(logits)
            logp = jnp.take_along_axis(logp_all, action[:, None], axis=1)[:, 0]
            entropy = -jnp.where(state.legal_action_mask, jnp.exp(logp_all) * logp_all, 0.0).sum(axis=1)
            after = env.step_batch(state, action)
            seen = Rollout(
                state.observation,
                state.legal_action_mask,
                action,
                logp,
                value,
                entropy,
                state.current_player,
                shaped_rewards(after, score_weight),
                after.terminated,
                mine,
            )
            return (env.reset_done(after, deal), key), seen

        (state, _), seen = jax.lax.scan(one, (state, key), None, length=horizon)
        return state, seen

    return run


def seat_returns(rewards: jax.Array, done: jax.Array) -> tuple[jax.Array, jax.Array]:
    """Each step's (T, B, N) return per seat (the rewards to the end of its game) and (T, B) whether
    its game ended within the rollout; from the (T, B, N) rewards after each step and (T, B) ends."""

    def back(carry: tuple[jax.Array, jax.Array], t: tuple[jax.Array, jax.Array]) -> Any:
        later, ended_later = carry
        reward, ended = t
        same_game = ~ended[:, None]
        total = reward + jnp.where(same_game, later, 0.0)
        complete = ended | ended_later
        return (total, complete), (total, complete)

    start = (jnp.zeros(rewards.shape[1:]), jnp.zeros(done.shape[1:], dtype=bool))
    _, (returns, complete) = jax.lax.scan(back, start, (rewards, done), reverse=True)
    return returns, complete


def mover_returns(rewards: jax.Array, done: jax.Array, seat: jax.Array) -> tuple[jax.Array, jax.Array]:
    """Each step's (T, B) return of the seat that moved (``seat``) and whether its game ended within
    the rollout: :func:`seat_returns` read for the mover."""
    returns, complete = seat_returns(rewards, done)
    return jnp.take_along_axis(returns, seat[..., None], axis=-1)[..., 0], complete


def bootstrapped_targets(
    rewards: jax.Array, done: jax.Array, seat: jax.Array, value: jax.Array
) -> tuple[jax.Array, jax.Array]:
    """Each step's (T, B) target for the seat that moved, and whether it has one.

    A decision whose game ended within the rollout gets its seat's return (as
    :func:`seat_returns`). One whose game goes on past the rollout's end gets
    the value head's estimate at that seat's *last* decision of the same game
    within the rollout: rewards come only at the end, so the return up to the
    cut is zero and the latest estimate stands in for the rest (a truncated
    return, bootstrapped). A seat's last decision before the cut has nothing
    later to read and no target.

    Why: without it a decision counts only if its game ends within the
    rollout, which happens less often the longer the game has left to run: an
    opening move counts about half as often as a last one with 4 players and
    a horizon of 128, and a move that makes its game longer lowers its own
    chance of being counted, a bias in the gradient. ``seat`` and ``value``
    are (T, B): the mover and the value head's estimate at each step.
    """
    returns, complete = mover_returns(rewards, done, seat)
    players = rewards.shape[-1]

    def back(carry: tuple[jax.Array, jax.Array], t: tuple[jax.Array, jax.Array]) -> Any:
        # (B, N): each seat's last estimate later in the rollout. Every step before a game's end
        # has its return, so one read across an end (from the next game) is never used.
        last_value, has_last = carry
        mover, estimate = t
        boot = jnp.take_along_axis(last_value, mover[:, None], axis=1)[:, 0]
        has = jnp.take_along_axis(has_last, mover[:, None], axis=1)[:, 0]
        first_seen = (jnp.arange(players)[None, :] == mover[:, None]) & ~has_last
        last_value = jnp.where(first_seen, estimate[:, None], last_value)
        return (last_value, has_last | first_seen), (boot, has)

    start = (jnp.zeros(rewards.shape[1:]), jnp.zeros(rewards.shape[1:], dtype=bool))
    _, (boot, has) = jax.lax.scan(back, start, (seat, value), reverse=True)
    return jnp.where(complete, returns, boot), complete | has


def _loss(params: Params, layers: int, seen: Rollout, config: TrainConfig) -> tuple[jax.Array, jax.Array]:
    returns, complete = mover_returns(seen.rewards, seen.done, seen.seat)
    flat = seen.observation.reshape(-1, seen.observation.shape[-1])
    logits, value = _policy(params, layers, flat, seen.mask.reshape(-1, seen.mask.shape[-1]))
    logp = jax.nn.log_softmax(logits)
    chosen = jnp.take_along_axis(logp, seen.action.reshape(-1, 1), axis=1)[:, 0]
    weight = complete.reshape(-1).astype(jnp.float32)
    count = jnp.maximum(weight.sum(), 1.0)
    target = returns.reshape(-1)
    advantage = jax.lax.stop_gradient(target - value)
    policy = -(weight * chosen * advantage).sum() / count
    value_loss = (weight * (value - target) ** 2).sum() / count
    probs = jnp.exp(logp)
    entropy = -(weight * jnp.where(probs > 0, probs * logp, 0.0).sum(axis=1)).sum() / count
    return policy + config.value_weight * value_loss - config.entropy * entropy, weight.mean()


def evaluate_against_random(env: Env, params: Params, layers: int, games: int, key: jax.Array) -> float:
    """Seat 0's mean reward over ``games`` fresh games, the network (greedy) against random seats."""
    return float(_evaluation(env, layers, games)(params, key))


@functools.cache
def _evaluation(env: Env, layers: int, games: int) -> Callable[[Params, jax.Array], jax.Array]:
    """The jitted evaluation of one setup (compiled once, however often it is evaluated)."""

    def run(params: Params, key: jax.Array) -> jax.Array:
        init_key, play_key = jax.random.split(key)
        state = batched(env.init)(jax.random.split(init_key, games))

        def turn(carry: tuple[EnvState, jax.Array, jax.Array]) -> tuple[EnvState, jax.Array, jax.Array]:
            s, k, total = carry
            k, pick = jax.random.split(k)
            logits, _value = _policy(params, layers, s.observation, s.legal_action_mask)
            mine = jnp.argmax(logits, axis=-1).astype(jnp.int32)
            action = jnp.where(s.current_player == 0, mine, random_legal(pick, s.legal_action_mask))
            s = env.step_batch(s, action)
            return s, k, total + s.rewards[:, 0]

        def playing(carry: tuple[EnvState, jax.Array, jax.Array]) -> jax.Array:
            return ~carry[0].terminated.all()

        _, _, total = jax.lax.while_loop(playing, turn, (state, play_key, jnp.zeros(games)))
        return total.mean()

    return jax.jit(run)


def train_self_play(
    config: TrainConfig, report: Callable[[IterationStats], None] | None = None
) -> tuple[Params, list[IterationStats]]:
    """Train by self-play as the module docstring says; the parameters and each iteration's stats."""
    config.check()
    env = Env(config.players, config.deck)  # refuses a wrong player count or deck
    layers = len(config.hidden)
    key = jax.random.key(config.seed)
    key, init_key, deal_key = jax.random.split(key, 3)
    params = _init(init_key, [env.observation_shape[0], *config.hidden], env.num_actions)
    optimizer = optax.adam(config.learning_rate)
    opt_state = optimizer.init(params)
    rollout = _rollout(env, layers, config.horizon)
    state = jax.jit(batched(env.init))(jax.random.split(deal_key, config.batch))

    @jax.jit
    def iteration(params: Params, opt_state: Any, state: EnvState, key: jax.Array) -> Any:
        state, seen = rollout(params, state, key)
        (loss, counted), grads = jax.value_and_grad(_loss, has_aux=True)(params, layers, seen, config)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, state, loss, counted

    # Iteration 0: the untrained network, the figure the others compare with.
    key, eval_key = jax.random.split(key)
    untrained = evaluate_against_random(env, params, layers, config.eval_games, eval_key)
    history = [IterationStats(0, float("nan"), 0.0, 0.0, untrained)]
    if report is not None:
        report(history[0])
    for i in range(1, config.iterations + 1):
        key, step_key, eval_key = jax.random.split(key, 3)
        t0 = time.perf_counter()
        params, opt_state, state, loss, counted = iteration(params, opt_state, state, step_key)
        loss.block_until_ready()
        seconds = time.perf_counter() - t0
        versus = None
        if i % config.eval_every == 0 or i == config.iterations:
            versus = evaluate_against_random(env, params, layers, config.eval_games, eval_key)
        stats = IterationStats(
            i, float(loss), float(counted), config.batch * config.horizon / seconds, versus
        )
        history.append(stats)
        if report is not None:
            report(stats)
    return params, history


def _parse(argv: Sequence[str]) -> TrainConfig:
    defaults = TrainConfig()
    parser = argparse.ArgumentParser(
        prog="python -m oriflamme.rl.vector_train",
        description="Self-play policy gradient on the batched JAX engine (an example).",
    )
    for field in dataclasses.fields(TrainConfig):
        default = getattr(defaults, field.name)
        flag = "--" + field.name.replace("_", "-")
        if field.name == "hidden":
            parser.add_argument(flag, type=int, nargs="+", default=list(default), help="trunk layer widths")
        else:
            parser.add_argument(flag, type=type(default), default=default)
    args = vars(parser.parse_args(argv))
    args["hidden"] = tuple(args["hidden"])
    return TrainConfig(**args)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the example from the command line; a wrong setting is one line on stderr and exit code 2."""
    config = _parse(sys.argv[1:] if argv is None else argv)

    def show(s: IterationStats) -> None:
        versus = "" if s.reward_vs_random is None else f", seat 0 vs random {s.reward_vs_random:+.3f}"
        if s.iteration == 0:
            print(f"untrained{versus[1:]}", flush=True)
            return
        print(
            f"iteration {s.iteration}: loss {s.loss:.4f}, {s.counted:.0%} of decisions counted, "
            f"{s.steps_per_s:,.0f} steps/s{versus}",
            flush=True,
        )

    try:
        train_self_play(config, show)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
