"""A newcomer's first hour in the browser: inviting friends, waiting for them, the rematch, the
prompts of a Plot and of a confirmation, and the replay viewer.

Pages are driven in headless Chromium against a real ``oriflamme serve`` (the module's
``server``); single boards are drawn with the page's own modules from positions built for the
purpose (``build_position``).
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page
from support.browser import Server, need_chromium, open_page, state_of

from oriflamme import build_position
from oriflamme.engine.action_text import action_text
from oriflamme.web.protocol import reveal_payload, view_payload

need_chromium()

LANGUAGES = ("en", "fr", "ru", "uk", "pl")


def post(server: Server, path: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        server.url + path, json.dumps(body).encode(), {"content-type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as r:
        data: dict[str, Any] = json.load(r)
    return data


#: Draws one board from a view payload with the page's own modules, in ``lang``; clicks land in
#: ``window.__acted``; returns what the prompt says.
_RENDER = """async ([view, legal, seat, reveal, lang]) => {
    const base = document.querySelector('script[type=module]').src.replace(/app\\.js$/, '');
    const i18n = await import(base + 'i18n.js');
    const { board } = await import(base + 'board.js');
    const { parseLegal } = await import(base + 'legal.js');
    const { chooser } = await import(base + 'confirm.js');
    await i18n.setLanguage(lang);
    window.__acted = [];
    let chosen = null;
    const moves = chooser((text) => window.__acted.push(text), () => draw(chosen));
    const draw = (slug) => {
        chosen = slug;
        const ctx = {
            view, seat, names: (s) => `P${s + 1}`, legal: parseLegal(legal),
            act: (text, opts) => moves.act(text, opts), select: (s) => draw(s), selected: slug,
            selectedIndex: null, online: null, seats: null, rules: null, interactive: true, reveal,
            pending: moves.pending, cancel: () => moves.cancel(),
        };
        let main = document.getElementById('board-stage');
        if (!main) {
            const stage = document.createElement('div');
            stage.id = 'app';
            main = stage.appendChild(document.createElement('main'));
            main.id = 'board-stage';
            main.className = 'table-page';
            document.getElementById('app').replaceWith(stage);
        }
        main.replaceChildren(board(ctx));
    };
    draw(null);
    return [document.querySelector('.prompt-text').innerText, i18n.t('web.choose'),
            i18n.cardName('cutthroat'), i18n.cardName('plot')];
}"""


def render(page: Page, game: Any, seat: int, lang: str = "en") -> list[str]:
    view = game.view(seat)
    legal = [action_text(game, a) for a in view.legal_actions] if view.to_move == seat else []
    answer: list[str] = page.evaluate(_RENDER, [view_payload(view), legal, seat, reveal_payload(game), lang])
    return answer


@pytest.fixture
def page(server: Server, browser: Browser) -> Iterator[Page]:
    errors: list[str] = []
    p = open_page(browser, server.url, errors)
    p.wait_for_selector("header.top")
    yield p
    p.context.close()
    assert errors == []


def decide(page: Page) -> bool:
    """Make the decision the page asks with the first choice it offers; False once the game is over."""
    page.wait_for_selector(".result, .prompt.mine", timeout=20_000)
    if page.locator(".result").count():
        return False
    before = state_of(page)
    offered = page.locator(".prompt.mine .act:not(.ghost), .chip.legal, .queue .legal")
    if not offered.count():
        page.locator(".hand .card.legal").first.click()  # placing: the card first, then its place
    page.locator(".prompt.mine .act:not(.ghost), .chip.legal, .queue .legal").first.click()
    page.wait_for_function(
        "(s) => Number(document.body.dataset.state) > s || !!document.querySelector('.prompt.confirming')",
        arg=before,
        timeout=20_000,
    )
    if state_of(page) == before:
        page.locator(".prompt .act.confirm").click()
        page.wait_for_function("(s) => Number(document.body.dataset.state) > s", arg=before, timeout=20_000)
    return True


def _apply(game: Any, text: str) -> None:
    game.apply(next(a for a in game.legal_actions() if action_text(game, a) == text))


def test_a_plot_making_a_bribed_cutthroat_act_says_which_card_acts_and_what_to_choose(page: Page) -> None:
    """p1 reveals a Plot; the only revealed character p1 controls is p2's Cutthroat, bribed: the
    Plot applies its ability, and p1 chooses which neighbour it eliminates."""
    g = build_position(
        3,
        "ablaze",
        "p1:~plot+1 p3:felon p2:cutthroat@p1 p3:queen",
        hands={0: ["schemer"], 1: ["schemer"], 2: ["schemer"]},
    )
    _apply(g, "reveal")
    assert g.view(0).decision == "eliminate"
    said, choose, *_ = render(page, g, 0)
    assert said == "Cutthroat (position 2), played by the Plot: choose the card to eliminate."
    assert said != choose
    for lang in LANGUAGES[1:]:
        said, choose, cutthroat, plot = render(page, g, 0, lang)
        assert said != choose and cutthroat in said and plot in said and "2" in said, (lang, said)


def test_a_confirmation_names_the_move_chosen(page: Page) -> None:
    """With a confirmation before each move (the default on touch screens), the prompt asks about
    the move chosen, not the question again."""
    page.evaluate("localStorage.setItem('oriflamme.confirm', '1')")
    g = build_position(
        3, "base", "p2:~spy", hands={0: ["archer"], 1: ["soldier"], 2: ["soldier"]}, phase="place"
    )
    render(page, g, 0)
    page.locator(".hand .card.legal[data-kind=archer]").click()
    page.locator(".prompt .act.end-choice").first.click()
    assert (
        page.locator(".prompt.confirming .prompt-text").inner_text()
        == "Place Archer at the start of the queue?"
    )
    page.locator(".prompt .act.confirm").click()
    assert page.evaluate("window.__acted") == ["place archer first"]
    # A target names the card and its position.
    h = build_position(
        3, "base", "p1:heir p1:~archer p2:spy", hands={0: ["lord"], 1: ["lord"], 2: ["lord"]}, pointer=1
    )
    _apply(h, "reveal")
    render(page, h, 0)
    page.locator(".queue .card.legal:not(.own-target)").click()
    assert page.locator(".prompt.confirming .prompt-text").inner_text() == (
        "Eliminate the card at position 3 (Spy)?"
    )


def test_the_replay_viewer_says_where_in_the_replay_it_is(server: Server, browser: Browser) -> None:
    data = server.create([{"kind": "bot", "bot": "random"}] * 3, first_player=0)
    replay = f"{server.url}/api/replay/{data['spectator']}"
    steps = 0
    deadline = time.monotonic() + 30
    while not steps and time.monotonic() < deadline:  # the bots play the game out
        try:
            with urllib.request.urlopen(replay, timeout=5) as r:
                steps = len(json.load(r)["steps"])
        except urllib.error.HTTPError:
            time.sleep(0.05)
    errors: list[str] = []
    page = open_page(browser, f"{server.url}/replay/{data['spectator']}?step=1", errors)
    page.wait_for_selector(".replay .prompt-text")
    said = page.locator(".prompt-text").inner_text()
    assert "Waiting" not in said
    assert said.startswith(f"Round 1/6 · move 1 of {steps - 1} · ") and said.endswith(" to decide")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => document.querySelector('.prompt-text').innerText.includes('move 2 of')")
    assert errors == []


def test_a_friends_table_waits_for_them_and_the_host_hands_out_their_links(
    server: Server, browser: Browser
) -> None:
    """The lobby: 3 players, a 30 s timer, seats 2 and 3 for friends. At the table the host finds
    their links, the seats say they have not joined, and no clock runs until both have."""
    errors: list[str] = []
    page = open_page(browser, server.url, errors)
    page.locator("select[name=players]").select_option("3")
    page.locator("select[name=turn_seconds]").select_option("30")
    page.locator(".seat-row input.name").first.fill("Ann")
    for row in (1, 2):
        page.locator(".seat-row").nth(row).locator("select").first.select_option("person")
    page.locator("form button.primary[type=submit]").click()
    page.wait_for_selector(".created")
    page.locator(".created a.button").click()  # take my seat
    page.wait_for_url(lambda url: "/play/" in url)
    page.wait_for_selector(".invite-friends .invite")
    links = page.locator(".invite-friends input.link").evaluate_all("(els) => els.map((e) => e.value)")
    assert len(links) == 2 and all("/play/" in link for link in links)
    assert page.locator(".chip .waiting-tag").count() == 2
    assert page.locator(".turn-clock").count() == 0  # her clock waits for her friends
    if page.locator(".prompt.mine").count():
        decide(page)
    page.wait_for_function(
        "() => document.querySelector('.prompt-text').innerText.includes('to join')", timeout=10_000
    )
    friends = [open_page(browser, link, errors) for link in links]
    for friend in friends:
        friend.wait_for_selector(".board")
    page.wait_for_selector(".invite-friends", state="detached")
    assert page.locator(".chip .waiting-tag").count() == 0
    deciding = next(p for p in [page, *friends] if p.locator(".prompt.mine").count())
    deciding.wait_for_selector(".prompt.mine .turn-clock")  # everyone is here: the clock runs
    assert errors == []


def test_a_rematch_keeps_each_persons_name_and_asks_nobody_again(server: Server, browser: Browser) -> None:
    body = {
        "players": 3,
        "deck": "base",
        "seed": 5,
        "seats": [{"kind": "person"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}],
        "rules": {"rounds": 1},
    }
    data = post(server, "/api/tables", body)
    errors: list[str] = []
    page = open_page(browser, f"{server.url}/play/{data['seats'][0]['token']}", errors)
    page.wait_for_selector(".name-ask")
    page.locator(".name-ask input").fill("Zoé")
    page.locator(".name-ask button[type=submit]").click()
    page.wait_for_selector(".name-ask", state="detached")
    page.wait_for_function("() => document.querySelector('.chip.me .who').innerText.startsWith('Zoé')")
    while decide(page):
        pass
    page.locator("button.rematch").click()
    page.wait_for_url(lambda url: data["seats"][0]["token"] not in url)
    page.wait_for_selector(".board")
    assert page.locator(".name-ask").count() == 0
    assert errors == []
