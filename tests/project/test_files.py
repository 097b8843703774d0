"""``files.write_whole``: a file is written whole or not at all."""

from __future__ import annotations

from pathlib import Path

import pytest

from oriflamme.files import write_whole


def test_a_write_replaces_the_file_and_leaves_nothing_beside_it(tmp_path: Path) -> None:
    target = tmp_path / "result.json"
    target.write_text("old")
    write_whole(target, lambda tmp: tmp.write_text("new"))
    assert target.read_text() == "new"
    assert [p.name for p in tmp_path.iterdir()] == ["result.json"]


def test_a_failed_write_keeps_the_old_file_and_removes_its_part(tmp_path: Path) -> None:
    target = tmp_path / "weights.npz"
    target.write_text("whole")

    def fails(tmp: Path) -> None:
        assert tmp.suffix == ".npz" and tmp != target  # numpy adds .npz to a name without it
        tmp.write_text("half")
        raise OSError("disk full")

    with pytest.raises(OSError, match="disk full"):
        write_whole(target, fails)
    assert target.read_text() == "whole"
    assert [p.name for p in tmp_path.iterdir()] == ["weights.npz"]
