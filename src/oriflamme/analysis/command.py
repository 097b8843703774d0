"""``oriflamme analyze``: the command line of a balance study (:mod:`oriflamme.analysis.study`).

Registered in :mod:`oriflamme.cli` like ``tournament``, with which it shares
the options that choose games (bots, deck, seed, rule options, workers,
``--ray``) and the record files. Errors a user can fix end with one line on
stderr and exit code 2; Ctrl-C writes the report of the games that finished
and exits with 130.
"""

from __future__ import annotations

import dataclasses
import os
import shlex
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich import box
from rich.console import Console
from rich.table import Table

from ..commandline import (
    EXIT_INTERRUPTED,
    CardsOption,
    load_cards,
    needs_extra,
    print_json,
    progress_bar,
    user_errors,
)
from ..engine.errors import SetupError
from ..engine.options import RuleOptions
from ..tournament.command import RAY_LOCAL, TournamentCommand
from ..tournament.config import MAX_ENTRANTS, MIN_ENTRANTS, TournamentConfig, normalize_deck, parse_entrants
from ..tournament.record import RecordReader, open_record
from .report import pct

_DEFAULT_RULES = RuleOptions()
AnalyzeCommand = TournamentCommand  # the same bare ``--ray`` handling


def parse_players(text: str) -> tuple[int, ...]:
    """``4``, ``2-5`` or ``2,4``: the player counts of a study, each 2 to 5."""
    counts: list[int] = []
    for part in text.replace(" ", "").split(","):
        low, dash, high = part.partition("-")
        try:
            first, last = int(low), int(high if dash else low)
        except ValueError:
            raise SetupError(
                f"player counts {text!r}: write a count (4), a range (2-5) or a list (2,4)"
            ) from None
        if not MIN_ENTRANTS <= first <= last <= MAX_ENTRANTS:
            raise SetupError(
                f"player counts {text!r}: each must be {MIN_ENTRANTS} to {MAX_ENTRANTS}, low to high"
            )
        counts.extend(range(first, last + 1))
    return tuple(sorted(set(counts)))


def study_configs(
    bots: str, players: str, decks: list[str], games: int, seed: int, rules: RuleOptions, seating: str
) -> list[TournamentConfig]:
    """One tournament per player count and deck; the bot specs are repeated in turn to fill each table."""
    specs = [s.strip() for s in bots.split(",")]
    if any(not s for s in specs):
        raise SetupError(f"empty bot spec in {bots!r}; give specs separated by commas, e.g. heuristic,random")
    configs = []
    for n in parse_players(players):
        seats = parse_entrants([specs[i % len(specs)] for i in range(n)])
        for deck in decks:
            config = TournamentConfig(
                specs=seats, deck=normalize_deck(deck), games=games, seed=seed, rules=rules, seating=seating
            )
            config.check()
            configs.append(config)
    return configs


