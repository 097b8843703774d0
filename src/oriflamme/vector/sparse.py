"""Branching that costs only what some game of the batch needs: ``when``, ``cond`` and ``switch``.

Under ``jax.vmap`` a ``lax.cond`` or ``lax.switch`` whose predicate differs
from game to game becomes a ``select``: every branch is computed for every
game, and the rules are mostly branches (one per decision kind, per card
kind, per reaction), so a step would cost all of them. These functions keep
the per-game meaning of ``lax.cond`` (each game gets its own branch), but
when the batch is mapped with ``axis_name=BATCH_AXIS`` (:func:`batched`
does it) they ask the whole batch, with one ``psum``, whether any game takes
a branch, and compute it only then, as a real conditional. A branch nobody
takes costs nothing; one that a few games take is computed for the batch and
kept for those games.

A branch is asked about only for the games still in play at that point
(:func:`only`, and each enclosing ``when``): a game waiting at its decision
while the others run on does not pull in their branches.

Mapped without that axis name (a plain ``jax.vmap``), or not mapped at all,
the functions are ``lax.cond`` and ``lax.switch`` with the same results.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Final, TypeVar

import jax
import jax.numpy as jnp

__all__ = ["BATCH_AXIS", "anywhere", "batched", "cond", "on_each", "only", "switch", "when"]

#: The axis name that lets a batch share its branches (``jax.vmap(f, axis_name=BATCH_AXIS)``).
BATCH_AXIS: Final = "oriflamme_batch"

T = TypeVar("T")
F = TypeVar("F", bound=Callable[..., Any])

#: The games in play where the branch being traced applies (innermost last); tracing is sequential.
_IN_PLAY: list[jax.Array] = []


def batched(fn: F, in_axes: Any = 0) -> F:
    """``jax.vmap(fn, in_axes, axis_name=BATCH_AXIS)``: the batch shares its branches."""
    out: F = jax.vmap(fn, in_axes=in_axes, axis_name=BATCH_AXIS)
    return out


def anywhere(flag: jax.Array) -> jax.Array:
    """Whether ``flag`` holds for some game of the batch (itself, outside a :func:`batched` map)."""
    try:
        total: jax.Array = jax.lax.psum(flag.astype(jnp.int32), BATCH_AXIS)  # type: ignore[no-untyped-call]
        return total > 0
    except NameError:  # no batch axis of that name: one game, or a plain vmap
        return flag


def _in_play(flag: jax.Array | bool) -> jax.Array:
    flag = jnp.asarray(flag, dtype=bool)
    return flag & _IN_PLAY[-1] if _IN_PLAY else flag


@contextlib.contextmanager
def only(flag: jax.Array) -> Iterator[None]:
    """Within the block, branches are asked about only for the games where ``flag`` holds."""
    _IN_PLAY.append(_in_play(flag))
    try:
        yield
    finally:
        _IN_PLAY.pop()


def when(flag: jax.Array | bool, move: Callable[[T], T], operand: T) -> T:
    """``move(operand)`` for the games where ``flag`` holds, ``operand`` for the others.

    Only the arrays ``move`` replaces are selected game by game; one it hands back as it got
    it is ``operand``'s own after the conditional too (a handler touches a few of the state's
    thirty-odd arrays, and selecting them all for every branch taken was a fifth of a step).
    """
    taking = _in_play(flag)
    return _when_taken(taking, anywhere(taking), move, operand, None)


def _when_taken(
    taking: jax.Array, somewhere: jax.Array, move: Callable[[T], T], operand: T, unmoved: Any
) -> T:
    """:func:`when` once it is known which games take the branch, and whether any does.

    ``unmoved`` is what "as it got it" means when ``move`` reads another pytree of the
    operand's shape (``switch``'s branches read the switch's operand); ``None``: the
    operand's leaves.
    """
    leaves, tree = jax.tree.flatten(operand)
    moved_at: list[bool] = []

    def taken(o: T) -> T:
        with only(taking):
            moved = move(o)
        before = jax.tree.leaves(o if unmoved is None else unmoved)
        after = jax.tree.leaves(moved)
        moved_at[:] = [a is not b for a, b in zip(after, before, strict=True)]
        kept = jax.tree.leaves(o)
        picked = [jnp.where(taking, a, k) if m else k for a, k, m in zip(after, kept, moved_at, strict=True)]
        out: T = jax.tree.unflatten(tree, picked)
        return out

    result = jax.tree.leaves(jax.lax.cond(somewhere, taken, lambda o: o, operand))
    out: T = jax.tree.unflatten(
        tree, [r if m else x for r, x, m in zip(result, leaves, moved_at, strict=True)]
    )
    return out


def on_each(
    value: jax.Array, cases: Sequence[int], move_of: Callable[[int], Callable[[T], T]], operand: T
) -> T:
    """For each of ``cases``, ``move_of(case)`` applied to the games whose ``value`` is that case,
    in order (a run of :func:`when` with the batch asked once which cases occur)."""
    taking = _in_play(jnp.asarray(cases) == value)
    somewhere = anywhere(taking)
    for k, case in enumerate(cases):
        operand = _when_taken(taking[k], somewhere[k], move_of(case), operand, None)
    return operand


def cond(flag: jax.Array | bool, if_true: Callable[[T], T], if_false: Callable[[T], T], operand: T) -> T:
    """``lax.cond(flag, if_true, if_false, operand)``, each branch computed only if some game takes it."""
    taking = jnp.asarray(flag, dtype=bool)
    return switch(taking.astype(jnp.int32), [if_false, if_true], operand)


def switch(index: jax.Array, branches: Sequence[Callable[..., T]], operand: T, *args: Any) -> T:
    """``lax.switch(index, branches, operand, *args)`` (index clamped), each branch computed only
    if some game takes it. Every branch reads the same ``operand``; each game keeps its own."""
    index = jnp.clip(index, 0, len(branches) - 1)
    # Which branches some game takes, asked of the batch once for all of them.
    taking = _in_play(jnp.arange(len(branches)) == index)
    somewhere = anywhere(taking)
    result = operand
    # A game takes one branch, so where a branch leaves an array as the operand had it, the
    # result so far already holds the operand's for that game.
    for k, branch in enumerate(branches):
        result = _when_taken(taking[k], somewhere[k], _on_operand(branch, operand, args), result, operand)
    return result


def _on_operand(branch: Callable[..., T], operand: T, args: tuple[Any, ...]) -> Callable[[T], T]:
    """A move that ignores the state it is given and applies ``branch`` to ``operand`` (``switch``'s)."""
    return lambda _: branch(operand, *args)
