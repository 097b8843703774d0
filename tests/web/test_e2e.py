"""End to end: a real ``oriflamme serve`` process and a real headless Chromium, driven by clicks.

The harness is in ``support.browser`` (fixtures ``server`` and ``browser`` in
this folder's conftest); a whole game takes seconds. Set ``ORIFLAMME_SCREENSHOTS=DIR`` to keep
the screenshots taken at desktop and phone widths.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page
from support.browser import DESKTOP, PHONE, Server, click_once, need_chromium, open_page, state_of
from support.web import leaks, replay_states

from oriflamme.web.sqlite_store import SqliteStore

need_chromium()


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    folder = os.environ.get("ORIFLAMME_SCREENSHOTS")
    path = Path(folder) if folder else tmp_path
    path.mkdir(parents=True, exist_ok=True)
    return path


def play_to_the_end(pages: list[Page], rng: random.Random, limit: int = 400) -> int:
    """Whoever's page shows a choice clicks it; return the number of clicks."""
    clicks = 0
    for _ in range(limit):
        if all(p.locator(".result").count() for p in pages):
            return clicks
        for p in pages:
            if p.locator(".prompt.mine").count() and not p.locator(".result").count():
                click_once(p, rng)
                clicks += 1
                break
        else:
            pages[0].wait_for_timeout(30)
    raise AssertionError("the game did not end")


