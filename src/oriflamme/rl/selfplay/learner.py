"""One network learning from its own games: the jitted rollout and update of each setup.

Every seat of ``batch`` games is played by the network being trained; one
iteration rolls one setup's games ``horizon`` steps on (``lax.scan``, games
that end dealt afresh), then takes ``epochs`` passes over what it saw in
``minibatches`` shuffled parts, each one gradient step of PPO's clipped
objective (Schulman et al., 2017) with optax's Adam.

**Returns, not bootstrapped values.** A decision's target is the reward its
seat got when that game ended (``vector_train.seat_returns``): Oriflamme's
rewards come only at the end, a game is short (a few dozen decisions per
seat), and a return read from the game itself carries none of a young value
head's errors: the Monte-Carlo targets of Deep Monte-Carlo (DouZero). A
decision whose game has not ended within the rollout has no target yet and
is left out; the advantage is that return less the value head's estimate
when the move was made. That leaves out more of a game's early decisions
than of its late ones; ``bootstrap`` gives them the value head's latest
estimate instead (``vector_train.bootstrapped_targets``).

**Rivals.** With ``rivals``, that share of each setup's games (a fixed set
of slots, ``vector_train.rollout_with_rivals``) seat the network being trained at one seat and
a past network at the others: a snapshot drawn each iteration from the last
``rival_pool``, taken every ``rival_every`` iterations (the starting network
fills the pool at first). Only the trained seat's moves are learned from
there. Why: a network that only ever meets itself can drift to habits that
beat itself and nothing else (fine-tuning one setup from ``zero-v1`` lost
strength against the search before it gained it back; docs/training.md);
past selves are the usual check on that (the league of past snapshots of
OpenAI Five and AlphaStar). With ``rivals_from`` the pool is fixed networks
instead (``net``'s network without its hint, trained to imitate
``ismcts:normal``): the trained seat then learns to win at a table whose
style is another population's, not its own.

**Anchor.** With ``anchor``, the loss adds ``anchor_weight`` times
KL(policy || anchor) over every decision of the trained network (piKL's
regularised self-play, Jacob et al., 2022): the anchor's log-probabilities
are computed once per rollout. Why: the 4-player network learned habits of
a table of its own copies (it never plays the Conspiracy, which they
eliminate); an anchor that plays as the searches do keeps it near their
moves where its own games do not tell moves apart (docs/training.md).

The setups take turns, ``block`` iterations each, each with its own games
in progress; they all share one network, since the observation and the
action space are the same for every player count and deck.

**Programs kept.** A setup's compiled iteration is large: on XLA's CPU
backend it holds about 5,000 memory mappings, and Linux allows a process
65,530 by default, so sixteen setups compiled at once fail ("LLVM
compilation error: Cannot allocate memory", as a run here did). At most
``max_live`` programs stay compiled; the one used longest ago is dropped and,
when its turn comes again, loaded from JAX's compilation cache (seconds) or
compiled again (a minute), which is why setups take turns in blocks.
"""

from __future__ import annotations

import collections
import dataclasses
import gc
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import optax

from ...bots.net import default_network
from ...bots.net.model import load
from ...vector.env import Env, EnvState
from ...vector.sparse import batched
from ..train import _init, from_network
from ..vector_train import Rollout, _policy, bootstrapped_targets, mover_returns, rollout_with_rivals
from .config import SelfPlayConfig
from .grow import grown, trunk_widths

__all__ = ["MAX_LIVE", "Learner", "Programs", "TrainingState", "UpdateStats"]

Params = dict[str, jax.Array]


@dataclasses.dataclass
class TrainingState:
    """Everything a run needs to go on exactly where it stopped (saved by :mod:`.checkpoint`)."""

    iteration: int
    params: Params
    opt_state: Any
    #: Per setup, its games in progress.
    games: list[EnvState]
    key: jax.Array
    #: Environment steps taken so far, and games finished.
    steps: int = 0
    finished: int = 0
    #: The networks rival games draw from (past ones, or ``rivals_from``'s), stacked on a first axis
    #: (None without ``rivals``).
    pool: Params | None = None
    #: The network the policy is kept near (None without ``anchor``), as read when the run started.
    anchor: Params | None = None


