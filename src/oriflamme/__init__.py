"""Oriflamme: an exact, fast rules engine for the Oriflamme card games, with bots and clients.

This package is the stable front door: everything in ``__all__`` keeps its
name and meaning across minor versions (see CHANGELOG.md). The packages
behind it, bottom first:

* :mod:`oriflamme.engine` — the rules (standard library only);
* :mod:`oriflamme.notation` — text forms: actions, positions, save files;
* :mod:`oriflamme.bots` — random, heuristic, search and learned (``net``) players;
* :mod:`oriflamme.tournament` — bot tournaments, standings and record files;
* :mod:`oriflamme.tui`, :mod:`oriflamme.web` — the two ways to play;
* :mod:`oriflamme.bench` — benchmarks.

A first game::

    import random
    from oriflamme import Game
    g = Game.new(players=4, deck="base", seed=7)
    rng = random.Random(7)
    while not g.is_over():
        g.apply(rng.choice(g.legal_actions()))
    print(g.score, g.winners)
"""

import os as _os

from . import _compat
from .bots import Bot, make_bot
from .engine.action_text import action_text, parse_action
from .engine.errors import (
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    OriflammeError,
    RecipeError,
    ReplayError,
    SaveFormatError,
    SetupError,
)
from .engine.events import Event
from .engine.game import Game
from .engine.options import RuleOptions
from .engine.outcome import Outcome
from .engine.recipes import PRESETS, parse_recipe, recipe_name
from .engine.sampler import sample_game
from .engine.setup import Setup
from .engine.view import CardView, SeatView, redact
from .notation import savefile
from .notation.position import build_position, queue_string
from .notation.replay import replay

__all__ = [
    "PRESETS",
    "Bot",
    "CardView",
    "Event",
    "Game",
    "GameOverError",
    "IllegalActionError",
    "InvalidActionError",
    "OriflammeError",
    "Outcome",
    "RecipeError",
    "ReplayError",
    "RuleOptions",
    "SaveFormatError",
    "SeatView",
    "Setup",
    "SetupError",
    "action_text",
    "build_position",
    "make_bot",
    "parse_action",
    "parse_recipe",
    "queue_string",
    "recipe_name",
    "redact",
    "replay",
    "sample_game",
    "savefile",
]

__version__ = "0.2.0.dev0"

_compat.install()

# Designers' cards named by ORIFLAMME_CARDS (set by ``--cards``, inherited by the worker processes
# of bots, tournaments and studies): loaded in every process that imports the package.
if _os.environ.get("ORIFLAMME_CARDS"):
    from .designer import load_environment

    load_environment()
