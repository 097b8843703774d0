"""Passkeys over HTTP, with a software authenticator (support.authenticator): adding one, logging in
by it, and what an attacker tries (a replayed or forged ceremony, another origin, an unknown or
cloned credential, a suspended account, another account's passkey, no CSRF token)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from support.accounts import Browser, app_for
from support.authenticator import UP, SoftAuthenticator
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from oriflamme.web.guard import ServerLimits
from oriflamme.web.passkeys import NOT_ACCEPTED
from oriflamme.web.routes_accounts import SESSION_COOKIE

#: The test client's pages come from here: the relying party is its host.
ORIGIN = "http://testserver"


@pytest.fixture
def app() -> ProxyHeadersMiddleware:
    return app_for(None)


def _client(app: ProxyHeadersMiddleware) -> Iterator[TestClient]:
    with TestClient(app) as client:  # type: ignore[arg-type]
        yield client


def _sql(browser: Browser, app: ProxyHeadersMiddleware, sql: str, *values: Any) -> list[tuple[Any, ...]]:
    store = app.app.state.parts.accounts.store  # type: ignore[attr-defined]
    rows: list[tuple[Any, ...]] = browser.client.portal.call(store.run_statements, [(sql, values)])  # type: ignore[union-attr]
    return rows


def _with_passkey(browser: Browser, name: str = "Anna", label: str = "phone") -> SoftAuthenticator:
    """An account ``name`` registered in ``browser``, holding a new passkey (the authenticator)."""
    assert (
        browser.post("/api/account/register", {"name": name, "password": "a long password"}).status_code
        == 200
    )
    key = SoftAuthenticator(ORIGIN)
    begun = browser.post("/api/account/passkeys/begin", {"password": "a long password"}).json()
    done = browser.post(
        "/api/account/passkeys/finish",
        {"ceremony": begun["ceremony"], "credential": key.create(begun["options"]), "label": label},
    )
    assert done.status_code == 200, done.text
    return key


def _log_in(browser: Browser, key: SoftAuthenticator, **forged: Any) -> Any:
    begun = browser.post("/api/passkey/login/begin").json()
    return browser.post(
        "/api/passkey/login/finish",
        {"ceremony": begun["ceremony"], "credential": key.get(begun["options"], **forged)},
    )


def test_a_passkey_added_to_an_account_logs_it_in_from_another_browser(database: str | None) -> None:
    app = app_for(database)
    for client in _client(app):
        laptop, phone = Browser(client, "198.51.100.1"), Browser(client, "198.51.100.2")
        key = _with_passkey(laptop, "Anna", " my\tphone ")
        listed = laptop.get("/api/account/passkeys").json()["passkeys"]
        assert [(p["id"], p["label"], p["last_used"]) for p in listed] == [(key.id, "my phone", None)]
        # Logging in asks for no name: the options list no credential, the browser offers its own.
        begun = phone.post("/api/passkey/login/begin").json()
        assert begun["options"]["rpId"] == "testserver" and not begun["options"].get("allowCredentials")
        assert begun["options"]["userVerification"] == "required"
        answer = phone.post(
            "/api/passkey/login/finish",
            {"ceremony": begun["ceremony"], "credential": key.get(begun["options"])},
        )
        assert answer.status_code == 200, answer.text
        assert answer.json()["account"]["name"] == "Anna"
        assert (
            f"{SESSION_COOKIE}=" in answer.headers["set-cookie"]
            and "HttpOnly" in answer.headers["set-cookie"]
        )
        assert phone.account()["name"] == "Anna"  # type: ignore[index]
        # Its new counter and its use are kept; the export lists it, without its key.
        assert _sql(phone, app, "SELECT sign_count FROM passkeys") == [(1,)]
        used = laptop.get("/api/account/passkeys").json()["passkeys"][0]["last_used"]
        assert used is not None
        exported = laptop.get("/api/account/export").json()["passkeys"]
        assert exported == [
            {
                "label": "my phone",
                "created": listed[0]["created"],
                "last_used": used,
                "transports": ["internal"],
            }
        ]
        # Its challenges were used up: none is left.
        assert _sql(phone, app, "SELECT count(*) FROM passkey_challenges") == [(0,)]


def test_each_log_in_makes_a_new_session(app: ProxyHeadersMiddleware) -> None:
    for client in _client(app):
        browser = Browser(client, "198.51.100.1")
        key = _with_passkey(browser)
        before = browser.jar.get(SESSION_COOKIE)
        assert _log_in(browser, key).status_code == 200
        after = browser.jar.get(SESSION_COOKIE)
        assert after and after != before
        # The session the browser had before is over (no fixation: one live session, the new one).
        assert _sql(browser, app, "SELECT count(*) FROM sessions") == [(1,)]


def test_a_ceremony_is_used_once_even_when_its_answer_was_refused(app: ProxyHeadersMiddleware) -> None:
    for client in _client(app):
        owner, thief = Browser(client, "198.51.100.1"), Browser(client, "198.51.100.2")
        key = _with_passkey(owner)
        begun = thief.post("/api/passkey/login/begin").json()
        signed = {"ceremony": begun["ceremony"], "credential": key.get(begun["options"])}
        assert thief.post("/api/passkey/login/finish", signed).status_code == 200
        replayed = thief.post("/api/passkey/login/finish", signed)
        assert replayed.status_code == 400 and replayed.json()["detail"] == NOT_ACCEPTED
        # A refused answer uses its ceremony up too: a right answer after it is refused.
        begun = thief.post("/api/passkey/login/begin").json()
        wrong = key.get(begun["options"], origin="https://elsewhere.example")
        assert (
            thief.post(
                "/api/passkey/login/finish", {"ceremony": begun["ceremony"], "credential": wrong}
            ).status_code
            == 400
        )
        right = {"ceremony": begun["ceremony"], "credential": key.get(begun["options"])}
        assert thief.post("/api/passkey/login/finish", right).json()["detail"] == NOT_ACCEPTED


@pytest.mark.parametrize(
    "forge",
    [
        pytest.param({"origin": "https://oriflamme.example.evil"}, id="another origin"),
        pytest.param({"flags": UP}, id="user not verified"),
    ],
)
def test_an_answer_from_another_origin_or_without_user_verification_is_refused(
    app: ProxyHeadersMiddleware, forge: dict[str, Any]
) -> None:
    for client in _client(app):
        owner, other = Browser(client, "198.51.100.1"), Browser(client, "198.51.100.2")
        key = _with_passkey(owner)
        refused = _log_in(other, key, **forge)
        assert refused.status_code == 400 and refused.json()["detail"] == NOT_ACCEPTED
        assert other.account() is None
        assert _sql(other, app, "SELECT sign_count, last_used FROM passkeys") == [(0, None)]


def test_a_passkey_made_for_another_site_is_refused(app: ProxyHeadersMiddleware) -> None:
    for client in _client(app):
        browser = Browser(client, "198.51.100.1")
        browser.post("/api/account/register", {"name": "Anna", "password": "a long password"})
        key = SoftAuthenticator(ORIGIN)
        begun = browser.post("/api/account/passkeys/begin", {"password": "a long password"}).json()
        begun["options"]["rp"]["id"] = "elsewhere.example"  # the authenticator signs another site's hash
        done = browser.post(
            "/api/account/passkeys/finish",
            {"ceremony": begun["ceremony"], "credential": key.create(begun["options"])},
        )
        assert done.status_code == 400 and done.json()["detail"] == NOT_ACCEPTED
        assert browser.get("/api/account/passkeys").json()["passkeys"] == []


def test_an_unknown_passkey_and_a_forged_ceremony_are_refused_alike(app: ProxyHeadersMiddleware) -> None:
    for client in _client(app):
        owner, other = Browser(client, "198.51.100.1"), Browser(client, "198.51.100.2")
        key = _with_passkey(owner)
        stranger = SoftAuthenticator(ORIGIN)
        stranger.user_handle = key.user_handle
        unknown = _log_in(other, stranger)
        begun = other.post("/api/passkey/login/begin").json()
        forged = other.post(
            "/api/passkey/login/finish", {"ceremony": "0" * 32, "credential": key.get(begun["options"])}
        )
        garbage = other.post(
            "/api/passkey/login/finish",
            {"ceremony": begun["ceremony"], "credential": {"id": 3, "response": []}},
        )
        for answer in (unknown, forged, garbage):
            assert (answer.status_code, answer.json()) == (400, {"detail": NOT_ACCEPTED})
        assert other.account() is None


def test_a_counter_that_goes_back_is_refused_as_a_clone(app: ProxyHeadersMiddleware) -> None:
    for client in _client(app):
        browser = Browser(client, "198.51.100.1")
        key = _with_passkey(browser)
        assert _log_in(browser, key).status_code == 200
        assert _log_in(browser, key).status_code == 200
        assert _sql(browser, app, "SELECT sign_count FROM passkeys") == [(2,)]
        key.counter = 0  # a copy made after its first use answers with counter 1
        clone = _log_in(browser, key)
        assert clone.status_code == 400 and clone.json()["detail"] == NOT_ACCEPTED
        assert _sql(browser, app, "SELECT sign_count FROM passkeys") == [(2,)]


def test_a_passkey_that_keeps_no_counter_logs_in_every_time(app: ProxyHeadersMiddleware) -> None:
    for client in _client(app):
        browser = Browser(client, "198.51.100.1")
        key = _with_passkey(browser)
        key.counter_step = 0  # synced passkeys report 0 always: no clone detection, no refusal
        for _ in range(2):
            assert _log_in(browser, key).status_code == 200


def test_a_suspended_account_cannot_log_in_by_passkey_and_a_deleted_ones_passkeys_are_gone(
    app: ProxyHeadersMiddleware,
) -> None:
    for client in _client(app):
        owner, other = Browser(client, "198.51.100.1"), Browser(client, "198.51.100.2")
        key = _with_passkey(owner)
        accounts = app.app.state.parts.accounts  # type: ignore[attr-defined]
        client.portal.call(accounts.suspend, "Anna", True)  # type: ignore[union-attr]
        refused = _log_in(other, key)
        assert refused.status_code == 403 and "suspended" in refused.json()["detail"]
        assert other.account() is None
        client.portal.call(accounts.suspend, "Anna", False)  # type: ignore[union-attr]
        assert _log_in(other, key).status_code == 200
        assert other.post("/api/account/delete", {"password": "a long password"}).status_code == 204
        assert _sql(other, app, "SELECT count(*) FROM passkeys") == [(0,)]
        gone = _log_in(other, key)
        assert gone.status_code == 400 and other.account() is None


def test_adding_a_passkey_asks_for_the_password_so_a_stolen_session_adds_none() -> None:
    """Whoever holds a session but not the password begins no addition (nothing is stored), and
    the password asked there is counted as log-in attempts are: no guessing through it either."""
    app = app_for(None, ServerLimits(logins_per_account="3/day", logins_per_address="1000/day"))
    for client in _client(app):
        thief = Browser(client, "198.51.100.1")
        thief.post("/api/account/register", {"name": "Anna", "password": "a long password"})
        for guess in ("guess one", "guess two", "guess three"):
            refused = thief.post("/api/account/passkeys/begin", {"password": guess})
            assert refused.status_code == 403 and "password" in refused.json()["detail"]
        assert _sql(thief, app, "SELECT count(*) FROM passkey_challenges") == [(0,)]
        limited = thief.post("/api/account/passkeys/begin", {"password": "a long password"})
        assert limited.status_code == 429
        assert thief.post("/api/account/passkeys/begin", {}).status_code == 422


def test_a_registration_ceremony_serves_its_own_account_and_purpose_only(app: ProxyHeadersMiddleware) -> None:
    for client in _client(app):
        anna, boris = Browser(client, "198.51.100.1"), Browser(client, "198.51.100.2")
        anna.post("/api/account/register", {"name": "Anna", "password": "a long password"})
        boris.post("/api/account/register", {"name": "Boris", "password": "a long password"})
        key = SoftAuthenticator(ORIGIN)
        annas = anna.post("/api/account/passkeys/begin", {"password": "a long password"}).json()
        stolen = boris.post(
            "/api/account/passkeys/finish",
            {"ceremony": annas["ceremony"], "credential": key.create(annas["options"])},
        )
        assert stolen.status_code == 400
        login = boris.post("/api/passkey/login/begin").json()
        login["options"].update(rp={"id": "testserver"}, user={"id": annas["options"]["user"]["id"]})
        wrong_purpose = boris.post(
            "/api/account/passkeys/finish",
            {"ceremony": login["ceremony"], "credential": key.create(login["options"])},
        )
        assert wrong_purpose.status_code == 400
        assert _sql(anna, app, "SELECT count(*) FROM passkeys") == [(0,)]
        # A ceremony that lapsed is refused too.
        begun = anna.post("/api/account/passkeys/begin", {"password": "a long password"}).json()
        _sql(anna, app, "UPDATE passkey_challenges SET expires = 0")
        late = anna.post(
            "/api/account/passkeys/finish",
            {"ceremony": begun["ceremony"], "credential": key.create(begun["options"])},
        )
        assert late.status_code == 400 and anna.get("/api/account/passkeys").json()["passkeys"] == []
        # An account adds one passkey at a time: beginning another abandons the first.
        first = anna.post("/api/account/passkeys/begin", {"password": "a long password"}).json()
        second = anna.post("/api/account/passkeys/begin", {"password": "a long password"}).json()
        abandoned = anna.post(
            "/api/account/passkeys/finish",
            {"ceremony": first["ceremony"], "credential": key.create(first["options"])},
        )
        assert abandoned.status_code == 400
        assert _sql(anna, app, "SELECT count(*) FROM passkey_challenges") == [(1,)]
        assert (
            anna.post(
                "/api/account/passkeys/finish",
                {"ceremony": second["ceremony"], "credential": key.create(second["options"])},
            ).status_code
            == 200
        )
        # Nobody logged in begins none.
        nobody = Browser(client, "198.51.100.3")
        assert nobody.post("/api/account/passkeys/begin", {"password": "a long password"}).status_code == 401


def test_an_owner_renames_and_removes_its_passkeys_and_nobody_else_can(app: ProxyHeadersMiddleware) -> None:
    for client in _client(app):
        anna, boris = Browser(client, "198.51.100.1"), Browser(client, "198.51.100.2")
        key = _with_passkey(anna)
        boris.post("/api/account/register", {"name": "Boris", "password": "a long password"})
        assert boris.post("/api/account/passkeys/rename", {"id": key.id, "label": "mine"}).status_code == 404
        assert boris.post("/api/account/passkeys/remove", {"id": key.id}).status_code == 404
        assert anna.post("/api/account/passkeys/rename", {"id": key.id, "label": "laptop"}).status_code == 204
        assert [p["label"] for p in anna.get("/api/account/passkeys").json()["passkeys"]] == ["laptop"]
        assert anna.post("/api/account/passkeys/remove", {"id": key.id}).status_code == 204
        assert anna.get("/api/account/passkeys").json()["passkeys"] == []
        assert _log_in(boris, key).status_code == 400
        # The password still opens the account.
        assert (
            boris.post("/api/account/login", {"name": "Anna", "password": "a long password"}).status_code
            == 200
        )


def test_passkey_posts_need_the_csrf_token(app: ProxyHeadersMiddleware) -> None:
    for client in _client(app):
        browser = Browser(client, "198.51.100.1")
        key = _with_passkey(browser)
        assert browser.post("/api/passkey/login/begin", csrf=False).status_code == 403
        assert browser.post("/api/account/passkeys/begin", csrf=False).status_code == 403
        assert browser.post("/api/account/passkeys/remove", {"id": key.id}, csrf=False).status_code == 403
        assert len(browser.get("/api/account/passkeys").json()["passkeys"]) == 1


def test_beginning_log_ins_by_passkey_counts_against_the_addresss_log_ins() -> None:
    app = app_for(None, ServerLimits(logins_per_address="3/day"))  # a day: no window turns mid-test
    for client in _client(app):
        browser, other = Browser(client, "198.51.100.1"), Browser(client, "198.51.100.2")
        browser.post("/api/account/login", {"name": "Nobody", "password": "a long password"})
        assert [browser.post("/api/passkey/login/begin").status_code for _ in range(3)] == [200, 200, 429]
        assert other.post("/api/passkey/login/begin").status_code == 200
