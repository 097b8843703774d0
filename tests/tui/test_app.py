"""The play loop, the end-of-game report, replays and the command's errors, run in-process."""

from __future__ import annotations

import io
import itertools
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from oriflamme import Game, parse_action
from oriflamme.cli.app import app as cli_app
from oriflamme.engine.errors import SetupError
from oriflamme.i18n import Translator
from oriflamme.notation.position import build_position, pile_slugs
from oriflamme.tui.app import PlayApp, PlayOptions, final_scores, parse_seats, save_game
from oriflamme.tui.replay import Replayer, load_steps

runner = CliRunner()


def console() -> tuple[Console, io.StringIO]:
    buf = io.StringIO()
    return Console(file=buf, width=80, height=40, color_system=None), buf


def scripted(answers: list[str], con: Console, default: str = "1") -> Callable[[str], str]:
    """A person who types ``answers`` in order, then ``default`` forever; EOF for a None answer."""

    def read(prompt: str) -> str:
        answer = answers.pop(0) if answers else default
        con.print(prompt + answer)
        return answer

    return read


def test_a_game_against_bots_is_played_to_its_end_in_every_language() -> None:
    """The loop reaches the final scores whatever the language, with no unfilled message."""
    for lang in ("en", "ru", "uk", "pl", "fr"):
        con, buf = console()
        game = Game.new(players=3, deck="ablaze", seed=21)
        t = Translator(lang)
        result = PlayApp(game, ["you", "random", "random"], t, con, PlayOptions(delay=0),
                         read_line=scripted([], con)).run()  # fmt: skip
        assert result == 0 and game.is_over()
        out = buf.getvalue()
        assert t("end.title") in out
        assert not re.search(r"\{\w+\}|\b(event|decision|option|ui)\.[a-z_]", out), lang


def test_bots_are_paced_by_the_delay_and_people_are_not() -> None:
    """--delay pauses once after each bot move, never after a person's."""
    con, _ = console()
    game = Game.new(players=3, deck="base", seed=2)
    pauses: list[float] = []
    PlayApp(game, ["you", "random", "random"], Translator("en"), con, PlayOptions(delay=0.5),
            read_line=scripted([], con), sleep=pauses.append).run()  # fmt: skip
    replay = Game.new(players=3, deck="base", seed=2)
    bot_moves = 0
    for action in game.history:
        bot_moves += replay.current_player() != 0
        replay.apply(action)
    assert set(pauses) == {0.5}
    assert len(pauses) == bot_moves


def test_hot_seat_asks_for_a_hand_over_whenever_the_person_changes() -> None:
    """With two people, a hand-over screen comes between their turns; with one, never."""
    con, buf = console()
    game = Game.new(players=3, deck="base", seed=8)
    prompts: list[str] = []

    def read(prompt: str) -> str:
        prompts.append(prompt)
        if "to see your cards" in prompt:
            # An empty or wrong answer never passes the hand-over: only the named player's.
            if prompts.count(prompt) == 1:
                return ""
            return prompt.split(",")[0]
        return "1"

    PlayApp(game, ["you", "you", "random"], Translator("en"), con, PlayOptions(delay=0), read_line=read).run()
    assert game.is_over()
    turns = [p for p in prompts if p.endswith("> ")]
    # Every change of person at the keyboard is preceded by a hand-over.
    for before, after in itertools.pairwise(prompts):
        if before.endswith("> ") and after.endswith("> "):
            assert before == after
    handovers = [p for p in prompts if "to see your cards" in p]
    assert len(handovers) >= 6
    # The first hand-over of each player was answered with Enter and asked again.
    assert {p for p in handovers if handovers.count(p) >= 2} == {
        "p1, type p1 to see your cards: ",
        "p2, type p2 to see your cards: ",
    }
    assert {"p1> ", "p2> "} <= set(turns)
    assert "Pass the keyboard to" in buf.getvalue()

    solo, solo_buf = console()
    PlayApp(Game.new(players=3, deck="base", seed=8), ["you", "random", "random"], Translator("en"), solo,
            PlayOptions(delay=0), read_line=scripted([], solo)).run()  # fmt: skip
    assert "Pass the keyboard" not in solo_buf.getvalue()


