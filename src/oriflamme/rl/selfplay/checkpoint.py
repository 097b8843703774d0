"""A run's :class:`~.learner.TrainingState` in one ``.npz``, so that a stopped run goes on exactly.

Saved: the weights, the optimizer's moments, every setup's games in progress,
the random key, the counters, the rivals' pool (past or fixed networks) and the
anchor network (if the run has them), with the configuration as JSON. Read back
into the same configuration, training continues bit for bit as if it had
never stopped (on the same device and JAX version): the structures are
rebuilt from the configuration and the arrays poured into them, so a file of
another configuration is refused rather than half used.
"""

from __future__ import annotations

import json
import zipfile
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final, TypeVar

import jax
import numpy as np

from ...files import write_whole
from ...vector.sparse import batched
from .config import SelfPlayConfig
from .learner import Learner, TrainingState

__all__ = ["FORMAT", "CheckpointError", "read_config", "restore", "save"]

FORMAT: Final = "oriflamme-selfplay-checkpoint"
VERSION: Final = 1
T = TypeVar("T")


class CheckpointError(ValueError):
    """A checkpoint that cannot be used, with what is wrong with it."""


def save(state: TrainingState, config: SelfPlayConfig, path: Path) -> None:
    """Write ``state`` to ``path`` through a temporary file (a crash never leaves half a checkpoint)."""
    arrays: dict[str, np.ndarray] = {}
    for name, value in state.params.items():
        arrays[f"params/{name}"] = np.asarray(value)
    for i, leaf in enumerate(jax.tree.leaves(state.opt_state)):
        arrays[f"opt/{i}"] = np.asarray(leaf)
    for s, games in enumerate(state.games):
        for i, leaf in enumerate(jax.tree.leaves(games)):
            arrays[f"games/{s}/{i}"] = np.asarray(leaf)
    for name, value in (state.pool or {}).items():
        arrays[f"pool/{name}"] = np.asarray(value)
    for name, value in (state.anchor or {}).items():
        arrays[f"anchor/{name}"] = np.asarray(value)
    arrays["key"] = np.asarray(jax.random.key_data(state.key))
    meta = {
        "format": FORMAT,
        "version": VERSION,
        "config": config.to_dict(),
        "iteration": state.iteration,
        "steps": state.steps,
        "finished": state.finished,
        "jax": jax.__version__,
    }
    arrays["meta"] = np.array(json.dumps(meta, sort_keys=True))
    write_whole(path, lambda tmp: np.savez(tmp, **arrays))  # type: ignore[arg-type]


def _meta(data: Any, path: Path) -> dict[str, Any]:
    if "meta" not in data.files:
        raise CheckpointError(f"{path}: not a self-play checkpoint (no 'meta' entry)")
    try:
        meta = json.loads(str(data["meta"]))
    except ValueError as exc:
        raise CheckpointError(f"{path}: unreadable metadata ({exc})") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise CheckpointError(f"{path}: not a self-play checkpoint")
    if meta.get("version") != VERSION:
        raise CheckpointError(
            f"{path}: checkpoint version {meta.get('version')!r}; this program reads {VERSION}"
        )
    return meta


def read_config(path: Path) -> SelfPlayConfig:
    """The configuration a checkpoint was trained with."""
    return _reading(path, lambda data: SelfPlayConfig.from_dict(_meta(data, path)["config"]))


def restore(learner: Learner, path: Path) -> TrainingState:
    """The state saved at ``path``, for ``learner``'s configuration (which must be the one saved)."""
    return _reading(path, lambda data: _restore(learner, data, path))


def _reading(path: Path, read: Callable[[Any], T]) -> T:
    """``read`` the open checkpoint; anything wrong with the file is a :class:`CheckpointError`."""
    try:
        with np.load(path, allow_pickle=False) as data:
            return read(data)
    except CheckpointError:
        raise
    except (OSError, ValueError, KeyError, TypeError, EOFError, zipfile.BadZipFile, zlib.error) as exc:
        raise CheckpointError(f"{path}: not a readable checkpoint ({exc})") from None


def _restore(learner: Learner, data: Any, path: Path) -> TrainingState:
    meta = _meta(data, path)
    saved = SelfPlayConfig.from_dict(meta["config"])
    if saved != learner.config:
        raise CheckpointError(f"{path}: saved for another configuration than this run's")
    params = _named(data, "params/")
    opt_leaves, opt_tree = jax.tree.flatten(jax.eval_shape(learner.optimizer.init, params))
    opt_state = jax.tree.unflatten(
        opt_tree, [_leaf(data, f"opt/{i}", like) for i, like in enumerate(opt_leaves)]
    )
    games = []
    for s, env in enumerate(learner.envs):
        keys = jax.random.split(jax.random.key(0), learner.config.batch)
        shapes, tree = jax.tree.flatten(jax.eval_shape(batched(env.init), keys))
        games.append(
            jax.tree.unflatten(tree, [_leaf(data, f"games/{s}/{i}", like) for i, like in enumerate(shapes)])
        )
    key = jax.random.wrap_key_data(jax.numpy.asarray(data["key"]))
    pool = None
    if learner.config.rival_games:
        shapes = jax.eval_shape(learner.pool_like, params)
        pool = {name: _leaf(data, f"pool/{name}", like) for name, like in shapes.items()}
    anchor = None
    if learner.config.anchor is not None:
        # The anchor as the run started with it: its file may have changed or gone since.
        anchor = _named(data, "anchor/")
        if not anchor:
            raise CheckpointError(f"{path}: the run has an anchor, but the checkpoint holds none")
    return TrainingState(
        int(meta["iteration"]),
        params,
        opt_state,
        games,
        key,
        int(meta["steps"]),
        int(meta["finished"]),
        pool,
        anchor,
    )


def _named(data: Any, prefix: str) -> dict[str, jax.Array]:
    """The arrays saved under ``prefix`` (a network's, by layer name), without it."""
    return {
        name.removeprefix(prefix): jax.numpy.asarray(data[name])
        for name in data.files
        if name.startswith(prefix)
    }


def _leaf(data: Any, name: str, like: Any) -> jax.Array:
    value = data[name]
    if value.shape != like.shape or value.dtype != like.dtype:
        raise CheckpointError(
            f"array {name!r} is {value.dtype}{list(value.shape)}, expected {like.dtype}{list(like.shape)}"
        )
    return jax.numpy.asarray(value)
