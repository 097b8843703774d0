"""The terminal's commands and action words in the five languages: read, shown, never ambiguous."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from oriflamme import Game, action_text, parse_action
from oriflamme.cli.app import app
from oriflamme.engine.cards import SLUGS
from oriflamme.i18n import LANGUAGES, Translator
from oriflamme.notation.position import build_position
from oriflamme.tui.app import PlayApp, PlayOptions, save_game
from oriflamme.tui.prompt import build_menu, interpret, resolve_card
from oriflamme.tui.replay import Replayer, load_steps
from oriflamme.tui.words import MEANINGS, catalog_words, fold


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_meaning_has_lowercase_words_in_every_catalog(lang: str) -> None:
    for meaning in MEANINGS:
        words = catalog_words(lang, meaning)
        assert words, (lang, meaning)
        assert all(word == word.lower() and " " not in word for word in words), (lang, meaning, words)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_word_means_two_things_or_names_a_card(lang: str) -> None:
    """A word of the language or of English means one thing only, and is neither a card's name nor
    the beginning of one in any language (card names are read in every language, from 3 letters)."""
    seen: dict[str, str] = {}
    for source in dict.fromkeys((lang, "en")):
        for meaning in MEANINGS:
            for word in catalog_words(source, meaning):
                folded = fold(word)
                assert seen.setdefault(folded, meaning) == meaning, (lang, word, seen[folded], meaning)
                assert resolve_card(word) is None, (lang, word, resolve_card(word))
    for slug in SLUGS:
        name = fold(Translator(lang).card(slug))
        clashes = [w for w in seen if len(w) >= 3 and name.startswith(w)]
        assert clashes == [], (lang, slug, clashes)


def _keep_or_reveal() -> Game:
    return build_position(3, "base", "p2:~heir p1:~soldier p1:~archer p3:~lord", pointer=1, scores=[1, 1, 1])


@pytest.mark.parametrize(
    ("lang", "typed", "kind"),
    [
        ("fr", "aide", "help"), ("fr", "règles", "rules"), ("fr", "regles", "rules"), ("fr", "journal", "log"),
        ("fr", "annuler", "undo"), ("fr", "quitter", "quit"), ("ru", "помощь", "help"), ("ru", "правила", "rules"),
        ("uk", "довідка", "help"), ("uk", "скасувати", "undo"), ("pl", "pomoc", "help"), ("pl", "cofnij", "undo"),
        ("pl", "zasady", "rules"), ("ru", "help", "help"), ("fr", "undo", "undo"), ("pl", "quit", "quit"),
    ],
)  # fmt: skip
def test_commands_are_read_in_the_players_language_and_in_english(lang: str, typed: str, kind: str) -> None:
    g = _keep_or_reveal()
    t = Translator(lang)
    assert interpret(typed, build_menu(g, t), g, t).kind == kind


@pytest.mark.parametrize(
    ("lang", "typed"),
    [("fr", "révéler"), ("ru", "открыть"), ("uk", "відкрити"), ("pl", "ujawnij"), ("fr", "reveal")],
)
def test_verbs_are_read_in_the_players_language(lang: str, typed: str) -> None:
    g = _keep_or_reveal()
    t = Translator(lang)
    cmd = interpret(typed, build_menu(g, t), g, t)
    assert cmd.kind == "action" and action_text(g, cmd.value) == "reveal"  # type: ignore[arg-type]


def test_a_help_card_command_in_french() -> None:
    g = _keep_or_reveal()
    t = Translator("fr")
    cmd = interpret("aide soldat", build_menu(g, t), g, t)
    assert (cmd.kind, cmd.value) == ("card", "soldier")


def test_examples_and_suggestions_are_in_the_players_language() -> None:
    g = Game.new(players=3, deck="base", seed=5)
    t = Translator("fr")
    menu = build_menu(g, t)
    assert menu.example.startswith("poser ")
    cmd = interpret("banane", menu, g, t)
    message = t(str(cmd.value), **cmd.params)
    assert "poser " in message and "place " not in message
    typed = menu.example  # what the hint shows can be typed back
    assert interpret(typed, menu, g, t).kind == "action"


def test_a_target_menu_numbers_by_queue_position_and_takes_the_position_or_the_name() -> None:
    """Not "1) 1: Shapeshifter / 2) 13: Spy": the board's position is the one number shown and typed."""
    g = build_position(3, "base", queue="p2:~ambush+1 p2:~heir p1:soldier p3:spy", round=6)
    g.apply(parse_action(g, "keep"))
    g.apply(parse_action(g, "keep"))
    t = Translator("en")
    menu = build_menu(g, t)
    assert menu.numbers() == [2, 4]
    assert not any(option.label[:1].isdigit() for option in menu.options)
    four = interpret("4", menu, g, t)
    assert four.kind == "choose" and action_text(g, menu.options[four.value].action or 0) == "target 4"  # type: ignore[index]
    one = interpret("1", menu, g, t)
    assert one.kind == "invalid" and t(str(one.value), **one.params) == "Choose one of the positions 2, 4."
    spy = interpret("spy", menu, g, t)
    assert spy.kind == "choose" and menu.options[spy.value].label.startswith("Spy")  # type: ignore[index]


