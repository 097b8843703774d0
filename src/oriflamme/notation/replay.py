"""Replaying a recorded game: deal its setup, then play its actions' text forms in order.

The one implementation behind save files, the terminal's replay viewer, the
web server (which keeps every table as its setup plus its actions and replays
them on start) and anything else that stores games.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..engine.action_text import parse_action
from ..engine.errors import OriflammeError, ReplayError
from ..engine.events import Event
from ..engine.game import Game
from ..engine.setup import Setup

#: ``on_step(game, events, text, actor)``: called after the deal (``text`` None, ``actor`` -1)
#: and after each action (its text, and the seat that played it).
OnStep = Callable[[Game, list[Event], str | None, int], None]


def replay(setup: Setup, actions: Sequence[str], on_step: OnStep | None = None) -> Game:
    """The game ``setup`` deals, with ``actions`` (text forms) played in order.

    An action that cannot be read or played raises :class:`ReplayError` with
    its index; nothing is half-replayed from the caller's point of view.
    """
    g = setup.deal()
    if on_step is not None:
        on_step(g, list(g.events), None, -1)
    for i, text in enumerate(actions):
        actor = g.current_player()
        try:
            events = g.apply(parse_action(g, text))
        except OriflammeError as exc:
            raise ReplayError(i, len(actions), text, str(exc)) from None
        if on_step is not None:
            on_step(g, events, text, actor)
    return g
