"""Helpers shared by the tournament tests: stopping a run at a chosen game, and comparing results."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import oriflamme.tournament.runner as tournament
from oriflamme.tournament import GameRecord, TournamentConfig
from oriflamme.tournament.games import play_tournament_game


def interrupt_at(k: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Make the in-process game runner raise KeyboardInterrupt (Ctrl-C) when game k starts.

    The runner looks ``play_tournament_game`` up at call time for this purpose.
    """

    def stopped(config: TournamentConfig, index: int) -> GameRecord:
        if index == k:
            raise KeyboardInterrupt
        return play_tournament_game(config, index)

    monkeypatch.setattr(tournament, "play_tournament_game", stopped)


def without_run(data: dict[str, Any]) -> dict[str, Any]:
    """The JSON minus ``run`` (wall times, backend, worker count): what a seed must reproduce."""
    return {k: v for k, v in data.items() if k != "run"}


def heuristic_record(path: Path, games: int, deck: str = "base") -> Path:
    """A seeded tournament record at ``path`` of a heuristic bot against three random ones, as the
    fitting tools read (keeping the actions)."""
    subprocess.run(
        [sys.executable, "-m", "oriflamme", "tournament", "--bots", "heuristic,random,random,random",
         "--deck", deck, "-n", str(games), "--seed", "5", "--workers", "1", "--record", str(path), "--json"],
        check=True, capture_output=True,
    )  # fmt: skip
    return path
