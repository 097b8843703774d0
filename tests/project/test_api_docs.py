"""docs/api.md is generated from the front door's docstrings and must be current."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).parents[2]


def test_the_api_reference_is_current() -> None:
    spec = importlib.util.spec_from_file_location("api_docs", ROOT / "tools" / "api_docs.py")
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    current = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    assert current == tool.render(), "docs/api.md is stale: run python tools/api_docs.py"
    import oriflamme

    for name in oriflamme.__all__:
        assert f"`{name}" in current or f"class `{name}" in current, name
