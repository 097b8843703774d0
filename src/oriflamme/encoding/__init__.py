"""Fixed encodings of the game for learning agents: the action space (and, later, observations).

Bots and the reinforcement-learning environments share these, so they sit
below both: they read the engine and its views only.
"""

from .actions import (
    ACTION_COUNT,
    MAX_PLAYERS,
    MAX_QUEUE,
    action_index,
    game_legal_indices,
    index_name,
    legal_indices,
    queue_bound,
    view_kinds,
)

__all__ = [
    "ACTION_COUNT",
    "MAX_PLAYERS",
    "MAX_QUEUE",
    "action_index",
    "game_legal_indices",
    "index_name",
    "legal_indices",
    "queue_bound",
    "view_kinds",
]
