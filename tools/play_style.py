"""How each bot of a tournament record plays its cards, and where its IP comes from.

A win rate says who is stronger, not why. Replaying a record's games, this
tool tells, per bot spec (entrants with the same spec pooled):

- **IP by cause**: the engine's ledger at the end of each game (the card or
  rule that gave or took each IP; it sums to the final score), per game;
- **what happens to each card kind** it was dealt into its hand: never
  placed, eliminated while still face down, revealed (with the IP lying on
  it and the rounds it lay face down), face down at the end, covered by a
  card its owner placed on it, or otherwise gone.

::

    python tools/play_style.py zero-vs-normal.jsonl [--kinds conspiracy,ambush] [--json]

It found, for instance, that `zero` leaves its Conspiracy in its hand in most
4-player games against `ismcts:normal`, while the searches reveal theirs after
rounds face down for about six IP (docs/training.md, "Anchored"). Records may
be gzipped. Not run in CI (a test runs it on a small record).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from oriflamme.engine import events as ev
from oriflamme.engine.cards import SLUGS
from oriflamme.engine.causes import NUM_CAUSES, cause_name
from oriflamme.engine.errors import SetupError
from oriflamme.engine.zones import COVERED
from oriflamme.tournament.config import TournamentConfig
from oriflamme.tournament.games import GameRecord, check_outcome, deal
from oriflamme.tournament.record import open_record

#: A card's fate, in the order the table shows them.
FATES = ("never placed", "eliminated face down", "revealed", "face down at the end", "covered", "other")


@dataclass
class Style:
    """One bot spec's figures, summed over its games (each entrant's game counts once)."""

    games: int = 0
    ip: Counter[str] = field(default_factory=Counter)
    #: kind -> fate -> cards.
    fates: defaultdict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    #: kind -> (IP lying on it when revealed, rounds face down before it), summed over its reveals.
    revealed_ip: Counter[str] = field(default_factory=Counter)
    rounds_down: Counter[str] = field(default_factory=Counter)


def _fates(
    config: TournamentConfig, record: GameRecord
) -> tuple[Any, set[int], dict[int, tuple[str, int, int]]]:
    """Replay ``record``: the game at its end, the cards dealt into hands (a Twin waiting beside
    the table counts as held), and each placed card's (fate, IP at reveal, rounds face down)."""
    game = deal(config, record.index)
    if [list(a) for a in record.aside] != game.aside:
        raise SetupError(f"game {record.index}: its recorded deal is not the one its seed gives")
    held = {c for s in range(config.players) for c in (*game.hands[s], *game.twins[s])}
    placed: dict[int, int] = {}
    fate: dict[int, tuple[str, int, int]] = {}
    for action in record.actions:
        now = game.round
        lying = list(game.ip)  # a Conspiracy's IP goes to its ability, not to the reveal's event
        for code, _seat, card, _pos, n, _extra, _up in game.apply(action):
            if code in (ev.PLACED, ev.TWIN_PLACED) and card not in placed:
                placed[card] = now
            elif code == ev.REVEALED and card in placed and card not in fate:
                fate[card] = ("revealed", max(n, lying[card]), now - placed[card])
            elif code == ev.ELIMINATED and card in placed and card not in fate:
                fate[card] = ("eliminated face down", 0, 0)
    check_outcome(record, game)
    for card in placed:
        if card not in fate:
            if game.zone[card] == COVERED:
                fate[card] = ("covered", 0, 0)  # under a card its owner placed on it, at the end
            else:
                down = card in game.queue and not game.up[card]
                fate[card] = ("face down at the end" if down else "other", 0, 0)
    return game, held, fate


def play_style(path: Path) -> dict[str, Style]:
    """Each bot spec's :class:`Style` over the games of the record at ``path``."""
    reader = open_record(path)
    config = reader.config
    styles: dict[str, Style] = defaultdict(Style)
    for record in reader.games(check_replay=False):
        if not record.has_actions:
            raise SetupError(f"{path}: game {record.index} was recorded without its actions")
        game, held, fate = _fates(config, record)
        for entrant, seat in enumerate(record.seats):
            style = styles[config.specs[entrant]]
            style.games += 1
            row = game.ledger[seat * NUM_CAUSES : (seat + 1) * NUM_CAUSES]
            style.ip.update({cause_name(c): n for c, n in enumerate(row) if n})
            for card in sorted(held):
                if game.owner[card] != seat:
                    continue
                kind = SLUGS[game.kind[card]]
                what, ip, down = fate.get(card, ("never placed", 0, 0))
                style.fates[kind][what] += 1
                if what == "revealed":
                    style.revealed_ip[kind] += ip
                    style.rounds_down[kind] += down
    return dict(styles)


def as_json(styles: dict[str, Style]) -> dict[str, Any]:
    """Per game and per card dealt: the figures the table prints."""
    out: dict[str, Any] = {}
    for spec, style in styles.items():
        kinds = {}
        for kind, fates in sorted(style.fates.items()):
            held = sum(fates.values())
            reveals = fates["revealed"]
            kinds[kind] = {
                "held_per_game": held / style.games,
                **{f: fates[f] / held for f in FATES},
                "ip_at_reveal": style.revealed_ip[kind] / reveals if reveals else None,
                "rounds_face_down": style.rounds_down[kind] / reveals if reveals else None,
            }
        out[spec] = {
            "games": style.games,
            "ip_per_game": {c: n / style.games for c, n in style.ip.most_common()},
            "cards": kinds,
        }
    return out


def _print(result: dict[str, Any], kinds: set[str] | None) -> None:
    for spec, about in result.items():
        print(f"{spec}: {about['games']} games")
        causes = ", ".join(f"{c} {n:+.2f}" for c, n in about["ip_per_game"].items())
        print(f"  IP per game by cause: {causes}")
        print(
            f"  {'card':14s} {'held':>5s} "
            + " ".join(f"{f[:12]:>12s}" for f in FATES)
            + "  IP@reveal  rounds down"
        )
        for kind, row in about["cards"].items():
            if kinds and kind not in kinds:
                continue
            shares = " ".join(f"{100 * row[f]:11.0f}%" for f in FATES)
            ip = (
                ""
                if row["ip_at_reveal"] is None
                else f"{row['ip_at_reveal']:9.2f}  {row['rounds_face_down']:11.2f}"
            )
            print(f"  {kind:14s} {row['held_per_game']:5.2f} {shares}  {ip}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("record", type=Path, help="a tournament record (.jsonl or .jsonl.gz) with actions")
    parser.add_argument("--kinds", help="only these card kinds in the table, comma-separated slugs")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    try:
        result = as_json(play_style(args.record))
    except (SetupError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        _print(result, set(args.kinds.split(",")) if args.kinds else None)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
