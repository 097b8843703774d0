"""The observation encoder: a fixed layout, what it says about a position, and nothing hidden."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from oriflamme import Game, build_position
from oriflamme.encoding import ACTION_COUNT, legal_indices
from oriflamme.encoding.observation import (
    LAYOUT,
    OBSERVATION_SIZE,
    QUEUE_FEATURES,
    action_mask,
    observe,
)
from oriflamme.engine.cards import OFFICIAL_KINDS, SLUGS, kind_from_slug
from oriflamme.engine.sampler import sample_game

Q = LAYOUT["queue"][0]


def test_the_blocks_tile_the_observation() -> None:
    ends = sorted(LAYOUT.values())
    assert ends[0][0] == 0 and ends[-1][1] == OBSERVATION_SIZE
    assert all(a[1] == b[0] for a, b in itertools.pairwise(ends))
    assert LAYOUT["queue"][1] - LAYOUT["queue"][0] == 40 * QUEUE_FEATURES


def _position(obs: np.ndarray, j: int) -> np.ndarray:
    return obs[Q + j * QUEUE_FEATURES : Q + (j + 1) * QUEUE_FEATURES]


def test_the_queue_as_each_seat_sees_it() -> None:
    """p1's revealed Soldier, p2's hidden Heir with 2 IP, p1's Spy on p1's Assassination (both hidden)."""
    g = build_position(
        4, "base", "p1:soldier p2:~heir+2 p1:~assassination/p1:~spy", scores=[3, 1, 4, 1], pointer=1
    )
    assert g.decision() == "keep_or_reveal" and g.current_player() == 1
    soldier, heir, spy, assassination = (
        kind_from_slug(s) for s in ("soldier", "heir", "spy", "assassination")
    )
    kind_at = 18
    mine = observe(g.view(0))
    theirs = observe(g.view(1))
    p0, p1, p2 = (_position(mine, j) for j in range(3))
    assert p0[0] == 1 and p0[3 + 0] == 1 and p0[13] == 1 and p0[kind_at + soldier] == 1
    # p2's Heir: owner one seat after the observer, hidden, 2 IP.
    assert p1[3 + 1] == 1 and p1[13] == 0 and p1[kind_at + OFFICIAL_KINDS] == 1 and p1[kind_at + heir] == 0
    assert p1[kind_at + OFFICIAL_KINDS + 1] == pytest.approx(2 / 5)
    # p1's own stack: the Spy on top and the Assassination under it are known to p1 ...
    assert p2[kind_at + spy] == 1 and p2[kind_at + OFFICIAL_KINDS + 3 + assassination] == 1
    # ... and not to p2, for whom p1 is the seat three places on.
    q2 = _position(theirs, 2)
    assert (
        q2[3 + 3] == 1
        and q2[kind_at + OFFICIAL_KINDS] == 1
        and q2[kind_at + OFFICIAL_KINDS + 3 + OFFICIAL_KINDS] == 1
    )
    assert _position(theirs, 1)[kind_at + heir] == 1  # p2 knows its own Heir
    # Nothing at position 3 and beyond.
    assert not _position(mine, 3).any()
    # Scores, relative: p1 sees [3, 1, 4, 1]; p2 sees itself first.
    s = LAYOUT["scores"][0]
    assert list(mine[s : s + 4]) == pytest.approx([0.3, 0.1, 0.4, 0.1])
    assert list(theirs[s : s + 4]) == pytest.approx([0.1, 0.4, 0.1, 0.3])
    r = LAYOUT["recipe"][0]
    assert {SLUGS[k] for k in range(OFFICIAL_KINDS) if mine[r + k]} == set(g.view(0).recipe)


def test_the_mask_marks_exactly_the_legal_indices() -> None:
    g = Game.new(players=3, deck="ablaze", seed=4)
    rng = random.Random(4)
    while not g.is_over():
        view = g.view(g.current_player())
        mask = action_mask(view)
        assert mask.shape == (ACTION_COUNT,) and mask.dtype == np.int8
        assert set(np.flatnonzero(mask)) == set(legal_indices(view))
        assert mask.sum() == len(g.legal_actions())
        other = g.view((g.current_player() + 1) % 3)
        assert not action_mask(other).any()
        g.apply(rng.choice(g.legal_actions()))


@pytest.mark.parametrize("deck", ["base", "ablaze", "alliance", "random"])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_a_redeal_of_hidden_cards_changes_no_observation(deck: str, players: int) -> None:
    """At decisions of random games, every seat's observation of the real game equals its
    observation of games re-dealt by the sampler from that seat's view (the hidden cards differ)."""
    for seed in range(2):
        g = Game.new(players=players, deck=deck, seed=seed)
        rng = random.Random(seed)
        step = 0
        while not g.is_over():
            if step % 5 == 0:
                for seat in range(players):
                    view = g.view(seat)
                    obs = observe(view)
                    assert obs.shape == (OBSERVATION_SIZE,) and obs.dtype == np.float32
                    for _ in range(2):
                        other = sample_game(view, rng)
                        assert np.array_equal(observe(other.view(seat)), obs)
            g.apply(rng.choice(g.legal_actions()))
            step += 1


def test_a_spectator_has_no_observation() -> None:
    with pytest.raises(ValueError, match="spectator"):
        observe(Game.new(players=3, seed=1).view(None))