def test_a_person_plays_a_full_game_against_bots_by_clicking(
    server: Server, browser: Browser, shots: Path
) -> None:
    """Placement, keep or reveal, targets: every decision by a click, until the end-of-game summary."""
    data = server.create(
        [{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "random"}, {"kind": "bot"}]
    )
    errors: list[str] = []
    page = open_page(
        browser, f"{server.url}/play/{data['seats'][0]['token']}", errors, motion="no-preference"
    )
    rng = random.Random(1)
    # Ann places first or after the bots: either way the tab says when it is her turn.
    page.wait_for_selector(".prompt.mine")
    assert page.title() == "● Your turn! · Oriflamme"
    clicks = 0
    while click_once(page, rng):
        clicks += 1
        if clicks == 1:
            # One h1 per page, for screen readers and outlines: what the page is.
            assert page.locator("h1").count() == 1
            # Screen readers hear this person's decisions, not every bot step of the log.
            assert page.locator(".log").get_attribute("aria-live") == "off"
            assert page.locator("[aria-live=polite]:not(#toasts):not(#help):not(#turn-summary)").evaluate_all(
                "(els) => els.every((e) => e.matches('.prompt.mine, .result'))"
            )
            # Every card carries its owner's mark (a shape) besides the colour, and so does each player.
            marks = page.locator(".card").evaluate_all(
                "(els) => els.map((e) => [e.dataset.owner, e.querySelector(':scope > .mark')?.dataset.mark])"
            )
            assert marks and all(owner == mark for owner, mark in marks)
            assert page.locator(".chip .swatch").evaluate_all("(els) => els.map((e) => e.dataset.mark)") == [
                "0",
                "1",
                "2",
            ]
        if clicks == 8:
            page.screenshot(path=shots / "play-desktop.png", full_page=True)
            page.set_viewport_size(PHONE)
            page.screenshot(path=shots / "play-phone.png", full_page=True)
            page.set_viewport_size(DESKTOP)
    assert clicks >= 12
    # Screen readers heard, when the game came back to Ann, what the bots had done meanwhile.
    summary = page.locator("#turn-summary")
    assert summary.get_attribute("aria-live") == "polite"
    assert summary.inner_text().startswith("Since your last move: Bot ")
    # The summary shows the game's outcome as the server computed it: order, scores, positions, winners.
    with urllib.request.urlopen(f"{server.url}/api/replay/{data['seats'][0]['token']}", timeout=10) as r:
        last = json.load(r)["steps"][-1]
    result, reveal = last["result"], last["reveal"]
    rows = [
        [cell.inner_text().strip() for cell in row.locator("td").all()]
        for row in page.locator(".result tbody tr").all()
    ]
    assert [(r[1], r[2]) for r in rows] == [
        (str(result["scores"][s]), str(result["positions"][s])) for s in result["order"]
    ]
    assert [i for i, r in enumerate(rows) if r[3]] == [
        i for i, s in enumerate(result["order"]) if s in result["winners"]
    ]
    assert rows[result["order"].index(0)][0].endswith("Ann")
    # Where each player's IP came from: the ledger's lines, which add up to the score.
    for s in result["order"]:
        amounts = page.locator(f".ledger li[data-seat='{s}'] .cause").all_inner_texts()
        assert len(amounts) == len(result["ledger"][s])
        assert sum(int(a.rsplit(" ", 1)[1].replace("−", "-")) for a in amounts) == result["scores"][s]
    # The final reveal: every card left in a hand or set aside, by name, and the queue's face-down
    # cards turned over (marked as never revealed).
    for s in range(3):
        shown = page.locator(f".last-cards[data-seat='{s}'] .card").evaluate_all(
            "(els) => els.map((e) => e.dataset.kind)"
        )
        assert shown == [c["kind"] for c in reveal["hands"][s] + reveal["aside"][s]]
    down = [c for stack in reveal["queue"] for c in stack if not c["up"]]
    turned = page.locator(".queue .card.turned").evaluate_all("(els) => els.map((e) => e.dataset.kind)")
    assert sorted(turned) == sorted(c["kind"] for c in down)
    assert page.locator(".queue .card.down").count() == 0
    # The game downloads as a save file.
    href = page.locator(".result a[download]").get_attribute("href")
    with urllib.request.urlopen(server.url + str(href), timeout=10) as r:
        assert json.load(r)["format"] == "oriflamme-save"
    assert page.title() == "Oriflamme"  # the game is over: nothing waits for her
    # The result is brought into view when the game ends (it lies below the board), and when the
    # finished game's page is opened again.
    # At 1366 × 768, at 390 × 844, and on a short phone screen where the board alone fills the
    # first screenful, the person sees the result without scrolling.
    for size in (
        {"width": 1366, "height": 768},
        {"width": 390, "height": 844},
        {"width": 390, "height": 360},
    ):
        other = browser.new_context(viewport=size, reduced_motion="reduce")  # type: ignore[arg-type]
        again = other.new_page()
        again.goto(page.url)
        again.wait_for_selector(".result")
        again.wait_for_function(
            "() => { const r = document.querySelector('.result').getBoundingClientRect();"
            " return r.top > -2 && r.top < window.innerHeight; }",
            timeout=5_000,
        )
        other.close()
    page.screenshot(path=shots / "end-desktop.png", full_page=True)
    page.set_viewport_size(PHONE)
    page.screenshot(path=shots / "end-phone.png", full_page=True)
    # The replay viewer steps through the finished game.
    page.locator("a", has_text="Replay").first.click()
    page.wait_for_selector(".replay-controls")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert "step=2" in page.url
    page.set_viewport_size(DESKTOP)
    page.screenshot(path=shots / "replay-desktop.png", full_page=True)
    # A rematch: the same seats, a new deal, and Ann's page goes there.
    page.goto(f"{server.url}/play/{data['seats'][0]['token']}")
    page.locator(".result button.rematch").click()
    page.wait_for_url(lambda url: data["seats"][0]["token"] not in url and "/play/" in url)
    page.wait_for_selector(".board")
    assert page.locator(".status .round").inner_text() == "Round 1/6"
    assert page.locator(".result").count() == 0
    assert page.locator(".chip .who").first.inner_text().startswith("Ann")
    assert errors == []


