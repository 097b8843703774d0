"""Small helpers shared by the Alliance, recipe and 2-player scenario tests.

They keep the scenarios readable: a position is built from its one-line
notation, actions are played by their text form, and assertions compare the
queue in the same notation.
"""

from __future__ import annotations

from oriflamme.engine.action_text import action_text, parse_action
from oriflamme.engine.events import Event
from oriflamme.engine.game import Game
from oriflamme.notation.position import Piles, build_position, pile_slugs, queue_string

__all__ = [
    "Game",
    "build",
    "discards",
    "hand_slugs",
    "kept_slugs",
    "legal",
    "play",
    "queue",
]


def build(
    queue: str,
    players: int = 3,
    deck: str = "alliance",
    scores: list[int] | None = None,
    round: int = 6,
    pointer: int = 0,
    hands: Piles = None,
    kept: Piles = None,
    **kwargs: object,
) -> Game:
    """A resolving position; round 6 by default so the game ends after this resolution."""
    return build_position(
        players,
        deck,
        queue,
        scores=scores,
        round=round,
        pointer=pointer,
        hands=hands,
        kept=kept,
        **kwargs,  # type: ignore[arg-type]
    )


def play(g: Game, *texts: str) -> list[Event]:
    """Apply actions given in their text form, in order; return all the events they produced."""
    out: list[Event] = []
    for text in texts:
        out += g.apply(parse_action(g, text))
    return out


def legal(g: Game) -> list[str]:
    """The legal actions of the pending decision, as text."""
    return [action_text(g, a) for a in g.legal_actions()]


def queue(g: Game) -> str:
    return queue_string(g)


def discards(g: Game, seat: int) -> list[str]:
    return pile_slugs(g, g.discards[seat])


def kept_slugs(g: Game, seat: int) -> list[str]:
    return pile_slugs(g, g.kept[seat])


def hand_slugs(g: Game, seat: int) -> list[str]:
    return pile_slugs(g, g.hands[seat])


VERDICTS = 5


