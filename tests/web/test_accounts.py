"""Optional accounts over HTTP, on every store (memory, an SQLite file, PostgreSQL): what a person does,
and what an attacker tries (CSRF, session fixation, telling names apart by the answer, guessing)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from support.accounts import Browser, app_for
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from oriflamme.web.accounts import WRONG_CREDENTIALS
from oriflamme.web.guard import ServerLimits
from oriflamme.web.routes_accounts import CSRF_COOKIE, SESSION_COOKIE


@pytest.fixture
def server(database: str | None) -> Iterator[ProxyHeadersMiddleware]:
    yield app_for(database)


def _browser(app: ProxyHeadersMiddleware, address: str = "198.51.100.1") -> Iterator[Browser]:
    with TestClient(app) as client:  # type: ignore[arg-type]
        yield Browser(client, address)


def test_register_then_log_in_from_a_second_browser_sees_the_same_account(database: str | None) -> None:
    app = app_for(database)
    with TestClient(app) as client:  # type: ignore[arg-type]
        first, second = Browser(client, "198.51.100.1"), Browser(client, "198.51.100.2")
        made = first.post("/api/account/register", {"name": "Anna", "password": "correct horse"})
        assert made.status_code == 200, made.text
        cookie = made.headers["set-cookie"]
        assert f"{SESSION_COOKIE}=" in cookie and "HttpOnly" in cookie and "SameSite=lax" in cookie
        assert first.account() is not None and first.account()["name"] == "Anna"  # type: ignore[index]
        assert second.account() is None
        logged = second.post("/api/account/login", {"name": "anna", "password": "correct horse"})
        assert logged.status_code == 200
        assert second.account()["name"] == "Anna"  # type: ignore[index]
        # Logging out here ends this browser's session only.
        assert second.post("/api/account/logout").status_code == 204
        assert second.account() is None and first.account() is not None


def test_a_post_without_the_csrf_token_is_refused_and_changes_nothing(database: str | None) -> None:
    app = app_for(database)
    for browser in _browser(app):
        refused = browser.post("/api/account/register", {"name": "Boris", "password": "12345678"}, csrf=False)
        assert refused.status_code == 403 and "CSRF" in refused.json()["detail"]
        assert browser.account() is None
        # The account was not made: logging in to it fails, and the name is free.
        assert (
            browser.post("/api/account/login", {"name": "Boris", "password": "12345678"}).status_code == 401
        )
        before = browser.jar.get(CSRF_COOKIE)
        made = browser.post("/api/account/register", {"name": "Boris", "password": "12345678"})
        assert made.status_code == 200
        forged = browser.post("/api/account/logout", csrf="not-the-cookie")
        assert forged.status_code == 403 and browser.account() is not None
        # A session starts with a CSRF token of its own: the one from before the log-in is refused.
        assert before and browser.jar.get(CSRF_COOKIE) not in (None, before)
        stale = browser.post("/api/account/logout", csrf=before)
        assert stale.status_code == 403 and browser.account() is not None


def test_a_wrong_name_and_a_wrong_password_get_the_same_answer(database: str | None) -> None:
    for browser in _browser(app_for(database)):
        browser.post("/api/account/register", {"name": "Chloé", "password": "a long password"})
        browser.post("/api/account/logout")
        wrong_password = browser.post("/api/account/login", {"name": "Chloé", "password": "not the password"})
        wrong_name = browser.post(
            "/api/account/login", {"name": "Nobody here", "password": "a long password"}
        )
        for answer in (wrong_password, wrong_name):
            assert answer.status_code == 401 and answer.json() == {"detail": WRONG_CREDENTIALS}
            assert SESSION_COOKIE not in answer.headers.get("set-cookie", "")


def test_logging_in_never_keeps_a_session_token_planted_before(database: str | None) -> None:
    """Session fixation: a token set in the victim's browser beforehand is not the one that logs in."""
    for browser in _browser(app_for(database)):
        browser.post("/api/account/register", {"name": "Dmitri", "password": "p4ssw0rd!"})
        planted = browser.jar.get(SESSION_COOKIE)
        assert planted
        browser.post("/api/account/login", {"name": "Dmitri", "password": "p4ssw0rd!"})
        fresh = browser.jar.get(SESSION_COOKIE)
        assert fresh and fresh != planted
        # The planted token opens nothing any more.
        browser.jar.delete(SESSION_COOKIE)
        browser.jar.set(SESSION_COOKIE, planted)
        assert browser.account() is None


