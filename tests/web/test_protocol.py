"""The web server's protocol, through the framework's test client (no network, no browser).

Each test drives real WebSocket sessions against the ASGI app: joining with
an invite token, acting, and every way a client message can be wrong. The
server must answer a bad message with an error to that client only and leave
the game unchanged.
"""

from __future__ import annotations

import json
import random
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from support.web import Seat, leaks, replay_states
from typer.testing import CliRunner

from oriflamme.bots import registry as bot_registry
from oriflamme.bots.random_bot import RandomBot
from oriflamme.cli.app import app as cli_app
from oriflamme.engine.cards import SLUGS
from oriflamme.engine.view import SeatView
from oriflamme.notation import savefile
from oriflamme.web.app import create_app
from oriflamme.web.bot_runners import ExecutorBotRunner, InlineBotRunner
from oriflamme.web.live_table import LiveTable
from oriflamme.web.tables import TableRegistry

PEOPLE_3 = [{"kind": "person", "name": n} for n in ("Ann", "Bob", "Cyd")]


def make_client(db: str | Path | None = None, bot_delay: float = 0.0) -> TestClient:
    return TestClient(create_app(db, bot_runner=InlineBotRunner(), bot_delay=bot_delay))


@pytest.fixture
def client() -> Iterator[TestClient]:
    with make_client() as c:
        yield c


