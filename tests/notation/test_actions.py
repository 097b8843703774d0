"""The action text form on base-game positions: round trips, illegal actions, unreadable text."""

from __future__ import annotations

import random

import pytest
from support.base import B, R, options, play, table

from oriflamme import Game, GameOverError, IllegalActionError, InvalidActionError, action_text, parse_action
from oriflamme.engine.actions import KEEP_ACTION, SHIFT, TARGET
from oriflamme.notation.position import queue_string


def _snapshot(g: Game) -> tuple[object, ...]:
    return (
        queue_string(g),
        list(g.score),
        list(g.history),
        g.decision(),
        g.current_player(),
        g.legal_actions(),
        g.round,
        g.ptr,
        [list(h) for h in g.hands],
        [list(d) for d in g.discards],
    )


@pytest.mark.parametrize(("players", "seed"), [(3, 1), (4, 2), (5, 3), (3, 4), (4, 5)])
def test_every_legal_action_text_round_trips(players: int, seed: int) -> None:
    """notation: in every position of a random base game, parse_action(action_text(a)) == a, texts distinct."""
    g = Game.new(players, "base", seed=seed)
    rng = random.Random(seed)
    seen: set[str] = set()
    while not g.is_over():
        texts = [action_text(g, a) for a in g.legal_actions()]
        assert len(set(texts)) == len(texts)
        for a, text in zip(g.legal_actions(), texts, strict=True):
            assert parse_action(g, text) == a
        seen.add(str(g.decision()))
        g.apply(rng.choice(g.legal_actions()))
    assert {"place", "keep_or_reveal"} <= seen


@pytest.mark.parametrize(
    ("queue", "pointer", "decision"),
    [
        ("p1:~royal-decree p2:spy/p2:~soldier+2 p3:~lord", 0, "decree_pick"),
        ("p2:~lord p1:spy p3:~lord", 1, "spy"),
        ("p2:spy p1:shapeshifter p3:lord", 1, "copy"),
        ("p1:archer p2:~lord p3:~heir", 0, "eliminate"),
    ],
)
def test_round_trip_in_card_decisions(queue: str, pointer: int, decision: str) -> None:
    """notation: target, to, steal and copy texts read back to the same action."""
    g = table(queue, scores=[1, 1, 1], pointer=pointer)
    if decision == "decree_pick":
        play(g, "reveal")
    assert g.decision() == decision
    for a in g.legal_actions():
        assert parse_action(g, action_text(g, a)) == a
    if decision == "decree_pick":
        play(g, "target 2")
        assert g.decision() == "decree_dest"
        for a in g.legal_actions():
            assert parse_action(g, action_text(g, a)) == a


def test_parse_action_ignores_case_and_spaces() -> None:
    """notation: the text is read case-insensitively with spaces normalised."""
    g = table("p1:~heir p2:~lord")
    assert parse_action(g, "  KEEP ") == KEEP_ACTION


def test_placement_on_stack_text() -> None:
    """notation: stacking reads "place SLUG on N" with N the 1-based position."""
    g = table("p2:~lord p1:~heir", hands={R: "spy"}, round=2, phase="place")
    assert "place spy on 2" in options(g)
    play(g, "place spy on 2")
    assert queue_string(g) == "p2:~lord p1:~heir/p1:~spy"


def test_illegal_action_text_raises_and_changes_nothing() -> None:
    """notation: a well-formed but illegal text raises IllegalActionError; the state is unchanged."""
    g = table("p1:archer p2:~lord p3:~heir", scores=[1, 1, 1])
    before = _snapshot(g)
    with pytest.raises(IllegalActionError) as err:
        g.apply(parse_action(g, "target 2"))
    assert "'target 1'" in str(err.value)
    assert _snapshot(g) == before


def test_illegal_action_code_raises_and_changes_nothing() -> None:
    """Game.apply: an action code outside the legal set raises IllegalActionError; the state is unchanged."""
    g = table("p1:~assassination p2:~ambush+2 p3:~lord", scores=[1, 1, 1])
    play(g, "reveal")
    before = _snapshot(g)
    for bad in (TARGET << SHIFT | 7, KEEP_ACTION, 12345678):
        with pytest.raises(IllegalActionError):
            g.apply(bad)
        assert _snapshot(g) == before
    play(g, "target 2")  # the game goes on normally afterwards
    assert g.score == [2, 5, 1]


def test_illegal_placement_texts() -> None:
    """notation: "on N" onto an opponent's card, or in round 1, is illegal and changes nothing."""
    g = table("p2:~lord p1:~heir", hands={R: "spy", B: "archer"}, round=2, phase="place")
    before = _snapshot(g)
    with pytest.raises(IllegalActionError):
        parse_action(g, "place spy on 1")
    with pytest.raises(IllegalActionError):
        parse_action(g, "place archer first")  # not Red's card
    assert _snapshot(g) == before


def test_garbage_text_raises_invalid_action_naming_legal_ones() -> None:
    """notation: unreadable text raises InvalidActionError whose message lists the legal actions."""
    g = table("p1:~heir p2:~lord")
    before = _snapshot(g)
    with pytest.raises(InvalidActionError) as err:
        parse_action(g, "dance a jig")
    assert not isinstance(err.value, IllegalActionError)
    message = str(err.value)
    assert "dance a jig" in message
    assert "'keep'" in message
    assert "'reveal'" in message
    assert _snapshot(g) == before


def test_empty_text_is_invalid() -> None:
    """notation: empty action text is unreadable."""
    g = table("p1:~heir p2:~lord")
    with pytest.raises(InvalidActionError):
        parse_action(g, "   ")


def test_no_action_after_game_over() -> None:
    """Game.apply: once the game is over every action is refused."""
    g = table("p1:heir", scores=[0, 0, 0])
    assert g.is_over()
    with pytest.raises(GameOverError):
        g.apply(KEEP_ACTION)
    with pytest.raises(IllegalActionError):
        parse_action(g, "keep")
