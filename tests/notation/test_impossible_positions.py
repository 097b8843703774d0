"""docs/rules.md §11, impossible positions are refused: by build_position and by a save file's raw state alike.

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
        # A family bribing its own card: bribing it back only sends the other family's token home.
        ("base", "p1:spy@p1 p3:lord", {}, "a family never bribes its own card"),
        # More copies of a card than the family holds.
        ("base", "p1:lord p2:~spy", {"hands": {0: "lord"}}, "no (more) lord"),
    ],
    ids=[
        "stack-mixing-families",
        "bribed-face-down",
        "twin-on-prince",
        "face-up-intrigue",
        "own-card-bribed",
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
    if mutate == "bribe-face-down":
        state["bribed_by"][spy] = 1
        state["ctrl"][spy] = 1
    if mutate == "bribe-own-card":
        soldier = state["queue"][1]
        state["bribed_by"][soldier] = state["ctrl"][soldier] = state["owner"][soldier]
    return json.dumps(doc)


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        ("bribe-face-down", "only a revealed character can be bribed"),
        ("bribe-own-card", "a family never bribes its own card"),
    ],
)
def test_s11_a_save_file_holding_an_impossible_position_is_refused(mutate: str, message: str) -> None:
    with pytest.raises(SaveFormatError, match=message):
        savefile.loads(_doc_with(mutate))


# ------------------------------------------------------- what puzzles need to write down


def test_a_kept_agreement_carries_its_ip_and_pays_at_the_start_of_the_round() -> None:
    """§8 Agreement: kept with 3 IP on it, it pays its owner 3 at the start of each round while
    they control a position; ``phase="start"`` is the moment before that income."""
    g = build_position(
        3,
        "alliance",
        "p1:fanatic p2:~empress",
        kept={0: "agreement+3"},
        hands={0: "judge", 1: "deserter", 2: "informant"},
        scores=[2, 2, 2],
        round=3,
        phase="start",
    )
    assert g.round == 3 and g.decision() == "place" and g.current_player() == 0
    assert g.score == [5, 2, 2]  # 2 + the Agreement's 3
    assert dict(g.outcome().ledger[0]) == {"position": 2, "agreement": 3}
    assert g.ip[g.kept[0][0]] == 3  # the IP stay on the kept card


def test_without_a_position_in_the_queue_the_kept_agreement_pays_nothing() -> None:
    g = build_position(
        3, "alliance", "p2:~empress", kept={0: "agreement+3"}, hands={0: "judge", 1: "deserter", 2: "informant"},
        scores=[2, 2, 2], round=3, phase="start",
    )  # fmt: skip
    assert g.score == [2, 2, 2]


@pytest.mark.parametrize(
    ("kept", "message"),
    [
        ({0: "infiltration+2"}, "only a kept agreement carries IP"),
        ({0: "agreement+x"}, "only a kept agreement"),
    ],
)
def test_ip_on_a_kept_card_other_than_the_agreement_is_refused(kept: dict[int, str], message: str) -> None:
    with pytest.raises(SetupError, match=message):
        build_position(3, "alliance", "p1:fanatic", kept=kept, round=3)


def test_ip_written_on_a_hand_card_is_refused() -> None:
    with pytest.raises(SetupError, match="only a kept agreement carries IP"):
        build_position(3, "alliance", "p1:fanatic", hands={0: "judge+2"}, round=3)


@pytest.mark.parametrize("deck", ["base", "ablaze", "alliance", "random"])
def test_every_state_of_random_play_passes_the_checks(deck: str) -> None:
    """The checks refuse only the unreachable: every decision point of random games (2-5 players) passes."""
    import random

    from oriflamme import Game
    from oriflamme.notation.checks import check_state

    for seed in range(40):
        g = Game.new(players=2 + seed % 4, deck=deck, seed=seed)
        rng = random.Random(seed)
        while not g.is_over():
            g.apply(rng.choice(g.legal_actions()))
            check_state(g)
