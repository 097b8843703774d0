"""The bot interface, and a helper that plays one game between bots."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from ..engine.game import Game
from ..engine.view import SeatView


@runtime_checkable
class Bot(Protocol):
    """A computer player.

    ``choose`` receives only the deciding seat's :class:`SeatView` (never the
    game) and returns one of ``view.legal_actions``. Given the same seed and
    the same sequence of views, a bot makes the same choices. The action
    returned is the one applied: a bot may carry what it worked out for one
    decision over to its seat's next one (the search's tree reuse), which is
    only sound if the game went on from that action.
    """

    #: The spec that builds this bot again, e.g. ``ismcts:normal``.
    spec: str

    def choose(self, view: SeatView) -> int: ...


def play_game(game: Game, bots: Sequence[Bot]) -> Game:
    """Play ``game`` to the end, seat ``i`` played by ``bots[i]``; return the finished game."""
    if len(bots) != game.players:
        raise ValueError(f"{game.players} players need {game.players} bots, got {len(bots)}")
    while not game.is_over():
        seat = game.current_player()
        action = bots[seat].choose(game.view(seat))
        game.apply(action)
    return game
