"""Small helpers shared by the Alliance, recipe and 2-player scenario tests.

They keep the scenarios readable: a position is built from its one-line
notation, actions are played by their text form, and assertions compare the
queue in the same notation.
"""

from __future__ import annotations

from oriflamme.cards import AGREEMENT, DIPLOMAT
from oriflamme.events import Event
from oriflamme.game import Game
from oriflamme.notation import action_text, parse_action
from oriflamme.position import Piles, build_position, pile_slugs, queue_string
from oriflamme.zones import COVERED, TOP

__all__ = [
    "Game",
    "build",
    "check_invariants",
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


def check_invariants(g: Game, label: str, step: int) -> None:
    """Random-play invariants (see test_alliance_random), written for speed.

    This module is not rewritten by pytest, so the checks stay cheap; each
    message names the game and the step.
    """
    in_queue: list[int] = []
    for i in range(len(g.queue)):
        in_queue += g.stack_cards(i)
    places = in_queue[:]
    for seat in range(g.players):
        places += g.hands[seat] + g.aside[seat] + g.twins[seat] + g.discards[seat] + g.kept[seat]
    n = len(g.kind)
    assert len(places) == n and len(set(places)) == n, f"{label} step={step}: a card lost or in two places"
    zone = g.zone
    assert all(zone[c] == TOP or zone[c] == COVERED for c in in_queue), f"{label} step={step}: queue zones"
    assert zone.count(TOP) + zone.count(COVERED) == len(in_queue), f"{label} step={step}: stray queue zone"
    verdict = g.verdict
    on_queue_cards = sum(verdict[c] for c in in_queue)
    assert g.verdict_pool + on_queue_cards == VERDICTS, f"{label} step={step}: verdicts do not add up to 5"
    assert sum(verdict) == on_queue_cards, f"{label} step={step}: a verdict on a card out of the queue"
    ip, up, kind = g.ip, g.up, g.kind
    assert min(g.score) >= 0 and min(ip) >= 0, f"{label} step={step}: negative IP"
    for c in in_queue:
        assert not (ip[c] and up[c]) or kind[c] == DIPLOMAT, f"{label} step={step}: IP on face-up card {c}"
    kept_ip = sum(ip[c] for seat in range(g.players) for c in g.kept[seat] if kind[c] == AGREEMENT)
    assert sum(ip) == sum(ip[c] for c in in_queue) + kept_ip, (
        f"{label} step={step}: IP on a card off the queue"
    )
    if g.is_over():
        assert g.current_player() == -1 and not g.legal_actions(), f"{label}: actions after the end"
    else:
        assert g.legal_actions(), f"{label} step={step}: no legal action but the game is not over"
        assert 0 <= g.current_player() < g.players, f"{label} step={step}: bad current player"