def test_a_new_password_ends_the_other_sessions(database: str | None) -> None:
    app = app_for(database)
    with TestClient(app) as client:  # type: ignore[arg-type]
        here, there = Browser(client, "198.51.100.1"), Browser(client, "198.51.100.2")
        here.post("/api/account/register", {"name": "Eve", "password": "first password"})
        there.post("/api/account/login", {"name": "Eve", "password": "first password"})
        wrong = here.post("/api/account/password", {"current": "not it at all", "new": "second password"})
        assert wrong.status_code == 403
        short = here.post("/api/account/password", {"current": "first password", "new": "short"})
        assert short.status_code == 400
        assert there.account() is not None  # nothing changed by the refusals
        done = here.post("/api/account/password", {"current": "first password", "new": "second password"})
        assert done.status_code == 204
        assert here.account() is not None and there.account() is None
        old = there.post("/api/account/login", {"name": "Eve", "password": "first password"})
        assert old.status_code == 401
        assert (
            there.post("/api/account/login", {"name": "Eve", "password": "second password"}).status_code
            == 200
        )


def test_names_are_unique_however_they_are_written(database: str | None) -> None:
    # Each refused name counts against the address's registrations too: lifted for this one test.
    for browser in _browser(app_for(database, ServerLimits(accounts_per_address="100/hour"))):
        assert (
            browser.post("/api/account/register", {"name": "Fiona", "password": "password one"}).status_code
            == 200
        )
        for lookalike in ("FIONA", "Ｆｉｏｎａ", "Fi ona", "fiona.", "Fionа", "F1ona", "FI0NA", "FLONA"):
            taken = browser.post("/api/account/register", {"name": lookalike, "password": "password two"})
            assert taken.status_code == 409 and "taken" in taken.json()["detail"], lookalike
        # A default seat name, also through lookalikes (a zero for the O, a capital I for the l).
        defaults = [(name, "default name") for name in ("Bot 2", "B0T 3", "PIayer l", "J0ueur", "ВОТ 4")]
        for bad, why in (*defaults, ("x", "at least 2"), ("Gina", "8 to 256")):
            refused = browser.post(
                "/api/account/register", {"name": bad, "password": "short" if bad == "Gina" else "password"}
            )
            assert refused.status_code == 400 and why in refused.json()["detail"], bad


def test_export_then_delete_erases_the_name_and_password_and_frees_the_name(database: str | None) -> None:
    app = app_for(database)
    for browser in _browser(app):
        seats = [{"kind": "person", "name": "Hugo"}, {"kind": "bot", "bot": "random"}]
        made = browser.client.post("/api/tables", json={"players": 2, "deck": "base", "seats": seats}).json()
        browser.post("/api/account/register", {"name": "Hugo", "password": "hugo's password"})
        browser.post("/api/account/links", {"tokens": [made["seats"][0]["token"]]})
        exported = browser.get("/api/account/export")
        data = exported.json()
        assert data["account"]["name"] == "Hugo" and len(data["sessions"]) == 1
        assert data["ratings"] == [] and data["rated_games"] == []
        assert "attachment" in exported.headers["content-disposition"]
        refused = browser.post("/api/account/delete", {"password": "not hugo's"})
        assert refused.status_code == 403 and browser.account() is not None
        assert browser.post("/api/account/delete", {"password": "hugo's password"}).status_code == 204
        assert browser.account() is None
        # The table is loaded (it was just made): its seat shows the default name at once, too.
        summary = browser.client.post("/api/lobby", json={"tokens": [made["spectator"]]}).json()
        assert [s["name"] for s in summary["tables"][0]["seats"]] == ["", ""]
        assert browser.get("/api/account/export").status_code == 401
        store = app.app.state.parts.accounts.store
        rows = browser.client.portal.call(  # type: ignore[union-attr]
            store.run_statements, [("SELECT name, name_key, password_hash, deleted FROM accounts", ())]
        )
        assert len(rows) == 1 and rows[0][:3] == (None, None, None) and rows[0][3] is not None
        sessions = browser.client.portal.call(store.run_statements, [("SELECT count(*) FROM sessions", ())])  # type: ignore[union-attr]
        assert sessions == [(0,)]
        if database is not None:  # a store that keeps its tables in SQL: the seat's name went too
            names = browser.client.portal.call(  # type: ignore[union-attr]
                store.run_statements, [("SELECT name FROM seats ORDER BY seat", ())]
            )
            assert names == [("",), ("",)]
        assert (
            browser.post("/api/account/login", {"name": "Hugo", "password": "hugo's password"}).status_code
            == 401
        )
        assert (
            browser.post("/api/account/register", {"name": "Hugo", "password": "another one"}).status_code
            == 200
        )


