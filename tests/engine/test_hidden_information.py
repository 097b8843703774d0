"""Hidden information stays hidden: views, redacted events and the sampler (issue: engine §6, §7)."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oriflamme import Game
from oriflamme.engine.sampler import sample_game
from oriflamme.engine.view import redact, seat_view
from oriflamme.engine.zones import ASIDE, COVERED, HAND, TOP

DECKS = ["base", "ablaze", "alliance", "random"]


def hidden_from(g: Game, seat: int | None) -> set[int]:
    """Card ids whose identity ``seat`` may not know right now."""
    out = set()
    for c in range(len(g.kind)):
        if g.owner[c] == seat or g.up[c] or g.exposed[c]:
            continue
        if g.zone[c] in (HAND, ASIDE, TOP, COVERED):
            out.add(c)
    return out


def ids_in(obj: object) -> set[int]:
    """Every value stored under an ``id`` key anywhere in a JSON-like structure."""
    found: set[int] = set()
    if isinstance(obj, dict):
        for key, value in obj.items():
            if key == "id" and isinstance(value, int):
                found.add(value)
            found |= ids_in(value)
    elif isinstance(obj, list | tuple):
        for value in obj:
            found |= ids_in(value)
    return found


def play_to(g: Game, steps: int, rng: random.Random) -> None:
    for _ in range(steps):
        if g.is_over():
            return
        g.apply(rng.choice(g.legal_actions()))


def game_length(g: Game, seed: int) -> int:
    """How many actions the random game that :func:`play_to` plays from ``g`` with ``seed`` lasts."""
    h = g.clone()
    play_to(h, 10_000, random.Random(seed))
    return len(h.history) - len(g.history)


def random_point(data: st.DataObject, deck: str, players: int, seed: int, finished: bool) -> Game:
    """A random game played to a number of steps drawn below its length (or to its end, if ``finished``).

    Drawn from the game's own length, so that every example reaches the state it checks:
    a fixed range of steps ends a third of the games before that.
    """
    g = Game.new(players=players, deck=deck, seed=seed)
    length = game_length(g, seed)
    steps = data.draw(st.integers(0, length if finished else length - 1), label="steps")
    play_to(g, steps, random.Random(seed))
    assert len(g.history) == steps
    return g


@settings(max_examples=80, deadline=None)
@given(
    deck=st.sampled_from(DECKS),
    players=st.integers(2, 5),
    seed=st.integers(0, 10**6),
    data=st.data(),
)
def test_no_view_names_a_card_hidden_from_its_seat(
    deck: str, players: int, seed: int, data: st.DataObject
) -> None:
    """A seat's view (and a spectator's) never carries the id or kind of a card hidden from it.

    At any decision of a random game, or once it is over (the views still hide the hands).
    """
    g = random_point(data, deck, players, seed, finished=True)
    for seat in [None, *range(players)]:
        view = seat_view(g, seat)
        plain = view.to_dict()
        hidden = hidden_from(g, seat)
        assert not ids_in(plain) & hidden
        assert "seed" not in json.dumps(plain)
        if seat is None:
            assert plain["hand"] == [] and plain["aside"] == []
        # Opponents' hands and set-aside cards appear only as counts (and publicly known cards).
        for other in range(players):
            if other != seat:
                assert all(cv.id is not None and g.up[cv.id] for cv in view.known_hands[other])


@settings(max_examples=60, deadline=None)
@given(
    deck=st.sampled_from(DECKS),
    players=st.integers(2, 5),
    seed=st.integers(0, 10**6),
    data=st.data(),
)
def test_view_cannot_tell_the_real_game_from_a_resampled_one(
    deck: str, players: int, seed: int, data: st.DataObject
) -> None:
    """Re-dealing every hidden card gives the deciding seat exactly the same view and legal actions."""
    g = random_point(data, deck, players, seed, finished=False)
    assert not g.is_over()
    seat = g.current_player()
    view = seat_view(g, seat)
    for k in range(3):
        h = sample_game(view, random.Random(k))
        assert h.legal_actions() == g.legal_actions()
        assert dataclasses.replace(seat_view(h, seat), state_number=view.state_number) == view
        # The dealt game is a real game: it can be played on to the end.
        play_to(h, 10_000, random.Random(k))
        assert h.is_over()


@pytest.mark.parametrize("deck", DECKS)
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_redacted_events_name_only_cards_the_seat_may_know(deck: str, players: int) -> None:
    """Every event, redacted for a seat, names a card only if it was public then or the seat owns it."""
    for seed in range(15):
        g = Game.new(players=players, deck=deck, seed=seed)
        rng = random.Random(seed)
        while not g.is_over():
            events = g.apply(rng.choice(g.legal_actions()))
            for e in events:
                card, public = e[2], e[6]
                for seat in [None, *range(players)]:
                    out = redact(g, e, seat)
                    if card >= 0 and not public and g.owner[card] != seat:
                        assert out["card"] is None, (out, seat)
                    assert "id" not in out
                    json.dumps(out)


def test_placed_card_is_hidden_from_opponents_but_shown_to_its_owner() -> None:
    """A card placed face down: its owner's event names it, the others' do not."""
    g = Game.new(players=3, deck="base", seed=4, first_player=0)
    events = g.apply(g.legal_actions()[0])
    placed = [e for e in events if e[0] == 1]
    assert len(placed) == 1
    assert redact(g, placed[0], 0)["card"] is not None
    assert redact(g, placed[0], 1)["card"] is None
    assert redact(g, placed[0], None)["card"] is None
    assert redact(g, placed[0], 1)["seat"] == 0


@pytest.mark.parametrize("deck", DECKS)
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_card_field_of_every_redacted_event_is_one_its_receiver_may_know(
    deck: str, players: int
) -> None:
    """``card``, ``by_card`` and ``hand_card`` alike: a field names a card only for its owner, or when
    the card is public (face up or exposed once the action is over, or public when the event happened).

    The Informant's swapped-in ``hand_card`` goes face down into the queue: only its owner may read it.
    """
    from oriflamme.engine.events import FIELDS, SWAPPED

    swaps = 0
    for seed in range(12):
        g = Game.new(players=players, deck=deck, seed=seed)
        rng = random.Random(seed)
        while not g.is_over():
            events = g.apply(rng.choice(g.legal_actions()))
            for e in events:
                code, card, extra, public = e[0], e[2], e[5], e[6]
                fields = [("card", card, bool(public))]
                if FIELDS[code][1] in ("by_card", "hand_card") and extra >= 0:
                    fields.append((str(FIELDS[code][1]), extra, False))
                swaps += code == SWAPPED
                for seat in [None, *range(players)]:
                    out = redact(g, e, seat)
                    for name, c, was_public in fields:
                        if c < 0 or out.get(name) is None:
                            continue
                        knowable = was_public or g.owner[c] == seat or g.up[c] or g.exposed[c]
                        assert knowable, (name, out, seat)
    if deck == "alliance":
        assert swaps > 0, "no Informant swap happened: the hand_card case went untested"
