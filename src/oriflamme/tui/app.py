"""The play loop of ``oriflamme play``: people and bots around one game in one terminal.

Seats are ``you`` (a person at this keyboard) or a bot spec
(:func:`oriflamme.bots.make_bot`). With several ``you`` seats the game is
hot-seat: whenever the keyboard must go to another person, the screen is
cleared and shows only "pass to pN" until that person presses Enter, so
nobody sees another player's hand or face-down cards.

What a person reads is redacted for them: the table is drawn from their
:class:`~oriflamme.engine.view.SeatView` and the log from events redacted for their
seat. Between two of their decisions the events are kept per person and
shown on their next screen. Bot moves are narrated as they happen (for the
only person at the table, or as public facts in hot-seat), ``delay`` seconds
apart so that a person can follow them.

Input never crashes the game: a line that is not a choice gets a message and
the prompt again; end of input or Ctrl-C leaves cleanly, saving first when a
save file is known.
"""

from __future__ import annotations

import os
import random
import shlex
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..bots import Bot, make_bot, parse_bot_spec
from ..bots.registry import BOT_KINDS
from ..bots.review import DEFAULT_LEVEL, review_played_game
from ..designer import card_files
from ..engine.cards import SLUGS
from ..engine.errors import OriflammeError, SetupError
from ..engine.events import Event
from ..engine.game import Game
from ..engine.seeds import derive_seed
from ..engine.takeback import Timeline
from ..engine.view import SeatView
from ..i18n import Translator
from ..notation import savefile
from .line_input import read_terminal_line
from .narrate import narrate_events
from .prompt import Command, Menu, build_menu, interpret
from .render import (
    colour_players,
    player_text,
    render_card_help,
    render_header,
    render_log,
    render_own_cards,
    render_players,
    render_queue,
    render_rules,
    render_table,
)
from .review import describer, past_events, render_review
from .words import words_for

HUMAN = "you"
#: The bot that fills seats not given: the strongest cheap one available.
DEFAULT_BOT = "heuristic" if "heuristic" in BOT_KINDS else "random"
#: Where ``save`` without a file name writes when no ``--save`` was given.
DEFAULT_SAVE = "oriflamme-save.json"


class QuitGame(Exception):
    """The person asked to stop (``quit``, end of input, Ctrl-C)."""


class _TakenBack(Exception):
    """A decision was taken back: ask the same seat again, from the restored game."""


def parse_seats(seats: str | None, players: int | None) -> list[str]:
    """``you,random,ismcts:normal`` -> one entry per seat (``you`` or a checked bot spec).

    Missing seats are filled with the default bot; without ``seats`` the first
    seat is a person. ``human`` is accepted for ``you``.
    """
    given = [s.strip().lower() for s in seats.split(",")] if seats else [HUMAN]
    if any(not s for s in given):
        raise SetupError(f"empty seat in {seats!r}; write e.g. you,random,random")
    count = players if players is not None else max(len(given), 4 if not seats else len(given))
    if not 2 <= count <= 5:
        raise SetupError(f"a game has 2 to 5 players, got {count}")
    if len(given) > count:
        raise SetupError(f"{len(given)} seats given for {count} players")
    out = []
    for spec in given + [DEFAULT_BOT] * (count - len(given)):
        if spec in (HUMAN, "human"):
            out.append(HUMAN)
        else:
            kind, level = parse_bot_spec(spec, custom=True)
            out.append(kind if level is None else f"{kind}:{level}")
    return out


def save_game(game: Game, path: str | os.PathLike[str], seats: Sequence[str] | None = None) -> None:
    """Write the save file atomically (a crash mid-write never leaves half a file).

    ``seats`` (``you`` or a bot spec per seat) lets ``--load`` seat the same people and bots.
    """
    target = Path(path)
    tmp = target.with_name(target.name + ".tmp")
    tmp.write_text(savefile.dumps(game, seats), encoding="utf-8")
    os.replace(tmp, target)


@dataclass
class PlayOptions:
    delay: float = 0.8
    save_path: str | None = None
    bot_seed: int = 0


