"""The search's fast paths answer exactly as the definitions they stand for.

A search makes the same moves as before they were written (the same seed, the
same game), so each shortcut is checked here against the plain definition it
replaces, over many positions of random and heuristic play.
"""

from __future__ import annotations

import gc
import itertools
import random
from collections.abc import Iterator
from typing import Any

import pytest
from support.invariants import fingerprint

from oriflamme.bots.heuristic import context, heuristic_action
from oriflamme.bots.heuristic.context import NEVER_NEGATIVE, Context, _weights, around, shared_weights
from oriflamme.bots.heuristic.policy import _should_reveal
from oriflamme.bots.inference import Inference, infer, swap_hidden
from oriflamme.bots.ismcts import IsmctsBot, _rewards
from oriflamme.bots.search_levels import SearchLevel
from oriflamme.engine.cards import HEIR, IS_CHARACTER, PLOT
from oriflamme.engine.game import Game
from oriflamme.engine.layout import family_ids, shuffle
from oriflamme.engine.registry import D_KEEP_OR_REVEAL, P_ACTOR, P_DECISION, P_SEAT
from oriflamme.engine.sampler import Determinizer
from oriflamme.engine.zones import TOP

DECKS = ("base", "ablaze", "alliance")


def _positions(deck: str, players: int, games: int, seed: int = 0) -> Iterator[Game]:
    """Every position of ``games`` seeded games played by the heuristic."""
    for i in range(games):
        g = Game.new(players=players, deck=deck, seed=seed + i, record_events=False)
        rng = random.Random(seed + i)
        while not g.is_over():
            yield g
            g.apply(heuristic_action(g, rng))


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("deck", [*DECKS, "random"])
def test_a_family_is_every_card_its_seat_owns(deck: str, players: int) -> None:
    g = Game.new(players=players, deck=deck, seed=4)
    owned = [c for s in range(players) for c in family_ids(g.owner, s)]
    assert owned == list(range(len(g.owner)))
    for s in range(players):
        assert list(family_ids(g.owner, s)) == [c for c, o in enumerate(g.owner) if o == s]


def test_the_written_out_shuffle_draws_as_the_standard_library() -> None:
    """The same order, and the generator left in the same state (the search draws on from it)."""
    for n in range(0, 40):
        for seed in range(25):
            mine, theirs = list(range(n)), list(range(n))
            a, b = random.Random(seed), random.Random(seed)
            shuffle(a.getrandbits, mine)
            b.shuffle(theirs)
            assert mine == theirs
            assert a.getstate() == b.getstate()


def test_neighbours_are_the_positions_either_side_in_the_queue() -> None:
    for n in range(0, 8):
        for j in range(-1, n + 2):
            assert around(j, n) == [i for i in (j - 1, j + 1) if 0 <= i < n]


def _reference_reveal(g: Game, me: int, c: int) -> bool:
    """The keep-or-reveal rule for a character or a Plot, through the context, as before its shortcuts."""
    k = g.kind[c]
    last = g.round >= g.rules.rounds
    ctx = Context(g, me)
    ip = ctx.ip[c]
    j = ctx.ptr
    if k == PLOT:
        v = ctx.plot_value(ip)
        return last or (v >= 3.0 and ip >= 1) or v >= 4.0
    now = ctx.ability_value(k, j, c)
    if last:
        return ip + now >= 0.0
    if k == HEIR and now <= 0.0:
        return False
    return now >= -0.3


@pytest.mark.parametrize("deck", DECKS)
def test_the_keep_or_reveal_shortcuts_answer_as_the_full_rule(deck: str) -> None:
    """A character that is never worse than nothing is revealed, a Heir waits while another shows,
    a Plot is revealed in the last round: without a context, and as the rule with one decides."""
    asked = 0
    for g in _positions(deck, 4, 12):
        p = g.pending
        assert p is not None
        if p[P_DECISION] != D_KEEP_OR_REVEAL:
            continue
        c = p[P_ACTOR]
        k = g.kind[c]
        if k in NEVER_NEGATIVE or k == HEIR or (k == PLOT and g.round >= g.rules.rounds):
            asked += 1
            assert _should_reveal(g, p[P_SEAT], c) == _reference_reveal(g, p[P_SEAT], c)
    assert asked > 20


@pytest.mark.parametrize("deck", DECKS)
def test_the_never_negative_characters_are_worth_at_least_nothing_everywhere(deck: str) -> None:
    """Their ability's value, from every position of the queue in every position played, for every
    seat: what lets the keep-or-reveal rule skip computing it."""
    checked = 0
    for g in _positions(deck, 4, 6, seed=50):
        if not g.queue:
            continue
        for me in range(g.players):
            ctx = Context(g, me)
            for j, c in enumerate(g.queue):
                for k in NEVER_NEGATIVE:
                    assert IS_CHARACTER[k]
                    assert ctx.ability_value(k, j, c) >= 0.0, (k, j, c)
                    checked += 1
    assert checked > 1000