def test_guessing_one_accounts_password_from_many_addresses_is_stopped() -> None:
    """Log-in attempts count per address and per account: ten from ten addresses, however the name is
    spelt (case, lookalikes, invisible fillers, padding past the longest name), then 429 on the
    eleventh whatever its address, while another account can still be logged into."""
    # Windows of a day: the limiter's sliding windows lend a little at each window's turn, which a
    # test crossing a ten-minute mark would see; a test crosses midnight almost never.
    app = app_for(None, ServerLimits(logins_per_account="10/day", logins_per_address="1000/day"))
    with TestClient(app) as client:  # type: ignore[arg-type]
        owner = Browser(client, "198.51.100.1")
        owner.post("/api/account/register", {"name": "Ines", "password": "ines password"})
        owner.post("/api/account/register", {"name": "Jules", "password": "jules password"})
        answers = []
        spellings = ["Ines", "INES", "Ines\u3164", "1nes", "  Ines  ", "Іnes"]  # a Cyrillic І last
        for i in range(11):
            guesser = Browser(client, f"203.0.113.{i + 1}")
            name = spellings[i % len(spellings)]
            answers.append(
                guesser.post("/api/account/login", {"name": name, "password": f"guess {i:04}"}).status_code
            )
        assert answers == [401] * 10 + [429]
        other = Browser(client, "203.0.113.99")
        assert (
            other.post("/api/account/login", {"name": "Jules", "password": "jules password"}).status_code
            == 200
        )


def test_failing_on_purpose_locks_strangers_out_but_not_a_browser_that_logged_in_before(
    database: str | None,
) -> None:
    """The account's own limit stops guessing from many addresses; a browser that registered or
    logged into the account before (its device cookie) is counted by its address only, so its
    owner still gets in. One browser's cookie serves each account logged into there, and lifts
    nothing for another one."""
    app = app_for(database, ServerLimits(logins_per_account="5/day", logins_per_address="1000/day"))
    with TestClient(app) as client:  # type: ignore[arg-type]
        laptop, phone = Browser(client, "198.51.100.1"), Browser(client, "198.51.100.2")
        laptop.post("/api/account/register", {"name": "Mila", "password": "mila's password"})
        laptop.post("/api/account/register", {"name": "Nadia", "password": "nadia's password"})
        assert any(name.endswith("oriflamme_device") for name in laptop.jar)
        for i in range(5):
            stranger = Browser(client, f"203.0.113.{i + 1}")
            stranger.post("/api/account/login", {"name": "Mila", "password": f"guess {i}"})
        late = Browser(client, "203.0.113.50").post(
            "/api/account/login", {"name": "Mila", "password": "mila's password"}
        )
        assert late.status_code == 429  # a stranger, even with the password: the account is being guessed
        # A browser new to the account is a stranger too.
        phone.post("/api/account/register", {"name": "Olga", "password": "olga's password"})
        assert (
            phone.post("/api/account/login", {"name": "Mila", "password": "mila's password"}).status_code
            == 429
        )
        assert (
            laptop.post("/api/account/login", {"name": "Mila", "password": "mila's password"}).status_code
            == 200
        )
        assert laptop.account()["name"] == "Mila"  # type: ignore[index]
        # ... and gets a device cookie of its own once in: afterwards it is known too.
        assert (
            laptop.post("/api/account/login", {"name": "Mila", "password": "mila's password"}).status_code
            == 200
        )


