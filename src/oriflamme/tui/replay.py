"""``oriflamme replay FILE``: step through a saved game, one action at a time.

The save file's setup is dealt again and its actions are applied one by one;
each step shows the table and the narrated events of that action, as one
seat (``--seat``) or a spectator would have seen them, so a replay reveals
nothing that seat did not know. Keys: Enter or ``n`` next, ``p`` previous,
``r N`` the start of round N, ``q`` quit (each followed by Enter, so that it
works in any terminal); the words of the viewer's language work too
(``suivant``, ``manche 3``, ``раунд 3``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.text import Text

from ..engine.errors import OriflammeError, SetupError
from ..engine.events import Event
from ..engine.game import Game
from ..engine.setup import Setup
from ..i18n import Translator
from ..notation import savefile
from ..notation.replay import replay
from .app import final_scores
from .line_input import read_terminal_line
from .narrate import narrate_events
from .render import render_log, render_table
from .words import words_for


@dataclass(frozen=True)
class Step:
    """The game after an action, and the events that action produced."""

    game: Game
    events: tuple[Event, ...]


@dataclass(frozen=True)
class SavedActions:
    """A save file that can be replayed: its deal, its actions and who sat where."""

    setup: Setup
    actions: list[str]
    #: The action-sequence version the actions are written in.
    version: int
    seats: tuple[str, ...] | None


def load_actions(path: str) -> SavedActions:
    """Read and check a save file that holds a game's actions; one clear error otherwise."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise SetupError(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise SetupError(f"{path} is not a usable save file: it is not UTF-8 text") from None
    try:
        saved = savefile.read(text)  # checks the whole file
    except OriflammeError as exc:
        raise SetupError(f"{path} is not a usable save file: {exc}") from None
    if saved.actions is None:
        raise SetupError(f"{path} holds a position without its actions: there is no game to go through")
    return SavedActions(saved.setup, saved.actions, saved.actions_version, saved.seats)


def load_steps(path: str) -> list[Step]:
    """Every state of a saved game from the deal on (step 0 is the deal)."""
    saved = load_actions(path)
    steps: list[Step] = []
    try:
        replay(
            saved.setup,
            saved.actions,
            lambda g, events, *_: steps.append(Step(g.clone(), tuple(events))),
            version=saved.version,
        )
    except OriflammeError as exc:
        raise SetupError(f"{path} is not a usable save file: {exc}") from None
    return steps


class Replayer:
    """Shows the steps of a game, moved by lines of input."""

    def __init__(
        self,
        steps: list[Step],
        t: Translator,
        console: Console,
        seat: int | None = None,
        read_line: Callable[[str], str] | None = None,
    ) -> None:
        self.steps = steps
        self.t = t
        self.console = console
        self.seat = seat
        self.read_line = read_line or (lambda prompt: read_terminal_line(console, prompt))

    def show(self, i: int) -> None:
        step = self.steps[i]
        t = self.t
        self.console.clear()
        self.console.print(Text(t("replay.step", step=i, total=len(self.steps) - 1), style="bold reverse"))
        self.console.print(render_table(t, step.game.view(self.seat)))
        lines = narrate_events(t, step.game, step.events, self.seat)
        self.console.print(render_log(t, lines, 20))
        if step.game.is_over():
            self.console.print(final_scores(step.game, t))

    @property
    def rounds(self) -> int:
        """The last round the game reached."""
        return self.steps[-1].game.round

    def round_start(self, number: int) -> int | None:
        """The step at which round ``number`` begins (the deal for round 1), or None if it never does."""
        if number == 1:
            return 0
        return next((i for i, step in enumerate(self.steps) if step.game.round >= number), None)

    def run(self, start: int = 0) -> int:
        """Show the steps from ``start`` on, as the keys typed ask; the exit code."""
        i = start
        try:
            while True:
                self.show(i)
                while True:
                    moved = self._move(i, self.read_line(self.t("replay.prompt")))
                    if moved == -1:
                        return 0
                    if moved is not None:
                        i = moved
                        break
        except (EOFError, KeyboardInterrupt):
            self.console.print()
            return 0

    def _move(self, i: int, line: str) -> int | None:
        """The step that ``line`` typed at step ``i`` asks for, -1 to leave, None to ask again (said why)."""
        words = words_for(self.t.lang)
        key, _, rest = line.strip().partition(" ")
        meaning = words.meaning(key) if key else "next"
        if key in ("n", "p", "q", "r"):
            meaning = {"n": "next", "p": "previous", "q": "quit", "r": "round"}[key]
        if meaning == "next" and not rest:
            if i + 1 < len(self.steps):
                return i + 1
            self._say("replay.at_end", "yellow")
        elif meaning in ("previous", "back") and not rest:
            if i > 0:
                return i - 1
            self._say("replay.at_start", "yellow")
        elif meaning == "quit" and not rest:
            return -1
        elif meaning == "round" and rest.strip().isdigit():
            start = self.round_start(int(rest))
            if start is not None:
                return start
            self._say("replay.no_round", "red", round=int(rest), last=self.rounds)
        else:
            self._say("replay.keys", "red")
        return None

    def _say(self, key: str, style: str, **params: object) -> None:
        self.console.print(Text(self.t(key, **params), style=style))


__all__ = ["Replayer", "Step", "load_steps"]
