"""Declaring a designer's kind to the engine: its facts and its behaviour, in one call.

The official kinds are declared by the box modules at import time; a
designer's kind comes later, from a card module loaded by
:mod:`oriflamme.designer` (which also registers its texts and bot hints). This
module is the engine's half of that: it checks everything first and changes
nothing when something is wrong, then adds the kind to the tables of
:mod:`.cards` and its behaviour to those of :mod:`.registry`, so the game, the
views, the notations and the action text know it at once.

A designer's kind uses the decisions the engine already has (eliminate a
position, target a position for an effect of its own, no decision at all);
a new *kind of decision* would need a new verb in the fixed action space,
which is not a designer's business (``docs/new-cards.md``).
"""

from __future__ import annotations

from .behaviour import Ability, CanReveal, Reaction, TargetEffect
from .cards import KINDS, CardKind, add_kind, kind_problem, remove_last_kind
from .registry import (
    ABILITY,
    CAN_REVEAL,
    ELIMINATE_EFFECT,
    ON_ELIMINATED,
    TARGET_EFFECT,
)

__all__ = ["declare_kind", "withdraw_last_kind"]


def _not_callable(name: str, value: object) -> str | None:
    return (
        None if value is None or callable(value) else f"{name} must be a function, not {type(value).__name__}"
    )


def declare_kind(
    slug: str,
    box: str,
    character: bool,
    ability: Ability,
    *,
    on_eliminated: Reaction | None = None,
    target_effect: TargetEffect | None = None,
    eliminate_effect: TargetEffect | None = None,
    can_reveal: CanReveal | None = None,
    reveal_takes_ip: bool = True,
    kept: bool = False,
    turns_down: bool = False,
) -> CardKind:
    """Add a designer's kind with its behaviour; ValueError (and nothing added) where it cannot be.

    ``ability(game, actor, ctrl, revealed)`` is what the card does when it
    resolves face up (or is copied, or applied by a Plot); ``target_effect``
    and ``eliminate_effect`` say what its target decisions do to the chosen
    card (:func:`oriflamme.engine.boxes.common.ask_target`, ``ask_eliminate``);
    ``on_eliminated`` reacts to its elimination; ``can_reveal`` may forbid a
    reveal. The facts (``reveal_takes_ip``, ``kept``, ``turns_down``) are those
    of :class:`~.cards.CardKind`.
    """
    problem = kind_problem(slug, box, character, kept, turns_down)
    given: object = ability  # a designer's module may pass anything
    if given is None:
        problem = problem or f"{slug}: a card needs an ability (a function of game, actor, ctrl, revealed)"
    for name, fn in (
        ("ability", ability),
        ("on_eliminated", on_eliminated),
        ("target_effect", target_effect),
        ("eliminate_effect", eliminate_effect),
        ("can_reveal", can_reveal),
    ):
        problem = problem or _not_callable(f"{slug}: {name}", fn)
    if problem is not None:
        raise ValueError(problem)
    kind = add_kind(slug, box, character, reveal_takes_ip=reveal_takes_ip, kept=kept, turns_down=turns_down)
    k = kind.id
    ABILITY[k] = ability
    ON_ELIMINATED[k] = on_eliminated
    CAN_REVEAL[k] = can_reveal
    if target_effect is not None:
        TARGET_EFFECT[k] = target_effect
    if eliminate_effect is not None:
        ELIMINATE_EFFECT[k] = eliminate_effect
    return kind


def withdraw_last_kind(slug: str) -> None:
    """Take back the last kind declared, behaviour and all (a test's card at its end).

    Games dealt with it must be gone: their cards would name a kind that is no more.
    """
    if not KINDS or KINDS[-1].slug != slug:
        raise ValueError(f"{slug!r} is not the last kind declared")
    k = KINDS[-1].id
    remove_last_kind(slug)
    ABILITY[k] = None
    ON_ELIMINATED[k] = None
    CAN_REVEAL[k] = None
    TARGET_EFFECT.pop(k, None)
    ELIMINATE_EFFECT.pop(k, None)
