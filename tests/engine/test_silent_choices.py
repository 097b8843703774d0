"""docs/rules.md §11, silent choices stay silent: no question tells the others about hidden cards.

Whether a question is asked, whom it asks, what it names and how many options
the others are shown may not depend on cards the other seats cannot see. The
reproduction pairs come from the issue that found the two leaks; the random
check re-deals the hidden cards with the sampler at every decision of random
games (every box, seeded random recipes, every player count) and compares
what each seat observes next (:mod:`support.silence`).
"""

from __future__ import annotations

import random

import pytest
from support.silence import first_leak, leak_after

from oriflamme import Game, RuleOptions, build_position, parse_action
from oriflamme.engine import game as game_module
from oriflamme.engine import view as view_module
from oriflamme.engine.action_text import action_text
from oriflamme.engine.registry import D_TWIN
from oriflamme.engine.sampler import sample_game


def _impersonation(aside: str, hand: str) -> Game:
    return build_position(
        2,
        "ablaze",
        "p1:~impersonation p2:queen p2:~felon",
        round=6,
        discards={0: "queen"},
        aside={0: aside},
        hands={0: hand, 1: "prince felon cutthroat"},
    )


def _informant(hand: str) -> Game:
    return build_position(
        2, "alliance", "p1:informant p2:~empress", round=5, hands={0: hand, 1: "judge deserter"}
    )


@pytest.mark.parametrize(
    ("cases", "action"),
    [
        (
            [
                lambda: _impersonation("queen trap plot schemer", "prince felon cutthroat"),
                lambda: _impersonation("felon trap plot schemer", "prince queen cutthroat"),
            ],
            "reveal",
        ),
        ([lambda: _informant("fanatic fanatic"), lambda: _informant("fanatic judge")], "exchange"),
    ],
    ids=["impersonation-other-queen-aside-or-in-hand", "informant-hand-of-one-kind-or-two"],
)
def test_reproduction_pairs_look_the_same_to_the_opponent(cases: list, action: str) -> None:
    """Both cases of each pair: the same question to the same seat, the same history length."""
    seen = []
    for make in cases:
        g = make()
        g.apply(parse_action(g, action))
        v = g.view(1)
        seen.append((v.decision, v.to_move, v.legal_actions, len(g.history)))
    assert seen[0] == seen[1]
    assert seen[0][:2] in (("fetch", 0), ("swap", 0))
    assert seen[0][2] == ()  # the options stay the asked seat's


def test_the_asked_seat_still_gets_the_options_its_cards_allow() -> None:
    """The question is the same for all; its options are the asked seat's own business."""
    both = _impersonation("queen trap plot schemer", "prince felon cutthroat")
    both.apply(parse_action(both, "reveal"))
    one = _impersonation("felon trap plot schemer", "prince queen cutthroat")
    one.apply(parse_action(one, "reveal"))
    assert [both.view(0).legal_actions, one.view(0).legal_actions] == [
        both.legal_actions(),
        one.legal_actions(),
    ]
    assert (len(both.legal_actions()), len(one.legal_actions())) == (2, 1)


CASES = [
    (deck, players, RuleOptions()) for deck in ("base", "ablaze", "alliance") for players in (2, 3, 4, 5)
]
CASES.append(("alliance", 2, RuleOptions(rounds=7)))  # hands of one kind happen late in long 2-player games
RANDOM_RECIPES = [("random", players, RuleOptions()) for players in (2, 3, 4, 5)]


@pytest.mark.parametrize(
    ("deck", "players", "rules"),
    CASES + RANDOM_RECIPES,
    ids=lambda v: v if isinstance(v, str | int) else f"rounds{v.rounds}",
)
def test_no_question_depends_on_hidden_cards(deck: str, players: int, rules: RuleOptions) -> None:
    """At every decision of random games, each seat's next observation survives a re-deal of what it cannot see."""
    seeds = range(8) if deck == "random" or players == 2 else range(4)
    for seed in seeds:
        g = Game.new(players=players, deck=deck, seed=seed, rules=rules)
        assert first_leak(g, random.Random(seed)) is None, f"seed {seed}"


#: Compiled (mypyc) classes call their methods directly: patching one changes nothing.
COMPILED = not game_module.__file__.endswith(".py")


@pytest.mark.skipif(COMPILED, reason="a compiled Game cannot be patched")
@pytest.mark.parametrize(
    ("deck", "rules", "seed"),
    [("ablaze", RuleOptions(), 18), ("alliance", RuleOptions(rounds=7), 15)],
    ids=["impersonation-fetch", "informant-swap"],
)
def test_the_check_finds_the_leaks_of_one_option_questions(
    monkeypatch: pytest.MonkeyPatch, deck: str, rules: RuleOptions, seed: int
) -> None:
    """With one-option questions answered at once again (the old behaviour), the random check fails."""
    monkeypatch.setattr(Game, "ask_every_time", Game.ask)
    g = Game.new(players=2, deck=deck, seed=seed, rules=rules)
    why = first_leak(g, random.Random(seed))
    assert why is not None and ("'fetch'" in why or "'swap'" in why), why


def test_a_redeal_never_finds_a_question_without_options() -> None:
    """Every re-deal of a pending fetch or swap leaves the asked seat at least one answer."""
    g = _impersonation("felon trap plot schemer", "prince queen cutthroat")
    g.apply(parse_action(g, "reveal"))
    for k in range(40):
        h = sample_game(g.view(1), random.Random(k))
        assert h.decision() == "fetch" and len(h.legal_actions()) >= 1


def _two_princes() -> Game:
    return build_position(2, "ablaze", "p1:~prince p2:~felon p1:~prince p1:~felon", round=3, scores=[1, 1])


def test_the_check_finds_twin_options_shown_to_all(monkeypatch: pytest.MonkeyPatch) -> None:
    """Showing the Twin's placements to everybody would tell where the second Prince lies face down."""
    g = _two_princes()
    reveal = parse_action(g, "reveal")
    assert leak_after(g, reveal, 1, random.Random(1), samples=40) is None
    monkeypatch.setattr(view_module, "_PRIVATE_OPTIONS", view_module._PRIVATE_OPTIONS - {D_TWIN})
    why = leak_after(g, reveal, 1, random.Random(1), samples=40)
    assert why is not None and "'twin'" in why, why


def test_twin_placements_skip_a_face_down_prince_and_stay_private() -> None:
    """§7 Prince (not onto a Prince) + §11: the face-down second Prince is left out, and only the decider sees that."""
    g = _two_princes()
    g.apply(parse_action(g, "reveal"))
    assert g.decision() == "twin" and g.current_player() == 0
    assert [action_text(g, a) for a in g.legal_actions()] == [
        "place twin first",
        "place twin last",
        "place twin on 4",
    ]
    assert g.view(0).legal_actions == g.legal_actions()
    assert g.view(1).legal_actions == () and g.view(None).legal_actions == ()
