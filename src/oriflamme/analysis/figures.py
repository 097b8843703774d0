"""The figures of a balance study, drawn with matplotlib from the study's summary alone.

Each function takes the summary (the content of ``summary.json``) and returns
a :class:`matplotlib.figure.Figure`, so a report can be redrawn from the JSON
without the games. No pyplot: figures are plain objects, drawn off screen.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable, Sequence
from typing import Any

from matplotlib.axes import Axes
from matplotlib.figure import Figure

#: A colour-blind-safe palette (Okabe and Ito).
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000")
STRONG, WEAK = PALETTE[0], PALETTE[5]


def _err(entry: dict[str, Any]) -> tuple[float, float, float]:
    """Mean and the distances down and up to its interval (0 when there is none)."""
    mean = entry.get("mean")
    lo, hi = entry.get("ci95", [None, None])
    if mean is None:
        return (math.nan, 0.0, 0.0)
    return (mean, mean - lo if lo is not None else 0.0, hi - mean if hi is not None else 0.0)


def _grid(
    studies: Sequence[dict[str, Any]], width: float = 3.2, height: float = 2.6
) -> tuple[Figure, dict[int, Axes]]:
    """A figure with one panel per study: a row per deck, a column per player count."""
    decks = sorted({s["deck"] for s in studies})
    counts = sorted({s["players"] for s in studies})
    fig = Figure(figsize=(0.6 + width * len(counts), 0.8 + height * len(decks)), layout="constrained")
    axes = fig.subplots(len(decks), len(counts), squeeze=False)
    panels = {}
    for i, s in enumerate(studies):
        panels[i] = axes[decks.index(s["deck"])][counts.index(s["players"])]
    used = set(map(id, panels.values()))
    for row in axes:
        for ax in row:
            if id(ax) not in used:
                ax.set_visible(False)
    return fig, panels


def seat_advantage(summary: dict[str, Any]) -> Figure:
    """Win share by seat (p1 starts round 1), per study, with 95% intervals and the fair 1/n line."""
    studies = summary["studies"]
    fig, panels = _grid(studies)
    for i, s in enumerate(studies):
        ax = panels[i]
        n = s["players"]
        values = [_err(e) for e in s["seat_win_share"]]
        ax.bar(
            range(1, n + 1),
            [v[0] for v in values],
            yerr=[[v[1] for v in values], [v[2] for v in values]],
            color=[PALETTE[0]] + [PALETTE[4]] * (n - 1),
            capsize=3,
        )
        ax.axhline(1 / n, color="black", linestyle="--", linewidth=1)
        ax.set_xticks(range(1, n + 1), [f"p{k}" for k in range(1, n + 1)])
        ax.set_ylim(0, max(1 / n * 2.2, max((v[0] + v[2] for v in values), default=0) * 1.1))
        ax.set_title(f"{s['deck']}, {n} players ({s['games']} games)", fontsize=9)
        ax.set_ylabel("win share")
    fig.suptitle("Win share by seat (p1 is round 1's first player; dashed: fair share)")
    return fig


def _kind_panel(
    ax: Axes, kinds: dict[str, Any], key: str, label: str, *, centre: float | None = None
) -> None:
    names = [
        k
        for k in kinds
        if kinds[k][key].get("mean") is not None or kinds[k][key].get("difference") is not None
    ]
    values = []
    for k in names:
        e = kinds[k][key]
        if "difference" in e:
            e = {"mean": e["difference"], "ci95": e["ci95"]}
        values.append(_err(e))
    order = sorted(range(len(names)), key=lambda i: values[i][0] if not math.isnan(values[i][0]) else -1e9)
    ax.barh(
        range(len(order)),
        [values[i][0] for i in order],
        xerr=[[values[i][1] for i in order], [values[i][2] for i in order]],
        color=PALETTE[0],
        capsize=2,
    )
    ax.set_yticks(range(len(order)), [names[i] for i in order], fontsize=8)
    if centre is not None:
        ax.axvline(centre, color="black", linestyle="--", linewidth=1)
    ax.set_xlabel(label, fontsize=9)


def card_strength(summary: dict[str, Any]) -> Figure:
    """Per kind: win share of seats dealt it against seats that set it aside; IP; eliminations."""
    kinds = summary["kinds"]
    fig = Figure(figsize=(15, 0.8 + 0.28 * max(4, len(kinds))), layout="constrained")
    a, b, c, d = fig.subplots(1, 4)
    _kind_panel(
        a, kinds, "hand_effect", "dealt minus set aside\n(win share x players; 0: no effect)", centre=0.0
    )
    _kind_panel(b, kinds, "ip_gained_per_game", "IP gained through it, per game")
    _kind_panel(c, kinds, "eliminations_made_per_game", "eliminations it made, per game")
    _kind_panel(d, kinds, "eliminations_suffered_per_game", "times it was eliminated, per game")
    fig.suptitle("Card kinds (games whose recipe has the kind; 95% intervals)")
    return fig


def recipe_effect(summary: dict[str, Any]) -> Figure | None:
    """Per kind, in random recipes: the first player's relative win share with the kind in the recipe minus without."""
    kinds = {
        k: v
        for k, v in summary["kinds"].items()
        if v["recipe_effect_on_first_player"]["difference"] is not None
    }
    if not kinds:
        return None
    fig = Figure(figsize=(6, 0.8 + 0.28 * max(4, len(kinds))), layout="constrained")
    ax = fig.subplots()
    _kind_panel(
        ax,
        kinds,
        "recipe_effect_on_first_player",
        "first player's win share x players:\nwith the kind minus without",
        centre=0.0,
    )
    fig.suptitle("Seat balance by kind in random recipes")
    return fig


