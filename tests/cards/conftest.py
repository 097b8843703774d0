"""The example card, registered for one test at a time."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from support.designer import example_module

from oriflamme.designer import Card, registered


@pytest.fixture
def herald() -> Iterator[Card]:
    """The Herald, loaded for the test and withdrawn after it."""
    with registered(*example_module().CARDS) as (card,):
        yield card
