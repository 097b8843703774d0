"""Loading designers' card modules: from a file, refused with a reason, through the commands."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from support.designer import EXAMPLE, HERALD_DECK, example_module

from oriflamme import Game
from oriflamme.bots.base import play_game
from oriflamme.designer import Card, CardError, CardText, register, registered
from oriflamme.engine.cards import KINDS, OFFICIAL_KINDS, SLUGS
from oriflamme.i18n import load_catalog


def _nothing_registered() -> None:
    assert len(KINDS) == OFFICIAL_KINDS and len(SLUGS) == OFFICIAL_KINDS
    assert not any(key.startswith("card.herald") for key in load_catalog("en"))


def _herald(**changes: object) -> Card:
    card: Card = example_module().HERALD
    for name, value in changes.items():
        setattr(card, name, value)
    return card


@pytest.mark.parametrize(
    ("changes", "why"),
    [
        ({"slug": "soldier"}, "already loaded"),
        ({"slug": "Herald!"}, "lower-case letters"),
        ({"slug": "random"}, "reserved word"),
        ({"box": "base"}, "its own box name"),
        ({"texts": {"ru": CardText("Глашатай", "…")}}, "English"),
        ({"texts": {"en": CardText("Herald", "")}}, "a name and a text"),
        ({"texts": {"en": CardText("Herald", "x"), "de": CardText("Herold", "x")}}, "'de'"),
        ({"ability": "not a function"}, "not a function"),
        ({"art": ['M0 0"/><script>alert(1)</script>']}, "SVG path data"),
        ({"hints": {"act": "lots"}}, "is a number"),
        ({"hints": {"keep": 1.5}}, "from 0 to 1"),
        ({"hints": {"target": "left"}}, "'own' or 'opponent'"),
        ({"hints": {"strength": 3}}, "unknown bot hint"),
        ({"kept": True}, "only an intrigue"),
    ],
)
def test_a_card_with_a_problem_is_refused_with_its_reason_and_nothing_registered(
    changes: dict[str, object], why: str
) -> None:
    with pytest.raises(CardError, match=why):
        register(_herald(**changes))
    _nothing_registered()


def test_registering_the_same_card_twice_is_refused_and_the_first_stays() -> None:
    with registered(_herald()) as (card,):
        with pytest.raises(CardError, match="already loaded"):
            register(_herald())
        assert SLUGS[card.kind] == "herald" and len(KINDS) == OFFICIAL_KINDS + 1
    _nothing_registered()


@pytest.mark.parametrize(
    ("source", "why"),
    [
        ("raise RuntimeError('oops')\n", "failed to load: RuntimeError: oops"),
        ("CARDS = []\n", "no cards to load"),
        ("CARDS = ['herald']\n", "not Card objects"),
        ("x = (\n", "failed to load: SyntaxError"),
    ],
)
def test_a_card_file_that_cannot_load_says_why(tmp_path: Path, source: str, why: str) -> None:
    from oriflamme.designer import load_file

    path = tmp_path / "mine.py"
    path.write_text(source)
    with pytest.raises(CardError, match=why):
        load_file(path)
    with pytest.raises(CardError, match="no such card file"):
        load_file(tmp_path / "missing.py")
    _nothing_registered()


def _run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if k != "ORIFLAMME_CARDS"}
    environment.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "oriflamme", *args],
        capture_output=True,
        text=True,
        timeout=240,
        env=environment,
    )


def test_simulate_plays_the_example_card_from_its_own_file() -> None:
    done = _run("simulate", "--cards", str(EXAMPLE), "-d", HERALD_DECK, "-n", "30", "-p", "3", "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["games"] == 30 and "herald" in result["recipes"][0]


def test_without_the_file_the_deck_is_refused_in_one_line() -> None:
    done = _run("simulate", "-d", HERALD_DECK, "-n", "1")
    assert done.returncode == 2 and "unknown card 'herald'" in done.stderr and "Traceback" not in done.stderr
    bad = _run("simulate", "--cards", "nowhere.py", "-d", HERALD_DECK, "-n", "1")
    assert bad.returncode == 2 and "nowhere.py: no such card file" in bad.stderr


def test_a_tournament_of_search_and_heuristic_bots_plays_it_in_worker_processes() -> None:
    done = _run(
        "tournament", "--cards", str(EXAMPLE), "-d", HERALD_DECK, "--bots", "ismcts:40,heuristic",
        "-n", "4", "-w", "2", "--json",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["games"] == 4


def test_analyze_studies_the_example_card(tmp_path: Path) -> None:
    out = tmp_path / "study"
    done = _run(
        "analyze", "--cards", str(EXAMPLE), "-d", HERALD_DECK, "--bots", "heuristic,heuristic,heuristic", "-p", "3",
        "-n", "12", "-o", str(out), "--json",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    summary = json.loads((out / "summary.json").read_text())
    herald = summary["kinds"]["herald"]
    assert herald["games"] == 12 and herald["ip_gained_per_game"]["mean"] > 0


def test_train_learns_a_network_for_a_deck_with_the_card_and_the_net_bot_plays_it(tmp_path: Path) -> None:
    """``train --cards`` plays and imitates search games with the Herald; the network it writes records
    the kinds it knows, is refused without the card, and plays a Herald game with it."""
    out = tmp_path / "herald-net.npz"
    done = _run(
        "train", "--cards", str(EXAMPLE), "-d", HERALD_DECK, "-p", "2", "-n", "2", "--level", "8",
        "--epochs", "1", "--hidden", "16", "--workers", "1", "--out", str(out), "--json",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    from oriflamme.bots.net.bot import NetBot
    from oriflamme.bots.net.model import WeightsError, load

    with pytest.raises(WeightsError, match="herald"):
        load(str(out))
    with registered(*example_module().CARDS):
        bot = NetBot(load(str(out)))
        game = play_game(Game.new(players=2, deck=HERALD_DECK, seed=3), [bot, bot])
        assert game.is_over() and any(SLUGS[k] == "herald" for k in game.recipe)