def test_end_of_input_saves_when_a_save_file_is_known(tmp_path: Path) -> None:
    """EOF at a prompt: no question, the game is saved, exit code 0."""
    con, buf = console()
    game = Game.new(players=3, deck="base", seed=1)
    path = tmp_path / "g.json"

    def read(prompt: str) -> str:
        raise EOFError

    assert PlayApp(game, ["you", "random", "random"], Translator("en"), con,
                   PlayOptions(delay=0, save_path=str(path)), read_line=read).run() == 0  # fmt: skip
    assert path.exists()
    assert "Game saved to" in buf.getvalue()


def test_the_tie_break_is_explained_at_the_end() -> None:
    """docs/rules.md §3: tied on IP, most controlled positions wins; the report says so."""
    g = build_position(3, "base", queue="p1:~heir p2:~heir p1:~lord", scores=[5, 5, 1], round=6)
    while not g.is_over():
        g.apply(parse_action(g, "keep"))
    assert g.winners == (0,)
    con, buf = console()
    con.print(final_scores(g, Translator("en")))
    text = " ".join(buf.getvalue().replace("│", " ").split())
    assert "p1 and p2 are tied with 5 IP." in text
    assert "Tie-break, positions whose top card each controls: p1 2 positions, p2 1 position." in text
    assert "p1 wins with 5 IP!" in text


def test_a_tie_that_stays_tied_is_a_shared_win() -> None:
    """Same IP and same number of positions: the win is shared (docs/rules.md §3 ruling)."""
    g = build_position(3, "base", queue="p1:~heir p2:~heir", scores=[4, 4, 1], round=6)
    while not g.is_over():
        g.apply(parse_action(g, "keep"))
    con, buf = console()
    con.print(final_scores(g, Translator("fr")))
    text = " ".join(buf.getvalue().replace("│", " ").split())
    assert "p1 et p2 partagent la victoire avec 4 points d'influence." in text


def test_replay_steps_forward_and_back_through_a_saved_game(tmp_path: Path) -> None:
    """`replay` deals the saved setup again and shows each action's events; n, p and q move."""
    game = Game.new(players=3, deck="alliance", seed=5)
    PlayApp(game, ["random"] * 3, Translator("en"), console()[0], PlayOptions(delay=0)).run()
    path = tmp_path / "done.json"
    save_game(game, path)
    steps = load_steps(str(path))
    assert len(steps) == len(game.history) + 1
    assert steps[-1].game.score == game.score
    con, buf = console()
    keys = ["n", "", "p", "x", "p", "p", "q"]
    assert Replayer(steps, Translator("en"), con, seat=0, read_line=scripted(keys, con)).run() == 0
    out = buf.getvalue()
    assert "Replay · step 2 of" in out and "Replay · step 1 of" in out
    assert "Keys: Enter or n next, p previous, r N round N, q quit." in out
    assert "This is the first step." in out


def test_seats_are_checked_and_filled_with_bots() -> None:
    """--seats: 'you' or a bot spec per seat; missing seats get the default bot; errors name the problem."""
    assert parse_seats(None, None)[0] == "you" and len(parse_seats(None, None)) == 4
    assert parse_seats("you,random", 3)[:2] == ["you", "random"]
    assert parse_seats("human,you,random", None) == ["you", "you", "random"]
    assert parse_seats("you,ismcts:2.50s,ismcts:300", None) == ["you", "ismcts:2.5s", "ismcts:300"]
    for bad, players in (
        ("you,ismcts:0", None),
        ("you,dragon", None),
        ("you,,random", None),
        ("you,random,random", 2),
        ("you", 6),
    ):
        with pytest.raises(SetupError):
            parse_seats(bad, players)


def test_the_command_rejects_bad_options_with_one_line_and_code_2() -> None:
    """A bad language, seat or save file ends with one error line, never a traceback."""
    for args, message in (
        (["--lang", "de"], "unknown language"),
        (["--seats", "you,dragon"], "unknown bot"),
        (["--load", "/nonexistent/save.json"], "cannot read"),
    ):
        result = runner.invoke(cli_app, ["play", *args])
        assert result.exit_code == 2, result.output
        assert message in result.output
        assert "Traceback" not in result.output
    bad = runner.invoke(cli_app, ["replay", "/nonexistent/save.json"])
    assert bad.exit_code == 2 and "cannot read" in bad.output


