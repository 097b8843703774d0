"""``report.md`` and ``report.html``: a study's summary as text, tables and figures.

Both are built from the same blocks (headings, paragraphs, tables, figures)
and from the summary alone. The HTML file is self-contained (figures inline
as PNG data), for sending or publishing as one file; the Markdown file
points at the figures next to it (``figures/*.png``). Neither holds times or
worker counts, so a seed gives the same report whatever ran it.
"""

from __future__ import annotations

import base64
import html
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

#: The figures a report can show, in order (drawn by :data:`oriflamme.analysis.figures.FIGURES`).
FIGURE_NAMES = (
    "seat-advantage",
    "cards",
    "recipe-effect",
    "game-length",
    "score-by-round",
    "drama",
    "balance",
)

POLICY_NOTE = (
    "Every figure here describes games between the bots named above, not between people. Seat advantage, "
    "card strength and game length all depend on how the bots play: a card a bot misuses looks weak, and "
    "a bot that cannot bluff makes hidden cards easier to read than at a real table. A finding that matters "
    "should be checked with a stronger bot before it is believed."
)


@dataclass(frozen=True, slots=True)
class Heading:
    text: str


@dataclass(frozen=True, slots=True)
class Paragraph:
    text: str


@dataclass(frozen=True, slots=True)
class TableBlock:
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


@dataclass(frozen=True, slots=True)
class FigureBlock:
    name: str
    caption: str


Block = Heading | Paragraph | TableBlock | FigureBlock


def pct(entry: dict[str, Any] | None) -> str:
    """``41.2% [37.1, 45.4]`` from a share with its interval."""
    if not entry or entry.get("mean") is None:
        return "–"
    lo, hi = entry["ci95"]
    if lo is None:
        return f"{100 * entry['mean']:.1f}%"
    return f"{100 * entry['mean']:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"


def num(entry: dict[str, Any] | None, digits: int = 2) -> str:
    """``1.23 [1.10, 1.36]`` from a mean or a difference with its interval."""
    if not entry:
        return "–"
    value = entry.get("mean", entry.get("difference"))
    if value is None:
        return "–"
    lo, hi = entry.get("ci95", [None, None])
    if lo is None or hi is None:
        return _fixed(value, digits)
    return f"{_fixed(value, digits)} [{_fixed(lo, digits)}, {_fixed(hi, digits)}]"


def _fixed(x: float, digits: int) -> str:
    """``x`` to ``digits`` places, never ``-0.00``."""
    text = f"{x:.{digits}f}"
    return text[1:] if text.startswith("-") and not text.strip("-0.") else text


