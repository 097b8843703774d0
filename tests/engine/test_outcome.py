"""Game.outcome(): the one ranking (docs/rules.md §3 end of game) and each seat's IP ledger by cause."""

from __future__ import annotations

import random

from support.scenario import play

from oriflamme import Game, build_position
from oriflamme.engine.causes import NUM_CAUSES, POSITION, cause_name


def _finish(g: Game, seed: int = 0) -> Game:
    rng = random.Random(seed)
    while not g.is_over():
        g.apply(rng.choice(g.legal_actions()))
    return g


def test_one_leader_wins_on_score() -> None:
    g = build_position(3, "base", "p1:lord p2:lord", round=6, scores=[3, 9, 4])
    _finish(g)
    result = g.outcome()
    assert result.finished
    assert result.winners == (1,) and result.decided_by == "score" and result.leaders == (1,)
    assert result.order[0] == 1 and result.ranks[1] == 1.0


def test_a_tie_on_ip_goes_to_the_most_positions() -> None:
    """p1 and p2 end level on IP; p2 controls two positions, p1 one: p2 wins, by positions."""
    g = Game.new(players=3, deck="base", seed=0, first_player=0)
    g.score = [5, 5, 2]
    g.queue = [0, 10, 11]  # p1's archer, p2's archer and soldier (ids follow the recipe order)
    g.ctrl[10] = g.ctrl[11] = 1
    result = g.outcome()
    assert not result.finished
    assert result.leaders == (0, 1)
    assert result.positions == (1, 2, 0)
    assert result.winners == (1,) and result.decided_by == "positions"
    assert result.order == (1, 0, 2)
    assert result.ranks == (2.0, 1.0, 3.0)
    assert result.returns() == [0.0, 0.0, 0.0]  # not finished yet


def test_a_tie_on_ip_and_positions_is_shared_and_ranks_are_averaged() -> None:
    g = Game.new(players=3, deck="base", seed=0, first_player=0)
    g.score = [5, 5, 2]
    result = g.outcome()
    assert result.winners == (0, 1) and result.decided_by == "shared"
    assert result.ranks == (1.5, 1.5, 3.0)


def test_the_ledger_names_each_cause_of_a_reveal() -> None:
    """§6 Heir: revealing a lone Heir with 2 IP on it gives 2 for the IP and 2 for the Heir."""
    g = Game.new(players=3, deck="base", seed=5)
    start = g.outcome().ledger
    assert start == ((("start", 1),),) * 3
    g = build_position(3, "base", "p2:~heir+2 p1:soldier p3:lord", round=6)
    play(g, "reveal")
    assert dict(g.outcome().ledger[1]) == {"start": 1, "revealed-ip": 2, "heir": 2}


def test_the_ledger_splits_an_infiltrated_elimination() -> None:
    """§8 Infiltration: eliminating a face-down card gives 1 for eliminating and 2 for the kept Infiltration."""
    g = build_position(
        3,
        "soldier,empress,fanatic,informant,diplomat,deserter,judge,insurrection,extortion,infiltration",
        "p1:soldier p2:~fanatic",
        round=6,
        kept={0: "infiltration"},
        scores=[0, 0, 0],
    )
    # The Soldier's only neighbour is eliminated at once (a forced choice is no decision).
    assert g.is_over()
    assert dict(g.outcome().ledger[0]) == {"eliminating": 1, "infiltration": 2}
    assert g.score[0] == 3


def test_a_sprung_trap_is_a_loss_and_a_gain_of_the_trap() -> None:
    """§7 Trap: the attacker gains 1 for eliminating, then its controller loses 3 to the Trap's owner."""
    g = build_position(3, "ablaze", "p1:cutthroat p2:~trap", round=6, scores=[5, 0, 0])
    assert g.is_over()  # the Cutthroat's only neighbour: a forced elimination
    ledger = [dict(row) for row in g.outcome().ledger]
    assert ledger[1] == {"trap": 3}
    # Exactly one card eliminated by a Cutthroat: nothing for eliminating (§7, §11).
    assert ledger[0] == {"position": 5, "trap": -3}
    assert sum(ledger[0].values()) == g.score[0]


def test_every_random_game_ledger_sums_to_the_scores_and_the_outcome_agrees_with_the_game() -> None:
    for seed, deck in enumerate(["base", "ablaze", "alliance", "random"] * 5):
        g = _finish(Game.new(players=2 + seed % 4, deck=deck, seed=seed), seed)
        result = g.outcome()
        assert result.winners == g.winners
        assert result.returns() == g.returns()
        for s in range(g.players):
            row = g.ledger[s * NUM_CAUSES : (s + 1) * NUM_CAUSES]
            assert sum(row) == g.score[s]
            assert dict(result.ledger[s]) == {cause_name(c): n for c, n in enumerate(row) if n}
        assert result.to_dict()["winners"] == list(g.winners)


def test_a_clone_and_its_original_keep_separate_ledgers() -> None:
    """Clones share the ledger list until one of them writes: each must then see only its own IP."""
    g = Game.new(players=3, deck="base", seed=4)
    rng = random.Random(4)
    for _ in range(30):
        g.apply(rng.choice(g.legal_actions()))
    before = g.ledger[:]
    h = g.clone()
    k = h.clone()
    g.gain(0, 5, POSITION)
    assert h.ledger == before and k.ledger == before
    _finish(h, 1)
    assert k.ledger == before and g.ledger[POSITION] == before[POSITION] + 5
    for game in (g, h, k):
        for s in range(game.players):
            assert sum(game.ledger[s * NUM_CAUSES : (s + 1) * NUM_CAUSES]) == game.score[s]
