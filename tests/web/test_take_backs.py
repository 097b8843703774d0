"""What a table remembers for take-backs, on its own: who decided since, and whether anybody learned anything."""

from __future__ import annotations

from oriflamme.engine.actions import KEEP_ACTION, REVEAL_ACTION
from oriflamme.engine.events import Event
from oriflamme.engine.game import Game
from oriflamme.engine.registry import D_KEEP_OR_REVEAL, P_DECISION
from oriflamme.web.take_backs import TakeBacks


def play(
    game: Game, take_backs: TakeBacks, events: list[list[Event]], played: list[int], person: set[int]
) -> int:
    """The seat to move takes its first legal action, remembered as a person's or a bot's."""
    seat = game.current_player()
    take_backs.remember(seat, game, len(played), seat in person)
    action = game.legal_actions()[0]
    events.append(list(game.apply(action)))
    played.append(action)
    return seat


def test_a_placement_may_be_taken_back_until_another_person_decides() -> None:
    game = Game.new(2, "base", seed=3)
    before = game.clone()
    take_backs = TakeBacks()
    events: list[list[Event]] = [[]]
    played_list: list[int] = []
    first = play(game, take_backs, events, played_list, person={0, 1})
    assert take_backs.refusal(first, 1, events, [0, 1]) is None
    assert take_backs.decision(first) == 0
    restored = take_backs.game_before(0)
    assert restored is not None and restored.view(first) == before.view(first)
    second = play(game, take_backs, events, played_list, person={0, 1})
    assert second != first
    assert take_backs.refusal(first, 2, events, [0, 1]) == "another player has decided since"
    assert take_backs.refusal(second, 2, events, [0, 1]) is None
    assert take_backs.actors == [first, second]


def test_a_bots_move_since_does_not_forbid_it_and_a_stand_in_move_is_not_the_persons() -> None:
    game = Game.new(2, "base", seed=3)
    take_backs = TakeBacks()
    events: list[list[Event]] = [[]]
    played: list[int] = []
    person = play(game, take_backs, events, played, person={game.current_player()})
    bot = play(game, take_backs, events, played, person={person})
    assert bot != person
    # Placing a card face down shows nothing: the person may still take theirs back.
    assert take_backs.refusal(person, 2, events, [person]) is None
    assert take_backs.refusal(bot, 2, events, [person]) == "you have no decision to take back here"
    # A stand-in bot plays the person's next decision: that is not theirs to take back.
    take_backs.remember(person, game, 2, True, by_person=False)
    assert take_backs.refusal(person, 3, events, [person]) == "you have no decision to take back here"


def test_withdrawing_forgets_the_actors_after_it_and_every_decision() -> None:
    game = Game.new(2, "base", seed=3)
    take_backs = TakeBacks()
    events: list[list[Event]] = [[]]
    played: list[int] = []
    for _ in range(3):
        play(game, take_backs, events, played, person={0, 1})
    first, second = take_backs.game_before(1), take_backs.game_before(1)
    assert first is not None and second is not None and first is not second  # a copy each time
    take_backs.withdraw(1)
    assert len(take_backs.actors) == 1
    assert take_backs.last_decision == {}
    assert take_backs.game_before(1) is None


def test_a_decision_not_in_play_any_more_cannot_be_taken_back() -> None:
    game = Game.new(2, "base", seed=3)
    take_backs = TakeBacks()
    take_backs.remember(game.current_player(), game, 3, True)
    assert (
        take_backs.refusal(game.current_player(), 3, [[]] * 4, [0, 1])
        == "you have no decision to take back here"
    )


def test_a_card_a_bot_reveals_after_a_persons_keep_forbids_taking_the_keep_back() -> None:
    """The person keeps a card hidden; the bot then reveals one of its own: the person saw it."""
    game = Game.new(2, "base", seed=3)
    person = 0
    take_backs = TakeBacks()
    events: list[list[Event]] = [[]]
    played: list[int] = []
    kept_at = -1
    while not game.is_over():
        seat = game.current_player()
        pending = game.pending
        assert pending is not None
        keep_or_reveal = pending[P_DECISION] == D_KEEP_OR_REVEAL
        if keep_or_reveal and seat == person:
            action = KEEP_ACTION
        elif keep_or_reveal and kept_at >= 0:
            action = REVEAL_ACTION
        else:
            action = game.legal_actions()[0]
        take_backs.remember(seat, game, len(played), seat == person)
        events.append(list(game.apply(action)))
        played.append(action)
        if action == KEEP_ACTION and seat == person:
            kept_at = len(played) - 1
            # Keeping a card hidden shows nothing.
            assert take_backs.refusal(person, len(played), events, [person]) is None
        elif action == REVEAL_ACTION and kept_at >= 0:
            break
    assert kept_at >= 0 and played[-1] == REVEAL_ACTION
    assert take_backs.refusal(person, len(played), events, [person]) == "you have seen something since"


def test_actions_read_from_the_store_are_counted_without_their_takers() -> None:
    game = Game.new(2, "base", seed=3)
    take_backs = TakeBacks()
    take_backs.remember(game.current_player(), game, 4, True)
    assert take_backs.actors == [-1, -1, -1, -1, game.current_player()]
