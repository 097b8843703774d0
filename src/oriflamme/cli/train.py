"""``oriflamme train``: train a ``net`` bot network from search games (needs the ``train`` extra, checked first)."""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console

from ..bots import parse_bot_spec
from ..commandline import CardsOption, JsonFlag, load_cards, print_json, progress_bar, user_errors
from ..engine.errors import SetupError
from ..engine.game import Game
from ..extras import require_extra
from ..files import write_whole

if TYPE_CHECKING:
    from ..bots.net.model import Network


def _hidden(text: str) -> tuple[int, ...]:
    try:
        widths = tuple(int(part) for part in text.split(","))
    except ValueError:
        raise typer.BadParameter(
            f"--hidden: comma-separated layer widths, e.g. 256,256; got {text!r}"
        ) from None
    if not widths or any(not 1 <= w <= 4096 for w in widths) or len(widths) > 8:
        raise typer.BadParameter(f"--hidden: 1 to 8 widths of 1 to 4096, got {text!r}")
    return widths


def _search_level(search: str, level: str) -> str:
    """The level of ``search``, checked (a thinking time is refused: it would make the examples
    depend on the machine)."""
    from ..rl.dataset import SEARCHES

    if search not in SEARCHES:
        raise typer.BadParameter(f"--search {search!r}: choose among {', '.join(SEARCHES)}")
    if search == "zero-search":
        from ..bots.zero_levels import zero_iterations

        try:
            zero_iterations(level)
        except ValueError as exc:
            raise typer.BadParameter(f"--level: {exc}") from None
        return level
    from ..bots.search_levels import parse_level

    try:
        level, budget = parse_level(level)
    except ValueError as exc:
        raise SetupError(str(exc)) from None
    if budget.timed:
        raise typer.BadParameter(
            f"--level {level}: a thinking time makes the examples depend on the machine; "
            "give a level or a number of iterations"
        )
    return level


def _check_search(players: int, deck: str, level: str, search: str, weights: Path | None) -> None:
    """Refuse a network the search cannot use (hinted, or trained with other cards) before any game."""
    from ..rl.dataset import generate

    try:
        generate(0, players=players, deck=deck, level=level, search=search, weights=weights)
    except ValueError as exc:
        raise typer.BadParameter(f"--search {search}: {exc}") from None


def _starting_network(path: Path | None) -> Network | None:
    """The --init network (read before any game is played, so a bad file costs nothing)."""
    if path is None:
        return None
    from ..bots.net import WeightsError, load

    try:
        return load(path)
    except WeightsError as exc:
        raise typer.BadParameter(f"--init: {exc}") from None


def _output(option: str, path: Path) -> Path:
    """An output file, checked before any work: ``.npz`` added as numpy would, its directory present."""
    if path.suffix != ".npz":
        path = path.with_name(path.name + ".npz")
    if not path.parent.is_dir():
        raise typer.BadParameter(f"{option}: directory {str(path.parent)!r} does not exist")
    if path.is_dir():
        raise typer.BadParameter(f"{option}: {str(path)!r} is a directory")
    return path


def _finite(value: float) -> float | None:
    """A measurement for JSON: NaN (nothing held out) becomes null."""
    return None if math.isnan(value) else value


