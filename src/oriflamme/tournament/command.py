"""``oriflamme tournament``: the command line of :mod:`oriflamme.tournament`.

Registered in :mod:`oriflamme.cli` with ``app.command("tournament",
cls=TournamentCommand)(tournament_command)``. Like the other subcommands,
errors a user can fix end with one line on stderr and exit code 2; Ctrl-C
prints the results so far and exits with 130, the shell's code for SIGINT.
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from rich import box
from rich.console import Console, JustifyMethod
from rich.measure import Measurement
from rich.table import Table
from typer.core import TyperCommand

from ..bots import is_timed
from ..build import build_kind
from ..commandline import (
    EXIT_INTERRUPTED,
    CardsOption,
    JsonFlag,
    load_cards,
    needs_extra,
    progress_bar,
    stop_on_sigterm,
    user_errors,
)
from ..engine.options import RuleOptions
from . import (
    GameRecord,
    OnGame,
    Rating,
    Standing,
    TournamentConfig,
    TournamentInterrupted,
    TournamentResult,
    normalize_deck,
    parse_entrants,
    resolve_workers,
    run_tournament,
)
from .record import WITHOUT_ACTIONS, RecordFile

#: The value of a bare ``--ray``: start a local Ray instance.
RAY_LOCAL = "local"
_DEFAULT_RULES = RuleOptions()


class TournamentCommand(TyperCommand):
    """Lets ``--ray`` be given without a value (a local instance) as well as ``--ray ADDRESS``.

    Typer options always take a value, so a bare ``--ray`` (last, or followed
    by another option) is rewritten to ``--ray local`` before parsing.
    """

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        return super().parse_args(ctx, expand_bare_ray(args))


def expand_bare_ray(args: list[str]) -> list[str]:
    """``[..., "--ray"]`` or ``[..., "--ray", "--json"]`` -> ``--ray local``; anything after ``--`` is left alone."""
    out: list[str] = []
    for i, arg in enumerate(args):
        if arg == "--":
            return out + args[i:]
        out.append(arg)
        if arg == "--ray" and (i + 1 == len(args) or args[i + 1].startswith("-")):
            out.append(RAY_LOCAL)
    return out


def tournament_command(
    bots: Annotated[
        str,
        typer.Option(
            "--bots",
            "-b",
            help="One bot spec per seat, comma-separated (2 to 5), e.g. ismcts:normal,heuristic,random.",
        ),
    ],
    deck: Annotated[
        str,
        typer.Option(
            "--deck",
            "-d",
            help="Deck recipe: random (a recipe drawn per game), base, ablaze, alliance, or 10 card slugs.",
        ),
    ] = "random",
    games: Annotated[int, typer.Option("--games", "-n", help="Number of games.")] = 100,
    seed: Annotated[
        int, typer.Option(help="Tournament seed: game g's recipe, deal and bot seeds derive from (seed, g).")
    ] = 0,
    seating: Annotated[
        str,
        typer.Option(
            help="rotate: entrant i at seat (i + g) % players in game g, neighbours fixed; permute: "
            "also every order around the table (balanced over players! games).",
        ),
    ] = "rotate",
    workers: Annotated[
        int | None,
        typer.Option(
            "--workers", "-w", help="Worker processes (default: CPU count; 1 plays in this process)."
        ),
    ] = None,
    ray: Annotated[
        str | None,
        typer.Option(
            "--ray",
            metavar="[ADDRESS]",
            help="Run games as Ray tasks: bare --ray starts a local instance, --ray ADDRESS connects "
            "(needs pip install 'oriflamme\\[cluster]').",
        ),
    ] = None,
    schemer_gain: Annotated[
        int, typer.Option(help="Rule option: IP the Schemer gains with no adjacent stack (1 or 2).")
    ] = _DEFAULT_RULES.schemer_gain,
    rounds: Annotated[
        int, typer.Option(help="Rule option: rounds in a game (1 to 7).")
    ] = _DEFAULT_RULES.rounds,
    two_player_cards: Annotated[
        int, typer.Option(help="Rule option: cards per round in the 2-player variant (1 to 3).")
    ] = _DEFAULT_RULES.two_player_cards_per_round,
    record: Annotated[
        Path | None,
        typer.Option(
            "--record",
            metavar="FILE",
            help="Append each finished game to FILE (JSON Lines). Rerun with the same FILE to resume: "
            "the games it holds are counted, not played again.",
        ),
    ] = None,
    as_json: JsonFlag = False,
    cards: CardsOption = None,
) -> None:
    """Play bots against each other with rotated seats; report wins, scores, ranks and ratings."""
    needs_extra("tournament", "tournament")
    load_cards(cards)
    try:
        with user_errors():
            config = TournamentConfig(
                specs=parse_entrants(bots),
                deck=normalize_deck(deck),
                games=games,
                seed=seed,
                seating=seating,
                rules=RuleOptions(
                    schemer_gain=schemer_gain, rounds=rounds, two_player_cards_per_round=two_player_cards
                ),
            )
            # Checked before the progress bar starts, so that an error is one clean line.
            config.check()
            timed = [spec for spec in dict.fromkeys(config.specs) if is_timed(spec)]
            if timed:
                typer.echo(
                    f"note: {', '.join(timed)} thinks for a time, not a number of iterations: "
                    "its moves depend on this machine's speed and load, so the seed does not reproduce them",
                    err=True,
                )
            resolve_workers(workers, config.games)
            use_ray = ray is not None
            address = None if ray is None or ray == RAY_LOCAL else ray
            show_progress = sys.stderr.isatty() or not as_json
            with ExitStack() as stack:
                stack.enter_context(stop_on_sigterm())
                previous: list[GameRecord] = []
                on_game: OnGame | None = None
                if record is not None:
                    log = stack.enter_context(RecordFile(record, config))
                    previous = log.previous
                    on_game = log.append
                    if log.upgraded_from:
                        typer.echo(
                            f"note: {record} was a record of an earlier version ({log.upgraded_from}) and is "
                            f"now of the current one; its {log.without_actions} earlier games {WITHOUT_ACTIONS}",
                            err=True,
                        )
                    if log.dropped_partial_line:
                        typer.echo(f"{record}: dropped a last line cut short by an earlier crash", err=True)
                    if previous:
                        typer.echo(
                            f"resuming: {len(previous)} of {config.games} games already in {record}", err=True
                        )
                progress = stack.enter_context(_progress(config.games, len(previous), show_progress))
                try:
                    result = run_tournament(
                        config,
                        workers=workers,
                        use_ray=use_ray,
                        ray_address=address,
                        on_game=_both(on_game, progress),
                        previous=previous,
                    )
                except TournamentInterrupted as stop:
                    result = stop.result
    except KeyboardInterrupt:
        # Ctrl-C before any game ran (e.g. while Ray starts).
        typer.echo("interrupted before any game finished", err=True)
        raise typer.Exit(EXIT_INTERRUPTED) from None
    if as_json:
        typer.echo(json.dumps(result.to_dict(), indent=2))
    elif result.games:
        print_result(result)
    if result.interrupted:
        typer.echo(
            f"interrupted after {result.games} of {result.games_requested} games: partial results",
            err=True,
        )
        raise typer.Exit(EXIT_INTERRUPTED)


def _both(first: OnGame | None, second: OnGame | None) -> OnGame | None:
    """One per-game callback that calls both (the record file first: it is what must not be lost)."""
    if first is None or second is None:
        return first or second

    def call(record: GameRecord) -> None:
        first(record)
        second(record)

    return call


@contextmanager
def _progress(total: int, completed: int, show: bool) -> Iterator[OnGame | None]:
    """A rich progress bar on stderr, starting at ``completed``; yields the per-game callback."""
    if not show:
        yield None
        return
    progress = progress_bar()
    task = progress.add_task("games", total=total, completed=completed)

    def advance(record: GameRecord) -> None:
        progress.advance(task)

    with progress:
        yield advance


def _rate(s: Standing) -> str:
    lo, hi = s.win_rate_ci95
    return f"{100 * s.win_rate:.1f} ({100 * lo:.1f}-{100 * hi:.1f})"


def _duration(ms: float) -> str:
    """A decision time in the unit that suits it (random bots take microseconds, search seconds)."""
    if ms < 1:
        return f"{ms * 1000:.0f} µs"
    if ms < 1000:
        return f"{ms:.1f} ms"
    return f"{ms / 1000:.2f} s"


def _console() -> Console:
    # Piped output gets room for every column instead of rich's 80-column default.
    console = Console()
    return console if console.is_terminal else Console(width=200)


#: Columns left out, in this order, while a table is wider than the terminal (--json has them all).
DROP_WHEN_NARROW = ("mu ± sigma", "spec", "decision p50 / p95", "games", "entrants", "mean IP")


def _fitted_table(
    console: Console, title: str, header: tuple[str, ...], rows: Sequence[tuple[str, ...]]
) -> Table:
    """A table of ``rows`` that fits the console, leaving out the least needed columns if it must."""
    keep = list(range(len(header)))
    droppable = [header.index(name) for name in DROP_WHEN_NARROW if name in header]
    while True:
        table = Table(title=title, box=box.SIMPLE_HEAD)
        for i in keep:
            justify: JustifyMethod = "left" if header[i] in ("entrant", "spec") else "right"
            table.add_column(header[i], justify=justify, no_wrap=True)
        for row in rows:
            table.add_row(*(row[i] for i in keep))
        unbounded = console.options.update_width(10_000)
        if not droppable or Measurement.get(console, unbounded, table).maximum <= console.width:
            return table
        keep.remove(droppable.pop(0))


def _games(count: int) -> str:
    return f"{count} game{'' if count == 1 else 's'}"


def _seating_note(cfg: TournamentConfig) -> str:
    if cfg.seating == "rotate":
        return f"Seats rotate: entrant i sits at seat (i + g) % {cfg.players} in game g; seat p1 starts."
    cycle = math.factorial(cfg.players)
    return (
        f"Seats permute: every order around the table, each rotated; balanced every {cycle} games"
        f"{'' if cfg.games % cycle == 0 else ' (this run is not a multiple)'}; seat p1 starts."
    )


def print_result(result: TournamentResult) -> None:
    """The standings, best rating first, then the sums per spec when a spec is played by several entrants."""
    console = _console()
    cfg = result.config
    rows = []
    for s in sorted(result.entrants, key=lambda s: -s.rating.ordinal if s.rating else 0.0):
        rating = s.rating or Rating(0.0, 0.0)
        rows.append(
            (
                s.name,
                s.spec,
                str(s.games),
                f"{round(s.wins, 2):g}",
                _rate(s),
                f"{s.mean_score:.2f}",
                f"{s.mean_rank:.2f}",
                f"{rating.ordinal:.1f}",
                f"{rating.mu:.1f} ± {rating.sigma:.1f}",
                f"{_duration(s.decision_median_ms)} / {_duration(s.decision_p95_ms)}",
            )
        )
    header = (
        "entrant",
        "spec",
        "games",
        "wins",
        "win % (95% CI)",
        "mean IP",
        "mean rank",
        "rating",
        "mu ± sigma",
        "decision p50 / p95",
    )
    title = f"{_games(result.games)}, {cfg.players} players, deck {cfg.deck}, seed {cfg.seed}"
    console.print(_fitted_table(console, title, header, rows))
    if len(result.specs) < len(result.entrants):
        spec_rows = [
            (
                s.spec,
                str(cfg.specs.count(s.spec)),
                str(s.games),
                f"{round(s.wins, 2):g}",
                _rate(s),
                f"{s.mean_score:.2f}",
                f"{s.mean_rank:.2f}",
            )
            for s in result.specs
        ]
        spec_header = ("spec", "entrants", "games", "wins", "win % (95% CI)", "mean IP", "mean rank")
        console.print(_fitted_table(console, "Per spec (its entrants' games summed)", spec_header, spec_rows))
    recipes = f"{result.recipes} recipes" if result.recipes != 1 else "1 recipe"
    plural = "s" if result.workers != 1 else ""
    resumed = f"{_games(result.resumed)} from the record file, " if result.resumed else ""
    console.print(
        f"Wins: shared wins count 1/k. Rank: 1 = first, ties averaged. Rating: Plackett-Luce mu - 3 sigma.\n"
        f"{_seating_note(cfg)}\n"
        f"{recipes}; {resumed}{result.games_played} played in {result.seconds:.1f} s, "
        f"{result.games_per_second:,.1f} games/s "
        f"({result.backend}, {result.workers} worker{plural}, {build_kind()})."
    )