def test_two_browser_contexts_play_each_other(server: Server, browser: Browser) -> None:
    """Two people at one table, each in their own browser context, with a bot; both see the same result."""
    data = server.create(
        [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bob"}, {"kind": "bot"}]
    )
    errors: list[str] = []
    pages = [open_page(browser, f"{server.url}/play/{data['seats'][i]['token']}", errors) for i in (0, 1)]
    play_to_the_end(pages, random.Random(2))
    texts = [p.locator(".result table").inner_text() for p in pages]
    assert texts[0] == texts[1]
    assert errors == []


def test_a_refresh_mid_game_puts_the_person_back_in_their_seat(server: Server, browser: Browser) -> None:
    """Reloading the page rejoins the same seat at the same state, hand and log included."""
    data = server.create([{"kind": "person", "name": "Ann"}, {"kind": "bot"}, {"kind": "bot"}])
    errors: list[str] = []
    page = open_page(browser, f"{server.url}/play/{data['seats'][0]['token']}", errors)
    rng = random.Random(3)
    for _ in range(5):
        click_once(page, rng)
    page.wait_for_selector(".prompt.mine")
    state, hand = state_of(page), page.locator(".hand-block:first-child .card").count()
    log_lines = page.locator(".log li").count()
    page.reload()
    page.wait_for_selector(".prompt.mine")
    assert state_of(page) == state
    assert page.locator(".hand-block:first-child .card").count() == hand
    assert page.locator(".log li").count() == log_lines
    assert click_once(page, rng)
    assert errors == []


def test_a_server_restart_mid_game_loses_nothing(server: Server, browser: Browser) -> None:
    """The page notices the lost connection, reconnects by itself, and the game goes on from the same state."""
    data = server.create([{"kind": "person", "name": "Ann"}, {"kind": "bot"}, {"kind": "bot"}], seed=9)
    errors: list[str] = []
    page = open_page(browser, f"{server.url}/play/{data['seats'][0]['token']}", errors)
    rng = random.Random(4)
    for _ in range(4):
        click_once(page, rng)
    page.wait_for_selector(".prompt.mine")
    state = state_of(page)
    server.stop()
    page.wait_for_selector(".banner-offline", timeout=10_000)
    server.start()
    page.wait_for_selector(".banner-offline", state="detached", timeout=15_000)
    page.wait_for_selector(".prompt.mine")
    assert state_of(page) == state
    assert click_once(page, rng)
    assert errors == []


def test_a_spectator_page_and_its_frames_show_no_hidden_card(server: Server, browser: Browser) -> None:
    """Each WebSocket frame a spectator receives is checked against the replayed game; the page shows no hidden face."""
    data = server.create([{"kind": "person", "name": "Ann"}, {"kind": "bot"}, {"kind": "bot"}], seed=5)
    errors: list[str] = []
    frames: list[str] = []
    context = browser.new_context(viewport=DESKTOP, reduced_motion="reduce")
    watcher = context.new_page()
    watcher.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(str(payload))))
    watcher.goto(f"{server.url}/watch/{data['spectator']}")
    watcher.wait_for_selector(".queue-wrap")
    player = open_page(browser, f"{server.url}/play/{data['seats'][0]['token']}", errors)
    rng = random.Random(6)
    hidden_seen = False
    for _ in range(14):  # placements, keep-or-reveal and targets of the first rounds, or the game
        if not click_once(player, rng):
            break
        hidden = watcher.evaluate(
            "() => [document.querySelectorAll('.queue .card.down').length,"
            " document.querySelectorAll('.peek-name, .hand-area, .card.down[data-kind]:not([data-kind=\"\"])').length]"
        )
        hidden_seen = hidden_seen or hidden[0] > 0
        assert hidden[1] == 0
    assert hidden_seen
    # Playwright's sync API runs an event loop on this thread: read the store on another one.
    with ThreadPoolExecutor(1) as pool:
        stored = pool.submit(asyncio.run, _load(server.db, data["table"])).result()
    states = replay_states(stored.record, stored.actions)
    assert len(frames) > 10
    assert leaks([f for f in frames if json.loads(f)["type"] == "state"], None, states) == []
    assert errors == []


async def _load(db: Path, table_id: str) -> Any:
    store = SqliteStore(db)
    await store.open()
    try:
        return await store.load_table(table_id)
    finally:
        await store.close()


def test_a_card_can_be_placed_with_the_keyboard_alone(server: Server, browser: Browser) -> None:
    """Tab to a card of the hand, Enter; focus moves to the places it may go; Enter places it."""
    data = server.create(
        [{"kind": "person", "name": "Ann"}, {"kind": "bot"}, {"kind": "bot"}], first_player=0
    )
    errors: list[str] = []
    page = open_page(browser, f"{server.url}/play/{data['seats'][0]['token']}", errors)
    page.wait_for_selector(".prompt.mine")
    before = state_of(page)
    for _ in range(60):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.matches('.hand .card.legal')"):
            break
    else:
        raise AssertionError("Tab never reached a card of the hand")
    page.keyboard.press("Enter")
    page.wait_for_selector(".queue .slot.legal")
    assert page.evaluate("() => document.activeElement.matches('.queue .slot.legal')")
    page.keyboard.press("Enter")
    page.wait_for_function("(s) => Number(document.body.dataset.state) > s", arg=before)
    assert errors == []


