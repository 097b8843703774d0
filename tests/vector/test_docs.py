"""The example of docs/environments/vector.md runs unchanged and prints what its comment says."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

pytest.importorskip("jax", reason="the vector engine needs JAX: pip install 'oriflamme[vector]'")

PAGE = Path(__file__).parents[2] / "docs" / "environments" / "vector.md"


#: What each Python example of the page prints, in order (each says it in its last comment).
PRINTED = ["(3, 1502) (3, 4, 4224)", "(6, 4224) (6, 3) [1, 1, 1, 1, 1, 1]", "4 (4, 2)"]


@pytest.mark.parametrize("which", range(len(PRINTED)))
def test_the_pages_examples_run_and_print_what_they_promise(which: int) -> None:
    blocks = re.findall(r"```python\n(.*?)```", PAGE.read_text(encoding="utf-8"), re.S)
    assert len(blocks) == len(PRINTED)
    block, promised = blocks[which], PRINTED[which]
    if "pgx" in block:
        pytest.importorskip("pgx", reason="pgx is a test dependency (the 'test' extra)")
    assert promised in block
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(block, str(PAGE), "exec"), {})
    assert out.getvalue().strip() == promised
