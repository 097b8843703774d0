"""The example of docs/environments/vector.md runs unchanged and prints what its comment says."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

pytest.importorskip("jax", reason="the vector engine needs JAX: pip install 'oriflamme[vector]'")

PAGE = Path(__file__).parents[2] / "docs" / "environments" / "vector.md"


def test_the_pages_example_runs_and_prints_the_shapes_it_promises() -> None:
    (block,) = re.findall(r"```python\n(.*?)```", PAGE.read_text(encoding="utf-8"), re.S)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(block, str(PAGE), "exec"), {})
    assert out.getvalue().strip() == "(3, 1502) (3, 4, 4224)"