# ------------------------------------------------------- save files given on the command line


def _one_line_error(args: list[str]) -> str:
    from typer.testing import CliRunner

    result = CliRunner().invoke(cli_app, args)
    assert result.exit_code == 2, result.output
    text = result.output.strip()
    assert "\n" not in text and "Traceback" not in text
    return text


def test_save_refuses_to_overwrite_a_file_without_force(tmp_path: Path) -> None:
    existing = tmp_path / "game.json"
    existing.write_text("precious", encoding="utf-8")
    text = _one_line_error(["play", "--save", str(existing), "--seats", "random,random,random"])
    assert text == f"error: {existing} already exists: choose another file, or add --force to overwrite it"
    assert existing.read_text(encoding="utf-8") == "precious"


def test_save_into_a_missing_folder_is_one_clear_error(tmp_path: Path) -> None:
    target = tmp_path / "nowhere" / "game.json"
    text = _one_line_error(["play", "--save", str(target)])
    assert text == f"error: cannot save to {target}: there is no folder {target.parent}"


def test_a_save_file_that_is_not_utf8_is_one_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_bytes(b"\xff\xfe\x00not text")
    for command in (["play", "--load", str(bad)], ["replay", str(bad)]):
        assert _one_line_error(command) == f"error: {bad} is not a usable save file: it is not UTF-8 text"


def test_save_with_force_overwrites_the_file_with_the_game(tmp_path: Path) -> None:
    from oriflamme import savefile

    existing = tmp_path / "game.json"
    existing.write_text("old", encoding="utf-8")
    result = CliRunner().invoke(
        cli_app,
        ["play", "--save", str(existing), "--force", "--seats", "random,random,random", "--delay", "0"],
    )
    assert result.exit_code == 0, result.output
    assert savefile.loads(existing.read_text(encoding="utf-8")).is_over()


def test_the_end_screen_says_where_every_players_ip_came_from_and_shows_the_final_queue() -> None:
    """The ledger lines add up to each score; every card left in the queue is named, face down or not."""
    import random as _random

    from oriflamme.engine.cards import SLUGS
    from oriflamme.i18n import Translator
    from oriflamme.tui.app import final_scores

    g = Game.new(players=4, deck="alliance", seed=8)
    rng = _random.Random(8)
    while not g.is_over():
        g.apply(rng.choice(g.legal_actions()))
    t = Translator("en")
    console = Console(width=200, record=True, color_system=None)
    console.print(final_scores(g, t))
    text = " ".join(re.sub(r"[│╭╮╰╯─]", " ", console.export_text()).split())
    for s in range(4):
        found = re.search(rf"Where p{s + 1}'s IP came from: (.*?)\.(?: Where| The final|$)", text)
        assert found, text
        amounts = [int(n) for n in re.findall(r"([+-]\d+)", found.group(1))]
        assert sum(amounts) == g.score[s]
    queue = re.search(r"The final queue, hidden cards shown: (.*?)\.", text)
    assert queue is not None
    for i, c in enumerate(g.queue):
        assert f"{i + 1} {t.card(SLUGS[g.kind[c]])} p{g.ctrl[c] + 1}" in queue.group(1)
    assert any(not g.up[c] for c in g.queue), "no face-down card left: pick another seed"


def test_what_happened_is_shown_whole_when_it_fits_and_the_plural_of_one_is_right() -> None:
    from oriflamme.i18n import Translator
    from oriflamme.tui.render import render_log

    t = Translator("en")

    def shown(lines: list[str], limit: int) -> str:
        console = Console(width=80, record=True, color_system=None)
        console.print(render_log(t, lines, limit))
        return console.export_text()

    nine = [f"p2 gains {i} IP (Heir)." for i in range(1, 10)]
    whole = shown(nine, 10)
    assert all(line in whole for line in nine) and "earlier" not in whole
    cut = shown(nine, 9)  # title, the note and the last 7 lines
    assert "… 2 earlier lines (type log to see them all)" in cut
    assert nine[-1] in cut and nine[1] not in cut
    # The note takes a line, so hiding a single line never pays, except in the smallest room.
    assert "earlier" not in shown(nine[:4], 5)
    assert "… 1 earlier line (type log to see it)" in shown(nine[:2], 2)


