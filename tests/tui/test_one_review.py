"""One game, one review: the terminal's end-of-game review, `oriflamme review FILE` and the browser's
agree; a resumed game is reviewed and logged from its deal; hints read in the order of their
percentages; review lines say what a move was, with plural-aware counts, in every language."""

from __future__ import annotations

import io
import json
import math
import re
from collections.abc import Callable, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from oriflamme import Game, build_position, parse_action, savefile
from oriflamme.bots import make_bot
from oriflamme.bots.ismcts import ActionValue, IsmctsBot
from oriflamme.bots.review import MoveReview, review_game, review_position
from oriflamme.cli.app import app as cli_app
from oriflamme.engine.view import SeatView
from oriflamme.i18n import LANGUAGES, Translator
from oriflamme.tui import app as tui_app
from oriflamme.tui.app import PlayApp, PlayOptions, load_game
from oriflamme.tui.review import move_words, render_review
from oriflamme.web import analysis_jobs

#: The level every path reviews at here: the same code as the default, a fifth of the time.
LEVEL = "easy"


def _console() -> tuple[Console, io.StringIO]:
    buf = io.StringIO()
    return Console(file=buf, width=200, height=40, color_system=None), buf


def _person(first: Sequence[str] = (), moves: Sequence[str] = ("1",)) -> Callable[[str], str]:
    """A person who types ``first``, then ``moves`` in turn (a refused answer just passes to the next),
    and at the end of the game asks for the review once, then leaves."""
    typed = list(first)
    turn = [0]
    end = Translator("en")("end.review_offer")
    asked = [False]

    def read(prompt: str) -> str:
        if prompt == end:
            answer = "" if asked[0] else "review"
            asked[0] = True
            return answer
        if typed:
            return typed.pop(0)
        turn[0] += 1
        return moves[turn[0] % len(moves)]

    return read


def _terminal_review(
    game: Game,
    seats: Sequence[str],
    monkeypatch: pytest.MonkeyPatch,
    read: Callable[[str], str],
    save: Path | None = None,
) -> tuple[list[MoveReview], str]:
    """Play ``game`` on in the terminal and ask for the review at the end; the reviews shown, and the output."""
    shown: list[MoveReview] = []
    real = render_review

    def spy(t: Translator, seat: int, reviews: Sequence[MoveReview], level: str) -> Any:
        shown.extend(reviews)
        return real(t, seat, reviews, level)

    monkeypatch.setattr(tui_app, "DEFAULT_LEVEL", LEVEL)
    monkeypatch.setattr(tui_app, "render_review", spy)
    con, buf = _console()
    options = PlayOptions(delay=0, save_path=None if save is None else str(save), bot_seed=game.seed or 0)
    assert PlayApp(game, list(seats), Translator("en"), con, options, read_line=read).run() == 0
    assert game.is_over()
    return shown, buf.getvalue()


def _graded(rows: Sequence[dict[str, Any]] | Sequence[MoveReview]) -> list[tuple[int, int, str | None]]:
    return [
        (r["index"], r["cost"], r["grade"]) if isinstance(r, dict) else (r.index, r.cost, r.grade)
        for r in rows
    ]


