"""Invariants every reachable game state satisfies, shared by the random-play tests."""

from __future__ import annotations

from oriflamme import Game
from oriflamme.cards import DIPLOMAT
from oriflamme.zones import ASIDE, COVERED, DISCARD, HAND, KEPT, TOP, TWIN_ASIDE


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
    assert all(s >= 0 for s in g.score)
    if g.is_over():
        assert g.legal_actions() == () and g.current_player() == -1
        assert g.winners and all(g.score[w] == max(g.score) for w in g.winners)
    else:
        assert g.legal_actions(), "no legal action in a game that is not over"
        assert 0 <= g.current_player() < g.players
        assert len(set(g.legal_actions())) == len(g.legal_actions()), "duplicate legal actions"


def fingerprint(g: Game) -> tuple[object, ...]:
    """Everything that defines a state, for replay comparisons."""
    return (
        g.queue, g.under, g.up, g.ip, g.zone, g.ctrl, g.verdict, g.bribed_by, g.asleep, g.hands, g.aside,
        g.twins, g.discards, g.kept, g.score, g.verdict_pool, g.round, g.first, g.phase, g.order, g.turn,
        g.ptr, g.cur, g.cur_gone, g.stack, g.pending, g.options, g.history, g.winners,
    )  # fmt: skip
