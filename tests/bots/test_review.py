"""Move evaluation (IsmctsBot.evaluate) and game reviews (bots.review, `oriflamme review`)."""

from __future__ import annotations

import math

from oriflamme import Game, action_text, build_position, parse_action, savefile
from oriflamme.bots import make_bot
from oriflamme.bots.ismcts import IsmctsBot
from oriflamme.bots.review import MoveReview, review_game, review_position
from oriflamme.engine.setup import Setup


def _soldier_choice() -> Game:
    """Round 6, p1's Soldier revealed: eliminate p2's Queen (2 IP ahead of p1) or p1's own Queen."""
    deck = ["soldier", "queen", "cutthroat", "apothecary", "felon", "schemer", "impersonation", "plot", "trap",
            "bribery"]  # fmt: skip
    g = build_position(
        3, ",".join(deck), "p2:queen p1:~soldier p1:queen", pointer=1, scores=[4, 5, 0], round=6
    )
    g.apply(parse_action(g, "reveal"))
    assert g.decision() == "eliminate" and [action_text(g, a) for a in g.legal_actions()] == [
        "target 1",
        "target 3",
    ]
    return g


def test_evaluate_ranks_every_action_and_agrees_with_choose() -> None:
    g = _soldier_choice()
    view = g.view(0)
    values = IsmctsBot("easy", 4).evaluate(view)
    assert {v.action for v in values} == set(view.legal_actions)
    assert sum(v.visits for v in values) == 50
    assert values[0].action == IsmctsBot("easy", 4).choose(view) == parse_action(g, "target 1")
    assert all(0.0 <= v.win <= 1.0 for v in values if v.visits)
    assert values[0].win > values[1].win


def test_a_losing_move_is_graded_and_a_good_one_costs_nothing() -> None:
    g = _soldier_choice()
    bad = review_position(g, parse_action(g, "target 3"), "easy", seed=1)
    assert (bad.played, bad.best) == ("target 3", "target 1")
    assert bad.cost >= 20 and bad.grade == "blunder"
    good = review_position(g, parse_action(g, "target 1"), "easy", seed=1)
    assert good.played == good.best and good.cost == 0.0 and good.grade is None


def test_a_review_sees_only_what_the_seat_saw() -> None:
    """Two games that differ only in cards p1 cannot see give p1 the same review."""
    reviews = []
    for hidden in ("cutthroat felon", "trap plot"):
        g = build_position(3, "ablaze", "p1:~queen p2:~schemer", hands={0: "felon apothecary", 1: hidden},
                           round=5)  # fmt: skip
        reviews.append(review_position(g, parse_action(g, "keep"), "easy", seed=3))
    assert reviews[0] == reviews[1]


def test_review_game_goes_through_the_chosen_seats_decisions_reproducibly() -> None:
    g = Game.new(3, "base", seed=8)
    bots = [make_bot("heuristic", s) for s in range(3)]
    while not g.is_over():
        s = g.current_player()
        g.apply(bots[s].choose(g.view(s)))
    setup = Setup(3, g.recipe, g.rules, 8, None)
    texts = savefile.to_dict(g)["actions"]
    reviews = review_game(setup, texts, [1], "easy", seed=2)
    again = review_game(setup, texts, [1], "easy", seed=2)
    assert reviews == again and len(reviews) >= 10
    assert {r.seat for r in reviews} == {1}
    # Exactly p2's decisions that had a choice, in order, each with the action p2 played.
    replayed = setup.deal()
    expected = []
    for i, a in enumerate(g.history):
        if replayed.current_player() == 1 and len(replayed.options) > 1:
            expected.append((i, action_text(replayed, a)))
        replayed.apply(a)
    assert [(r.index, r.played) for r in reviews] == expected


def test_move_reviews_carry_no_nan_cost() -> None:
    r = MoveReview(0, 0, 1, "place", "a", "b", math.nan, 0.5, 0, 10, ())
    assert r.cost == 0.0 and r.grade is None
