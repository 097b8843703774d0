"""The learning curve of a self-play run, drawn from its ``log.jsonl`` alone (``oriflamme selfplay --plot``).

One line per gauntlet opponent: the network's win share at each evaluation,
with its 95% Wilson interval, against the games the run had played, and the
share a bot no better than its opponents would get. No pyplot: the figure is
a plain object, drawn off screen, as :mod:`.figures` draws a study's.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from matplotlib.figure import Figure

from .figures import PALETTE

__all__ = ["learning_curve", "read_log"]


def read_log(path: Path) -> list[dict[str, Any]]:
    """The records of a run's log; ValueError names the first line that is not one."""
    records = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        try:
            record = json.loads(line)
        except ValueError:
            raise ValueError(f"{path}, line {number}: not a JSON record") from None
        if not isinstance(record, dict):
            raise ValueError(f"{path}, line {number}: not a JSON object")
        records.append(record)
    return records


def learning_curve(records: list[dict[str, Any]]) -> Figure:
    """Win share against each gauntlet opponent by games played; ValueError if nothing was evaluated."""
    games_at: dict[int, int] = {r["iteration"]: r["games"] for r in records if "iteration" in r}
    evaluations = [r for r in records if "evaluation" in r and r.get("gauntlet")]
    if not evaluations:
        raise ValueError("the log has no evaluation yet: nothing to draw")
    fig = Figure(figsize=(7.0, 4.2), layout="constrained")
    ax = fig.subplots()
    opponents = list(dict.fromkeys(row["opponent"] for e in evaluations for row in e["gauntlet"]))
    players = evaluations[0]["gauntlet"][0]["players"]
    for colour, opponent in zip(PALETTE, opponents, strict=False):
        xs, ys, low, high = [], [], [], []
        for e in evaluations:
            for row in e["gauntlet"]:
                if row["opponent"] == opponent:
                    xs.append(games_at.get(e["evaluation"], 0))
                    ys.append(100 * row["win_share"])
                    low.append(100 * (row["win_share"] - row["win_share_ci95"][0]))
                    high.append(100 * (row["win_share_ci95"][1] - row["win_share"]))
        ax.errorbar(
            xs, ys, yerr=[low, high], color=colour, marker="o", capsize=3, label=f"against {opponent}"
        )
    ax.axhline(100 / players, color="#777777", linestyle="--", linewidth=1, label=f"chance (1 in {players})")
    ax.set_xlabel("self-play games played")
    ax.set_ylabel(f"win share, 1 against {players - 1} (%)")
    ax.set_ylim(0, 100)
    ax.grid(alpha=0.3)
    ax.legend(loc="upper left", fontsize="small")
    return fig
