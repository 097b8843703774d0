"""Writing a file whole: the one helper every command that writes results shares."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

__all__ = ["write_whole"]


def write_whole(path: Path, write: Callable[[Path], object]) -> None:
    """``write`` to a temporary file beside ``path``, then rename it to ``path``: a crash or a stop
    never leaves half a file where a whole one was (a checkpoint, a network, a result).

    The temporary name ends with ``path``'s own suffix, since some writers (numpy's ``savez``)
    add theirs to a name without it.
    """
    tmp = path.with_name(f"{path.name}.tmp{path.suffix}")
    try:
        write(tmp)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
