"""Friends, blocks and invitations by name over HTTP and the WebSocket, on SQLite and PostgreSQL: what
each account may learn of another (presence only both ways, a block never shown, an invitation only
its addressee's), and what a forged or mistaken request changes (nothing)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from support.accounts import Browser, app_for
from support.web import Seat

from oriflamme.web.friends import NO_PLAYER, ONLINE_SECONDS

PASSWORD = "a long password"


@pytest.fixture
def client(database_url: str) -> Iterator[TestClient]:
    with TestClient(app_for(database_url)) as c:  # type: ignore[arg-type]
        yield c


def people(client: TestClient, *names: str) -> list[Browser]:
    """A browser per name, each logged in to a new account of that name."""
    out = []
    for i, name in enumerate(names):
        b = Browser(client, f"198.51.100.{i + 1}")
        assert b.post("/api/account/register", {"name": name, "password": PASSWORD}).status_code == 200
        out.append(b)
    return out


def friends_of(b: Browser) -> dict[str, bool | None]:
    answer = b.get("/api/account/friends")
    assert answer.status_code == 200, answer.text
    return {f["name"]: f["online"] for f in answer.json()["friends"]}


def invites_of(b: Browser) -> list[dict[str, Any]]:
    answer = b.get("/api/account/invites")
    assert answer.status_code == 200, answer.text
    invites: list[dict[str, Any]] = answer.json()["invites"]
    return invites


def table_with(b: Browser, *invited: str, players: int = 3) -> Any:
    """A table made by ``b``: its seat, then a friend's seat for each name invited, then bots."""
    seats: list[dict[str, Any]] = [{"kind": "person", "name": "Host"}]
    seats += [{"kind": "person", "invite": name} for name in invited]
    seats += [{"kind": "bot", "bot": "random"}] * (players - len(seats))
    return b.post("/api/tables", {"players": players, "deck": "base", "seats": seats})


def tables_stored(client: TestClient) -> int:
    store = client.app.app.state.registry.store  # type: ignore[attr-defined]
    rows = client.portal.call(store.run_statements, [("SELECT COUNT(*) FROM tables", ())])  # type: ignore[union-attr]
    return int(rows[0][0])


def test_a_friend_is_shown_online_only_when_both_listed_each_other(client: TestClient) -> None:
    ann, bob, cyd = people(client, "Ann", "Bob", "Cyd")
    added = ann.post("/api/account/friends/add", {"name": "bob"})  # names match as at registration
    assert added.status_code == 200 and added.json()["friends"][0]["name"] == "Bob"
    # Bob has been here (his requests) but did not list Ann: she cannot tell whether he is.
    assert friends_of(ann) == {"Bob": None}
    bob.post("/api/account/friends/add", {"name": "Ann"})
    assert friends_of(ann) == {"Bob": True} and friends_of(bob) == {"Ann": True}
    # Cyd lists Ann, who did not list Cyd: Cyd sees no presence of Ann's.
    cyd.post("/api/account/friends/add", {"name": "Ann"})
    assert friends_of(cyd) == {"Ann": None}
    # Minutes later, with nobody coming back, both are offline to each other.
    parts = client.app.app.state.parts  # type: ignore[attr-defined]
    parts.social.clock = lambda: time.time() + ONLINE_SECONDS + 60
    assert friends_of(ann) == {"Bob": False}
    # Removing is one direction: Bob's list keeps Ann, with no presence any more.
    parts.social.clock = time.time
    assert ann.post("/api/account/friends/remove", {"name": "Bob"}).json() == {"friends": []}
    assert friends_of(bob) == {"Ann": None}


def test_friends_requests_with_a_wrong_name_no_session_or_no_csrf_change_nothing(client: TestClient) -> None:
    ann, bob = people(client, "Ann", "Bob")
    unknown = ann.post("/api/account/friends/add", {"name": "Nobody"})
    assert unknown.status_code == 404 and unknown.json() == {"detail": NO_PLAYER}
    assert ann.post("/api/account/friends/add", {"name": "ANN"}).status_code == 400  # oneself
    forged = ann.post("/api/account/friends/add", {"name": "Bob"}, csrf="forged")
    assert forged.status_code == 403
    stranger = Browser(client, "198.51.100.9")
    assert stranger.get("/api/account/friends").status_code == 401
    assert stranger.post("/api/account/friends/add", {"name": "Bob"}).status_code == 401
    assert friends_of(ann) == {}
    # A deleted account's name is nobody's.
    bob.post("/api/account/delete", {"password": PASSWORD})
    assert ann.post("/api/account/friends/add", {"name": "Bob"}).json() == {"detail": NO_PLAYER}


