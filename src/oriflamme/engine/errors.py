"""The specific errors the engine raises; each message says what was wrong."""

from __future__ import annotations

import reprlib


class OriflammeError(Exception):
    """Base class of every error the engine raises on bad input."""


class IllegalActionError(OriflammeError, ValueError):
    """A well-formed action that is not legal in the current state."""


class InvalidActionError(OriflammeError, ValueError):
    """Action text that cannot be read at all."""


class GameOverError(IllegalActionError):
    """An action was offered after the game ended."""


class RecipeError(OriflammeError, ValueError):
    """A deck recipe that is not 10 distinct known kinds."""


class SetupError(OriflammeError, ValueError):
    """Impossible game parameters (player count, options, position description)."""


class SaveFormatError(OriflammeError, ValueError):
    """A save file that is malformed, of an unknown version, or inconsistent."""


class ReplayError(OriflammeError, ValueError):
    """An action of a recorded game that cannot be played where it stands.

    ``index`` is the 0-based place of the action in the list, ``text`` the action.
    """

    def __init__(self, index: int, count: int, text: object, problem: str) -> None:
        self.index = index
        self.text = text
        shown = reprlib.repr(text)
        super().__init__(f"{shown} cannot be played (action {index + 1} of {count}): {problem}")
