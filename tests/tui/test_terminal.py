"""``oriflamme play`` driven for real in a pseudo-terminal of 40 rows x 80 columns.

Each test spawns ``python -m oriflamme play`` with pexpect, types like a
person, and reads the screen through a terminal emulator (pyte), so what is
checked is what a person would see: the table at 80 columns, the prompts,
the hand-over screen of a hot-seat game, the final scores. Seeds make every
run the same; ``--delay 0`` keeps bots from pausing.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pexpect
import pyte
import pytest

from oriflamme import savefile
from oriflamme.engine.cards import KINDS
from oriflamme.notation.position import build_position, pile_slugs

ROWS, COLS = 40, 80
PROMPT = r"p[1-5]> "


def _default_sigint() -> None:
    """Let Ctrl-C reach the program even when the tests run in the background.

    A shell without job control starts background commands with SIGINT
    ignored, children inherit that, and Python then installs no
    KeyboardInterrupt handler: the Ctrl-C tests would hang for the runner's
    reason, not the program's.
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class Terminal:
    """A spawned ``oriflamme`` command and the screen it draws."""

    def __init__(self, *args: str, env: dict[str, str] | None = None, rows: int = ROWS) -> None:
        full_env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "LANGUAGE", "LC_ALL")}
        full_env.update(
            {"TERM": "xterm-256color", "COLUMNS": str(COLS), "LINES": str(rows), "LANG": "C.UTF-8"}
        )
        full_env.update(env or {})
        self.child = pexpect.spawn(
            sys.executable, ["-m", "oriflamme", *args], dimensions=(rows, COLS), encoding="utf-8",
            timeout=30, env=full_env, preexec_fn=_default_sigint,
        )  # fmt: skip
        self.screen = pyte.Screen(COLS, rows)
        self.stream = pyte.Stream(self.screen)
        self.output = ""

    def expect(self, *patterns: str | type[pexpect.EOF] | type[pexpect.TIMEOUT], timeout: float = -1) -> int:
        """Wait for one of ``patterns`` (``timeout``: seconds, -1 for the default); the screen is
        updated with everything printed so far."""
        index: int = self.child.expect(list(patterns), timeout=timeout)
        seen = self.child.before + (self.child.after if isinstance(self.child.after, str) else "")
        self.output += seen
        self.stream.feed(seen)
        return index

    def send(self, line: str) -> None:
        self.child.sendline(line)

    def plain(self) -> str:
        """Everything printed so far, without colours and with lines joined back where they wrapped."""
        return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]|\r", "", self.output)

    def text(self) -> str:
        return "\n".join(line.rstrip() for line in self.screen.display)

    def finish(self) -> int:
        """Wait for the program to end; its exit status."""
        self.expect(pexpect.EOF)
        self.child.close()
        status: int = self.child.exitstatus
        return status


def play_to_the_end(term: Terminal, answer: str = "1") -> list[str]:
    """Answer every prompt with ``answer`` until the final scores; the screens seen at prompts."""
    screens = []
    while term.expect(PROMPT, "Final scores") == 0:
        screens.append(term.text())
        term.send(answer)
    term.expect("press Enter to finish")  # the offer of a review of one's moves
    term.send("")
    term.expect(pexpect.EOF)
    return screens


def assert_readable_at_80_columns(screen: str) -> None:
    """The table fits 80 columns: every queue cell, player row and menu entry is whole on one line."""
    lines = screen.split("\n")
    assert all(len(line) <= COLS for line in lines)
    title = next(i for i, line in enumerate(lines) if line.startswith("Queue, in resolution order"))
    count = int(re.search(r"\((\d+) position", lines[title]).group(1))  # type: ignore[union-attr]
    block = []
    for line in lines[title + 1 :]:
        if not line.strip():
            break
        block.append(line)
    for pos in range(1, count + 1):
        cell = re.compile(rf"(^|\s)▶?{pos} (▒▒▒|\S.*?) p[1-5]( |$)")
        assert any(cell.search(line) for line in block), (pos, block)
    for seat in (1, 2, 3):
        row = re.compile(rf"^ [▶ ]p{seat}\b[^\d]*\s\d+ +\d+(?: \([^)]*\))? +\d+\b")
        assert sum(1 for line in lines if row.match(line)) == 1, screen
    assert re.search(r"^  1\) \S", screen, re.M), screen