def blocks(summary: dict[str, Any], figures: Sequence[str]) -> list[Block]:
    """The report's content; ``figures`` names the figures that were drawn."""
    run = summary["run"]
    studies = summary["studies"]
    kinds = summary["kinds"]
    out: list[Block] = [Heading("Oriflamme balance study")]
    out.append(
        Paragraph(
            f"{run['games']:,} games in {len(studies)} studies (player count and deck); bots: "
            f"{', '.join(run['bots'])}; seed {run['seed']}; oriflamme {run['version']}. "
            "Intervals are 95%: Wilson intervals for win shares, normal intervals for means and differences."
        )
    )
    if run.get("interrupted"):
        out.append(Paragraph("This run was interrupted: the figures cover the games that finished."))
    if run.get("without_actions"):
        out.append(
            Paragraph(
                f"{run['without_actions']:,} games came from records of an earlier version, which keep outcomes "
                "but not actions: they count for seat and bot win shares and scores only."
            )
        )
    out.append(Paragraph(POLICY_NOTE))

    out.append(Heading("Seat advantage"))
    width = max((s["players"] for s in studies), default=0)
    out.append(
        Paragraph(
            "Win share by seat. p1 plays first in round 1 (the first player moves one seat on each round); "
            "a fair game gives every seat 1/n. A tie for first counts 1/k to each of the k tied."
        )
    )
    out.append(
        TableBlock(
            ("study", "games", "fair", *(f"p{k}" for k in range(1, width + 1))),
            tuple(
                (
                    f"{s['players']}p {s['deck']}",
                    f"{s['games']:,}",
                    f"{100 * s['fair_share']:.1f}%",
                    *(pct(e) for e in s["seat_win_share"]),
                    *("" for _ in range(width - s["players"])),
                )
                for s in studies
            ),
        )
    )
    if "seat-advantage" in figures:
        out.append(FigureBlock("seat-advantage", "Win share by seat, with the fair share dashed."))

    if kinds:
        out.append(Heading("Card kinds"))
        out.append(
            Paragraph(
                "The deal sets some cards aside at random, so comparing the seats dealt a kind with the seats "
                "that set it aside measures what holding it is worth. Win shares are multiplied by the player "
                "count so that 1 is fair at any table size; the effect is dealt minus set aside (0: none). "
                "The Twin is never set aside, so it has no such figure. IP and eliminations are per game whose "
                "recipe has the kind, summed over seats."
            )
        )
        ranked = sorted(kinds, key=lambda k: _descending(kinds[k]["hand_effect"]["difference"]))
        out.append(
            TableBlock(
                (
                    "kind",
                    "games",
                    "dealt minus set aside",
                    "IP gained",
                    "IP taken on reveal",
                    "eliminations made",
                    "eliminated",
                ),
                tuple(
                    (
                        k,
                        f"{kinds[k]['games']:,}",
                        num(kinds[k]["hand_effect"]),
                        num(kinds[k]["ip_gained_per_game"]),
                        num(kinds[k]["ip_taken_on_reveal_per_game"]),
                        num(kinds[k]["eliminations_made_per_game"]),
                        num(kinds[k]["eliminations_suffered_per_game"]),
                    )
                    for k in ranked
                ),
            )
        )
        if "cards" in figures:
            out.append(
                FigureBlock("cards", "Per kind: the value of being dealt it, IP gained, eliminations.")
            )
        if "recipe-effect" in figures:
            out.append(
                Paragraph(
                    "In random recipes a kind is in some games and not others: the difference in the first "
                    "player's win share (times the player count) says whether the kind shifts seat balance."
                )
            )
            out.append(
                FigureBlock(
                    "recipe-effect", "First player's relative win share, kind in the recipe minus not."
                )
            )

    out.append(Heading("Game length and scores"))
    out.append(
        TableBlock(
            ("study", "decisions (mean, quartiles)", "rounds", "final score", "winner's score"),
            tuple(
                (
                    f"{s['players']}p {s['deck']}",
                    _dist(s["decisions"]),
                    _dist(s["rounds"], quartiles=False),
                    _dist(s["final_score"]),
                    _dist(s["winner_score"]),
                )
                for s in studies
            ),
        )
    )
    if "game-length" in figures:
        out.append(FigureBlock("game-length", "Decisions per game and scores."))
    if "score-by-round" in figures:
        out.append(
            FigureBlock("score-by-round", "Mean score after each round, eventual winners against the others.")
        )

    out.append(Heading("Drama"))
    out.append(
        Paragraph(
            "A lead change is a round after which nobody who led before leads. The late leader is the sole "
            "leader after the second-to-last round (round 5 of 6); how often they fail to win says how "
            "open the last round is."
        )
    )
    out.append(
        TableBlock(
            ("study", "lead changes per game", "late leader loses"),
            tuple(
                (f"{s['players']}p {s['deck']}", num(s["lead_changes"]), pct(s["late_leader_lost"]))
                for s in studies
            ),
        )
    )
    if "drama" in figures:
        out.append(FigureBlock("drama", "Lead changes and the late leader's fate."))

    out.append(Heading("Spread and skill"))
    out.append(
        Paragraph(
            "Seat spread: the best seat's win share minus the worst's. Skill gap (with different bots at the "
            "table): the strongest bot's win share minus the weakest's; the larger, the more the game rewards "
            "better play."
        )
    )
    out.append(
        TableBlock(
            ("study", "recipes", "seat spread", "win share by bot", "skill gap"),
            tuple(
                (
                    f"{s['players']}p {s['deck']}",
                    f"{s['recipes']:,}" if s["recipes"] <= 1000 else "over 1,000",
                    "–" if s["seat_spread"] is None else f"{100 * s['seat_spread']:.1f} points",
                    "; ".join(f"{spec} {pct(e)}" for spec, e in s["spec_win_share"].items())
                    if len(s["spec_win_share"]) > 1
                    else f"{next(iter(s['spec_win_share']), '–')} at every seat",
                    _gap(s["skill_gap"]),
                )
                for s in studies
            ),
        )
    )
    if "balance" in figures:
        out.append(FigureBlock("balance", "Seat spread and skill gap per study."))
    out.append(Heading("Reproduce"))
    out.append(Paragraph(f"`{run['command']}`"))
    return out


