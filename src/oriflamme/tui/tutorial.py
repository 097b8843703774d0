"""The guided first game in the terminal: the real table and menus, with a lesson above each question.

:class:`TutorialApp` is a :class:`~oriflamme.tui.app.PlayApp` on the
tutorial's deal (:mod:`oriflamme.tutorial`), the person in the first seat and
the ``tutor`` bot in the two others. Before each of the person's decisions it
shows the lesson for that moment; during the guided rounds it refuses any
move but the one the lesson asks for, naming it, until the person types
``skip`` (or the word for it in their language) and plays on freely.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Console
from rich.panel import Panel
from rich.text import Text

from .. import tutorial
from ..i18n import Translator
from .app import HUMAN, PlayApp, PlayOptions
from .prompt import action_label

#: The tutor's seats: the learner first, the two bots after.
SEATS = (HUMAN, "tutor", "tutor")


class _Skipped(Exception):
    """The person typed skip: the question is asked again, now without the guide."""


def skip_words(t: Translator) -> frozenset[str]:
    """The words that leave the guided rounds: English and the person's language."""
    english = Translator("en")("tutorial.skip_word")
    return frozenset({english.casefold(), t("tutorial.skip_word").casefold()})


class TutorialApp(PlayApp):
    """A tutorial game: lessons before the person's decisions, the lesson's move asked for."""

    def __init__(
        self,
        t: Translator,
        console: Console,
        options: PlayOptions | None = None,
        read_line: Callable[[str], str] | None = None,
        sleep: Callable[[float], None] | None = None,
    ) -> None:
        extra = {} if sleep is None else {"sleep": sleep}
        super().__init__(tutorial.new_game(), SEATS, t, console, options, read_line, **extra)
        self._read_person = self.read_line
        self.read_line = self._read_or_skip
        #: Until the person skips: lessons ask for their move and other moves are refused.
        self.guided = True

    # ------------------------------------------------------------ lessons

    def _lesson_panel(self) -> Panel | None:
        lesson = tutorial.lesson(self.game)
        if lesson is None or (not self.guided and lesson.action is not None):
            return None
        body = Text(self.t(lesson.key))
        if lesson.action is not None:
            body.append("\n" + self.t("tutorial.skip_hint", word=self.t("tutorial.skip_word")), style="dim")
        return Panel(body, title=self.t("tutorial.title"), title_align="left", border_style="yellow")

    def _show_table(self, seat: int, menu_height: int) -> None:
        """The table as in any game, the lesson for this moment under it, then the menu."""
        panel = self._lesson_panel()
        if panel is None:
            super()._show_table(seat, menu_height)
            return
        height = len(self.console.render_lines(panel, pad=False))
        super()._show_table(seat, menu_height + height)
        self.console.print(panel)

    def _after_the_end(self) -> None:
        """The lesson on how a game ends, before the review and rematch offer."""
        panel = self._lesson_panel()
        if panel is not None:
            self.console.print(panel)
        super()._after_the_end()

    # ------------------------------------------------------------ the person's moves

    def _human_action(self, seat: int) -> int:
        while True:
            try:
                action = super()._human_action(seat)
            except _Skipped:
                continue
            refused = tutorial.refusal(self.game, action) if self.guided else None
            if refused is None:
                return action
            asked = tutorial.lesson(self.game)
            assert asked is not None and asked.action is not None
            move = action_label(self.game, self.t, asked.action)
            self.notice = self.t("tutorial.follow", move=move)

    def _read_or_skip(self, prompt: str) -> str:
        line = self._read_person(prompt)
        if self.guided and line.strip().casefold() in skip_words(self.t):
            self.guided = False
            self.notice = self.t("tutorial.skipped")
            raise _Skipped
        return line
