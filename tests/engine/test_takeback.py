"""Taking back a decision only while it showed nothing new (engine.takeback)."""

from __future__ import annotations

import random

import pytest

from oriflamme import Game, build_position, parse_action, savefile
from oriflamme.engine.takeback import Timeline


def play(timeline: Timeline, g: Game, *texts: str) -> None:
    for text in texts:
        timeline.apply(g, parse_action(g, text))


def test_a_reveal_of_ones_own_card_can_be_taken_back() -> None:
    """p1 reveals its Soldier (a card it knew) and is asked for a target: back to keep-or-reveal."""
    g = build_position(3, "base", "p2:~heir p1:~soldier p3:~lord", pointer=1, scores=[1, 1, 1])
    before = savefile.dumps(g)
    timeline = Timeline()
    play(timeline, g, "reveal")
    assert (g.decision(), g.current_player()) == ("eliminate", 0)
    assert timeline.refusal(0) is None
    timeline.take_back(g, 0)
    assert (g.decision(), g.current_player()) == ("keep_or_reveal", 0)
    assert savefile.dumps(g) == before
    assert timeline.steps == [] and timeline.refusal(0) == "none"


def test_an_elimination_that_names_a_hidden_card_cannot_be_taken_back() -> None:
    """The Soldier eliminates p2's face-down Heir: p1 now knows it, so the choice stands."""
    g = build_position(3, "base", "p2:~heir p1:~soldier p3:~lord", pointer=1, scores=[1, 1, 1])
    timeline = Timeline()
    play(timeline, g, "reveal", "target 1")
    assert timeline.refusal(0) == "learned"
    with pytest.raises(ValueError, match="cannot take back"):
        timeline.take_back(g, 0)


def test_a_sprung_ambush_cannot_be_taken_back() -> None:
    g = build_position(3, "base", "p2:~ambush p1:~soldier p3:~lord", pointer=1, scores=[1, 1, 1])
    timeline = Timeline()
    play(timeline, g, "reveal", "target 1")
    assert g.score[1] > 1  # the Ambush paid its owner
    assert timeline.refusal(0) == "learned"


def test_another_players_decision_closes_the_take_back() -> None:
    """Once p2 has answered, p1 has seen that answer: p1's keep stands."""
    g = build_position(3, "base", "p1:~soldier p2:~heir p3:~lord", scores=[1, 1, 1])
    timeline = Timeline()
    play(timeline, g, "keep")
    assert timeline.refusal(0) is None
    assert timeline.refusal(1) == "none"  # p2 has no decision to take back
    play(timeline, g, "keep")
    assert timeline.refusal(0) == "others"
    assert timeline.refusal(1) is None


def test_take_backs_can_follow_one_another() -> None:
    """reveal, then target: the target (an elimination of a known face-up card) and the reveal both go."""
    g = build_position(3, "base", "p2:heir p1:~soldier p3:~lord", pointer=1, scores=[1, 1, 1])
    start = savefile.dumps(g)
    timeline = Timeline()
    play(timeline, g, "reveal", "target 1")
    assert timeline.refusal(0) is None  # the Heir was face up: nothing new
    timeline.take_back(g, 0)
    assert g.decision() == "eliminate"
    timeline.take_back(g, 0)
    assert savefile.dumps(g) == start


def test_random_games_never_offer_a_take_back_after_something_new() -> None:
    """Whenever a take-back is allowed, the seat's view before the step is the one it is given back."""
    for seed in range(30):
        g = Game.new(players=3 + seed % 3, deck=("base", "ablaze", "alliance")[seed % 3], seed=seed)
        rng = random.Random(seed)
        timeline = Timeline()
        while not g.is_over():
            timeline.apply(g, rng.choice(g.legal_actions()))
            seat = timeline.steps[-1].seat
            if timeline.refusal(seat) is None:
                step = timeline.steps[-1]
                back = step.before
                # Every card the seat can name now, it could name before.
                now = {cv.id for cv in _named(g, seat)}
                assert now <= {cv.id for cv in _named(back, seat)} | _moved_own(back, seat), (
                    seed,
                    len(g.history),
                )


def _named(g: Game, seat: int) -> list:
    v = g.view(seat)
    cards = [cv for position in v.queue for cv in position] + list(v.hand) + list(v.aside)
    for group in (v.known_hands, v.twins, v.discards, v.kept):
        for pile in group:
            cards += pile
    return [cv for cv in cards if cv.id is not None]


def _moved_own(g: Game, seat: int) -> set[int]:
    return {c for c in range(len(g.kind)) if g.owner[c] == seat}
