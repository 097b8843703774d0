"""The tutorial's opponent: the script's moves while the guided rounds last, the heuristic bot's after."""

from __future__ import annotations

from ..engine.view import SeatView
from ..tutorial import scripted_action_for_view
from .heuristic import HeuristicBot


class TutorBot:
    """Plays the tutorial's scripted move when its view is the script's, else as ``heuristic``.

    Outside a tutorial game it is the heuristic bot: its view never matches
    the script's, so a ``tutor`` seat anywhere else is simply a fair opponent.
    """

    def __init__(self, seed: int | None = None) -> None:
        self.spec = "tutor"
        self._fallback = HeuristicBot(seed)

    def choose(self, view: SeatView) -> int:
        """The script's move if ``view`` is on the script, else the heuristic bot's."""
        scripted = scripted_action_for_view(view)
        return self._fallback.choose(view) if scripted is None else scripted
