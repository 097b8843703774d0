"""``oriflamme bench vector``: the vector ``Env``'s steps per second beside the PettingZoo environment's.

Random legal play (``random_legal``) with auto-reset (a game that ends is dealt afresh), the current player's observation
computed at every step, ``steps`` steps of a batch in one jitted ``lax.scan``
on whatever device JAX picks. Compile time is the first call's (per player
count), timed apart from the runs. The PettingZoo ``env()`` plays random
games in the same run, so the ratio compares like with like on one machine.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from time import perf_counter
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from ..vector.dense import first_true
from ..vector.env import Env, EnvState
from ..vector.sparse import batched
from .oriflamme_v0 import env as pettingzoo_env

__all__ = ["VectorBench", "random_legal", "run_vector_bench"]


@dataclasses.dataclass
class VectorRow:
    players: int
    batch: int
    steps: int
    seconds: float
    games: int

    @property
    def steps_per_s(self) -> float:
        return self.batch * self.steps / self.seconds

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds


@dataclasses.dataclass
class VectorBench:
    deck: str
    device: str
    rows: list[VectorRow]
    #: Seconds to compile the batched loop, per player count (its first batch size).
    compile_s: dict[int, float]
    #: The PettingZoo environment's steps per second, per player count.
    pettingzoo_steps_per_s: dict[int, float]

    def ratio(self, row: VectorRow) -> float:
        return row.steps_per_s / self.pettingzoo_steps_per_s[row.players]

    def to_dict(self) -> dict[str, Any]:
        return {
            "deck": self.deck,
            "device": self.device,
            "compile_s": {str(p): round(s, 2) for p, s in self.compile_s.items()},
            "pettingzoo_steps_per_s": {str(p): round(s) for p, s in self.pettingzoo_steps_per_s.items()},
            "rows": [
                {
                    "players": r.players,
                    "batch": r.batch,
                    "steps": r.steps,
                    "seconds": round(r.seconds, 3),
                    "steps_per_s": round(r.steps_per_s),
                    "games_per_s": round(r.games_per_s),
                    "vs_pettingzoo": round(self.ratio(r), 2),
                }
                for r in self.rows
            ],
        }


def random_legal(key: jax.Array, mask: jax.Array) -> jax.Array:
    """(B,) a random legal index of each row of ``mask`` (B, A): the highest of a hash of each index.

    ``jax.random.categorical`` over the 1,502 indices draws 1.5 million random floats for a
    batch of 1,024 and took a third of a step's time on the CPU; hashing each index with one
    random word per game (a multiply-xorshift finaliser) is a tenth of that, and near uniform
    (a test draws it).
    """
    word = jax.random.bits(key, (mask.shape[0], 1), dtype=jnp.uint32)
    x = (jnp.arange(mask.shape[1], dtype=jnp.uint32)[None, :] + word) * jnp.uint32(0x9E3779B1)
    x = (x ^ (x >> 15)) * jnp.uint32(0x85EBCA77)
    x = x ^ (x >> 13)
    hashed = jnp.where(mask, x | 1, 0)
    # The first index holding the highest hash: argmax's answer, without its variadic reduction
    # (slow on XLA's CPU).
    out: jax.Array = jax.vmap(first_true)(hashed == hashed.max(axis=-1, keepdims=True))
    return out


def _random_play(env: Env, steps: int) -> Any:
    """The jitted loop: ``steps`` random legal moves of every game of a batch, auto-reset, games ended counted."""

    def one(
        carry: tuple[EnvState, jax.Array, jax.Array], _: None
    ) -> tuple[tuple[EnvState, jax.Array, jax.Array], None]:
        state, key, ended = carry
        key, pick, deal = jax.random.split(key, 3)
        action = random_legal(pick, state.legal_action_mask)
        state = env.step_batch(state, action)
        done = state.terminated
        state = env.reset_done(state, deal)
        return (state, key, ended + done.sum()), None

    def run(state: EnvState, key: jax.Array) -> tuple[EnvState, jax.Array]:
        (state, _, ended), _ = jax.lax.scan(one, (state, key, jnp.int32(0)), None, length=steps)
        return state, ended

    return jax.jit(run)


def _vector_rows(
    players: int, deck: str, batches: Sequence[int], steps: int, seed: int
) -> tuple[list[VectorRow], float]:
    env = Env(players, deck)
    run = _random_play(env, steps)
    init = jax.jit(batched(env.init))
    rows = []
    compile_s = 0.0
    for i, batch in enumerate(batches):
        key = jax.random.key(seed + i)
        state = init(jax.random.split(key, batch))
        t0 = perf_counter()
        compiled = run.lower(state, key).compile()
        if i == 0:
            compile_s = perf_counter() - t0
        compiled(state, key)[1].block_until_ready()  # warm
        t0 = perf_counter()
        _, ended = compiled(state, jax.random.key(seed + 1000 + i))
        ended.block_until_ready()
        rows.append(VectorRow(players, batch, steps, perf_counter() - t0, int(ended)))
    return rows, compile_s


def _pettingzoo_steps_per_s(players: int, deck: str, seconds: float, seed: int) -> float:
    """Random games through ``env()`` (observation and mask every step) for about ``seconds``."""
    env = pettingzoo_env(players=players, deck=deck)
    steps = 0
    rng = random.Random(seed)
    t0 = perf_counter()
    game = 0
    while perf_counter() - t0 < seconds:
        env.reset(seed=seed + game)
        game += 1
        for _agent in env.agent_iter():
            obs, _, done, truncated, _ = env.last()
            if done or truncated:
                env.step(None)
                continue
            env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
            steps += 1
    return steps / (perf_counter() - t0)


def run_vector_bench(
    batches: Sequence[int],
    steps: int,
    players: Sequence[int],
    deck: str = "base",
    seed: int = 0,
    pettingzoo_s: float = 2.0,
) -> VectorBench:
    """Measure; ValueError, with one line, for arguments that are not a benchmark."""
    if not batches or any(type(b) is not int or b < 1 for b in batches):
        raise ValueError(f"batch sizes must be positive ints, got {list(batches)}")
    if type(steps) is not int or steps < 1:
        raise ValueError(f"steps must be a positive int, got {steps!r}")
    if not players:
        raise ValueError("give at least one player count")
    for p in players:
        Env(p, deck)  # refuses a wrong player count or deck before anything is measured
    rows: list[VectorRow] = []
    compile_s: dict[int, float] = {}
    pz: dict[int, float] = {}
    for p in players:
        got, compile_s[p] = _vector_rows(p, deck, batches, steps, seed)
        rows += got
        pz[p] = _pettingzoo_steps_per_s(p, deck, pettingzoo_s, seed)
    device = jax.devices()[0]
    return VectorBench(deck, f"{device.platform} ({device.device_kind})", rows, compile_s, pz)