def test_full_game_against_random_bots_reaches_the_final_scores_at_80_columns() -> None:
    """A person plays a whole 3-player base game against random bots; every screen fits 80 columns."""
    term = Terminal("play", "--seats", "you,random,random", "--seed", "3", "--delay", "0", "--lang", "en")
    screens = play_to_the_end(term)
    assert term.finish() == 0
    # 6 rounds: at least one placement per round, and a keep-or-reveal for most of them.
    assert len(screens) >= 6
    for screen in screens:
        assert_readable_at_80_columns(screen)
        assert "Your hand:" in screen
    final = term.text()
    assert "Final scores" in final
    assert re.search(r"p[1-3] wins with \d+ IP!|share the win", final)
    assert "game over" in final


def test_the_end_of_a_game_offers_a_review_of_ones_moves() -> None:
    """`review` after the final scores: each of the person's choices with the search's preferred move."""
    term = Terminal("play", "--seats", "you,random,random", "--seed", "3", "--delay", "0", "--lang", "en")
    while term.expect(PROMPT, "Final scores") == 0:
        term.send("1")
    term.expect("press Enter to finish")
    term.send("review")
    term.expect("press Enter to finish")  # asked again: a rematch is still possible
    term.send("")
    term.expect(pexpect.EOF)
    out = term.plain()
    assert "p1's moves, judged by the search (normal)" in out
    assert re.search(r"p1: \d+ decisions, \d+ as the search would play them; average cost", out)


def test_a_rematch_deals_a_new_game_and_keeps_the_finished_one(tmp_path: Path) -> None:
    """`again` at the end: a new deal with the same seats and cards, saved beside the finished game."""
    path = tmp_path / "game.json"
    term = Terminal("play", "--seats", "you,random,random", "--seed", "3", "--delay", "0", "--lang", "en",
                    "--deck", "alliance", "--save", str(path))  # fmt: skip
    while term.expect(PROMPT, "Final scores") == 0:
        term.send("1")
    term.expect("press Enter to finish")
    term.send("again")
    play_to_the_end(term)
    assert term.finish() == 0
    assert term.plain().count("New game · seed") == 2
    first, second = savefile.loads(path.read_text()), savefile.loads((tmp_path / "game-2.json").read_text())
    assert first.is_over() and second.is_over()
    assert first.recipe == second.recipe and first.players == second.players == 3
    assert first.seed == 3 and second.seed != 3


def test_invalid_input_gets_a_message_and_the_prompt_again() -> None:
    """Nonsense, an out-of-range number and a bad action each get a message; a valid answer still works."""
    term = Terminal("play", "--seats", "you,random,random", "--seed", "5", "--delay", "0", "--lang", "en")
    term.expect(PROMPT)
    first_menu = term.text()
    term.send("banana")
    term.expect(PROMPT)
    assert "“banana” is not a choice here" in term.plain()
    term.send("42")
    term.expect(PROMPT)
    assert "Choose a number from 1 to" in term.plain()
    term.send("help heir")
    term.expect(PROMPT)
    assert "Gain 2 IP if there is no other revealed, uncovered Heir" in term.plain()
    term.send("1")  # a card ...
    term.expect(PROMPT)
    assert "Where do you place" in term.text()
    term.send("back")
    term.expect(PROMPT)
    term.send("1")
    term.expect(PROMPT)
    term.send("2")  # ... and a place: the game goes on
    term.expect(PROMPT)
    assert "p1 places" in term.plain() and term.text() != first_menu
    term.send("quit")  # saved nowhere: asked once more
    term.expect("Leave anyway")
    term.send("no")  # ... and the game goes on
    term.expect(PROMPT)
    term.send("quit")
    term.expect("Leave anyway")
    term.send("yes")
    assert term.finish() == 0
    assert "Left without saving" in term.plain()


def test_save_quit_and_resume_to_the_end(tmp_path: Path) -> None:
    """--save keeps the game; quit leaves; --load resumes it, and it is finished with the same history."""
    path = tmp_path / "game.json"
    term = Terminal("play", "--seats", "you,random,random", "--seed", "7", "--delay", "0", "--lang", "en",
                    "--save", str(path))  # fmt: skip
    for _ in range(4):
        term.expect(PROMPT)
        term.send("1")
    term.expect(PROMPT)
    term.send("save")
    term.expect(PROMPT)
    assert f"Game saved to {path}." in term.plain().replace("\n", "")
    term.send("quit")
    assert term.finish() == 0
    assert f"Resume it with: oriflamme play --load {path}" in term.plain().replace("\r\n", "")
    saved = savefile.loads(path.read_text())
    assert not saved.is_over()
    assert len(saved.history) >= 4

    again = Terminal(
        "play", "--seats", "you,random,random", "--delay", "0", "--lang", "en", "--load", str(path)
    )
    play_to_the_end(again)
    assert again.finish() == 0
    assert "Final scores" in again.text()
    finished = savefile.loads(path.read_text())
    assert finished.is_over()
    assert finished.history[: len(saved.history)] == saved.history