def test_a_block_ends_the_friendship_both_ways_and_is_never_shown_to_the_blocked(client: TestClient) -> None:
    ann, bob, cyd = people(client, "Ann", "Bob", "Cyd")
    for one, other in (("Ann", "Bob"), ("Bob", "Ann"), ("Ann", "Cyd"), ("Cyd", "Ann")):
        {"Ann": ann, "Bob": bob, "Cyd": cyd}[one].post("/api/account/friends/add", {"name": other})
    assert friends_of(ann) == {"Bob": True, "Cyd": True}
    blocked = bob.post("/api/account/blocks/add", {"name": "Ann"})
    assert blocked.status_code == 200 and blocked.json() == {"blocks": ["Ann"]}
    # Ann still lists Bob, with no presence: exactly as Cyd shows once Cyd merely unlists her.
    cyd.post("/api/account/friends/remove", {"name": "Ann"})
    assert friends_of(ann) == {"Bob": None, "Cyd": None} and friends_of(bob) == {}
    ann.post("/api/account/friends/remove", {"name": "Bob"})
    ann.post("/api/account/friends/remove", {"name": "Cyd"})
    # Ann adds Bob again: answered as adding Cyd (who blocks nobody) is, and shown alike.
    again = ann.post("/api/account/friends/add", {"name": "Bob"})
    other = ann.post("/api/account/friends/add", {"name": "Cyd"})
    assert again.status_code == other.status_code == 200
    assert friends_of(ann) == {"Bob": None, "Cyd": None}
    # Ann's lists say nothing of Bob's block; Bob cannot list Ann while he blocks her.
    assert ann.get("/api/account/blocks").json() == {"blocks": []}
    assert bob.post("/api/account/friends/add", {"name": "Ann"}).status_code == 409
    # Unblocked, and listed both ways again: each sees the other's presence.
    assert bob.post("/api/account/blocks/remove", {"name": "Ann"}).json() == {"blocks": []}
    bob.post("/api/account/friends/add", {"name": "Ann"})
    assert friends_of(ann)["Bob"] is True and friends_of(bob) == {"Ann": True}
    assert bob.post("/api/account/blocks/add", {"name": "Nobody"}).status_code == 404
    assert bob.post("/api/account/blocks/add", {"name": "Ann"}, csrf=False).status_code == 403
    assert bob.get("/api/account/blocks").json() == {"blocks": []}


def test_an_invitation_by_name_is_seen_and_taken_by_its_addressee_only(client: TestClient) -> None:
    ann, bob, cyd = people(client, "Ann", "Bob", "Cyd")
    made = table_with(ann, "bob")
    assert made.status_code == 200, made.text
    data = made.json()
    assert invites_of(cyd) == [] and invites_of(ann) == []
    (invite,) = invites_of(bob)
    assert (invite["table"], invite["seat"], invite["by"], invite["deck"], invite["players"]) == (
        data["table"], 1, "Ann", "base", 3,
    )  # fmt: skip
    assert [s["kind"] for s in invite["seats"]] == ["person", "person", "bot"]
    which = {"table": data["table"], "seat": 1}
    # Cyd cannot take or decline it (told as for no invitation at all), nor can Bob without the CSRF token.
    for path in ("/api/account/invites/take", "/api/account/invites/decline"):
        assert cyd.post(path, which).status_code == 404
    assert bob.post("/api/account/invites/take", which, csrf="forged").status_code == 403
    assert [x["token"] for x in cyd.get("/api/account/links").json()["links"]] == []
    taken = bob.post("/api/account/invites/take", which)
    assert taken.status_code == 200, taken.text
    assert taken.json()["token"] == data["seats"][1]["token"]
    assert [x["token"] for x in bob.get("/api/account/links").json()["links"]] == [data["seats"][1]["token"]]
    assert invites_of(bob) == []
    assert bob.post("/api/account/invites/take", which).status_code == 404
    # Declined: gone, and gone for good.
    second = table_with(ann, "Bob").json()
    which = {"table": second["table"], "seat": 1}
    assert bob.post("/api/account/invites/decline", which).status_code == 204
    assert invites_of(bob) == []
    assert bob.post("/api/account/invites/take", which).status_code == 404


def test_an_invitation_goes_when_somebody_opens_the_seats_link(client: TestClient) -> None:
    ann, bob = people(client, "Ann", "Bob")
    data = table_with(ann, "Bob").json()
    assert len(invites_of(bob)) == 1
    with client.websocket_connect("/ws") as ws:  # the host sent the link by other means
        Seat(ws).join(data["seats"][1]["token"])
    assert invites_of(bob) == []
    which = {"table": data["table"], "seat": 1}
    assert bob.post("/api/account/invites/take", which).status_code == 404


