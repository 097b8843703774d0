"""``oriflamme check vector`` and ``oriflamme bench vector``: the vector engine's exactness and speed (the ``vector`` extra)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.table import Table

from ..commandline import (
    JsonFlag,
    fail,
    needs_extra,
    print_json,
    progress_bar,
    stop_on_sigterm,
    user_errors,
)
from ..engine.options import RuleOptions

if TYPE_CHECKING:
    from ..vector.check import CheckResult

check_app = typer.Typer(
    help="Check an engine against the Python rules engine.", no_args_is_help=True, add_completion=False
)


def _ints(text: str, what: str) -> list[int]:
    """A comma-separated list of positive ints (``1024,4096``), or a usage error saying what is wrong."""
    try:
        values = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise fail(f"{what} must be comma-separated whole numbers, got {text!r}") from None
    if not values or min(values) < 1:
        raise fail(f"{what} must be comma-separated positive numbers, got {text!r}")
    return values


def _report_stopped(
    games: int, players: int, deck: str, seed: int, ended: list[CheckResult], as_json: bool
) -> None:
    """What a stopped check had compared: hours of checking are not lost to Ctrl-C."""
    from ..vector.check import CheckResult

    checked = CheckResult(sum(p.games for p in ended), players, deck, seed)
    for part in sorted(ended, key=lambda p: p.seed):  # seed order, as a whole run reports
        checked.add(part)
    if as_json:
        print_json({**checked.to_dict(), "requested": games, "stopped": True})
        return
    for line in checked.disagreements:
        typer.echo(line)
    Console(stderr=True).print(
        f"stopped: {checked.games} of {games} games checked, {checked.steps:,} positions "
        f"compared, {len(checked.disagreements)} disagreement(s)",
        highlight=False,
    )


@check_app.command("vector")
def check_vector_command(
    games: Annotated[int, typer.Option("--games", "-n", help="Random games to step on both engines.")] = 100,
    players: Annotated[int, typer.Option("--players", "-p", help="Number of players (2 to 5).")] = 4,
    deck: Annotated[
        str,
        typer.Option(
            "--deck", "-d", help="base, ablaze, alliance, random, or 10 comma-separated card slugs."
        ),
    ] = "base",
    seed: Annotated[
        int, typer.Option(help="Game i is dealt, and its random choices seeded, with seed + i.")
    ] = 0,
    batch: Annotated[int, typer.Option(help="Games stepped at once on the vector engine.")] = 256,
    jobs: Annotated[
        int, typer.Option("--jobs", "-j", help="Processes sharing the batches (one a core; same result).")
    ] = 1,
    rounds: Annotated[int, typer.Option(help="Rounds in a game (1 to 7).")] = 6,
    schemer_gain: Annotated[int, typer.Option(help="IP the Schemer gains (1 or 2).")] = 1,
    cards_per_round: Annotated[
        int, typer.Option(help="Cards each player places per round with two players (1 to 3).")
    ] = 2,
    as_json: JsonFlag = False,
) -> None:
    """Step random games on the Python engine and the vector engine side by side and compare every step.

    At each step: the current player, the mask, every seat's observation, the
    scores and the end, until each game ends. Exit code 1 on any
    disagreement, each printed with the game's seed, the step and both positions;
    130 when stopped (Ctrl-C, SIGTERM), after what was checked until then.
    """
    needs_extra("vector", "check vector")
    from ..vector.check import check_vector

    with user_errors():
        rules = RuleOptions(schemer_gain, cards_per_round, rounds)
        ended: list[CheckResult] = []
        with progress_bar() as progress:
            task = progress.add_task("games checked", total=games)

            def advance(part: CheckResult) -> None:
                ended.append(part)
                progress.advance(task, part.games)
                if part.disagreements:
                    last = part.seed + part.games - 1
                    progress.console.print(
                        f"{len(part.disagreements)} disagreement(s) among seeds {part.seed} to {last}",
                        highlight=False,
                    )

            try:
                with stop_on_sigterm():
                    result = check_vector(games, players, deck, seed, batch, rules, jobs, on_part=advance)
            except ValueError as exc:
                raise fail(str(exc)) from None
            except KeyboardInterrupt:
                _report_stopped(games, players, deck, seed, ended, as_json)
                raise typer.Exit(130) from None
    if as_json:
        print_json(result.to_dict())
    else:
        console = Console()
        console.print(
            f"{result.games} games, {result.players} players, deck {result.deck}, seeds {seed} to "
            f"{seed + games - 1}: {result.steps:,} positions compared, {result.finished} games played "
            f"to the end.",
            highlight=False,
        )
        for line in result.disagreements:
            typer.echo(line)
        console.print(
            f"{len(result.disagreements)} disagreement(s)." if result.disagreements else "No disagreement.",
            highlight=False,
        )
    if result.disagreements:
        raise typer.Exit(1)


def bench_vector_command(
    batch: Annotated[str, typer.Option("--batch", "-b", help="Batch sizes, comma-separated.")] = "1024,4096",
    steps: Annotated[
        int, typer.Option("--steps", help="Steps of each batch timed (after a warm-up run).")
    ] = 100,
    players: Annotated[str, typer.Option("--players", "-p", help="Player counts, comma-separated.")] = "4",
    deck: Annotated[
        str,
        typer.Option(
            "--deck", "-d", help="base, ablaze, alliance, random, or 10 comma-separated card slugs."
        ),
    ] = "base",
    seed: Annotated[int, typer.Option(help="Seed of the deals and the random choices.")] = 0,
    pettingzoo_seconds: Annotated[
        float, typer.Option("--pettingzoo-seconds", min=0.1, help="Seconds of PettingZoo play measured.")
    ] = 3.0,
    as_json: JsonFlag = False,
) -> None:
    """Steps and games per second of the vector Env on the device JAX picks, against the PettingZoo environment.

    Random legal play with auto-reset and the observation every step, per
    batch size; compile time per player count; the PettingZoo env() measured
    in the same run. Until resolution is stepped on the device, the figures
    are those of the placement phase.
    """
    needs_extra("vector", "bench vector")
    needs_extra("rl", "bench vector")
    batches = _ints(batch, "--batch")
    counts = _ints(players, "--players")
    from ..rl.vector_bench import run_vector_bench

    with user_errors():
        try:
            report = run_vector_bench(batches, steps, counts, deck, seed, pettingzoo_seconds)
        except ValueError as exc:
            raise fail(str(exc)) from None
    if as_json:
        print_json(report.to_dict())
        return
    table = Table(title=f"oriflamme.vector on {report.device}, deck {report.deck}, random play")
    for name in ("players", "batch", "steps/s", "games/s", "× PettingZoo"):
        table.add_column(name, justify="right")
    for r in report.rows:
        table.add_row(
            str(r.players),
            f"{r.batch:,}",
            f"{r.steps_per_s:,.0f}",
            f"{r.games_per_s:,.0f}",
            f"{report.ratio(r):.2f}",
        )
    console = Console()
    console.print(table)
    for p in counts:
        console.print(
            f"{p} players: compiled in {report.compile_s[p]:.1f} s; PettingZoo env() "
            f"{report.pettingzoo_steps_per_s[p]:,.0f} steps/s.",
            highlight=False,
        )
