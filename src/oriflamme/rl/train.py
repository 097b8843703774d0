"""Training the ``net`` bot's policy/value network with JAX (the ``train`` extra).

Supervised learning on search games (:mod:`oriflamme.rl.dataset`): the
policy head learns the search's root visit distribution over the legal
indices (cross-entropy, illegal indices masked out) and the value head the
deciding seat's final reward (squared error on ``tanh``), as in expert
iteration. The result is a :class:`~oriflamme.bots.net.model.Network` of
numpy arrays, saved in the format the ``net`` bot plays from, so playing
never needs JAX.

Why JAX: on the package registry this project installs from, ``torch``
resolves to a CUDA build of several gigabytes, while ``jax[cpu]`` is a wheel
of about 85 MB and trains this network on a CPU at several thousand
examples per second (docs/training.md).

The last ``holdout`` share of the examples (the last games played, as the
dataset keeps each game's decisions together; one game may straddle the
cut) is kept out of training to report how well the network predicts the
search on decisions it has not seen.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import optax

from ..bots.net.model import Network
from .dataset import Examples

__all__ = ["EpochStats", "fit", "from_network", "to_network"]

Params = dict[str, jax.Array]


@dataclass(frozen=True)
class EpochStats:
    """What one epoch measured: training loss, and the held-out examples' losses and agreement."""

    epoch: int
    train_loss: float
    holdout_policy_loss: float
    holdout_value_mse: float
    #: Share of held-out decisions where the network's best legal action is one the search visited most.
    holdout_agreement: float
    seconds: float


def _init(key: jax.Array, sizes: Sequence[int], actions: int) -> Params:
    params: Params = {}
    keys = jax.random.split(key, len(sizes) + 1)
    for i, (n_in, n_out) in enumerate(itertools.pairwise(sizes)):
        params[f"trunk_w{i}"] = jax.random.normal(keys[i], (n_in, n_out)) * jnp.sqrt(2.0 / n_in)
        params[f"trunk_b{i}"] = jnp.zeros(n_out)
    width = sizes[-1]
    params["policy_w"] = jax.random.normal(keys[-1], (width, actions)) * jnp.sqrt(1.0 / width) * 0.1
    params["policy_b"] = jnp.zeros(actions)
    params["value_w"] = jnp.zeros((width, 1))
    params["value_b"] = jnp.zeros(1)
    return params


def _forward(params: Params, x: jax.Array, hint: jax.Array, layers: int) -> tuple[jax.Array, jax.Array]:
    h = x
    for i in range(layers):
        h = jax.nn.relu(h @ params[f"trunk_w{i}"] + params[f"trunk_b{i}"])
    logits = h @ params["policy_w"] + params["policy_b"]
    if "heuristic_bonus" in params:
        logits = logits + params["heuristic_bonus"] * jax.nn.one_hot(hint, logits.shape[1])
    value = jnp.tanh(h @ params["value_w"] + params["value_b"])[:, 0]
    return logits, value


def to_network(params: Params, meta: dict[str, Any]) -> Network:
    """The numpy :class:`~oriflamme.bots.net.model.Network` of JAX parameters (the hint's bonus, if any)."""
    arrays = {k: np.asarray(v, dtype=np.float32) for k, v in params.items()}
    layers = sum(1 for name in arrays if name.startswith("trunk_w"))
    return Network(
        trunk=[(arrays[f"trunk_w{i}"], arrays[f"trunk_b{i}"]) for i in range(layers)],
        policy=(arrays["policy_w"], arrays["policy_b"]),
        value=(arrays["value_w"], arrays["value_b"]),
        heuristic_bonus=float(arrays["heuristic_bonus"]) if "heuristic_bonus" in arrays else 0.0,
        meta=meta,
    )


def from_network(network: Network) -> Params:
    """JAX parameters of a numpy network, without its hint (to start training from a weights file)."""
    params: Params = {}
    for i, (w, b) in enumerate(network.trunk):
        params[f"trunk_w{i}"] = jnp.asarray(w)
        params[f"trunk_b{i}"] = jnp.asarray(b)
    for name, (w, b) in (("policy", network.policy), ("value", network.value)):
        params[f"{name}_w"] = jnp.asarray(w)
        params[f"{name}_b"] = jnp.asarray(b)
    return params


def _losses(
    params: Params, batch: dict[str, jax.Array], layers: int
) -> tuple[jax.Array, jax.Array, jax.Array]:
    logits, value = _forward(params, batch["observations"], batch["heuristic"], layers)
    logits = jnp.where(batch["masks"] > 0, logits, -1e9)
    logp = jax.nn.log_softmax(logits)
    policy_loss = -jnp.sum(batch["policies"] * jnp.where(batch["masks"] > 0, logp, 0.0), axis=1).mean()
    value_mse = jnp.mean((value - batch["values"]) ** 2)
    # The search's visits often tie at the top: any most visited action counts as agreeing.
    picked = jnp.take_along_axis(batch["policies"], jnp.argmax(logits, axis=1)[:, None], axis=1)[:, 0]
    agree = jnp.mean(picked >= batch["policies"].max(axis=1))
    return policy_loss, value_mse, agree


