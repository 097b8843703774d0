"""An account in the browser: a guest's table follows its player to a second browser after logging in.

A real ``oriflamme serve`` and headless Chromium; each browser context is a device of its own
(its own cookies and local storage)."""

from __future__ import annotations

import json
import re
import sqlite3
import urllib.request

from playwright.sync_api import Browser, Page, expect
from support.browser import Server, need_chromium, open_page

need_chromium()


def _fill_account(page: Page, name: str, password: str) -> None:
    page.fill("input[name=account-name]", name)
    page.fill("input[name=account-password]", password)


def test_a_guests_table_shows_on_a_second_device_once_its_player_has_an_account(
    server: Server, browser: Browser
) -> None:
    data = server.create(
        [{"kind": "person", "name": "Mona"}, {"kind": "bot", "bot": "random"}, {"kind": "bot"}]
    )
    errors: list[str] = []
    # The guest plays from a link: this browser remembers the table.
    laptop = open_page(browser, f"{server.url}/play/{data['seats'][0]['token']}", errors)
    laptop.wait_for_selector(".prompt.mine", timeout=15000)  # the bots have moved: Mona's turn
    laptop.goto(server.url + "/")
    expect(laptop.locator(".my-tables .table-card")).to_have_count(1)
    # The lobby counts the tables waiting for her move, in its title and beside "Your tables".
    expect(laptop).to_have_title("(1) Lobby · Oriflamme")
    expect(laptop.locator(".my-tables h2 .badge")).to_have_text("1")
    # Nobody is rated on a new server: the ladders say how one gets there.
    expect(laptop.locator(".ladders .ladder-duel")).to_contain_text("No rated games yet")
    _fill_account(laptop, "Mona", "mona's secret")
    laptop.click("button.register")
    expect(laptop.locator(".account-in")).to_contain_text("Logged in as Mona.")

    # Another device: nothing known here until its owner logs in.
    phone = open_page(browser, server.url + "/", errors)
    expect(phone.locator(".account-form")).to_be_visible()
    expect(phone.locator(".my-tables .table-card")).to_have_count(0)
    expect(phone).to_have_title("Lobby · Oriflamme")
    _fill_account(phone, "mona", "not the password")
    phone.click("button.log-in")
    expect(phone.locator(".toast.error")).to_contain_text("wrong name or password")
    _fill_account(phone, "mona", "mona's secret")
    phone.click("button.log-in")
    expect(phone.locator(".account-in")).to_contain_text("Logged in as Mona.")
    card = phone.locator(".my-tables .table-card")
    expect(card).to_have_count(1)
    expect(card).to_contain_text("Mona")
    assert card.locator("a.button").get_attribute("href") == f"/play/{data['seats'][0]['token']}"

    # Logging out on the phone leaves it knowing nothing of the account's tables; the laptop stays in.
    phone.click("button.log-out")
    expect(phone.locator(".account-form")).to_be_visible()
    expect(phone.locator(".my-tables .table-card")).to_have_count(0)
    laptop.reload()
    expect(laptop.locator(".account-in")).to_contain_text("Logged in as Mona.")

    # A rating on the 3-5 player ladder (written straight into the server's database) is listed.
    with sqlite3.connect(server.db) as db:
        (account,) = db.execute("SELECT id FROM accounts WHERE name = 'Mona'").fetchone()
        db.execute(
            "INSERT INTO ratings (account_id, ladder, season, mu, sigma, games, updated) VALUES (?, 'multi', 1, 30, 2, 3, 0)",
            (account,),
        )
    phone.reload()
    row = phone.locator(".ladders .ladder-multi li")
    expect(row).to_have_count(1)
    expect(row).to_contain_text("Mona 24.0 3 games · provisional")
    expect(phone.locator(".ladders .ladder-duel")).to_contain_text("No rated games yet")
    assert errors == []


def test_a_turn_based_table_made_in_the_lobby_shows_its_clock_in_days(
    server: Server, browser: Browser
) -> None:
    """A 2-day turn timer chosen in the lobby: the table's clock reads in days and hours."""
    errors: list[str] = []
    page = open_page(browser, server.url + "/", errors)
    options = page.locator("select[name=turn_seconds] option")
    expect(options.filter(has_text="2 days (turn-based)")).to_have_count(1)
    page.select_option("select[name=turn_seconds]", "172800")
    page.fill(".seats input >> nth=0", "Rosa")
    page.click("form button.primary[type=submit]")
    page.wait_for_url("**/play/**")
    clock = page.locator(".turn-clock")
    expect(clock).to_have_text(re.compile(r"^\s*(1 d 23:5\d|2 d 00:00)$"), timeout=15000)
    assert errors == []


