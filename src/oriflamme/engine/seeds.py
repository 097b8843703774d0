"""Seeds for separate random streams, derived from one seed by hashing.

Hashing (rather than ``seed + game`` or ``seed * k + seat``) keeps the streams
of neighbouring games, seats and purposes unrelated, and needs no shared
state, so each stream can be made anywhere: in a worker process, on another
machine, or when a stored game is resumed. The tournament, the terminal game,
the web server and the benchmark all derive their streams here.
"""

from __future__ import annotations

import hashlib


def derive_seed(namespace: str, *parts: int | str) -> int:
    """A 63-bit seed for the stream named by ``namespace`` and ``parts``.

    ``derive_seed("tournament", seed, game, "deal")`` is the seed of one
    tournament game's deal; the value depends only on the arguments' text.
    """
    name = "/".join([f"oriflamme-{namespace}", *map(str, parts)])
    digest = hashlib.blake2b(name.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1
