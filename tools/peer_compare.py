"""Our engine against the only other Python Oriflamme engine, on identical work, side by side.

The peer is jojolebarjos/oriflamme-simulator at commit b5ab762 (pure Python, base
game only, no Royal Decree). It is fetched, never vendored::

    git clone https://github.com/jojolebarjos/oriflamme-simulator /tmp/peer
    git -C /tmp/peer checkout b5ab762
    python tools/peer_compare.py --peer /tmp/peer

The work: 3 players, base cards, 7 cards in hand, 6 rounds, uniformly random
legal actions, full games. The peer's only entry point (``State.begin()``)
hard-codes 3 players and 4-card hands, so its games are set up the way its own
tests do (a ``Board`` and a ``PlaceState``), each player dealt 7 of its 9
working kinds at random; a peer game ends when nobody holds more than one
card, which is 6 rounds. Our games are ``Game.new(3, "base", seed)``, timed
twice: recording their event log (the default, what a client's game does) and
without it (``record_events=False``, how playouts, tournaments and the training
environments play; the peer has no event log).

The engines run in turns of ``--seconds`` of CPU time each, ``--turns`` times, so
that a busy machine slows both alike; the figures are games per CPU second.
Not run in CI: it needs the peer's source, and it measures, it does not test.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

PEER_COMMIT = "b5ab762"


def load_peer(path: Path) -> ModuleType:
    source = path / "src" / "oriflamme" / "__init__.py"
    if not source.exists():
        sys.exit(f"{path} is not a checkout of oriflamme-simulator (no {source})")
    head = subprocess.run(
        ["git", "-C", str(path), "rev-parse", "HEAD"], capture_output=True, text=True, check=False
    ).stdout.strip()
    if head and not head.startswith(PEER_COMMIT):
        sys.exit(f"{path} is at {head[:7]}; check out {PEER_COMMIT} (git -C {path} checkout {PEER_COMMIT})")
    spec = importlib.util.spec_from_file_location("peer_oriflamme", source)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["peer_oriflamme"] = module  # its dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def peer_games(peer: ModuleType, seconds: float, seed: int) -> tuple[int, float]:
    """Full random games of the peer for ``seconds`` of CPU time: (games, CPU seconds)."""
    kinds = [k for k in peer.Kind if k is not peer.Kind.ROYAL_DECREE]  # not implemented there
    rng = random.Random(seed)
    games = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        hands = [rng.sample(kinds, 7) for _ in range(3)]
        state = peer.PlaceState(peer.Board([], hands, [1, 1, 1]), 0)
        while not state.has_ended:
            state = rng.choice(state.actions).next_state
        games += 1
    return games, time.process_time() - start


def our_games(seconds: float, seed: int, record_events: bool = True) -> tuple[int, float]:
    """Full random games of this engine for ``seconds`` of CPU time: (games, CPU seconds)."""
    from oriflamme import Game

    rng = random.Random(seed)
    games = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        g = Game.new(3, "base", seed=seed + games, record_events=record_events)
        while not g.is_over():
            options = g.legal_actions()
            g.apply(options[int(rng.random() * len(options))])
        games += 1
    return games, time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--peer", type=Path, required=True, help="a checkout of the peer at b5ab762")
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per turn (default 3)")
    parser.add_argument("--turns", type=int, default=4, help="turns for each engine (default 4)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args()
    peer = load_peer(args.peer)
    totals = {"peer": [0, 0.0], "oriflamme": [0, 0.0], "oriflamme_no_events": [0, 0.0]}
    runs: list[tuple[str, Callable[[int], tuple[int, float]]]] = [
        ("peer", lambda s: peer_games(peer, args.seconds, s)),
        ("oriflamme", lambda s: our_games(args.seconds, s)),
        ("oriflamme_no_events", lambda s: our_games(args.seconds, s, record_events=False)),
    ]
    for turn in range(args.turns):
        for name, run in runs:
            games, cpu = run(1000 * turn)
            totals[name][0] += games
            totals[name][1] += cpu
    rates = {name: games / cpu for name, (games, cpu) in totals.items()}
    from oriflamme.build import build_kind

    result = {
        "peer_games_per_s": round(rates["peer"]),
        "oriflamme_games_per_s": round(rates["oriflamme"]),
        "oriflamme_no_events_games_per_s": round(rates["oriflamme_no_events"]),
        "ratio": round(rates["oriflamme"] / rates["peer"], 2),
        "ratio_no_events": round(rates["oriflamme_no_events"] / rates["peer"], 2),
        "build": build_kind(),
        "peer_commit": PEER_COMMIT,
        "turns": args.turns,
        "seconds_per_turn": args.seconds,
    }
    if args.json:
        print(json.dumps(result))
    else:
        print(
            f"peer {result['peer_games_per_s']:,} games/s; oriflamme ({result['build']}) "
            f"{result['oriflamme_games_per_s']:,} games/s with its event log, {result['ratio']}x, "
            f"{result['oriflamme_no_events_games_per_s']:,} without it, {result['ratio_no_events']}x"
        )


if __name__ == "__main__":
    main()
