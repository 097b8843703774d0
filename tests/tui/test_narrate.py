"""Narration: every event code told in every language, redacted for the seat that reads it."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from oriflamme import Game, build_position, parse_action
from oriflamme.engine.events import FIELDS, NAMES
from oriflamme.i18n import LANGUAGES, Translator, load_catalog
from oriflamme.narration import HIDDEN_VARIANTS, all_event_keys, message_key
from oriflamme.tui.narrate import narrate, narrate_events

#: A leftover {field} or a raw catalog key means a message was not filled.
UNFILLED = re.compile(r"\{\w+\}|\b(event|ui|card|unit)\.[a-z_.]+")


def synthetic_events(card: str | None) -> list[dict[str, Any]]:
    """One redacted dict per event code, with every field its code can carry."""
    out = []
    for code, name in enumerate(NAMES):
        n_key, extra_key = FIELDS[code]
        base: dict[str, Any] = {"type": name, "seat": 1, "pos": 2, "owner": 2, "card": card}
        if n_key == "ability":
            base["ability"] = "soldier"
        elif n_key == "winners":
            base["winners"] = [0]
        elif n_key is not None:
            base[n_key] = 3
        if extra_key in ("by_card", "hand_card"):
            base[extra_key] = card
        elif extra_key == "source":
            base[extra_key] = "aside"
        elif extra_key == "stacked":
            base[extra_key] = False
        elif extra_key is not None:
            base[extra_key] = 0
        out.append(base)
    return out


def variants(event: dict[str, Any]) -> list[dict[str, Any]]:
    """The event with each field value that selects another message."""
    more = [event]
    for key, values in (("stacked", (True,)), ("pos", (0,)), ("ip", (0, 1)), ("amount", (1, 5, 21)),
                        ("source", ("discard",)), ("winners", ([0, 2],)), ("ability", ("heir",))):  # fmt: skip
        if key in event:
            more += [{**event, key: v} for v in values]
    return more


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_event_code_is_told_in_every_language_known_or_hidden(lang: str) -> None:
    """All 26 event codes, with the card known and hidden, in all their variants: no KeyError, no gaps."""
    t = Translator(lang)
    for card in ("soldier", None):
        for event in synthetic_events(card):
            for e in variants(event):
                line = narrate(t, e)
                assert line and not UNFILLED.search(line), (lang, e, line)
                assert t.message(message_key(e)) is not None, message_key(e)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_catalogs_hold_every_narration_key(lang: str) -> None:
    """Every key the narrator can ask for, hidden variants included, is in the catalog itself."""
    catalog = load_catalog(lang)
    assert [k for k in all_event_keys() if k not in catalog] == []
    assert {k.removesuffix(".hidden") for k in all_event_keys() if k.endswith(".hidden")} == {
        f"event.{k}" for k in HIDDEN_VARIANTS
    }


def test_real_games_narrate_without_gaps_for_a_player_and_a_spectator() -> None:
    """Random games of each deck, told for seat 0 and a spectator in every language."""
    translators = [Translator(lang) for lang in LANGUAGES]
    seen: set[str] = set()
    for i, deck in enumerate(("base", "ablaze", "alliance", "random", "random")):
        g = Game.new(players=3 + i % 3, deck=deck, seed=100 + i)
        rng = random.Random(i)
        events = list(g.events)
        while not g.is_over():
            events += g.apply(rng.choice(g.legal_actions()))
        for t in translators:
            for seat in (0, None):
                for line in narrate_events(t, g, events, seat):
                    assert not UNFILLED.search(line), (t.lang, line)
        seen |= {NAMES[e[0]] for e in events}
    assert {"placed", "eliminated", "revealed", "kept_hidden", "game_ended"} <= seen


def test_a_card_placed_face_down_is_named_only_to_its_owner() -> None:
    """docs/rules.md §3: cards are placed face down; only the owner's log names the card."""
    g = Game.new(players=3, deck="base", seed=4)
    seat = g.current_player()
    action = g.legal_actions()[0]
    name = Translator("en").card(g.view(seat).hand[0].kind or "")
    events = g.apply(action)
    t = Translator("en")
    own = narrate_events(t, g, events, seat)
    other = narrate_events(t, g, events, (seat + 1) % 3)
    spectator = narrate_events(t, g, events, None)
    assert any(name in line for line in own)
    assert not any(name in line for line in other + spectator)
    assert other[0] == f"p{seat + 1} places a card face down at the start of the queue."


def test_keep_and_reveal_are_told_with_the_ip_on_the_card() -> None:
    """Keeping puts 1 IP on the card; revealing takes what lies on it (docs/rules.md §3)."""
    from oriflamme.notation.position import build_position

    g = build_position(3, "base", queue="p2:~heir+2 p1:soldier p3:lord", round=6)
    events = g.apply(parse_action(g, "reveal"))
    lines = narrate_events(Translator("en"), g, events, None)
    assert lines[0] == "p2 reveals Heir at position 1 and takes the 2 IP on it."
    assert "p2 gains 2 IP (Heir)." in lines
    ru = narrate_events(Translator("ru"), g, events, None)
    assert ru[0] == "p2 открывает карту «Наследник» на позиции 1 и забирает с неё 2 очка влияния."


def test_every_gain_and_loss_says_why() -> None:
    """Infiltration's bonus, a Queen's bonus, a Felon's toll: each sentence names its cause."""
    t = Translator("en")
    g = build_position(
        3,
        "soldier,empress,fanatic,informant,diplomat,deserter,judge,insurrection,extortion,infiltration",
        "p1:soldier p2:~fanatic",
        round=6,
        kept={0: "infiltration"},
        scores=[0, 0, 0],
    )
    lines = narrate_events(t, g, g.events, None)
    assert "p1 gains 1 IP (eliminations)." in lines
    assert "p1 gains 2 IP (Infiltration)." in lines
    g = build_position(3, "ablaze", "p1:cutthroat p2:queen p3:felon", round=6, scores=[3, 3, 3])
    lines = narrate_events(t, g, g.events, None)
    assert "p1 gains 1 IP (Queen)." in lines  # the opponent who eliminates the Queen
    assert "p1 loses 1 IP (Felon)." in lines  # the Felon's neighbour once the Queen has gone
    ru = narrate_events(Translator("ru"), g, g.events, None)
    assert any("(Королева)" in line for line in ru)


def test_bribing_back_ones_own_card_is_told_as_such() -> None:
    """§7 Bribery + §11: p2 takes back its Queen from p1; the log says the token went home and the Queen is p2's."""
    g = build_position(3, "ablaze", "p2:~bribery p2:queen@p1 p1:~felon", scores=[0, 0, 0])
    events = g.apply(parse_action(g, "reveal"))
    lines = narrate_events(Translator("en"), g, events, None)
    assert "p1's bribery token leaves p2's Queen and goes back to p1." in lines
    assert any(line.startswith("p2 bribes back their own Queen") for line in lines), lines