def create(client: TestClient, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    body = {"players": len(seats), "deck": "base", "seed": 11, "seats": seats, **extra}
    r = client.post("/api/tables", json=body)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def registry(client: TestClient) -> TableRegistry:
    reg: TableRegistry = client.app.state.registry  # type: ignore[attr-defined]
    return reg


def live(client: TestClient, table_id: str) -> LiveTable:
    """The live table, loaded again from the store if the server let it go (a finished game nobody watches)."""
    table = client.portal.call(registry(client).get, table_id)  # type: ignore[union-attr]
    assert table is not None
    return table


def play_out(seats: list[Seat], rng: random.Random, limit: int = 10_000) -> dict[str, Any]:
    """Every connection follows every state; whoever must decide picks a random legal action."""
    state = max(s.last_state["state"] for s in seats if s.last_state)
    for _ in range(limit):
        msgs = [s.state_at_least(state) for s in seats]
        msg = msgs[0]
        if msg["result"] is not None:
            return msg
        actor = next((s for s, m in zip(seats, msgs, strict=True) if m["legal"]), None)
        assert actor is not None, "nobody may act in an unfinished game"
        actor.act(rng.choice(actor.last_state["legal"]))  # type: ignore[index]
        state += 1
    raise AssertionError("the game did not end")


def test_creating_a_table_gives_each_person_an_unguessable_invite_link(client: TestClient) -> None:
    """Every person seat, the spectators and the host get distinct random tokens; bots get none."""
    data = create(client, [PEOPLE_3[0], {"kind": "bot", "bot": "random"}, PEOPLE_3[1]])
    tokens = [s["token"] for s in data["seats"] if s["token"]]
    assert len(tokens) == 2 and data["seats"][1]["token"] is None
    everything = tokens + [data["spectator"], data["host"]]
    assert len(set(everything)) == 4
    assert all(len(t) >= 22 for t in everything)


def test_a_seat_joins_and_sees_its_own_hand_only(client: TestClient) -> None:
    """The first state shows the seat's 7 cards; opponents' hands are counts."""
    data = create(client, PEOPLE_3)
    with client.websocket_connect("/ws") as ws:
        seat = Seat(ws)
        state = seat.join(data["seats"][1]["token"])
        view = state["view"]
        assert state["seat"] == 1 and state["state"] == 0
        assert len(view["hand"]) == 7 and all(c["kind"] for c in view["hand"])
        assert view["hand_counts"] == [7, 7, 7]
        assert state["log"][0][0]["type"] == "round_started"


def test_an_action_is_stored_and_broadcast_to_every_seat_and_spectator(client: TestClient) -> None:
    """The player to move places a card; all connections get state 1, each its own view."""
    data = create(client, PEOPLE_3)
    with (
        client.websocket_connect("/ws") as w0,
        client.websocket_connect("/ws") as w1,
        client.websocket_connect("/ws") as w2,
        client.websocket_connect("/ws") as wspec,
    ):
        seats = [Seat(w) for w in (w0, w1, w2)]
        first = [s.join(data["seats"][i]["token"]) for i, s in enumerate(seats)]
        spectator = Seat(wspec)
        spectator.join(data["spectator"])
        mover = first[0]["view"]["to_move"]
        choice = first[mover]["legal"][0]
        seats[mover].act(choice)
        after = [s.state_at_least(1) for s in seats] + [spectator.state_at_least(1)]
        assert {m["state"] for m in after} == {1}
        placed = [e for e in after[(mover + 1) % 3]["events"] if e["type"] == "placed"]
        assert placed == [
            {
                "type": "placed", "seat": mover, "pos": 0, "owner": mover, "card": None, "stacked": False,
                "say": {
                    "key": "event.placed.first.hidden",
                    "args": {"name": {"card": None}, "pos": 1, "player": {"seat": mover}, "owner": {"seat": mover}},
                },
            }
        ]  # fmt: skip
        assert after[mover]["events"][0]["card"] == choice.split()[1]
        assert after[3]["view"]["queue"][0][0]["kind"] is None
        table = live(client, data["table"])
        assert table.actions == [choice]


def test_an_action_made_against_a_stale_state_is_refused(client: TestClient) -> None:
    """State numbers: an act carrying an old state number changes nothing."""
    data = create(client, PEOPLE_3, first_player=0)
    with client.websocket_connect("/ws") as w0, client.websocket_connect("/ws") as w1:
        p1, p2 = Seat(w0), Seat(w1)
        p1.join(data["seats"][0]["token"])
        p2.join(data["seats"][1]["token"])
        p1.act(p1.last_state["legal"][0])  # type: ignore[index]
        p2.state_at_least(1)
        p2.act(p2.last_state["legal"][0], state=0)  # type: ignore[index]
        err = p2.expect_error("stale")
        assert err["state"] == 1
        assert live(client, data["table"]).state == 1


def test_acting_out_of_turn_or_illegally_is_refused(client: TestClient) -> None:
    """Only the deciding seat may act, and only with a legal action text."""
    data = create(client, PEOPLE_3, first_player=0)
    with client.websocket_connect("/ws") as w0, client.websocket_connect("/ws") as w1:
        p1, p2 = Seat(w0), Seat(w1)
        p1.join(data["seats"][0]["token"])
        p2.join(data["seats"][1]["token"])
        p2.act("place soldier first")
        p2.expect_error("not_your_turn")
        p1.act("place soldier on 3")
        assert "not legal now" in p1.expect_error("illegal")["message"]
        p1.act("fly away")
        assert "cannot read" in p1.expect_error("illegal")["message"]
        p1.act("reveal")
        p1.expect_error("illegal")
        assert live(client, data["table"]).state == 0


def test_a_forged_token_or_no_token_opens_nothing(client: TestClient) -> None:
    """Unknown tokens are refused; acting before joining is unauthenticated; spectators cannot act."""
    data = create(client, PEOPLE_3)
    with client.websocket_connect("/ws") as ws:
        s = Seat(ws)
        s.send({"type": "act", "state": 0, "action": "place soldier first"})
        s.expect_error("unauthenticated")
        real = data["seats"][0]["token"]
        s.send({"type": "join", "token": real[:-1] + ("x" if real[-1] != "x" else "y")})  # one letter off
        s.expect_error("bad_token")
        s.join(data["spectator"])
        s.act("place soldier first")
        s.expect_error("not_a_player")
        s.send({"type": "join", "token": data["seats"][0]["token"]})
        s.expect_error("already_joined")
    assert live(client, data["table"]).state == 0


@pytest.mark.parametrize(
    "frame",
    [
        "not json",
        "[1, 2]",
        "null",
        '{"type": "act"}',
        '{"type": "act", "state": "0", "action": "keep"}',
        '{"type": "act", "state": true, "action": "keep"}',
        '{"type": "act", "state": -1, "action": "keep"}',
        '{"type": "act", "state": NaN, "action": "keep"}',
        '{"type": "act", "state": 0, "action": "keep", "extra": 1}',
        '{"type": "act", "state": 0, "action": ["keep"]}',
        '{"type": "act", "state": 0, "action": "' + "x" * 500 + '"}',
        '{"type": "fly"}',
        '{"type": "name"}',
        '{"type": "name", "name": 7}',
        '{"type": "name", "name": ["Ann"]}',
        '{"type": "name", "name": "Ann", "seat": 2}',
        '{"type": "chat"}',
        '{"type": "chat", "text": ""}',
        '{"type": "chat", "text": 5}',
        '{"type": "chat", "text": "' + "x" * 1001 + '"}',
        '{"type": "chat_mod", "seat": 9}',
        '{"type": "chat_mod", "mute": "yes"}',
        '{"type": "join", "token": ""}',
        '{"type": "join", "token": 12}',
        "{}",
        "[" * 1000 + "]" * 1000,
        b"\x00\xff binary",
    ],
)
def test_malformed_messages_get_an_error_and_change_nothing(client: TestClient, frame: str | bytes) -> None:
    """Bad JSON, wrong shapes, wrong types, unknown types, binary frames: error, then business as usual."""
    data = create(client, PEOPLE_3, first_player=0)
    with client.websocket_connect("/ws") as ws:
        s = Seat(ws)
        s.join(data["seats"][0]["token"])
        s.send(frame)
        s.expect_error("malformed")
        s.act(s.last_state["legal"][0])  # type: ignore[index]
        assert s.state_at_least(1)["state"] == 1
    assert [seat.name for seat in live(client, data["table"]).record.seats] == ["Ann", "Bob", "Cyd"]


@pytest.mark.parametrize("size", [2049, 100_000])
def test_oversized_messages_are_refused(client: TestClient, size: int) -> None:
    """Frames over 2 KiB are refused unread, and the connection goes on."""
    data = create(client, PEOPLE_3, first_player=0)
    with client.websocket_connect("/ws") as ws:
        s = Seat(ws)
        s.join(data["seats"][0]["token"])
        s.send(json.dumps({"type": "act", "state": 0, "action": "k" * size}))
        s.expect_error("too_large")
        assert live(client, data["table"]).state == 0


def test_no_frame_tells_a_seat_or_a_spectator_of_a_card_hidden_from_it(client: TestClient) -> None:
    """A whole game among three people and a spectator: every frame is scanned against the replayed game."""
    data = create(client, PEOPLE_3)
    with (
        client.websocket_connect("/ws") as w0,
        client.websocket_connect("/ws") as w1,
        client.websocket_connect("/ws") as w2,
        client.websocket_connect("/ws") as wspec,
    ):
        seats = [Seat(w) for w in (w0, w1, w2)]
        for i, s in enumerate(seats):
            s.join(data["seats"][i]["token"])
        spectator = Seat(wspec)
        spectator.join(data["spectator"])
        final = play_out(seats, random.Random(3))
        spectator.state_at_least(final["state"])
    table = live(client, data["table"])
    assert table.game.is_over() and final["result"]["winners"] == list(table.game.winners)
    outcome = table.game.outcome()
    assert final["result"]["order"] == list(outcome.order)
    assert final["result"]["leaders"] == list(outcome.leaders)
    assert final["result"]["decided_by"] == outcome.decided_by
    assert [dict(map(tuple, seat)) for seat in final["result"]["ledger"]] == [dict(s) for s in outcome.ledger]
    states = replay_states(table.record, table.actions)
    for i, s in enumerate(seats):
        assert leaks(s.frames, i, states) == []
        assert all("state" in json.loads(f) for f in s.frames)  # every message carries the state number
    assert leaks(spectator.frames, None, states) == []
    # The check has teeth: a frame doctored to show p2's first hand card to p1 is caught.
    doctored = json.loads(seats[0].frames[1])
    doctored["view"]["hand"].append(json.loads(seats[1].frames[1])["view"]["hand"][0])
    assert leaks([json.dumps(doctored)], 0, states)
    # The spectator never saw a card in anybody's hand.
    for text in spectator.frames:
        msg = json.loads(text)
        if msg["type"] == "state":
            assert msg["view"]["hand"] == [] and msg["view"]["aside"] == []


def test_a_person_plays_a_whole_game_against_bots(client: TestClient) -> None:
    """One person, two random bots: the bots answer every move until the result arrives."""
    data = create(client, [PEOPLE_3[0], {"kind": "bot", "bot": "random"}, {"kind": "bot"}])
    with client.websocket_connect("/ws") as ws:
        me = Seat(ws)
        msg = me.join(data["seats"][0]["token"])
        rng = random.Random(5)
        moves = 0
        while msg["result"] is None:
            if msg["legal"]:
                me.act(rng.choice(msg["legal"]))
                moves += 1
            msg = me.until(lambda m: m["type"] == "state" and (m["legal"] or m["result"] is not None))
        final = msg
    assert moves >= 12  # at least the six placements and a keep-or-reveal per card
    assert final["result"]["decided_by"] in ("score", "positions", "shared")
    # Finished and unwatched, the game leaves memory; the store brings it back whole.
    assert data["table"] not in registry(client).tables
    assert live(client, data["table"]).finished


def test_a_thinking_bot_does_not_block_other_tables(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bot that thinks until the test lets it go, at one table; another table answers its person meanwhile."""
    thinking, release = threading.Event(), threading.Event()

    class SlowBot(RandomBot):
        def choose(self, view: SeatView) -> int:
            thinking.set()
            assert release.wait(30)
            return super().choose(view)

    monkeypatch.setitem(bot_registry.BOT_KINDS, "slow", (lambda level, seed: SlowBot(seed), (), None))
    slow = create(
        client,
        [{"kind": "bot", "bot": "slow"}, {"kind": "bot", "bot": "slow"}, {"kind": "bot", "bot": "slow"}],
    )
    data = create(client, PEOPLE_3, first_player=0)
    # A search bot thinks while somebody watches its table.
    with client.websocket_connect("/ws") as watching, client.websocket_connect("/ws") as ws:
        Seat(watching).join(slow["spectator"])
        try:
            assert thinking.wait(10)
            s = Seat(ws)
            s.join(data["seats"][0]["token"])
            s.act(s.last_state["legal"][0])  # type: ignore[index]
            assert s.state_at_least(1)["state"] == 1
            # Answered while the other table's bot is still thinking (it cannot end before release).
            assert live(client, slow["table"]).state == 0 and not release.is_set()
        finally:
            release.set()


def test_a_restarted_server_resumes_every_game_where_it_was(tmp_path: Path) -> None:
    """Games are setup + actions in SQLite: after a restart the same seat sees the same state, and bots go on."""
    db = tmp_path / "games.sqlite3"
    with make_client(db, bot_delay=30.0) as c:
        data = create(c, [PEOPLE_3[0], {"kind": "bot", "bot": "random"}, PEOPLE_3[1]], first_player=0)
        with c.websocket_connect("/ws") as ws:
            me = Seat(ws)
            me.join(data["seats"][0]["token"])
            me.act("place soldier first")
            before = me.state_at_least(1)
    # The bot (seat 2) was still waiting out its delay when the server stopped.
    assert before["view"]["to_move"] == 1
    with make_client(db) as c, c.websocket_connect("/ws") as ws:
        me = Seat(ws)
        joined = me.join(data["seats"][0]["token"])
        assert [e["type"] for e in joined["log"][1]] == ["placed"]
        # The bot moves when the server starts: before or just after this seat joins.
        resumed = me.state_at_least(2)
        assert resumed["state"] == 2
        assert [s[0]["kind"] for s in resumed["view"]["queue"]].count("soldier") == 1
        assert resumed["view"]["to_move"] == 2


def test_the_lobby_lists_a_persons_tables_and_open_seats(client: TestClient) -> None:
    """The host token shows every invite link; a seat token shows the table; unknown tokens are skipped."""
    data = create(client, [PEOPLE_3[0], {"kind": "bot", "bot": "random"}, PEOPLE_3[1]])
    with client.websocket_connect("/ws") as ws:
        Seat(ws).join(data["seats"][0]["token"])
        r = client.post("/api/lobby", json={"tokens": [data["host"], data["seats"][2]["token"], "nope"]})
    tables = r.json()["tables"]
    assert [t["role"] for t in tables] == ["host", "person"]
    host = tables[0]
    assert [s["joined"] for s in host["seats"]] == [True, True, False]
    assert host["seats"][2]["token"] == data["seats"][2]["token"]
    assert "token" not in tables[1]["seats"][0]


def test_the_lobby_gives_the_tables_own_number_of_rounds(client: TestClient) -> None:
    """A table played over 4 rounds says so (the lobby shows "Round 1/4", not a fixed 6)."""
    data = create(client, PEOPLE_3, rules={"rounds": 4})
    tables = client.post("/api/lobby", json={"tokens": [data["host"]]}).json()["tables"]
    assert (tables[0]["round"], tables[0]["rounds"]) == (1, 4)


def test_a_finished_game_can_be_replayed_step_by_step(client: TestClient) -> None:
    """The replay has one step per state; a spectator's replay shows no hand."""
    data = create(client, [{"kind": "bot", "bot": "random"}] * 3)
    table = live(client, data["table"])
    deadline = time.monotonic() + 20
    while not table.finished and time.monotonic() < deadline:
        time.sleep(0.02)
    assert client.get(f"/api/replay/{data['spectator']}").status_code == 200
    doc = client.get(f"/api/replay/{data['spectator']}").json()
    assert len(doc["steps"]) == table.state + 1
    assert doc["steps"][-1]["result"]["winners"] == list(table.game.winners)
    assert all(step["view"]["hand"] == [] for step in doc["steps"])
    assert client.get("/api/replay/unknown").status_code == 404


def _finished_bot_table(client: TestClient, players: int = 3) -> tuple[dict[str, Any], LiveTable]:
    data = create(client, [{"kind": "bot", "bot": "random"}] * players)
    table = live(client, data["table"])
    deadline = time.monotonic() + 20
    while not table.finished and time.monotonic() < deadline:
        time.sleep(0.02)
    assert table.finished
    return data, table


def _kinds(piles: list[list[dict[str, Any]]]) -> list[list[tuple[int, str]]]:
    return [[(c["owner"], c["kind"]) for c in pile] for pile in piles]


def test_the_end_of_a_game_reveals_every_card_and_only_then(client: TestClient) -> None:
    """The last state names every face-down card in the queue, every hand and every set-aside card;
    no state before it carries a reveal (the leak check counts one as a leak)."""
    data = create(client, PEOPLE_3, first_player=0)
    with (
        client.websocket_connect("/ws") as w0,
        client.websocket_connect("/ws") as w1,
        client.websocket_connect("/ws") as w2,
    ):
        seats = [Seat(w) for w in (w0, w1, w2)]
        for i, s in enumerate(seats):
            s.join(data["seats"][i]["token"])
        final = play_out(seats, random.Random(11))
    g = live(client, data["table"]).game
    reveal = final["reveal"]
    assert reveal is not None
    assert _kinds(reveal["hands"]) == [[(g.owner[c], SLUGS[g.kind[c]]) for c in h] for h in g.hands]
    assert _kinds(reveal["aside"]) == [[(g.owner[c], SLUGS[g.kind[c]]) for c in a] for a in g.aside]
    assert sum(len(a) for a in reveal["aside"]) > 0  # every seat set cards aside at the deal
    queue = [[(g.owner[c], SLUGS[g.kind[c]]) for c in g.stack_cards(i)] for i in range(len(g.queue))]
    assert _kinds(reveal["queue"]) == queue
    # Face-down cards stay marked as never revealed, but are named.
    down = [c for stack in reveal["queue"] for c in stack if not c["up"]]
    assert all(c["kind"] is not None for c in down)
    assert [c["up"] for stack in reveal["queue"] for c in stack] == [
        c["up"] for stack in final["view"]["queue"] for c in stack
    ]
    states = replay_states(live(client, data["table"]).record, live(client, data["table"]).actions)
    for i, s in enumerate(seats):
        earlier = [json.loads(f) for f in s.frames if json.loads(f).get("type") == "state"][:-1]
        assert earlier and all(m["reveal"] is None for m in earlier)
        assert leaks(s.frames, i, states) == []
    # The check has teeth: a reveal in a frame of a game still going on is caught.
    doctored = json.loads(seats[0].frames[1])
    doctored["reveal"] = reveal
    assert leaks([json.dumps(doctored)], 0, states) != []


def test_a_replays_last_step_carries_the_final_reveal(client: TestClient) -> None:
    data, table = _finished_bot_table(client)
    doc = client.get(f"/api/replay/{data['spectator']}").json()
    assert all(step["reveal"] is None for step in doc["steps"][:-1])
    last = doc["steps"][-1]["reveal"]
    g = table.game
    assert _kinds(last["hands"]) == [[(g.owner[c], SLUGS[g.kind[c]]) for c in h] for h in g.hands]


def test_a_finished_game_downloads_as_a_save_file_the_commands_read(
    client: TestClient, tmp_path: Path
) -> None:
    """The save holds the whole game; `oriflamme replay` checks it by replaying, `review` judges it."""
    data = create(
        client,
        [
            {"kind": "person", "name": "Ann"},
            {"kind": "bot", "bot": "random"},
            {"kind": "bot", "bot": "heuristic"},
        ],
        first_player=1,
    )
    table = live(client, data["table"])
    token = data["seats"][0]["token"]
    assert client.get(f"/api/save/{token}").status_code == 409  # not over: the file would tell the deal
    with client.websocket_connect("/ws") as ws:
        seat = Seat(ws)
        msg = seat.join(token)
        rng = random.Random(2)
        while msg["result"] is None:
            if msg["legal"]:
                seat.act(rng.choice(msg["legal"]))
            msg = seat.until(lambda m: m["type"] == "state")
    answer = client.get(f"/api/save/{token}")
    assert answer.status_code == 200
    assert answer.headers["content-disposition"] == f'attachment; filename="oriflamme-{table.record.id}.json"'
    saved = savefile.read(answer.content)
    assert saved.seats == ("you", "random", "heuristic")
    assert saved.game.history == table.game.history and saved.game.score == table.game.score
    assert client.get(f"/api/save/{data['spectator']}").content == answer.content
    path = tmp_path / "game.json"
    path.write_bytes(answer.content)
    review = CliRunner().invoke(cli_app, ["review", str(path), "--level", "10", "--json"])
    assert review.exit_code == 0, review.output
    assert list(json.loads(review.stdout)["seats"]) == ["1"]  # the person's seat
    assert client.get("/api/save/unknown").status_code == 404
    bot_token = table.record.seats[1].token
    assert client.get(f"/api/save/{bot_token}").status_code == 404


def test_a_game_in_progress_has_no_replay_yet(client: TestClient) -> None:
    data = create(client, PEOPLE_3)
    assert client.get(f"/api/replay/{data['spectator']}").status_code == 409


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"players": 6, "seats": PEOPLE_3}, 422),
        ({"players": 4, "seats": PEOPLE_3}, 400),
        ({"players": 3, "deck": "chess", "seats": PEOPLE_3}, 400),
        ({"players": 3, "seats": [PEOPLE_3[0], PEOPLE_3[1], {"kind": "bot", "bot": "genius"}]}, 400),
        ({"players": 3, "seats": [PEOPLE_3[0], PEOPLE_3[1], {"kind": "alien"}]}, 422),
        ({"players": 3, "seats": PEOPLE_3, "rules": {"rounds": 99}}, 400),
        ({"players": 3, "seats": [{**PEOPLE_3[0], "lang": "xx"}, PEOPLE_3[1], PEOPLE_3[2]]}, 400),
    ],
)
def test_bad_table_requests_are_refused_with_a_reason(
    client: TestClient, body: dict[str, Any], status: int
) -> None:
    r = client.post("/api/tables", json=body)
    assert r.status_code == status
    assert r.json()["detail"]


