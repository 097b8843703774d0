"""Compare two tournament records of the same deals game by game: how much better the variant did.

A variant of a level is measured by the tournament command of the level with
the first bot changed (``ismcts:hard`` -> ``ismcts:hard+infer=off``), the
same seed and deck: game *g* of both runs is the same deal with the same
seating, so the difference of the first entrant's win share, game by game,
has far less noise than the difference of the two win rates::

    python tools/paired_records.py hard.jsonl hard-inferoff.jsonl [--json]

prints the games both records hold, both win rates on them, and the mean
difference (second minus first) with a 95% interval (normal approximation of
the mean of the paired differences). More pairs, each the deals of another
seed (``A7 B7 A11 B11``), pool their games into one comparison. Records may be gzipped (``.gz``, as
committed under ``docs/measurements/``). Games are paired by number only
after checking that both records deal them alike (deck, seed, players,
seating, the other entrants and each game's cards); a pair of records
that are not the same deals against the same opponents is refused. Not run in CI (a test runs it on two small records).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import Any

from oriflamme.engine.errors import SetupError
from oriflamme.tournament.games import GameRecord
from oriflamme.tournament.record import open_record


def _games(path: Path) -> tuple[dict[str, Any], dict[int, GameRecord]]:
    """A record's tournament (deck, seed, players, seating, bots) and its games by number."""
    reader = open_record(path)
    games = {r.index: r for r in reader.games(check_replay=False)}
    config = reader.config
    about = {
        "deck": config.deck,
        "seed": config.seed,
        "players": config.players,
        "seating": config.seating,
        "rules": config.rules.to_dict(),
    }
    return {**about, "first": config.specs[0], "others": config.specs[1:]}, games


def _paired_shares(
    first: Path, second: Path
) -> tuple[dict[str, Any], dict[str, Any], list[tuple[float, float]]]:
    """Both records' tournaments and, game by game, the first entrant's win share in each."""
    a_about, a = _games(first)
    b_about, b = _games(second)
    for key in ("deck", "seed", "players", "seating", "rules", "others"):
        if a_about[key] != b_about[key]:
            raise SetupError(
                f"the records are not the same deals: {key} is {a_about[key]!r} in {first} "
                f"and {b_about[key]!r} in {second}"
            )
    common = sorted(set(a) & set(b))
    if len(common) < 2:
        raise SetupError(f"the records share {len(common)} game(s); a comparison needs 2 or more")
    for g in common:
        if a[g].recipe != b[g].recipe or a[g].seats != b[g].seats:
            raise SetupError(f"game {g} is not dealt alike in the two records")
    return a_about, b_about, [(a[g].shares[0], b[g].shares[0]) for g in common]


def _summary(
    a_about: dict[str, Any], b_about: dict[str, Any], shares: list[tuple[float, float]]
) -> dict[str, Any]:
    diffs = [y - x for x, y in shares]
    n = len(diffs)
    mean = sum(diffs) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1))
    half = 1.96 * sd / math.sqrt(n)
    return {
        "deck": a_about["deck"],
        "seed": a_about["seed"],
        "games": n,
        "first": {"bot": a_about["first"], "win_rate": sum(x for x, _ in shares) / n},
        "second": {"bot": b_about["first"], "win_rate": sum(y for _, y in shares) / n},
        "difference": mean,
        "difference_ci95": [mean - half, mean + half],
    }


def compare(first: Path, second: Path) -> dict[str, Any]:
    """The paired comparison of the first entrant of ``second`` against that of ``first``."""
    return _summary(*_paired_shares(first, second))


def pooled(pairs: list[tuple[Path, Path]]) -> dict[str, Any]:
    """The paired comparison over the games of several pairs of records, each pair the deals of
    its own seed (more deals than one run played, with the interval of all of them together).

    Every pair must compare the same two bots at the same table; ``seed`` is then the list of
    the pairs' seeds.
    """
    abouts, shares = [], []
    for first, second in pairs:
        a_about, b_about, pair_shares = _paired_shares(first, second)
        if abouts:
            a0, b0 = abouts[0]
            for key in ("deck", "players", "seating", "rules", "others"):
                if a_about[key] != a0[key]:
                    raise SetupError(
                        f"{first}: {key} is {a_about[key]!r}, not {a0[key]!r} as in {pairs[0][0]}"
                    )
            for which, about, before in (("first", a_about, a0), ("second", b_about, b0)):
                if about["first"] != before["first"]:
                    raise SetupError(
                        f"the pairs compare other bots: {before['first']!r} and {about['first']!r} "
                        f"are both the {which} record's bot"
                    )
            if a_about["seed"] in [a["seed"] for a, _ in abouts]:
                raise SetupError(
                    f"{first}: seed {a_about['seed']} is in two pairs; its games would count twice"
                )
        abouts.append((a_about, b_about))
        shares.extend(pair_shares)
    result = _summary(*abouts[0], shares)
    result["seed"] = [a["seed"] for a, _ in abouts]
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "records",
        type=Path,
        nargs="+",
        metavar="FIRST SECOND",
        help="the reference run's record (.jsonl or .jsonl.gz), then the variant's, of the same deals; "
        "more such pairs (other seeds) pool their games",
    )
    parser.add_argument("--json", action="store_true", help="print the comparison as JSON")
    args = parser.parse_args(argv)
    if len(args.records) % 2:
        parser.error("records come in pairs: FIRST SECOND [FIRST SECOND ...]")
    pairs = list(zip(args.records[::2], args.records[1::2], strict=True))
    try:
        result = compare(*pairs[0]) if len(pairs) == 1 else pooled(pairs)
    except SetupError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    low, high = result["difference_ci95"]
    seeds = result["seed"]
    print(
        f"{result['games']} games of {result['deck']} "
        f"({'seeds ' + ', '.join(map(str, seeds)) if isinstance(seeds, list) else f'seed {seeds}'}): "
        f"{result['first']['bot']} {100 * result['first']['win_rate']:.1f}%, "
        f"{result['second']['bot']} {100 * result['second']['win_rate']:.1f}%; "
        f"difference {100 * result['difference']:+.1f} points [{100 * low:+.1f}, {100 * high:+.1f}]"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