def to_prompt(term: Terminal) -> str:
    """Pass hot-seat hand-overs until a player's prompt; that player."""
    while True:
        index = term.expect(r"(p\d), type p\d to see your cards", r"(p\d)> ")
        player: str = term.child.match.group(1)
        if index == 1:
            return player
        term.send(player)


def test_load_seats_the_same_people_and_bots(tmp_path: Path) -> None:
    """A hot-seat game saved and loaded without --seats is still played by two people and a bot."""
    path = tmp_path / "hot.json"
    term = Terminal("play", "--seats", "you,you,heuristic", "--seed", "11", "--delay", "0", "--lang", "en",
                    "--save", str(path))  # fmt: skip
    to_prompt(term)
    term.send("save")
    to_prompt(term)
    term.send("quit")
    assert term.finish() == 0
    assert savefile.read(path.read_text()).seats == ("you", "you", "heuristic")

    again = Terminal("play", "--delay", "0", "--lang", "en", "--load", str(path))
    asked = [to_prompt(again)]
    assert "heuristic" in again.text()  # the bot is named at the table
    while len(set(asked)) < 2 and len(asked) < 12:
        again.send("1")
        asked.append(to_prompt(again))
    # p1 and p2 are people again (p3 is still the bot): both are asked, p3 never.
    assert set(asked) == {"p1", "p2"}, asked
    again.send("quit")  # it was loaded from a file: saved there on the way out
    assert again.finish() == 0
    assert savefile.read(path.read_text()).seats == ("you", "you", "heuristic")


def test_undo_at_the_terminal_takes_back_a_reveal_but_not_an_elimination(tmp_path: Path) -> None:
    """At 80 columns: reveal, undo (back to keep-or-reveal), then reveal, eliminate, and undo is refused."""
    path = tmp_path / "puzzle.json"
    puzzle = build_position(
        3, "base", "p2:~heir p1:~soldier p1:~archer p3:~lord", pointer=1, scores=[1, 1, 1]
    )
    path.write_text(savefile.dumps(puzzle, ["you", "random", "random"]), encoding="utf-8")
    term = Terminal("play", "--delay", "0", "--lang", "en", "--load", str(path))
    term.expect(r"p1> ")
    term.send("reveal")
    term.expect(r"p1> ")
    assert "eliminate" in term.text().lower()
    term.send("undo")
    term.expect(r"p1> ")
    assert "Decision taken back: choose again." in term.text()
    assert "reveal" in term.text().lower()  # keep-or-reveal is asked again
    term.send("reveal")
    term.expect(r"p1> ")
    term.send("target 1")
    term.expect(r"p1> ")
    term.send("undo")
    term.expect(r"p1> ")
    assert "it showed you a card you did not know" in term.plain().replace("\n", " ")
    term.send("quit")
    assert term.finish() == 0
    saved = savefile.loads(path.read_text())  # saved on the way out: the elimination stood
    assert pile_slugs(saved, saved.discards[1]) == ["heir"]


def test_end_of_input_leaves_cleanly_and_saves(tmp_path: Path) -> None:
    """Ctrl-D at a prompt asks nothing more, saves the game (a --save file was given) and exits 0."""
    path = tmp_path / "eof.json"
    term = Terminal("play", "--seed", "9", "--delay", "0", "--lang", "en", "--save", str(path),
                    "--seats", "you,random,random")  # fmt: skip
    term.expect(PROMPT)
    term.child.sendeof()
    assert term.finish() == 0
    assert not savefile.loads(path.read_text()).is_over()


def hand_names(screen: str) -> list[str]:
    line = next(line for line in screen.split("\n") if line.startswith("Your hand:"))
    return [name.strip() for name in line.removeprefix("Your hand:").split(",") if name.strip()]


def test_hot_seat_hand_over_hides_the_previous_hand() -> None:
    """Two people share the keyboard: between them the screen shows no hand until Enter is pressed."""
    term = Terminal("play", "--seats", "you,you,random", "--seed", "11", "--delay", "0", "--lang", "en")
    handovers = 0
    previous_hand: list[str] = []
    previous_seat = ""
    while handovers < 3:
        index = term.expect(r"(p[12]), type p[12] to see your cards", r"(p[12])> ")
        player = term.child.match.group(1)
        screen = term.text()
        if index == 0:
            assert f"Pass the keyboard to {player}" in screen.replace("\n", " ")
            assert "Your hand" not in screen and "Set aside" not in screen
            leaked = [name for name in previous_hand if name in screen]
            assert leaked == [], (leaked, screen)
            handovers += 1
            term.send("")  # Enter alone does not pass the hand-over: the question comes again
            term.expect(rf"{player}, type {player} to see your cards")
            assert "Your hand" not in term.text()
            term.send(player)
        else:
            if previous_seat and player != previous_seat:
                assert handovers > 0
            previous_hand, previous_seat = hand_names(screen), player
            assert previous_hand
            term.send("1")
    term.expect(PROMPT)
    term.send("quit")
    term.expect("Leave anyway")
    term.send("yes")
    assert term.finish() == 0