def test_a_game_made_to_be_watched_is_in_the_lobbys_live_games_and_opens_for_watching(
    server: Server, browser: Browser
) -> None:
    body = {
        "players": 2,
        "deck": "base",
        "seats": [{"kind": "person", "name": "Tess"}, {"kind": "bot", "bot": "random"}],
        "watchable": True,
    }
    request = urllib.request.Request(
        server.url + "/api/tables", json.dumps(body).encode(), {"content-type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=5) as answer:
        made = json.load(answer)
    errors: list[str] = []
    page = open_page(browser, f"{server.url}/play/{made['seats'][0]['token']}", errors)  # Tess sits down
    page.wait_for_selector(".queue")
    page.goto(server.url + "/")
    card = page.locator(".live-games .live-game", has_text="Tess")
    expect(card).to_have_count(1)
    expect(card).to_contain_text("Random")
    card.locator("a.button").click()
    page.wait_for_url(f"**/watch/{made['spectator']}")
    expect(page.locator(".queue")).to_be_visible()
    assert errors == []


def test_what_is_typed_in_the_account_form_survives_the_lobbys_redraws(
    server: Server, browser: Browser
) -> None:
    """The lobby redraws whenever tables, ladders or live games answer (and every 15 s): a name
    half typed keeps its letters, and the field keeps the focus, so typing goes on where it was."""
    errors: list[str] = []
    page = open_page(browser, server.url + "/", errors)
    expect(page.locator(".account-form")).to_be_visible()
    page.click("input[name=account-name]")
    page.keyboard.type("Mo")
    # A redraw that does not take the focus: as a list answering from the server would.
    page.evaluate(
        """() => {
          const select = document.querySelector("select[name=players]");
          select.value = "3";
          select.dispatchEvent(new Event("change"));
        }"""
    )
    expect(page.locator(".seats .seat-row")).to_have_count(3)
    page.keyboard.type("na")
    expect(page.locator("input[name=account-name]")).to_have_value("Mona")
    assert errors == []


def test_a_passkey_added_in_the_settings_logs_its_account_in_without_a_password(
    server: Server, browser: Browser
) -> None:
    """Chromium's virtual authenticator (a platform passkey that verifies its user) stands in for a
    phone. The page is opened at "localhost": a secure context, and a host that can be an RP ID
    (an IP address cannot)."""
    errors: list[str] = []
    page = open_page(browser, server.url.replace("127.0.0.1", "localhost") + "/", errors)
    cdp = page.context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    added = cdp.send(
        "WebAuthn.addVirtualAuthenticator",
        {
            "options": {
                "protocol": "ctap2",
                "transport": "internal",
                "hasResidentKey": True,
                "hasUserVerification": True,
                "isUserVerified": True,
            }
        },
    )
    _fill_account(page, "Pia", "pia's password")
    page.click("button.register")
    expect(page.locator(".account-in")).to_contain_text("Logged in as Pia.")
    page.click(".account-settings summary")
    expect(page.locator(".passkeys-none")).to_have_text("No passkey yet.")
    page.fill("input[name=new-passkey-label]", "test phone")
    page.fill("input[name=new-passkey-password]", "pia's password")
    page.click("button.add-passkey")
    expect(page.locator(".toast").last).to_contain_text("The passkey is added.")
    row = page.locator(".passkey-list li")
    expect(row).to_have_count(1)
    expect(row.locator("input[name=passkey-label]")).to_have_value("test phone")
    expect(row).to_contain_text("not used yet")
    held = cdp.send("WebAuthn.getCredentials", {"authenticatorId": added["authenticatorId"]})
    assert len(held["credentials"]) == 1 and held["credentials"][0]["isResidentCredential"]

    page.click("button.log-out")
    expect(page.locator(".account-form")).to_be_visible()
    page.click("button.passkey-log-in")
    expect(page.locator(".account-in")).to_contain_text("Logged in as Pia.")
    page.click(".account-settings summary")
    expect(page.locator(".passkey-list li")).to_contain_text("last used")
    # Renamed and removed from the list; logging in by it is then refused.
    page.fill("input[name=passkey-label]", "old phone")
    page.click("button.rename-passkey")
    expect(page.locator(".toast").last).to_contain_text("The passkey is renamed.")
    expect(page.locator("input[name=passkey-label]")).to_have_value("old phone")
    page.click("button.remove-passkey")
    expect(page.locator(".passkeys-none")).to_be_visible()
    page.click("button.log-out")
    page.click("button.passkey-log-in")
    expect(page.locator(".toast.error").last).to_contain_text("passkey not accepted")
    expect(page.locator(".account-form")).to_be_visible()
    assert errors == []
