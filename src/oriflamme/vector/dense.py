"""Sets of kinds and inverse indices as one-hot comparisons of small arrays.

The arrays are small (at most 55 cards, 40 positions, 31 kinds), so a
comparison of every value with every index is cheap, vectorizes under
``vmap``, and reads more plainly than a scatter with its out-of-range
padding conventions.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp

__all__ = ["first_index", "set_of"]


def set_of(values: jax.Array, selected: jax.Array, size: int) -> jax.Array:
    """(size,) bool: which of ``0 .. size-1`` are among the selected ``values``."""
    return ((values[:, None] == jnp.arange(size)[None, :]) & selected[:, None]).any(axis=0)


def first_index(values: jax.Array, size: int) -> jax.Array:
    """(size,) int32: for each of ``0 .. size-1``, the first index of ``values`` holding it, -1 for none."""
    hits = values[None, :] == jnp.arange(size)[:, None]
    return jnp.where(hits.any(axis=1), jnp.argmax(hits, axis=1), -1).astype(jnp.int32)
