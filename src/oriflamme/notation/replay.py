"""Replaying a recorded game: deal its setup, then play its actions' text forms in order.

The one implementation behind save files, the terminal's replay viewer, the
web server (which keeps every table as its setup plus its actions and replays
them on start) and anything else that stores games.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..engine.action_text import action_text, parse_action
from ..engine.errors import OriflammeError, ReplayError
from ..engine.events import Event
from ..engine.game import Game
from ..engine.registry import D_FETCH, D_SWAP, P_DECISION
from ..engine.setup import Setup

#: ``on_step(game, events, text, actor)``: called after the deal (``text`` None, ``actor`` -1)
#: and after each action (its text, and the seat that played it).
OnStep = Callable[[Game, list[Event], str | None, int], None]

#: The version of the action sequences this engine plays, stored with every
#: saved game, table and tournament record. Version 1 sequences (oriflamme 0.1)
#: come from an engine that answered an Impersonation fetch or an Informant
#: swap with a single option by itself; since version 2 those questions are
#: always asked (docs/rules.md §11, silent choices stay silent).
ACTIONS_VERSION = 2
#: Every action-sequence version :func:`replay` reads.
READABLE_ACTIONS_VERSIONS = (1, 2)
#: The questions version 1 did not ask when they had a single answer.
_ASKED_SINCE_V2 = frozenset((D_FETCH, D_SWAP))


def replay(
    setup: Setup,
    actions: Sequence[str],
    on_step: OnStep | None = None,
    *,
    version: int = ACTIONS_VERSION,
) -> Game:
    """The game ``setup`` deals, with ``actions`` (text forms) played in order.

    ``version`` is the action-sequence version the actions were recorded in:
    replaying a version 1 sequence answers each newly asked one-option question
    with its only option (reported to ``on_step`` like any other action), so
    the game's history is a current sequence. An action that cannot be read or
    played raises :class:`ReplayError` with its index; nothing is half-replayed
    from the caller's point of view.
    """
    if version not in READABLE_ACTIONS_VERSIONS:
        raise ValueError(
            f"unknown action-sequence version {version} (this program reads "
            f"{', '.join(map(str, READABLE_ACTIONS_VERSIONS))})"
        )
    g = setup.deal()
    if on_step is not None:
        on_step(g, list(g.events), None, -1)
    legacy = version < 2
    for i, text in enumerate(actions):
        if legacy:
            _answer_forced(g, on_step)
        actor = g.current_player()
        try:
            events = g.apply(parse_action(g, text))
        except OriflammeError as exc:
            raise ReplayError(i, len(actions), text, str(exc)) from None
        if on_step is not None:
            on_step(g, events, text, actor)
    if legacy:
        _answer_forced(g, on_step)
    return g


def current_actions(setup: Setup, actions: Sequence[str], version: int) -> list[str]:
    """``actions`` (recorded in ``version``) as the current version writes the same game."""
    if version == ACTIONS_VERSION:
        return list(actions)
    texts: list[str] = []
    replay(
        setup, actions, lambda _g, _e, text, _a: None if text is None else texts.append(text), version=version
    )
    return texts


def _answer_forced(g: Game, on_step: OnStep | None) -> None:
    """Answer the questions a version 1 engine answered by itself."""
    while (p := g.pending) is not None and p[P_DECISION] in _ASKED_SINCE_V2 and len(g.options) == 1:
        actor = g.current_player()
        action = g.options[0]
        text = action_text(g, action)
        events = g.apply(action)
        if on_step is not None:
            on_step(g, events, text, actor)
