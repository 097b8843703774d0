"""Scenario helpers for the Alliance, recipe and 2-player tests (see :mod:`support.scenario`)."""

from __future__ import annotations

from functools import partial

from oriflamme import Game

from . import scenario
from .scenario import hand_slugs, kept_slugs, play, queue

__all__ = ["VERDICTS", "Game", "build", "discards", "hand_slugs", "kept_slugs", "legal", "play", "queue"]

build = partial(scenario.table, deck="alliance")
legal = scenario.options
discards = scenario.pile

VERDICTS = 5