def analyze_command(
    out: Annotated[
        Path,
        typer.Option("--out", "-o", help="Directory for summary.json, report.md/.html, figures/ and data/."),
    ] = Path("oriflamme-analysis"),
    bots: Annotated[
        str | None,
        typer.Option(
            "--bots",
            "-b",
            help="Bot specs, comma-separated, repeated in turn to fill each table (default heuristic).",
        ),
    ] = None,
    players: Annotated[
        str | None,
        typer.Option("--players", "-p", help="Player counts: 4, a range 2-5 (default) or a list 2,4."),
    ] = None,
    deck: Annotated[
        list[str] | None,
        typer.Option(
            "--deck",
            "-d",
            help="A deck to study (repeat for several): base, ablaze, alliance, random, or 10 card slugs. "
            "Default: base, ablaze, alliance and random.",
        ),
    ] = None,
    games: Annotated[
        int | None,
        typer.Option("--games", "-n", help="Games per study (player count and deck); default 1000."),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(help="Seed: game g of each study derives everything from (seed, g); default 0."),
    ] = None,
    seating: Annotated[
        str | None,
        typer.Option(
            help="rotate (default) or permute, as in oriflamme tournament; matters with different bots."
        ),
    ] = None,
    workers: Annotated[
        int | None,
        typer.Option(
            "--workers",
            "-w",
            help="Worker processes playing games or replaying records (default: CPU count; 1: this process).",
        ),
    ] = None,
    ray: Annotated[
        str | None,
        typer.Option(
            "--ray",
            metavar="[ADDRESS]",
            help="Play on Ray: bare --ray starts a local instance, --ray ADDRESS joins a cluster "
            "(needs pip install 'oriflamme\\[cluster]').",
        ),
    ] = None,
    record: Annotated[
        Path | None,
        typer.Option(
            "--record",
            metavar="DIR",
            help="Keep each study's games in DIR (one tournament record per study); rerun with the same DIR "
            "to resume.",
        ),
    ] = None,
    sources: Annotated[
        list[Path] | None,
        typer.Option(
            "--from",
            metavar="FILE",
            help="Analyse the games of a tournament record file instead of playing (repeat for several).",
        ),
    ] = None,
    schemer_gain: Annotated[
        int | None,
        typer.Option(help="Rule option: IP the Schemer gains with no adjacent stack (1 or 2; default 1)."),
    ] = None,
    rounds: Annotated[
        int | None, typer.Option(help="Rule option: rounds in a game (1 to 7; default 6).")
    ] = None,
    two_player_cards: Annotated[
        int | None,
        typer.Option(help="Rule option: cards per round in the 2-player variant (1 to 3; default 2)."),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print summary.json on stdout.", metavar="")
    ] = False,
    cards: CardsOption = None,
) -> None:
    """Balance study: play (or read) many games, and report seat advantage, card strength, game length and drama."""
    needs_extra("analysis", "analyze")
    load_cards(cards)
    from .study import StudyInterrupted, run_study

    with user_errors():
        playing = {
            "--bots": bots,
            "--players": players,
            "--deck": deck,
            "--record": record,
            "--games": games,
            "--seed": seed,
            "--seating": seating,
            "--schemer-gain": schemer_gain,
            "--rounds": rounds,
            "--two-player-cards": two_player_cards,
            "--ray": ray,
        }
        given = [name for name, value in playing.items() if value is not None]
        if sources and given:
            raise SetupError(
                "--from reads recorded games, whose bots, decks, seeds and rules are in the files: "
                f"leave out {', '.join(given)}"
            )
        read = _open_sources(sources or [])
        configs = []
        if not sources:
            rules = RuleOptions(
                schemer_gain=_DEFAULT_RULES.schemer_gain if schemer_gain is None else schemer_gain,
                rounds=_DEFAULT_RULES.rounds if rounds is None else rounds,
                two_player_cards_per_round=(
                    _DEFAULT_RULES.two_player_cards_per_round
                    if two_player_cards is None
                    else two_player_cards
                ),
            )
            configs = study_configs(
                bots or "heuristic",
                players or "2-5",
                deck or ["base", "ablaze", "alliance", "random"],
                1000 if games is None else games,
                0 if seed is None else seed,
                rules,
                seating or "rotate",
            )
        if workers is not None and workers < 1:
            raise SetupError(f"the number of workers must be at least 1, got {workers}")
        _check_out(out)
        # Records are read as they come: their number is not known beforehand.
        total = sum(c.games for c in configs) or None
        command = reproducing_command(configs, sources or [])
        progress = progress_bar()
        task = progress.add_task("games", total=total)
        show = sys.stderr.isatty() or not as_json
        try:
            with progress if show else _Quiet():
                result = run_study(
                    out,
                    configs=configs,
                    sources=read,
                    workers=workers,
                    use_ray=ray is not None,
                    ray_address=None if ray in (None, RAY_LOCAL) else ray,
                    record_dir=record,
                    command=command,
                    on_game=lambda: progress.advance(task),
                    on_notice=lambda text: typer.echo(f"note: {text}", err=True),
                )
        except StudyInterrupted as stop:
            result = stop.result
        except KeyboardInterrupt:
            typer.echo("interrupted before any game was played: nothing written", err=True)
            raise typer.Exit(EXIT_INTERRUPTED) from None
        except OSError as exc:
            raise SetupError(f"cannot write the study to {out}: {exc.strerror or exc}") from None
    if as_json:
        print_json(result.summary)
    else:
        print_overview(result.summary, out)
        if result.played and result.seconds_playing > 0:
            typer.echo(
                f"{result.played:,} games played in {result.seconds_playing:.1f} s "
                f"({result.played / result.seconds_playing:,.0f} games/s)"
            )
    if result.interrupted:
        typer.echo(f"interrupted: the report covers the {result.games:,} games that finished", err=True)
        raise typer.Exit(EXIT_INTERRUPTED)


