"""The guided first game: a real game on a fixed deal that teaches the rules one idea at a time.

Both clients use it the same way: deal :func:`new_game`, seat the learner in
:data:`LEARNER` and the ``tutor`` bot in the other seats, show
:func:`lesson`'s text before each of the learner's decisions, and refuse a
move :func:`refusal` names another move for. The ``tutor`` bot plays the
script's moves while the game is on it (:func:`scripted_action_for_view`) and
the heuristic bot's after.
"""

from .guide import (
    LESSON_PREFIX,
    Lesson,
    is_tutorial,
    lesson,
    new_game,
    on_script,
    refusal,
    script_actions,
    scripted_action,
    scripted_action_for_view,
)
from .script import DEAL, LEARNER, LESSONS, SETUP, STEPS

__all__ = [
    "DEAL",
    "LEARNER",
    "LESSONS",
    "LESSON_PREFIX",
    "SETUP",
    "STEPS",
    "Lesson",
    "is_tutorial",
    "lesson",
    "new_game",
    "on_script",
    "refusal",
    "script_actions",
    "scripted_action",
    "scripted_action_for_view",
]
