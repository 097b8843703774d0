"""The ``play`` and ``replay`` subcommands (registered in :mod:`oriflamme.cli`).

The heavy modules are imported when a command runs, so that other
subcommands start as fast as before.
"""

from __future__ import annotations

import os
from typing import Annotated

import typer

from ..commandline import CardsOption, JsonFlag, fail, load_cards, needs_extra, print_json


def _language(lang: str | None) -> str:
    from ..i18n import LANGUAGES, language_from_environment

    if lang is None:
        return language_from_environment()
    code = lang.strip().lower()
    if code not in LANGUAGES:
        raise fail(f"unknown language {lang!r}; languages: {', '.join(LANGUAGES)}")
    return code


def _check_save_target(path: str, overwrite: bool) -> None:
    """A save file can be written there, and nothing is overwritten without ``--force``."""
    from pathlib import Path

    target = Path(path)
    folder = target.parent
    if target.is_dir():
        raise fail(f"cannot save to {path}: it is a folder")
    if not folder.is_dir():
        raise fail(f"cannot save to {path}: there is no folder {folder}")
    if not os.access(folder, os.W_OK):
        raise fail(f"cannot save to {path}: the folder {folder} is not writable")
    if target.exists() and not overwrite:
        raise fail(f"{path} already exists: choose another file, or add --force to overwrite it")


def play_command(
    players: Annotated[
        int | None,
        typer.Option("--players", "-p", help="Number of players, 2 to 5 (default: the seats given, or 4)."),
    ] = None,
    seats: Annotated[
        str | None,
        typer.Option(
            "--seats",
            help="Who sits where, in seat order: 'you' for a person, or a bot spec (random, heuristic, "
            "ismcts:easy|normal|hard|expert|master, net, zero, zero-search:fast|normal|strong). Several 'you' = hot-seat. Missing seats get a bot. "
            "With --load: the seats saved in the file.",
        ),
    ] = None,
    deck: Annotated[
        str,
        typer.Option("--deck", "-d", help="Deck recipe: base, ablaze, alliance, random, or 10 card slugs."),
    ] = "base",
    lang: Annotated[
        str | None, typer.Option("--lang", help="Language: en, ru, uk, pl, fr (default: from the locale).")
    ] = None,
    seed: Annotated[
        int | None, typer.Option("--seed", help="Seed of the deal (default: random, shown).")
    ] = None,
    delay: Annotated[float, typer.Option("--delay", help="Seconds to pause after each bot move.")] = 0.8,
    save: Annotated[
        str | None,
        typer.Option("--save", help="Save the game to this file after every move and on quitting."),
    ] = None,
    load: Annotated[str | None, typer.Option("--load", help="Resume the game saved in this file.")] = None,
    force: Annotated[
        bool, typer.Option("--force", help="Let --save overwrite a file that already exists.", metavar="")
    ] = False,
    tutorial: Annotated[
        bool,
        typer.Option(
            "--tutorial",
            help="A guided first game: three players on a fixed deal, a lesson before each of your "
            "decisions (type skip to play on freely).",
            metavar="",
        ),
    ] = False,
    cards: CardsOption = None,
) -> None:
    """Play a game in the terminal against bots, or hot-seat with friends."""
    needs_extra("tui", "play")
    load_cards(cards)
    if tutorial:
        _play_tutorial(_language(lang), delay, save)
        return
    from rich.console import Console
    from rich.text import Text

    from ..engine.cards import SLUGS
    from ..engine.errors import OriflammeError
    from ..i18n import Translator
    from .app import PlayApp, PlayOptions, load_game, new_game, parse_seats

    t = Translator(_language(lang))
    if save is not None:
        _check_save_target(save, overwrite=force or save == load)
    try:
        if load is not None:
            saved = load_game(load)
            game = saved.game
            if players is not None and players != game.players:
                raise fail(f"{load} holds a {game.players}-player game, not {players}")
            # The same people and bots as when it was saved, unless --seats says otherwise.
            if seats is None and saved.seats is not None:
                seats = ",".join(saved.seats)
            seat_list = parse_seats(seats, game.players)
            used_seed = game.seed or 0
        else:
            seat_list = parse_seats(seats, players)
            game, used_seed = new_game(len(seat_list), deck, seed)
    except OriflammeError as exc:
        raise fail(str(exc)) from None
    console = Console(highlight=False)
    save_path = save or load
    while True:
        deck_names = ", ".join(t.card(SLUGS[k]) for k in game.recipe)
        console.print(Text(t("play.started", seed=used_seed, deck=deck_names), style="dim"))
        app = PlayApp(
            game,
            seat_list,
            t,
            console,
            PlayOptions(delay=max(0.0, delay), save_path=save_path, bot_seed=used_seed),
        )
        code = app.run()
        if not app.rematch:
            raise typer.Exit(code)
        # Another deal with the same seats and cards; the finished game's file is kept.
        game, used_seed = new_game(game.players, game.recipe, None)
        save_path = _next_free_name(save_path) if save_path is not None else None