def _open_sources(paths: list[Path]) -> list[RecordReader]:
    """Open every ``--from`` file (headers only); refuse a file given twice and two records of one tournament."""
    readers: list[RecordReader] = []
    seen: dict[Path, Path] = {}
    for path in paths:
        real = path.resolve()
        if real in seen:
            raise SetupError(f"--from {path}: the same file as --from {seen[real]}; give each file once")
        seen[real] = path
        reader = open_record(path)
        for other in readers:
            if dataclasses.replace(other.config, games=1) == dataclasses.replace(reader.config, games=1):
                raise SetupError(
                    f"--from {path} records the same tournament as {other.path} (bots, deck, seed, seating and "
                    "rules): their games would count twice"
                )
            if (other.config.players, other.config.deck) == (reader.config.players, reader.config.deck) and (
                other.config.rules != reader.config.rules
            ):
                raise SetupError(
                    f"--from {path} and {other.path} play {reader.config.players}-player {reader.config.deck} "
                    "under different rule options: they are not one study"
                )
        readers.append(reader)
    return readers


def _check_out(out: Path) -> None:
    """Refuse an output path that cannot be a directory, before any game is played."""
    if out.exists() and not out.is_dir():
        raise SetupError(f"--out {out} is a file, not a directory")
    for parent in out.resolve().parents:
        if parent.exists():
            if not parent.is_dir():
                raise SetupError(f"--out {out}: {parent} is a file, not a directory")
            if not os.access(parent, os.W_OK | os.X_OK):
                raise SetupError(f"--out {out}: cannot write in {parent}")
            break


def reproducing_command(configs: list[TournamentConfig], sources: list[Path]) -> str:
    """The command that plays (or reads) the same games: what the report quotes for others to rerun."""
    if sources:
        return "oriflamme analyze " + " ".join(f"--from {shlex.quote(str(p))}" for p in sources)
    first = configs[0]
    counts = sorted({c.players for c in configs})
    decks = list(dict.fromkeys(c.deck for c in configs))
    bots = _cycle(max(configs, key=lambda c: c.players).specs)
    parts = ["oriflamme analyze", f"--bots {shlex.quote(','.join(bots))}"]
    parts.append(f"--players {','.join(map(str, counts))}")
    parts += [f"--deck {shlex.quote(d)}" for d in decks]
    parts += [f"--games {first.games}", f"--seed {first.seed}"]
    if first.seating != "rotate":
        parts.append(f"--seating {first.seating}")
    defaults = RuleOptions()
    if first.rules.schemer_gain != defaults.schemer_gain:
        parts.append(f"--schemer-gain {first.rules.schemer_gain}")
    if first.rules.rounds != defaults.rounds:
        parts.append(f"--rounds {first.rules.rounds}")
    if first.rules.two_player_cards_per_round != defaults.two_player_cards_per_round:
        parts.append(f"--two-player-cards {first.rules.two_player_cards_per_round}")
    return " ".join(parts)


def _cycle(specs: tuple[str, ...]) -> list[str]:
    """The shortest list of specs whose repetition gives ``specs`` (what --bots was, normalized)."""
    for k in range(1, len(specs) + 1):
        if all(specs[i] == specs[i % k] for i in range(len(specs))):
            return list(specs[:k])
    return list(specs)


class _Quiet:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: Any) -> None:
        return None


def print_overview(summary: dict[str, Any], out: Path) -> None:
    """The headline figures on the terminal; the report has the rest."""
    console = Console() if sys.stdout.isatty() else Console(width=200)
    table = Table(title="Seat advantage (p1 starts round 1)", box=box.SIMPLE_HEAD)
    for name in ("study", "games", "fair", "p1 win share (95% CI)", "late leader loses"):
        table.add_column(name, justify="left" if name == "study" else "right")
    for s in summary["studies"]:
        table.add_row(
            f"{s['players']}p {s['deck']}",
            f"{s['games']:,}",
            f"{100 * s['fair_share']:.1f}%",
            pct(s["first_player_win_share"]),
            pct(s["late_leader_lost"]),
        )
    console.print(table)
    kinds = summary["kinds"]
    ranked = [k for k in kinds if kinds[k]["hand_effect"]["difference"] is not None]  # the Twin has none
    ranked.sort(key=lambda k: -kinds[k]["hand_effect"]["difference"])
    if ranked:
        console.print(
            "Kinds worth most when dealt: "
            + ", ".join(ranked[:3])
            + "; least: "
            + ", ".join(reversed(ranked[-3:]))
        )
    console.print(f"Report: {out / 'report.html'} (and report.md, summary.json, data/)")