@dataclasses.dataclass(frozen=True)
class UpdateStats:
    """What one iteration measured."""

    loss: float
    #: Share of the rollout's decisions the loss counts: those whose game ended within it, and with
    #: ``bootstrap`` also those with a later decision of their seat in the same game.
    counted: float
    #: Games that ended during the rollout.
    finished: int
    #: Mean squared error of the value head against the returns, before the update.
    value_mse: float
    #: Mean entropy of the policy over the counted decisions, before the update.
    entropy: float
    #: Mean KL(policy || anchor) over the trained network's decisions, before the update (0 without
    #: ``anchor``).
    anchor_kl: float = 0.0


class Programs:
    """At most ``most`` built things by key, the one used longest ago dropped first."""

    def __init__(self, build: Callable[[int], Callable[..., Any]], most: int) -> None:
        if most < 1:
            raise ValueError(f"at least one program must be kept, got {most}")
        self._build = build
        self.most = most
        self.live: collections.OrderedDict[int, Callable[..., Any]] = collections.OrderedDict()

    def __getitem__(self, key: int) -> Callable[..., Any]:
        if key in self.live:
            self.live.move_to_end(key)
            return self.live[key]
        while len(self.live) >= self.most:
            self.live.popitem(last=False)
        gc.collect()  # a dropped program's memory goes back now, before the next one is made
        program = self.live[key] = self._build(key)
        return program


#: Compiled setups kept at once (about 5,000 memory mappings each; Linux's default limit is 65,530).
MAX_LIVE = 8


