"""Count how the search bots keep, reveal and place cards: the tables of ``oriflamme.bots.heuristic.habits``.

The heuristic, which plays the search's playouts, reveals a face-down
character almost every time its pointer comes and favours a few kinds when it
places; the search bots keep characters hidden far more often in the first
rounds and spread their kinds otherwise. This tool replays tournament records
that keep their actions and counts every decision with a choice:

- a keep-or-reveal, by the card's kind, the rounds left after the current one
  (0, 1, 2, 3 or more) and the IP on it (0, 1, 2, 3 or more): the chance of a
  reveal, smoothed towards the kind's overall rate by ``PRIOR``
  pseudo-decisions, so a rare cell reads like its kind;
- a placement with more than one kind in hand, by rounds left: how many times
  its share each kind was placed (a share is one over the kinds in hand),
  smoothed towards 1 by ``PRIOR`` shares;
- a placement of a card that could go onto one of the seat's own cards, by
  kind and rounds left: the chance that it did, smoothed as a reveal's.

::

    python tools/fit_habits.py docs/measurements/*-ismcts-master-vs-normal.jsonl.gz

prints the ``REVEAL_ODDS``, ``PLACE_WEIGHTS`` and ``COVER_ODDS`` literals (``--json``: the
counts too). Not run in CI (a test runs it on a small record).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from oriflamme.bots.heuristic.habits import CELLS, IP_CELLS, LEFT_CELLS, place_cell, reveal_cell
from oriflamme.engine.actions import PLACE_ON, REVEAL_ACTION, SHIFT, placed_card
from oriflamme.engine.cards import KINDS
from oriflamme.engine.errors import SetupError
from oriflamme.engine.game import Game
from oriflamme.engine.registry import D_KEEP_OR_REVEAL, D_PLACE, P_ACTOR, P_DECISION
from oriflamme.tournament.games import deal
from oriflamme.tournament.record import open_record

#: Pseudo-decisions (reveals) or shares (placements) at the neutral rate added to each cell.
PRIOR = 5.0

Counts = dict[str, list[list[float]]]


def count(paths: list[Path]) -> tuple[Counts, Counts, Counts]:
    """Per kind slug: per reveal cell [decisions, reveals]; per rounds-left cell (most first)
    [shares, placements] and [placements that could cover an own card, covers]."""
    tables: tuple[Counts, Counts, Counts] = ({}, {}, {})
    for path in paths:
        reader = open_record(path)
        for record in reader.games(check_replay=False):
            if not record.has_actions:
                raise SetupError(f"{path}: game {record.index} keeps no actions to replay")
            g = deal(reader.config, record.index)
            for action in record.actions:
                if g.pending is not None and len(g.options) > 1:
                    _tally(g, action, *tables)
                g.apply(action)
    return tables


def _row(counts: Counts, kind: int, cells: int) -> list[list[float]]:
    return counts.setdefault(KINDS[kind].slug, [[0, 0] for _ in range(cells)])


def _tally(g: Game, action: int, reveals: Counts, places: Counts, covers: Counts) -> None:
    """Count the decision pending in ``g``, answered by ``action``."""
    p = g.pending
    assert p is not None
    if p[P_DECISION] == D_KEEP_OR_REVEAL:
        c = p[P_ACTOR]
        cell = _row(reveals, g.kind[c], CELLS)[reveal_cell(g, c)]
        cell[0] += 1
        cell[1] += action == REVEAL_ACTION
    elif p[P_DECISION] == D_PLACE:
        at = place_cell(g)
        c = placed_card(action)
        hand = {g.kind[placed_card(a)] for a in g.options}
        if len(hand) > 1:
            for k in hand:
                _row(places, k, LEFT_CELLS)[at][0] += 1 / len(hand)
            _row(places, g.kind[c], LEFT_CELLS)[at][1] += 1
        if any(a >> SHIFT == PLACE_ON and placed_card(a) == c for a in g.options):
            cell = _row(covers, g.kind[c], LEFT_CELLS)[at]
            cell[0] += 1
            cell[1] += action >> SHIFT == PLACE_ON


def rates(counts: Counts) -> dict[str, list[float]]:
    """Each cell's rate (reveals, covers), smoothed towards its kind's."""
    out = {}
    for slug, cells in sorted(counts.items()):
        overall = sum(c[1] for c in cells) / sum(c[0] for c in cells)
        out[slug] = [round((r + PRIOR * overall) / (m + PRIOR), 3) for m, r in cells]
    return out


def place_weights(counts: Counts) -> dict[str, list[float]]:
    """Each cell's placements over its shares, smoothed towards 1."""
    return {
        slug: [round((r + PRIOR) / (m + PRIOR), 3) for m, r in cells]
        for slug, cells in sorted(counts.items())
    }


def _literal(name: str, table: dict[str, list[float]], per_line: int) -> None:
    print(f"{name}: dict[str, tuple[float, ...]] = {{")
    for slug, cells in table.items():
        if len(cells) <= per_line:
            print(f'    "{slug}": ({", ".join(repr(v) for v in cells)}),')
            continue
        print(f'    "{slug}": (')
        for i in range(0, len(cells), per_line):
            print(f"        {', '.join(repr(v) for v in cells[i : i + per_line])},")
        print("    ),")
    print("}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("records", nargs="+", type=Path, help="tournament records (.jsonl or .jsonl.gz)")
    parser.add_argument("--json", action="store_true", help="print the counts and tables as JSON")
    args = parser.parse_args(argv)
    try:
        reveals, places, covers = count(args.records)
    except SetupError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    odds, weights, cover = rates(reveals), place_weights(places), rates(covers)
    if args.json:
        result: dict[str, Any] = {
            "reveal_counts": reveals,
            "place_counts": places,
            "cover_counts": covers,
            "reveal_odds": odds,
            "place_weights": weights,
            "cover_odds": cover,
        }
        print(json.dumps(result, indent=2))
        return 0
    _literal("REVEAL_ODDS", odds, IP_CELLS)
    _literal("PLACE_WEIGHTS", weights, LEFT_CELLS)
    _literal("COVER_ODDS", cover, LEFT_CELLS)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