def test_an_oversized_request_body_is_refused(client: TestClient) -> None:
    r = client.post(
        "/api/lobby",
        content=b'{"tokens": ["' + b"a" * 20_000 + b'"]}',
        headers={"content-type": "application/json"},
    )
    assert r.status_code == 413


def test_pages_and_catalogs_are_served(client: TestClient) -> None:
    assert "<html" in client.get("/").text
    assert client.get("/play/whatever").status_code == 200
    assert client.get("/locales/en.json").status_code == 200
    assert client.get("/locales/xx.json").status_code == 404
    bots = {b["kind"]: b for b in client.get("/api/meta").json()["bots"]}
    assert {"random", "heuristic", "ismcts", "net"} <= set(bots)
    assert bots["ismcts"]["levels"] == ["easy", "normal", "hard", "expert"] and bots["net"]["levels"] == []


def test_a_level_that_searches_in_several_processes_is_offered_only_when_the_server_allows(
    client: TestClient,
) -> None:
    """`ismcts:master` takes two cores per move: a shared server seats it only with --parallel-bots."""
    seats = [{"kind": "person"}, {"kind": "bot", "bot": "ismcts:master"}]
    r = client.post("/api/tables", json={"players": 2, "deck": "base", "seed": 3, "seats": seats})
    assert r.status_code == 400
    assert r.json()["detail"] == (
        "seat 2: ismcts:master searches in 2 processes at once; this server offers it only when started "
        "with --parallel-bots"
    )
    assert registry(client).tables == {}
    with TestClient(create_app(bot_runner=InlineBotRunner(), bot_delay=0, parallel_bots=True)) as allowing:
        bots = {b["kind"]: b for b in allowing.get("/api/meta").json()["bots"]}
        assert bots["ismcts"]["levels"] == ["easy", "normal", "hard", "expert", "master"]
        # The person moves first, so the bot does not start thinking in this test.
        data = create(allowing, seats, first_player=0)
        assert live(allowing, data["table"]).record.seats[1].bot == "ismcts:master"


