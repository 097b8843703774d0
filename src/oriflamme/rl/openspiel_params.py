"""The parameters of ``python_oriflamme`` as OpenSpiel's game strings carry them.

A game string such as ``python_oriflamme(deck=base,players=2)`` must load the
same game again, so the ``deck`` parameter has one stored form that survives
it (:func:`deck_parameter`), and reading the parameters refuses what is not a
fixed setup with explicit chance. Kept apart from the game so that the text
form can be read and written without building a game.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..engine.options import RuleOptions
from ..engine.recipes import parse_recipe, recipe_name

__all__ = ["DECK_SEPARATOR", "deck_parameter", "deck_text", "read_deck", "read_setup"]

#: Joins a custom deck's card slugs in the ``deck`` parameter. OpenSpiel's game strings
#: (``python_oriflamme(deck=...,players=2)``) split parameters at commas, so the
#: comma-separated recipe of the rest of the project cannot round-trip through them.
DECK_SEPARATOR = "+"


def read_deck(text: str) -> tuple[int, ...]:
    """The recipe of a ``deck`` parameter: a preset, or slugs joined by ``+`` (or by commas)."""
    name = text.strip().lower()
    if name.startswith("random"):
        raise ValueError(
            "deck: give a preset or a list of cards; a random recipe is not an explicit chance node"
        )
    return parse_recipe(name.replace(DECK_SEPARATOR, ","))


def deck_parameter(deck: str) -> str:
    """The canonical ``deck`` parameter of a deck (a preset, or slugs joined by ``+`` or commas).

    A preset keeps its name; any other recipe becomes its slugs in the
    engine's order joined by :data:`DECK_SEPARATOR`, which OpenSpiel's game
    strings carry unchanged. The game stores this form, so ``str(game)``
    loads the same game again.
    """
    return deck_text(read_deck(deck))


def deck_text(recipe: tuple[int, ...]) -> str:
    """The stored ``deck`` parameter of a recipe (see :func:`deck_parameter`)."""
    return recipe_name(recipe).replace(",", DECK_SEPARATOR)


def read_setup(params: Mapping[str, Any]) -> tuple[int, tuple[int, ...], RuleOptions]:
    """The players, recipe and rule options a full set of parameters (defaults filled in) names."""
    recipe = read_deck(str(params["deck"]))
    rules = RuleOptions(
        schemer_gain=int(params["schemer_gain"]),
        two_player_cards_per_round=int(params["two_player_cards_per_round"]),
        rounds=int(params["rounds"]),
    )
    return int(params["players"]), recipe, rules
