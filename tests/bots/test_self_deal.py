"""Self-determinization (``SearchLevel.self_deal``): some deals re-deal the searching seat's own secrets.

A search deals every card its seat cannot see, but never its own cards, so
the other seats in its tree learn from deals that always hold the seat's true
face-down cards and come to play as if they saw them. A blind iteration deals
the seat's face-down and set-aside cards among their places as the others see
them, and teaches only the others' nodes. Whether that plays better is
measured with ``oriflamme tournament`` (docs/measurements); these tests pin
what is dealt and what learns.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import pytest
from support.positions import heuristic_positions

from oriflamme.bots import self_deal
from oriflamme.bots.heuristic import heuristic_action
from oriflamme.bots.ismcts import IsmctsBot
from oriflamme.bots.search_levels import LEVELS, parse_level
from oriflamme.engine.game import Game
from oriflamme.engine.registry import P_ACTOR, P_DATA, P_DATA2
from oriflamme.engine.sampler import sample_game
from oriflamme.engine.zones import ASIDE, COVERED, TOP
from oriflamme.notation.position import build_position


def _positions() -> list[Game]:
    """Positions of heuristic games on each box, at a decision with a choice, some mid-resolution."""
    return [
        g
        for deck in ("base", "ablaze", "alliance")
        for g in heuristic_positions(deck, range(25), 5, 120, choice=True)
    ]


def test_a_blind_deal_changes_nothing_any_other_seat_can_see() -> None:
    """After the seat's secrets are dealt again, every other seat's view is the same as before, the
    seat's hand is the same, and the game plays on to its end; and the deal does move identities."""
    moved = tried = 0
    for g in _positions():
        me = g.current_player()
        view = g.view(me)
        secrets = self_deal.own_secrets(view)
        if not secrets:
            continue
        tried += 1
        d = sample_game(view, random.Random(1))
        others = [o for o in range(g.players) if o != me]
        before = [d.view(o) for o in others]
        kinds = [d.kind[c] for c in d.queue] + sorted(d.kind[c] for c in d.aside[me])
        self_deal.shuffle_secrets(d, secrets, random.Random(tried))
        assert [d.view(o) for o in others] == before
        assert d.hands[me] == sorted(c.id for c in view.hand if c.id is not None)
        moved += kinds != [d.kind[c] for c in d.queue] + sorted(d.kind[c] for c in d.aside[me])
        rng = random.Random(5)
        while d.pending is not None:
            d.apply(rng.choice(d.options))
    assert tried >= 20 and moved >= tried // 3


def test_secrets_are_face_down_or_set_aside_never_in_hand_nor_named_by_the_decision() -> None:
    """Over positions of every box: a secret is the seat's own hidden card, on the table or set
    aside, never in its hand, never the current card or one the decision names; none while an
    effect is under way; and a lone secret is none (there is nothing to deal it with)."""
    with_secrets = 0
    for g in _positions():
        me = g.current_player()
        secrets = self_deal.own_secrets(g.view(me))
        p = g.pending
        assert p is not None
        with_secrets += bool(secrets)
        if g.stack:
            assert not secrets
        for c in secrets:
            assert g.owner[c] == me and g.ctrl[c] == me and not g.up[c] and not g.exposed[c]
            assert g.zone[c] in (TOP, COVERED, ASIDE)
            assert c not in (g.cur, p[P_ACTOR], p[P_DATA], p[P_DATA2])
        assert not secrets or len(secrets) > 1
    assert with_secrets >= 20


def test_each_secret_lands_in_each_place_about_equally_often() -> None:
    """p1 decides about its face-down Heir (not a secret: the decision names it); its face-down
    Lord and its set-aside cards are. Over many blind deals, the card in the Lord's place is each
    of them about equally often."""
    g = build_position(4, "base", "p1:~heir p2:~spy p1:~lord p3:~soldier", round=2)
    view = g.view(0)
    secrets = self_deal.own_secrets(view)
    d0 = sample_game(view, random.Random(0))
    lord = d0.queue[2]
    assert d0.queue[0] not in secrets and lord in secrets
    assert sorted(secrets) == sorted([lord, *d0.aside[0]])
    counts: Counter[int] = Counter()
    rng = random.Random(9)
    n = 4000
    for _ in range(n):
        d = sample_game(view, random.Random(0))
        self_deal.shuffle_secrets(d, secrets, rng)
        counts[d.kind[d.queue[2]]] += 1
    assert len(counts) == len(secrets)
    expected = n / len(secrets)
    assert all(abs(k - expected) < 0.25 * expected for k in counts.values())


def test_blind_iterations_teach_only_the_other_seats() -> None:
    """With every iteration blind, the root gets no simulation at all (the seat learns nothing from
    deals that are not its own), while the other seats' nodes below it do; with none, as before."""
    g = build_position(4, "base", "p1:~heir p2:~spy p1:~lord p3:~soldier", round=2)
    view = g.view(0)
    level = dataclasses.replace(parse_level("120")[1], early_stop=False)
    blind, blind_wins = IsmctsBot(dataclasses.replace(level, self_deal=1.0), 3)._one_search(view)
    assert not blind.stats and not blind_wins
    assert any(child.stats for child in blind.children.values())
    half, half_wins = IsmctsBot(dataclasses.replace(level, self_deal=0.5), 3)._one_search(view)
    simulations = sum(s[0] for s in half.stats.values())
    assert 20 < simulations < 100
    assert 0 < sum(half_wins.values()) <= simulations
    plain, _ = IsmctsBot(level, 3)._one_search(view)
    assert sum(s[0] for s in plain.stats.values()) == 120
    # No level deals blind: their play is pinned move by move by test_recorded_play.
    assert all(lv.self_deal == 0.0 for lv in LEVELS.values())


@pytest.mark.parametrize("deck", ["base", "alliance"])
def test_a_search_with_blind_deals_plays_legal_moves(deck: str) -> None:
    """A short game of a blind-dealing search against heuristic play runs to its end."""
    g = Game.new(players=4, deck=deck, seed=4)
    bot = IsmctsBot(dataclasses.replace(parse_level("60")[1], self_deal=0.5), 1)
    rng = random.Random(4)
    while g.pending is not None:
        me = g.current_player()
        g.apply(bot.choose(g.view(me)) if me == 0 else heuristic_action(g, rng))
    assert g.winners
