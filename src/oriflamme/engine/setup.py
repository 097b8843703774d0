"""What a game is dealt from: players, deck recipe, rule options, seed and first player.

A game is fully determined by its :class:`Setup` and the list of actions
played from it. Save files, the web server's stored tables and tournament
records all keep a setup; :meth:`Setup.deal` is the one way back to the game,
and :func:`oriflamme.notation.replay` the one way to replay its actions.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import SetupError
from .game import Game
from .options import RuleOptions

_DEFAULT_RULES = RuleOptions()


@dataclass(frozen=True, slots=True)
class Setup:
    """The deal of a game (``seed=None``: a built position, which cannot be dealt again)."""

    players: int
    #: Kind ids of the deck recipe, sorted (see :mod:`oriflamme.engine.recipes`).
    recipe: tuple[int, ...]
    rules: RuleOptions = _DEFAULT_RULES
    seed: int | None = None
    #: Round one's first player as given to ``Game.new``; None: drawn from the seed.
    first_player: int | None = None

    def deal(self) -> Game:
        """The game before any action, exactly as first dealt."""
        if self.seed is None:
            raise SetupError("a setup without a seed (a built position) cannot be dealt again")
        return Game.new(self.players, self.recipe, self.seed, self.first_player, self.rules)
