"""Screenshots of a whole browser game, for the README: desktop and phone, English and Russian.

Starts ``oriflamme serve`` on a free local port with a scratch database and bots
that move at once, plays one seat of a game against two bots by clicking (the
same seeds every time, so the pictures change only when the page does), and
saves, for each language and screen::

    docs/screenshots/<lang>-<desktop|phone>-<lobby|play|rules|end>.png

Needs Playwright and a Chromium (Debian's ``chromium`` by default)::

    python tools/screenshots.py                      # both languages, both sizes
    python tools/screenshots.py --lang ru --size phone --out /tmp/shots
"""

from __future__ import annotations

import argparse
import json
import random
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
SIZES: dict[str, dict[str, Any]] = {
    "desktop": {"viewport": {"width": 1366, "height": 768}},
    "phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True},
}
LANGUAGES = ("en", "ru")
#: What a click may choose besides the queue, in the order a player would look.
CHOICES = (
    ".prompt.mine .act.keep, .prompt.mine .act.reveal",
    ".prompt.mine .act.mode",
    ".chip.legal",
    ".queue .card.legal:not(.onto)",
)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start_server(db: Path, port: int) -> subprocess.Popen[bytes]:
    cmd = [sys.executable, "-m", "oriflamme", "serve", "--port", str(port), "--db", str(db),
           "--bot-delay", "0", "--bot-workers", "0"]  # fmt: skip
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz", timeout=1):
                return proc
        except OSError:
            time.sleep(0.1)
    proc.terminate()
    raise SystemExit("the server did not start")


def create_table(url: str, lang: str, name: str) -> dict[str, Any]:
    seats = [
        {"kind": "person", "name": name, "lang": lang},
        {"kind": "bot", "bot": "heuristic", "lang": lang},
        {"kind": "bot", "bot": "heuristic", "lang": lang},
    ]
    body = {"players": 3, "deck": "base", "seed": 2026, "first_player": 0, "seats": seats}
    request = urllib.request.Request(
        f"{url}/api/tables", json.dumps(body).encode(), {"content-type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        data: dict[str, Any] = json.load(answer)
        return data


def state_of(page: Page) -> int:
    return int(page.evaluate("() => document.body.dataset.state || -1"))


def click_once(page: Page, rng: random.Random) -> bool:
    """Make one decision by clicking what the page offers; False once the game is over."""
    page.wait_for_selector(".result, .prompt.mine", timeout=20_000)
    if page.locator(".result").count():
        return False
    before = state_of(page)
    group = next((g for g in CHOICES if page.locator(g).count()), None)
    if group is None and not page.locator(".queue .legal").count():
        hand = page.locator(".hand .card.legal")
        hand.nth(rng.randrange(hand.count())).click(position={"x": 6, "y": 30})
        page.wait_for_function(
            "(s) => Number(document.body.dataset.state) > s || !!document.querySelector('.queue .legal')",
            arg=before,
        )
        if state_of(page) > before:
            return True
    choices = page.locator(group or ".queue .slot.legal, .queue .card.legal")
    choices.nth(rng.randrange(choices.count())).click()
    page.wait_for_function(
        "(s) => Number(document.body.dataset.state) > s || !!document.querySelector('.prompt.confirming')",
        arg=before,
    )
    if state_of(page) == before:  # a move that asks for a confirmation
        page.locator(".prompt .act.confirm").click()
        page.wait_for_function("(s) => Number(document.body.dataset.state) > s", arg=before)
    return True


def shoot(page: Page, out: Path, name: str) -> None:
    page.mouse.move(1, 1)  # off every card: a card's help box follows the pointer
    page.wait_for_timeout(400)  # the help box fades, the last animation settles
    path = out / f"{name}.png"
    page.screenshot(path=path, full_page=False)
    shrink(path)
    print(path)


def shrink(path: Path) -> None:
    """256 colours instead of millions: a third of the size, the same picture to the eye (with Pillow)."""
    try:
        from PIL import Image
    except ImportError:
        return
    with Image.open(path) as image:
        small = image.convert("RGB").quantize(
            colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE
        )
    small.save(path, optimize=True)


def take(url: str, chromium: str, out: Path, langs: list[str], sizes: list[str]) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--headless=new", "--no-sandbox"])
        for lang in langs:
            for size in sizes:
                prefix = f"{lang}-{size}"
                context = browser.new_context(locale=lang, reduced_motion="reduce", **SIZES[size])
                context.add_init_script(f"localStorage.setItem('oriflamme.lang', '{lang}');"
                                        "localStorage.setItem('oriflamme.confirm', '0');")  # fmt: skip
                page = context.new_page()
                page.goto(url)
                page.wait_for_selector(".lobby")
                shoot(page, out, f"{prefix}-lobby")
                table = create_table(url, lang, "Оля" if lang == "ru" else "Ann")
                page.goto(f"{url}/play/{table['seats'][0]['token']}")
                page.wait_for_selector(".board")
                page.evaluate("(t) => { const k = 'oriflamme.named'; localStorage.setItem(k, JSON.stringify([t])); }",
                              table["seats"][0]["token"])  # fmt: skip
                page.reload()
                rng = random.Random(7)
                for _ in range(9):
                    click_once(page, rng)
                page.wait_for_selector(".prompt.mine")
                shoot(page, out, f"{prefix}-play")
                page.locator("button.gallery-open").click()
                page.wait_for_selector("dialog.gallery[open]")
                shoot(page, out, f"{prefix}-rules")
                page.keyboard.press("Escape")
                while click_once(page, rng):
                    pass
                page.wait_for_selector(".result")
                page.locator(".result").scroll_into_view_if_needed()
                shoot(page, out, f"{prefix}-end")
                context.close()
        browser.close()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    parser.add_argument("--lang", action="append", choices=LANGUAGES, help="repeatable; default: en and ru")
    parser.add_argument("--size", action="append", choices=list(SIZES), help="repeatable; default: both")
    parser.add_argument("--chromium", default="/usr/bin/chromium", help="the Chromium to drive")
    args = parser.parse_args(argv)
    port = free_port()
    with tempfile.TemporaryDirectory() as scratch:
        server = start_server(Path(scratch) / "games.sqlite3", port)
        try:
            take(
                f"http://127.0.0.1:{port}",
                args.chromium,
                args.out,
                args.lang or list(LANGUAGES),
                args.size or list(SIZES),
            )
        finally:
            server.terminate()
            server.wait(10)


if __name__ == "__main__":
    main()
