"""The search's horizon: playouts stop after a round or two and the position is scored by a projection.

Whether two rounds and a projection play as well as six rounds of play is
measured with ``oriflamme tournament`` (README, "Computer opponents"); these
tests pin what the projection counts and where a playout stops.
"""

from __future__ import annotations

import dataclasses
import math
import random

import pytest

from oriflamme import Game
from oriflamme.bots import ismcts as ismcts_module
from oriflamme.bots.heuristic.projection import (
    HAND_WEIGHT,
    SHARE_TEMPERATURE,
    projected_scores,
    projected_shares,
    share_temperature,
)
from oriflamme.bots.ismcts import LEVELS, IsmctsBot, SearchLevel
from oriflamme.engine.actions import KEEP_ACTION, REVEAL_ACTION
from oriflamme.engine.cards import kind_from_slug
from oriflamme.engine.zones import PLACE, RESOLVE
from oriflamme.notation.position import build_position

#: Compiled (mypyc) modules call their functions directly: patching one changes nothing.
COMPILED = not ismcts_module.__file__.endswith(".py")


def _round_two_table() -> Game:
    """Round 2 of 6, placing: two revealed characters, two face-down cards, a kept Agreement."""
    return build_position(
        4,
        "lord,conspiracy,heir,ambush,soldier,agreement,spy,archer,trap,assassination",
        "p1:lord p1:~conspiracy+2 p2:heir p3:~ambush+1",
        hands=[["soldier", "trap"], ["archer"], [], ["spy"]],
        kept={3: "agreement+2"},
        scores=[3, 1, 0, 2],
        round=2,
        phase="place",
    )


def test_projection_adds_what_each_seats_cards_will_still_earn() -> None:
    """Round 2 of 6, while placing (every card still acts this round and four more):
    p1's Lord beside its own card earns 2 a round (10), p1's hidden Conspiracy with 2 IP is
    worth 2 x 2 + 2 = 6, p2's lone Heir 2 a round (10), p3's hidden Ambush 1 (bait pays when
    sprung, not when revealed); p4 holds a kept Agreement with 2 IP, 2 a round for five rounds.
    Hands count at half their worth, the best five cards (five turns left): p1's Soldier and
    Trap (1.5 x 4.5 and 1), p2's Archer (1.5 x 4.5), nothing for p3, p4's Spy (1.3 x 4.5)."""
    g = _round_two_table()
    assert HAND_WEIGHT == 0.5
    assert projected_scores(g) == pytest.approx(
        [3 + 10 + 6 + 0.5 * (6.75 + 1), 1 + 10 + 0.5 * 6.75, 0 + 1, 2 + 10 + 0.5 * 1.3 * 4.5]
    )


def test_a_survival_chance_discounts_a_revealed_characters_later_activations() -> None:
    """The position above with a survival of 0.5 per round: p1's Lord and p2's Heir count their
    next activation fully and each of their four later ones at half the one before (2 x 1.9375
    instead of 2 x 5); nothing else changes, and 1 is the undiscounted projection."""
    g = _round_two_table()
    full = projected_scores(g)
    assert projected_scores(g, 1.0) == full
    half = projected_scores(g, 0.5)
    assert [f - h for f, h in zip(full, half, strict=True)] == pytest.approx([10 - 3.875, 10 - 3.875, 0, 0])
    # Zero counts the next activation only.
    assert projected_scores(g, 0.0)[1] == pytest.approx(full[1] - 8)


def test_projection_counts_only_the_best_cards_a_seat_has_turns_for() -> None:
    """Round 5 while placing: two turns left, so of p1's three cards in hand only the best two count."""
    g = build_position(
        4, "base", "p2:~spy", hands=[["heir", "soldier", "ambush"], [], [], []], round=5, phase="place"
    )
    # Two rounds to come counting this one: Heir 2 x 1.5, Soldier 1.5 x 1.5; the Ambush (1) is left out.
    assert projected_scores(g)[0] == pytest.approx(g.score[0] + 0.5 * (3.0 + 2.25))
    # Once this round's cards are down (resolving), one turn is left: the Heir alone counts.
    g = build_position(
        4, "base", "p2:~spy p1:~lord", hands=[["heir", "soldier", "ambush"], [], [], []], round=5
    )
    assert g.phase == RESOLVE
    # p1's hidden Lord is worth 1.5 x (1 + 0.5); of the hand, the Heir alone: 0.5 x 3.
    assert projected_scores(g)[0] == pytest.approx(g.score[0] + 1.5 * 1.5 + 0.5 * 3.0)


