"""Reading untrusted JSON values with a path for every error: the typed readers of save files.

Each reader returns the value typed, or raises :class:`~oriflamme.engine.errors.SaveFormatError`
naming where the problem is (``state.hands[1][2]: expected an integer, got null``) and never
anything else, whatever the input.
"""

from __future__ import annotations

import reprlib
from collections.abc import Mapping
from typing import NoReturn

from ..engine.cards import (
    SLUGS,
)
from ..engine.errors import SaveFormatError
from ..engine.game import Game

#: No game comes near this many IP; a bigger count is a corrupt file, and
#: refusing it keeps every number printable and JSON-writable.
MAX_COUNT = 10**6


def fail(path: str, problem: str) -> NoReturn:
    raise SaveFormatError(f"{path}: {problem}")


def type_name(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"a boolean ({show(value)})"
    if isinstance(value, int):
        return f"an integer ({show(value)})"
    if isinstance(value, float):
        return f"a number ({show(value)})"
    if isinstance(value, str):
        return f"a string ({show(value)})"
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, Mapping):
        return "an object"
    return f"a {type(value).__name__}"


_REPR = reprlib.Repr()
_REPR.maxstring = 40
_REPR.maxother = 40
_REPR.maxlist = 8
_REPR.maxlevel = 3


def show(value: object) -> str:
    """A short printable form of any value (never fails: huge ints and deep nests included)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int) and value.bit_length() > 64:
        return f"an integer of {value.bit_length()} bits"
    try:
        return _REPR.repr(value)
    except (ValueError, RecursionError):
        return f"<{type(value).__name__}>"


def card_name(g: Game, c: int) -> str:
    return f"{SLUGS[g.kind[c]]} of p{g.owner[c] + 1}"


def read_object(
    value: object, path: str, keys: tuple[str, ...], check_keys: bool = True
) -> dict[str, object]:
    if not isinstance(value, dict):
        fail(path, f"expected an object, got {type_name(value)}")
    if check_keys:
        for key in keys:
            if key not in value:
                fail(path, f"missing key {key!r}")
        for key in value:
            if key not in keys:
                fail(path, f"unexpected key {show(key)} (known: {', '.join(keys)})")
    return {k: v for k, v in value.items() if isinstance(k, str)}


def read_list(value: object, path: str, length: int | None = None) -> list[object]:
    if not isinstance(value, list):
        fail(path, f"expected a list, got {type_name(value)}")
    if length is not None and len(value) != length:
        fail(path, f"expected {length} entries, got {len(value)}")
    return value


def read_int(value: object, path: str, lo: int | None, hi: int | None) -> int:
    if type(value) is not int:
        fail(path, f"expected an integer, got {type_name(value)}")
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        fail(path, f"{show(value)} is out of range {lo}..{hi}")
    return value


def in_range(value: int, path: str, lo: int, hi: int, what: str) -> None:
    if not lo <= value <= hi:
        fail(path, f"expected {what} ({lo}..{hi}), got {show(value)}")


def read_ints(value: object, path: str, lo: int, hi: int, length: int | None = None) -> list[int]:
    return [read_int(v, f"{path}[{i}]", lo, hi) for i, v in enumerate(read_list(value, path, length))]


def read_bool(value: object, path: str) -> bool:
    if type(value) is not bool:
        fail(path, f"expected true or false, got {type_name(value)}")
    return value


def read_bools(value: object, path: str, length: int) -> list[bool]:
    return [read_bool(v, f"{path}[{i}]") for i, v in enumerate(read_list(value, path, length))]


def read_name(value: object, path: str, names: tuple[str, ...]) -> int:
    if not isinstance(value, str) or value not in names:
        fail(path, f"expected one of {', '.join(names)}; got {type_name(value)}")
    return names.index(value)