def train_command(
    out: Annotated[
        Path, typer.Option("--out", "-o", metavar="<file>", help="Weights file to write (.npz).")
    ] = Path("net.npz"),
    games: Annotated[
        int, typer.Option("--games", "-n", min=0, help="Search games to play for examples (0: only --data).")
    ] = 200,
    data: Annotated[
        list[Path] | None,
        typer.Option(
            "--data", metavar="<file>", help="Examples saved earlier with --save-data (repeatable)."
        ),
    ] = None,
    save_data: Annotated[
        Path | None, typer.Option("--save-data", metavar="<file>", help="Also save the games' examples here.")
    ] = None,
    level: Annotated[
        str, typer.Option(help="The search's level, which plays every seat and is imitated.")
    ] = "normal",
    search: Annotated[
        str,
        typer.Option(
            metavar="<search>",
            help="The search that plays and labels the games: ismcts, or zero-search around the "
            "--init network (or zero's own), whose examples then improve that network.",
        ),
    ] = "ismcts",
    init: Annotated[
        Path | None,
        typer.Option(
            metavar="<file>",
            help="Start from this weights file instead of random weights (its layer widths, and its "
            "hint if it has one).",
        ),
    ] = None,
    deck: Annotated[str, typer.Option("--deck", "-d", help="Deck of the games.")] = "base",
    players: Annotated[int, typer.Option("--players", "-p", min=2, max=5, help="Players per game.")] = 4,
    seed: Annotated[int, typer.Option(help="Seed of the games and of the training.")] = 0,
    workers: Annotated[
        int | None, typer.Option(min=1, help="Processes playing games (default: one per core).")
    ] = None,
    movers: Annotated[
        str | None,
        typer.Option(
            metavar="<specs>",
            help="Comma-separated bot per entrant whose moves are played while the search labels them "
            "('search': the search's own), e.g. net:net.npz,heuristic,heuristic,heuristic.",
        ),
    ] = None,
    epochs: Annotated[int, typer.Option(min=1, help="Passes over the examples.")] = 10,
    hidden: Annotated[
        str | None, typer.Option(help="The trunk's layer widths (default: 256,256, or --init's).")
    ] = None,
    batch_size: Annotated[int, typer.Option(min=1, help="Examples per gradient step.")] = 256,
    learning_rate: Annotated[float, typer.Option(min=1e-6, max=1.0, help="Adam's step size.")] = 1e-3,
    hint: Annotated[
        bool | None,
        typer.Option(
            "--hint/--no-hint",
            help="Let the network add a learned bonus to the heuristic policy's move (--no-hint: the "
            "network alone; default: on, or as the --init network has it).",
            show_default=False,
        ),
    ] = None,
    holdout: Annotated[
        float, typer.Option(min=0.0, max=0.5, help="Share of the examples (the last games) kept to measure.")
    ] = 0.1,
    cards: CardsOption = None,
    as_json: JsonFlag = False,
) -> None:
    """Train a network for the ``net`` bot: imitate a search's choices and predict the outcome.

    Plays GAMES games, the search labelling every decision (it also plays
    every seat unless --movers names other players), adds any --data, then
    trains and writes OUT; play it with ``--bots net:OUT`` (``zero:OUT`` without the hint). With --search
    zero-search and --init, the search around a network labels the games and
    the network learns from it: one step of expert iteration.
    """
    load_cards(cards)
    with user_errors():
        require_extra("train", "oriflamme train")
        start = _starting_network(init)
        widths = _hidden(hidden) if hidden is not None else start.hidden if start else (256, 256)
        if start is not None and widths != start.hidden:
            raise typer.BadParameter(
                f"--hidden {hidden}: the --init network's layers are {','.join(map(str, start.hidden))}"
            )
        if games == 0 and not data:
            raise typer.BadParameter("nothing to train on: give --games > 0 or --data")
        out = _output("--out", out)
        if save_data is not None:
            save_data = _output("--save-data", save_data)
            if save_data.resolve() == out.resolve():
                raise typer.BadParameter("--save-data and --out name the same file")
            if init is not None and save_data.resolve() == init.resolve():
                raise typer.BadParameter("--save-data and --init name the same file")
            if games == 0:
                raise typer.BadParameter("--save-data saves the games played: give --games > 0")
        if movers is not None and games == 0:
            raise typer.BadParameter("--movers plays games: give --games > 0")
        level = _search_level(search, level)
        # The network zero-search searches with (the one trained), and whether the trained one has
        # the hint: as asked, else as the --init network has it (on for a fresh one).
        search_weights = init if search == "zero-search" else None
        with_hint = hint if hint is not None else start is None or start.heuristic_bonus != 0
        if search == "zero-search" and hint:
            raise typer.BadParameter(
                "--hint: zero-search searches with networks that play without the hint; leave it out"
            )
        mover_specs: list[str | None] | None = None
        if movers is not None:
            mover_specs = [None if m.strip() == "search" else m.strip() for m in movers.split(",")]
            if len(mover_specs) != players:
                raise typer.BadParameter(
                    f"--movers: {players} players need {players} specs, got {len(mover_specs)}"
                )
            for spec in mover_specs:
                if spec is not None:
                    parse_bot_spec(spec, custom=True)
        if games:
            Game.new(players=players, deck=deck, seed=0)  # a bad deck or player count fails here
            _check_search(players, deck, level, search, search_weights)
        from ..rl.dataset import Examples, concatenate, generate, load, save

        parts: list[Examples] = []
        for path in data or []:
            try:
                parts.append(load(path))
            except ValueError as exc:
                raise typer.BadParameter(f"--data {path}: {exc}") from None
        if games:
            with progress_bar() as progress:
                task = progress.add_task("games", total=games)
                examples = generate(
                    games,
                    players=players,
                    deck=deck,
                    level=level,
                    seed=seed,
                    workers=workers or os.cpu_count() or 1,
                    progress=lambda k: progress.advance(task, k),
                    movers=mover_specs,
                    search=search,
                    weights=search_weights,
                )
            if save_data is not None:
                write_whole(save_data, lambda p: save(examples, p))
            parts.append(examples)
        examples = parts[0] if len(parts) == 1 else concatenate(parts)
        from ..bots.net import save as save_network
        from ..rl.train import EpochStats, fit

        console = Console(stderr=True)
        console.print(f"{len(examples):,} examples; training a {'-'.join(map(str, widths))} network")
        with progress_bar() as progress:
            task = progress.add_task("epoch 1", total=epochs * (len(examples) - int(len(examples) * holdout)))

            def on_epoch(s: EpochStats) -> None:
                progress.update(task, description=f"epoch {s.epoch + 1}")
                if not as_json:
                    console.print(
                        f"epoch {s.epoch}: loss {s.train_loss:.3f}; held out: policy {s.holdout_policy_loss:.3f}, "
                        f"agrees with the search {100 * s.holdout_agreement:.1f}%, "
                        f"value error {s.holdout_value_mse:.3f} ({s.seconds:.0f} s)"
                    )

            try:
                network, history = fit(
                    examples,
                    hidden=widths,
                    epochs=epochs,
                    batch_size=batch_size,
                    learning_rate=learning_rate,
                    holdout=holdout,
                    heuristic_hint=with_hint,
                    seed=seed,
                    on_epoch=on_epoch,
                    on_batch=lambda k: progress.advance(task, k),
                    init=start,
                )
            except ValueError as exc:
                raise typer.BadParameter(str(exc)) from None
        write_whole(out, lambda p: save_network(network, p))
    report: dict[str, Any] = {
        "out": str(out),
        "examples": len(examples),
        "hidden": list(widths),
        "history": [
            {k: _finite(v) if isinstance(v, float) else v for k, v in vars(h).items()} for h in history
        ],
    }
    if as_json:
        print_json(report)
        return
    # Plain text: a wrapped line would break the command in the middle of the path.
    # A network without the hint is a zero network: zero and zero-search play it as trained.
    kind = "net" if network.heuristic_bonus else "zero"
    typer.echo(f"wrote {out}; try it: oriflamme tournament --bots {kind}:{out},heuristic,heuristic,heuristic")
