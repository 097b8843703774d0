"""docs/api.md is generated from the front door's docstrings and must be current."""

from __future__ import annotations

from support.tools import ROOT, load_tool


def test_the_api_reference_is_current() -> None:
    tool = load_tool("api_docs")
    current = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    assert current == tool.render(), "docs/api.md is stale: run python tools/api_docs.py"
    import oriflamme

    for name in oriflamme.__all__:
        assert f"`{name}" in current or f"class `{name}" in current, name