def test_an_ambiguous_beginning_names_the_candidates() -> None:
    g = Game.new(players=3, deck="base", seed=5)
    t = Translator("en")
    menu = build_menu(g, t)
    names = [option.label for option in menu.options]
    starting = [name for name in names if name.lower().startswith("a")]
    assert len(starting) >= 2, names  # the deal of seed 5 holds two cards beginning with "a"
    cmd = interpret("a", menu, g, t)
    message = t(str(cmd.value), **cmd.params)
    assert message.startswith("“a” could be: " + ", ".join(starting)), message


def console() -> tuple[Console, io.StringIO]:
    buf = io.StringIO()
    return Console(file=buf, width=80, height=40, color_system=None), buf


def scripted(answers: list[str], con: Console) -> Callable[[str], str]:
    def read(prompt: str) -> str:
        if not answers:
            raise EOFError
        answer = answers.pop(0)
        con.print(prompt + answer)
        return answer

    return read


@pytest.fixture
def saved_game(tmp_path: Path) -> Path:
    game = Game.new(players=3, deck="base", seed=5)
    PlayApp(game, ["random"] * 3, Translator("en"), console()[0], PlayOptions(delay=0)).run()
    path = tmp_path / "done.json"
    save_game(game, path)
    return path


def test_the_replay_jumps_to_a_round(saved_game: Path) -> None:
    steps = load_steps(str(saved_game))
    con, buf = console()
    replayer = Replayer(steps, Translator("fr"), con, read_line=scripted(["manche 3", "r 9", "q"], con))
    assert replayer.run() == 0
    out = buf.getvalue()
    assert "Manche 3/6" in out
    assert "Il n'y a pas de manche 9 : les manches vont de 1 à 6." in out
    start = replayer.round_start(3)
    assert start is not None and steps[start].game.round == 3 and steps[start - 1].game.round == 2


def test_replay_round_option(saved_game: Path) -> None:
    result = CliRunner().invoke(app, ["replay", str(saved_game), "--round", "4", "--lang", "en"], input="q\n")
    assert result.exit_code == 0, result.output
    assert "Round 4/6" in result.output and "Round 1/6" not in result.output
    bad = CliRunner().invoke(app, ["replay", str(saved_game), "--round", "9"])
    assert bad.exit_code == 2 and "--round must be from 1 to 6" in bad.output


def test_undo_at_the_hand_over_says_why_nothing_is_taken_back() -> None:
    """Hot-seat: the table is hidden until the next person names themself, so undo is refused, in words."""
    game = Game.new(players=3, deck="base", seed=11)
    con, buf = console()
    app_ = PlayApp(game, ["you", "you", "random"], Translator("fr"), con, PlayOptions(delay=0),
                   read_line=scripted(["annuler"], con))  # fmt: skip
    app_.last_human = 1 - game.current_player() if game.current_player() in (0, 1) else 0
    with pytest.raises(EOFError):
        app_._hand_over(game.current_player() if game.current_player() in (0, 1) else 0)
    assert "Rien ne se reprend ici" in buf.getvalue()
