"""Registering what cards do, typed against the game.

The tables of :mod:`.registry` sit below :class:`~.game.Game` in the import
graph (the game dispatches through them), so they cannot name the game's type
and hold ``Any``-typed functions. Everything is registered through this
module instead, which sits above the game: the box modules' decorators and a
designer's :func:`~.catalog.declare_kind` take functions of a :class:`Game`,
so mypy checks every ability, reaction, effect, handler and continuation
against the game it will be given. Dispatch stays a plain list or dict lookup.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from . import registry
from .game import Game

__all__ = [
    "Ability",
    "CanReveal",
    "Continuation",
    "Handler",
    "Reaction",
    "TargetEffect",
    "ability",
    "can_reveal",
    "continuation",
    "eliminate_effect",
    "handler",
    "mode_effect",
    "on_eliminated",
    "target_effect",
]

#: ``ability(game, actor, ctrl, revealed)``: apply a kind's ability from the card ``actor`` (its
#: position, "this card") for player ``ctrl``. ``revealed`` is True only when the owner has just
#: turned the card face up.
Ability = Callable[[Game, int, int, bool], None]
#: ``reaction(game, victim, attacker, attacker_ctrl, victim_ctrl)`` after an elimination.
Reaction = Callable[[Game, int, int, int, int], None]
#: ``effect(game, pending, card_or_mode)``: what a target decision does to the chosen card, or what
#: a chosen mode of a choose-one ability does.
TargetEffect = Callable[[Game, tuple[int, ...], int], None]
#: ``handler(game, pending, action)``: continue after a player's decision.
Handler = Callable[[Game, tuple[int, ...], int], None]
#: ``continuation(game, frame)``: resume work saved on the frame stack.
Continuation = Callable[[Game, tuple[int, ...]], None]
#: ``can_reveal(game, card)``: a reveal precondition (Insurrection needs IP on it).
CanReveal = Callable[[Game, int], bool]


F = TypeVar("F", bound=Callable[..., Any])


def _into(table: Any, *keys: int) -> Callable[[F], F]:
    """A decorator that files its function under ``keys`` in one of the registry's tables."""

    def deco(fn: F) -> F:
        for key in keys:
            table[key] = fn
        return fn

    return deco


def ability(*kinds: int) -> Callable[[Ability], Ability]:
    """Register an ability function for one or more kinds."""
    return _into(registry.ABILITY, *kinds)


def on_eliminated(*kinds: int) -> Callable[[Reaction], Reaction]:
    """Register a reaction to a kind being eliminated."""
    return _into(registry.ON_ELIMINATED, *kinds)


def can_reveal(*kinds: int) -> Callable[[CanReveal], CanReveal]:
    """Register a precondition on revealing a kind."""
    return _into(registry.CAN_REVEAL, *kinds)


def target_effect(*kinds: int) -> Callable[[TargetEffect], TargetEffect]:
    """Register what a kind's non-eliminating target decision does to the chosen card."""
    return _into(registry.TARGET_EFFECT, *kinds)


def eliminate_effect(*kinds: int) -> Callable[[TargetEffect], TargetEffect]:
    """Register how a kind eliminates its chosen card, when it does more than eliminate it."""
    return _into(registry.ELIMINATE_EFFECT, *kinds)


def mode_effect(*kinds: int) -> Callable[[TargetEffect], TargetEffect]:
    """Register what a kind's chosen mode does."""
    return _into(registry.MODE_EFFECT, *kinds)


def handler(decision: int) -> Callable[[Handler], Handler]:
    """Register the continuation of a decision kind."""
    return _into(registry.HANDLERS, decision)


def continuation(code: int) -> Callable[[Continuation], Continuation]:
    """Register a frame continuation."""
    return _into(registry.CONTINUATIONS, code)
