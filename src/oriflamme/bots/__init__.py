"""Computer opponents. A bot sees only its seat's view and returns one of its legal actions.

Use :func:`make_bot` with a spec such as ``random``, ``heuristic`` or
``ismcts:normal``; see :mod:`oriflamme.bots.registry`.
"""

from .base import Bot, play_game
from .registry import BOT_KINDS, is_timed, make_bot, parse_bot_spec, search_processes

__all__ = ["BOT_KINDS", "Bot", "is_timed", "make_bot", "parse_bot_spec", "play_game", "search_processes"]
