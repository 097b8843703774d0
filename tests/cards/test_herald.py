"""The example designer's card, the Herald, through the engine, the notations, the bots and the encodings."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from support.designer import HERALD_DECK, example_module

from oriflamme import Game, action_text, build_position, make_bot, parse_recipe, savefile
from oriflamme.designer import Card, CardText, registered
from oriflamme.encoding.actions import action_count, game_legal_indices, index_name
from oriflamme.encoding.observation import observation_size, observe
from oriflamme.engine.cards import KINDS, OFFICIAL_KINDS, SLUGS
from oriflamme.engine.errors import SaveFormatError
from oriflamme.i18n import Translator


def test_a_herald_puts_one_ip_on_the_face_down_neighbour_its_controller_chooses(herald: Card) -> None:
    g = build_position(
        3, HERALD_DECK, queue="p2:~soldier p1:~herald p3:~lord", round=2, pointer=1, scores=[1, 1, 1]
    )
    g.apply(next(a for a in g.legal_actions() if action_text(g, a) == "reveal"))
    assert g.decision() == "target" and g.current_player() == 0
    assert [action_text(g, a) for a in g.legal_actions()] == ["target 1", "target 3"]
    soldier, lord = g.queue[0], g.queue[2]
    g.apply(next(a for a in g.legal_actions() if action_text(g, a) == "target 3"))
    assert (g.ip[soldier], g.ip[lord]) == (0, 1)
    assert g.score[0] == 1  # the IP went on the card, not to the Herald's controller


def test_a_herald_with_one_face_down_neighbour_announces_it_without_asking(herald: Card) -> None:
    g = build_position(
        3, HERALD_DECK, queue="p2:~soldier p1:~herald p3:lord", round=2, pointer=1, scores=[1, 1, 1]
    )
    soldier = g.queue[0]
    events = g.apply(next(a for a in g.legal_actions() if action_text(g, a) == "reveal"))
    assert g.ip[soldier] == 1 and any(e[2] == soldier and e[4] == 1 for e in events)


def test_a_herald_with_no_face_down_neighbour_gains_one_ip(herald: Card) -> None:
    g = build_position(
        3, HERALD_DECK, queue="p2:soldier p1:~herald p3:lord", round=2, pointer=1, scores=[1, 1, 1]
    )
    g.apply(next(a for a in g.legal_actions() if action_text(g, a) == "reveal"))
    assert g.score[0] == 1 + 1 and g.ledger_row(0)[herald.kind] == 1
    assert g.decision() != "target"


def test_a_shapeshifter_copies_a_revealed_herald(herald: Card) -> None:
    g = build_position(
        3, HERALD_DECK, queue="p2:herald p1:~shapeshifter p3:~lord", round=2, pointer=1, scores=[1, 1, 1]
    )
    lord = g.queue[2]
    # One character to copy and one face-down neighbour: both single choices, made without asking.
    g.apply(next(a for a in g.legal_actions() if action_text(g, a) == "reveal"))
    assert g.ip[lord] == 1 and g.score[0] == 1


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_with_the_herald_finish_and_every_legal_action_has_its_own_index(
    herald: Card, players: int
) -> None:
    asked = 0
    for seed in range(12):
        g = Game.new(players=players, deck=HERALD_DECK, seed=seed)
        rng = random.Random(seed)
        while not g.is_over():
            indices = game_legal_indices(g)
            assert len(indices) == len(g.legal_actions())
            if g.decision() == "target" and g.kind[g.pending[2]] == herald.kind:  # type: ignore[index]
                asked += 1
                assert {index_name(i) for i in indices} == {action_text(g, a) for a in g.legal_actions()}
            g.apply(rng.choice(g.legal_actions()))
        assert sum(g.score) > 0
    assert asked > 0, "no game asked a Herald's question"


def test_the_encodings_grow_by_one_kind_and_shrink_back(herald: Card) -> None:
    assert len(KINDS) == OFFICIAL_KINDS + 1 and SLUGS[herald.kind] == "herald"
    assert action_count() == 1502 + 44  # place first, last, on 40 positions, copy, swap
    assert observation_size() == 4224 + 104
    g = Game.new(players=4, deck=HERALD_DECK, seed=3)
    assert observe(g.view(0)).shape == (observation_size(),)


def test_with_no_designer_card_the_official_sizes_hold() -> None:
    assert len(KINDS) == OFFICIAL_KINDS
    assert (action_count(), observation_size()) == (1502, 4224)


def test_the_seeded_random_recipe_is_the_same_whatever_is_loaded() -> None:
    before = [parse_recipe("random", seed) for seed in range(60)]

    from oriflamme.designer import registered

    with registered(*example_module().CARDS) as (card,):
        assert [parse_recipe("random", seed) for seed in range(60)] == before
        assert all(card.kind not in r for r in before)


def test_a_saved_herald_game_loads_back_the_same(herald: Card) -> None:
    g = Game.new(players=3, deck=HERALD_DECK, seed=5)
    rng = random.Random(5)
    for _ in range(30):
        g.apply(rng.choice(g.legal_actions()))
    h = savefile.loads(savefile.dumps(g))
    assert h.kind == g.kind and h.score == g.score and h.legal_actions() == g.legal_actions()
    assert "herald" in savefile.dumps(g)


def test_the_texts_are_in_every_language_and_narration_names_the_card(herald: Card) -> None:
    names = {lang: Translator(lang).card("herald") for lang in ("en", "ru", "uk", "pl", "fr")}
    assert names == {"en": "Herald", "ru": "Глашатай", "uk": "Оповісник", "pl": "Herold", "fr": "Héraut"}
    assert "face-down" in Translator("en").card_text("herald")


@pytest.mark.parametrize("spec", ["heuristic", "ismcts:60"])
def test_the_bots_play_whole_games_with_the_herald(herald: Card, spec: str) -> None:
    g = Game.new(players=3, deck=HERALD_DECK, seed=11)
    bots = [make_bot(spec, seed=s) for s in range(3)]
    while not g.is_over():
        g.apply(bots[g.current_player()].choose(g.view(g.current_player())))
    assert g.is_over() and max(g.score) > 0


def test_the_heuristic_follows_the_heralds_hint_and_announces_its_own_card(herald: Card) -> None:
    g = build_position(
        3, HERALD_DECK, queue="p2:~soldier p1:herald p1:~lord", round=2, pointer=1, scores=[1, 1, 1]
    )
    assert [action_text(g, a) for a in g.legal_actions()] == ["target 1", "target 3"]
    bot = make_bot("heuristic", seed=1)
    assert action_text(g, bot.choose(g.view(0))) == "target 3"


def test_the_shipped_network_refuses_a_layout_with_another_card(herald: Card) -> None:
    pytest.importorskip("numpy")
    from importlib.resources import files

    from oriflamme.bots.net.bot import DEFAULT_WEIGHTS
    from oriflamme.bots.net.model import WeightsError, load

    with pytest.raises(WeightsError, match="herald besides those it knows"):
        load(str(files("oriflamme.bots.net").joinpath(DEFAULT_WEIGHTS)))


def test_the_pettingzoo_environment_plays_a_herald_game(herald: Card) -> None:
    pytest.importorskip("pettingzoo")
    from oriflamme.rl.oriflamme_v0 import env as make_env

    e = make_env(players=3, deck=HERALD_DECK)
    e.reset(seed=4)
    rng = np.random.default_rng(4)
    steps = 0
    for _agent in e.agent_iter():
        obs, _reward, done, truncated, _info = e.last()
        assert obs["observation"].shape == (observation_size(),)
        action = None if done or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        e.step(action)
        steps += 1
    assert steps > 20


def _scribe() -> Card:
    """A second designer's card for the numbering test: a character that gains 1 IP."""

    def gain_one(game: Game, actor: int, ctrl: int, revealed: bool) -> None:
        game.gain(ctrl, 1, game.kind[actor])

    return Card(slug="scribe", box="heralds", character=True, ability=gain_one,
                texts={"en": CardText("Scribe", "Gain 1 IP.")})  # fmt: skip


