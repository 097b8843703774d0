"""The README as the package index shows it: no link to a file of the project (which leads nowhere there)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def index_page() -> str:
    """The README after the substitutions ``pyproject.toml`` gives hatch-fancy-pypi-readme."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    hook = config["tool"]["hatch"]["metadata"]["hooks"]["fancy-pypi-readme"]
    text = "".join((ROOT / fragment["path"]).read_text(encoding="utf-8") for fragment in hook["fragments"])
    for substitution in hook["substitutions"]:
        text = re.sub(substitution["pattern"], substitution["replacement"], text)
    return text


def test_the_index_page_has_no_link_to_a_file_of_the_project() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert re.search(r"\]\((?!https?://|#)[^)]*\)", readme), "the README links its own files"
    page = index_page()
    assert re.findall(r"\]\((?!https?://|#)[^)]*\)", page) == []
    assert "![" not in page
    # The words of each link stay, and links to other sites and to the README's headings are kept.
    assert "More in docs/screenshots (lobby" in page
    absolute = r"\]\(https?://[^)]*\)"
    assert re.findall(absolute, page) == [link for link in re.findall(absolute, readme)]
    anchors = re.findall(r"\]\(#[^)]*\)", readme)
    assert anchors and re.findall(r"\]\(#[^)]*\)", page) == anchors
