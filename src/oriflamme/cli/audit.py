"""The ``audit`` subcommand: where a bot's choices differ from a search's (see :mod:`oriflamme.bots.audit`)."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from ..commandline import JsonFlag, fail, print_json, user_errors


def audit_command(
    bot: Annotated[
        str, typer.Option("--bot", help="The bot audited, in every seat (a bot spec).")
    ] = "heuristic",
    deck: Annotated[
        str, typer.Option("--deck", "-d", help="Deck recipe: base, ablaze, alliance, ...")
    ] = "alliance",
    positions: Annotated[int, typer.Option("--positions", "-n", help="Decisions reviewed.", min=1)] = 300,
    players: Annotated[int, typer.Option("--players", "-p", help="Players, 2 to 5.")] = 4,
    level: Annotated[
        str,
        typer.Option(
            "--level", help="The search that judges the choices (a level or a number of iterations)."
        ),
    ] = "hard",
    seed: Annotated[int, typer.Option("--seed", help="Seed of the games, the sample and the searches.")] = 0,
    rows: Annotated[
        int, typer.Option("--rows", help="Rows shown in the table (all with --json).", min=1)
    ] = 25,
    as_json: JsonFlag = False,
) -> None:
    """Review a sample of a bot's decisions with a search; sum what they cost by decision and card.

    The rows that lose the most win-probability points are where the bot (and, for the heuristic,
    every search's playouts) most needs a better rule. Each decision is judged from the deciding
    player's view only.
    """
    from ..bots.audit import audit_bot
    from ..bots.search_levels import parse_level

    try:
        parse_level(level)
    except ValueError as exc:
        raise fail(f"--level: {exc}") from None
    with user_errors():
        found = audit_bot(bot, deck, positions, players, level, seed=seed)
    if as_json:
        print_json(
            {
                "bot": bot,
                "deck": deck,
                "players": players,
                "level": level,
                "seed": seed,
                "positions": positions,
                "cost": round(sum(r.cost for r in found), 3),
                "rows": [
                    {
                        "decision": r.decision,
                        "card": r.card,
                        "positions": r.positions,
                        "disagreements": r.disagreements,
                        "cost": round(r.cost, 3),
                        "mistakes": r.mistakes,
                    }
                    for r in found
                ],
            }
        )
        return
    table = Table(
        title=f"{bot} judged by ismcts:{level}, {deck}, {players} players: {positions} decisions, "
        f"{sum(r.cost for r in found):.0f} points lost in all"
    )
    # decisions reviewed, share not the search's choice, points lost (all, per decision), mistakes
    for name in ("decision", "card", "n", "differs", "lost", "mean", "≥10"):
        table.add_column(name, justify="left" if name in ("decision", "card") else "right")
    for r in found[:rows]:
        table.add_row(
            r.decision,
            r.card,
            str(r.positions),
            f"{r.disagreements / r.positions:.0%}",
            f"{r.cost:.1f}",
            f"{r.mean_cost:.1f}",
            str(r.mistakes),
        )
    Console(highlight=False).print(table)