def test_a_hand_over_clears_the_scroll_back_too() -> None:
    """Clearing the screen alone leaves the last hand in the terminal's scroll-back: ESC [3J erases it."""
    buf = io.StringIO()
    con = Console(file=buf, width=80, force_terminal=True, color_system=None)
    answers = iter(["p1"])
    app = PlayApp(
        Game.new(players=3, deck="base", seed=8), ["you", "you", "random"], Translator("en"), con,
        PlayOptions(delay=0), read_line=lambda prompt: next(answers),
    )  # fmt: skip
    app._hand_over(0)
    assert buf.getvalue().count("\x1b[3J") == 2  # before asking, and after the answer


def test_the_table_names_each_bot_and_its_level() -> None:
    con, buf = console()
    answers = iter(["quit", "yes"])
    PlayApp(
        Game.new(players=3, deck="base", seed=2, first_player=0), ["you", "heuristic", "ismcts:easy"],
        Translator("en"), con, PlayOptions(delay=0), read_line=lambda prompt: next(answers),
    ).run()  # fmt: skip
    players = [line for line in buf.getvalue().splitlines() if re.match(r"\s*[▶ ]p[23]\b", line)]
    assert any("p2" in line and "heuristic" in line for line in players), players
    assert any("p3" in line and "ismcts:easy" in line for line in players), players


def test_undo_takes_back_a_reveal_that_showed_nothing_new() -> None:
    """reveal (own Soldier), then `undo` at the target question: keep-or-reveal is asked again."""
    con, buf = console()
    game = build_position(3, "base", "p2:~heir p1:~soldier p3:~lord", pointer=1, scores=[1, 1, 1])
    prompts: list[str] = []
    answers = ["reveal", "undo", "keep"]

    def read(prompt: str) -> str:
        prompts.append(game.decision())
        answer = answers.pop(0) if answers else "1"
        con.print(prompt + answer)
        return answer

    PlayApp(
        game, ["you", "random", "random"], Translator("en"), con, PlayOptions(delay=0), read_line=read
    ).run()
    assert prompts[:3] == ["keep_or_reveal", "eliminate", "keep_or_reveal"]
    assert "Decision taken back: choose again." in buf.getvalue()
    assert game.is_over()
    # The game played is the one with the Soldier kept: the reveal left no trace.
    first = build_position(3, "base", "p2:~heir p1:~soldier p3:~lord", pointer=1, scores=[1, 1, 1])
    assert game.history[0] == parse_action(first, "keep")


def test_undo_is_refused_once_something_new_was_seen() -> None:
    """Before p1 decided, after the Soldier eliminated p2's hidden card, or after a bot moved: undo says why not."""
    con, buf = console()
    game = build_position(3, "base", "p2:~heir p1:~soldier p1:~archer p3:~lord", pointer=1, scores=[1, 1, 1])
    answers = ["undo", "reveal", "target 1", "undo", "keep", "undo"]
    PlayApp(game, ["you", "random", "random"], Translator("en"), con, PlayOptions(delay=0),
            read_line=scripted(answers, con)).run()  # fmt: skip
    out = buf.getvalue()
    assert "There is no decision of yours to take back." in out
    assert "Too late to take it back: it showed you a card you did not know." in out
    assert game.is_over()
    assert pile_slugs(game, game.discards[1]) == ["heir"]  # the elimination stood


def test_log_at_the_end_of_the_game_shows_the_whole_game_and_asks_again() -> None:
    """The end screen says "type log to see them all"; typing log there once ended the program."""
    con, buf = console()
    game = Game.new(players=3, deck="base", seed=4)
    answers: list[str] = []
    asked: list[str] = []

    def read(prompt: str) -> str:
        asked.append(prompt)
        if game.is_over():
            return answers.pop(0) if answers else ""
        return "1"

    answers.extend(["log", ""])
    app = PlayApp(
        game, ["you", "random", "random"], Translator("en"), con, PlayOptions(delay=0), read_line=read
    )
    assert app.run() == 0
    out = buf.getvalue()
    offers = [p for p in asked if p == Translator("en")("end.review_offer")]
    assert len(offers) == 2  # asked again after the log
    assert "Round 1 begins" in out and out.rfind("Round 1 begins") > out.find(Translator("en")("end.title"))