def test_projection_counts_only_the_activations_left() -> None:
    """During resolution a character before the pointer has acted this round; one after it has not.
    Round 6, pointer at 2: p1's Heir at 1 has no activation left, p1's Lord at 3 has one (no own
    neighbour: 1 IP); a hidden Spy is worth its activation value for half a round (1.3 x 0.5)."""
    g = build_position(4, "base", "p2:~spy p1:heir p3:~spy p1:lord", round=6, pointer=2, scores=[5, 4, 3, 2])
    assert g.decision() == "keep_or_reveal"
    assert projected_scores(g) == pytest.approx([5 + 0 + 1, 4 + 0.65, 3 + 0.65, 2])


def test_projected_shares_are_win_chances_that_favour_the_lead() -> None:
    """Equal projections share equally; every 2 IP of lead multiply the odds by e; they sum to 1."""
    assert projected_shares([5.0, 5.0, 5.0, 5.0]) == pytest.approx([0.25] * 4)
    two = projected_shares([9.0, 7.0])
    assert two == pytest.approx([math.e / (1 + math.e), 1 / (1 + math.e)])
    four = projected_shares([3.0, 7.5, 7.5, 1.0])
    assert sum(four) == pytest.approx(1.0)
    assert four[1] == four[2] > four[0] > four[3] > 0


def _evaluate(level: SearchLevel, g: Game, seed: int = 3) -> list[tuple[int, int, float]]:
    bot = IsmctsBot(level, seed)
    return [(v.action, v.visits, v.value) for v in bot.evaluate(g.view(g.current_player()))]


def test_every_simulation_ends_at_the_horizon_or_at_the_games_end() -> None:
    """Counted by the bot (so checked on the compiled build too): from round 1 with a two-round
    horizon every simulation is projected; from round 5, or without a horizon, none is."""
    early = Game.new(players=4, deck="base", seed=11)
    late = build_position(4, "base", "p1:~conspiracy+2 p2:~heir p3:~spy p4:~lord", round=5)
    for g, horizon, projected in ((early, 2, 30), (late, 2, 0), (early, 0, 0)):
        while len(g.legal_actions()) == 1:
            g.apply(g.legal_actions()[0])
        # The whole budget: a settled search would stop early (see test_search_early_stop.py).
        level = SearchLevel(iterations=30, max_seconds=30.0, horizon=horizon, early_stop=False)
        bot = IsmctsBot(level, 1)
        bot.choose(g.view(g.current_player()))
        assert (bot.last_iterations, bot.last_projected) == (30, projected)


def test_the_horizon_changes_nothing_where_the_game_ends_before_it() -> None:
    """In round 5 a two-round horizon reaches the end of the game: the same search as playing out."""
    g = build_position(4, "base", "p1:~conspiracy+2 p2:~heir p3:~spy p4:~lord", round=5)
    level = SearchLevel(iterations=40, max_seconds=30.0)
    assert level.horizon == 2 == LEVELS["normal"].horizon
    assert _evaluate(level, g) == _evaluate(dataclasses.replace(level, horizon=0), g)


def test_the_horizon_changes_the_search_before_the_last_rounds() -> None:
    """In round 2 the playouts of a two-round horizon stop early, so the statistics differ."""
    g = build_position(4, "base", "p1:~conspiracy+2 p2:~heir p3:~spy p4:~lord", round=2)
    level = SearchLevel(iterations=40, max_seconds=30.0)
    assert _evaluate(level, g) != _evaluate(dataclasses.replace(level, horizon=0), g)