def _device(browser: Browser) -> str | None:
    return next((value for name, value in browser.jar.items() if name.endswith("oriflamme_device")), None)


def test_a_device_cookie_guesses_no_faster_cannot_be_planted_and_lapses_with_the_password(
    database: str | None,
) -> None:
    """A known browser's attempts count against that browser at the account's rate (a stolen
    device cookie is no master key); a value the server never gave is replaced, not adopted; a new
    password makes every other browser a stranger again."""
    app = app_for(database, ServerLimits(logins_per_account="3/day", logins_per_address="1000/day"))
    with TestClient(app) as client:  # type: ignore[arg-type]
        laptop, phone = Browser(client, "198.51.100.1"), Browser(client, "198.51.100.2")
        phone.jar.set("oriflamme_device", "planted-by-someone", domain="testserver.local", path="/")
        phone.post("/api/account/register", {"name": "Pia", "password": "pia's password"})
        assert _device(phone) not in (None, "planted-by-someone")
        laptop.post("/api/account/login", {"name": "Pia", "password": "pia's password"})
        laptop_device = _device(laptop)
        assert laptop_device is not None and laptop_device != _device(phone)
        # The laptop's own quota: its wrong guesses run out, the account's and the phone's do not.
        for i in range(3):
            laptop.post("/api/account/login", {"name": "Pia", "password": f"guess {i}"})
        assert (
            laptop.post("/api/account/login", {"name": "Pia", "password": "pia's password"}).status_code
            == 429
        )
        assert (
            phone.post("/api/account/login", {"name": "Pia", "password": "pia's password"}).status_code == 200
        )
        stranger = Browser(client, "203.0.113.1")
        assert (
            stranger.post("/api/account/login", {"name": "Pia", "password": "pia's password"}).status_code
            == 200
        )
        # A new password, set from the phone: the stranger's browser, known since, is a stranger again.
        stranger_device = _device(stranger)
        changed = phone.post("/api/account/password", {"current": "pia's password", "new": "pia's new one"})
        assert changed.status_code == 204
        for i in range(2):  # the account's quota: one attempt above was the stranger's, a stranger then
            Browser(client, f"203.0.113.{i + 2}").post(
                "/api/account/login", {"name": "Pia", "password": "wrong"}
            )
        assert (
            stranger.post("/api/account/login", {"name": "Pia", "password": "pia's new one"}).status_code
            == 429
        )
        assert _device(stranger) == stranger_device
        assert (
            phone.post("/api/account/login", {"name": "Pia", "password": "pia's new one"}).status_code == 200
        )