def _descending(value: float | None) -> float:
    """Sort key: larger values first, missing ones last (0.0 is a value, not a missing one)."""
    return math.inf if value is None else -value


def _dist(d: dict[str, Any], *, quartiles: bool = True) -> str:
    if not d.get("n"):
        return "–"
    if not quartiles:
        return f"{d['mean']:.2f}"
    q1, med, q3 = d["quartiles"]
    return f"{d['mean']:.1f} ({q1}, {med}, {q3})"


def _gap(gap: dict[str, Any] | None) -> str:
    if not gap or gap["difference"] is None:
        return "–"
    lo, hi = gap["ci95"]
    return f"{gap['strong']} over {gap['weak']}: {100 * gap['difference']:.1f} points [{100 * lo:.1f}, {100 * hi:.1f}]"


def to_markdown(content: Sequence[Block]) -> str:
    """Markdown, with figures as links to ``figures/NAME.png``."""
    lines: list[str] = []
    first = True
    for b in content:
        if isinstance(b, Heading):
            lines += [("# " if first else "## ") + b.text, ""]
            first = False
        elif isinstance(b, Paragraph):
            lines += [b.text, ""]
        elif isinstance(b, TableBlock):
            lines.append("| " + " | ".join(b.header) + " |")
            lines.append("|" + "|".join("---" for _ in b.header) + "|")
            lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in b.rows]
            lines.append("")
        else:
            lines += [f"![{b.caption}](figures/{b.name}.png)", ""]
    return "\n".join(lines)


_CSS = """
body{font-family:system-ui,sans-serif;max-width:72rem;margin:2rem auto;padding:0 1rem;color:#222;line-height:1.45}
table{border-collapse:collapse;margin:1rem 0;font-size:.9rem}th,td{border:1px solid #ccc;padding:.25rem .5rem;text-align:right}
th:first-child,td:first-child{text-align:left}th{background:#f2f2f2}figure{margin:1rem 0}img{max-width:100%}
figcaption{font-size:.9rem;color:#555}code{background:#f4f4f4;padding:.1rem .3rem}
"""


def to_html(content: Sequence[Block], images: dict[str, bytes], lang: str = "en") -> str:
    """One self-contained HTML page: figures inline as PNG data."""
    parts = [f'<!doctype html>\n<html lang="{lang}"><head><meta charset="utf-8">']
    title = next((b.text for b in content if isinstance(b, Heading)), "Report")
    parts.append(f"<title>{html.escape(title)}</title><style>{_CSS}</style></head><body>")
    first = True
    for b in content:
        if isinstance(b, Heading):
            tag = "h1" if first else "h2"
            first = False
            parts.append(f"<{tag}>{html.escape(b.text)}</{tag}>")
        elif isinstance(b, Paragraph):
            text = html.escape(b.text)
            if text.startswith("`") and text.endswith("`"):
                text = f"<code>{text[1:-1]}</code>"
            parts.append(f"<p>{text}</p>")
        elif isinstance(b, TableBlock):
            head = "".join(f"<th>{html.escape(h)}</th>" for h in b.header)
            body = "".join(
                "<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in b.rows
            )
            parts.append(f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")
        elif b.name in images:
            data = base64.b64encode(images[b.name]).decode()
            parts.append(
                f'<figure><img src="data:image/png;base64,{data}" alt="{html.escape(b.caption)}">'
                f"<figcaption>{html.escape(b.caption)}</figcaption></figure>"
            )
    parts.append("</body></html>\n")
    return "\n".join(parts)


__all__ = ["FIGURE_NAMES", "POLICY_NOTE", "blocks", "num", "pct", "to_html", "to_markdown"]
