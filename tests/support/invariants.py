"""Invariants every reachable game state satisfies, shared by the random-play tests."""

from __future__ import annotations

import random

from oriflamme import Game
from oriflamme.engine.cards import DIPLOMAT
from oriflamme.engine.state import SLOTS, TRANSIENT_SLOTS
from oriflamme.engine.zones import ASIDE, COVERED, DISCARD, HAND, KEPT, TOP, TWIN_ASIDE


def check_state(g: Game) -> None:
    """Assert the structural invariants of ``g`` (every card in exactly one place, tokens conserved, ...)."""
    n = len(g.kind)
    where: dict[int, int] = {}

    def put(c: int, zone: int) -> None:
        assert c not in where, f"card {c} is in two places"
        where[c] = zone

    for i, top in enumerate(g.queue):
        put(top, TOP)
        c = g.under[top]
        while c >= 0:
            put(c, COVERED)
            c = g.under[c]
        assert g.stack_cards(i)[-1] == top
    for s in range(g.players):
        for zone, pile in (
            (HAND, g.hands[s]),
            (ASIDE, g.aside[s]),
            (DISCARD, g.discards[s]),
            (KEPT, g.kept[s]),
            (TWIN_ASIDE, g.twins[s]),
        ):
            for c in pile:
                put(c, zone)
                assert g.owner[c] == s, f"card {c} of p{g.owner[c] + 1} in a pile of p{s + 1}"
    assert sorted(where) == list(range(n)), "a card is nowhere"
    for c, zone in where.items():
        assert g.zone[c] == zone, f"card {c}: zone {g.zone[c]} but found in {zone}"
        assert g.ip[c] >= 0
        if zone in (DISCARD, KEPT, TWIN_ASIDE):
            assert g.up[c]
        if zone == ASIDE:
            assert not g.up[c]
        if zone in (TOP, COVERED) and g.up[c] and g.ip[c]:
            assert g.kind[c] == DIPLOMAT, "only a face-up Diplomat holds IP"
        if zone not in (TOP, COVERED):
            assert not g.verdict[c] and g.bribed_by[c] < 0 and g.ctrl[c] == g.owner[c]
            if zone != KEPT:
                assert g.ip[c] == 0
        if zone == TOP and g.bribed_by[c] < 0:
            assert g.ctrl[c] == g.owner[c]
    assert g.verdict_pool + sum(g.verdict) == Game.VERDICT_TOKENS
    in_play_ip = sum(g.ip[c] for c, zone in where.items() if zone in (TOP, COVERED, KEPT))
    assert in_play_ip == sum(g.ip), "IP on a card out of play"
    assert all(s >= 0 for s in g.score)
    n = len(g.ledger) // g.players
    for s in range(g.players):
        assert sum(g.ledger[s * n : (s + 1) * n]) == g.score[s], "the IP ledger does not sum to the score"
    if g.is_over():
        result = g.outcome()
        assert result.finished and result.winners == g.winners
        assert all(result.ranks[w] == min(result.ranks) for w in g.winners)
        assert [sum(v for _, v in row) for row in result.ledger] == g.score
        assert g.legal_actions() == () and g.current_player() == -1
        assert g.winners and all(g.score[w] == max(g.score) for w in g.winners)
    else:
        assert g.legal_actions(), "no legal action in a game that is not over"
        assert 0 <= g.current_player() < g.players
        assert len(set(g.legal_actions())) == len(g.legal_actions()), "duplicate legal actions"


def fingerprint(g: Game) -> tuple[object, ...]:
    """Everything that defines a state, for replay comparisons."""
    return tuple(getattr(g, name) for name in SLOTS if name not in TRANSIENT_SLOTS)


def play_checked(players: int, deck: str, seed: int, check_every: int = 1) -> Game:
    """Play one random game (seeded), checking the invariants after every ``check_every`` actions,
    and check that replaying its history on a fresh deal reproduces it exactly."""
    g = Game.new(players=players, deck=deck, seed=seed)
    rng = random.Random(seed)
    check_state(g)
    steps = 0
    while not g.is_over():
        g.apply(rng.choice(g.legal_actions()))
        steps += 1
        if steps % check_every == 0:
            check_state(g)
        assert steps < 2000, "the game does not end"
    check_state(g)
    per_round = g.rules.two_player_cards_per_round if players == 2 else 1
    assert g.round == g.rules.rounds
    # The players keep exactly the cards the rounds did not need (a bribed Informant taken back
    # goes to its owner's hand, so only the total is fixed).
    assert sum(map(len, g.hands)) == players * (g.hand_size - g.rules.rounds * per_round)
    replay = Game.new(players=players, deck=deck, seed=seed)
    for action in g.history:
        replay.apply(action)
    assert fingerprint(replay) == fingerprint(g)
    return g
