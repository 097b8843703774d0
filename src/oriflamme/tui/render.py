"""Rich renderables of the table, built from a :class:`~oriflamme.engine.view.SeatView` only.

Everything drawn here comes from the view of the seat looking at the screen,
so the renderer cannot show what that seat may not know. The layout is a
column of short blocks (header, queue, players, own cards) that wraps to the
console width and stays readable at 80 columns: the queue is a flow of cells
in resolution order, each with an arrow towards the next one.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.padding import Padding
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..engine.cards import IS_CHARACTER, KIND_BY_SLUG, TWIN
from ..engine.view import CardView, SeatView
from ..i18n import Translator

#: One colour per family, seat order (p1 red, p2 blue, ...), as in the boxes.
SEAT_COLORS: tuple[str, ...] = ("red", "bright_blue", "green", "yellow", "magenta")
_PLAYER = re.compile(r"\bp([1-5])\b")


def seat_style(seat: int) -> str:
    return f"bold {SEAT_COLORS[seat % len(SEAT_COLORS)]}"


def player_text(t: Translator, seat: int) -> Text:
    return Text(t.player(seat), style=seat_style(seat))


def colour_players(line: str) -> Text:
    """A narrated line with every player label (``p1`` .. ``p5``) in its family colour."""
    text = Text(line)
    for m in _PLAYER.finditer(line):
        text.stylize(seat_style(int(m.group(1)) - 1), m.start(), m.end())
    return text


def card_name(t: Translator, cv: CardView) -> str:
    return t.card(cv.kind) if cv.kind is not None else t("ui.face_down_card")


def position_label(t: Translator, view: SeatView, i: int, numbered: bool = True) -> str:
    """One queue position in plain words, for menus: ``3: Soldier · p2 · 2 IP`` (``numbered=False``:
    without the ``3:``, for a menu that numbers its options by position already)."""
    stack = view.queue[i]
    top = stack[-1]
    name = card_name(t, top)
    parts = [f"{i + 1}: {name}" if numbered else name, t.player(top.controller)]
    if top.kind is not None and not top.face_up:
        parts.append(t("ui.face_down"))
    if top.ip:
        parts.append(t.ip(top.ip))
    if top.controller != top.owner:
        parts.append(t("ui.bribed_from", player=t.player(top.owner)))
    if top.verdict:
        parts.append(t("ui.verdict"))
    if len(stack) > 1:
        parts.append(t("ui.stack", n=len(stack)))
    return " · ".join(parts)


class Flow:
    """Cells laid out like words: as many per line as fit the width, in order, never cut apart.

    (Wrapping one long Text would break a cell at its inner spaces.)
    """

    def __init__(self, cells: Sequence[Text], gap: int = 2) -> None:
        self.cells = cells
        self.gap = gap

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = options.max_width
        line = Text()
        for cell in self.cells:
            if line.cell_len and line.cell_len + self.gap + cell.cell_len > width:
                yield line
                line = Text()
            elif line.cell_len:
                line.append(" " * self.gap)
            line.append_text(cell)
        yield line


def _queue_cell(t: Translator, view: SeatView, i: int, last: bool) -> Text:
    stack = view.queue[i]
    top = stack[-1]
    resolving = view.phase == "resolve" and i == view.pointer
    cell = Text()
    cell.append("▶" if resolving else " ", style="bold reverse" if resolving else "")
    cell.append(f"{i + 1} ", style="dim")
    owner_style = seat_style(top.controller)
    if top.face_up:
        cell.append(t.card(top.kind or ""), style=owner_style)
    elif top.kind is not None:
        # The seat's own face-down card: it knows the name, the others do not.
        cell.append("▒", style=owner_style)
        cell.append(t.card(top.kind), style=f"{owner_style} italic")
    else:
        cell.append("▒▒▒", style=owner_style)
    cell.append(f" {t.player(top.controller)}", style=owner_style)
    if top.ip:
        cell.append(f" +{top.ip}", style="bold")
    if len(stack) > 1:
        cell.append(f" ×{len(stack)}", style="cyan")
    if top.verdict:
        cell.append(" ⚖", style="bold")
    if top.bribed_by is not None:
        cell.append(f" ${t.player(top.owner)}", style=seat_style(top.owner))
    if top.asleep:
        cell.append(" z", style="dim")
    if not last:
        cell.append(" →", style="dim")
    return cell


def render_queue(t: Translator, view: SeatView) -> RenderableType:
    """The queue in resolution order, wrapped to the width, with the resolving position marked."""
    title = Text(t("ui.queue_title", n=len(view.queue)), style="bold")
    if not view.queue:
        return Group(title, Text("  " + t("ui.queue_empty"), style="dim"))
    cells = [_queue_cell(t, view, i, i == len(view.queue) - 1) for i in range(len(view.queue))]
    return Group(title, Padding(Flow(cells), (0, 0, 0, 1)))


def _kept_text(t: Translator, cards: Sequence[CardView]) -> str:
    out = []
    for cv in cards:
        name = card_name(t, cv)
        out.append(f"{name} ({cv.ip})" if cv.ip else name)
    return ", ".join(out)


def render_players(t: Translator, view: SeatView, bots: Mapping[int, str] | None = None) -> Table:
    """One row per player: IP, cards in hand, positions held, kept cards, discards.

    ``bots`` names the computer players' seats with their spec (``heuristic``, ``ismcts:normal``).
    """
    table = Table(box=None, padding=(0, 1), show_edge=False, expand=False, header_style="bold dim")
    table.add_column(t("ui.col.player"), no_wrap=True)
    table.add_column(t("ui.col.ip"), justify="right", no_wrap=True)
    table.add_column(t("ui.col.hand"), justify="right", no_wrap=True)
    table.add_column(t("ui.col.positions"), justify="right", no_wrap=True)
    table.add_column(t("ui.col.kept"))
    table.add_column(t("ui.col.discards"), ratio=1)
    for s in range(view.players):
        label = Text()
        label.append("▶" if s == view.to_move else " ", style="bold")
        label.append_text(player_text(t, s))
        if s == view.first:
            label.append(" ★", style="bold yellow")
        if s == view.seat:
            label.append(" " + t("ui.you"), style="bold")
        elif bots and s in bots:
            label.append(f" {bots[s]}", style="dim")
        positions = sum(1 for stack in view.queue if stack[-1].controller == s)
        hand = str(view.hand_counts[s])
        known = [card_name(t, cv) for cv in view.known_hands[s]]
        if known:
            hand += f" ({', '.join(known)})"
        table.add_row(
            label,
            str(view.scores[s]),
            hand,
            str(positions),
            _kept_text(t, view.kept[s]),
            Text(", ".join(card_name(t, cv) for cv in view.discards[s]), style="dim"),
        )
    return table


def render_header(t: Translator, view: SeatView) -> Text:
    header = Text()
    header.append(t("ui.round", round=view.round, rounds=view.rounds), style="bold")
    header.append(" · ")
    header.append(t("ui.first_player"))
    header.append(" ")
    header.append_text(player_text(t, view.first))
    header.append(" · ")
    header.append(t(f"ui.phase.{view.phase}"), style="italic")
    if "judge" in view.recipe:
        header.append(" · " + t("ui.verdict_pool", n=view.verdict_pool))
    return header


def render_own_cards(t: Translator, view: SeatView) -> RenderableType:
    """The viewing seat's hand, set-aside cards and waiting Twin; nothing for a spectator."""
    if view.seat is None:
        return Text()
    lines = []
    hand = Text()
    hand.append(t("ui.hand") + ": ", style="bold")
    hand.append(
        ", ".join(t.card(cv.kind or "") for cv in view.hand) or t("ui.none"), style=seat_style(view.seat)
    )
    lines.append(hand)
    aside = Text()
    aside.append(t("ui.aside") + ": ", style="bold dim")
    aside.append(", ".join(t.card(cv.kind or "") for cv in view.aside) or t("ui.none"), style="dim")
    twins = view.twins[view.seat]
    if twins:
        aside.append(" · " + t("ui.twin_waiting", name=t.card("twin")), style="dim")
    lines.append(aside)
    return Group(*lines)


