"""The text form of actions, and its parser.

The readable text form (``place soldier first``, ``keep``,
``target 3``) is part of the engine, like UCI in a chess library: it needs the
position for context, and the engine's own error messages speak it.

Grammar (positions count from 1 in resolution order; players are ``p1`` ..):

=========================== =============================================
``place SLUG first|last``   play a hand card (or the Twin) at an end
``place SLUG on N``         play it onto your own position N
``keep`` / ``reveal``       a face-down card's choice
``target N``                choose position N (elimination or other target;
                            the Royal Decree's card to move)
``to N``                    where the moved card ends up (its new position)
``steal pN``                the Spy's victim
``copy SLUG``               the Shapeshifter's model
``fetch discard|aside``     where Impersonation takes its character from
``gain`` / ``use N``        Plot: take one IP, or apply the character at N
``collect`` ``exchange``    Informant's modes; ``swap SLUG`` its hand card
``gift`` ``cashout``        Diplomat's modes
``verdict`` ``condemn``     Judge's modes
=========================== =============================================

Like UCI, the text of an action depends on the position it is played in, and
``parse_action(game, action_text(game, a)) == a`` for every legal action.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import (
    ARG_MASK,
    COPY,
    FETCH,
    FETCH_NAMES,
    GAIN,
    KEEP,
    MODE,
    MODE_NAMES,
    PLACE_FIRST,
    PLACE_LAST,
    PLACE_ON,
    REVEAL,
    SHIFT,
    STEAL,
    SWAP,
    TARGET,
    TO,
    USE,
)
from .cards import SLUGS
from .errors import IllegalActionError, InvalidActionError

if TYPE_CHECKING:
    from .state import State

VERBS = (
    "place", "keep", "reveal", "target", "to", "steal", "copy", "fetch", "gain", "use", "swap",
) + MODE_NAMES  # fmt: skip


def action_text(game: State, action: int) -> str:
    """The text form of ``action`` in ``game``'s current position."""
    verb = action >> SHIFT
    arg = action & ARG_MASK
    kind = game.kind
    if verb == PLACE_FIRST:
        return f"place {SLUGS[kind[arg]]} first"
    if verb == PLACE_LAST:
        return f"place {SLUGS[kind[arg]]} last"
    if verb == PLACE_ON:
        return f"place {SLUGS[kind[arg >> 8]]} on {(arg & 255) + 1}"
    if verb == KEEP:
        return "keep"
    if verb == REVEAL:
        return "reveal"
    if verb == TARGET:
        return f"target {arg + 1}"
    if verb == TO:
        return f"to {arg + 1}"
    if verb == STEAL:
        return f"steal p{arg + 1}"
    if verb == COPY:
        return f"copy {SLUGS[arg]}"
    if verb == FETCH:
        return f"fetch {FETCH_NAMES[arg]}"
    if verb == GAIN:
        return "gain"
    if verb == USE:
        return f"use {arg + 1}"
    if verb == MODE:
        return MODE_NAMES[arg]
    if verb == SWAP:
        return f"swap {SLUGS[kind[arg]]}"
    raise InvalidActionError(f"not an action code: {action}")


def action_text_or_code(game: State, action: int) -> str:
    """Text form when the code is readable in this position, else the raw number (for messages)."""
    try:
        return action_text(game, action)
    except (InvalidActionError, IndexError):
        return str(action)


def _normalize(text: str) -> str:
    return " ".join(text.strip().lower().replace("_", "-").split())


def parse_action(game: State, text: str) -> int:
    """Read the text form of a legal action; say what was wrong otherwise."""
    wanted = _normalize(text)
    if not wanted:
        raise InvalidActionError("empty action text")
    for a in game.legal_actions():
        if action_text(game, a) == wanted:
            return a
    legal = ", ".join(repr(action_text(game, a)) for a in game.legal_actions())
    if game.is_over():
        raise IllegalActionError(f"{text!r}: the game is over")
    if wanted.split()[0] not in VERBS:
        raise InvalidActionError(f"cannot read action {text!r}; legal now: {legal}")
    raise IllegalActionError(f"{text!r} is not legal now; legal now: {legal}")