def test_a_wrong_name_or_no_session_makes_no_table(client: TestClient) -> None:
    ann, bob = people(client, "Ann", "Bob")
    before = tables_stored(client)
    unknown = table_with(ann, "Bob", "Nobody", players=4)
    assert unknown.status_code == 404 and unknown.json()["detail"] == f"{NO_PLAYER}: Nobody"
    twice = table_with(ann, "Bob", "bob", players=4)
    assert twice.status_code == 400
    assert table_with(ann, "Ann").status_code == 400  # oneself
    guest = Browser(client, "198.51.100.9")
    assert table_with(guest, "Bob").status_code == 401
    opened = ann.post(
        "/api/tables",
        {"players": 2, "deck": "base", "open": True, "turn_seconds": 60,
         "seats": [{"kind": "person"}, {"kind": "person", "invite": "Bob"}]},
    )  # fmt: skip
    assert opened.status_code == 400
    on_a_bot = ann.post(
        "/api/tables",
        {"players": 2, "deck": "base", "seats": [{"kind": "person"}, {"kind": "bot", "invite": "Bob"}]},
    )
    assert on_a_bot.status_code == 400
    assert tables_stored(client) == before and invites_of(bob) == []


def test_a_block_keeps_the_blocked_ones_invitations_away_and_the_inviter_is_not_told(
    client: TestClient,
) -> None:
    ann, bob, cyd = people(client, "Ann", "Bob", "Cyd")
    earlier = table_with(ann, "Bob").json()
    assert len(invites_of(bob)) == 1
    bob.post("/api/account/blocks/add", {"name": "Ann"})
    assert invites_of(bob) == []  # the one made before the block went with it
    to_bob = table_with(ann, "Bob")
    to_cyd = table_with(ann, "Cyd")
    assert to_bob.status_code == to_cyd.status_code == 200
    assert to_bob.json().keys() == to_cyd.json().keys()
    assert invites_of(bob) == [] and len(invites_of(cyd)) == 1
    which = {"table": to_bob.json()["table"], "seat": 1}
    assert bob.post("/api/account/invites/take", which).status_code == 404
    # The seat keeps its ordinary link, which the host can still send.
    assert to_bob.json()["seats"][1]["token"] and earlier["seats"][1]["token"]
    # Unblocked: neither the invitation dropped by the block nor the one made during it comes back.
    bob.post("/api/account/blocks/remove", {"name": "Ann"})
    assert invites_of(bob) == []
    assert [x["table"] for x in invites_of(cyd)] == [to_cyd.json()["table"]]


def test_chat_from_a_blocked_account_does_not_reach_the_blockers_seat(client: TestClient) -> None:
    ann, bob, cyd = people(client, "Ann", "Bob", "Cyd")
    seats = [{"kind": "person", "name": n} for n in ("Ann", "Bob", "Cyd")]
    data = ann.post("/api/tables", {"players": 3, "deck": "base", "seats": seats}).json()
    tokens = [s["token"] for s in data["seats"]]
    for b, token in zip((ann, bob, cyd), tokens, strict=True):
        assert b.post("/api/account/links", {"tokens": [token]}).json() == {"kept": 1, "refused": []}
    with client.websocket_connect("/ws") as wa, client.websocket_connect("/ws") as wb:
        a, b = Seat(wa), Seat(wb)
        a.join(tokens[0])
        b.join(tokens[1])
        a.send({"type": "chat", "text": "before the block"})
        b.until(lambda m: m["type"] == "chat")
    bob.post("/api/account/blocks/add", {"name": "Ann"})
    with (
        client.websocket_connect("/ws") as wa,
        client.websocket_connect("/ws") as wb,
        client.websocket_connect("/ws") as wc,
    ):
        a, b, c = Seat(wa), Seat(wb), Seat(wc)
        a.join(tokens[0])
        b.join(tokens[1])
        c.join(tokens[2])

        def said(s: Seat) -> list[str]:
            return [line["text"] for line in s.until(lambda m: m["type"] == "chat_state")["lines"]]

        # Bob's page is not shown the line Ann said before; the others' are.
        assert said(b) == [] and said(c) == ["before the block"]
        a.send({"type": "chat", "text": "hello"})
        assert c.until(lambda m: m["type"] == "chat")["line"]["text"] == "hello"
        b.send({"type": "chat", "text": "hi"})
        got = b.until(lambda m: m["type"] == "chat")["line"]
        assert got["text"] == "hi"  # Ann's line, said first, never came to Bob
        # Bob still speaks to Ann: a block is one way, and Ann is not told of it.
        texts = [a.until(lambda m: m["type"] == "chat")["line"]["text"] for _ in range(2)]
        assert texts == ["hello", "hi"]
    with client.websocket_connect("/ws") as wb:
        b = Seat(wb)
        b.join(tokens[1])
        lines = b.until(lambda m: m["type"] == "chat_state")["lines"]
        assert [line["text"] for line in lines] == ["hi"]
    # Unblocked: what Ann said during the block stays unsaid to Bob; what she says now reaches him.
    bob.post("/api/account/blocks/remove", {"name": "Ann"})
    with client.websocket_connect("/ws") as wa, client.websocket_connect("/ws") as wb:
        a, b = Seat(wa), Seat(wb)
        a.join(tokens[0])
        b.join(tokens[1])
        lines = b.until(lambda m: m["type"] == "chat_state")["lines"]
        assert [line["text"] for line in lines] == ["before the block", "hi"]
        a.send({"type": "chat", "text": "friends again"})
        assert b.until(lambda m: m["type"] == "chat")["line"]["text"] == "friends again"


