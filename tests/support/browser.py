"""The browser tests' harness: a real ``oriflamme serve`` process and Debian's headless Chromium.

The browser is Debian's ``chromium`` (``.ci/run`` installs it), launched by
Playwright through ``executable_path``; Playwright downloads no browser. The
server runs as a subprocess with a temporary database and bots that move at
once, so a whole game takes seconds.
"""

from __future__ import annotations

import json
import os
import random
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
DESKTOP: ViewportSize = {"width": 1280, "height": 860}
PHONE: ViewportSize = {"width": 390, "height": 844}


class Server:
    """``python -m oriflamme serve`` on a free local port, restartable on the same database."""

    def __init__(self, db: Path, bot_delay: float = 0.0, cards: Path | None = None) -> None:
        self.db = db
        self.bot_delay = bot_delay
        self.cards = cards
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        cmd = [sys.executable, "-m", "oriflamme", "serve", "--port", str(self.port), "--db", str(self.db),
               "--bot-delay", str(self.bot_delay), "--bot-workers", "0"]  # fmt: skip
        if self.cards is not None:
            cmd += ["--cards", str(self.cards)]
        env = {k: v for k, v in os.environ.items() if k != "ORIFLAMME_CARDS"}
        self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(self.url + "/api/meta", timeout=1):
                    return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("the server did not start")

    def __enter__(self) -> Server:
        self.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.stop()

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait(10)
            self.proc = None

    def create(
        self, seats: list[dict[str, Any]], seed: int = 7, deck: str = "base", first_player: int | None = None
    ) -> dict[str, Any]:
        body = {
            "players": len(seats),
            "deck": deck,
            "seed": seed,
            "seats": seats,
            "first_player": first_player,
        }
        request = urllib.request.Request(
            self.url + "/api/tables", json.dumps(body).encode(), {"content-type": "application/json"}
        )
        with urllib.request.urlopen(request, timeout=5) as r:
            data: dict[str, Any] = json.load(r)
        return data


def need_chromium() -> None:
    """Skip the calling test module without Debian's chromium, or fail it where CI requires one.

    A fresh machine skips these tests and says why; CI installs chromium and sets
    ORIFLAMME_REQUIRE_BROWSER=1, which turns a missing browser into a failure instead.
    """
    if os.access(CHROMIUM, os.X_OK):
        return
    if os.environ.get("ORIFLAMME_REQUIRE_BROWSER"):
        pytest.fail(f"{CHROMIUM} is required (ORIFLAMME_REQUIRE_BROWSER is set)", pytrace=False)
    pytest.skip(
        f"browser tests need Debian's chromium at {CHROMIUM} (apt-get install chromium)",
        allow_module_level=True,
    )


def open_page(browser: Browser, url: str, errors: list[str], motion: str = "reduce") -> Page:
    context = browser.new_context(viewport=DESKTOP, reduced_motion=motion)  # type: ignore[arg-type]
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    return page


#: Draws one board in a page already showing the app (its catalogs loaded), from a view payload.
_RENDER = """async ([view, legal, seat, selected, reveal]) => {
    const base = document.querySelector('script[type=module]').src.replace(/app\\.js$/, '');
    const { board } = await import(base + 'board.js');
    const { parseLegal } = await import(base + 'legal.js');
    const { chooser } = await import(base + 'confirm.js');
    window.__acted = [];
    let chosen = selected;
    let chosenIndex = null;
    const moves = chooser((text) => window.__acted.push(text), () => draw(chosen, chosenIndex));
    const draw = (slug, index = null) => {
        chosen = slug;
        chosenIndex = index;
        const ctx = {
            view, seat, names: (s) => `P${s + 1}`, legal: parseLegal(legal),
            act: (text, opts) => moves.act(text, opts), select: (s, i) => draw(s, i), selected: slug,
            selectedIndex: index,
            online: null, seats: null, rules: null, interactive: true, reveal,
            pending: moves.pending, cancel: () => moves.cancel(),
        };
        // A stage of its own in place of the page's #app: the lobby's own later redraws (after its
        // fetches) go to the detached element and cannot replace the board under test.
        let main = document.getElementById('board-stage');
        if (!main) {
            const stage = document.createElement('div');
            stage.id = 'app';
            main = stage.appendChild(document.createElement('main'));
            main.id = 'board-stage';
            main.className = 'table-page';  // laid out as at a table
            document.getElementById('app').replaceWith(stage);
        }
        main.replaceChildren(board(ctx));
    };
    draw(selected);
}"""


def render_board(page: Page, game: Any, seat: int | None, selected: str | None = None) -> None:
    """Draw ``game`` as ``seat`` sees it with the page's own board module (no server table needed).

    Clicks land in ``window.__acted`` (the action texts the page would send).
    """
    from oriflamme.engine.action_text import action_text
    from oriflamme.web.protocol import reveal_payload, view_payload

    view = game.view(seat)
    legal = [action_text(game, a) for a in view.legal_actions] if view.to_move == seat else []
    page.evaluate(_RENDER, [view_payload(view), legal, seat, selected, reveal_payload(game)])


def state_of(page: Page) -> int:
    return int(page.evaluate("() => document.body.dataset.state || -1"))


def click_once(page: Page, rng: random.Random) -> bool:
    """Make one decision by clicking what the page offers; False once the result is shown."""
    page.wait_for_selector(".result, .prompt.mine", timeout=15_000)
    offered = page.evaluate(
        """(groups) => {
            if (document.querySelector('.result')) return null;
            const found = groups.find((g) => document.querySelector(g));
            return [Number(document.body.dataset.state), found || null,
                    !!document.querySelector('.queue .legal')];
        }""",
        list(CHOICES),
    )
    if offered is None:
        return False
    before, group, queue_ready = offered
    if group is None and not queue_ready:
        # Placement: first a card from the hand, then a place in the queue (an Informant's
        # exchange takes the hand card at once).
        hand = page.locator(".hand .card.legal")
        hand.nth(rng.randrange(hand.count())).click()
        page.wait_for_function(
            "(s) => Number(document.body.dataset.state) > s || !!document.querySelector('.queue .legal')",
            arg=before,
        )
        if state_of(page) > before:
            return True
    choices = page.locator(group or ".queue .slot.legal, .queue .card.legal")
    choices.nth(rng.randrange(choices.count())).click()
    # A target among the person's own cards asks for a confirmation first.
    page.wait_for_function(
        "(s) => Number(document.body.dataset.state) > s || !!document.querySelector('.prompt.confirming')",
        arg=before,
        timeout=15_000,
    )
    if state_of(page) == before:
        page.locator(".prompt .act.confirm").click()
        page.wait_for_function("(s) => Number(document.body.dataset.state) > s", arg=before, timeout=15_000)
    return True


#: What a decision offers besides the queue, in the order a player would look.
CHOICES = (".prompt.mine .act.keep, .prompt.mine .act.reveal", ".prompt.mine .act.mode", ".chip.legal",
           ".queue .card.legal:not(.onto)")  # fmt: skip
