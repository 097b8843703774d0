"""The README stays a short front page, and every link of it and of the guides leads somewhere.

Each relative link and picture in README.md and docs/**/*.md must name a file or folder that
exists, and a link with ``#heading`` a heading of the page it names (as GitHub spells heading
anchors). In an unpacked source archive, which leaves out the pictures and measurement records,
only links to Markdown pages are checked.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
IN_CHECKOUT = (ROOT / ".git").exists()


def unfenced(text: str) -> str:
    """The text without its fenced code blocks."""
    return re.sub(r"^(```|~~~).*?^\1[^\n]*$", "", text, flags=re.S | re.M)


def prose(text: str) -> str:
    """The text without its code, fenced or inline, where brackets are not links."""
    return re.sub(r"`[^`]+`", "", unfenced(text))


def links(page: Path) -> list[str]:
    """The targets of the page's links and pictures, other sites and mail left out."""
    targets = re.findall(r"\]\(<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\)", prose(page.read_text(encoding="utf-8")))
    return [t for t in targets if not re.match(r"[a-z][a-z0-9+.-]*:", t, flags=re.I)]


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link in a heading keeps its words
    text = re.sub(r"[^\w\- ]", "", text.strip().lower())
    return text.replace(" ", "-")


@cache
def anchors(page: Path) -> frozenset[str]:
    """Every anchor of a Markdown page: its headings' (repeated ones numbered) and explicit ids."""
    text = page.read_text(encoding="utf-8")
    found: set[str] = set()
    seen: dict[str, int] = {}
    for heading in re.findall(r"^#{1,6}\s+(.*?)\s*#*\s*$", unfenced(text), flags=re.M):
        base = slug(heading)
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    found.update(re.findall(r"<a\s+(?:id|name)=\"([^\"]+)\"", text))
    return frozenset(found)


def test_the_readme_is_short() -> None:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) < 250, f"README.md has {len(lines)} lines: move detail to a page under docs/"


def test_the_quick_start_has_two_commands_and_the_second_is_what_ci_runs() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = re.search(r"^## Quick start\n(.*?)(?=^## )", readme, flags=re.S | re.M)
    assert section is not None
    commands = re.findall(r"```sh\n(.*?)```", section.group(1), flags=re.S)
    assert [c.strip().count("\n") for c in commands] == [0, 0], commands
    assert commands[1].strip() == "python -m pip install -e '.[test]' && python -m pytest -n auto"
    ci = ROOT / ".ci" / "run"
    if ci.exists():  # not in the source archive
        assert commands[1].strip() in ci.read_text(encoding="utf-8")


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_leads_to_a_file_and_heading_that_exist(page: Path) -> None:
    broken = []
    for target in links(page):
        path, _, anchor = target.partition("#")
        dest = (page.parent / path).resolve() if path else page
        if not dest.exists():
            if IN_CHECKOUT or dest.suffix == ".md":
                broken.append(f"{target}: no such file")
            continue
        if anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            broken.append(f"{target}: no heading #{anchor} in {dest.relative_to(ROOT)}")
    assert broken == [], f"{page.relative_to(ROOT)}: " + "; ".join(broken)


def test_the_pages_the_readme_leaves_to_the_guides_are_linked_from_it() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for page in ("rules", "bots", "tournaments", "rl", "training", "server", "python", "playing",
                 "translations", "development", "install", "benchmarks"):  # fmt: skip
        assert f"](docs/{page}.md" in readme, f"the README's map has no link to docs/{page}.md"
