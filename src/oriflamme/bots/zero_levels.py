"""The ``zero-search`` bot's levels: iteration counts, readable without numpy (for the registry)."""

from __future__ import annotations

from typing import Final

__all__ = ["ZERO_LEVELS", "zero_iterations"]

#: Named levels and their iterations per decision (a seeded bot replays exactly).
ZERO_LEVELS: Final = {"fast": 100, "normal": 400, "strong": 1200}
_MOST: Final = 100_000


def zero_iterations(text: str) -> int:
    """A level's iterations: a named level or a count from 1 to 100,000 (ValueError otherwise)."""
    if text in ZERO_LEVELS:
        return ZERO_LEVELS[text]
    if not text.isdigit() or not 1 <= int(text) <= _MOST:
        raise ValueError(
            f"zero-search level {text!r}: use {', '.join(ZERO_LEVELS)} or a number of iterations "
            f"from 1 to {_MOST}"
        )
    return int(text)
