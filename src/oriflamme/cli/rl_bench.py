"""``oriflamme bench rl``: the learning environments' speed (needs the ``rl`` extra, checked first)."""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from ..build import build_kind
from ..commandline import JsonFlag, print_json, user_errors
from ..extras import require_extra


def bench_rl_command(
    players: Annotated[
        list[int] | None,
        typer.Option(
            "--players", "-p", metavar="<int>", help="Player count(s) (repeatable; default: 2 and 4)."
        ),
    ] = None,
    deck: Annotated[
        list[str] | None,
        typer.Option("--deck", "-d", metavar="<str>", help="Deck(s) (repeatable; default: base)."),
    ] = None,
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="Random games per setup and loop.")] = 50,
    seed: Annotated[int, typer.Option(help="Seed of the first game.")] = 0,
    as_json: JsonFlag = False,
) -> None:
    """Steps per second of the PettingZoo, Gymnasium and OpenSpiel environments, and the encoder's share."""
    with user_errors():
        require_extra("rl", "oriflamme bench rl")
        from ..rl.bench import run_rl_bench

        rows = [run_rl_bench(p, d, games, seed) for d in (deck or ["base"]) for p in (players or [2, 4])]
    report: dict[str, Any] = {
        "build": build_kind(),
        "games": games,
        "rows": [
            {
                "players": r.players,
                "deck": r.deck,
                "steps": r.steps,
                "encoder_us": round(r.encoder_us, 1),
                "direct_us": round(r.direct_us, 1),
                "pettingzoo_us": round(r.pettingzoo_us, 1),
                "pettingzoo_steps_per_s": round(r.pettingzoo_steps_per_s),
                "pettingzoo_overhead_us": round(r.pettingzoo_overhead_us, 1),
                "raw_env_overhead_us": round(r.raw_overhead_us, 1),
                "gymnasium_us": round(r.gymnasium_us, 1),
                "gymnasium_steps_per_s": round(r.gymnasium_steps_per_s),
                "openspiel_us": None if r.openspiel_us is None else round(r.openspiel_us, 1),
                "openspiel_steps_per_s": None
                if r.openspiel_steps_per_s is None
                else round(r.openspiel_steps_per_s),
                "openspiel_vs_pettingzoo": None
                if r.openspiel_vs_pettingzoo is None
                else round(r.openspiel_vs_pettingzoo, 2),
                "pettingzoo_step_us": round(r.pettingzoo_step_us, 1),
                "openspiel_apply_us": None
                if r.openspiel_apply_us is None
                else round(r.openspiel_apply_us, 1),
                "openspiel_apply_vs_step": None
                if r.openspiel_apply_vs_step is None
                else round(r.openspiel_apply_vs_step, 2),
            }
            for r in rows
        ],
    }
    if as_json:
        print_json(report)
        return
    table = Table(title=f"Learning environments, µs per step of random play ({report['build']})")
    for name in (
        "deck",
        "players",
        "encoder",
        "PettingZoo",
        "its overhead",
        "raw env's",
        "Gymnasium",
        "OpenSpiel",
        "step / apply",
    ):
        table.add_column(name, justify="left" if name == "deck" else "right")
    for r in report["rows"]:
        table.add_row(
            r["deck"],
            str(r["players"]),
            f"{r['encoder_us']:.1f}",
            f"{r['pettingzoo_us']:.1f} ({r['pettingzoo_steps_per_s']:,}/s)",
            f"{r['pettingzoo_overhead_us']:.1f}",
            f"{r['raw_env_overhead_us']:.1f}",
            f"{r['gymnasium_us']:.1f} ({r['gymnasium_steps_per_s']:,}/s)",
            "n/a"
            if r["openspiel_us"] is None
            else f"{r['openspiel_us']:.1f} ({r['openspiel_steps_per_s']:,}/s)",
            f"{r['pettingzoo_step_us']:.1f} / "
            + ("n/a" if r["openspiel_apply_us"] is None else f"{r['openspiel_apply_us']:.1f}"),
        )
    console = Console()
    console.print(table)
    for r in report["rows"]:
        if r["openspiel_us"] is not None:
            console.print(
                f"{r['deck']}, {r['players']} players: an OpenSpiel decision takes "
                f"{r['openspiel_vs_pettingzoo']:.2f}× a PettingZoo step, apply_action() "
                f"{r['openspiel_apply_vs_step']:.2f}× env.step()."
            )
    console.print(
        "encoder: legal moves, view, observation and mask; overhead: the environment's time "
        "beyond the engine and the encoder (as env() returns it, and raw_env); "
        "Gymnasium: one seat against random bots, their moves included; OpenSpiel: the same games "
        "through python_oriflamme and pyspiel, an observation tensor and the legal actions per decision "
        "(n/a: OpenSpiel not installed, or a random deck); step / apply: PettingZoo's env.step() and "
        "OpenSpiel's apply_action() alone, the move with each one's bookkeeping."
    )
