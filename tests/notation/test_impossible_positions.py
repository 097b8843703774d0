"""RULES.md §11, impossible positions are refused: by build_position and by a save file's raw state alike.

Each position below is written in the position notation and breaks one rule no
sequence of legal moves can break; the message names the problem.
"""

from __future__ import annotations

import json

import pytest

from oriflamme import SaveFormatError, SetupError, build_position, savefile


@pytest.mark.parametrize(
    ("deck", "queue", "kw", "message"),
    [
        # A player stacks only onto their own cards.
        ("base", "p1:~spy/p2:soldier p3:lord", {}, "mixes families"),
        # Bribery takes a revealed character; a face-down card is never bribed.
        ("base", "p1:~spy@p2 p3:lord", {}, "Bribery token on a face-down card"),
        # The Twin enters by the placement rules, never onto a Prince.
        ("ablaze", "p1:prince/p1:twin p2:felon", {}, "a Twin lies on a Prince"),
        # An intrigue leaves (or turns face down) once resolved: one before the pointer cannot be face up.
        ("base", "p1:assassination p2:~lord", {"pointer": 1}, "a face-up assassination rests in the queue"),
        # Bribing one's own card makes no sense and no rule allows it.
        ("base", "p1:soldier@p1 p2:~lord", {}, "p1 bribes their own soldier"),
        # More copies of a card than the family holds.
        ("base", "p1:lord p2:~spy", {"hands": {0: "lord"}}, "no (more) lord"),
    ],
    ids=[
        "stack-mixing-families",
        "bribed-face-down",
        "twin-on-prince",
        "face-up-intrigue",
        "self-bribe",
        "extra-copy",
    ],
)
def test_s11_an_impossible_position_is_refused(
    deck: str, queue: str, kw: dict[str, object], message: str
) -> None:
    with pytest.raises(SetupError, match=message.replace("(", r"\(").replace(")", r"\)")):
        build_position(3, deck, queue, round=3, **kw)  # type: ignore[arg-type]


def test_s11_the_resolving_intrigue_is_the_one_face_up_intrigue_allowed() -> None:
    """An Assassination revealed at the pointer waits for its target face up: that position is fine."""
    g = build_position(3, "base", "p1:~assassination p2:~lord p3:spy", round=3)
    g.apply(g.legal_actions()[1])  # reveal
    assert g.decision() == "eliminate"
    again = savefile.loads(savefile.dumps(g))
    assert again.decision() == "eliminate"


def _doc_with(mutate: str) -> str:
    g = build_position(3, "base", "p1:~spy p2:soldier@p1 p3:lord", round=3, pointer=2)
    doc = json.loads(savefile.dumps(g))
    state = doc["state"]
    spy = state["queue"][0]
    soldier = state["queue"][1]
    if mutate == "bribe-face-down":
        state["bribed_by"][spy] = 1
        state["ctrl"][spy] = 1
    elif mutate == "self-bribe":
        state["bribed_by"][soldier] = 1
        state["ctrl"][soldier] = 1
    return json.dumps(doc)


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        ("bribe-face-down", "only a revealed character can be bribed"),
        ("self-bribe", "bribes their own soldier"),
    ],
)
def test_s11_a_save_file_holding_an_impossible_position_is_refused(mutate: str, message: str) -> None:
    with pytest.raises(SaveFormatError, match=message):
        savefile.loads(_doc_with(mutate))