def test_a_save_names_the_numbers_of_its_designer_cards_and_is_refused_where_they_differ() -> None:
    """Designer cards are numbered in loading order: a game saved with the Scribe loaded first holds
    the Herald as kind 32; where the Herald alone is loaded (kind 31), the file is refused with the
    order that reads it, and loads again once the cards are loaded in that order."""
    deck = HERALD_DECK.replace("ambush", "scribe")
    with registered(_scribe(), *example_module().CARDS):
        g = Game.new(players=3, deck=deck, seed=8)
        rng = random.Random(8)
        for _ in range(20):
            g.apply(rng.choice(g.legal_actions()))
        text = savefile.dumps(g)
        assert json.loads(text)["setup"]["kinds"] == {"scribe": 31, "herald": 32}
    with (
        registered(*example_module().CARDS),
        registered(_scribe()),
        pytest.raises(
            SaveFormatError, match=r"'scribe' was card kind 31 .* is 32 here: .*\(scribe, herald\)"
        ),
    ):
        savefile.loads(text)
    with registered(_scribe(), *example_module().CARDS):
        h = savefile.loads(text)
        assert h.kind == g.kind and h.score == g.score and h.legal_actions() == g.legal_actions()
    assert "kinds" not in json.loads(savefile.dumps(Game.new(players=3, deck="base", seed=8)))["setup"]
