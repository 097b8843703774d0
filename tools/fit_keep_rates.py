"""Measure how often the search bots keep each kind of card hidden, from tournament records.

The inference (:mod:`oriflamme.bots.inference`) re-deals an opponent's
face-down card that carries IP with weight ``likelihood[kind] ** IP``: the
chance that a player keeps a card of that kind hidden when it resolves. The
heuristic's table (``KEEP_LIKELIHOOD``) is a guess about a casual player; this
tool counts what the ``ismcts:normal`` bots of the committed records really
did at every keep-or-reveal decision (replaying each game), pooled over the
records given::

    python tools/fit_keep_rates.py docs/measurements/*-ismcts-master-vs-normal.jsonl.gz

prints, per kind, the keeps, the decisions and their rate next to the
heuristic's guess; ``--python`` prints the rates as the literal kept in
``oriflamme.bots.inference.FITTED_KEEP_RATE``. Only seats played by
``--bot`` (default ``ismcts:normal``) are counted. Not run in CI (a test runs
it on a small record).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from oriflamme.bots.heuristic import KEEP_LIKELIHOOD
from oriflamme.engine.actions import KEEP_ACTION
from oriflamme.engine.cards import SLUGS
from oriflamme.engine.errors import OriflammeError, SetupError
from oriflamme.engine.registry import D_KEEP_OR_REVEAL, P_ACTOR, P_DECISION, P_SEAT
from oriflamme.tournament.config import normalize_spec
from oriflamme.tournament.games import deal
from oriflamme.tournament.record import open_record


def count(paths: list[Path], bot: str) -> dict[int, list[int]]:
    """Per kind: [keeps, keep-or-reveal decisions] of the seats played by ``bot``."""
    try:
        bot = normalize_spec(bot, buildable=False)  # records are only replayed
    except OriflammeError as exc:
        raise SetupError(f"--bot: {exc}") from None
    counts: dict[int, list[int]] = {}
    for path in paths:
        reader = open_record(path)
        config = reader.config
        counted = {e for e, spec in enumerate(config.specs) if spec == bot}
        if not counted:
            raise SetupError(f"{path}: no entrant is {bot}; its entrants are {', '.join(config.specs)}")
        for record in reader.games(check_replay=False):
            if not record.has_actions:
                raise SetupError(f"{path}: game {record.index} keeps no actions to replay")
            g = deal(config, record.index)
            seats = {record.seats[e] for e in counted}
            for action in record.actions:
                p = g.pending
                if p is not None and p[P_DECISION] == D_KEEP_OR_REVEAL and p[P_SEAT] in seats:
                    # The only answers to this question are keeping and revealing.
                    row = counts.setdefault(g.kind[p[P_ACTOR]], [0, 0])
                    row[0] += action == KEEP_ACTION
                    row[1] += 1
                g.apply(action)
    return counts


def rates(counts: dict[int, list[int]]) -> dict[str, Any]:
    return {
        SLUGS[k]: {"keeps": keeps, "decisions": n, "rate": round(keeps / n, 2), "guess": KEEP_LIKELIHOOD[k]}
        for k, (keeps, n) in sorted(counts.items())
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("records", nargs="+", type=Path, help="tournament records (.jsonl or .jsonl.gz)")
    parser.add_argument("--bot", default="ismcts:normal", help="the entrant whose decisions are counted")
    out = parser.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print the counts as JSON")
    out.add_argument("--python", action="store_true", help="print the rates as a Python literal")
    args = parser.parse_args(argv)
    try:
        table = rates(count(args.records, args.bot))
    except SetupError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(table, indent=2))
    elif args.python:
        print("{" + ", ".join(f'"{slug}": {row["rate"]}' for slug, row in table.items()) + "}")
    else:
        for slug, row in sorted(table.items(), key=lambda item: -item[1]["rate"]):
            print(
                f"{slug:15} kept {row['rate']:.2f} of {row['decisions']:6} times (guess {row['guess']:.2f})"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