def _wide(studies: Sequence[dict[str, Any]], rows: int) -> tuple[float, float]:
    """The size of a figure of ``rows`` panels one above the other, a column per study."""
    return (max(7.0, 1.5 + 0.55 * len(studies)), 0.6 + 3.0 * rows)


def _boxes(ax: Axes, studies: Sequence[dict[str, Any]], key: str, label: str) -> None:
    stats = []
    for s in studies:
        d = s[key]
        if not d.get("n"):
            continue
        q1, med, q3 = d["quartiles"]
        stats.append(
            {
                "label": f"{s['players']}p {s['deck']}",
                "med": med,
                "q1": q1,
                "q3": q3,
                "whislo": d["min"],
                "whishi": d["max"],
                "mean": d["mean"],
            }
        )
    if stats:
        ax.bxp(stats, showmeans=True, showfliers=False)
        ax.tick_params(axis="x", labelrotation=45, labelsize=8)
    ax.set_ylabel(label)


def game_length(summary: dict[str, Any]) -> Figure:
    """Decisions per game and final scores, per study (box: quartiles; whiskers: min and max; triangle: mean)."""
    studies = summary["studies"]
    fig = Figure(figsize=_wide(studies, rows=3), layout="constrained")
    a, b, c = fig.subplots(3, 1)
    _boxes(a, studies, "decisions", "decisions per game")
    _boxes(b, studies, "final_score", "final score (every seat)")
    _boxes(c, studies, "winner_score", "winner's score")
    fig.suptitle("Game length and scores")
    return fig


def score_by_round(summary: dict[str, Any]) -> Figure:
    """Mean score at the end of each round: the eventual winners against the others."""
    studies = summary["studies"]
    fig, panels = _grid(studies)
    for i, s in enumerate(studies):
        ax = panels[i]
        for name, colour in (("winners", STRONG), ("others", WEAK)):
            values = [_err(e) for e in s["score_by_round"][name]]
            rounds = range(1, len(values) + 1)
            ax.plot(rounds, [v[0] for v in values], color=colour, marker="o", markersize=3, label=name)
            ax.fill_between(
                rounds, [v[0] - v[1] for v in values], [v[0] + v[2] for v in values], color=colour, alpha=0.2
            )
        ax.set_title(f"{s['deck']}, {s['players']} players", fontsize=9)
        ax.set_xlabel("round")
        ax.set_ylabel("score")
        ax.legend(fontsize=7)
    fig.suptitle("Score at the end of each round: eventual winners and the others")
    return fig


def _study_bars(
    ax: Axes,
    studies: Sequence[dict[str, Any]],
    entries: Sequence[dict[str, Any] | None],
    label: str,
    colour: str,
) -> None:
    names = [f"{s['players']}p {s['deck']}" for s in studies]
    values = [_err(e) if e else (math.nan, 0.0, 0.0) for e in entries]
    ax.bar(
        range(len(names)),
        [v[0] for v in values],
        yerr=[[v[1] for v in values], [v[2] for v in values]],
        color=colour,
        capsize=3,
    )
    ax.set_xticks(range(len(names)), names, rotation=45, fontsize=8)
    ax.set_ylabel(label)


def drama(summary: dict[str, Any]) -> Figure:
    """Lead changes per game, and how often the sole leader before the last round fails to win."""
    studies = summary["studies"]
    fig = Figure(figsize=_wide(studies, rows=2), layout="constrained")
    a, b = fig.subplots(2, 1)
    _study_bars(a, studies, [s["lead_changes"] for s in studies], "lead changes per game", PALETTE[0])
    _study_bars(
        b,
        studies,
        [s["late_leader_lost"] for s in studies],
        "share of games the late leader loses",
        PALETTE[1],
    )
    fig.suptitle("Drama: how often the lead changes hands")
    return fig


def balance(summary: dict[str, Any]) -> Figure:
    """Per study: the spread of seat win shares (best seat minus worst) and, with mixed bots, the skill gap."""
    studies = summary["studies"]
    fig = Figure(figsize=_wide(studies, rows=2), layout="constrained")
    a, b = fig.subplots(2, 1)
    _study_bars(
        a,
        studies,
        [{"mean": s["seat_spread"]} if s["seat_spread"] is not None else None for s in studies],
        "best seat's win share minus worst's",
        PALETTE[2],
    )
    gaps = [
        {"mean": g["difference"], "ci95": g["ci95"]}
        if (g := s["skill_gap"]) and g["difference"] is not None
        else None
        for s in studies
    ]
    _study_bars(b, studies, gaps, "skill gap: strong bot's win share\nminus weak bot's", PALETTE[3])
    fig.suptitle("Seat spread and skill gap per study")
    return fig


#: The figures of a report, by file name, in the order the report shows them.
FIGURES: dict[str, Callable[[dict[str, Any]], Figure | None]] = {
    "seat-advantage": seat_advantage,
    "cards": card_strength,
    "recipe-effect": recipe_effect,
    "game-length": game_length,
    "score-by-round": score_by_round,
    "drama": drama,
    "balance": balance,
}


def png(fig: Figure) -> bytes:
    """The figure as PNG bytes."""
    out = io.BytesIO()
    fig.savefig(out, format="png", dpi=100)
    return out.getvalue()
