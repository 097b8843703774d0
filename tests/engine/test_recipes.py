"""Deck recipes (docs/rules.md §1): presets, custom lists, seeded random mixes, the Twin, clear errors."""

from __future__ import annotations

from collections import Counter

import pytest

from oriflamme.engine.cards import KINDS, PRINCE, SLUGS, TWIN, kind_from_slug
from oriflamme.engine.errors import RecipeError
from oriflamme.engine.game import Game
from oriflamme.engine.recipes import PRESETS, family_kinds, parse_recipe, recipe_name, validate_recipe

BASE_SLUGS = "archer soldier spy heir shapeshifter lord assassination royal-decree ambush conspiracy".split()
ABLAZE_SLUGS = "prince queen cutthroat apothecary felon schemer impersonation plot trap bribery".split()
ALLIANCE_SLUGS = (
    "empress fanatic informant diplomat deserter judge insurrection extortion infiltration agreement".split()
)
#: Nine base cards: add one to make a recipe.
NINE = BASE_SLUGS[:9]


def slugs(recipe: tuple[int, ...]) -> list[str]:
    return sorted(SLUGS[k] for k in recipe)


@pytest.mark.parametrize(
    ("name", "expected"),
    [("base", BASE_SLUGS), ("ablaze", ABLAZE_SLUGS), ("alliance", ALLIANCE_SLUGS)],
)
def test_presets_are_the_ten_cards_of_each_box(name: str, expected: list[str]) -> None:
    """§1: each preset is its box's 10 kinds; Ablaze's Twin is not one of the 10."""
    recipe = parse_recipe(name)
    assert recipe == PRESETS[name]
    assert slugs(recipe) == sorted(expected)
    assert len(recipe) == 10
    assert TWIN not in recipe
    assert recipe_name(recipe) == name


def test_preset_names_ignore_case_and_spaces() -> None:
    """§1: preset names are read leniently."""
    assert parse_recipe("  Alliance ") == PRESETS["alliance"]


def test_custom_list_is_any_ten_kinds_in_any_order() -> None:
    """§1 ruling: a custom recipe takes any 10 of the 30 kinds; its canonical form is sorted."""
    mix = ["judge", "Royal Decree", "queen", "soldier", "trap", "empress", "spy", "plot", "agreement", "lord"]
    recipe = parse_recipe(",".join(mix))
    assert recipe == tuple(sorted(kind_from_slug(s) for s in mix))
    assert parse_recipe(",".join(reversed(mix))) == recipe
    assert recipe_name(recipe) == ",".join(SLUGS[k] for k in recipe)
    assert parse_recipe(recipe_name(recipe)) == recipe


def test_custom_recipe_deals_those_kinds_to_every_family() -> None:
    """§1 ruling: all families use the same recipe."""
    text = "judge,royal-decree,queen,soldier,trap,empress,spy,plot,agreement,lord"
    g = Game.new(4, text, seed=11)
    want = parse_recipe(text)
    for seat in range(4):
        kinds = sorted(g.kind[c] for c in range(len(g.kind)) if g.owner[c] == seat)
        assert kinds == sorted(want)
        assert len(g.hands[seat]) == 7 and len(g.aside[seat]) == 3


def test_recipe_as_kind_ids() -> None:
    """§1: a recipe may be given as kind ids; it is validated the same way."""
    ids = [kind_from_slug(s) for s in ALLIANCE_SLUGS]
    assert Game.new(3, ids, seed=1).recipe == PRESETS["alliance"]
    with pytest.raises(RecipeError, match="unknown card id 99"):
        validate_recipe([*ids[:9], 99])