def test_an_erased_account_leaves_no_friend_block_or_invitation(client: TestClient) -> None:
    ann, bob, cyd = people(client, "Ann", "Bob", "Cyd")
    ann.post("/api/account/friends/add", {"name": "Bob"})
    bob.post("/api/account/friends/add", {"name": "Ann"})
    cyd.post("/api/account/blocks/add", {"name": "Ann"})
    table_with(ann, "Bob")
    ann_id = client.portal.call(  # type: ignore[union-attr]
        client.app.app.state.registry.store.run_statements,  # type: ignore[attr-defined]
        [("SELECT id FROM accounts WHERE name = 'Ann'", ())],
    )[0][0]
    assert ann.post("/api/account/delete", {"password": PASSWORD}).status_code == 204
    assert friends_of(bob) == {} and invites_of(bob) == []
    assert cyd.get("/api/account/blocks").json() == {"blocks": []}
    store = client.app.app.state.registry.store  # type: ignore[attr-defined]
    for table, columns in (
        ("friends", ("account_id", "friend_id")),
        ("blocks", ("account_id", "blocked_id")),
        ("invites", ("from_account", "to_account")),
    ):
        where = " OR ".join(f"{c} = ?" for c in columns)
        rows = client.portal.call(  # type: ignore[union-attr]
            store.run_statements, [(f"SELECT COUNT(*) FROM {table} WHERE {where}", (ann_id,) * len(columns))]
        )
        assert rows[0][0] == 0, table


def test_an_accounts_visit_is_noted_by_its_socket_and_written_at_most_once_a_minute(
    client: TestClient,
) -> None:
    (ann,) = people(client, "Ann")
    parts = client.app.app.state.parts  # type: ignore[attr-defined]
    store = client.app.app.state.registry.store  # type: ignore[attr-defined]

    def last_seen() -> float | None:
        rows = client.portal.call(  # type: ignore[union-attr]
            store.run_statements, [("SELECT last_seen FROM accounts WHERE name = 'Ann'", ())]
        )
        seen: float | None = rows[0][0]
        return seen

    def forget() -> None:
        client.portal.call(store.run_statements, [("UPDATE accounts SET last_seen = NULL", ())])  # type: ignore[union-attr]

    data = table_with(ann, players=2).json()
    forget()
    parts.accounts._seen.clear()  # as in a process that has not written it yet
    client.cookies = ann.jar  # the page's socket carries the session cookie
    with client.websocket_connect("/ws") as ws:
        Seat(ws).join(data["seats"][0]["token"])
    assert last_seen() is not None
    # Within the minute, further requests write nothing; a minute on, the next one does.
    forget()
    ann.get("/api/account/friends")
    assert last_seen() is None
    start = time.time()
    parts.accounts.clock = lambda: start + 61
    ann.get("/api/account/friends")
    assert last_seen() == start + 61


