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
