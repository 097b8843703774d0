"""``tools/screenshots.py`` still plays a whole game and takes its pictures (the README's and docs/playing.md's are its own)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from support.browser import CHROMIUM, need_chromium

need_chromium()

ROOT = Path(__file__).resolve().parents[2]


def test_the_screenshot_script_plays_a_game_and_saves_each_picture(tmp_path: Path) -> None:
    out = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "screenshots.py"), "--lang", "ru", "--size", "phone",
         "--out", str(tmp_path), "--chromium", CHROMIUM],
        capture_output=True, text=True, timeout=240,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr[-2000:]
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ["ru-phone-end.png", "ru-phone-lobby.png", "ru-phone-play.png", "ru-phone-rules.png"]
    for p in tmp_path.iterdir():
        assert p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and p.stat().st_size > 10_000
    # The README shows some of the committed ones, and docs/playing.md all four of these.
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    playing = (ROOT / "docs" / "playing.md").read_text(encoding="utf-8")
    shown = [name for name in ("en-desktop-play", "en-phone-play", "ru-desktop-end", "ru-phone-end")
             if f"docs/screenshots/{name}.png" in readme]  # fmt: skip
    assert shown
    for name in ("en-desktop-play", "en-phone-play", "ru-desktop-end", "ru-phone-end"):
        assert (
            f"](screenshots/{name}.png)" in playing
            and (ROOT / "docs" / "screenshots" / f"{name}.png").exists()
        )