def test_random_recipe_is_seeded() -> None:
    """§1: `random` draws 10 of the 30 kinds; the same seed gives the same recipe, others vary."""
    # Seed 5 draws these ten (the deal of a seed never changes: CHANGELOG, compatibility policy).
    assert sorted(SLUGS[k] for k in parse_recipe("random", seed=5)) == sorted(
        ["archer", "ambush", "queen", "impersonation", "bribery", "empress", "informant", "diplomat",
         "judge", "extortion"]
    )  # fmt: skip
    # The game's recipe is the one the seed draws, whichever way it is asked for.
    assert (
        Game.new(3, "random", seed=5).recipe
        == parse_recipe("random", seed=5)
        != parse_recipe("random", seed=6)
    )
    recipes = {Game.new(3, "random", seed=s).recipe for s in range(40)}
    assert len(recipes) > 30
    for r in recipes:
        assert len(set(r)) == 10 and TWIN not in r
    # Over many seeds every choosable kind turns up, from all three boxes.
    seen = Counter(k for s in range(200) for k in parse_recipe("random", seed=s))
    assert set(seen) == {k.id for k in KINDS} - {TWIN}


def test_random_recipe_from_chosen_boxes() -> None:
    """§1: `random:base+alliance` draws from those boxes only."""
    pool = set(PRESETS["base"]) | set(PRESETS["alliance"])
    for s in range(20):
        r = parse_recipe("random:base+alliance", seed=s)
        assert set(r) <= pool
        assert r == parse_recipe("random:base+alliance", seed=s)


def test_twin_comes_with_the_prince() -> None:
    """§1/§2: with the Prince in the recipe each family gets its Twin too, set aside face up."""
    text = ",".join([*NINE, "prince"])
    assert family_kinds(parse_recipe(text)) == parse_recipe(text) + (TWIN,)
    g = Game.new(3, text, seed=2)
    for seat in range(3):
        assert [g.kind[c] for c in g.twins[seat]] == [TWIN]
        assert all(g.up[c] for c in g.twins[seat])
        assert len(g.hands[seat]) == 7 and len(g.aside[seat]) == 3
        assert TWIN not in {g.kind[c] for c in g.hands[seat] + g.aside[seat]}
    no_prince = Game.new(3, ",".join([*NINE, "queen"]), seed=2)
    assert no_prince.twins == [[], [], []]
    assert TWIN not in no_prince.kind
    assert PRINCE not in no_prince.kind


def test_error_unknown_card_names_it_and_lists_the_known_ones() -> None:
    """§1: an unknown card is named in the message, with the cards that exist."""
    with pytest.raises(RecipeError) as err:
        parse_recipe(",".join([*NINE, "dragon"]))
    msg = str(err.value)
    assert "'dragon'" in msg
    assert "unknown card" in msg
    assert "judge" in msg and "soldier" in msg


def test_error_unknown_deck_name_lists_the_presets() -> None:
    """§1: a single unknown word is an unknown deck; the message says what is accepted."""
    with pytest.raises(RecipeError) as err:
        Game.new(3, "everything", seed=1)
    msg = str(err.value)
    assert "'everything'" in msg
    for preset in ("base", "ablaze", "alliance", "random"):
        assert preset in msg


def test_error_duplicates_are_named() -> None:
    """§1: a recipe holds each kind once; the repeated kind is named."""
    with pytest.raises(RecipeError) as err:
        parse_recipe(",".join([*NINE, "spy"]))
    msg = str(err.value)
    assert "repeated" in msg and "spy" in msg


@pytest.mark.parametrize("count", [9, 11])
def test_error_wrong_count_says_ten_and_the_count(count: int) -> None:
    """§1: exactly 10 kinds; the message gives the number found."""
    cards = (BASE_SLUGS + ALLIANCE_SLUGS)[:count]
    with pytest.raises(RecipeError) as err:
        parse_recipe(",".join(cards))
    msg = str(err.value)
    assert "10" in msg and f"got {count}" in msg


@pytest.mark.parametrize("with_prince", [False, True])
def test_error_twin_cannot_be_named(with_prince: bool) -> None:
    """§1: the Twin is never chosen (alone or beside the Prince); the message says it comes with the Prince."""
    cards = [*NINE[:8], "prince", "twin"] if with_prince else [*NINE, "twin"]
    with pytest.raises(RecipeError) as err:
        parse_recipe(",".join(cards))
    msg = str(err.value).lower()
    assert "twin" in msg and "prince" in msg


def test_error_unknown_box_in_random_pool() -> None:
    """§1: `random:<boxes>` names only known boxes."""
    with pytest.raises(RecipeError, match="unknown box 'promo'"):
        parse_recipe("random:base+promo", seed=1)
