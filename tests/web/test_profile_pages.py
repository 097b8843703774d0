"""A player's profile and the ladders' pages in a real Chromium, on a server whose database holds
rated games played to the end (seeded as a server stores them) and a ladder longer than a page."""

from __future__ import annotations

import asyncio
import itertools
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect
from pwdlib import PasswordHash
from pwdlib.hashers.argon2 import Argon2Hasher
from support.browser import Server, need_chromium, open_page
from support.rated_games import Played, make_accounts, play_rated

from oriflamme.web.ratings import Ratings
from oriflamme.web.sqlite_store import SqliteStore

need_chromium()

LANGUAGES = ("en", "fr", "ru", "uk", "pl")
#: Accounts on the duel ladder besides Ann: more than one page of 50.
FILLERS = 55
ANN_PASSWORD = "Ann's long secret"


async def _seed(path: Path) -> list[Played]:
    """Ann plays three duels against bots and two 3-player games with Bob; 55 more accounts are on the
    duel ladder (their ratings written straight in)."""
    store = SqliteStore(str(path))
    await store.open()
    try:
        ids = await make_accounts(store, ["Ann", "Bob"])
        # Ann may log in (to see her own profile with the reviews of her moves).
        hashed = PasswordHash((Argon2Hasher(),)).hash(ANN_PASSWORD)
        await store.run_statements(
            [("UPDATE accounts SET password_hash = ? WHERE id = ?", (hashed, ids["Ann"]))]
        )
        fillers = await make_accounts(store, [f"Filler{i:02}" for i in range(FILLERS)], first=10)
        await store.run_statements(
            [
                (
                    "INSERT INTO ratings (account_id, ladder, season, mu, sigma, games, updated) "
                    "VALUES (?, 'duel', 1, ?, 2, ?, 0)",
                    (account, 40.0 - i * 0.37, 4 + i % 9),
                )
                for i, account in enumerate(fillers.values())
            ]
        )
        clock = itertools.count(1_760_000_000, 86_400)
        ratings = Ratings(store, clock=lambda: float(next(clock)))
        ann, bob = ids["Ann"], ids["Bob"]
        seatings = [
            [ann, "bot:random"],
            [ann, bob, "bot:heuristic"],
            ["bot:heuristic", ann],
            [bob, "bot:random", ann],
            [ann, "bot:ismcts:easy"],
        ]
        return [await play_rated(store, ratings, f"g{i}", s, seed=71 + i) for i, s in enumerate(seatings)]
    finally:
        await store.close()


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, list[Played]]]:
    db = tmp_path_factory.mktemp("profiles") / "games.sqlite3"
    played = asyncio.run(_seed(db))
    s = Server(db)
    s.start()
    yield s, played
    s.stop()


def _win(rank: float) -> float:
    return 1.0 if rank == 1 else 0.5 if rank == 1.5 else 0.0


