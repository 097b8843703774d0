"""The guided first game: its deal, every decision of its guided rounds, and where each lesson goes.

The tutorial is a real game under the real rules: three players with the base
box, the learner in the first seat and two bots. Its deal is fixed by a seed,
and :data:`DEAL` writes it out in the position notation's pile form (a test
checks that the seed deals exactly these hands), so a reader sees what the
learner is dealt without running anything.

The first three rounds are *guided*: :data:`STEPS` holds every decision, the
learner's and the bots', in order. Each learner step names the lesson shown
before it; the learner is asked to make that move, so the bots' scripted moves
stay legal and every idea comes up one at a time:

* round 1 — placement at an end of the queue; keep a card hidden (it gains IP);
* round 2 — place beside an opponent's card; reveal a Soldier to eliminate it;
  reveal the Heir to collect the IP on it and its ability's IP;
* round 3 — an intrigue: an Ambush kept hidden, a face-up Soldier that must act,
  and the bot's Archer that springs the Ambush (+4 IP to the learner).

Rounds 4 to 6 are played freely against the bots (the ``tutor`` bot plays the
heuristic bot's moves once off the script), with a lesson on the free rounds,
one on the last round and one on the end of the game.
"""

from __future__ import annotations

from typing import Final

from ..engine.recipes import parse_recipe
from ..engine.setup import Setup

#: The learner's seat (p1).
LEARNER: Final = 0

#: The tutorial's deal: three players, the base box, seed 54, the learner first.
SETUP: Final = Setup(players=3, recipe=tuple(sorted(parse_recipe("base"))), seed=54, first_player=LEARNER)

#: What :data:`SETUP` deals, in the position notation's pile form (slugs per seat).
DEAL: Final = {
    "hands": (
        "ambush archer assassination conspiracy heir lord soldier",
        "ambush archer heir lord shapeshifter soldier spy",
        "ambush archer assassination conspiracy shapeshifter soldier spy",
    ),
    "aside": (
        "royal-decree shapeshifter spy",
        "assassination conspiracy royal-decree",
        "heir lord royal-decree",
    ),
}

#: Every decision of the guided rounds, in order: the action's text, and for the learner's
#: steps the lesson shown before it (the key under ``tutorial.lesson.`` in the catalogs).
STEPS: Final[tuple[tuple[str, str | None], ...]] = (
    # Round 1: p1, p2, p3 place; then the queue resolves from the left.
    ("place heir first", "placement"),
    ("place lord last", None),
    ("place spy first", None),
    ("keep", None),
    ("keep", "keep"),
    ("reveal", None),
    # Round 2: p2 is first.
    ("place soldier last", None),
    ("place archer first", None),
    ("place soldier first", "attack"),
    ("reveal", "soldier"),
    ("keep", None),
    ("reveal", "heir"),
    ("keep", None),
    # Round 3: p3 is first.
    ("place conspiracy last", None),
    ("place ambush first", "intrigue"),
    ("place archer last", None),
    ("keep", "ambush"),
    ("target 3", "characters"),
    ("keep", None),
    ("keep", None),
    ("reveal", None),
    ("target 1", None),
)

#: Lessons of the free rounds, by what the game is at (see :func:`oriflamme.tutorial.guide.lesson`).
FREE_ROUND: Final = 4
FREE_LESSON: Final = "free"
LAST_ROUND_LESSON: Final = "last_round"
END_LESSON: Final = "end"

#: Every lesson key, in the order a learner meets them.
LESSONS: Final = tuple(
    [lesson for _, lesson in STEPS if lesson is not None] + [FREE_LESSON, LAST_ROUND_LESSON, END_LESSON]
)
