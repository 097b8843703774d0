"""The guided first game: its deal, its script, its lessons, the moves it asks for, and its bot."""

from __future__ import annotations

from oriflamme import Game, tutorial
from oriflamme.bots import make_bot
from oriflamme.bots.base import play_game
from oriflamme.bots.heuristic import HeuristicBot
from oriflamme.engine.action_text import parse_action
from oriflamme.i18n import load_catalog
from oriflamme.notation import queue_string

LANGUAGES = ("en", "fr", "ru", "uk", "pl")


def _play_script(steps: int) -> Game:
    game = tutorial.new_game()
    for action in tutorial.script_actions()[:steps]:
        game.apply(action)
    return game


def _slugs(cards: object) -> list[str]:
    return sorted(card.kind for card in cards)  # type: ignore[attr-defined]


def test_the_seed_deals_the_hands_and_set_aside_cards_the_script_writes_out() -> None:
    game = tutorial.new_game()
    for seat in range(3):
        view = game.view(seat)
        assert _slugs(view.hand) == tutorial.DEAL["hands"][seat].split()
        assert _slugs(view.aside) == tutorial.DEAL["aside"][seat].split()
    assert game.current_player() == tutorial.LEARNER


def test_the_guided_rounds_show_each_idea_in_turn() -> None:
    """Placement, hidden cards gaining IP, an elimination, the Heir's income, the Ambush springing."""
    after_round_one = _play_script(6)
    assert queue_string(after_round_one) == "p3:~spy+1 p1:~heir+1 p2:lord"
    assert after_round_one.view(0).scores == (1, 2, 1)

    soldier_revealed = _play_script(10)
    assert _slugs(soldier_revealed.view(0).discards[2]) == ["archer"]
    assert soldier_revealed.view(0).scores[0] == 2  # 1 to start, 1 for eliminating

    heir_revealed = _play_script(12)
    assert heir_revealed.view(0).scores[0] == 5  # the 1 IP on the Heir and its 2

    sprung = _play_script(len(tutorial.STEPS))
    assert sprung.round == 4
    assert _slugs(sprung.view(0).discards[0]) == ["ambush"]
    assert _slugs(sprung.view(0).discards[1]) == ["archer"]
    assert sprung.view(0).scores == (12, 7, 1)
    assert not tutorial.on_script(sprung)


def test_each_lesson_comes_before_the_learners_move_it_asks_for() -> None:
    game = tutorial.new_game()
    met = []
    for step, action in enumerate(tutorial.script_actions()):
        lesson = tutorial.lesson(game)
        if game.current_player() == tutorial.LEARNER:
            assert lesson is not None or tutorial.STEPS[step][1] is None
        else:
            assert lesson is None
        if lesson is not None:
            assert lesson.action == action
            assert lesson.text == tutorial.STEPS[step][0]
            met.append(lesson.name)
        game.apply(action)
    assert met == [name for _, name in tutorial.STEPS if name is not None]
    assert met == list(tutorial.LESSONS[: len(met)])


def test_a_move_other_than_the_lessons_is_refused_by_name_and_the_asked_one_is_not() -> None:
    game = tutorial.new_game()
    asked = tutorial.script_actions()[0]
    other = parse_action(game, "place soldier first")
    assert tutorial.refusal(game, other) == "place heir first"
    assert tutorial.refusal(game, asked) is None


def test_every_lesson_and_message_is_in_every_language() -> None:
    for lang in LANGUAGES:
        catalog = load_catalog(lang)
        for name in tutorial.LESSONS:
            assert catalog[tutorial.LESSON_PREFIX + name].strip(), (lang, name)
        assert "{move}" in catalog["tutorial.follow"]


def test_the_free_rounds_have_their_lessons_and_the_end_its_own() -> None:
    game = _play_script(len(tutorial.STEPS))
    learner_bot = HeuristicBot(7)
    tutors = {seat: make_bot("tutor", seat) for seat in (1, 2)}
    lessons: list[tuple[int, str]] = []
    while not game.is_over():
        seat = game.current_player()
        lesson = tutorial.lesson(game)
        if lesson is not None:
            assert seat == tutorial.LEARNER and lesson.action is None
            lessons.append((game.round, lesson.name))
        bot = learner_bot if seat == tutorial.LEARNER else tutors[seat]
        game.apply(bot.choose(game.view(seat)))
    assert lessons == [(4, "free"), (6, "last_round")]
    end = tutorial.lesson(game)
    assert end is not None and end.name == "end"


def test_the_tutor_bot_plays_the_script_on_it_and_the_heuristic_bot_off_it() -> None:
    game = tutorial.new_game()
    game.apply(tutorial.script_actions()[0])
    tutor = make_bot("tutor", 5)
    assert tutor.spec == "tutor"
    assert tutor.choose(game.view(1)) == tutorial.script_actions()[1]

    strayed = _play_script(4)  # the learner is asked to keep the Heir hidden ...
    strayed.apply(parse_action(strayed, "reveal"))  # ... and reveals it, which every seat sees
    assert strayed.current_player() == 1
    assert not tutorial.on_script(strayed)
    assert tutorial.scripted_action_for_view(strayed.view(1)) is None
    assert make_bot("tutor", 5).choose(strayed.view(1)) == HeuristicBot(5).choose(strayed.view(1))


def test_another_deal_with_the_same_first_moves_is_not_the_tutorial() -> None:
    other = Game.new(3, "base", 55, 0)
    assert not tutorial.on_script(other)
    assert tutorial.lesson(other) is None
    assert tutorial.scripted_action(other) is None
    assert tutorial.is_tutorial(tutorial.SETUP)
    finished = play_game(Game.new(3, "base", 55, 0), [HeuristicBot(seat) for seat in range(3)])
    assert tutorial.lesson(finished) is None