def render_table(
    t: Translator, view: SeatView, bots: Mapping[int, str] | None = None, compact: bool = False
) -> RenderableType:
    """The whole table as ``view.seat`` sees it (``bots``: the computer players' specs by seat).

    ``compact`` drops the blank lines between the blocks, for a screen too short for them
    (five players at 24 rows).
    """
    blocks = [
        render_header(t, view),
        render_queue(t, view),
        render_players(t, view, bots),
        render_own_cards(t, view),
    ]
    if compact:
        return Group(*blocks)
    spaced: list[RenderableType] = [blocks[0]]
    for block in blocks[1:]:
        spaced += [Text(), block]
    return Group(*spaced)


def render_log(t: Translator, lines: Sequence[str], limit: int) -> RenderableType:
    """Every narrated line when they fit in ``limit`` lines (title included), else the last ones."""
    if not lines:
        return Text()
    shown = (
        list(lines) if len(lines) < limit else list(lines[-(limit - 2) :]) if limit > 2 else list(lines[-1:])
    )
    out: list[RenderableType] = [Text(t("ui.log_title"), style="bold")]
    hidden = len(lines) - len(shown)
    if hidden:
        out.append(Text("  " + t("ui.log_more", n=hidden), style="dim"))
    out.extend(Padding(colour_players(line), (0, 0, 0, 2)) for line in shown)
    return Group(*out)


def render_card_help(t: Translator, slug: str, schemer_gain: int = 1) -> Panel:
    """A card's name, type and ability, in the chosen language."""
    kind = KIND_BY_SLUG[slug]
    kind_name = t("card.type.character" if IS_CHARACTER[kind] else "card.type.intrigue")
    body = Text()
    body.append(kind_name, style="italic")
    if kind == TWIN:
        body.append(" · " + t("ui.twin_note"), style="italic dim")
    body.append("\n")
    body.append(t.card_text(slug, schemer_gain))
    return Panel(body, title=Text(t.card(slug), style="bold"), title_align="left", expand=False)


def render_rules(t: Translator) -> Panel:
    return Panel(Text(t("rules.summary")), title=Text(t("rules.title"), style="bold"), title_align="left")


__all__ = [
    "SEAT_COLORS",
    "card_name",
    "colour_players",
    "player_text",
    "position_label",
    "render_card_help",
    "render_header",
    "render_log",
    "render_own_cards",
    "render_players",
    "render_queue",
    "render_rules",
    "render_table",
    "seat_style",
]