def test_a_kind_that_cannot_be_built_here_is_not_offered(
    monkeypatch: pytest.MonkeyPatch, client: TestClient
) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "numpy" else real(name, *a)
    )
    assert "net" not in {b["kind"] for b in client.get("/api/meta").json()["bots"]}


def test_bots_think_in_worker_processes_by_default() -> None:
    """The server's default bot runner: a process pool; a table of bots plays through to its end."""
    runner = ExecutorBotRunner(workers=1)
    with TestClient(create_app(bot_runner=runner, bot_delay=0)) as c:
        # The learned bot thinks in the pool too (it reads the shipped network there).
        data = create(c, [{"kind": "bot", "bot": "random"}] * 2 + [{"kind": "bot", "bot": "net"}])
        table = live(c, data["table"])
        with c.websocket_connect("/ws") as ws:  # the learned bot thinks while somebody watches
            watcher = Seat(ws)
            watcher.join(data["spectator"])
            assert watcher.until(lambda m: m["type"] == "state" and m["result"] is not None)
        assert table.finished and table.game.is_over()
        # The stored actions are the game: replayed from the table's deal they end the same way.
        from oriflamme import replay
        from oriflamme.web.table_game import table_setup

        again = replay(table_setup(table.record), table.actions)
        assert again.is_over()
        assert again.score == table.game.score and again.winners == table.game.winners
        assert again.history == table.game.history


