"""Game.clone copies every slot of the state as its group says: nothing forgotten, nothing aliased."""

from __future__ import annotations

from oriflamme import Game
from oriflamme.bots.random_bot import RandomBot
from oriflamme.engine.state import LIST_SLOTS, NESTED_SLOTS, OWN_WAY_SLOTS, SHARED_SLOTS, SLOTS


def _mid_game() -> Game:
    game = Game.new(4, "ablaze", seed=12)
    bots = [RandomBot(seat) for seat in range(4)]
    for _ in range(40):
        seat = game.current_player()
        game.apply(bots[seat].choose(game.view(seat)))
    return game


def test_every_slot_is_in_exactly_one_copy_group() -> None:
    groups = SHARED_SLOTS + LIST_SLOTS + NESTED_SLOTS + OWN_WAY_SLOTS
    assert sorted(groups) == sorted(SLOTS)
    assert len(set(groups)) == len(groups)


def test_clone_copies_each_slot_as_its_group_says() -> None:
    game = _mid_game()
    copy = game.clone()
    for name in SHARED_SLOTS:
        assert getattr(copy, name) == getattr(game, name), name
    for name in LIST_SLOTS:
        assert getattr(copy, name) == getattr(game, name), name
        assert getattr(copy, name) is not getattr(game, name), name
    for name in NESTED_SLOTS:
        ours, theirs = getattr(copy, name), getattr(game, name)
        assert ours == theirs and ours is not theirs, name
        assert all(a is not b for a, b in zip(ours, theirs, strict=True)), name
    assert copy.events == [] and copy.ledger == game.ledger
    assert copy.ledger_shared and game.ledger_shared


def test_a_clone_and_its_game_go_on_apart() -> None:
    game = _mid_game()
    copy = game.clone()
    before = game.view(None)
    bots = [RandomBot(10 + seat) for seat in range(4)]
    while not copy.is_over():
        seat = copy.current_player()
        copy.apply(bots[seat].choose(copy.view(seat)))
    assert game.view(None) == before
