"""Menus from legal actions, and reading what a person types (never raising)."""

from __future__ import annotations

import random
from typing import get_args

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from oriflamme import Game, action_text, parse_action
from oriflamme.i18n import LANGUAGES, Translator
from oriflamme.notation.position import build_position
from oriflamme.tui.prompt import CommandKind, Menu, build_menu, interpret, resolve_card


def reachable(menu: Menu) -> list[int]:
    """Every action a person can reach by numbers from ``menu``."""
    out: list[int] = []
    for option in menu.options:
        if option.action is not None:
            out.append(option.action)
        else:
            assert option.submenu is not None
            out += reachable(option.submenu)
    return out


def test_every_legal_action_is_one_menu_entry_in_random_games_of_every_box() -> None:
    """Each decision's menu offers exactly the legal actions, each once, worded without gaps."""
    decisions: set[str] = set()
    for i, deck in enumerate(("base", "ablaze", "alliance", "random", "random", "random")):
        g = Game.new(players=2 + i % 4, deck=deck, seed=40 + i)
        rng = random.Random(i)
        t = Translator(LANGUAGES[i % len(LANGUAGES)])
        while not g.is_over():
            menu = build_menu(g, t)
            actions = reachable(menu)
            assert sorted(actions) == sorted(g.legal_actions()), g.decision()
            assert menu.title and "{" not in menu.title
            assert all(o.label and "{" not in o.label for o in menu.options)
            decisions.add(g.decision() or "")
            g.apply(rng.choice(g.legal_actions()))
    assert {"place", "keep_or_reveal", "eliminate"} <= decisions


def test_placement_is_two_short_menus_card_then_place() -> None:
    """Round 2: pick a card among the hand, then the start, the end or one of your own positions."""
    g = build_position(3, "base", queue="p1:~heir p2:~spy", hands=["soldier archer", "lord", "heir"],
                       round=2, phase="place")  # fmt: skip
    t = Translator("en")
    menu = build_menu(g, t)
    assert menu.title == "Round 2: which card do you place?"
    assert [o.label for o in menu.options] == ["Archer", "Soldier"]
    where = menu.options[1].submenu
    assert where is not None and where.nested
    assert [o.label for o in where.options] == [
        "at the start of the queue (acts first)",
        "at the end of the queue (after position 2)",
        "on top of 1: Heir · p1 · face down",
    ]
    assert [action_text(g, o.action or 0) for o in where.options] == [
        "place soldier first", "place soldier last", "place soldier on 1",
    ]  # fmt: skip


def test_a_face_down_opponent_card_is_described_without_its_name() -> None:
    """Target menus show only what the deciding seat knows (docs/rules.md §3: face-down cards are secret)."""
    g = build_position(3, "base", queue="p2:~ambush+1 p1:soldier p3:~lord", round=6)
    g.apply(parse_action(g, "keep"))
    t = Translator("en")
    menu = build_menu(g, t)
    assert menu.title == "Soldier: choose the card to eliminate."
    assert [o.label for o in menu.options] == ["face-down card · p2 · 2 IP", "face-down card · p3"]
    assert menu.numbers() == [1, 3]  # numbered once, by queue position, as the board shows them


def test_royal_decree_destinations_name_the_neighbours() -> None:
    """The Decree's 'to N' is the card's new position; the menu says between which cards it lands."""
    g = build_position(3, "base", queue="p1:~royal-decree p2:soldier p3:lord p1:heir p2:spy", round=6)
    g.apply(parse_action(g, "reveal"))
    g.apply(parse_action(g, "target 3"))
    menu = build_menu(g, Translator("en"))
    assert [o.label for o in menu.options] == [
        "position 1: at the start, before Royal Decree p1",
        "position 2: between Royal Decree p1 and Soldier p2",
        "position 4: between Heir p1 and Spy p2",
        "position 5: at the end, after Spy p2",
    ]


def test_numbers_action_text_and_commands_are_read() -> None:
    """A number picks an entry; the text form, ?, help CARD, rules, log, save, quit are understood."""
    g = build_position(3, "base", queue="p2:~heir+2 p1:soldier p3:lord", round=6)
    t = Translator("en")
    menu = build_menu(g, t)
    assert interpret("2", menu, g, t).kind == "choose"
    assert interpret(" 2 ", menu, g, t).value == 1
    assert interpret("reveal", menu, g, t).value == parse_action(g, "reveal")
    assert interpret("?", menu, g, t).kind == "help"
    assert (interpret("help Яд", menu, g, t).kind, interpret("help Яд", menu, g, t).value) == (
        "card", "assassination",
    )  # fmt: skip
    assert interpret("rules", menu, g, t).kind == "rules"
    assert interpret("log", menu, g, t).kind == "log"
    assert (interpret("save my game.json", menu, g, t).kind, interpret("save x.json", menu, g, t).value) == (
        "save", "x.json",
    )  # fmt: skip
    assert interpret("save", menu, g, t).value is None
    assert interpret("quit", menu, g, t).kind == "quit"