class PlayApp:
    """One game between the seats, driven by lines of input."""

    def __init__(
        self,
        game: Game,
        seats: Sequence[str],
        t: Translator,
        console: Console,
        options: PlayOptions | None = None,
        read_line: Callable[[str], str] | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if len(seats) != game.players:
            raise SetupError(f"{game.players} players need {game.players} seats, got {len(seats)}")
        self.game = game
        self.seats = list(seats)
        self.t = t
        #: The commands in the players' language (English ones too).
        self.words = words_for(t.lang)
        self.console = console
        self.options = options or PlayOptions()
        self.save_path = self.options.save_path
        self.read_line = read_line or (lambda prompt: read_terminal_line(console, prompt))
        self.sleep = sleep
        self.humans = [s for s, spec in enumerate(seats) if spec == HUMAN]
        self.hotseat = len(self.humans) > 1
        #: Whose secrets the live narration may tell: the one person, or nobody's in hot-seat.
        self.live_seat: int | None = self.humans[0] if len(self.humans) == 1 else None
        self.bots: dict[int, Bot] = {
            s: make_bot(spec, derive_seed("play-bot", self.options.bot_seed, s))
            for s, spec in enumerate(seats)
            if spec != HUMAN
        }
        #: Events each person has not seen on their own screen yet.
        self.unseen: dict[int, list[Event]] = {s: list(game.events) for s in self.humans}
        #: The whole game's events (a resumed game's too, from its deal), for the log.
        self.history: list[Event] = past_events(game)
        self.last_human: int | None = None
        #: Every decision played here, for taking one back (engine.takeback decides when).
        self.timeline = Timeline()
        #: A line shown once under the table the next time it is drawn.
        self.notice: str | None = None
        #: The status line, when the screen is too short for it above the table: shown above the menu.
        self.status_below: Text | None = None
        #: Set when the people ask for another game at the end (the caller deals it).
        self.rematch = False

    # ------------------------------------------------------------ main loop

    def run(self) -> int:
        """Play to the end (or until the person quits); the exit code."""
        try:
            if not self.humans:
                self._print_lines(self.history, self.live_seat)
            while not self.game.is_over():
                seat = self.game.current_player()
                if seat in self.bots:
                    action = self._bot_action(seat)
                else:
                    action = self._human_action(seat)
                events = self.timeline.apply(self.game, action)
                self._record(events)
                if seat in self.bots or not self.hotseat:
                    self._print_lines(events, self.live_seat)
                if seat in self.bots and self.options.delay > 0:
                    self.sleep(self.options.delay)
                self._autosave()
            self._show_end()
            return 0
        except (QuitGame, EOFError, KeyboardInterrupt):
            self._quit()
            return 0

    def _record(self, events: list[Event]) -> None:
        self.history.extend(events)
        for s in self.humans:
            self.unseen[s].extend(events)

    def _print_lines(self, events: Sequence[Event], seat: int | None) -> None:
        for line in narrate_events(self.t, self.game, events, seat):
            self.console.print(colour_players(line))

    def _bot_action(self, seat: int) -> int:
        bot = self.bots[seat]
        view = self.game.view(seat)
        if self.console.is_terminal:
            message = self.t("status.thinking", player=self.t.player(seat), bot=bot.spec)
            with self.console.status(message, spinner="dots"):
                return bot.choose(view)
        return bot.choose(view)

    # ------------------------------------------------------------ a person's turn

    def _human_action(self, seat: int) -> int:
        if self.hotseat and seat != self.last_human:
            self._hand_over(seat)
        self.last_human = seat
        while True:
            try:
                return self._ask(seat)
            except _TakenBack:
                continue  # the same seat decides again, from the state before

    def _ask(self, seat: int) -> int:
        root = build_menu(self.game, self.t)
        notice_lines = 0 if self.notice is None else 1
        self._show_table(
            seat, len(self.console.render_lines(self._menu_group(root), pad=False)) + notice_lines
        )
        if self.notice is not None:
            self.console.print(Text(self.notice, style="green"), soft_wrap=True)
            self.notice = None
        self.unseen[seat] = []
        menus: list[Menu] = [root]
        self._print_menu(menus[-1])
        while True:
            line = self.read_line(self.t("prompt.input", player=self.t.player(seat)))
            cmd = interpret(line, menus[-1], self.game, self.t)
            action = self._obey(cmd, menus, seat)
            if action is not None:
                if self.hotseat:
                    # The next person must not find this hand on the screen.
                    self.console.clear()
                return action

    def _obey(self, cmd: Command, menus: list[Menu], seat: int) -> int | None:
        """Carry out one command; the chosen action, or None to ask again."""
        t = self.t
        if cmd.kind == "choose":
            assert isinstance(cmd.value, int)
            option = menus[-1].options[cmd.value]
            if option.action is not None:
                return option.action
            assert option.submenu is not None
            menus.append(option.submenu)
            # Redrawn rather than appended: the queue must stay on screen while choosing where.
            self._redraw(seat, menus[-1])
        elif cmd.kind == "action":
            assert isinstance(cmd.value, int)
            return cmd.value
        elif cmd.kind == "back":
            menus.pop()
            self._redraw(seat, menus[-1])
        elif cmd.kind == "help":
            self.console.print(Panel(Text(t("help.commands")), title=t("help.title"), title_align="left"))
            self._print_menu(menus[-1])
        elif cmd.kind == "card":
            assert isinstance(cmd.value, str)
            self.console.print(render_card_help(t, cmd.value, self.game.rules.schemer_gain))
        elif cmd.kind == "rules":
            self.console.print(render_rules(t))
            self._print_menu(menus[-1])
        elif cmd.kind == "log":
            self.console.print(render_log(t, narrate_events(t, self.game, self.history, seat), 10**6))
            self._print_menu(menus[-1])
        elif cmd.kind == "save":
            self._save_command(cmd.value if isinstance(cmd.value, str) else None)
        elif cmd.kind == "undo":
            self._take_back(seat)
            self._print_menu(menus[-1])
        elif cmd.kind == "quit":
            if self.save_path is None and not self._confirm_leave():
                self._print_menu(menus[-1])
                return None
            raise QuitGame
        else:
            key = cmd.value if isinstance(cmd.value, str) else "error.not_understood"
            self.console.print(Text(t(key, **cmd.params), style="bold red"))
        return None

    def _take_back(self, seat: int) -> None:
        """Undo ``seat``'s last decision if it showed nothing new (raises _TakenBack), else say why not."""
        why = self.timeline.refusal(seat)
        if why is not None:
            self.console.print(Text(self.t(f"undo.{why}"), style="bold red"), soft_wrap=True)
            return
        undone = len(self.timeline.take_back(self.game, seat).events)
        self.history = self.history[: len(self.history) - undone]
        for s in self.humans:
            self.unseen[s] = self.unseen[s][: max(0, len(self.unseen[s]) - undone)]
        self._autosave()
        self.notice = self.t("undo.done")
        raise _TakenBack

    def _confirm_leave(self) -> bool:
        """Typing quit in a game that is saved nowhere asks once more: the game would be lost."""
        answer = self.read_line(self.t("quit.confirm")).strip()
        return self.words.is_(answer, "yes")

    def _clear_all(self) -> None:
        """Clear the screen and the terminal's scroll-back, where the last hand could still be read."""
        self.console.clear()
        if self.console.is_terminal:
            self.console.file.write("\x1b[3J")
            self.console.file.flush()

    def _hand_over(self, seat: int) -> None:
        """Hide the table until the next person answers with their own name: two Enters never pass it."""
        self._clear_all()
        t = self.t
        body = Text()
        body.append(t("handover.title") + " ", style="bold")
        body.append_text(player_text(t, seat))
        body.append("\n\n" + t("handover.body", player=t.player(seat)))
        self.console.print(Panel(body, expand=False))
        expected = {t.player(seat).lower(), f"p{seat + 1}", str(seat + 1)}
        while True:
            line = self.read_line(t("handover.prompt", player=t.player(seat)))
            word, _, rest = line.strip().partition(" ")
            if self.words.is_(word, "quit"):
                raise QuitGame
            if self.words.is_(word, "save"):
                self._save_command(rest.strip() or None)
                continue
            if self.words.is_(word, "undo"):
                # The table is hidden: nobody may be shown a question (or a hand) before typing their name.
                self.console.print(
                    Text(t("undo.handover", player=t.player(seat)), style="bold red"), soft_wrap=True
                )
                continue
            if line.strip().lower() in expected:
                break
        self._clear_all()

    def _show_table(self, seat: int, menu_height: int) -> None:
        """The table, then as much of what happened since this seat last decided as fits above the menu."""
        view = self.game.view(seat)
        table = self._fitting_table(view, menu_height)
        self.console.clear()
        self.console.print(table)
        lines = narrate_events(self.t, self.game, self.unseen[seat], seat)
        used = len(self.console.render_lines(table, pad=False))
        # Below the log: the menu and the prompt's line. The table, the menu and the prompt must
        # stay on screen together; what happened gets the lines left.
        room = self.console.height - used - menu_height - 1
        if not lines or room <= 0:
            return
        if room >= 3:
            self.console.print(render_log(self.t, lines, room))
        else:
            self.console.print(Text("  " + self.t("ui.log_more", n=len(lines)), style="dim"))

    def _fitting_table(self, view: SeatView, menu_height: int) -> RenderableType:
        """The table, made to fit above the menu and the prompt: without its blank lines when the
        screen is short, and with its status line (round, first player, phase) moved down next to
        the menu when even that is too tall, so that what scrolls away is never the status line."""
        bots = {s: bot.spec for s, bot in self.bots.items()}
        room = self.console.height - menu_height - 1
        table = render_table(self.t, view, bots)
        if len(self.console.render_lines(table, pad=False)) <= room:
            return table
        compact = render_table(self.t, view, bots, compact=True)
        if len(self.console.render_lines(compact, pad=False)) <= room:
            return compact
        self.status_below = render_header(self.t, view)
        return Group(
            render_queue(self.t, view), render_players(self.t, view, bots), render_own_cards(self.t, view)
        )

    def _redraw(self, seat: int, menu: Menu) -> None:
        """The table and ``menu`` on a clean screen."""
        self._show_table(seat, len(self.console.render_lines(self._menu_group(menu), pad=False)))
        self._print_menu(menu)

    def _print_menu(self, menu: Menu) -> None:
        if self.status_below is not None:
            self.console.print(self.status_below)
            self.status_below = None
        self.console.print(self._menu_group(menu))

    def _menu_group(self, menu: Menu) -> Group:
        out: list[RenderableType] = [Text(menu.title, style="bold")]
        numbers = menu.numbers()
        width = len(str(max(numbers, default=1)))
        for i, option in zip(numbers, menu.options, strict=True):
            line = Text(f"  {i:>{width}}) ", style="bold cyan")
            line.append_text(colour_players(option.label + (" …" if option.submenu else "")))
            out.append(line)
        hint = "prompt.hint_nested" if menu.nested else "prompt.hint"
        out.append(Text(self.t(hint, example=menu.example), style="dim"))
        return Group(*out)

    # ------------------------------------------------------------ saving and leaving

    def _save_command(self, path: str | None) -> None:
        target = path or self.save_path or DEFAULT_SAVE
        if self._save(target):
            self.save_path = target
            self.console.print(Text(self.t("save.done", file=target), style="green"), soft_wrap=True)

    def _save(self, path: str) -> bool:
        try:
            save_game(self.game, path, self.seats)
        except OSError as exc:
            self.console.print(
                Text(self.t("save.failed", file=path, reason=exc.strerror or str(exc)), style="red"),
                soft_wrap=True,
            )
            return False
        return True

    def _autosave(self) -> None:
        if self.save_path is not None:
            self._save(self.save_path)

    def _quit(self) -> None:
        self.console.print()
        if self.save_path is not None and not self.game.is_over() and self._save(self.save_path):
            # A game with designer cards resumes only with them loaded: the command names their files.
            cards = "".join(f"--cards {shlex.quote(f)} " for f in card_files())
            saved = self.t("quit.saved", file=self.save_path, cards=cards)
            self.console.print(Text(saved, style="green"), soft_wrap=True)
        else:
            self.console.print(Text(self.t("quit.not_saved"), style="yellow"), soft_wrap=True)

    # ------------------------------------------------------------ the end

    def _show_end(self) -> None:
        seat = self.live_seat
        view = self.game.view(seat)
        self.console.clear()
        # The header says the game is over; the panel shows the final queue with every card face up,
        # which replaces the table (whose face-down cards nobody needs to guess any more).
        self.console.print(render_header(self.t, view))
        lines = narrate_events(self.t, self.game, self.unseen.get(seat, []) if seat is not None else [], seat)
        if lines:
            self.console.print(render_log(self.t, lines, 4))
        self.console.print(final_scores(self.game, self.t))
        if self.save_path is not None and self._save(self.save_path):
            self.console.print(Text(self.t("end.saved", file=self.save_path), style="green"), soft_wrap=True)
        if self.humans:
            self._after_the_end()

    def _after_the_end(self) -> None:
        """A review of the people's moves, a rematch, or goodbye: the person chooses."""
        while True:
            try:
                answer = self.read_line(self.t("end.review_offer")).strip()
            except (EOFError, KeyboardInterrupt):
                return
            if self.words.is_(answer, "review"):
                self._show_review()
                continue
            if self.words.is_(answer, "log"):
                # The end screen shows the last lines of the game and says "type log" for the rest.
                seat = self.live_seat
                lines = narrate_events(self.t, self.game, self.history, seat)
                self.console.print(render_log(self.t, lines, 10**6))
                continue
            if self.words.is_(answer, "again"):
                self.rematch = True
            return

    def _show_review(self) -> None:
        """The people's moves in this game, judged by the search from their own views."""
        # The whole game from its deal (a resumed one too), as `oriflamme review` reads its save file.
        with self.console.status(self.t("review.progress"), spinner="dots"):
            reviews = review_played_game(self.game, self.humans, DEFAULT_LEVEL, describer(self.t))
        for seat in self.humans:
            self.console.print(
                render_review(self.t, seat, [r for r in reviews if r.seat == seat], DEFAULT_LEVEL)
            )


def final_scores(game: Game, t: Translator) -> RenderableType:
    """Scores from best to worst, the winner(s), how a tie was broken, where each player's IP came
    from, and the final queue with every card shown (the game is over: nothing is secret any more)."""
    table = Table(box=None, padding=(0, 2), header_style="bold")
    table.add_column(t("ui.col.player"))
    table.add_column(t("ui.col.ip"), justify="right")
    table.add_column(t("ui.col.positions"), justify="right")
    table.add_column("")
    result = game.outcome()
    for s in result.order:
        mark = Text("★ " + t("end.winner_mark"), style="bold yellow") if s in result.winners else Text()
        table.add_row(player_text(t, s), str(result.scores[s]), str(result.positions[s]), mark)
    lines: list[RenderableType] = [table, Text()]
    winners = [t.player(s) for s in result.winners]
    best = result.scores[result.order[0]]
    if result.decided_by != "score":
        counts = ", ".join(
            t("end.positions_of", player=t.player(s), n=result.positions[s]) for s in result.leaders
        )
        leaders = t.join([t.player(s) for s in result.leaders])
        lines.append(colour_players(t("end.tie", players=leaders, ip=t.ip(best))))
        lines.append(colour_players(t("end.tiebreak", counts=counts)))
    if len(winners) == 1:
        lines.append(colour_players(t("end.winner", player=winners[0], ip=t.ip(best))))
    else:
        lines.append(colour_players(t("end.shared", players=t.join(winners), ip=t.ip(best))))
    lines.append(Text())
    for s in result.order:
        causes = ", ".join(f"{t.cause(name)} {n:+d}" for name, n in result.ledger[s])
        lines.append(colour_players(t("end.ledger", player=t.player(s), causes=causes)))
    if game.queue:
        cards = ", ".join(
            f"{i + 1} {t.card(SLUGS[game.kind[c]])} {t.player(game.ctrl[c])}"
            for i, c in enumerate(game.queue)
        )
        lines.append(Text())
        lines.append(colour_players(t("end.final_queue", cards=cards)))
    return Panel(Group(*lines), title=Text(t("end.title"), style="bold"), title_align="left", expand=False)


def new_game(players: int, deck: str | Sequence[int], seed: int | None) -> tuple[Game, int]:
    """Deal a game; the seed used is returned so that the game can be dealt again."""
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    return Game.new(players=players, deck=deck, seed=seed), seed


def load_game(path: str) -> savefile.SaveFile:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise SetupError(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise SetupError(f"{path} is not a usable save file: it is not UTF-8 text") from None
    try:
        return savefile.read(text)
    except OriflammeError as exc:
        raise SetupError(f"{path} is not a usable save file: {exc}") from None


__all__ = [
    "DEFAULT_BOT",
    "HUMAN",
    "PlayApp",
    "PlayOptions",
    "QuitGame",
    "final_scores",
    "load_game",
    "new_game",
    "parse_seats",
    "save_game",
]
