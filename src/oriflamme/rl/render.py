"""A plain-text picture of a table as a spectator sees it, for the environments' ``ansi`` render mode."""

from __future__ import annotations

from ..engine.game import Game


def render_table(game: Game) -> str:
    """Round, scores, the queue (public faces only, hidden cards as ``?``) and who decides what."""
    view = game.view(None)
    lines = [
        f"round {view.round}/{view.rounds}, {view.phase}",
        "scores: " + "  ".join(f"p{s + 1} {score}" for s, score in enumerate(view.scores)),
    ]
    cells = []
    for j, stack in enumerate(view.queue, start=1):
        parts = []
        for card in stack:
            face = card.kind if card.kind is not None else "?"
            extra = f"+{card.ip}" if card.ip else ""
            parts.append(f"p{card.controller + 1}:{face}{extra}")
        cells.append(f"{j}.{'/'.join(parts)}")
    lines.append("queue: " + (" ".join(cells) if cells else "(empty)"))
    if view.decision is not None:
        lines.append(f"to move: p{view.to_move + 1} ({view.decision})")
    elif view.winners:
        lines.append("winners: " + ", ".join(f"p{s + 1}" for s in view.winners))
    return "\n".join(lines)