def fit(
    examples: Examples,
    *,
    hidden: Sequence[int] = (256, 256),
    epochs: int = 10,
    batch_size: int = 256,
    learning_rate: float = 1e-3,
    weight_decay: float = 1e-4,
    value_weight: float = 1.0,
    holdout: float = 0.1,
    heuristic_hint: bool = True,
    seed: int = 0,
    on_epoch: Callable[[EpochStats], None] | None = None,
    on_batch: Callable[[int], None] | None = None,
    init: Network | None = None,
) -> tuple[Network, list[EpochStats]]:
    """Train a network on ``examples``; return it and each epoch's measurements.

    ``heuristic_hint`` learns a bonus for the heuristic policy's move (see
    :mod:`oriflamme.bots.net.model`); without it the network plays alone.
    ``init`` starts from that network's weights instead of random ones (to improve it on its own
    search's targets); its trunk's widths must be ``hidden``, and with the hint its bonus is kept.
    ``on_batch`` is called with the number of examples of each batch
    trained on, ``on_epoch`` with each epoch's :class:`EpochStats`.
    """
    if not hidden or any(h < 1 for h in hidden):
        raise ValueError(f"hidden layer widths must be positive, got {list(hidden)}")
    if epochs < 1 or batch_size < 1 or not 0 <= holdout < 1:
        raise ValueError("epochs and batch size must be >= 1, and holdout in [0, 1)")
    n = len(examples)
    n_hold = int(n * holdout)
    n_train = n - n_hold
    if n_train < 1:
        raise ValueError(f"{n} examples leave none to train on")
    obs, masks, policies, values = examples.observations, examples.masks, examples.policies, examples.values
    layers = len(hidden)
    if init is None:
        params = _init(jax.random.PRNGKey(seed), [obs.shape[1], *hidden], policies.shape[1])
    else:
        if init.hidden != tuple(hidden):
            raise ValueError(
                f"the starting network's layer widths are {list(init.hidden)}, not {list(hidden)}"
            )
        params = from_network(init)
    if heuristic_hint:
        # A starting network's own bonus, else a first guess that trusts the hint a little.
        bonus = init.heuristic_bonus if init is not None and init.heuristic_bonus else 1.0
        params["heuristic_bonus"] = jnp.asarray(bonus, dtype=jnp.float32)
    optimizer = optax.adamw(learning_rate, weight_decay=weight_decay)
    opt_state = optimizer.init(params)

    def loss_fn(p: Params, batch: dict[str, jax.Array]) -> jax.Array:
        policy_loss, value_mse, _ = _losses(p, batch, layers)
        return policy_loss + value_weight * value_mse

    @jax.jit
    def step(p: Params, state: Any, batch: dict[str, jax.Array]) -> tuple[Params, Any, jax.Array]:
        loss, grads = jax.value_and_grad(loss_fn)(p, batch)
        updates, state = optimizer.update(grads, state, p)
        return optax.apply_updates(p, updates), state, loss

    evaluate = jax.jit(lambda p, batch: _losses(p, batch, layers))

    def batch_of(rows: slice | np.ndarray) -> dict[str, jax.Array]:
        return {
            "observations": jnp.asarray(obs[rows]),
            "masks": jnp.asarray(masks[rows]),
            "policies": jnp.asarray(policies[rows]),
            "values": jnp.asarray(values[rows]),
            "heuristic": jnp.asarray(examples.heuristic[rows].astype(np.int32)),
        }

    rng = np.random.default_rng(seed)
    history: list[EpochStats] = []
    for epoch in range(1, epochs + 1):
        started = time.perf_counter()
        order = rng.permutation(n_train)
        total, seen = 0.0, 0
        for at in range(0, n_train, batch_size):
            rows = np.sort(order[at : at + batch_size])
            params, opt_state, loss = step(params, opt_state, batch_of(rows))
            total += float(loss) * len(rows)
            seen += len(rows)
            if on_batch is not None:
                on_batch(len(rows))
        sums = np.zeros(3)
        for at in range(n_train, n, batch_size):
            rows_h = slice(at, min(n, at + batch_size))
            size = rows_h.stop - rows_h.start
            sums += np.array([float(v) for v in evaluate(params, batch_of(rows_h))]) * size
        held = sums / n_hold if n_hold else np.full(3, float("nan"))
        stats = EpochStats(
            epoch=epoch,
            train_loss=total / seen,
            holdout_policy_loss=float(held[0]),
            holdout_value_mse=float(held[1]),
            holdout_agreement=float(held[2]),
            seconds=time.perf_counter() - started,
        )
        history.append(stats)
        if on_epoch is not None:
            on_epoch(stats)
    network = to_network(
        params,
        {
            "trained": {
                "examples": n,
                "holdout": n_hold,
                "epochs": epochs,
                "batch_size": batch_size,
                "learning_rate": learning_rate,
                "weight_decay": weight_decay,
                "value_weight": value_weight,
                "heuristic_hint": heuristic_hint,
                "seed": seed,
                # Which network it started from (Network.digest), or None: random weights.
                "init": None if init is None else init.digest(),
                "jax": jax.__version__,
                "data": examples.meta,
                "history": [asdict(h) for h in history],
            }
        },
    )
    return network, history