def test_the_language_follows_the_locale_when_not_given() -> None:
    """LANG=ru_RU.UTF-8 and no --lang: the table, prompts and log are in Russian."""
    term = Terminal("play", "--seats", "you,random,random", "--seed", "3", "--delay", "0",
                    env={"LANG": "ru_RU.UTF-8"})  # fmt: skip
    term.expect(PROMPT)
    screen = term.text()
    assert "Ряд событий в порядке розыгрыша" in screen
    assert "Ваша рука:" in screen
    assert "какую карту вы кладёте?" in screen
    term.send("quit")
    term.expect("Всё равно выйти")
    term.send("да")
    assert term.finish() == 0


def test_ctrl_c_at_a_prompt_leaves_cleanly_and_saves(tmp_path: Path) -> None:
    """Ctrl-C is not a crash: the game is saved (a --save file was given) and the exit code is 0."""
    path = tmp_path / "interrupted.json"
    term = Terminal("play", "--seed", "1", "--delay", "0", "--lang", "fr", "--save", str(path),
                    "--seats", "you,random,random")  # fmt: skip
    term.expect(PROMPT)
    term.child.sendintr()
    assert term.finish() == 0
    assert "Traceback" not in term.plain()
    assert f"Partie sauvegardée dans {path}." in term.plain().replace("\n", "")
    assert not savefile.loads(path.read_text()).is_over()


