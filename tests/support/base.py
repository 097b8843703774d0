"""Scenario helpers for the base-game tests (see :mod:`support.scenario`)."""

from __future__ import annotations

from .scenario import B, G, R, Y, event_names, options, pile, play, table, waiting_for

__all__ = ["B", "G", "R", "Y", "event_names", "options", "pile", "play", "table", "waiting_for"]
