"""The rules engine: everything needed to play Oriflamme exactly, and nothing else.

This package imports only the standard library and itself (checked in CI).
Its layers, bottom first: card data and codes (:mod:`.cards`, :mod:`.zones`,
:mod:`.actions`, :mod:`.errors`, :mod:`.options`, :mod:`.recipes`); the
behaviour registry (:mod:`.registry`) and events (:mod:`.events`); the state
and its primitive moves (:mod:`.state`); what a seat may see and the action
text form, which read a state (:mod:`.view`, :mod:`.action_text`); the game
and its decision loop (:mod:`.game`); the cards' behaviour, one module per box
(:mod:`.boxes`), which the game dispatches to through the registry; and the
sampler of hidden cards for search (:mod:`.sampler`).
"""

from __future__ import annotations

from .game import Game

# The boxes register their cards' behaviour on import; the game needs them all.
from . import boxes  # noqa: F401  isort: skip

__all__ = ["Game"]
