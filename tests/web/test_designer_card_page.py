"""A designer's card on the browser table: the server loads it with --cards, the page shows and plays it."""

from __future__ import annotations

import json
import random
import urllib.request
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser
from support.browser import Server, click_once, need_chromium, open_page
from support.designer import EXAMPLE, HERALD_DECK, example_module

from oriflamme import Game
from oriflamme.designer import registered

need_chromium()


@pytest.fixture(scope="module")
def herald_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with Server(tmp_path_factory.mktemp("cards") / "games.sqlite3", cards=EXAMPLE) as s:
        yield s


def _seed_with_a_herald_in_hand() -> int:
    with registered(*example_module().CARDS) as (card,):
        for seed in range(100):
            g = Game.new(3, HERALD_DECK, seed)
            if any(g.kind[c] == card.kind for c in g.hands[0]):
                return seed
    raise AssertionError("no seed deals p1 a Herald")


def test_the_server_offers_the_card_its_words_and_its_emblem(herald_server: Server) -> None:
    with urllib.request.urlopen(herald_server.url + "/api/meta", timeout=5) as r:
        meta = json.load(r)
    herald = next(c for c in meta["cards"] if c["slug"] == "herald")
    assert herald["character"] is True and herald["box"] == "heralds" and len(herald["art"]) == 3
    with urllib.request.urlopen(herald_server.url + "/locales/fr.json", timeout=5) as r:
        assert json.load(r)["card.herald.name"] == "Héraut"


def test_a_person_plays_a_whole_herald_game_in_the_browser(herald_server: Server, browser: Browser) -> None:
    data = herald_server.create(
        [
            {"kind": "person", "name": "Ann"},
            {"kind": "bot", "bot": "heuristic"},
            {"kind": "bot", "bot": "random"},
        ],
        seed=_seed_with_a_herald_in_hand(),
        deck=HERALD_DECK,
    )
    errors: list[str] = []
    page = open_page(browser, f"{herald_server.url}/play/{data['seats'][0]['token']}", errors)
    page.wait_for_selector(".prompt.mine", timeout=15_000)
    hand = page.locator(".hand").first
    assert "Herald" in hand.inner_text()
    # The designer's emblem, not the plain lozenge of an unknown kind.
    assert "M16 22h18" in hand.inner_html()
    rng = random.Random(2)
    for _ in range(300):
        if not click_once(page, rng):
            break
    page.wait_for_selector(".result", timeout=15_000)
    assert errors == []