def test_a_rematch_seats_the_same_people_and_every_old_link_leads_there(client: TestClient) -> None:
    """Asked by one player, the rematch keeps seats, names, bots, deck and rules, deals anew with the
    next seat first; the other player at the old table is told their own new link, asking again
    gives the same table, and an old link opened later leads there too."""
    seats = [
        {"kind": "person", "name": "Ann"},
        {"kind": "bot", "bot": "heuristic"},
        {"kind": "person", "name": "Cyd"},
    ]
    data = create(client, seats, deck="ablaze", rules={"rounds": 4}, first_player=1)
    ann_token, cyd_token = data["seats"][0]["token"], data["seats"][2]["token"]
    assert client.post("/api/rematch", json={"token": ann_token}).status_code == 409  # not over yet
    old = live(client, data["table"])
    with client.websocket_connect("/ws") as wa, client.websocket_connect("/ws") as wc:
        ann, cyd = Seat(wa), Seat(wc)
        msgs = [ann.join(ann_token), cyd.join(cyd_token)]
        rng = random.Random(8)
        while msgs[0]["result"] is None:
            top = max(m["state"] for m in msgs)
            msgs = [s.state_at_least(top) for s in (ann, cyd)]
            if msgs[0]["state"] != msgs[1]["state"]:
                continue
            mover = next((i for i, m in enumerate(msgs) if m["legal"]), None)
            if mover is None:
                msgs = [s.until(lambda m: m["type"] == "state") for s in (ann, cyd)]
                continue
            (ann, cyd)[mover].act(rng.choice(msgs[mover]["legal"]))
            msgs = [s.state_at_least(top + 1) for s in (ann, cyd)]
        assert client.post("/api/rematch", json={"token": data["spectator"]}).status_code == 403
        answer = client.post("/api/rematch", json={"token": ann_token})
        assert answer.status_code == 200
        first = answer.json()
        told = cyd.until(lambda m: m["type"] == "rematch")
    assert first["table"] == f"{old.record.id}~2" and first["seat"] == 0
    new = live(client, first["table"])
    r, o = new.record, old.record
    assert [(s.kind, s.name, s.bot, s.lang) for s in r.seats] == [
        (s.kind, s.name, s.bot, s.lang) for s in o.seats
    ]
    assert (r.deck, r.recipe, r.rules, r.players) == (o.deck, o.recipe, o.rules, o.players)
    assert r.seed != o.seed and r.first_player == 2
    assert first["token"] == r.seats[0].token and told["token"] == r.seats[2].token
    assert {t for t in (r.seats[0].token, r.seats[2].token)}.isdisjoint({ann_token, cyd_token})
    again = client.post("/api/rematch", json={"token": cyd_token}).json()
    assert (again["table"], again["token"]) == (r.id, r.seats[2].token)
    with client.websocket_connect("/ws") as wc:
        later = Seat(wc)
        later.join(cyd_token)
        assert later.until(lambda m: m["type"] == "rematch")["token"] == r.seats[2].token
    # The rematch has its own rematch, numbered on.
    assert client.post("/api/rematch", json={"token": r.seats[0].token}).status_code == 409
    assert client.post("/api/rematch", json={"token": "nope"}).status_code == 404


