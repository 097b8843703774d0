"""The guided first game in the terminal, driven by typed lines in every language."""

from __future__ import annotations

import io
import re
from collections.abc import Callable

import pytest
from rich.console import Console
from typer.testing import CliRunner

from oriflamme import tutorial
from oriflamme.cli.app import app as cli_app
from oriflamme.engine.action_text import action_text
from oriflamme.i18n import Translator
from oriflamme.tui.app import PlayOptions
from oriflamme.tui.tutorial import TutorialApp

LANGUAGES = ("en", "fr", "ru", "uk", "pl")


def _console() -> tuple[Console, io.StringIO]:
    buf = io.StringIO()
    return Console(file=buf, width=100, height=60, color_system=None), buf


def _learner(app: list[TutorialApp], answers: list[str], con: Console) -> Callable[[str], str]:
    """Types ``answers`` first; then the lesson's asked move while there is one, else the first legal move."""

    def read(prompt: str) -> str:
        if answers:
            line = answers.pop(0)
        else:
            game = app[0].game
            lesson = tutorial.lesson(game) if not game.is_over() else None
            asked = lesson.action if lesson is not None and app[0].guided else None
            if game.is_over():
                line = ""
            else:
                line = action_text(game, asked if asked is not None else game.legal_actions()[0])
        con.print(prompt + line)
        return line

    return read


def _run(lang: str, answers: list[str]) -> tuple[TutorialApp, str]:
    con, buf = _console()
    holder: list[TutorialApp] = []
    app = TutorialApp(Translator(lang), con, PlayOptions(delay=0), read_line=_learner(holder, answers, con))
    holder.append(app)
    assert app.run() == 0
    return app, buf.getvalue()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_learner_who_follows_the_lessons_meets_each_and_finishes_the_game(lang: str) -> None:
    app, out = _run(lang, [])
    t = Translator(lang)
    assert app.game.is_over()
    flat = re.sub(r"[\s│╭╮╰╯─]+", " ", out)
    for name in tutorial.LESSONS:
        first_words = " ".join(t(tutorial.LESSON_PREFIX + name).split()[:6])
        assert first_words in flat, (lang, name)
    assert app.game.view(0).scores[0] >= 12  # the guided rounds' 12 IP, whatever the free ones gave


def test_a_move_the_lesson_did_not_ask_for_is_refused_by_name_and_nothing_changes() -> None:
    # "place soldier first" instead of the lesson's Heir; then the lesson's move.
    app, out = _run("en", ["place soldier first"])
    assert "This lesson asks for another move: Heir" in re.sub(r"\s+", " ", out)
    assert tutorial.script_actions()[0] == app.game.history[0]


@pytest.mark.parametrize(
    ("lang", "word"), [("en", "skip"), ("fr", "passer"), ("ru", "пропустить"), ("fr", "skip")]
)
def test_skip_leaves_the_guided_rounds_and_any_move_is_then_played(lang: str, word: str) -> None:
    app, out = _run(lang, [word, "place soldier first"])
    t = Translator(lang)
    assert not app.guided
    assert t("tutorial.skipped") in re.sub(r"\s+", " ", out).replace("│ ", "")
    assert action_text(tutorial.new_game(), app.game.history[0]) == "place soldier first"
    assert app.game.is_over()


def test_the_command_line_starts_the_tutorial() -> None:
    result = CliRunner().invoke(
        cli_app, ["play", "--tutorial", "--lang", "en", "--delay", "0"], input="quit\ny\n"
    )
    assert result.exit_code == 0, result.output
    assert Translator("en")(tutorial.LESSON_PREFIX + "placement")[:40] in re.sub(r"\s+", " ", result.output)