def test_the_host_link_offers_a_seat_nobody_took_by_name(client: TestClient) -> None:
    ann, bob, cyd = people(client, "Ann", "Bob", "Cyd")
    seats = [{"kind": "person"}, {"kind": "person"}, {"kind": "bot", "bot": "random"}]
    data = ann.post("/api/tables", {"players": 3, "deck": "base", "seats": seats}).json()
    send = {"host": data["host"], "seat": 1, "name": "Bob"}
    assert ann.post("/api/account/invites/send", send).status_code == 204
    assert [(x["table"], x["seat"], x["by"]) for x in invites_of(bob)] == [(data["table"], 1, "Ann")]
    # Offered again, to Cyd: the seat is Cyd's to take, no longer Bob's.
    assert ann.post("/api/account/invites/send", {**send, "name": "Cyd"}).status_code == 204
    assert invites_of(bob) == [] and len(invites_of(cyd)) == 1
    # Only the host link offers a seat; a seat's own link does not, nor does a forged request.
    as_a_seat = cyd.post("/api/account/invites/send", {**send, "host": data["seats"][1]["token"]})
    assert as_a_seat.status_code == 404
    assert ann.post("/api/account/invites/send", send, csrf="forged").status_code == 403
    assert Browser(client, "198.51.100.9").post("/api/account/invites/send", send).status_code == 401
    assert ann.post("/api/account/invites/send", {**send, "name": "Nobody"}).status_code == 404
    assert ann.post("/api/account/invites/send", {**send, "seat": 2}).status_code == 400  # a bot's
    assert len(invites_of(cyd)) == 1 and invites_of(bob) == []
    # Bob blocks Ann: offered to Bob, answered alike, and nothing reaches him (Cyd's offer went).
    bob.post("/api/account/blocks/add", {"name": "Ann"})
    assert ann.post("/api/account/invites/send", send).status_code == 204
    assert invites_of(bob) == [] and invites_of(cyd) == []
    with client.websocket_connect("/ws") as ws:
        Seat(ws).join(data["seats"][1]["token"])
    taken = ann.post("/api/account/invites/send", {**send, "name": "Cyd"})
    assert taken.status_code == 409 and invites_of(cyd) == []


def test_a_full_friends_list_or_block_list_takes_no_more_names(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("oriflamme.web.friends.MAX_FRIENDS", 1)
    monkeypatch.setattr("oriflamme.web.friends.MAX_BLOCKS", 1)
    ann, _bob, _cyd = people(client, "Ann", "Bob", "Cyd")
    ann.post("/api/account/friends/add", {"name": "Bob"})
    full = ann.post("/api/account/friends/add", {"name": "Cyd"})
    assert full.status_code == 409 and "at most 1" in full.json()["detail"]
    assert ann.post("/api/account/friends/add", {"name": "Bob"}).status_code == 200  # listed already
    assert friends_of(ann) == {"Bob": None}
    ann.post("/api/account/blocks/add", {"name": "Cyd"})
    assert ann.post("/api/account/blocks/add", {"name": "Bob"}).status_code == 409
    assert ann.post("/api/account/blocks/add", {"name": "Cyd"}).status_code == 200  # blocked already
    assert ann.get("/api/account/blocks").json() == {"blocks": ["Cyd"]} and friends_of(ann) == {"Bob": None}


def test_the_export_lists_friends_blocks_invitations_and_known_browsers(client: TestClient) -> None:
    ann, bob, _cyd = people(client, "Ann", "Bob", "Cyd")
    ann.post("/api/account/friends/add", {"name": "Bob"})
    ann.post("/api/account/blocks/add", {"name": "Cyd"})
    made = table_with(ann, "Bob").json()
    data = ann.get("/api/account/export").json()
    assert [f["name"] for f in data["friends"]] == ["Bob"]
    assert [b["name"] for b in data["blocks"]] == ["Cyd"]
    assert [(i["table"], i["seat"], i["to"]) for i in data["invitations_sent"]] == [(made["table"], 1, "Bob")]
    assert data["invitations_received"] == [] and len(data["known_browsers"]) == 1
    received = bob.get("/api/account/export").json()["invitations_received"]
    assert [(i["table"], i["by"]) for i in received] == [(made["table"], "Ann")]


def test_one_player_cannot_bury_anothers_invitations_under_theirs(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past a few invitations waiting from one sender, more are not made (the sender is answered
    as ever): the invitee's list keeps room for everybody else's."""
    monkeypatch.setattr("oriflamme.web.friends.MAX_INVITES_FROM_ONE", 2)
    ann, bob, cyd = people(client, "Ann", "Bob", "Cyd")
    assert [table_with(ann, "Bob").status_code for _ in range(3)] == [200, 200, 200]
    assert [i["by"] for i in invites_of(bob)] == ["Ann", "Ann"]
    assert table_with(cyd, "Bob").status_code == 200
    assert sorted(i["by"] for i in invites_of(bob)) == ["Ann", "Ann", "Cyd"]