def test_seats_without_a_name_are_named_in_the_pages_language(server: Server, browser: Browser) -> None:
    """Bots and people given no name show as "Бот 2", "Игрок 3" on a Russian page, not in English."""
    data = server.create(
        [
            {"kind": "person", "name": "Оля", "lang": "ru"},
            {"kind": "bot", "bot": "random"},
            {"kind": "person", "lang": "ru"},
        ]
    )
    assert [s["name"] for s in data["seats"]] == ["Оля", "", ""]
    errors: list[str] = []
    page = open_page(browser, f"{server.url}/play/{data['seats'][0]['token']}", errors)
    page.wait_for_selector(".who")
    assert page.evaluate("document.documentElement.lang") == "ru"  # drawn once the catalog is in
    shown = [w.inner_text() for w in page.locator(".who").all()]
    assert any(w.startswith("Оля") for w in shown)
    assert any(w.startswith("Бот 2") for w in shown)
    assert any(w.startswith("Игрок 3") for w in shown)
    assert errors == []


def test_the_focus_the_page_moves_does_not_open_the_card_help(server: Server, browser: Browser) -> None:
    """The page moves focus to the next choice after each redraw; that must not open a card's help box
    (it covered the newest log lines at every decision). A person's own focus (Tab) still opens it."""
    errors: list[str] = []
    page = open_page(browser, server.url, errors)
    page.wait_for_selector("header.top")
    shown = page.evaluate(
        """async () => {
            const base = document.querySelector('script[type=module]').src.replace(/app\\.js$/, '');
            const cards = await import(base + 'cards.js');
            const el = cards.cardEl({ kind: 'archer', owner: 0, up: true }, { button: true });
            document.body.append(el);
            cards.focusQuietly(el);
            const help = () => !!document.querySelector('#help.shown');
            const quiet = help();
            el.blur();
            el.focus();
            return [quiet, help()];
        }"""
    )
    assert shown == [False, True]
    assert errors == []


def test_the_rules_and_cards_of_the_table_open_in_the_pages_language(
    server: Server, browser: Browser
) -> None:
    """An Ablaze table on a Russian page: the gallery shows the short rules and exactly the table's
    kinds (with the Prince's Twin), each with its name and text from the Russian catalog."""
    from oriflamme.engine.cards import SLUGS
    from oriflamme.engine.recipes import parse_recipe
    from oriflamme.web.routes_site import merged_catalog

    data = server.create(
        [{"kind": "person", "name": "Оля", "lang": "ru"}, {"kind": "bot", "bot": "random"}, {"kind": "bot"}],
        deck="ablaze",
    )
    ru = merged_catalog("ru")
    errors: list[str] = []
    page = open_page(browser, f"{server.url}/play/{data['seats'][0]['token']}", errors)
    page.locator("button.gallery-open").click()
    dialog = page.locator("dialog.gallery[open]")
    assert dialog.locator("h2").inner_text() == ru["web.rules_and_cards"]
    recipe = [SLUGS[k] for k in parse_recipe("ablaze")]
    expected = [k for kind in recipe for k in ((kind, "twin") if kind == "prince" else (kind,))]
    kinds = dialog.locator(".gallery-card").evaluate_all("(els) => els.map((e) => e.dataset.kind)")
    assert kinds == expected and len(kinds) == 11
    for kind in ("schemer", "twin", "bribery"):
        entry = dialog.locator(f".gallery-card[data-kind='{kind}']")
        assert entry.locator("h3").inner_text().startswith(str(ru[f"card.{kind}.name"]))
        text = entry.locator("p").inner_text()
        assert text.startswith(str(ru[f"card.{kind}.text"]).split("{")[0])  # up to the filled-in amount
    assert "6" in dialog.locator(".gallery-rules .muted").inner_text()
    page.keyboard.press("Escape")
    page.wait_for_selector("dialog.gallery", state="detached", timeout=5_000)
    assert errors == []


