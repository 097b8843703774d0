"""``oriflamme bench openspiel``: a bot against OpenSpiel's own ISMCTS (needs the ``rl`` extra)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from ..bots import is_timed, parse_bot_spec, search_processes
from ..build import build_kind
from ..commandline import JsonFlag, print_json, progress_bar, user_errors
from ..engine.errors import SetupError
from ..extras import require_extra
from ..files import write_whole


def bench_openspiel_command(
    bot: Annotated[
        str, typer.Option("--bot", "-b", metavar="<spec>", help="The project's bot, in one seat.")
    ] = "ismcts:normal",
    simulations: Annotated[
        int,
        typer.Option(
            "--simulations", "-s", min=2, help="Simulations of each OpenSpiel ISMCTSBot per decision."
        ),
    ] = 100,
    games: Annotated[
        int,
        typer.Option(
            "--games", "-n", min=1, help="Games, a multiple of the players (each deal once per seat)."
        ),
    ] = 100,
    players: Annotated[int, typer.Option("--players", "-p", min=2, max=5, help="Players.")] = 4,
    deck: Annotated[
        str, typer.Option("--deck", "-d", help="Deck: a preset or ten cards (not random).")
    ] = "base",
    seed: Annotated[int, typer.Option(help="Seed of the deals and of every bot.")] = 0,
    workers: Annotated[
        int | None,
        typer.Option(
            min=1, help="Processes playing games at once (default: the cores over the bot's own processes)."
        ),
    ] = None,
    out: Annotated[
        Path | None, typer.Option("--out", "-o", metavar="<file>", help="Also write the result as JSON here.")
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    """Play a bot in one seat against OpenSpiel's ISMCTSBot in all the others, seats rotated.

    OpenSpiel's information-set MCTS (random rollouts) plays the
    ``python_oriflamme`` game with the project's resampler. Compare the two
    median times per decision in the result to set ``--simulations`` for
    equal time, on the build and machine at hand.
    """
    with user_errors():
        require_extra("rl", "oriflamme bench openspiel")
        from ..rl.openspiel_match import check_match, play_match

        kind, level = parse_bot_spec(bot, custom=True)
        workers = workers or max(1, (os.cpu_count() or 1) // search_processes(kind, level))
        try:
            check_match(
                bot, players=players, deck=deck, games=games, simulations=simulations, workers=workers
            )
        except SetupError:
            raise
        except ValueError as exc:
            raise typer.BadParameter(str(exc)) from None
        if out is not None and not out.parent.is_dir():
            raise typer.BadParameter(f"--out: directory {str(out.parent)!r} does not exist")
        console = Console(stderr=True)
        if is_timed(bot):
            console.print(
                f"note: {bot} searches for a time, so its moves depend on the machine: not reproducible"
            )
        with progress_bar() as progress:
            task = progress.add_task(f"{bot} against OpenSpiel ISMCTS", total=games)
            result = play_match(
                bot,
                players=players,
                deck=deck,
                games=games,
                simulations=simulations,
                seed=seed,
                workers=workers,
                on_game=lambda _: progress.advance(task),
            )
    report = {"build": build_kind(), "workers": workers, **result.to_dict()}
    text = json.dumps(report, indent=2) + "\n"
    if out is not None:
        write_whole(out, lambda tmp: tmp.write_text(text, encoding="utf-8"))
    if as_json:
        print_json(report)
        return
    lo, hi = result.win_rate_ci95
    Console().print(
        f"{bot} won {result.win_rate:.1%} [{lo:.1%}, {hi:.1%}] of {len(result.games)} {players}-player {deck} "
        f"games against {players - 1} OpenSpiel ISMCTSBot of {simulations} simulations (chance {1 / players:.0%}); "
        f"median ms per decision: {result.median_ms('bot'):.1f} against {result.median_ms('openspiel'):.1f}."
    )