def _reference_swap(g: Game, a: int, b: int) -> None:
    """The definition: every place that holds one of the two cards holds the other (a queue top,
    a hand, set aside, or under the card lying on it), and each takes the other's state."""
    other = {a: b, b: a}
    for cards in (g.queue, g.under, *g.hands, *g.aside):
        cards[:] = [other.get(x, x) for x in cards]
    state: tuple[list[Any], ...] = (
        g.under,
        g.ip,
        g.zone,
        g.ctrl,
        g.bribed_by,
        g.verdict,
        g.asleep,
        g.exposed,
    )
    for per_card in state:
        per_card[a], per_card[b] = per_card[b], per_card[a]
    g.cur = other.get(g.cur, g.cur)


@pytest.mark.parametrize("deck", DECKS)
def test_swapping_two_hidden_cards_by_their_zones_matches_the_list_search(deck: str) -> None:
    """Cards in a hand, set aside, on top of the queue or covered, in every pairing."""
    rng = random.Random(8)
    swaps = zones = 0
    seen_zones: set[int] = set()
    for i, g in enumerate(_positions(deck, 4, 4, seed=90)):
        if i % 3:
            continue
        for o in range(g.players):
            hidden = [c for c in family_ids(g.owner, o) if not g.up[c] and not g.exposed[c]]
            if len(hidden) < 2:
                continue
            a, b = rng.sample(hidden, 2)
            mine, theirs = g.clone(), g.clone()
            swap_hidden(mine, a, b)
            _reference_swap(theirs, a, b)
            assert fingerprint(mine) == fingerprint(theirs)
            swaps += 1
            seen_zones |= {g.zone[a], g.zone[b]}
            zones += g.zone[a] == TOP or g.zone[b] == TOP
    assert swaps > 100 and zones > 10 and len(seen_zones) >= 3


def test_rewards_read_each_seat_s_margin_to_the_best_other_score() -> None:
    rng = random.Random(3)
    cases: list[list[int] | list[float]] = [[5, 5, 2, 1], [9, 3, 9, 9], [0, 0], [4, 12], [7, 7, 7]]
    for _ in range(300):
        n = rng.randint(2, 5)
        cases.append([rng.randint(0, 25) for _ in range(n)])
        cases.append([rng.uniform(0.0, 30.0) for _ in range(n)])
    for score in cases:
        share = [rng.random() for _ in score]
        expected = []
        for s in range(len(score)):
            m = (score[s] - max(score[o] for o in range(len(score)) if o != s)) / 10.0
            expected.append(share[s] + 0.1 * max(-1.0, min(1.0, m)))
        assert _rewards(score, share, 0.1) == expected


@pytest.mark.parametrize("enabled", [True, False])
def test_a_search_leaves_the_cyclic_collector_as_it_found_it(enabled: bool) -> None:
    """The collector is off while a search runs, and back as it was when it returns."""
    g = Game.new(players=4, deck="base", seed=2)
    bot = IsmctsBot(SearchLevel(iterations=30, max_seconds=30.0), 1)
    was = gc.isenabled()
    try:
        if enabled:
            gc.enable()
        else:
            gc.disable()
        bot.choose(g.view(g.current_player()))
        assert gc.isenabled() is enabled
    finally:
        if was:
            gc.enable()
        else:
            gc.disable()


@pytest.mark.parametrize(("deck", "players"), [("base", 4), ("ablaze", 3), ("alliance", 5), ("ablaze", 2)])
def test_the_inference_read_once_per_view_redeals_every_deal_as_infer_does(deck: str, players: int) -> None:
    """Read from one deal, applied to other deals of the same view: the same cards end where
    ``infer`` puts them, from the same random numbers, at every strength and table."""
    views = compared = 0
    for i, g in enumerate(_positions(deck, players, 6, seed=30)):
        me = g.current_player()
        if i % 4 or not any(g.ip[c] and not g.up[c] and g.owner[c] != me for c in g.queue):
            continue
        views += 1
        deal = Determinizer(g.view(me), record_events=False).sample
        rng = random.Random(i)
        for strength, keeps in ((1.0, "guess"), (2.0, "fitted")):
            plan = Inference(deal(rng), me, strength, keeps)
            for _ in range(6):
                dealt = deal(rng)
                mine, theirs = dealt.clone(), dealt.clone()
                a, b = random.Random(i + 1), random.Random(i + 1)
                plan(mine, a)
                infer(theirs, me, b, strength, keeps)
                assert fingerprint(mine) == fingerprint(theirs)
                assert a.getstate() == b.getstate()
                compared += 1
    assert views > 5 and compared > 60


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_shared_opponent_weights_are_the_weights_of_the_scores(players: int) -> None:
    """Keyed by the other seats leading, not by the scores: every score line reads its own
    weights, and the table stays small however many score lines a search meets."""
    context._WEIGHTS.clear()
    lines = list(itertools.product(range(4), repeat=players))
    for score in lines:
        for me in range(players):
            assert shared_weights(me, list(score)) == _weights(me, list(score)), (me, score)
    # One entry per seat and set of other seats leading, whatever the number of score lines.
    assert len(context._WEIGHTS) == players * (2 ** (players - 1) - 1) < len(lines) * players