@pytest.mark.parametrize(
    ("typed", "key"),
    [("", "error.empty"), ("7", "error.out_of_range"), ("0", "error.no_back"), ("banana", "error.not_understood"),
     ("target 9", "error.not_understood"), ("help dragon", "error.unknown_card")],
)  # fmt: skip
def test_invalid_input_is_a_message_not_an_error(typed: str, key: str) -> None:
    """What cannot be read becomes a message for the person, with the prompt asked again."""
    g = build_position(3, "base", queue="p2:~heir+2 p1:soldier p3:lord", round=6)
    t = Translator("en")
    cmd = interpret(typed, build_menu(g, t), g, t)
    assert (cmd.kind, cmd.value) == ("invalid", key)
    assert "{" not in t(key, **cmd.params)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=40))
@example("UNDO")
@example("0")
def test_no_typed_line_can_raise(typed: str) -> None:
    """Any text at all (control characters, other scripts) is read without an exception."""
    g = build_position(3, "base", queue="p2:~heir+2 p1:soldier p3:lord", round=6)
    t = Translator("fr")
    cmd = interpret(typed, build_menu(g, t), g, t)
    assert cmd.kind in get_args(CommandKind)
    if cmd.kind == "back":
        assert build_menu(g, t).nested, "a top-level menu has nothing to go back to"


@pytest.mark.parametrize(
    ("name", "slug"),
    [("soldier", "soldier"), ("Royal Decree", "royal-decree"), ("royal_decree", "royal-decree"),
     ("Яд", "assassination"), ("zlecenie zabojstwa", "assassination"), ("heritier", "heir"),
     ("«Угода»", "agreement"), ("Impostor", "shapeshifter"), ("ŁUCZNIK", "archer"), ("Coupe-jarret", "cutthroat")],
)  # fmt: skip
def test_help_finds_a_card_by_its_name_in_any_language(name: str, slug: str) -> None:
    """help CARD accepts the slug, any catalog's name (accents and quotes optional) or a unique prefix."""
    assert resolve_card(name) == slug


def test_an_ambiguous_or_unknown_name_finds_no_card() -> None:
    assert resolve_card("pr") is None  # too short to be a prefix
    assert resolve_card("impost") is None  # Impostor (pl) or Imposture (fr)
    assert resolve_card("dragon") is None


# ------------------------------------------------------- what a person types


def _placing_with_decree() -> Game:
    from oriflamme import build_position

    return build_position(
        3,
        "base",
        "p1:~spy p2:lord",
        hands={0: "royal-decree soldier", 1: "heir", 2: "archer"},
        phase="place",
        round=2,
    )


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("place royal decree last", "place royal-decree last"),  # a name with a space
        ("Royal Decree start", "place royal-decree first"),  # no verb, start for first
        ("royal decree end", "place royal-decree last"),
        ("place sold last", "place soldier last"),  # an unambiguous beginning of a name
        ("décret royal fin", "place royal-decree last"),  # French
        ("place «Королівський указ» кінець", "place royal-decree last"),  # Ukrainian
        ("soldier on 1", "place soldier on 1"),
    ],
)
def test_a_person_may_type_an_action_the_way_people_say_it(typed: str, meant: str) -> None:
    g = _placing_with_decree()
    cmd = interpret(typed, build_menu(g, Translator("en")), g, Translator("en"))
    assert cmd.kind == "action" and action_text(g, cmd.value) == meant  # type: ignore[arg-type]


@pytest.mark.parametrize("typed", ["royal decree", "place soldier", "Солдат"])
def test_a_bare_card_name_while_placing_picks_that_card_and_asks_where(typed: str) -> None:
    g = _placing_with_decree()
    t = Translator("en")
    menu = build_menu(g, t)
    cmd = interpret(typed, menu, g, t)
    assert cmd.kind == "choose"
    chosen = menu.options[cmd.value]  # type: ignore[index]
    expected = "royal-decree" if "decree" in typed else "soldier"
    assert chosen.label == t.card(expected)


def test_a_wrong_answer_lists_the_legal_forms() -> None:
    g = _placing_with_decree()
    t = Translator("en")
    cmd = interpret("place heir last", build_menu(g, t), g, t)  # not in this hand
    assert cmd.kind == "invalid"
    message = t(str(cmd.value), **cmd.params)
    assert message.startswith("“place heir last” is not a choice here.")
    assert (
        "place soldier first, place soldier last, place royal-decree first, place royal-decree last"
        in message
    )
