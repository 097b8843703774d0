"""A detector for questions that give hidden cards away (docs/rules.md §11, silent choices).

What a seat observes after an action is a stream: the events it is told (as
:func:`~oriflamme.engine.view.redact` gives them), then the question that
follows (its kind, who is asked, the actor it may know, the options it is
shown), or the end of the game. Re-deal the cards that seat cannot see with
the sampler, play the same action, and compare the two streams item by item.
At the first difference:

- two different *events*: the re-deal told something else (a revealed card
  of another kind...); that deal is simply not consistent with what the seat
  saw, and proves nothing;
- anything else (a question where the other deal has an event, two questions
  that differ, a question against the end): the question's existence, form or
  timing depends on hidden cards. That is a leak.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from oriflamme.engine.action_text import action_text, parse_action
from oriflamme.engine.actions import PLACE_ON, SHIFT
from oriflamme.engine.errors import OriflammeError
from oriflamme.engine.events import Event
from oriflamme.engine.game import Game
from oriflamme.engine.registry import D_TWIN
from oriflamme.engine.sampler import sample_game
from oriflamme.engine.view import redact, seat_view

#: Actions whose text names a card the other seats may not know: replayed by their public part.
_PRIVATE_VERBS = ("place", "swap")


def _stream(g: Game, events: Sequence[Event], seat: int) -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = [("event", redact(g, e, seat)) for e in events]
    if g.is_over():
        out.append(("end", None))
        return out
    v = seat_view(g, seat)
    assert v.pending is not None
    decision, to_move, actor, ctrl, a, b = v.pending
    # Copies of a kind are interchangeable: name the acting card by where it is and what it is.
    where = (
        (g.zone[actor], g.queue.index(actor) if actor in g.queue else -1, g.kind[actor])
        if actor >= 0
        else None
    )
    if decision == D_TWIN:
        a = g.kind[a]
    out.append(("ask", (v.decision, to_move, where, ctrl, a, b, len(v.legal_actions))))
    return out


def _same_public_action(g: Game, h: Game, action: int, observer: int) -> int | None:
    """The action of ``h`` that looks to ``observer`` like ``action`` in ``g``; None if there is none."""
    text = action_text(g, action)
    decider = g.current_player()
    if decider != observer and text.split()[0] in _PRIVATE_VERBS:
        # The observer saw a card placed (first, last or on a position) or swapped, not which.
        verb = action >> SHIFT
        for a in h.legal_actions():
            if a >> SHIFT == verb and (verb != PLACE_ON or a & 255 == action & 255):
                return a
        return None
    try:
        return parse_action(h, text)
    except OriflammeError:
        return None  # this deal cannot have led to that action (e.g. no reveal of a 0-IP Insurrection)


def leak_after(g: Game, action: int, observer: int, rng: random.Random, samples: int) -> str | None:
    """Play ``action`` in a clone of ``g`` and in ``samples`` re-deals seen from ``observer``; describe a leak."""
    view = seat_view(g, observer)
    real = g.clone()
    seen = _stream(real, real.apply(action), observer)
    for _ in range(samples):
        h = sample_game(view, rng)
        a = _same_public_action(g, h, action, observer)
        if a is None:
            continue
        other = _stream(h, h.apply(a), observer)
        for mine, theirs in zip(seen, other, strict=False):
            if mine == theirs:
                continue
            if mine[0] == theirs[0] == "event":
                break  # a deal that tells this seat something else: not comparable
            return (
                f"after {action_text(g, action)!r} by p{g.current_player() + 1}, p{observer + 1} sees "
                f"{mine} in the real game but {theirs} in a re-deal of the cards it cannot see"
            )
        else:
            if len(seen) != len(other):
                return f"after {action_text(g, action)!r}, p{observer + 1} sees streams of different lengths"
    return None


def first_leak(g: Game, rng: random.Random, samples: int = 3, every: int = 1) -> str | None:
    """Play ``g`` to the end with random legal actions, checking every ``every``-th step from each seat."""
    step = 0
    while not g.is_over():
        action = rng.choice(g.legal_actions())
        if step % every == 0:
            for observer in range(g.players):
                why = leak_after(g, action, observer, rng, samples)
                if why is not None:
                    return f"round {g.round}, decision {len(g.history)}: {why}"
        g.apply(action)
        step += 1
    return None
