"""The table page's layout, measured in a real Chromium: in every language and at the widths people
use, nothing runs off the page, the hand is in view when it is needed, card names are whole, and no
glyph needs an emoji font.

Each check measures the page as drawn (``scrollWidth`` against ``clientWidth``, bounding boxes
against the viewport, what is drawn at a point), in the five languages of the page.
"""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page
from playwright.sync_api import Error as PlaywrightError
from support.browser import Server, need_chromium

need_chromium()

LANGUAGES = ("en", "fr", "ru", "uk", "pl")
#: The longest name a seat may have, in one word: the log and the chips must still fit.
LONG_NAME = "Wolfeschlegelsteinhausen"[:24]


def make_table(server: Server, seats: list[dict[str, Any]], **rules: Any) -> dict[str, Any]:
    body = {"players": len(seats), "deck": "base", "seed": 11, "seats": seats, "first_player": 0, **rules}
    request = urllib.request.Request(
        server.url + "/api/tables", json.dumps(body).encode(), {"content-type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=5) as r:
        data: dict[str, Any] = json.load(r)
    return data


#: Errors thrown in the pages a test opened (``contexts`` checks there were none).
PAGE_ERRORS: list[str] = []


@pytest.fixture
def contexts(browser: Browser) -> Iterator[list[BrowserContext]]:
    """Browser contexts a test opens, closed after it; their pages threw no error."""
    made: list[BrowserContext] = []
    PAGE_ERRORS.clear()
    yield made
    for c in made:
        c.close()
    assert PAGE_ERRORS == []


def open_table(
    contexts: list[BrowserContext], browser: Browser, url: str, lang: str, width: int, height: int
) -> Page:
    context = browser.new_context(viewport={"width": width, "height": height}, reduced_motion="reduce")
    context.add_init_script(f"localStorage.setItem('oriflamme.lang', '{lang}')")
    contexts.append(context)
    page = context.new_page()
    page.on("pageerror", lambda e: PAGE_ERRORS.append(str(e)))
    page.goto(url)
    page.wait_for_function("(lang) => document.documentElement.lang === lang", arg=lang)
    return page


def settle(page: Page) -> None:
    """Two frames: the layout after a resize or a state is drawn."""
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")


#: What runs off the page or out of its box; empty when everything fits.
_OVERFLOW = """() => {
    const w = window.innerWidth;
    const bad = [];
    const page = document.documentElement.scrollWidth;
    if (page > w) bad.push(`the page is ${page} px wide`);
    const what = (el) => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')} «${el.textContent.trim().slice(0, 40)}»`;
    const boxes = '.side-col > *, .side-col button, .side-col input, .chat-form button, .log li, .chip, '
        + '.prompt, .hand-area, .play-bar, .status, .name-ask, .queue-wrap';
    for (const el of document.querySelectorAll(boxes)) {
        const r = el.getBoundingClientRect();
        if (r.width && (r.left < -0.5 || r.right > w + 0.5)) bad.push(`${what(el)} spans ${Math.round(r.left)}..${Math.round(r.right)}`);
    }
    const texts = '.log li, .chat-lines li, .side-col summary, .side-col button, .side-col label, .chip .tags, '
        + '.chip .meta, .prompt-text, .hint, .why p, .name-ask label';
    for (const el of document.querySelectorAll(texts)) {
        if (el.scrollWidth > el.clientWidth + 1) bad.push(`${what(el)} is cut: ${el.scrollWidth}/${el.clientWidth} px`);
    }
    return bad;
}"""


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_table_page_never_overflows_sideways(
    server: Server, browser: Browser, contexts: list[BrowserContext], lang: str
) -> None:
    """Russian, Ukrainian and French made the page 1,378 to 1,404 px wide at 1366 (the side column, the
    chat's send button and the log cut). Every language fits from a phone to 1920, with the longest
    one-word name a seat may have in the chips and the log."""
    data = make_table(
        server,
        [{"kind": "person", "name": LONG_NAME, "lang": lang}, {"kind": "bot", "bot": "ismcts:expert"},
         {"kind": "person", "name": ""}, {"kind": "bot", "bot": "heuristic"}],
    )  # fmt: skip
    page = open_table(contexts, browser, f"{server.url}/play/{data['seats'][0]['token']}", lang, 1366, 768)
    page.wait_for_selector(".prompt.mine")
    for width in (1920, 1366, 1280, 1024, 390):
        page.set_viewport_size({"width": width, "height": 768 if width > 600 else 844})
        settle(page)
        bad = page.evaluate(_OVERFLOW)
        assert bad == [], f"{lang} at {width} px:\n" + "\n".join(bad)


#: The hand's cards that are not wholly in view, with their names readable (not under anything).
_HAND_HIDDEN = """() => {
    const top = document.querySelector('header.top').getBoundingClientRect().bottom;
    const bad = [];
    const cards = [...document.querySelectorAll('.hand .card')];
    if (!cards.length) return ['no hand'];
    for (const card of cards) {
        const c = card.getBoundingClientRect();
        const label = `${card.dataset.kind} at ${Math.round(c.left)},${Math.round(c.top)}..${Math.round(c.bottom)}`;
        if (c.top < top - 0.5 || c.bottom > window.innerHeight + 0.5 || c.left < 0 || c.right > window.innerWidth) {
            bad.push(`${label}: out of view (${window.innerWidth}x${window.innerHeight})`);
            continue;
        }
        const name = card.querySelector('.name');
        const r = name.getBoundingClientRect();
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        if (!hit || !card.contains(hit)) bad.push(`${label}: its name is under ${hit && hit.className}`);
        if (name.scrollWidth > name.clientWidth + 1) bad.push(`${label}: «${name.textContent}» cut`);
    }
    return bad;
}"""


def in_view(page: Page) -> None:
    """Wait (a few seconds at most) for the whole hand to be in view, names readable; else say why not."""
    try:
        page.wait_for_function(f"() => ({_HAND_HIDDEN})().length === 0", timeout=5_000)
    except PlaywrightError:
        bad = page.evaluate(_HAND_HIDDEN)
        raise AssertionError(f"scrolled to {page.evaluate('window.scrollY')}:\n" + "\n".join(bad)) from None


_CHIP_ROWS = "() => new Set([...document.querySelectorAll('.chip')].map((c) => Math.round(c.getBoundingClientRect().top))).size"


@pytest.mark.parametrize("players", [2, 5])
def test_the_hand_is_in_view_at_the_first_decision_on_a_laptop(
    server: Server, browser: Browser, contexts: list[BrowserContext], players: int
) -> None:
    """At 1366 × 768 the hand was under the fold at the first decision, at 1366 × 657 out of sight; a
    2-player hand of 16 cards overlapped and hid its names; five chips took two rows. Now the hand is in
    view, each card's name whole and uncovered, and five chips keep one row from 1280 px."""
    for lang in ("en", "ru"):
        seats = [{"kind": "person", "name": "Ann", "lang": lang}]
        seats += [{"kind": "bot", "bot": "ismcts:expert"} for _ in range(players - 1)]
        data = make_table(server, seats)
        page = open_table(
            contexts, browser, f"{server.url}/play/{data['seats'][0]['token']}", lang, 1366, 768
        )
        page.wait_for_selector(".prompt.mine .hint, .prompt.mine .why")
        assert page.evaluate("() => window.scrollY") == 0
        assert page.locator(".hand-block:first-child .hand .card").count() == (16 if players == 2 else 7)
        sizes = [(1366, 768), (1366, 657), (1280, 720), (1024, 768)]
        for width, height in sizes:
            page.set_viewport_size({"width": width, "height": height})
            settle(page)
            bad = page.evaluate(_HAND_HIDDEN)
            assert bad == [], f"{players} players, {lang}, {width}x{height}:\n" + "\n".join(bad)
            if width >= 1280:
                assert page.evaluate(_CHIP_ROWS) == 1, f"{players} players, {lang}, {width}x{height}"
        # A bot's level is shown whole ("Searcher · e…" was cut), on the chip's own line.
        tags = page.locator(".chip .bot-tag").evaluate_all(
            "(els) => els.map((e) => [e.textContent.trim(), e.scrollWidth <= e.clientWidth + 1])"
        )
        label = "Searcher · expert" if lang == "en" else "Поиск · эксперт"
        assert tags == [[label, True]] * (players - 1)


def test_a_decision_for_the_viewer_brings_the_hand_into_view_only_when_it_is_out_of_it(
    server: Server, browser: Browser, contexts: list[BrowserContext]
) -> None:
    """Ann reads the foot of her phone's page while Bob places; her turn scrolls her page to her hand.
    Bob's next turn finds his hand in view on his laptop, and his page stays where he left it."""
    data = make_table(
        server, [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bob"}], first_player=1
    )
    ann = open_table(contexts, browser, f"{server.url}/play/{data['seats'][0]['token']}", "en", 375, 667)
    bob = open_table(contexts, browser, f"{server.url}/play/{data['seats'][1]['token']}", "en", 1366, 768)
    bob.wait_for_selector(".prompt.mine")
    ann.wait_for_selector(".log li")
    ann.locator(".settings summary").click()  # her settings open: a longer page
    ann.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
    settle(ann)
    assert ann.evaluate(_HAND_HIDDEN) != []  # at the foot of the page, her hand out of sight
    bob.locator(".hand .card.legal").first.click()
    bob.locator(".queue .slot.legal").first.click()
    ann.wait_for_selector(".prompt.mine")
    in_view(ann)
    # In a 2-player round each places twice: Bob's second placement comes after Ann's first.
    bob.evaluate("() => window.scrollTo(0, 60)")
    settle(bob)
    ann.locator(".hand .card.legal").first.click()
    ann.locator(".queue .slot.legal").first.click()
    bob.wait_for_function(
        "() => document.querySelectorAll('.queue .pos').length === 2 && !!document.querySelector('.prompt.mine')"
    )
    in_view(bob)
    assert bob.evaluate("() => window.scrollY") == 60


#: Every kind in the current language, as cards of each kind the page draws; what is cut or broken.
_NAMES = """async ([kinds, lang]) => {
    const base = document.querySelector('script[type=module]').src.replace(/app\\.js$/, '');
    const i18n = await import(base + 'i18n.js');
    const { cardEl } = await import(base + 'cards.js');
    await i18n.setLanguage(lang);
    // A stage of its own: the lobby redraws its #app whenever an answer comes (tables, ladders).
    const main = document.createElement('main');
    document.body.replaceChildren(main);
    main.className = 'table-page';
    const hand = (cards, many) => {
        const box = document.createElement('div');
        box.className = `hand ${many ? 'many' : ''}`;
        box.style.setProperty('--n', String(cards.length));
        box.append(...cards);
        return box;
    };
    const rows = [];
    // Face up, small (chips and piles), face down but known to its owner, and 16 to a hand.
    rows.push(hand(kinds.map((kind) => cardEl({ kind, owner: 0, ctrl: 0, up: true }))));
    rows.push(hand(kinds.map((kind) => cardEl({ kind, owner: 1, ctrl: 1, up: true }, { small: true }))));
    rows.push(hand(kinds.map((kind) => cardEl({ kind, owner: 2, ctrl: 2, up: false }))));
    for (let i = 0; i < kinds.length; i += 16) {
        rows.push(hand(kinds.slice(i, i + 16).concat(kinds.slice(0, Math.max(0, i + 16 - kinds.length)))
            .map((kind) => cardEl({ kind, owner: 3, ctrl: 3, up: true }, { inHand: true })), true));
    }
    const col = document.createElement('div');
    col.className = 'main-col';
    col.append(...rows);
    main.replaceChildren(col);
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const bad = [];
    for (const el of main.querySelectorAll('.card .name, .card .peek-name')) {
        const card = el.closest('.card');
        const text = el.textContent;
        const where = `${lang} ${card.dataset.kind}${card.classList.contains('small') ? ' small' : ''}`
            + `${el.classList.contains('peek-name') ? ' face down' : ''}${card.closest('.many') ? ' in a 16-card hand' : ''}`;
        const style = getComputedStyle(el);
        if (text !== i18n.cardName(card.dataset.kind)) bad.push(`${where}: «${text}» is not the name`);
        if (style.hyphens === 'auto' || style.wordBreak === 'break-all' || style.overflowWrap !== 'normal') {
            bad.push(`${where}: may break inside a word (${style.hyphens}, ${style.wordBreak}, ${style.overflowWrap})`);
        }
        if (el.scrollWidth > el.clientWidth + 1) bad.push(`${where}: «${text}» cut, ${el.scrollWidth}/${el.clientWidth} px`);
        const c = card.getBoundingClientRect();
        const r = el.getBoundingClientRect();
        if (r.left < c.left - 0.5 || r.right > c.right + 0.5 || r.top < c.top - 0.5 || r.bottom > c.bottom + 0.5) {
            bad.push(`${where}: «${text}» runs out of its card`);
        }
        // Each word on one line: a word split across lines has a box on each.
        let at = 0;
        for (const word of text.split(' ')) {
            const range = document.createRange();
            range.setStart(el.firstChild, at);
            range.setEnd(el.firstChild, at + word.length);
            const lines = new Set([...range.getClientRects()].filter((b) => b.width > 0).map((b) => Math.round(b.top)));
            if (lines.size > 1) bad.push(`${where}: «${word}» broken over ${lines.size} lines`);
            at += word.length + 1;
        }
    }
    return bad;
}"""


@pytest.mark.parametrize("width", [1366, 1024, 390])
def test_card_names_are_whole_and_never_broken_inside_a_word(
    server: Server, browser: Browser, contexts: list[BrowserContext], width: int
) -> None:
    """Names were broken inside a word ("Cutt-hroat", "Sch-emer", "Лучни-к") and cut ("Assassinatio" on a
    face-down card of one's own, "Arche" in a 16-card hand): every kind's name, in every language, on
    every card the page draws, is whole, fits its card and wraps between words only."""
    from oriflamme.engine.cards import SLUGS

    context = browser.new_context(viewport={"width": width, "height": 900})
    contexts.append(context)
    page = context.new_page()
    page.on("pageerror", lambda e: PAGE_ERRORS.append(str(e)))
    page.goto(server.url)
    page.wait_for_selector("header.top")
    bad: list[str] = []
    for lang in LANGUAGES:
        bad += page.evaluate(_NAMES, [list(SLUGS), lang])
    assert bad == [], f"{len(bad)} at {width} px:\n" + "\n".join(bad[:40])


_PICKS = """async (lang) => {
    const base = document.querySelector('script[type=module]').src.replace(/app\\.js$/, '');
    const i18n = await import(base + 'i18n.js');
    await i18n.setLanguage(lang);
    const select = document.querySelector('select[name=deck]');
    select.value = 'custom';
    select.dispatchEvent(new Event('change'));
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const bad = [];
    for (const el of document.querySelectorAll('.pick .pick-name')) {
        const style = getComputedStyle(el);
        if (style.hyphens === 'auto' || style.wordBreak === 'break-all' || style.overflowWrap !== 'normal') {
            bad.push(`${lang} «${el.textContent}»: may break inside a word`);
        }
        if (el.scrollWidth > el.clientWidth + 1) bad.push(`${lang} «${el.textContent}» cut, ${el.scrollWidth}/${el.clientWidth} px`);
    }
    return [bad, document.querySelectorAll('.pick .pick-name').length];
}"""


@pytest.mark.parametrize("width", [1366, 390])
def test_the_lobbys_deck_picker_shows_card_names_whole(
    server: Server, browser: Browser, contexts: list[BrowserContext], width: int
) -> None:
    """The deck picker broke names anywhere ("Assassinati-on"): each name fits its button whole."""
    context = browser.new_context(viewport={"width": width, "height": 900})
    contexts.append(context)
    page = context.new_page()
    page.on("pageerror", lambda e: PAGE_ERRORS.append(str(e)))
    page.goto(server.url)
    page.wait_for_selector("select[name=deck]")
    bad: list[str] = []
    for lang in LANGUAGES:
        found, count = page.evaluate(_PICKS, lang)
        assert count == 30
        bad += found
    assert bad == [], "\n".join(bad[:40])


#: Emoji and the symbol blocks fonts without emoji show as empty boxes.
EMOJI = re.compile("[\U0001f000-\U0001faff\u2300-\u23ff\u2600-\u27bf]")


def test_no_glyph_on_the_table_or_lobby_pages_needs_an_emoji_font(
    server: Server, browser: Browser, contexts: list[BrowserContext]
) -> None:
    """The turn clock's ⏱ and the chat's 🔇 were empty boxes where no emoji font is installed: the page
    draws its own icons. Checked with a turn clock, a host's chat controls, the card gallery open and
    the lobby."""
    data = make_table(
        server,
        [
            {"kind": "person", "name": "Ann"},
            {"kind": "person", "name": "Bob"},
            {"kind": "bot", "bot": "random"},
        ],
        turn_seconds=120,
    )
    ann = open_table(contexts, browser, f"{server.url}/play/{data['seats'][0]['token']}", "en", 1366, 768)
    bob = open_table(contexts, browser, f"{server.url}/play/{data['seats'][1]['token']}", "en", 1366, 768)
    ann.wait_for_selector(".prompt.mine .turn-clock")
    bob.wait_for_selector(".chat .chat-input")
    bob.locator(".chat .chat-input").fill("hello")
    bob.keyboard.press("Enter")
    ann.wait_for_selector(".chat-lines li[data-seat='1'] button.silence")
    assert ann.locator(".turn-clock svg.icon").count() == 1
    assert ann.locator(".chat-lines button.silence svg.icon").count() == 1
    assert re.fullmatch(r"\s*[0-2]:\d\d", ann.locator(".turn-clock").inner_text())
    assert not EMOJI.findall(ann.evaluate("() => document.body.innerText"))
    ann.locator("button.gallery-open").click()
    ann.wait_for_selector("dialog.gallery[open] .close svg.icon")
    assert not EMOJI.findall(ann.evaluate("() => document.body.innerText"))
    ann.goto(server.url)
    ann.wait_for_selector(".lobby")
    assert not EMOJI.findall(ann.evaluate("() => document.body.innerText"))
