"""Derived seeds: one hashing scheme for every random stream (tournaments, tables, bots, benchmarks)."""

from __future__ import annotations

import hashlib

from oriflamme.engine.seeds import derive_seed


def test_derived_seeds_keep_the_tournament_streams_of_earlier_versions() -> None:
    """Recorded tournaments resume only if game g's deal and bots get the seeds they always had."""
    old = (
        int.from_bytes(hashlib.blake2b(b"oriflamme-tournament/7/12/bot3", digest_size=8).digest(), "big") >> 1
    )
    assert derive_seed("tournament", 7, 12, "bot3") == old
    assert derive_seed("tournament", 7, 12, "bot2") != old
    assert 0 <= derive_seed("table-bot", 2**62, 10, 4) < 2**63


def test_a_seed_deals_what_the_standard_library_would_draw() -> None:
    """Game.new draws its deal with its own copy of random's draws: every seed keeps its old deal.

    The old deal was ``rng.randrange(players)`` for the first player, then
    ``sorted(rng.sample(cards, k))`` per seat, from ``random.Random(seed)``.
    """
    import random

    from oriflamme import Game
    from oriflamme.engine.layout import dealt_cards
    from oriflamme.engine.recipes import parse_recipe

    for players, deck in ((2, "base"), (3, "base"), (4, "alliance"), (5, "ablaze"), (3, "random")):
        for seed in range(200):
            g = Game.new(players, deck, seed=seed)
            rng = random.Random(seed)
            first = rng.randrange(players)
            dealt = dealt_cards(players, parse_recipe(deck, seed))
            asides = [sorted(rng.sample(cards, len(cards) - g.hand_size)) for cards in dealt]
            assert g.first == first
            assert g.aside == asides, (players, deck, seed)
