"""The inference: an opponent's face-down card that was kept hidden is re-dealt as what people keep hidden."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import pytest

from oriflamme.bots.heuristic import KEEP_LIKELIHOOD, heuristic_action
from oriflamme.bots.inference import FITTED_KEEP_RATE, KEEP_TABLES, infer
from oriflamme.bots.ismcts import IsmctsBot
from oriflamme.bots.search_levels import SearchLevel, parse_level
from oriflamme.engine.cards import SLUGS
from oriflamme.engine.game import Game
from oriflamme.engine.layout import family_ids

ME = 0
DRAWS = 4000


def _kept_position(ip: int = 1) -> tuple[Game, int]:
    """A seeded base game played by the heuristic until an opponent's face-down card carries ``ip``
    IP, the only one of its owner's that carries any (and ``ME`` has a choice to make)."""
    for seed in range(200):
        g = Game.new(players=3, deck="base", seed=seed, record_events=False)
        rng = random.Random(seed)
        while not g.is_over():
            if g.current_player() == ME and len(g.legal_actions()) > 1:
                kept = [
                    c for c in g.queue if not g.up[c] and g.ip[c] and g.owner[c] != ME and not g.exposed[c]
                ]
                for c in kept:
                    if g.ip[c] == ip and [d for d in kept if g.owner[d] == g.owner[c]] == [c]:
                        return g, c
            g.apply(heuristic_action(g, rng))
    raise AssertionError(f"no seeded game kept an opponent's card hidden with {ip} IP")


def _kinds_dealt(strength: float, keeps: str = "guess", ip: int = 1) -> tuple[Counter[int], list[int]]:
    """How often each kind lands on the kept card over many re-deals; the kinds it could be."""
    g, slot = _kept_position(ip)
    place = g.queue.index(slot)
    pool = [d for d in family_ids(g.owner, g.owner[slot]) if not g.up[d] and not g.exposed[d]]
    rng = random.Random(1)
    seen: Counter[int] = Counter()
    for _ in range(DRAWS):
        h = g.clone()
        infer(h, ME, rng, strength, keeps)
        seen[h.kind[h.queue[place]]] += 1
    return seen, [g.kind[d] for d in pool]


@pytest.mark.parametrize(
    ("strength", "keeps", "ip"),
    [(0.0, "guess", 1), (1.0, "guess", 1), (2.0, "guess", 1), (1.0, "fitted", 1), (1.0, "guess", 2)],
)
def test_a_kept_card_is_dealt_each_hidden_kind_in_proportion_to_its_keep_likelihood(
    strength: float, keeps: str, ip: int
) -> None:
    """With m IP on it, a kind of the owner's hidden pool is dealt with weight likelihood ** (m *
    strength) (0: every hidden card alike), the likelihoods being the guessed or the fitted ones,
    within sampling error."""
    seen, pool = _kinds_dealt(strength, keeps, ip)
    likelihood = KEEP_TABLES[keeps]
    weights = Counter({k: 0.0 for k in pool})
    for k in pool:
        weights[k] += likelihood[k] ** (ip * strength)
    total = sum(weights.values())
    assert set(seen) <= set(pool)
    for k, w in weights.items():
        expected = w / total
        sd = (expected * (1 - expected) / DRAWS) ** 0.5
        assert abs(seen[k] / DRAWS - expected) < 4 * sd + 1e-9, (k, seen[k] / DRAWS, expected)


def test_a_stronger_reading_deals_the_likeliest_kind_more_often() -> None:
    weak, pool = _kinds_dealt(0.5)
    strong, _ = _kinds_dealt(2.0)
    likeliest = max(pool, key=lambda k: KEEP_LIKELIHOOD[k])
    assert KEEP_LIKELIHOOD[likeliest] > min(KEEP_LIKELIHOOD[k] for k in pool), "the pool mixes kinds"
    assert strong[likeliest] > weak[likeliest]


def test_the_knob_is_read_by_the_level() -> None:
    assert parse_level("hard+infer_strength=2.0") == (
        "hard+infer_strength=2",
        dataclasses.replace(parse_level("hard")[1], infer_strength=2.0),
    )
    assert parse_level("hard")[1].infer_strength == 1.0
    assert parse_level("hard+keeps=fitted+infer_strength=0.5") == (
        "hard+infer_strength=0.5+keeps=fitted",
        dataclasses.replace(parse_level("hard")[1], infer_strength=0.5, keeps="fitted"),
    )
    assert parse_level("hard")[1].keeps == "guess"


def test_the_search_reads_kept_cards_with_its_levels_strength() -> None:
    """The same seeded search from ``ME``'s view: a uniform re-deal (strength 0) and the fitted
    table change its statistics (that the defaults play as before, test_recorded_play checks)."""
    g, _ = _kept_position()
    view = g.view(ME)

    def stats(level: SearchLevel) -> list[tuple[int, int, float]]:
        return [(v.action, v.visits, v.value) for v in IsmctsBot(level, 3).evaluate(view)]

    level = SearchLevel(iterations=60, max_seconds=30.0)
    assert (level.infer_strength, level.keeps) == (1.0, "guess")
    assert stats(level) != stats(dataclasses.replace(level, infer_strength=0.0))
    assert stats(level) != stats(dataclasses.replace(level, keeps="fitted"))


def test_the_fitted_rates_name_real_cards_and_fill_the_others_with_the_guess() -> None:
    fitted = KEEP_TABLES["fitted"]
    assert set(FITTED_KEEP_RATE) <= set(SLUGS) and len(FITTED_KEEP_RATE) == 30
    for k, slug in enumerate(SLUGS):
        assert fitted[k] == FITTED_KEEP_RATE.get(slug, KEEP_LIKELIHOOD[k])
        assert 0.0 < fitted[k] <= 1.0
    assert KEEP_TABLES["guess"] is KEEP_LIKELIHOOD