def test_a_person_names_their_own_seat_and_everyone_is_told(client: TestClient) -> None:
    """The name is cleaned (no control or direction characters, 24 at most), stored, and sent to every
    connection at the table; a spectator cannot name anyone, an empty name is refused, and a
    connection may rename its seat only a few times."""
    data = create(
        client, [{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "random"}, {"kind": "person"}]
    )
    with (
        client.websocket_connect("/ws") as wa,
        client.websocket_connect("/ws") as wc,
        client.websocket_connect("/ws") as ws,
    ):
        ann, cyd, spectator = Seat(wa), Seat(wc), Seat(ws)
        ann.join(data["seats"][0]["token"])
        cyd.join(data["seats"][2]["token"])
        spectator.join(data["spectator"])
        cyd.send({"type": "name", "name": "  Cyd\u202e\u0000 the Bold of the Northern Marches  "})
        told = ann.until(lambda m: m["type"] == "seats")
        assert told["seats"][2]["name"] == "Cyd the Bold of the Nort"
        assert (
            spectator.until(lambda m: m["type"] == "seats")["seats"][2]["name"] == "Cyd the Bold of the Nort"
        )
        assert [s["name"] for s in told["seats"]][:2] == ["Ann", ""]
        spectator.send({"type": "name", "name": "Eve"})
        spectator.expect_error("not_a_player")
        cyd.until(lambda m: m["type"] == "seats")
        cyd.send({"type": "name", "name": "\u200f\u0007 "})
        cyd.expect_error("bad_name")
        for i in range(9):
            cyd.send({"type": "name", "name": f"Cyd {i}"})
            cyd.until(lambda m: m["type"] == "seats")
        cyd.send({"type": "name", "name": "Cyd again"})
        cyd.expect_error("too_many_renames")
        cyd.send({"type": "name", "name": "x" * 200})
        cyd.expect_error("malformed")
    table = live(client, data["table"])
    assert table.record.seats[2].name == "Cyd 8"
    stored = client.portal.call(registry(client).store.load_table, data["table"])  # type: ignore[union-attr]
    assert stored.record.seats[2].name == "Cyd 8"
    # A new connection of any seat is welcomed with the new name.
    with client.websocket_connect("/ws") as wa:
        welcome_seat = Seat(wa)
        welcome_seat.send({"type": "join", "token": data["seats"][0]["token"]})
        assert welcome_seat.recv()["table"]["seats"][2]["name"] == "Cyd 8"


def _run_out_the_clock(client: TestClient, table: LiveTable, seconds: float) -> None:
    """As if ``seconds`` had passed since the decision now asked began."""

    async def shift() -> None:
        table.turn_started -= seconds
        table.restart_bot()

    client.portal.call(shift)  # type: ignore[union-attr]


def test_a_bot_plays_for_a_person_whose_turn_timer_ran_out_until_they_come_back(client: TestClient) -> None:
    """With a 30 s timer: the state tells the time left; once it has run out a bot makes the move and
    goes on playing that seat (presence says so) while the others play on; back, the person plays
    again, with a full timer. Bob opened his link once and left: his seat's timer runs too."""
    data = create(
        client, [PEOPLE_3[0], {"kind": "bot", "bot": "random"}, PEOPLE_3[1]], first_player=0, turn_seconds=30
    )
    table = live(client, data["table"])
    with client.websocket_connect("/ws") as wb:
        Seat(wb).join(data["seats"][2]["token"])
    with client.websocket_connect("/ws") as wa:
        ann = Seat(wa)
        first = ann.join(data["seats"][0]["token"])
        assert first["legal"] and 29 <= first["turn_left"] <= 30
        _run_out_the_clock(client, table, 31)
        away = ann.until(lambda m: m["type"] == "presence" and m["away"] == [0])
        assert away["state"] == 0  # said before the stand-in's move is stored
        moved = ann.state_at_least(1)
        assert moved["turn_left"] is None or moved["view"]["to_move"] != 0
        # Bob's turns wait for Bob (he has his own timer); Ann's seat is played for her meanwhile.
        assert table.away == {0}
        ann.send({"type": "back"})
        assert ann.until(lambda m: m["type"] == "presence")["away"] == []
        clock = ann.until(lambda m: m["type"] == "clock")  # her time counts again (or Bob's runs)
        # The seat-1 bot may move between the clock message and this check, so the table can be ahead.
        assert moved["state"] <= clock["state"] <= table.state
        assert clock["turn_left"] is None or clock["turn_left"] > 0
        assert table.away == set()
    # Bob and Ann both absent now: their timers run out in turn, and the game is played to its end.
    deadline = time.monotonic() + 30
    while not table.game.is_over() and time.monotonic() < deadline:
        _run_out_the_clock(client, table, 31)
        time.sleep(0.01)
    assert table.game.is_over() and table.away == {0, 2}
    stored = client.portal.call(registry(client).store.load_table, data["table"])  # type: ignore[union-attr]
    assert stored.actions == table.actions and stored.finished


def test_a_person_can_leave_their_seat_to_a_bot_and_take_it_back() -> None:
    with make_client(bot_delay=0.1) as client:  # bots slow enough for Ann to come back before the end
        _leave_and_take_back(client)


def _leave_and_take_back(client: TestClient) -> None:
    data = create(
        client,
        [PEOPLE_3[0], {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}],
        first_player=0,
    )
    table = live(client, data["table"])
    with client.websocket_connect("/ws") as wa, client.websocket_connect("/ws") as ws:
        ann, spectator = Seat(wa), Seat(ws)
        assert ann.join(data["seats"][0]["token"])["turn_left"] is None  # no timer on this table
        spectator.join(data["spectator"])
        spectator.send({"type": "away"})
        spectator.expect_error("not_a_player")
        ann.send({"type": "away"})
        assert spectator.until(lambda m: m["type"] == "presence")["away"] == [0]
        ann.state_at_least(3)  # the bots play on, Ann's seat among them
        ann.send({"type": "back"})
        ann.until(lambda m: m["type"] == "presence" and m["away"] == [])
        mine = ann.until(lambda m: m["type"] == "state" and bool(m["legal"]))
        assert mine["view"]["to_move"] == 0 and table.away == set()


def test_leaving_and_coming_back_by_reconnecting(client: TestClient) -> None:
    """Opening the seat's page again is coming back."""
    data = create(client, [PEOPLE_3[0], {"kind": "bot", "bot": "random"}, PEOPLE_3[1]], first_player=1)
    table = live(client, data["table"])
    with client.websocket_connect("/ws") as wa:
        ann = Seat(wa)
        ann.join(data["seats"][0]["token"])
        ann.send({"type": "away"})
        ann.until(lambda m: m["type"] == "presence" and m["away"] == [0])
    with client.websocket_connect("/ws") as wa:
        Seat(wa).join(data["seats"][0]["token"])
        assert table.away == set()


@pytest.mark.parametrize("seconds", [5, 3 * 24 * 3600 + 1, -1])
def test_a_turn_timer_out_of_range_is_refused(client: TestClient, seconds: int) -> None:
    body = {"players": 3, "deck": "base", "seats": PEOPLE_3, "turn_seconds": seconds}
    answer = client.post("/api/tables", json=body)
    assert answer.status_code in (400, 422)
    assert "turn" in answer.text