def _play_tutorial(lang: str, delay: float, save: str | None) -> None:
    """The guided first game; a rematch after it is an ordinary game against two heuristic bots."""
    from rich.console import Console

    from ..i18n import Translator
    from .app import HUMAN, PlayApp, PlayOptions, new_game
    from .tutorial import TutorialApp

    t = Translator(lang)
    if save is not None:
        _check_save_target(save, overwrite=False)
    console = Console(highlight=False)
    app: PlayApp = TutorialApp(t, console, PlayOptions(delay=max(0.0, delay), save_path=save))
    while True:
        code = app.run()
        if not app.rematch:
            raise typer.Exit(code)
        game, used_seed = new_game(3, "base", None)
        options = PlayOptions(delay=max(0.0, delay), save_path=None, bot_seed=used_seed)
        app = PlayApp(game, [HUMAN, "heuristic", "heuristic"], t, console, options)


def _next_free_name(path: str) -> str:
    """``game.json`` -> ``game-2.json`` (or the first of -3, -4 ... that does not exist yet)."""
    from pathlib import Path

    p = Path(path)
    stem = p.stem
    base, _, number = stem.rpartition("-")
    start = int(number) + 1 if base and number.isdigit() else 2
    root = base if base and number.isdigit() else stem
    n = start
    while (candidate := p.with_name(f"{root}-{n}{p.suffix}")).exists():
        n += 1
    return str(candidate)


def replay_command(
    file: Annotated[str, typer.Argument(help="A save file (from --save or the save command).")],
    lang: Annotated[
        str | None, typer.Option("--lang", help="Language: en, ru, uk, pl, fr (default: from the locale).")
    ] = None,
    seat: Annotated[
        int | None,
        typer.Option("--seat", help="See the game as player N (1-based) saw it (default: as a spectator)."),
    ] = None,
    round_: Annotated[
        int | None,
        typer.Option("--round", "-r", help="Start at the beginning of round N (default: the deal)."),
    ] = None,
) -> None:
    """Step through a saved game: Enter or n next, p previous, r N round N, q quit."""
    needs_extra("tui", "replay")
    from rich.console import Console

    from ..engine.errors import OriflammeError
    from ..i18n import Translator
    from .replay import Replayer, load_steps

    t = Translator(_language(lang))
    try:
        steps = load_steps(file)
    except OriflammeError as exc:
        raise fail(str(exc)) from None
    players = steps[0].game.players
    if seat is not None and not 1 <= seat <= players:
        raise fail(f"--seat must be from 1 to {players}")
    replayer = Replayer(steps, t, Console(highlight=False), None if seat is None else seat - 1)
    start = 0 if round_ is None else replayer.round_start(round_)
    if start is None:
        raise fail(f"--round must be from 1 to {replayer.rounds}: the game reached round {replayer.rounds}")
    raise typer.Exit(replayer.run(start))


def review_command(
    file: Annotated[str, typer.Argument(help="A save file (from --save or the save command).")],
    seat: Annotated[
        int | None,
        typer.Option(
            "--seat",
            help="Review player N (1-based) only (default: the people at the table, or everybody "
            "when the file does not say who they were).",
        ),
    ] = None,
    level: Annotated[
        str,
        typer.Option(
            "--level",
            help="The search that judges the moves: easy, normal, hard, expert or a number of "
            "simulations per move (more is slower and surer).",
        ),
    ] = "normal",
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed",
            help="Seed of the search (default: the game's own seed, as the end-of-game review and the "
            "browser's use; the same seed gives the same review).",
        ),
    ] = None,
    lang: Annotated[
        str | None, typer.Option("--lang", help="Language: en, ru, uk, pl, fr (default: from the locale).")
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    """Go through a saved game move by move: what was played, what the search prefers, what it cost.

    Each decision is judged again from the deciding player's view at that
    moment, so the review never uses what that player could not see.
    """
    needs_extra("tui", "review")
    from rich.console import Console

    from ..bots.review import review_game, review_seed
    from ..bots.search_levels import parse_level
    from ..engine.action_text import action_text
    from ..engine.errors import OriflammeError
    from ..i18n import Translator
    from .replay import load_actions
    from .review import describer, render_review, review_json

    try:
        level_name, _ = parse_level(level)
    except ValueError as exc:
        raise fail(f"--level: {exc}") from None
    t = Translator(_language(lang))
    try:
        saved = load_actions(file)
    except OriflammeError as exc:
        raise fail(str(exc)) from None
    players = saved.setup.players
    if seat is not None and not 1 <= seat <= players:
        raise fail(f"--seat must be from 1 to {players}")
    if seat is not None:
        seats = [seat - 1]
    elif saved.seats is not None and "you" in saved.seats:
        seats = [s for s, who in enumerate(saved.seats) if who == "you"]
    else:
        seats = list(range(players))
    if seed is None:
        seed = review_seed(saved.setup)
    console = Console(highlight=False, stderr=as_json)
    # JSON keeps the actions' text forms, which any program can read back.
    describe = action_text if as_json else describer(t)
    with console.status(t("review.progress"), spinner="dots"):
        reviews = review_game(
            saved.setup, saved.actions, seats, level_name, seed, saved.version, describe=describe
        )
    if as_json:
        print_json(
            {
                "level": level_name,
                "seed": seed,
                "seats": {str(s + 1): review_json(s, [r for r in reviews if r.seat == s]) for s in seats},
            }
        )
        return
    for s in seats:
        console.print(render_review(t, s, [r for r in reviews if r.seat == s], level_name))