def test_one_game_gets_one_review_in_the_terminal_the_review_command_and_the_browser(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same moves, the same grades and costs, whichever way the game is reviewed."""
    path = tmp_path / "game.json"
    seats = ["heuristic", "you", "heuristic"]
    # Not always the first option, so that some moves cost something.
    shown, _ = _terminal_review(
        Game.new(3, "base", seed=8), seats, monkeypatch, _person(moves=("2", "1", "3")), path
    )
    assert len(shown) >= 5

    cli = CliRunner().invoke(cli_app, ["review", str(path), "--level", LEVEL, "--json"])
    assert cli.exit_code == 0, cli.output
    command = json.loads(cli.stdout)["seats"]["2"]

    saved = savefile.read(path.read_text(encoding="utf-8"))
    assert saved.actions is not None
    monkeypatch.setattr(analysis_jobs, "LEVEL", LEVEL)
    browser = analysis_jobs.review(saved.setup, saved.actions, 1)

    assert _graded(shown) == _graded(command) == _graded(browser)
    assert any(cost > 0 for _, cost, _ in _graded(browser))


@pytest.mark.parametrize(
    ("best", "played", "cost", "grade"),
    [
        (0.5, 0.404, 10, "mistake"),
        (0.5, 0.454, 5, "inaccuracy"),
        (0.7, 0.504, 20, "blunder"),
        (0.5, 0.46, 4, None),
    ],
)
def test_a_move_is_graded_on_the_cost_it_shows(
    best: float, played: float, cost: int, grade: str | None
) -> None:
    """A cost of 9.6 points is shown as 10, and a 10 is a mistake (README: mistake ≥ 10)."""
    r = MoveReview(3, 0, 2, "place", "a", "b", played, best, 40, 60, ())
    assert (r.cost, r.grade) == (cost, grade)
    con, buf = _console()
    con.print(render_review(Translator("en"), 0, [r], "normal"))
    assert re.search(rf"\b{cost}\b" + (f" {grade}" if grade else ""), buf.getvalue())


def test_a_game_resumed_from_its_save_is_reviewed_and_logged_from_its_deal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`--load` mid-game: the end-of-game review and `log` cover the whole game, not only the moves since."""
    seats = ["you", "heuristic", "heuristic"]
    g = Game.new(3, "base", seed=11)
    bots = [make_bot("heuristic", s) for s in range(3)]
    while g.round < 4:
        s = g.current_player()
        g.apply(bots[s].choose(g.view(s)))
    path = tmp_path / "mid.json"
    path.write_text(savefile.dumps(g, seats), encoding="utf-8")
    resumed = load_game(str(path)).game
    shown, out = _terminal_review(resumed, seats, monkeypatch, _person(first=["log"]))
    assert "Round 1 begins" in out  # the log, asked after loading, starts at the deal
    whole = review_game(
        savefile.read(savefile.dumps(resumed)).setup, savefile.to_dict(resumed)["actions"], [0], LEVEL
    )
    assert [r.index for r in shown] == [r.index for r in whole]
    assert min(r.round for r in shown) == 1 and _graded(shown) == _graded(whole)


def test_hints_are_listed_by_the_win_chance_they_show(monkeypatch: pytest.MonkeyPatch) -> None:
    """36%, 32%, 33%, 28% from the search (ranked by simulations) reads 36, 33, 32, 28; ties keep its order."""
    ranked = (
        ActionValue(1, 90, 0.36, 0.4),
        ActionValue(2, 80, 0.32, 0.3),
        ActionValue(3, 70, 0.331, 0.3),
        ActionValue(4, 60, 0.28, 0.3),
        ActionValue(5, 50, 0.3249, 0.3),  # shown as 32%, like action 2: after it
        ActionValue(6, 0, math.nan, math.nan),
    )

    def evaluate(self: IsmctsBot, view: SeatView) -> tuple[ActionValue, ...]:
        return ranked

    monkeypatch.setattr(IsmctsBot, "evaluate", evaluate)
    g = Game.new(3, "base", seed=1)
    listed = analysis_jobs.hint(g.view(g.current_player()), 0)
    assert [a for a, _, _ in listed] == [1, 3, 2, 5, 4, 6]


def _played(reviews: list[MoveReview], lang: str) -> str:
    con, buf = _console()
    con.print(render_review(Translator(lang), 0, reviews, "normal"))
    return " ".join(buf.getvalue().split())


def _review(cost_points: float) -> MoveReview:
    return MoveReview(1, 0, 1, "place", "x", "y", 0.5 - cost_points / 100, 0.5, 10, 40, ())


@pytest.mark.parametrize(
    ("lang", "counts", "words"),
    [
        ("en", (1, 0, 2), "1 blunder, 0 mistakes, and 2 inaccuracies"),
        ("en", (2, 1, 1), "2 blunders, 1 mistake, and 1 inaccuracy"),
        ("ru", (1, 2, 5), "1 грубая ошибка, 2 ошибки и 5 неточностей"),
        ("uk", (1, 3, 5), "1 груба помилка, 3 помилки і 5 неточностей"),
        ("pl", (1, 2, 5), "1 błąd rażący, 2 błędy i 5 niedokładności"),
        ("fr", (1, 0, 2), "1 gaffe, 0 erreur et 2 imprécisions"),
    ],
)
def test_the_review_summary_counts_in_each_languages_plural_forms(
    lang: str, counts: tuple[int, int, int], words: str
) -> None:
    reviews = [_review(25)] * counts[0] + [_review(12)] * counts[1] + [_review(6)] * counts[2]
    assert words in _played(reviews, lang)


def test_a_review_line_says_which_card_went_where() -> None:
    """ "Archer placed at the right end of the queue (4th)", in every language, no field left unfilled."""
    deck = ["archer", "soldier", "spy", "heir", "lord", "assassination", "ambush", "conspiracy", "royal-decree",
            "shapeshifter"]  # fmt: skip
    g = build_position(3, ",".join(deck), "p2:~spy p3:~heir p2:~lord", hands={0: "archer soldier"},
                       round=2, phase="place")  # fmt: skip
    r = review_position(g, parse_action(g, "place archer last"), "easy", seed=1)
    assert r.played_move is not None and r.best_move is not None
    t = Translator("en")
    assert move_words(t, r.played_move, r.played) == "Archer placed at the right end of the queue (4th)"
    first = review_position(g, parse_action(g, "place soldier first"), "easy", seed=1)
    assert (
        move_words(t, first.played_move, first.played) == "Soldier placed at the left end of the queue (1st)"
    )
    for lang in LANGUAGES:
        tl = Translator(lang)
        for facts, fallback in ((r.played_move, r.played), (first.played_move, first.played)):
            assert facts is not None
            text = move_words(tl, facts, fallback)
            assert tl.card("archer" if "archer" in facts.text else "soldier") in text
            assert not re.search(r"\{\w+\}|review\.", text), (lang, text)
    # p1's Archer, revealed, eliminates an end of the queue: p2's face-down Spy is not named to p1.
    archer = build_position(3, ",".join(deck), "p2:~spy p1:~archer", round=2)
    archer.apply(parse_action(archer, "keep"))
    archer.apply(parse_action(archer, "reveal"))
    spy = review_position(archer, parse_action(archer, "target 1"), "easy", seed=1)
    own = review_position(archer, parse_action(archer, "target 2"), "easy", seed=1)
    assert (
        move_words(t, spy.played_move, spy.played)
        == "a face-down card targeted at the left end of the queue (1st)"
    )
    assert move_words(t, own.played_move, own.played) == "Archer targeted at the right end of the queue (2nd)"


def test_the_french_catalogs_say_pi_and_manche() -> None:
    """One French word per concept: PI (points d'influence), never IP; manche for a round, and tour only for
    a player's turn (votre tour)."""
    wrong = []
    for folder in (resources.files("oriflamme.i18n"), resources.files("oriflamme.web") / "locales"):
        catalog = json.loads((folder / "fr.json").read_text(encoding="utf-8"))
        for key, message in catalog.items():
            for text in message.values() if isinstance(message, dict) else [message]:
                if re.search(r"\bIP\b", text) or re.search(
                    r"(?<!votre )(?<!mon )(?<!son )\btours?\b", text, re.IGNORECASE
                ):
                    wrong.append(f"{key}: {text[:80]}")
    assert wrong == []
