"""The example designer's card (examples/cards/herald.py), for the tests that load it."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "cards" / "herald.py"
#: The base box with the Herald in the Conspiracy's place.
HERALD_DECK = "archer,soldier,spy,heir,shapeshifter,lord,assassination,royal-decree,ambush,herald"


def example_module() -> ModuleType:
    """A fresh copy of the example module (its Card object not registered yet)."""
    spec = importlib.util.spec_from_file_location("herald_example_for_tests", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
