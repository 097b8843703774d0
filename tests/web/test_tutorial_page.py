"""The guided first game in the browser: from the lobby's button to the end, on the real table."""

from __future__ import annotations

import random
import re
import urllib.request

from playwright.sync_api import Browser, Page
from support.browser import Server, click_once, need_chromium, open_page

from oriflamme import tutorial
from oriflamme.i18n import load_catalog
from oriflamme.notation import savefile

need_chromium()


def _start(browser: Browser, server: Server, errors: list[str], lang: str = "en") -> Page:
    page = open_page(browser, server.url + "/", errors)
    page.evaluate("(lang) => localStorage.setItem('oriflamme.lang', lang)", lang)
    page.reload()
    page.locator(".learn-to-play").click()
    page.wait_for_selector(".panel.lesson .lesson-text", timeout=15_000)
    return page


def _lesson_text(page: Page) -> str:
    texts: list[str] = page.locator(".panel.lesson .lesson-text").all_inner_texts()
    return texts[0] if texts else ""


def _token(page: Page) -> str:
    match = re.search(r"/play/([^/?#]+)", page.url)
    assert match is not None, page.url
    return match.group(1)


def test_a_learner_meets_every_lesson_offered_only_the_asked_move_and_plays_to_the_end(
    browser: Browser, server: Server
) -> None:
    errors: list[str] = []
    page = _start(browser, server, errors)
    english = load_catalog("en")
    expected = [english[tutorial.LESSON_PREFIX + name] for name in tutorial.LESSONS]
    # The first lesson asks for the Heir: it is the only card of the hand offered.
    assert _lesson_text(page) == expected[0]
    assert page.locator(".hand .card.legal").count() == 1
    assert "Heir" in page.locator(".hand .card.legal").inner_text()
    seen: list[str] = []
    rng = random.Random(3)
    for _ in range(200):
        page.wait_for_selector(".result, .prompt.mine", timeout=15_000)
        text = _lesson_text(page)
        if text and (not seen or seen[-1] != text):
            seen.append(text)
        if not click_once(page, rng):
            break
    page.wait_for_selector(".panel.lesson .lesson-text", timeout=10_000)
    seen.append(_lesson_text(page))
    # The end's lesson comes after the result, which the page brings into view first.
    assert page.locator(".main-col > .result ~ .panel.lesson").count() == 1
    assert [s for s in expected if s in seen] == expected, seen
    with urllib.request.urlopen(f"{server.url}/api/save/{_token(page)}", timeout=10) as r:
        saved = savefile.read(r.read())
    assert saved.game.is_over()
    assert tuple(saved.game.history[: len(tutorial.STEPS)]) == tutorial.script_actions()
    assert errors == []


def test_play_freely_offers_every_move_and_hides_the_guided_lessons(browser: Browser, server: Server) -> None:
    errors: list[str] = []
    page = _start(browser, server, errors, lang="fr")
    assert _lesson_text(page) == load_catalog("fr")[tutorial.LESSON_PREFIX + "placement"]
    page.locator(".lesson-free").click()
    page.wait_for_function("() => !document.querySelector('.panel.lesson')")
    assert load_catalog("fr")["tutorial.skipped"] in page.locator("#toasts").inner_text()
    assert page.locator(".hand .card.legal").count() == 7  # the whole hand (set-aside cards are never legal)
    # Free now: the Soldier, which the lesson did not ask for, is played.
    page.locator(".hand .card.legal", has_text="Soldat").click()
    page.locator(".queue .slot.legal").first.click()
    page.wait_for_function("() => Number(document.body.dataset.state) > 0")
    # The learner's own face-down card shows its face to the learner: the Soldier is in the queue.
    assert "Soldat" in page.locator(".queue").inner_text()
    assert "Soldat" not in " ".join(page.locator(".hand .card.legal").all_inner_texts())
    assert errors == []


_ON_TOP = """() => {
    const button = document.querySelector('.prompt.mine .act.reveal');
    if (!button) return 'no reveal button';
    const r = button.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    if (y < 0 || y > innerHeight) return `out of view at y=${Math.round(y)} of ${innerHeight}`;
    const top = document.elementFromPoint(x, y);
    return top && top.closest('.act') === button ? 'ok' : `covered by ${top ? top.className : 'nothing'}`;
}"""


def test_the_keep_or_reveal_buttons_are_not_under_the_hand_on_a_laptop(
    browser: Browser, server: Server
) -> None:
    """At 1366 x 768 the hand, kept at the bottom of the screen, covered the keep and reveal buttons
    of the tutorial's second lesson: they are in view and on top when the question is asked."""
    errors: list[str] = []
    page = _start(browser, server, errors)
    page.set_viewport_size({"width": 1366, "height": 768})
    rng = random.Random(1)
    for _ in range(40):
        page.wait_for_selector(".result, .prompt.mine", timeout=15_000)
        if page.locator(".prompt.mine .act.reveal").count():
            break
        click_once(page, rng)
    page.wait_for_timeout(800)  # the page brings a new question into view (smoothly)
    assert page.evaluate(_ON_TOP) == "ok"
    assert errors == []