def test_a_profile_plots_each_rated_game_and_shows_its_results_cards_and_replays(
    seeded: tuple[Server, list[Played]], browser: Browser
) -> None:
    server, played = seeded
    ann = played[0].accounts[0]
    errors: list[str] = []
    page = open_page(browser, f"{server.url}/players/ann", errors)  # any case names the player
    expect(page.locator("h1")).to_have_text("Ann")
    duels = [g for g in played if g.players == 2]
    multis = [g for g in played if g.players == 3]
    # One point per rated game on each ladder's plot, and a title that says so.
    for ladder, games in (("duel", duels), ("multi", multis)):
        plot = page.locator(f".plot-box[data-ladder={ladder}] svg.plot")
        expect(plot).to_have_count(1)
        expect(plot.locator("circle")).to_have_count(len(games))
        assert plot.get_attribute("role") == "img"
        label = plot.get_attribute("aria-label") or ""
        assert f"each of {len(games)} rated games" in label, label
        assert plot.locator("title").first.text_content() == label
        assert plot.locator("circle title").first.text_content().startswith("Game 1: ")
        expect(page.locator(f".profile-ladder.ladder-{ladder} .rating-now")).to_contain_text(
            f"{len(games)} games · provisional"
        )
    # Win rates by player count and by deck: wins over games, a shared first place half a win.
    for players, games in ((2, duels), (3, multis)):
        wins = sum(_win(g.ranks[g.accounts.index(ann)]) for g in games)
        row = page.locator(f".by-players tr[data-key='{players}']")
        expect(row.locator("td").nth(0)).to_have_text(str(len(games)))
        expect(row.locator(".win-rate")).to_have_text(f"{round(100 * wins / len(games))}%")
    wins = sum(_win(g.ranks[g.accounts.index(ann)]) for g in played)
    expect(page.locator(".by-deck tr[data-key='base'] .win-rate")).to_have_text(
        f"{round(100 * wins / len(played))}%"
    )
    expect(page.locator(".by-deck tr[data-key='base'] th")).to_have_text("Oriflamme (base game)")
    # Her favourite cards: the kinds she placed most (counted here as the games were played).
    placed: Counter[str] = Counter()
    held: Counter[str] = Counter()
    for g in played:
        placed.update(g.placed[g.accounts.index(ann)])
        held.update(g.placed[g.accounts.index(ann)].keys())
    top = sorted(placed, key=lambda k: (-placed[k], -held[k], k))[:5]
    kinds = page.locator(".favourites li").evaluate_all("(els) => els.map((e) => e.dataset.kind)")
    assert kinds == top
    # The last games, newest first, each with its replay; nobody else's seat link is shown.
    items = page.locator(".last-games li")
    expect(items).to_have_count(len(played))
    assert items.evaluate_all("(els) => els.map((e) => e.dataset.table)") == [
        g.table_id for g in reversed(played)
    ]
    assert page.locator(".last-games a.replay-link").evaluate_all(
        "(els) => els.map((e) => e.getAttribute('href'))"
    ) == [f"/replay/rated-{g.table_id}" for g in reversed(played)]
    expect(page.locator(".last-games a.review-link")).to_have_count(0)
    page.locator(f".last-games li[data-table='{played[0].table_id}'] a.replay-link").click()
    expect(page.locator(".replay-controls")).to_be_visible()
    # A name nobody plays under: our own words, and the way back.
    page.goto(f"{server.url}/players/Nobody")
    expect(page.locator("main.not-found h2")).to_have_text("No such player")
    assert errors == []


def test_a_ladder_page_ranks_everyone_a_page_at_a_time_and_links_each_profile(
    seeded: tuple[Server, list[Played]], browser: Browser
) -> None:
    server, _ = seeded
    errors: list[str] = []
    page = open_page(browser, f"{server.url}/", errors)
    # The lobby's ladder: its names open their profiles, and the full ladder is a link away.
    first = page.locator(".ladders .ladder-duel li a.ladder-name").first
    expect(first).to_have_text("Filler00")
    assert first.get_attribute("href") == "/players/Filler00"
    page.locator(".ladders .ladder-duel .full-ladder a").click()
    expect(page).to_have_url(f"{server.url}/ladders/duel")
    rows = page.locator(".ladder-table .player-row")
    expect(rows).to_have_count(50)
    ranks = rows.evaluate_all("(els) => els.map((e) => Number(e.dataset.rank))")
    assert ranks == list(range(1, 51))
    ratings = page.locator(".ladder-table tbody tr .rating").evaluate_all(
        "(els) => els.map((e) => parseFloat(e.textContent))"
    )
    assert ratings == sorted(ratings, reverse=True)  # accounts and anchors alike, best first
    assert page.locator(".ladder-table .anchor-row").count() >= 1
    hrefs = rows.locator(".who a").evaluate_all("(els) => els.map((e) => e.getAttribute('href'))")
    names = rows.locator(".who a").evaluate_all("(els) => els.map((e) => e.textContent)")
    assert hrefs == [f"/players/{n}" for n in names]
    expect(page.locator(".pager .page-of")).to_have_text("Page 1 of 2")
    expect(page.locator(".pager a.prev")).to_have_count(0)
    page.locator(".pager a.next").click()
    expect(page).to_have_url(f"{server.url}/ladders/duel?page=2")
    expect(rows).to_have_count(FILLERS + 1 - 50)
    assert rows.evaluate_all("(els) => els.map((e) => Number(e.dataset.rank))") == list(
        range(51, FILLERS + 2)
    )
    second = page.locator(".ladder-table tbody tr .rating").evaluate_all(
        "(els) => els.map((e) => parseFloat(e.textContent))"
    )
    assert second == sorted(second, reverse=True) and second[0] <= ratings[-1]
    expect(page.locator(".pager a.next")).to_have_count(0)
    # Ann, rated lowest, is on the second page: her name opens her profile.
    expect(rows.last.locator(".who a")).to_have_text("Ann")
    rows.last.locator(".who a").click()
    expect(page.locator("h1")).to_have_text("Ann")
    page.go_back()
    page.locator(".pager a.prev").click()
    expect(page).to_have_url(f"{server.url}/ladders/duel")
    expect(rows).to_have_count(50)
    # Past the end, however far: a sentence and the way to the first page; a season not begun: ours.
    page.goto(f"{server.url}/ladders/duel?page=99999999999")
    expect(page.locator(".past-end")).to_contain_text("This page is past the end of the ladder.")
    assert page.locator(".past-end a").get_attribute("href") == "/ladders/duel"
    page.goto(f"{server.url}/ladders/duel?season=5")
    expect(page.locator("main.not-found p").first).to_have_text("This season has not begun.")
    page.goto(f"{server.url}/ladders/triple")
    expect(page.locator("main.not-found h2")).to_have_text("No such ladder")
    assert errors == []


