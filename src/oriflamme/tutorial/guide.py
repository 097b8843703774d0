"""Where a tutorial game stands: on the script or not, the lesson for now, the move asked for.

Everything here is a function of the game (its setup and the actions played),
so the terminal, the web server and the ``tutor`` bot reach the same answer
without keeping any state of their own, and a tutorial table that is saved,
reloaded or rebuilt from its stored actions shows the same lesson.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from ..engine.action_text import parse_action
from ..engine.game import Game
from ..engine.setup import Setup
from ..engine.view import SeatView
from ..notation.savefile import round_one_first
from .script import END_LESSON, FREE_LESSON, FREE_ROUND, LAST_ROUND_LESSON, LEARNER, SETUP, STEPS

#: The catalog key of a lesson is this prefix and its name.
LESSON_PREFIX = "tutorial.lesson."
#: Cards in a hand as dealt for three players; one is placed per round.
_HAND = 7


@dataclass(frozen=True, slots=True)
class Lesson:
    """A lesson to show the learner now, and the move the guided rounds ask for (None: any)."""

    name: str
    #: The action the learner must take (a guided step), as an index and as text.
    action: int | None = None
    text: str | None = None

    @property
    def key(self) -> str:
        """The lesson's message key in the catalogs."""
        return LESSON_PREFIX + self.name


def new_game() -> Game:
    """The tutorial's game, as dealt."""
    return SETUP.deal()


def is_tutorial(setup: Setup) -> bool:
    """Whether a game was dealt from the tutorial's deal."""
    return setup == SETUP


@cache
def script_actions() -> tuple[int, ...]:
    """The guided rounds' actions as indices (read once from their text, checking each is legal)."""
    game = new_game()
    out = []
    for text, _ in STEPS:
        action = parse_action(game, text)
        game.apply(action)
        out.append(action)
    return tuple(out)


@cache
def _scripted_view(step: int, seat: int) -> SeatView:
    game = new_game()
    for action in script_actions()[:step]:
        game.apply(action)
    return game.view(seat)


def on_script(game: Game) -> bool:
    """Whether ``game`` is the tutorial's, still inside the guided rounds and played as scripted."""
    step = len(game.history)
    if step >= len(STEPS) or game.is_over() or not _dealt_as_tutorial(game):
        return False
    return tuple(game.history) == script_actions()[:step]


def _dealt_as_tutorial(game: Game) -> bool:
    return (
        game.players == SETUP.players
        and game.seed == SETUP.seed
        and tuple(game.recipe) == SETUP.recipe
        and game.rules == SETUP.rules
        and round_one_first(game) == SETUP.first_player
    )


def scripted_action(game: Game) -> int | None:
    """The script's next action while ``game`` is on it, else None."""
    return script_actions()[len(game.history)] if on_script(game) else None


def scripted_action_for_view(view: SeatView) -> int | None:
    """The script's move for the seat that ``view`` belongs to, when its view is the script's.

    A bot sees only its own view; if that view is exactly the one the script
    reaches at this state number, the script's move is legal for it and keeps
    the lessons true. Any other view (another deal, a learner who left the
    script, a later round) gets None, and the bot plays on its own.
    """
    step = view.state_number
    if view.seat is None or view.players != SETUP.players or not 0 <= step < len(STEPS):
        return None
    if view.to_move != view.seat or view != _scripted_view(step, view.seat):
        return None
    return script_actions()[step]


def lesson(game: Game) -> Lesson | None:
    """The lesson for the learner at this moment of a tutorial game, or None.

    Guided rounds: the lesson of the step the learner decides now, with the move
    asked for. Free rounds: a lesson at the learner's first placement of round 4
    and of the last round. Over: the end of the game.
    """
    if not _dealt_as_tutorial(game):
        return None
    if game.is_over():
        return Lesson(END_LESSON)
    if game.current_player() != LEARNER:
        return None
    if on_script(game):
        step = len(game.history)
        name = STEPS[step][1]
        if name is None:
            return None
        return Lesson(name, script_actions()[step], STEPS[step][0])
    view = game.view(LEARNER)
    if view.decision != "place" or view.hand_counts[LEARNER] != _HAND - (view.round - 1):
        return None
    if view.round == view.rounds:
        return Lesson(LAST_ROUND_LESSON)
    if view.round == FREE_ROUND:
        return Lesson(FREE_LESSON)
    return None


def refusal(game: Game, action: int) -> str | None:
    """Why the learner may not take ``action`` now (a lesson asks for another move), or None.

    The answer is the name of the move asked for, as action text; clients
    show the lesson again with it.
    """
    asked = lesson(game)
    if asked is None or asked.action is None or action == asked.action:
        return None
    return asked.text
