"""Oriflamme: an exact, fast rules engine for the Oriflamme card games.

The public surface::

    from oriflamme import Game
    g = Game.new(players=4, deck="base", seed=7)
    while not g.is_over():
        action = g.legal_actions()[0]
        g.apply(action)
"""

from .errors import (
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    OriflammeError,
    RecipeError,
    SaveFormatError,
    SetupError,
)
from .game import Game
from .notation import action_text, parse_action
from .options import RuleOptions

__all__ = [
    "Game",
    "GameOverError",
    "IllegalActionError",
    "InvalidActionError",
    "OriflammeError",
    "RecipeError",
    "RuleOptions",
    "SaveFormatError",
    "SetupError",
    "action_text",
    "parse_action",
]

__version__ = "0.1.0"