def test_a_person_who_concedes_has_a_bot_play_to_the_end_for_good(tmp_path: Path) -> None:
    """Conceding is stored: the seat cannot be taken back (acting, coming back, reconnecting, or
    after a restart), and a bot plays it until the game ends."""
    db = tmp_path / "games.sqlite3"
    with make_client(db, bot_delay=0.05) as client:
        data = create(client, [PEOPLE_3[0], {"kind": "bot", "bot": "random"}, PEOPLE_3[1]], first_player=0)
        ann_token = data["seats"][0]["token"]
        with client.websocket_connect("/ws") as wa:
            ann = Seat(wa)
            first = ann.join(ann_token)
            ann.send({"type": "concede"})
            told = ann.until(lambda m: m["type"] == "presence" and m["conceded"] == [0])
            assert told["away"] == [0]
            ann.until(lambda m: m["type"] == "clock")  # Ann's timer (none here) stops mattering
            ann.send({"type": "back"})
            # The stand-in bot may already be playing the seat: its states can come first.
            assert ann.until(lambda m: m["type"] == "error")["code"] == "conceded"
            ann.act(first["legal"][0], state=first["state"])
            assert ann.until(lambda m: m["type"] == "error")["code"] in ("conceded", "stale")
        with client.websocket_connect("/ws") as wa:
            Seat(wa).join(ann_token)  # opening the link again does not take the seat back
        table = live(client, data["table"])
        assert table.conceded == {0} and table.away == {0}
        # Nor can a "back" heard from another process bring it back.
        assert client.portal.call(lambda: _set_away(table, 0, False)) is False  # type: ignore[union-attr]
        assert table.away == {0}
    with make_client(db, bot_delay=0.05) as client:  # a restart: still conceded
        table = live(client, data["table"])
        assert table.conceded == {0} and 0 in table.away