def test_on_her_own_profile_a_player_finds_the_review_of_each_game_and_nobody_else_does(
    seeded: tuple[Server, list[Played]], browser: Browser
) -> None:
    """A game's review is on its seat's page, whose link is a secret of the seat's holder: Ann, logged
    in, sees a review link beside each of her games (her own seat's); Bob's profile shows her none,
    and a visitor who is not logged in sees none on hers."""
    server, played = seeded
    errors: list[str] = []
    page = open_page(browser, f"{server.url}/", errors)
    page.fill("input[name=account-name]", "Ann")
    page.fill("input[name=account-password]", ANN_PASSWORD)
    page.click("button.log-in")
    expect(page.locator(".account-in")).to_contain_text("Ann")
    page.goto(f"{server.url}/players/Ann")
    reviews = page.locator(".last-games a.review-link")
    expect(reviews).to_have_count(len(played))
    ann = played[0].accounts[0]
    assert reviews.evaluate_all("(els) => els.map((e) => e.getAttribute('href'))") == [
        f"/play/{g.table_id}-{g.accounts.index(ann)}" for g in reversed(played)
    ]
    reviews.first.click()
    expect(page.locator("button.review-ask")).to_be_visible()
    page.goto(f"{server.url}/players/Bob")
    expect(page.locator(".last-games li")).to_have_count(2)
    expect(page.locator(".last-games a.review-link")).to_have_count(0)
    visitor = open_page(browser, f"{server.url}/players/Ann", errors)
    expect(visitor.locator(".last-games li")).to_have_count(len(played))
    expect(visitor.locator(".last-games a.review-link")).to_have_count(0)
    assert errors == []


#: Whatever makes the page scroll sideways or runs out of the window.
_OVERFLOW = """() => {
    const w = window.innerWidth;
    const bad = [];
    if (document.documentElement.scrollWidth > w) bad.push(`the page is ${document.documentElement.scrollWidth} px wide`);
    for (const el of document.querySelectorAll('main *')) {
        const r = el.getBoundingClientRect();
        if (r.width && (r.left < -0.5 || r.right > w + 0.5)) bad.push(`${el.tagName} ${el.className} spans ${Math.round(r.left)}..${Math.round(r.right)}`);
    }
    return bad;
}"""


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_profile_and_ladder_pages_fit_a_phone_and_a_laptop(
    seeded: tuple[Server, list[Played]], browser: Browser, lang: str
) -> None:
    """At 360 and 1280 px, in every language, nothing on either page runs off the window, and each
    plot is drawn at the width its box has (its words keep their size)."""
    server, _ = seeded
    errors: list[str] = []
    for width in (360, 1280):
        context: BrowserContext = browser.new_context(viewport={"width": width, "height": 800})
        context.add_init_script(f"localStorage.setItem('oriflamme.lang', '{lang}')")
        try:
            page: Page = context.new_page()
            page.on("pageerror", lambda e: errors.append(str(e)))
            for path, ready in (("/players/Ann", ".plot-box svg"), ("/ladders/duel?page=2", ".ladder-table")):
                page.goto(server.url + path)
                page.wait_for_selector(ready)
                page.wait_for_function("(lang) => document.documentElement.lang === lang", arg=lang)
                assert page.evaluate(_OVERFLOW) == [], f"{path} in {lang} at {width} px"
            page.goto(server.url + "/players/Ann")
            page.wait_for_selector(".plot-box svg")
            sizes = page.locator(".plot-box").evaluate_all(
                "(els) => els.map((e) => [e.clientWidth, e.querySelector('svg').getBoundingClientRect().width])"
            )
            assert sizes and all(abs(box - svg) <= 1 for box, svg in sizes), sizes
        finally:
            context.close()
    assert errors == []