class Learner:
    """The compiled pieces of one configuration (compiled on first use, per setup)."""

    def __init__(self, config: SelfPlayConfig, max_live: int = MAX_LIVE) -> None:
        config.check()
        self.config = config
        self.layers = len(config.hidden)
        self.envs = [Env(s.players, s.deck) for s in config.setups]
        self.optimizer = optax.chain(
            optax.clip_by_global_norm(config.max_grad_norm), optax.adam(config.learning_rate)
        )
        self.programs = Programs(lambda which: jax.jit(self._build(self.envs[which])), max_live)

    def start(self) -> TrainingState:
        """Iteration 0: fresh (or ``init``'s) weights and fresh games, all from the seed."""
        key = jax.random.key(self.config.seed)
        key, init_key, *deal_keys = jax.random.split(key, 2 + len(self.envs))
        if self.config.init is not None:
            init = self.config.init
            params = _read_network(init)
            try:
                # A larger trunk than the file's grows it, playing as the file did (grow.grown).
                params = grown(params, self.config.hidden, init_key)
            except ValueError as exc:
                raise ValueError(f"{init}: {exc}") from None
        else:
            env = self.envs[0]
            params = _init(init_key, [env.observation_shape[0], *self.config.hidden], env.num_actions)
        games = [
            jax.jit(batched(env.init))(jax.random.split(k, self.config.batch))
            for env, k in zip(self.envs, deal_keys, strict=True)
        ]
        pool = self.first_pool(params) if self.config.rival_games else None
        anchor = None
        if self.config.anchor is not None:
            anchor = _read_network(self.config.anchor)
        return TrainingState(0, params, self.optimizer.init(params), games, key, pool=pool, anchor=anchor)

    def first_pool(self, params: Params) -> Params:
        """The rivals' pool at the start: the ``rivals_from`` networks (each with ``params``' trunk),
        or ``rival_pool`` copies of the first network, stacked."""
        if not self.config.rivals_from:
            return self.pool_like(params)
        networks = [_read_network(name) for name in self.config.rivals_from]
        for name, network in zip(self.config.rivals_from, networks, strict=True):
            if {k: v.shape for k, v in network.items()} != {k: v.shape for k, v in params.items()}:
                raise ValueError(
                    f"rival {name}: its trunk {trunk_widths(network)} is not the run's {trunk_widths(params)}"
                )
        return {k: jnp.stack([n[k].astype(v.dtype) for n in networks]) for k, v in params.items()}

    def pool_like(self, params: Params) -> Params:
        """``pool_size`` copies of ``params``, stacked: the pool's shape (and the snapshots' start)."""
        return {name: jnp.stack([value] * self.config.pool_size) for name, value in params.items()}

    def setup_of(self, iteration: int) -> int:
        """Which setup iteration ``iteration`` (from 1) plays: each in turn, ``block`` iterations each."""
        return (iteration - 1) // self.config.block % len(self.envs)

    def advance(self, state: TrainingState) -> tuple[TrainingState, UpdateStats]:
        """One iteration: the next setup's rollout and the updates it gives."""
        iteration = state.iteration + 1
        which = self.setup_of(iteration)
        key, step_key = jax.random.split(state.key)
        params, opt_state, games, stats = self.programs[which](
            state.params, state.opt_state, state.games[which], step_key, state.pool, state.anchor
        )
        loss, counted, finished, value_mse, entropy, anchor_kl = (float(x) for x in stats)
        after = dataclasses.replace(
            state,
            iteration=iteration,
            params=params,
            opt_state=opt_state,
            games=[games if i == which else g for i, g in enumerate(state.games)],
            key=key,
            steps=state.steps + self.config.batch * self.config.horizon,
            finished=state.finished + int(finished),
            pool=self._snapshot(state.pool, params, iteration),
        )
        return after, UpdateStats(loss, counted, int(finished), value_mse, entropy, anchor_kl)

    def _snapshot(self, pool: Params | None, params: Params, iteration: int) -> Params | None:
        """The pool after ``iteration``: every ``rival_every`` iterations the oldest snapshot gives
        way to the network as it is now."""
        if pool is None or self.config.rivals_from or iteration % self.config.rival_every:
            return pool
        slot = (iteration // self.config.rival_every - 1) % self.config.rival_pool
        return {name: stack.at[slot].set(params[name]) for name, stack in pool.items()}

    def _build(self, env: Env) -> Callable[..., Any]:
        config, layers, optimizer = self.config, self.layers, self.optimizer
        rival_games = config.rival_games
        rollout = rollout_with_rivals(env, layers, config.horizon, rival_games, config.score_weight)

        def run(
            params: Params,
            opt_state: Any,
            games: EnvState,
            key: jax.Array,
            pool: Params | None,
            anchor: Params | None,
        ) -> Any:
            rival = params
            if rival_games:
                assert pool is not None
                roll_key, shuffle_key, rival_key = jax.random.split(key, 3)
                drawn = jax.random.randint(rival_key, (), 0, config.pool_size)
                rival = {name: stack[drawn] for name, stack in pool.items()}
            else:
                roll_key, shuffle_key = jax.random.split(key)
            games, seen = rollout(params, rival, games, roll_key)
            data, before = _flatten(seen, config.bootstrap)
            anchor_kl = jnp.zeros(())
            if anchor is not None:
                # Every decision of the trained network is kept near the anchor, counted or not:
                # the divergence needs no return.
                data["mine"] = seen.mine.reshape(-1).astype(jnp.float32)
                data["anchor_logp"], anchor_kl = _anchor_logp(params, layers, anchor, data)
            size = data["weight"].shape[0]
            part = size // config.minibatches

            def minibatch(carry: tuple[Params, Any], rows: jax.Array) -> tuple[tuple[Params, Any], jax.Array]:
                p, o = carry
                chunk = jax.tree.map(lambda x: x[rows], data)
                loss, grads = jax.value_and_grad(_ppo_loss)(p, layers, chunk, config)
                updates, o = optimizer.update(grads, o, p)
                return (optax.apply_updates(p, updates), o), loss

            def epoch(carry: tuple[Params, Any], k: jax.Array) -> tuple[tuple[Params, Any], jax.Array]:
                order = jax.random.permutation(k, size).reshape(config.minibatches, part)
                carry, losses = jax.lax.scan(minibatch, carry, order)
                return carry, losses.mean()

            (params, opt_state), losses = jax.lax.scan(
                epoch, (params, opt_state), jax.random.split(shuffle_key, config.epochs)
            )
            stats = (
                losses[-1],
                data["weight"].mean(),
                seen.done.sum(),
                *before,
                anchor_kl,
            )
            return params, opt_state, games, stats

        return run


def _read_network(name: str) -> Params:
    """The network of a weights file, or ``net``'s, as training parameters (its hint left out)."""
    return from_network(default_network() if name == "net" else load(name))


def _flatten(seen: Rollout, bootstrap: bool) -> tuple[dict[str, jax.Array], tuple[jax.Array, jax.Array]]:
    """A rollout as one row per decision (inputs, action, old log-prob, target, advantage, weight;
    the target the return, or with ``bootstrap`` :func:`bootstrapped_targets`'s),
    and the value head's squared error and the policy's entropy over the counted rows, as the
    acting network saw them (the rollout keeps its values: no second pass over the decisions)."""
    if bootstrap:
        target, counted = bootstrapped_targets(seen.rewards, seen.done, seen.seat, seen.value)
    else:
        target, counted = mover_returns(seen.rewards, seen.done, seen.seat)
    target = target.reshape(-1)
    value = seen.value.reshape(-1)
    weight = (counted & seen.mine).reshape(-1).astype(jnp.float32)
    count = jnp.maximum(weight.sum(), 1.0)
    return {
        "observation": seen.observation.reshape(-1, seen.observation.shape[-1]),
        "mask": seen.mask.reshape(-1, seen.mask.shape[-1]),
        "action": seen.action.reshape(-1),
        "logp": seen.logp.reshape(-1),
        "target": target,
        "advantage": target - value,
        "weight": weight,
    }, ((weight * (value - target) ** 2).sum() / count, (weight * seen.entropy.reshape(-1)).sum() / count)


def _anchor_logp(
    params: Params, layers: int, anchor: Params, data: dict[str, jax.Array]
) -> tuple[jax.Array, jax.Array]:
    """The anchor's log-probabilities of every action at every decision of the rollout (computed
    once, not per pass), and the mean KL(policy || anchor) over the trained network's decisions
    before the update."""
    anchor_layers = sum(1 for name in anchor if name.startswith("trunk_w"))
    logits, _ = _policy(anchor, anchor_layers, data["observation"], data["mask"])
    anchor_logp = jax.nn.log_softmax(logits)
    own_logits, _ = _policy(params, layers, data["observation"], data["mask"])
    return anchor_logp, _mean_kl(jax.nn.log_softmax(own_logits), anchor_logp, data)


def _mean_kl(logp: jax.Array, anchor_logp: jax.Array, data: dict[str, jax.Array]) -> jax.Array:
    """KL(policy || anchor) over the legal actions, averaged over the trained network's decisions."""
    kl = jnp.where(data["mask"], jnp.exp(logp) * (logp - anchor_logp), 0.0).sum(axis=1)
    mine = data["mine"]
    return (mine * kl).sum() / jnp.maximum(mine.sum(), 1.0)


def _ppo_loss(params: Params, layers: int, data: dict[str, jax.Array], config: SelfPlayConfig) -> jax.Array:
    """PPO's clipped surrogate, the value head's squared error and an entropy bonus, over counted rows."""
    logits, value = _policy(params, layers, data["observation"], data["mask"])
    logp_all = jax.nn.log_softmax(logits)
    logp = jnp.take_along_axis(logp_all, data["action"][:, None], axis=1)[:, 0]
    ratio = jnp.exp(logp - data["logp"])
    advantage = data["advantage"]
    surrogate = jnp.minimum(ratio * advantage, jnp.clip(ratio, 1 - config.clip, 1 + config.clip) * advantage)
    weight = data["weight"]
    count = jnp.maximum(weight.sum(), 1.0)
    entropy = -jnp.where(data["mask"], jnp.exp(logp_all) * logp_all, 0.0).sum(axis=1)
    # A rival's move has the trained network's log-probability, which may be tiny: its ratio may
    # overflow, and a row that does not count must not turn the loss into NaN.
    policy_loss = -jnp.where(weight > 0, surrogate, 0.0).sum() / count
    value_loss = (weight * (value - data["target"]) ** 2).sum() / count
    loss = policy_loss + config.value_weight * value_loss - config.entropy * (weight * entropy).sum() / count
    if "anchor_logp" in data:
        loss = loss + config.anchor_weight * _mean_kl(logp_all, data["anchor_logp"], data)
    return loss