def test_my_games_follow_the_account_to_another_browser_and_a_seat_counts_for_one_account(
    database: str | None,
) -> None:
    """A guest's links kept with the account (a claim) show on a second browser after logging in; a
    person's seat that one account holds is refused to another; forgetting and deleting drop them."""
    app = app_for(database)
    with TestClient(app) as client:  # type: ignore[arg-type]
        laptop, phone, rival = (Browser(client, f"198.51.100.{i}") for i in (1, 2, 3))
        seats = [{"kind": "person", "name": "Kim"}, {"kind": "person"}, {"kind": "bot", "bot": "random"}]
        made = laptop.client.post("/api/tables", json={"players": 3, "deck": "base", "seats": seats}).json()
        mine, theirs, bot = (s["token"] for s in made["seats"])
        assert bot is None  # a bot's seat has no link
        laptop.post("/api/account/register", {"name": "Kim", "password": "kim's password"})
        kept = laptop.post("/api/account/links", {"tokens": [mine, made["host"], "no-such-link"]})
        assert kept.json() == {"kept": 2, "refused": []}
        again = laptop.post("/api/account/links", {"tokens": [mine]})
        assert again.json() == {"kept": 1, "refused": []}  # kept once
        rival.post("/api/account/register", {"name": "Lou", "password": "lou's password"})
        claimed = rival.post("/api/account/links", {"tokens": [mine, theirs]})
        assert claimed.json() == {"kept": 1, "refused": [mine]}
        assert phone.get("/api/account/links").status_code == 401
        phone.post("/api/account/login", {"name": "Kim", "password": "kim's password"})
        held = phone.get("/api/account/links").json()["links"]
        assert sorted((x["token"], x["role"]) for x in held) == sorted(
            [(mine, "person"), (made["host"], "host")]
        )
        summary = phone.client.post("/api/lobby", json={"tokens": [x["token"] for x in held]}).json()[
            "tables"
        ]
        assert {x["table"] for x in summary} == {made["table"]}
        tables = phone.get("/api/account/export").json()["tables"]
        assert {(x["role"], x["seat"]) for x in tables} == {("person", 0), ("host", None)}
        assert phone.post("/api/account/links/forget", {"tokens": [made["host"]]}).status_code == 204
        assert [x["token"] for x in laptop.get("/api/account/links").json()["links"]] == [mine]
        forged = phone.post("/api/account/links", {"tokens": [theirs]}, csrf="forged")
        assert forged.status_code == 403
        rival.post("/api/account/delete", {"password": "lou's password"})
        # The rival's seat is free to claim once its account is gone (by an account with no seat there).
        newcomer = Browser(client, "198.51.100.4")
        newcomer.post("/api/account/register", {"name": "Nell", "password": "nell's password"})
        assert newcomer.post("/api/account/links", {"tokens": [theirs]}).json() == {"kept": 1, "refused": []}


def test_an_account_holds_one_persons_seat_at_a_table() -> None:
    """The host who opens a friend's invite link does not take that seat for the host's account: an
    account holds one person seat per table (the one it claimed first), so nobody is rated twice."""
    with TestClient(app_for(None)) as client:  # type: ignore[arg-type]
        seats = [{"kind": "person", "name": "Uma"}, {"kind": "person", "name": "Vic"}]
        made = client.post("/api/tables", json={"players": 2, "deck": "base", "seats": seats}).json()
        uma = Browser(client, "198.51.100.8")
        uma.post("/api/account/register", {"name": "Uma", "password": "uma's password"})
        first, second = made["seats"][0]["token"], made["seats"][1]["token"]
        assert uma.post("/api/account/links", {"tokens": [first]}).json() == {"kept": 1, "refused": []}
        assert uma.post("/api/account/links", {"tokens": [second]}).json() == {"kept": 0, "refused": [second]}
        vic = Browser(client, "198.51.100.9")
        vic.post("/api/account/register", {"name": "Vic", "password": "vic's password"})
        assert vic.post("/api/account/links", {"tokens": [second]}).json() == {"kept": 1, "refused": []}


def test_over_https_the_cookies_are_host_only_and_plain_named_ones_are_not_taken() -> None:
    """Behind HTTPS the session and CSRF cookies are named __Host-... (Secure, Path=/, no Domain), which
    a browser takes only from this host over HTTPS; cookies of the plain names, as a sibling subdomain
    or a plain-HTTP man in the middle could plant them, open no session and pass no CSRF check."""
    with TestClient(app_for(None), base_url="https://testserver") as client:  # type: ignore[arg-type]
        owner = Browser(client, "198.51.100.20")
        made = owner.post("/api/account/register", {"name": "Yara", "password": "yara's password"})
        cookie = made.headers["set-cookie"]
        assert cookie.startswith("__Host-oriflamme_session=") and "Secure" in cookie and "Path=/" in cookie
        assert "Domain" not in cookie
        assert owner.account() is not None
        token = owner.jar.get("__Host-oriflamme_session")
        planted = Browser(client, "198.51.100.21")
        planted.jar.set(SESSION_COOKIE, token)  # the right token, under the name anyone could plant
        assert planted.account() is None
        planted.jar.set("oriflamme_csrf", "planted")
        refused = planted.post(
            "/api/account/login", {"name": "Yara", "password": "yara's password"}, csrf="planted"
        )
        assert refused.status_code == 403