@pytest.mark.skipif(COMPILED, reason="a compiled module calls its functions directly")
@pytest.mark.parametrize("horizon", [1, 2, 3])
def test_a_playout_stops_when_the_horizon_round_begins(horizon: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every iteration from a round-1 decision is scored by the projection, at the start of round
    1 + horizon, before anyone has placed; none is played further."""
    seen: list[tuple[int, int, int]] = []

    def spy(g: Game, survival: float = 1.0) -> list[float]:
        seen.append((g.round, g.phase, g.turn))
        return projected_scores(g, survival)

    monkeypatch.setattr(ismcts_module, "projected_scores", spy)
    g = Game.new(players=4, deck="base", seed=11)
    while len(g.legal_actions()) == 1:
        g.apply(g.legal_actions()[0])
    assert g.round == 1
    bot = IsmctsBot(SearchLevel(iterations=30, max_seconds=30.0, horizon=horizon), 1)
    bot.choose(g.view(g.current_player()))
    assert seen == [(1 + horizon, PLACE, 0)] * 30


@pytest.mark.skipif(COMPILED, reason="a compiled module calls its functions directly")
def test_without_a_horizon_every_playout_reaches_the_end(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(g: Game, survival: float = 1.0) -> list[float]:
        raise AssertionError(f"projection asked at round {g.round}")

    monkeypatch.setattr(ismcts_module, "projected_scores", refuse)
    g = Game.new(players=3, deck="ablaze", seed=2)
    bot = IsmctsBot(SearchLevel(iterations=20, max_seconds=30.0, horizon=0), 1)
    assert bot.choose(g.view(g.current_player())) in g.legal_actions()


# ------------------------------------------------------------ tree reuse


def _level(**kw: object) -> SearchLevel:
    """60 iterations, all run (no early stop), so that the budget's share of each search is exact."""
    return dataclasses.replace(SearchLevel(iterations=60, max_seconds=30.0, early_stop=False), **kw)  # type: ignore[arg-type]


def test_the_next_decision_tops_up_the_subtree_when_the_seat_learned_nothing() -> None:
    """p1 decides about its hidden Spy, then (whatever it did: its own cards, no opponent beside the
    Spy) about its hidden Heir. The second search starts from the simulations the first one made
    below the action played, and runs only what the budget lacks."""
    g = build_position(4, "base", "p1:~spy p1:~heir p2:~lord p3:~soldier", round=2)
    bot = IsmctsBot(_level(), 5)
    g.apply(bot.choose(g.view(0)))
    assert bot.last_reused == 0 and bot.last_iterations == 60
    assert g.current_player() == 0 and g.decision() == "keep_or_reveal"
    action = bot.choose(g.view(0))
    assert action in g.legal_actions()
    assert 0 < bot.last_reused < 60
    assert bot.last_iterations == 60 - bot.last_reused
    # Without reuse the same bot searches the whole budget afresh.
    fresh = IsmctsBot(_level(reuse=False), 5)
    g2 = build_position(4, "base", "p1:~spy p1:~heir p2:~lord p3:~soldier", round=2)
    g2.apply(fresh.choose(g2.view(0)))
    fresh.choose(g2.view(0))
    assert fresh.last_reused == 0 and fresh.last_iterations == 60


def test_no_reuse_after_a_card_became_known() -> None:
    """p1 decides about its hidden Heir, then its revealed Soldier eliminates p2's hidden Lord,
    which everybody now sees: p1's next decision (its Spy) is searched afresh."""
    g = build_position(4, "base", "p1:~heir p1:soldier p2:~lord p1:~spy p3:~spy", round=3)
    bot = IsmctsBot(_level(), 2)
    g.apply(bot.choose(g.view(0)))
    assert g.decision() == "eliminate" and g.current_player() == 0
    g.apply(bot.choose(g.view(0)))
    assert bot.last_reused > 0  # nothing was learned before the target was chosen
    assert [g.kind[c] for c in g.discards[1]] == [kind_from_slug("lord")], "the Soldier took the Lord"
    assert g.decision() == "keep_or_reveal" and g.current_player() == 0
    bot.choose(g.view(0))
    assert bot.last_reused == 0 and bot.last_iterations == 60


def test_no_reuse_after_another_seat_decided() -> None:
    """Another seat's choice always says something: p1's next search starts afresh."""
    g = build_position(4, "base", "p1:~spy p2:~heir p1:~lord p3:~soldier", round=2)
    bot = IsmctsBot(_level(), 5)
    g.apply(bot.choose(g.view(0)))
    assert g.current_player() == 1
    g.apply(g.legal_actions()[0])
    assert g.current_player() == 0
    bot.choose(g.view(0))
    assert bot.last_reused == 0 and bot.last_iterations == 60


def test_an_evaluation_never_reuses() -> None:
    """A review's figures are its own search's: evaluate() drops any kept subtree."""
    g = build_position(4, "base", "p1:~spy p1:~heir p2:~lord p3:~soldier", round=2)
    bot = IsmctsBot(_level(), 5)
    g.apply(bot.choose(g.view(0)))
    values = bot.evaluate(g.view(0))
    assert bot.last_reused == 0 and sum(v.visits for v in values) == 60


@pytest.mark.skipif(COMPILED, reason="a compiled module calls its functions directly")
def test_the_tree_stops_at_the_horizon_too(monkeypatch: pytest.MonkeyPatch) -> None:
    """Near the end of round 1 a large search's tree reaches round 2 within a few moves; with a
    one-round horizon, every simulation is still scored at the start of round 2, never later."""
    seen: list[tuple[int, int, int]] = []

    def spy(g: Game, survival: float = 1.0) -> list[float]:
        seen.append((g.round, g.phase, g.turn))
        return projected_scores(g, survival)

    monkeypatch.setattr(ismcts_module, "projected_scores", spy)
    g = Game.new(players=3, deck="base", seed=4)
    rng = random.Random(4)
    while not (
        g.round == 1 and g.phase == RESOLVE and g.ptr >= len(g.queue) - 2 and len(g.legal_actions()) > 1
    ):
        g.apply(rng.choice(g.legal_actions()))
    bot = IsmctsBot(SearchLevel(iterations=200, max_seconds=30.0, horizon=1, early_stop=False), 1)
    bot.choose(g.view(g.current_player()))
    assert seen == [(2, PLACE, 0)] * 200


def test_no_reuse_when_another_action_than_the_bots_was_applied() -> None:
    """A caller that applies something else than the bot's choice (here the other of keep and
    reveal) leaves the bot a view that its kept subtree does not lead to: it searches afresh."""
    g = build_position(4, "base", "p1:~spy p1:~heir p2:~lord p3:~soldier", round=2)
    bot = IsmctsBot(_level(), 5)
    chosen = bot.choose(g.view(0))
    other = REVEAL_ACTION if chosen == KEEP_ACTION else KEEP_ACTION
    g.apply(other)
    assert g.current_player() == 0 and g.decision() == "keep_or_reveal"
    bot.choose(g.view(0))
    assert bot.last_reused == 0 and bot.last_iterations == 60


def test_a_forced_answer_of_the_seat_keeps_the_subtree() -> None:
    """p1 decides about its Heir, must keep its Insurrection without IP (one option, asked all the
    same), then decides about its Lord: the last search tops up what the first built."""
    g = build_position(
        4,
        "heir,insurrection,lord,spy,soldier,archer,conspiracy,ambush,trap,assassination",
        "p1:~heir p1:~insurrection p1:~lord p2:~spy",
        round=2,
    )
    bot = IsmctsBot(_level(), 3)
    g.apply(bot.choose(g.view(0)))
    assert g.current_player() == 0 and g.legal_actions() == (KEEP_ACTION,)
    g.apply(bot.choose(g.view(0)))
    assert bot.last_iterations == 0
    assert g.current_player() == 0 and g.decision() == "keep_or_reveal"
    bot.choose(g.view(0))
    assert 0 < bot.last_reused < 60 and bot.last_iterations == 60 - bot.last_reused


# ------------------------------------------------------------ win chances at the horizon


def test_the_temperature_grows_with_the_rounds_left() -> None:
    """``share_scale`` IP per round left, counting the round that is starting (six rounds)."""
    g = Game.new(players=4, deck="base", seed=3)
    assert g.round == 1 and share_temperature(g, 1.5) == pytest.approx(9.0)
    g.round = 3
    assert share_temperature(g, 1.5) == pytest.approx(6.0)
    g.round = 6
    assert share_temperature(g, 2.0) == pytest.approx(2.0)


def test_a_higher_temperature_reads_a_lead_as_less_certain() -> None:
    est = [12.0, 8.0, 8.0, 4.0]
    sharp, soft = projected_shares(est, 1.0), projected_shares(est, 6.0)
    assert sum(soft) == pytest.approx(1.0)
    assert sharp[0] > soft[0] > 0.25 > soft[3] > sharp[3]
    assert projected_shares(est) == projected_shares(est, SHARE_TEMPERATURE)


@pytest.mark.skipif(COMPILED, reason="a compiled module calls its functions directly")
@pytest.mark.parametrize(("share_scale", "expected"), [(0.0, SHARE_TEMPERATURE), (1.5, 6.0), (0.5, 2.0)])
def test_the_search_reads_projections_at_the_temperature_of_its_level(
    share_scale: float, expected: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A round-1 decision projects at the start of round 3 (four rounds left): 0 keeps the fixed
    temperature, otherwise ``share_scale`` x 4."""
    seen: list[float] = []

    def spy(est: list[float], temperature: float = SHARE_TEMPERATURE) -> list[float]:
        seen.append(temperature)
        return projected_shares(est, temperature)

    monkeypatch.setattr(ismcts_module, "projected_shares", spy)
    g = Game.new(players=4, deck="base", seed=11)
    while len(g.legal_actions()) == 1:
        g.apply(g.legal_actions()[0])
    # A win_scale of 0 reports the steering figure, so that every reading is the search's own.
    bot = IsmctsBot(SearchLevel(iterations=20, max_seconds=30.0, share_scale=share_scale, win_scale=0.0), 1)
    bot.choose(g.view(g.current_player()))
    assert seen == [pytest.approx(expected)] * 20


@pytest.mark.skipif(COMPILED, reason="a compiled module calls its functions directly")
@pytest.mark.parametrize("survival", [1.0, 0.5])
def test_the_search_projects_with_the_survival_of_its_level(
    survival: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[float] = []

    def spy(g: Game, chance: float = 1.0) -> list[float]:
        seen.append(chance)
        return projected_scores(g, chance)

    monkeypatch.setattr(ismcts_module, "projected_scores", spy)
    g = Game.new(players=4, deck="base", seed=11)
    bot = IsmctsBot(SearchLevel(iterations=15, max_seconds=30.0, survival=survival), 1)
    bot.choose(g.view(g.current_player()))
    assert seen == [survival] * 15


def test_the_share_scale_changes_the_search() -> None:
    """The statistics of the same search differ once its projections are read at another temperature."""
    g = build_position(4, "base", "p1:~conspiracy+2 p2:~heir p3:~spy p4:~lord", round=2)
    level = SearchLevel(iterations=40, max_seconds=30.0)
    assert _evaluate(level, g) != _evaluate(dataclasses.replace(level, share_scale=1.5), g)


def test_reported_win_chances_are_read_at_the_calibrated_temperature_and_change_no_move() -> None:
    """Round 1: every simulation is projected four rounds from the end. The calibrated reading
    (1.4 IP per round left, 5.6 here) gives the same visits and rewards as the steering one
    (2 IP), and win chances nearer to even: a lead that far out is far from sure."""
    g = Game.new(players=4, deck="base", seed=11)
    while len(g.legal_actions()) == 1:
        g.apply(g.legal_actions()[0])
    view = g.view(g.current_player())
    level = SearchLevel(iterations=60, max_seconds=30.0)
    assert level.win_scale == 1.4
    calibrated = IsmctsBot(level, 5).evaluate(view)
    steering = IsmctsBot(dataclasses.replace(level, win_scale=0.0), 5).evaluate(view)
    assert [(v.action, v.visits, v.value) for v in calibrated] == [
        (v.action, v.visits, v.value) for v in steering
    ]
    tried = [(c.win, s.win) for c, s in zip(calibrated, steering, strict=True) if c.visits]
    assert len(tried) >= 2
    assert all(abs(c - 0.25) < abs(s - 0.25) for c, s in tried)
    # The best and worst win chances are closer together too.
    assert max(c for c, _ in tried) - min(c for c, _ in tried) < max(s for _, s in tried) - min(
        s for _, s in tried
    )


def test_the_survival_changes_the_search() -> None:
    """Characters revealed in the playouts are worth less at the horizon, so the statistics differ."""
    g = build_position(4, "base", "p1:~conspiracy+2 p2:~heir p3:~spy p4:~lord", round=2)
    level = SearchLevel(iterations=40, max_seconds=30.0)
    assert _evaluate(level, g) != _evaluate(dataclasses.replace(level, survival=0.5), g)


# ------------------------------------------------------------ the leaf's projection (leaf_mix)


def _round_one_decision() -> Game:
    g = Game.new(players=4, deck="base", seed=11)
    while len(g.legal_actions()) == 1:
        g.apply(g.legal_actions()[0])
    assert g.round == 1
    return g


@pytest.mark.skipif(COMPILED, reason="a compiled module calls its functions directly")
def test_a_leaf_mix_also_scores_each_simulation_where_it_leaves_the_tree(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With ``leaf_mix`` each simulation from a round-1 decision is projected twice: where it leaves
    the tree (still round 1 or 2, before the horizon) and at the start of round 3, after its playout."""
    seen: list[int] = []

    def spy(g: Game, survival: float = 1.0) -> list[float]:
        seen.append(g.round)
        return projected_scores(g, survival)

    monkeypatch.setattr(ismcts_module, "projected_scores", spy)
    bot = IsmctsBot(SearchLevel(iterations=30, max_seconds=30.0, leaf_mix=0.5, early_stop=False), 1)
    g = _round_one_decision()
    bot.choose(g.view(g.current_player()))
    assert len(seen) == 60 and seen.count(3) == 30
    assert all(r < 3 for r in seen if r != 3)


@pytest.mark.skipif(COMPILED, reason="a compiled module calls its functions directly")
def test_a_full_leaf_mix_plays_no_playout_and_backs_up_the_leafs_projection(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``leaf_mix=1`` scores each simulation by the projection where it leaves the tree alone: no
    playout runs (the projection is never asked at the horizon), and the root's reward sum is the
    sum of those projections' rewards for the deciding seat."""
    seen: list[list[float]] = []
    rounds: list[int] = []

    def spy(g: Game, survival: float = 1.0) -> list[float]:
        est = projected_scores(g, survival)
        seen.append(est)
        rounds.append(g.round)
        return est

    monkeypatch.setattr(ismcts_module, "projected_scores", spy)
    level = SearchLevel(iterations=40, max_seconds=30.0, leaf_mix=1.0, early_stop=False)
    g = _round_one_decision()
    me = g.current_player()
    values = IsmctsBot(level, 3).evaluate(g.view(me))
    assert len(seen) == 40 and max(rounds) < 3
    total = sum(v.visits * v.value for v in values if v.visits)
    expected = sum(
        ismcts_module._rewards(est, projected_shares(est, SHARE_TEMPERATURE), level.margin_weight)[me]
        for est in seen
    )
    assert total == pytest.approx(expected)
    assert sum(v.visits for v in values) == 40


def test_a_leaf_mix_changes_the_search_and_no_level_uses_one() -> None:
    """A mix changes the figures; every level keeps ``leaf_mix=0`` (their play is pinned move by
    move by test_recorded_play). With a full mix, every simulation counts as projected."""
    assert all(level.leaf_mix == 0.0 for level in LEVELS.values())
    g = build_position(4, "base", "p1:~conspiracy+2 p2:~heir p3:~spy p4:~lord", round=2)
    level = SearchLevel(iterations=40, max_seconds=30.0, early_stop=False)
    assert _evaluate(level, g) != _evaluate(dataclasses.replace(level, leaf_mix=0.5), g)
    bot = IsmctsBot(dataclasses.replace(level, leaf_mix=1.0), 3)
    bot.evaluate(g.view(g.current_player()))
    assert bot.last_iterations == bot.last_projected == 40