_FAKE_SIGNALS = """
window.__tones = 0;
window.__notes = [];
window.AudioContext = class {
    constructor() { this.currentTime = 0; this.destination = {}; }
    createGain() { return { gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} }, connect() {} }; }
    createOscillator() {
        return { type: '', frequency: { value: 0 }, connect() {}, start() { window.__tones += 1; }, stop() {} };
    }
};
window.Notification = class {
    static permission = 'default';
    static requestPermission() { window.Notification.permission = 'granted'; return Promise.resolve('granted'); }
    constructor(title, options) { window.__notes.push([title, options.body]); }
    close() {}
};
Object.defineProperty(document, 'hidden', { get: () => window.__hidden === true });
"""


def test_a_sound_and_a_notification_tell_a_person_their_turn_came(server: Server, browser: Browser) -> None:
    """Both off until turned on; then each time the game comes back to the person (not when the page
    opens on their turn) a tone plays, and a notification shows while the tab is hidden."""
    data = server.create(
        [{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "random"}, {"kind": "bot"}], first_player=0
    )
    context = browser.new_context(viewport=DESKTOP, reduced_motion="reduce")
    context.add_init_script(_FAKE_SIGNALS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server.url}/play/{data['seats'][0]['token']}")
    page.wait_for_selector(".prompt.mine")
    assert page.evaluate("[window.__tones, window.__notes.length]") == [
        0,
        0,
    ]  # opening on one's turn: nothing
    rng = random.Random(5)
    click_once(
        page, rng
    )  # round 1 is placed from seat 1 on: the bots place, then it is Ann's turn again? not yet
    page.wait_for_selector(".prompt.mine")
    assert page.evaluate("[window.__tones, window.__notes.length]") == [0, 0]  # both settings are off
    page.locator(".settings summary").click()
    page.locator("input[name=sound]").check()
    page.locator("input[name=notify]").check()
    assert page.evaluate("window.__tones") == 2  # turning the sound on plays it once (two notes)
    page.evaluate("window.__hidden = true")
    for _ in range(40):  # until the bots have played between two of Ann's decisions
        click_once(page, rng)
        if page.evaluate("window.__notes.length"):
            break
    notes = page.evaluate("window.__notes")
    assert errors == []
    assert len(notes) == 1 and notes[0][0] == "Your turn!" and notes[0][1].startswith("Round ")
    page.wait_for_selector(".prompt.mine")
    assert page.evaluate("window.__tones") == 4
    context.close()
    assert errors == []


def test_a_person_can_pause_the_bots_and_step_back_through_the_game(server: Server, browser: Browser) -> None:
    """Paused, the bots' moves wait (counted) and the board stays; stepping back shows earlier states
    without any choice to make; resuming catches up with the game."""
    data = server.create(
        [{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "random"}, {"kind": "bot"}], first_player=0
    )
    errors: list[str] = []
    page = open_page(browser, f"{server.url}/play/{data['seats'][0]['token']}", errors)
    page.wait_for_selector(".prompt.mine")
    page.locator(".play-bar .pause").click()
    assert page.locator(".play-bar .pause").get_attribute("aria-pressed") == "true"
    rng = random.Random(3)
    click_once(page, rng)  # Ann's own move is answered even while paused...
    page.wait_for_selector(".play-bar .waiting-steps")  # ... but the bots' moves wait
    shown = int(page.evaluate("document.body.dataset.shown"))
    page.wait_for_timeout(400)
    assert int(page.evaluate("document.body.dataset.shown")) == shown
    assert page.locator(".prompt.mine").count() == 0
    # Stepping back: earlier states, read-only.
    page.locator(".play-bar .back").click()  # the page opened at the state before Ann's move
    assert page.locator(".play-bar .viewing").count() == 1
    assert page.locator(".play-bar .back").is_disabled()
    assert int(page.evaluate("document.body.dataset.shown")) < shown
    assert page.locator(".legal").count() == 0
    page.locator(".play-bar .live").click()
    assert int(page.evaluate("document.body.dataset.shown")) == shown
    # Resuming shows every waiting step, up to Ann's next decision.
    page.locator(".play-bar .pause").click()
    page.wait_for_selector(".prompt.mine")
    assert page.locator(".play-bar .waiting-steps").count() == 0
    assert page.evaluate("document.body.dataset.shown") == page.evaluate("document.body.dataset.state")
    assert errors == []