def _slow_wait_shim(tmp_path: Path) -> Path:
    """tests/tui/shims/slow_wait.c built as a preloadable library (skips without a C compiler)."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None or not sys.platform.startswith("linux"):
        pytest.skip("needs a C compiler and LD_PRELOAD (Linux)")
    source = Path(__file__).parent / "shims" / "slow_wait.c"
    library = tmp_path / "slow_wait.so"
    subprocess.run([compiler, "-shared", "-fPIC", "-o", str(library), str(source), "-ldl"], check=True)
    return library


def test_ctrl_c_in_the_gap_before_the_program_waits_is_not_lost(tmp_path: Path) -> None:
    """A Ctrl-C that lands after the prompt is shown but before the program blocks waiting for the
    answer still ends the game. Python only notes such a signal, and input() alone would then sit
    in its read with the ^C echoed and nothing after it, until another key came. The shim holds
    the program in that gap until a signal comes, and the Ctrl-C is sent while it is there."""
    mark = tmp_path / "gap"
    path = tmp_path / "interrupted.json"
    preload = " ".join(filter(None, [os.environ.get("LD_PRELOAD"), str(_slow_wait_shim(tmp_path))]))
    term = Terminal("play", "--seed", "1", "--delay", "0", "--lang", "fr", "--save", str(path),
                    "--seats", "you,random,random",
                    env={"LD_PRELOAD": preload, "SLOW_WAIT_MARK": str(mark)})  # fmt: skip
    term.expect(PROMPT)
    if "cannot be preloaded" in term.plain():  # e.g. a temporary directory mounted noexec
        term.child.terminate(force=True)
        pytest.skip("the dynamic loader refused the shim")
    deadline = time.monotonic() + 20
    while "paused" not in (mark.read_text() if mark.exists() else ""):
        assert time.monotonic() < deadline, "the shim never held a wait: the test would not test the gap"
        time.sleep(0.005)
    term.child.sendintr()
    term.child.timeout = 15  # a lost Ctrl-C waits for ever; fail sooner than pexpect's 30 s
    assert term.finish() == 0
    assert mark.read_text() == "paused\nsignal\n", "the Ctrl-C did not fall into the gap"
    assert "Traceback" not in term.plain()
    assert f"Partie sauvegardée dans {path}." in term.plain().replace("\n", "")
    assert not savefile.loads(path.read_text()).is_over()


def test_at_80x24_the_queue_the_hand_and_the_question_stay_on_screen_together() -> None:
    """A 4-player game in the smallest usual terminal: at every question of the game, the queue,
    your hand and the menu are all on the screen at once (what happened shrinks to make room)."""
    term = Terminal("play", "--seats", "you,random,random,random", "--seed", "4", "--delay", "0", "--lang", "en",
                    rows=24)  # fmt: skip
    screens = play_to_the_end(term)
    assert term.finish() == 0
    assert len(screens) >= 6
    for screen in screens:
        assert "Queue, in resolution order" in screen, screen
        assert "Your hand:" in screen, screen
        assert re.search(r"^\s+1\) ", screen, flags=re.M), screen  # the menu's first option
        assert re.search(r"^p1>", screen, flags=re.M), screen  # and the prompt


def test_a_line_typed_while_the_bots_play_does_not_answer_the_next_question() -> None:
    """`2` typed while the bots place, before the keep-or-reveal question is on the screen, is
    thrown away: the question waits for an answer typed after it was shown."""
    term = Terminal("play", "--seed", "5", "--delay", "1", "--lang", "en")
    term.expect(PROMPT)
    term.send("heir last")
    time.sleep(0.3)  # the bots are placing now, a second apart
    term.send("2")  # would reveal the Heir as soon as the question came
    term.expect("keep it hidden or reveal it")
    term.expect(PROMPT)
    # Nothing answers it: no narration of p1's choice, no further question, for a while.
    assert term.expect(PROMPT, "keeps Heir hidden", "reveals Heir", pexpect.TIMEOUT, timeout=4) == 3
    assert "keep it hidden or reveal it" in term.text()
    term.send("1")  # the answer typed after the question: kept
    term.expect("keeps Heir hidden")
    term.child.terminate(force=True)


def test_at_80x24_with_five_players_the_status_line_is_on_screen_at_every_question() -> None:
    """Five players fill 24 rows: the round, the first player and the phase must still be on the
    screen with the question (the table drops its blank lines, or the status line moves down)."""
    term = Terminal("play", "--seats", "you,random,random,random,random", "--seed", "4", "--delay", "0",
                    "--lang", "en", rows=24)  # fmt: skip
    screens = play_to_the_end(term)
    assert term.finish() == 0
    assert len(screens) >= 6
    for screen in screens:
        assert re.search(r"Round \d/6 · first player p[1-5] · (placement|resolution)", screen), screen
        assert "Your hand:" in screen, screen
        assert re.search(r"^\s+1\) ", screen, flags=re.M), screen
        assert re.search(r"^p1>", screen, flags=re.M), screen


def test_french_commands_are_understood_at_the_terminal() -> None:
    """aide, règles and révéler in a French game; the English words keep working."""
    term = Terminal("play", "--seats", "you,random,random", "--seed", "5", "--delay", "0", "--lang", "fr")
    term.expect(PROMPT)
    term.send("aide")
    term.expect(PROMPT)
    assert "Commandes" in term.plain() or "cette liste" in term.plain()
    term.send("règles")
    term.expect(PROMPT)
    term.send("rules")
    term.expect(PROMPT)
    assert "n'est pas un choix" not in term.plain()
    term.send("quitter")
    term.expect("Quitter quand même")
    term.send("oui")
    assert term.finish() == 0


def test_a_designer_card_plays_at_the_terminal_and_the_resume_command_loads_it_again(tmp_path: Path) -> None:
    """``play --cards examples/cards/herald.py`` in French: the Herald is in the hand under its French
    name; quitting says how to resume with the card file, and that command finishes the game."""
    from support.designer import EXAMPLE, HERALD_DECK

    path = tmp_path / "herald.json"
    term = Terminal("play", "--cards", str(EXAMPLE), "--deck", HERALD_DECK, "--seats", "you,heuristic,heuristic",
                    "--seed", "4", "--delay", "0", "--lang", "fr", "--save", str(path))  # fmt: skip
    term.expect(PROMPT)
    assert "Héraut" in term.text()
    for _ in range(3):
        term.send("1")
        term.expect(PROMPT)
    term.send("quitter")  # saved with --save: no question
    assert term.finish() == 0
    said = term.plain().replace("\n", "")
    resume = re.search(r"oriflamme (play --cards \S+ --load \S+)", said)
    assert resume is not None, said
    assert resume.group(1) == f"play --cards {EXAMPLE} --load {path}"
    again = Terminal(
        *resume.group(1).split(), "--seats", "you,heuristic,heuristic", "--delay", "0", "--lang", "en"
    )
    play_to_the_end(again)
    assert again.finish() == 0
    assert "Herald" in again.plain() and "Final scores" in again.text()
    saved = json.loads(path.read_text())
    assert "herald" in saved["setup"]["recipe"] and saved["setup"]["kinds"] == {"herald": len(KINDS)}
