"""``oriflamme selfplay``: train the ``zero`` bot's network by self-play on the vector engine.

A run lives in a directory (checkpoint, log, networks: :mod:`oriflamme.rl.selfplay.loop`);
the same command on the same directory takes it up where it stopped. Every
``--evaluate-every`` iterations the network plays the gauntlet through the
tournament runner, and the best network is kept.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console

from ..commandline import JsonFlag, print_json, progress_bar, stop_on_sigterm, user_errors
from ..engine.errors import SetupError
from ..extras import require_extra
from .train import _hidden

if TYPE_CHECKING:
    from ..rl.selfplay import Best, Evaluate, Progress

#: The gauntlet's opponents unless --gauntlet says otherwise (``ismcts:master`` takes about an hour
#: per 100 games on two cores: add it for the runs that can afford it).
DEFAULT_GAUNTLET = "heuristic,ismcts:normal"
#: ``--anchor-weight`` when only ``--anchor`` is given (docs/training.md, "Anchored").
DEFAULT_ANCHOR_WEIGHT = 0.05


def _evaluator(
    opponents: list[str],
    players: int,
    deck: str,
    games: int,
    seed: int,
    workers: int | None,
    keep_best_by: str | None = None,
) -> Evaluate:
    """The gauntlet, then the network against the best so far.

    Which network is kept: by default the new one takes the best's place if
    it beats three copies of it more often than chance (a share of the wins
    above 1/players). With ``keep_best_by`` it takes the place if its share
    against that gauntlet opponent is higher than the best's, on the same
    deals: a network that beats its own past versions need not be the one
    that does best against the search, which is what the targets measure.
    """
    from ..tournament.gauntlet import play_gauntlet

    kw: dict[str, Any] = {"players": players, "deck": deck, "games": games, "seed": seed, "workers": workers}

    def evaluate(latest: Path, best: Best | None) -> tuple[dict[str, Any], bool]:
        me = f"zero:{latest}"
        rows = play_gauntlet(me, opponents, **kw)
        record: dict[str, Any] = {"gauntlet": [row.to_dict() for row in rows]}
        if keep_best_by is not None:
            record["kept_by"] = keep_best_by
        if best is None:
            return record, True
        row = play_gauntlet(me, [f"zero:{best.path}"], **kw)[0]
        record["against_best"] = {**row.to_dict(), "opponent": "best"}
        if keep_best_by is None:
            return record, row.share > 1 / players
        theirs = _row_against(best.record, keep_best_by, kw)
        if theirs is None:  # lost from the log, or measured on other games: measure it again
            theirs = play_gauntlet(f"zero:{best.path}", [keep_best_by], **kw)[0].to_dict()
            record["best_measured_again"] = theirs
        mine = next(r for r in rows if r.opponent == keep_best_by)
        return record, mine.share > theirs["win_share"]

    return evaluate


def _row_against(record: dict[str, Any] | None, opponent: str, kw: dict[str, Any]) -> dict[str, Any] | None:
    """An evaluation's logged gauntlet row against ``opponent`` in games like those of ``kw`` (the
    same player count, deck and number of games, so the same deals), or None."""
    for row in (record or {}).get("gauntlet", []):
        if row.get("opponent") == opponent and all(row.get(k) == kw[k] for k in ("players", "deck", "games")):
            return dict(row)
    return None


def _summary(evaluation: dict[str, Any]) -> str:
    parts = [f"{r['opponent']} {100 * r['win_share']:.0f}%" for r in evaluation["gauntlet"]]
    if "against_best" in evaluation:
        parts.append(f"best {100 * evaluation['against_best']['win_share']:.0f}%")
    return ", ".join(parts) + (" (new best)" if evaluation["best"] else "")


def _file_trunk(init: str) -> tuple[int, ...]:
    """The trunk of the network ``--init`` names: a run started from it keeps it unless told to grow."""
    from ..bots.net import default_network
    from ..bots.net.model import WeightsError, load

    if init == "net":
        return default_network().hidden
    try:
        return load(init).hidden
    except WeightsError as exc:
        raise typer.BadParameter(f"--init: {exc}") from None


def _network_file(option: str, name: str) -> str:
    """A network an option names, as the run records it (an absolute path, or ``net``), read once
    here so that a file that is not a network for this program is refused before anything starts."""
    from ..bots.net.model import WeightsError, load

    if name == "net":
        return name
    if not Path(name).is_file():
        raise typer.BadParameter(f"{option}: no file {name!r}")
    try:
        load(name)
    except WeightsError as exc:
        raise typer.BadParameter(f"{option}: {exc}") from None
    return str(Path(name).resolve())


def _plot(directory: Path, out: Path) -> None:
    """Draw the learning curve of the run in ``directory`` to ``out``."""
    with user_errors():
        require_extra("analysis", "oriflamme selfplay --plot")
        from ..analysis.curve import learning_curve, read_log

        log = directory / "log.jsonl"
        if not log.is_file():
            raise typer.BadParameter(f"{str(directory)!r} has no log.jsonl: not a self-play run")
        if out.suffix.lower() not in (".png", ".svg", ".pdf"):
            raise typer.BadParameter(f"--plot: {str(out)!r} should end in .png, .svg or .pdf")
        try:
            figure = learning_curve(read_log(log))
        except ValueError as exc:
            raise typer.BadParameter(str(exc)) from None
        figure.savefig(out, dpi=150)
    typer.echo(f"wrote {out}")


def selfplay_command(
    directory: Annotated[
        Path, typer.Argument(metavar="<dir>", help="The run's directory (made if missing).")
    ],
    iterations: Annotated[
        int, typer.Option("--iterations", "-i", min=1, help="Train until this iteration.")
    ] = 1000,
    setups: Annotated[
        str | None,
        typer.Option(
            metavar="<setups>",
            help="PLAYERS:DECK,... to train on (decks: base, ablaze, alliance, random), or all. [default: all]",
        ),
    ] = None,
    batch: Annotated[int | None, typer.Option(min=1, help="Games at once per setup. [default: 256]")] = None,
    horizon: Annotated[int | None, typer.Option(min=1, help="Steps per rollout. [default: 128]")] = None,
    block: Annotated[
        int | None, typer.Option(min=1, help="Iterations in a row on one setup before the next. [default: 8]")
    ] = None,
    hidden: Annotated[
        str | None,
        typer.Option(
            help="The trunk's layer widths; with --init, the file's, and a larger trunk grows it "
            "(wider layers, layers added after its last), playing as the file does. [default: 256,256]"
        ),
    ] = None,
    learning_rate: Annotated[
        float | None, typer.Option(min=1e-7, max=1.0, help="Adam's step size. [default: 3e-4]")
    ] = None,
    epochs: Annotated[
        int | None, typer.Option(min=1, help="Passes over each rollout (1: actor-critic). [default: 4]")
    ] = None,
    minibatches: Annotated[
        int | None, typer.Option(min=1, help="Parts of each rollout per pass. [default: 4]")
    ] = None,
    clip: Annotated[float | None, typer.Option(min=0.0, help="PPO's ratio clip. [default: 0.2]")] = None,
    entropy: Annotated[float | None, typer.Option(min=0.0, help="Entropy bonus. [default: 0.01]")] = None,
    seed: Annotated[
        int | None, typer.Option(help="Seed of the weights, the games and the updates. [default: 0]")
    ] = None,
    bootstrap: Annotated[
        bool | None,
        typer.Option(
            "--bootstrap/--no-bootstrap",
            help="Decisions of games that go on past the rollout: target the value head's latest "
            "estimate (or leave them out). [default: leave out]",
        ),
    ] = None,
    rivals: Annotated[
        float | None,
        typer.Option(
            help="Share of games where the other seats are played by a past network, not the one "
            "being trained. [default: 0]",
        ),
    ] = None,
    rival_every: Annotated[
        int | None, typer.Option(min=1, help="Iterations between snapshots for the rivals. [default: 10]")
    ] = None,
    rival_pool: Annotated[
        int | None, typer.Option(min=1, help="Past networks the rivals are drawn from. [default: 4]")
    ] = None,
    rivals_from: Annotated[
        str | None,
        typer.Option(
            metavar="<files>",
            help="The rivals are these weights files, comma-separated ('net': the net bot's network), "
            "fixed, instead of past networks. [default: past networks]",
        ),
    ] = None,
    score_weight: Annotated[
        float | None,
        typer.Option(
            min=0.0,
            max=1.0,
            help="Weight of the final score margin (IP less the table's mean, / 10) added to the "
            "win in the reward, clipped to [-1, 1]. [default: 0]",
        ),
    ] = None,
    init: Annotated[
        str | None,
        typer.Option(
            metavar="<file>",
            help="Start from this weights file instead of random weights ('net': the net bot's network).",
        ),
    ] = None,
    anchor: Annotated[
        str | None,
        typer.Option(
            metavar="<file>",
            help="Keep the policy near this weights file's ('net': the net bot's network): the loss "
            "adds --anchor-weight times the KL divergence from it.",
        ),
    ] = None,
    anchor_weight: Annotated[
        float | None,
        typer.Option(
            min=0.0,
            max=100.0,
            help=f"Weight of the divergence from --anchor. [default: {DEFAULT_ANCHOR_WEIGHT}]",
        ),
    ] = None,
    evaluate_every: Annotated[int, typer.Option(min=1, help="Iterations between evaluations.")] = 100,
    gauntlet: Annotated[
        str,
        typer.Option(metavar="<specs>", help="Opponents of the evaluation, comma-separated ('' for none)."),
    ] = DEFAULT_GAUNTLET,
    gauntlet_games: Annotated[int, typer.Option(min=1, help="Games against each opponent.")] = 100,
    keep_best_by: Annotated[
        str | None,
        typer.Option(
            metavar="<spec>",
            help="Keep as best the network with the highest share against this gauntlet opponent "
            "(default: the one that beats the best so far more often than chance).",
        ),
    ] = None,
    gauntlet_players: Annotated[int, typer.Option(min=2, max=5, help="Players of the evaluation games.")] = 4,
    gauntlet_deck: Annotated[str, typer.Option(help="Deck of the evaluation games.")] = "base",
    checkpoint_every: Annotated[int, typer.Option(min=1, help="Iterations between checkpoints.")] = 10,
    snapshot_every: Annotated[
        int | None,
        typer.Option(
            min=1,
            help="Also keep the network every this many iterations, as DIR/snapshots/itN.npz, "
            "to measure afterwards. [default: none]",
        ),
    ] = None,
    plot: Annotated[
        Path | None,
        typer.Option(
            metavar="<file>",
            help="Only draw the run's learning curve from its log to this file (.png, .svg, .pdf); no training.",
        ),
    ] = None,
    workers: Annotated[
        int | None, typer.Option(min=1, help="Processes playing the evaluation (default: one per core).")
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    """Train a network by self-play on the batched engine (needs the ``train`` extra).

    Every seat of every game is played by the network being trained (PPO with
    the games' own outcomes as targets; docs/training.md), or with ``--rivals``
    one seat of that share of the games, past networks (or ``--rivals-from``'s) playing the
    others. Settings are fixed
    when a run starts: run the command again on the same directory, without
    them, to go on after a stop. Play the result with ``--bots zero:DIR/best.npz``.
    """
    if plot is not None:
        _plot(directory, plot)
        return
    with user_errors():
        require_extra("train", "oriflamme selfplay")
        from ..bots import parse_bot_spec
        from ..rl.selfplay import CheckpointError, SelfPlayConfig, open_run, parse_setups

        given: dict[str, Any] = {
            "batch": batch,
            "horizon": horizon,
            "block": block,
            "learning_rate": learning_rate,
            "epochs": epochs,
            "minibatches": minibatches,
            "clip": clip,
            "entropy": entropy,
            "seed": seed,
            "bootstrap": bootstrap,
            "rivals": rivals,
            "rival_every": rival_every,
            "rival_pool": rival_pool,
            "score_weight": score_weight,
        }
        try:
            if setups is not None:
                given["setups"] = parse_setups(setups)
            if hidden is not None:
                given["hidden"] = _hidden(hidden)
            if init is not None and init != "net":
                if not Path(init).is_file():
                    raise typer.BadParameter(f"--init: no file {init!r}")
                given["init"] = str(Path(init).resolve())
            elif init is not None:
                given["init"] = init
            if init is not None and hidden is None:
                given["hidden"] = _file_trunk(init)
            if anchor is not None:
                given["anchor"] = _network_file("--anchor", anchor)
                given["anchor_weight"] = DEFAULT_ANCHOR_WEIGHT if anchor_weight is None else anchor_weight
            elif anchor_weight is not None:
                raise ValueError("--anchor-weight: give the network to keep near with --anchor")
            if rivals_from is not None:
                names = [n.strip() for n in rivals_from.split(",") if n.strip()]
                if not names:
                    raise ValueError("--rivals-from: name at least one weights file (or 'net')")
                given["rivals_from"] = tuple(_network_file("--rivals-from", n) for n in names)
        except ValueError as exc:
            raise typer.BadParameter(str(exc)) from None
        given = {k: v for k, v in given.items() if v is not None}
        opponents = [s.strip() for s in gauntlet.split(",") if s.strip()]
        for spec in opponents:
            parse_bot_spec(spec, custom=True)
        if keep_best_by is not None and keep_best_by not in opponents:
            raise typer.BadParameter(
                f"--keep-best-by: {keep_best_by!r} is not one of the gauntlet's opponents ({gauntlet!r})"
            )
        from ..engine.game import Game

        Game.new(players=gauntlet_players, deck=gauntlet_deck, seed=0)  # a bad deck fails here
        if directory.exists() and not directory.is_dir():
            raise typer.BadParameter(f"{str(directory)!r} is not a directory")
        resuming = (directory / "checkpoint.npz").exists()
        try:
            config = dataclasses.replace(SelfPlayConfig(setups=parse_setups("all")), **given)
            config.check()
            import jax

            # A resumed run need not compile its setups again (unless JAX is told to cache elsewhere).
            if not getattr(jax.config, "jax_compilation_cache_dir", None):
                jax.config.update("jax_compilation_cache_dir", str(directory / "jax-cache"))  # type: ignore[no-untyped-call]
            run = open_run(directory, (config if given else None) if resuming else config)
        except (ValueError, CheckpointError) as exc:
            raise SetupError(str(exc)) from None
        evaluate = (
            _evaluator(
                opponents,
                gauntlet_players,
                gauntlet_deck,
                gauntlet_games,
                run.config.seed,
                workers,
                keep_best_by,
            )
            if opponents
            else None
        )
        console = Console(stderr=True)
        start = run.state.iteration
        if resuming:
            console.print(f"resuming {directory} at iteration {start}")
        console.print(
            f"{len(run.config.setups)} setups ({', '.join(map(str, run.config.setups))}); the first iteration "
            "of each compiles it (about a minute per setup on two cores)"
        )
        last: dict[str, Any] | None = None
        with progress_bar() as progress:
            task = progress.add_task("starting", total=max(0, iterations - start))

            def report(p: Progress) -> None:
                nonlocal last
                if p.evaluation is not None:
                    last = p.evaluation
                    if not as_json:
                        console.print(f"iteration {p.iteration}: {_summary(p.evaluation)}")
                evaluation = f" · {_summary(last)}" if last else ""
                progress.update(
                    task,
                    advance=1,
                    description=f"{p.setup} {p.games_per_s:,.0f} games/s{evaluation}",
                )

            try:
                with stop_on_sigterm():
                    run.train(
                        iterations,
                        evaluate=evaluate,
                        evaluate_every=evaluate_every,
                        checkpoint_every=checkpoint_every,
                        snapshot_every=snapshot_every,
                        report=report,
                    )
            except KeyboardInterrupt:
                console.print(
                    f"stopped at iteration {run.state.iteration}; the same command goes on from there"
                )
                raise typer.Exit(130) from None
        run.write_network(directory / "latest.npz")
    result = {
        "directory": str(directory),
        "iteration": run.state.iteration,
        "steps": run.state.steps,
        "games": run.state.finished,
        "latest": str(directory / "latest.npz"),
        "best": str(run.best) if run.best.exists() else None,
        "last_evaluation": last,
    }
    if as_json:
        print_json(result)
        return
    typer.echo(
        f"iteration {run.state.iteration}: {run.state.finished:,} games played; wrote {directory / 'latest.npz'}"
        + (f"; best so far {run.best}" if run.best.exists() else "")
    )
