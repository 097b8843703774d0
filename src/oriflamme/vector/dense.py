"""Small-array primitives that are cheap on XLA's CPU: sets of kinds and inverse indices as
scatters into a spare slot, the first true entry as a minimum, a stable order by small keys.

The arrays are small (at most 55 cards, 40 positions, 31 kinds). Values out
of range (the -1 padding) are sent to one spare slot past the end, which is
then dropped, so no padding convention leaks into the result. A scatter
was measured against the dense form (every value compared with every index,
then ``any`` or ``argmax``) at a batch of 1,024 on XLA's CPU: 0.15 ms
against 1.7 ms for the inverse index, the dense form's variadic ``argmax``
reduction being slow there; the rules' step spent a quarter of its time in
it (``oriflamme bench vector``'s history in docs/environments/vector.md).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import jax
import jax.numpy as jnp

__all__ = ["first_index", "first_true", "order_by", "set_of"]


def _slot(values: jax.Array, size: int, selected: jax.Array | None = None) -> jax.Array:
    """``values`` in ``0 .. size-1`` (and selected), ``size`` (the spare slot) for the others."""
    inside = (values >= 0) & (values < size)
    if selected is not None:
        inside = inside & selected
    return jnp.where(inside, values, size)


def set_of(values: jax.Array, selected: jax.Array, size: int) -> jax.Array:
    """(size,) bool: which of ``0 .. size-1`` are among the selected ``values``."""
    return jnp.zeros(size + 1, dtype=bool).at[_slot(values, size, selected)].set(True)[:size]


def first_index(values: jax.Array, size: int) -> jax.Array:
    """(size,) int32: for each of ``0 .. size-1``, the first index of ``values`` holding it, -1 for none."""
    count = values.shape[0]
    at = jnp.arange(count, dtype=jnp.int32)
    first = jnp.full(size + 1, count, dtype=jnp.int32).at[_slot(values, size)].min(at)[:size]
    return jnp.where(first < count, first, -1)


def first_true(bits: jax.Array) -> jax.Array:
    """() int32: the index of the first true entry of ``bits`` (0 when none is), ``jnp.argmax``'s answer.

    A minimum of the true entries' indices: ``argmax`` is a variadic (value, index) reduction,
    slow on XLA's CPU (the queue lookup ``position_of`` alone was 8% of a step).
    """
    count = bits.shape[0]
    lowest = jnp.where(bits, jnp.arange(count, dtype=jnp.int32), count).min()
    return jnp.where(lowest < count, lowest, 0)


def order_by(keys: jax.Array, most: int) -> jax.Array:
    """(B,) int32: the indices of ``keys`` (B small ints in ``0 .. most``) sorted by key, each
    key's in order (a stable argsort).

    One sort of key and index packed into an int32: a quarter of ``argsort``'s time on XLA's
    CPU, where the batch's loops (``step.step_batch``, ``Env.reset_done``) sort every turn.
    """
    size = keys.shape[0]
    bits = max(1, (size - 1).bit_length())
    if bits + max(1, most.bit_length()) > 31:
        raise ValueError(f"{size} keys up to {most} do not fit an int32 once packed with their index")
    packed = jnp.left_shift(keys.astype(jnp.int32), bits) | jnp.arange(size, dtype=jnp.int32)
    return jnp.sort(packed) & ((1 << bits) - 1)


_Tree = TypeVar("_Tree")


def on_rows(tree: _Tree, rows: jax.Array, work: Callable[[_Tree], _Tree]) -> _Tree:
    """``tree`` (arrays with a batch axis) with ``work`` done on its ``rows`` only: they are
    gathered, worked on as a small batch, and put back in place. ``rows`` must be distinct
    (a row named twice would be put back twice, in no defined order).

    The batch's loops (``step.step_batch``'s turn, ``Env.reset_done``) advance or deal a few
    games of a large batch at a time, which costs the few rather than the whole batch.
    """
    few = work(jax.tree.map(lambda x: x[rows], tree))
    out: _Tree = jax.tree.map(lambda x, y: x.at[rows].set(y), tree, few)
    return out
