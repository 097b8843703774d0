"""A browser of the accounts tests: its own cookies, at an address of its own, on one test client."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from oriflamme.web.app import create_app
from oriflamme.web.bot_runners import InlineBotRunner
from oriflamme.web.guard import ServerLimits
from oriflamme.web.routes_accounts import CSRF_COOKIE


def app_for(database: str | None, limits: ServerLimits | None = None) -> ProxyHeadersMiddleware:
    app = create_app(database, bot_runner=InlineBotRunner(), bot_delay=0.0, limits=limits)
    # Each browser below comes from an address of its own, as behind a trusted proxy.
    return ProxyHeadersMiddleware(app, trusted_hosts="*")  # type: ignore[arg-type]


class Browser:
    """One browser at one address: its own cookie jar, on the one client that runs the app."""

    def __init__(self, client: TestClient, address: str) -> None:
        self.client = client
        self.jar = type(client.cookies)()  # the HTTP library's own jar type
        self.headers = {"x-forwarded-for": address}
        self.get("/api/account")  # the page's first call: the CSRF cookie

    def _send(self, method: str, path: str, **kwargs: Any) -> Any:
        # The client copies a jar given to it: swap this browser's in, and what the answer set back out.
        self.client.cookies = self.jar
        answer = self.client.request(method, path, **kwargs)
        self.jar = self.client.cookies
        return answer

    def get(self, path: str) -> Any:
        return self._send("GET", path, headers=self.headers)

    def post(self, path: str, body: dict[str, Any] | None = None, csrf: bool | str = True) -> Any:
        headers = dict(self.headers)
        if csrf:
            # Over HTTPS the server names its cookies with the __Host- prefix.
            name = ("__Host-" if str(self.client.base_url).startswith("https") else "") + CSRF_COOKIE
            headers["x-csrf-token"] = csrf if isinstance(csrf, str) else self.jar.get(name, "")
        return self._send("POST", path, json=body or {}, headers=headers)

    def account(self) -> dict[str, object] | None:
        answer: dict[str, dict[str, object] | None] = self.get("/api/account").json()
        return answer["account"]


def play_to_the_end(
    seats: list[Any], take_back_first: bool = False, before_move: Callable[[int], None] | None = None
) -> dict[str, Any]:
    """Both people answer with their first legal move until the result; optionally the first one to
    decide takes that decision back once (a take-back: the game is then unrated). ``before_move`` is
    told how many moves the people made so far, before each of theirs."""
    taken = not take_back_first
    moves = 0
    while True:
        latest = max(s.last_state["state"] for s in seats if s.last_state is not None)
        for s in seats:
            s.state_at_least(latest)
        states = [s.last_state for s in seats]
        assert all(st is not None for st in states)
        if states[0]["result"] is not None:  # type: ignore[index]
            return states[0]  # type: ignore[return-value]
        if len({st["state"] for st in states}) > 1:  # type: ignore[index]
            continue
        mover = next((s for s in seats if s.last_state["legal"]), None)  # type: ignore[index]
        if mover is not None:
            if before_move is not None:
                before_move(moves)
            moves += 1
            mover.act(mover.last_state["legal"][0])  # type: ignore[index]
            if not taken:
                mover.state_at_least(latest + 1)
                mover.send({"type": "takeback"})
                taken = True
        for s in seats:
            s.state_at_least(latest + 1)
