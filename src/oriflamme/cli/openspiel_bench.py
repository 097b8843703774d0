"""``oriflamme bench openspiel``: a bot against OpenSpiel's own ISMCTS (needs the ``rl`` extra)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from ..build import build_kind
from ..commandline import JsonFlag, print_json, progress_bar, user_errors
from ..extras import require_extra


def bench_openspiel_command(
    bot: Annotated[
        str, typer.Option("--bot", "-b", metavar="<spec>", help="The project's bot, in one seat.")
    ] = "ismcts:normal",
    simulations: Annotated[
        int,
        typer.Option(
            "--simulations", "-s", min=1, help="Simulations of each OpenSpiel ISMCTSBot per decision."
        ),
    ] = 100,
    games: Annotated[
        int, typer.Option("--games", "-n", min=1, help="Games (each deal once per seat).")
    ] = 100,
    players: Annotated[int, typer.Option("--players", "-p", min=2, max=5, help="Players.")] = 4,
    deck: Annotated[str, typer.Option("--deck", "-d", help="Deck (a preset or ten cards).")] = "base",
    seed: Annotated[int, typer.Option(help="Seed of the deals and of every bot.")] = 0,
    workers: Annotated[
        int | None, typer.Option(min=1, help="Processes playing games at once (default: one per core).")
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
    equal time (about 1 ms per simulation in 4-player base games here).
    """
    with user_errors():
        require_extra("rl", "oriflamme bench openspiel")
        from ..rl.openspiel_match import play_match

        with progress_bar() as progress:
            task = progress.add_task(f"{bot} against OpenSpiel ISMCTS", total=games)
            try:
                result = play_match(
                    bot,
                    players=players,
                    deck=deck,
                    games=games,
                    simulations=simulations,
                    seed=seed,
                    workers=workers or os.cpu_count() or 1,
                    on_game=lambda _: progress.advance(task),
                )
            except ValueError as exc:
                raise typer.BadParameter(str(exc)) from None
    report = {"build": build_kind(), **result.to_dict()}
    if out is not None:
        out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    if as_json:
        print_json(report)
        return
    lo, hi = result.win_rate_ci95
    Console().print(
        f"{bot} won {result.win_rate:.1%} [{lo:.1%}, {hi:.1%}] of {len(result.games)} {players}-player {deck} "
        f"games against {players - 1} OpenSpiel ISMCTSBot of {simulations} simulations (chance {1 / players:.0%}); "
        f"median ms per decision: {result.median_ms('bot'):.1f} against {result.median_ms('openspiel'):.1f}."
    )
