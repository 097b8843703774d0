"""The specific errors the engine raises; each message says what was wrong."""

from __future__ import annotations


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
