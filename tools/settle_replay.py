"""Where a level's searches would stop at each ``settle``, and which moves that would change.

``SearchLevel.settle`` stops a search once its leading root action is ahead by
that share of the iterations left (1: the exact stop, which never changes the
move). This tool measures a share before any tournament is played: it plays
the seeded games ``oriflamme bench bots --games N`` plays (the level in every
seat), and at every decision with a choice runs each of the level's
root-parallel searches over its whole budget, recording the root's visit
counts at every early-stop check (every 8 iterations). From those it works
out, for each share, where each search would have stopped and the move the
sum of the stopped searches would have played::

    python tools/settle_replay.py --level master --deck ablaze --games 2 --settle 1 0.5 0.33

It prints, per share, the iterations of the longer search at the median and
mean decision, and how many decisions' moves differ from the exact stop's and
from the whole budget's. The games go on with the whole budget's move. The
recording replaces the search's settle test (``ismcts._settled``) with its
own, so the tool needs the pure build. Not run in CI: it measures.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import statistics
import sys
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from oriflamme.bots import ismcts
from oriflamme.bots.ismcts import IsmctsBot, SearchLevel
from oriflamme.bots.search_levels import parse_level
from oriflamme.build import build_kind
from oriflamme.engine.game import Game
from oriflamme.engine.seeds import derive_seed
from oriflamme.engine.view import SeatView

#: One search's root visits per action at each check: (iterations left, {action: visits}).
Trace = list[tuple[int, dict[int, int]]]


def _trace(job: tuple[dict[str, Any], int, SeatView]) -> Trace:
    """One search of the whole budget, its root's visit counts recorded at every settle check."""
    fields, seed, view = job
    trace: Trace = []

    def record(stats: dict[int, list[float]], left: float) -> bool:
        trace.append((int(left), {a: int(s[0]) for a, s in stats.items()}))
        return False  # never stop: the whole budget runs

    ismcts._settled = record
    bot = IsmctsBot(SearchLevel(**fields), seed)
    root, _ = bot._one_search(view)
    trace.append((0, {a: int(s[0]) for a, s in root.stats.items()}))
    return trace


#: The search's own settle test, kept before a worker process replaces it with its recorder.
_SETTLED = ismcts._settled


def stop(trace: Trace, settle: float) -> tuple[int, dict[int, int]]:
    """Where a search stops at ``settle`` (iterations run) and its root visits there."""
    budget = trace[-1][0] + sum(trace[-1][1].values())  # the last entry is the whole budget
    for left, visits in trace[:-1]:
        if _SETTLED({a: [float(v)] for a, v in visits.items()}, left * settle):
            return budget - left, visits
    return budget, trace[-1][1]


def move(visits: list[dict[int, int]]) -> int:
    """The action the sum of the searches' root visits plays (on a tie, which is rare, the lowest
    action, where the search would compare reward sums)."""
    total: dict[int, int] = {}
    for v in visits:
        for a, n in v.items():
            total[a] = total.get(a, 0) + n
    return max(sorted(total), key=lambda a: total[a])


def replay(spec: str, deck: str, games: int, players: int = 4) -> list[list[Trace]]:
    """Every decision with a choice of the seeded games: each root-parallel search's trace."""
    if build_kind() != "pure Python":  # a compiled search calls its own settle test
        raise SystemExit("settle_replay needs the pure build: it records the search's settle test")
    _, level = parse_level(spec)
    workers = level.workers
    single = dataclasses.asdict(dataclasses.replace(level, workers=1, early_stop=True, settle=1.0))
    decisions: list[list[Trace]] = []
    with ProcessPoolExecutor(workers) as pool:
        for n in range(games):
            g = Game.new(players, deck, seed=derive_seed("bench-bots", 0, n))
            bots = [random.Random(derive_seed("bench-bots", 0, n, s)) for s in range(players)]
            while not g.is_over():
                seat = g.current_player()
                if len(g.options) == 1:
                    g.apply(g.options[0])
                    continue
                view = g.view(seat)
                # Each bot draws its searches' seeds from its own generator, as IsmctsBot does.
                jobs = [(single, bots[seat].getrandbits(63), view) for _ in range(workers)]
                traces = list(pool.map(_trace, jobs))
                decisions.append(traces)
                g.apply(move([t[-1][1] for t in traces]))
    return decisions


def summary(decisions: list[list[Trace]], settles: list[float]) -> list[dict[str, Any]]:
    """Per share: iterations of the longer search (median, mean) and moves changed."""
    whole = [move([t[-1][1] for t in traces]) for traces in decisions]
    exact = [move([stop(t, 1.0)[1] for t in traces]) for traces in decisions]
    out = []
    for settle in settles:
        longer, moves = [], []
        for traces in decisions:
            stops = [stop(t, settle) for t in traces]
            longer.append(max(s[0] for s in stops))
            moves.append(move([s[1] for s in stops]))
        out.append(
            {
                "settle": settle,
                "decisions": len(decisions),
                "median_iterations": statistics.median(longer),
                "mean_iterations": round(statistics.fmean(longer), 1),
                "moves_unlike_the_exact_stop": sum(a != b for a, b in zip(moves, exact, strict=True)),
                "moves_unlike_the_whole_budget": sum(a != b for a, b in zip(moves, whole, strict=True)),
            }
        )
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", default="master", help="an ISMCTS level or budget (default: master)")
    parser.add_argument("--deck", default="ablaze")
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--settle", type=float, nargs="+", default=[1.0, 0.75, 0.5, 0.33, 0.25])
    parser.add_argument("--json", action="store_true", help="print JSON rather than a table")
    args = parser.parse_args(argv)
    rows = summary(replay(args.level, args.deck, args.games), args.settle)
    if args.json:
        print(
            json.dumps({"level": args.level, "deck": args.deck, "games": args.games, "rows": rows}, indent=1)
        )
    else:
        for r in rows:
            print(
                f"settle {r['settle']:<5g} longer search: median {r['median_iterations']:g}, "
                f"mean {r['mean_iterations']:g} iterations; moves unlike the exact stop "
                f"{r['moves_unlike_the_exact_stop']}, unlike the whole budget "
                f"{r['moves_unlike_the_whole_budget']}, of {r['decisions']}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
