"""Text forms of the game: actions, positions and save files.

Each reads and writes text through the engine and nothing else: an action's
text is the engine's own (:mod:`oriflamme.engine.action_text`), a position
string is built into a game and checked, and a save file is loaded by
validating its setup and replaying its actions.
"""

from __future__ import annotations

from ..engine.action_text import action_text, parse_action
from .position import build_position, card_token, pile_slugs, queue_string

__all__ = ["action_text", "build_position", "card_token", "parse_action", "pile_slugs", "queue_string"]

from .._compat import moved_names

#: Names 0.1's ``oriflamme.notation`` (the action text) had beside ``action_text`` and ``parse_action``.
__getattr__ = moved_names(
    __name__,
    {
        "action_text_or_code": "oriflamme.engine.action_text:action_text_or_code",
        "VERBS": "oriflamme.engine.action_text:VERBS",
    },
)