def test_a_friend_opening_an_invite_chooses_their_name(server: Server, browser: Browser) -> None:
    """Asked once per link: the chosen name is stored and shown at once on the other player's page."""
    data = server.create(
        [{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "random"}, {"kind": "person"}]
    )
    errors: list[str] = []
    ann = open_page(browser, f"{server.url}/play/{data['seats'][0]['token']}", errors)
    friend = open_page(browser, f"{server.url}/play/{data['seats'][2]['token']}", errors)
    friend.wait_for_selector(".name-ask")
    assert friend.locator(".name-ask input").input_value() == ""
    friend.locator(".name-ask input").fill("Cyd\u202e")
    friend.locator(".name-ask button[type=submit]").click()
    friend.wait_for_selector(".name-ask", state="detached")
    ann.wait_for_function(
        "() => [...document.querySelectorAll('.chip .who')].some((e) => e.innerText.startsWith('Cyd'))"
    )
    assert any(w.startswith("Cyd") for w in friend.locator(".chip .who").all_inner_texts())
    friend.reload()
    friend.wait_for_selector(".board")
    assert friend.locator(".name-ask").count() == 0  # asked once
    request = urllib.request.Request(
        server.url + "/api/lobby",
        json.dumps({"tokens": [data["host"]]}).encode(),
        {"content-type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=5) as r:
        assert json.load(r)["tables"][0]["seats"][2]["name"] == "Cyd"  # stored, the override character gone
    assert errors == []


def test_a_table_with_a_turn_timer_made_in_the_lobby_counts_down_and_a_person_may_leave_and_return(
    browser: Browser, tmp_path: Path
) -> None:
    """The lobby's turn timer reaches the table; the person deciding sees their time; leaving hands
    the seat to a bot (the page says so, the chip too) and the person takes it back. Bots here take
    0.4 s a move, so that the game is still on when she does."""
    with Server(tmp_path / "games.sqlite3", bot_delay=0.4) as server:
        _lobby_timer_leave_and_return(server, browser)


def _lobby_timer_leave_and_return(server: Server, browser: Browser) -> None:
    errors: list[str] = []
    page = open_page(browser, server.url, errors)
    page.locator("select[name=players]").select_option("3")
    page.locator("select[name=turn_seconds]").select_option("60")
    page.locator(".seat-row input.name").first.fill("Ann")
    page.locator("form button.primary[type=submit]").click()
    page.wait_for_url(lambda url: "/play/" in url)
    page.wait_for_selector(".prompt.mine .turn-clock")
    shown = page.locator(".turn-clock").inner_text()
    assert shown.strip() in ("1:00", "0:59", "0:58")  # after the page's own clock icon
    page.locator(".settings summary").click()
    page.locator(".settings button.leave").click()
    page.wait_for_selector(".away-banner")
    assert "a bot plays" in page.locator(".chip.me .who").inner_text()
    before = state_of(page)
    page.wait_for_function("(s) => Number(document.body.dataset.state) > s + 1", arg=before)  # played for her
    page.locator(".away-banner button.back").click()
    page.wait_for_selector(".away-banner", state="detached")
    page.wait_for_selector(".prompt.mine .turn-clock")  # her own decisions again, with her time
    assert "a bot plays" not in page.locator(".chip.me .who").inner_text()
    # Conceding asks first, then is for good: no way back, and everyone sees it.
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator(".settings button.concede").click()
    page.wait_for_function(
        "() => (document.querySelector('.away-banner') || {}).innerText?.startsWith('You conceded')"
    )
    assert page.locator(".away-banner button").count() == 0
    assert "conceded" in page.locator(".chip.me .who").inner_text()
    assert errors == []


def test_on_a_touch_phone_every_control_is_big_enough_to_tap(server: Server, browser: Browser) -> None:
    """44 × 44 CSS px at least (the usual touch guideline), for every visible button, link button and
    menu of the table page, its settings opened, at 390 px wide (it measured 19-35 px)."""
    data = server.create(
        [{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "random"}, {"kind": "bot"}], first_player=0
    )
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, reduced_motion="reduce")
    page = context.new_page()
    page.goto(f"{server.url}/play/{data['seats'][0]['token']}")
    page.wait_for_selector(".prompt.mine")
    page.locator(".settings summary").click()
    small = page.evaluate(
        """() => [...document.querySelectorAll('button, a.button, select, summary, .slot, input[type=checkbox]')]
            .filter((e) => e.offsetParent !== null || e.tagName === 'SUMMARY')
            .map((e) => {
                // a checkbox is tapped through its label
                const target = e.matches('input[type=checkbox]') ? e.closest('label') || e : e;
                const r = target.getBoundingClientRect();
                return [e.tagName.toLowerCase() + '.' + [...e.classList].join('.'), Math.round(r.width), Math.round(r.height)];
            })
            .filter(([, w, h]) => w > 0 && (w < 44 || h < 44))"""
    )
    assert small == [], small
    context.close()


def test_the_lobby_makes_a_table_of_any_ten_kinds_with_its_rule_options(
    server: Server, browser: Browser
) -> None:
    """From the Ablaze preset, two kinds swapped for Alliance ones, 4 rounds and a Schemer gaining 2:
    the table plays exactly that deck and those rules."""
    errors: list[str] = []
    page = open_page(browser, server.url, errors)
    page.locator("select[name=players]").select_option("3")
    page.locator("select[name=deck]").select_option("custom")
    page.locator(".deck-gallery button[data-preset=ablaze]").click()
    assert page.locator(".deck-gallery .chosen-count").inner_text() == "10 of 10 chosen"
    assert page.locator(".pick[data-kind=judge]").is_disabled()  # ten already: remove one first
    page.locator(".pick[data-kind=plot]").click()
    page.locator(".pick[data-kind=trap]").click()
    page.locator(".pick[data-kind=judge]").click()
    page.locator(".pick[data-kind=informant]").click()
    chosen = page.locator(".pick.on").evaluate_all("(els) => els.map((e) => e.dataset.kind)")
    assert sorted(chosen) == sorted(["prince", "queen", "cutthroat", "apothecary", "felon", "schemer",
                                     "impersonation", "bribery", "judge", "informant"])  # fmt: skip
    page.locator(".rule-options summary").click()
    page.locator("select[name=rounds]").select_option("4")
    page.locator("select[name=schemer_gain]").select_option("2")
    page.locator("form button.primary[type=submit]").click()
    page.wait_for_url(lambda url: "/play/" in url)
    page.wait_for_selector(".board")
    assert page.locator(".status .round").inner_text() == "Round 1/4"
    page.locator("button.gallery-open").click()
    kinds = page.locator("dialog.gallery .gallery-card").evaluate_all(
        "(els) => els.map((e) => e.dataset.kind)"
    )
    assert sorted(kinds) == sorted([*chosen, "twin"])
    schemer = page.locator("dialog.gallery .gallery-card[data-kind=schemer] p").inner_text()
    assert "2 IP" in schemer
    assert errors == []


def test_against_bots_a_person_may_ask_for_a_hint_and_a_review_of_their_moves(
    server: Server, browser: Browser
) -> None:
    """The hint ranks the decision's options with their win chances; after the game the review
    lists each of the person's real choices, the search's preference and the grade of a slip."""
    data = server.create(
        [
            {"kind": "person", "name": "Ann"},
            {"kind": "bot", "bot": "random"},
            {"kind": "bot", "bot": "random"},
        ],
        first_player=0,
    )
    errors: list[str] = []
    page = open_page(browser, f"{server.url}/play/{data['seats'][0]['token']}", errors)
    page.wait_for_selector(".prompt.mine .hint-ask")
    page.locator(".hint-ask").click()
    page.wait_for_selector(".hint-list li.best", timeout=30_000)
    ranked = page.locator(".hint-list li").all_inner_texts()
    assert 1 <= len(ranked) <= 4 and all(
        line.rstrip().endswith("%") or line.rstrip().endswith("–") for line in ranked
    )
    rng = random.Random(2)
    while click_once(page, rng):
        pass
    page.locator(".review-ask").click()
    page.wait_for_selector(".review .review-move", timeout=120_000)
    with urllib.request.urlopen(f"{server.url}/api/review/{data['seats'][0]['token']}", timeout=30) as r:
        moves = json.load(r)["moves"]  # cached: the same review
    assert page.locator(".review .review-move").count() == len(moves) > 5
    graded = page.locator(".review .grade").count()
    assert graded == sum(1 for m in moves if m["grade"])
    assert errors == []


def test_friends_chat_at_the_table_and_the_host_can_silence_a_seat(server: Server, browser: Browser) -> None:
    data = server.create(
        [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bob"}, {"kind": "bot"}]
    )
    errors: list[str] = []
    ann = open_page(browser, f"{server.url}/play/{data['seats'][0]['token']}", errors)
    bob = open_page(browser, f"{server.url}/play/{data['seats'][1]['token']}", errors)
    watcher = open_page(browser, f"{server.url}/watch/{data['spectator']}", errors)
    for page in (ann, bob, watcher):
        page.wait_for_selector(".chat .chat-input")
    bob.locator(".name-ask button.ghost").click()  # keeps his name
    assert watcher.locator(".chat .chat-input").is_disabled()  # spectators: not unless the host says
    ann.locator(".chat .chat-input").fill("good luck \u202eall")
    ann.keyboard.press("Enter")
    bob.wait_for_selector(".chat-lines li")
    assert bob.locator(".chat-lines li").first.inner_text().endswith("Ann: good luck all")
    bob.locator(".chat .chat-input").fill("thanks")
    bob.keyboard.press("Enter")
    ann.wait_for_selector(".chat-lines li[data-seat='1']")
    ann.locator(".chat-lines li[data-seat='1'] button.silence").click()
    bob.wait_for_function("() => document.querySelector('.chat .chat-input').disabled")
    assert ann.locator(".chat-lines li[data-seat='1']").count() == 0
    ann.locator(".chat-spectators input").check()
    watcher.wait_for_function("() => !document.querySelector('.chat .chat-input').disabled")
    assert errors == []


def test_strangers_join_an_open_table_from_the_lobby_or_by_quick_match(
    server: Server, browser: Browser
) -> None:
    errors: list[str] = []
    host = open_page(browser, server.url, errors)
    host.locator("select[name=players]").select_option("3")
    host.locator(".seat-row").nth(1).locator("select").first.select_option("person")
    host.locator("input[name=open]").check()
    host.locator("form button.primary[type=submit]").click()
    # No invite links to hand out: the strangers who sit down get links of their own.
    host.wait_for_url(lambda url: "/play/" in url)
    host.wait_for_selector(".board")
    stranger = open_page(browser, server.url, errors)
    card = stranger.locator(".open-tables .table-card.open").first
    card.wait_for()
    table_id = card.get_attribute("data-table")
    card.locator("button.join-open").click()
    stranger.wait_for_url(lambda url: "/play/" in url)
    stranger.wait_for_selector(".board")
    assert "(you)" in stranger.locator(".chip.me .who").inner_text()
    assert stranger.locator(".chip.me").evaluate("(e) => [...e.parentNode.children].indexOf(e)") == 1
    later = open_page(browser, server.url, errors)
    later.wait_for_selector(".open-tables")
    assert later.locator(f".open-tables .table-card[data-table='{table_id}']").count() == 0  # taken
    later.locator("button.quick-match").click()
    later.wait_for_url(lambda url: "/play/" in url)
    later.wait_for_selector(".board")
    assert errors == []


def test_a_person_takes_back_a_misplaced_card(browser: Browser, tmp_path: Path) -> None:
    """Before anybody else has moved (bots take 2 s here), Take back returns the card to the hand."""
    with Server(tmp_path / "games.sqlite3", bot_delay=2.0) as server:
        data = server.create(
            [{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "random"}, {"kind": "bot"}],
            first_player=0,
        )
        errors: list[str] = []
        page = open_page(browser, f"{server.url}/play/{data['seats'][0]['token']}", errors)
        page.wait_for_selector(".prompt.mine")
        assert page.locator(".play-bar .takeback").count() == 0
        click_once(page, random.Random(4))
        page.locator(".play-bar .takeback").click()
        page.wait_for_function(
            "() => document.querySelectorAll('.hand-block:first-child .hand .card').length === 7"
        )
        assert page.locator(".queue .pos").count() == 0
        page.wait_for_selector(".prompt.mine")
        assert page.locator(".play-bar .takeback").count() == 0
        assert errors == []