@pytest.fixture
def quick_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hints and reviews search at the easy level here: the same code, a tenth of the time."""
    from oriflamme.web import analysis_jobs

    monkeypatch.setattr(analysis_jobs, "LEVEL", "easy")


def _play_alone(client: TestClient, token: str, rng: random.Random) -> dict[str, Any]:
    with client.websocket_connect("/ws") as ws:
        seat = Seat(ws)
        msg = seat.join(token)
        while msg["result"] is None:
            if msg["legal"]:
                seat.act(rng.choice(msg["legal"]))
            msg = seat.until(lambda m: m["type"] == "state")
        return msg


def test_a_hint_ranks_every_option_of_the_persons_decision_against_bots_only(quick_search: None) -> None:
    from oriflamme.web.guard import ServerLimits

    with TestClient(
        create_app(
            None,
            bot_runner=InlineBotRunner(),
            bot_delay=0.0,
            limits=ServerLimits(analyses_per_address="2/day"),
        )
    ) as client:
        data = create(
            client,
            [PEOPLE_3[0], {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "heuristic"}],
            first_player=0,
        )
        token = data["seats"][0]["token"]
        with client.websocket_connect("/ws") as ws:
            first = Seat(ws).join(token)
        answer = client.post("/api/hint", json={"token": token, "state": first["state"]})
        assert answer.status_code == 200, answer.text
        hint = answer.json()
        assert sorted(o["action"] for o in hint["options"]) == sorted(first["legal"])
        wins = [o["win"] for o in hint["options"] if o["visits"]]
        assert wins and all(0 <= w <= 1 for w in wins)
        assert client.post("/api/hint", json={"token": token, "state": first["state"] + 1}).status_code == 409
        assert client.post("/api/hint", json={"token": data["spectator"], "state": 0}).status_code == 404
        third = client.post("/api/hint", json={"token": token, "state": first["state"]})
        assert third.status_code == 200
        refused = client.post("/api/hint", json={"token": token, "state": first["state"]})
        assert refused.status_code == 429 and "hints and reviews" in refused.json()["detail"]
        assert int(refused.headers["Retry-After"]) >= 1
        # Among people, no hints.
        people = create(client, PEOPLE_3, first_player=0)
        assert (
            client.post("/api/hint", json={"token": people["seats"][0]["token"], "state": 0}).status_code
            == 403
        )


def test_a_review_judges_each_move_of_the_persons_finished_game(
    client: TestClient, quick_search: None
) -> None:
    data = create(
        client,
        [PEOPLE_3[0], {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}],
        first_player=0,
    )
    token = data["seats"][0]["token"]
    assert client.get(f"/api/review/{token}").status_code == 409
    _play_alone(client, token, random.Random(6))
    answer = client.get(f"/api/review/{token}")
    assert answer.status_code == 200, answer.text
    moves = answer.json()["moves"]
    table = live(client, data["table"])
    states = replay_states(table.record, table.actions)
    mine = [
        i for i in range(len(table.actions)) if states[i].current_player() == 0 and len(states[i].options) > 1
    ]
    assert [m["index"] for m in moves] == mine  # every real choice of Ann's, and only hers
    for m in moves:
        assert m["played"] == table.actions[m["index"]]
        assert m["cost"] >= 0 and (m["played"] == m["best"]) == (m["cost"] == 0 and m["played"] == m["best"])
    assert client.get(f"/api/review/{data['spectator']}").status_code == 404


def test_table_chat_is_short_cleaned_rated_and_in_the_hosts_hands(client: TestClient) -> None:
    """Lines reach everyone, cleaned; spectators speak only when the host (seat 1) lets them; the host
    silences a seat and clears its lines; lines are 300 characters at most, 5 in 10 seconds."""
    data = create(client, PEOPLE_3)
    with (
        client.websocket_connect("/ws") as wa,
        client.websocket_connect("/ws") as wb,
        client.websocket_connect("/ws") as ws,
    ):
        ann, bob, spectator = Seat(wa), Seat(wb), Seat(ws)
        ann.join(data["seats"][0]["token"])
        bob.join(data["seats"][1]["token"])
        spectator.join(data["spectator"])
        assert spectator.until(lambda m: m["type"] == "chat_state")["spectators"] is False
        ann.send({"type": "chat", "text": " hello\u202e \u0007 all "})
        line = bob.until(lambda m: m["type"] == "chat")["line"]
        assert (line["seat"], line["text"]) == (0, "hello all")
        assert spectator.until(lambda m: m["type"] == "chat")["line"]["text"] == "hello all"
        spectator.send({"type": "chat", "text": "me too"})
        spectator.expect_error("chat_closed")
        bob.send({"type": "chat_mod", "spectators": True})
        bob.expect_error("not_host")
        ann.send({"type": "chat_mod", "spectators": True})
        assert spectator.until(lambda m: m["type"] == "chat_state")["spectators"] is True
        spectator.send({"type": "chat", "text": "me too"})
        assert (
            ann.until(lambda m: m["type"] == "chat" and m["line"]["seat"] is None)["line"]["text"] == "me too"
        )
        bob.send({"type": "chat", "text": "rude words"})
        ann.until(lambda m: m["type"] == "chat" and m["line"]["seat"] == 1)
        ann.send({"type": "chat_mod", "seat": 1, "mute": True, "remove": True})
        state = bob.until(lambda m: m["type"] == "chat_state" and m["muted"])
        assert state["muted"] == [1] and all(line["seat"] != 1 for line in state["lines"])
        bob.send({"type": "chat", "text": "again"})
        bob.expect_error("chat_muted")
        ann.send({"type": "chat", "text": "x" * 301})
        ann.expect_error("chat_too_long")
        for i in range(3):  # Ann has said 1 line; 5 in 10 s in all
            ann.send({"type": "chat", "text": f"line {i}"})
        ann.send({"type": "chat", "text": "one too many?"})
        assert ann.until(lambda m: m["type"] == "chat" and m["line"]["text"] == "one too many?")
        ann.send({"type": "chat", "text": "one too many"})
        ann.expect_error("chat_too_fast")
    with client.websocket_connect("/ws") as wc:
        cyd = Seat(wc)
        cyd.send({"type": "join", "token": data["seats"][2]["token"]})
        state = cyd.until(lambda m: m["type"] == "chat_state")
        assert [line["text"] for line in state["lines"]][:2] == ["hello all", "me too"]


def test_a_person_takes_back_a_decision_stored_as_a_record_while_nothing_was_shown_since(
    tmp_path: Path,
) -> None:
    """Ann places a card and takes it back before the bots move (they take 5 s here): every page gets
    the game anew, the state number goes on growing, the store keeps every row, and a restart gives
    the same game."""
    db = tmp_path / "games.sqlite3"
    with make_client(db, bot_delay=5.0) as client:
        data = create(
            client,
            [PEOPLE_3[0], {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}],
            first_player=0,
        )
        table = live(client, data["table"])
        with client.websocket_connect("/ws") as wa, client.websocket_connect("/ws") as ws:
            ann, spectator = Seat(wa), Seat(ws)
            first = ann.join(data["seats"][0]["token"])
            spectator.join(data["spectator"])
            assert first["can_take_back"] is False  # nothing to take back yet
            hand = sorted(c["kind"] for c in first["view"]["hand"])
            ann.act(first["legal"][0])
            placed = ann.state_at_least(1)
            assert placed["can_take_back"] is True and len(placed["view"]["queue"]) == 1
            ann.send({"type": "takeback"})
            back = ann.until(lambda m: m["type"] == "state" and m["state"] == 2)
            assert "log" in back and len(back["log"]) == 1  # the game anew: only the deal
            assert back["legal"] == first["legal"] and sorted(c["kind"] for c in back["view"]["hand"]) == hand
            assert back["view"]["queue"] == [] and back["can_take_back"] is False
            assert spectator.until(lambda m: m["type"] == "state" and m["state"] == 2)["view"]["queue"] == []
            assert table.actions == [] and table.state == 2
            ann.send({"type": "takeback"})
            ann.expect_error("cannot_take_back")
            spectator.send({"type": "takeback"})
            spectator.expect_error("not_a_player")
            ann.act(back["legal"][-1])
            ann.state_at_least(3)
        stored = client.portal.call(registry(client).store.load_table, data["table"])  # type: ignore[union-attr]
        assert stored.actions == [first["legal"][0], "takeback 0", back["legal"][-1]]
        kept = list(table.actions)
    assert kept == [back["legal"][-1]]
    with make_client(db, bot_delay=5.0) as client:  # a restart replays the rows, the take-back included
        again = live(client, data["table"])
        assert again.actions == kept and again.state == 3


def test_no_take_back_once_another_person_has_decided(client: TestClient) -> None:
    data = create(client, [PEOPLE_3[0], PEOPLE_3[1], {"kind": "bot", "bot": "random"}], first_player=0)
    with client.websocket_connect("/ws") as wa, client.websocket_connect("/ws") as wb:
        ann, bob = Seat(wa), Seat(wb)
        first = ann.join(data["seats"][0]["token"])
        bob.join(data["seats"][1]["token"])
        ann.act(first["legal"][0])
        mine = ann.state_at_least(1)
        assert mine["can_take_back"] is True  # Bob has not placed yet
        bobs = bob.state_at_least(1)
        bob.act(bobs["legal"][0])
        after = ann.state_at_least(2)
        assert after["can_take_back"] is False
        ann.send({"type": "takeback"})
        refused = ann.until(lambda m: m["type"] == "error")
        assert (refused["code"], refused["message"]) == (
            "cannot_take_back",
            "another player has decided since",
        )


async def _set_away(table: LiveTable, seat: int, away: bool) -> bool:
    return table.set_away(seat, away)


def test_no_take_back_once_a_card_was_shown_to_another_person() -> None:
    """Ann reveals her own card: she knew it, but Bob and Cyd saw it; taking it back would turn face
    down again a card they have seen, so it is refused."""
    with make_client(bot_delay=5.0) as client:
        data = create(client, PEOPLE_3, first_player=0)
        with (
            client.websocket_connect("/ws") as wa,
            client.websocket_connect("/ws") as wb,
            client.websocket_connect("/ws") as wc,
        ):
            seats = [Seat(w) for w in (wa, wb, wc)]
            msgs = [s.join(data["seats"][i]["token"]) for i, s in enumerate(seats)]
            for _ in range(200):
                state = max(m["state"] for m in msgs)
                msgs = [s.state_at_least(state) for s in seats]
                mover = next(i for i, m in enumerate(msgs) if m["legal"])
                if mover == 0 and "reveal" in msgs[0]["legal"]:
                    break
                seats[mover].act(msgs[mover]["legal"][0])
                msgs = [s.state_at_least(state + 1) for s in seats]
            else:
                raise AssertionError("Ann never had a card to reveal")
            seats[0].act("reveal")
            after = seats[0].state_at_least(state + 1)
            assert after["can_take_back"] is False
            seats[0].send({"type": "takeback"})
            refused = seats[0].until(lambda m: m["type"] == "error")
            assert refused["code"] == "cannot_take_back"
            assert refused["message"] == "a card was shown to another player since"
