"""A bot's decision times on another checkout of this project, against this tree, on the same games.

``oriflamme bench bots --games N`` times the first N seeded games of each deck.
An older commit has no such option (or no ``bench bots`` at all), so this tool
plays the same games the same way with any checkout's bots: the deal of game
``n`` is ``Game.new(4, deck, derive_seed("bench-bots", 0, n))`` and seat ``s``'s
bot is ``make_bot(spec, derive_seed("bench-bots", 0, n, s))``, as in
``oriflamme.bench.bots.time_bot``; only decisions with a choice are timed,
building the seat's view included. It is how the README's "before" figures
for the search were measured::

    git worktree add /tmp/before 0b4404f
    python tools/bench_bots_at.py /tmp/before --bot ismcts:normal --games 24

Each deck is timed on the checkout and then on this tree, one after the
other, each in a fresh process on the same core (``taskset`` where the
machine has it), so that both see the same machine. Not run in CI: it
measures, it does not test.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parents[1]


def time_games(spec: str, deck: str, games: int) -> dict[str, Any]:
    """The first ``games`` seeded games of ``deck`` with ``spec`` in every seat, timed (any checkout)."""
    from time import perf_counter

    from oriflamme.bots import make_bot
    from oriflamme.engine.game import Game
    from oriflamme.engine.seeds import derive_seed

    times: list[float] = []
    iterations = 0
    for n in range(games):
        g = Game.new(players=4, deck=deck, seed=derive_seed("bench-bots", 0, n))
        bots = [make_bot(spec, derive_seed("bench-bots", 0, n, s)) for s in range(4)]
        while not g.is_over():
            seat = g.current_player()
            bot = bots[seat]
            choice = len(g.options) > 1
            t0 = perf_counter()
            action = bot.choose(g.view(seat))
            if choice:
                times.append((perf_counter() - t0) * 1000)
                iterations += getattr(bot, "last_iterations", 0)
            g.apply(action)
    times.sort()
    return {
        "deck": deck,
        "games": games,
        "decisions": len(times),
        "median_ms": round(statistics.median(times), 4),
        "p95_ms": round(times[max(1, math.ceil(0.95 * len(times))) - 1], 4),
        "iterations_per_s": round(iterations / (sum(times) / 1000), 1) if iterations else None,
    }


def _run(src: Path, spec: str, deck: str, games: int, core: int | None) -> dict[str, Any]:
    """``time_games`` in a fresh process that imports ``oriflamme`` from ``src``."""
    command = [sys.executable, __file__, "--worker", "--bot", spec, "--deck", deck, "--games", str(games)]
    if core is not None and shutil.which("taskset"):
        command = ["taskset", "-c", str(core), *command]
    env = {**os.environ, "PYTHONPATH": str(src)}
    out = subprocess.run(command, env=env, check=True, capture_output=True, text=True).stdout
    result: dict[str, Any] = json.loads(out)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "checkout", nargs="?", type=Path, help="root of the other checkout (holds src/oriflamme)"
    )
    parser.add_argument("--bot", default="ismcts:normal", help="bot spec, as both versions spell it")
    parser.add_argument("--deck", action="append", help="deck(s); default: base, ablaze, alliance")
    parser.add_argument("--games", type=int, default=24, help="whole games per deck (default 24)")
    parser.add_argument("--core", type=int, default=1, help="CPU core to run on (default 1; -1: any)")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    decks = args.deck or ["base", "ablaze", "alliance"]
    if args.games < 1:
        parser.error(f"--games must be at least 1, got {args.games}")
    if args.worker:
        print(json.dumps(time_games(args.bot, decks[0], args.games)))
        return
    if args.checkout is None or not (args.checkout / "src" / "oriflamme").is_dir():
        parser.error("give the root of a checkout of this project (a directory holding src/oriflamme)")
    core = None if args.core < 0 else args.core
    rows = []
    for deck in decks:
        before = _run(args.checkout.resolve() / "src", args.bot, deck, args.games, core)
        now = _run(HERE / "src", args.bot, deck, args.games, core)
        rows.append({"deck": deck, "checkout": before, "this tree": now,
                     "ratio": round(before["median_ms"] / now["median_ms"], 2)})  # fmt: skip
        print(
            f"{deck}: {before['median_ms']:.1f} ms -> {now['median_ms']:.1f} ms median "
            f"({rows[-1]['ratio']:.2f}x), p95 {before['p95_ms']:.0f} -> {now['p95_ms']:.0f} ms",
            file=sys.stderr,
        )
    print(json.dumps({"bot": args.bot, "games_per_deck": args.games, "decks": rows}, indent=2))


if __name__ == "__main__":
    main()
