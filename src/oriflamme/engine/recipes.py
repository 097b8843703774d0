"""Deck recipes: which 10 kinds every family plays with (docs/rules.md §1).

A recipe is a sorted tuple of 10 distinct kind ids, never containing the Twin:
the Twin is dealt with the Prince automatically, outside the 10.
"""

from __future__ import annotations

import random

from .cards import KINDS, OFFICIAL_BOXES, OFFICIAL_KINDS, PRINCE, SLUGS, TWIN, kind_from_slug
from .errors import RecipeError

RECIPE_SIZE = 10

PRESETS: dict[str, tuple[int, ...]] = {
    box: tuple(k.id for k in KINDS if k.box == box and k.id != TWIN) for box in OFFICIAL_BOXES
}

#: Kinds a seeded ``random`` recipe draws from: the official ones but the Twin. A designer's
#: loaded kinds never join it, so a seed deals the same recipe whatever is loaded; a recipe
#: names them card by card.
CHOOSABLE: tuple[int, ...] = tuple(k for k in range(OFFICIAL_KINDS) if k != TWIN)


def validate_recipe(kinds: tuple[int, ...] | list[int]) -> tuple[int, ...]:
    """Check a recipe given as kind ids and return its canonical (sorted) form."""
    ids = list(kinds)
    for k in ids:
        if not 0 <= k < len(KINDS):
            raise RecipeError(f"unknown card id {k}")
    if TWIN in ids:
        raise RecipeError("the twin cannot be chosen: it comes with the prince")
    seen: set[int] = set()
    dups = sorted({SLUGS[k] for k in ids if k in seen or seen.add(k)})  # type: ignore[func-returns-value]
    if dups:
        raise RecipeError(f"a recipe holds each card once; repeated: {', '.join(dups)}")
    if len(ids) != RECIPE_SIZE:
        raise RecipeError(f"a recipe has exactly {RECIPE_SIZE} distinct cards, got {len(ids)}")
    return tuple(sorted(ids))


def random_recipe(rng: random.Random, pool: tuple[int, ...] = CHOOSABLE) -> tuple[int, ...]:
    """Draw 10 distinct kinds from ``pool`` (seeded by the caller's RNG)."""
    return validate_recipe(rng.sample(sorted(set(pool) - {TWIN}), RECIPE_SIZE))


def parse_recipe(text: str, seed: int | None = None) -> tuple[int, ...]:
    """Read a recipe: a preset name, ``random`` (seeded), or a comma-separated list of slugs."""
    name = text.strip().lower()
    if name in PRESETS:
        return PRESETS[name]
    if name == "random" or name.startswith("random:"):
        pool_name = name.partition(":")[2]
        if pool_name:
            pool: set[int] = set()
            for box in pool_name.split("+"):
                if box not in PRESETS:
                    raise RecipeError(f"unknown box {box!r} in {text!r}; boxes: {', '.join(PRESETS)}")
                pool.update(PRESETS[box])
            return random_recipe(random.Random(seed), tuple(sorted(pool)))
        return random_recipe(random.Random(seed))
    parts = [p for p in name.split(",") if p.strip()]
    if len(parts) < 2:
        raise RecipeError(
            f"unknown deck {text!r}: use a preset ({', '.join(PRESETS)}), 'random', "
            "or a comma-separated list of 10 cards"
        )
    ids: list[int] = []
    for p in parts:
        try:
            ids.append(kind_from_slug(p))
        except ValueError as exc:
            raise RecipeError(str(exc)) from None
    return validate_recipe(ids)


def recipe_name(recipe: tuple[int, ...]) -> str:
    """The preset name of a recipe, or its comma-separated slugs."""
    for name, kinds in PRESETS.items():
        if kinds == recipe:
            return name
    return ",".join(SLUGS[k] for k in recipe)


def family_kinds(recipe: tuple[int, ...]) -> tuple[int, ...]:
    """The kinds one family holds: the recipe, plus the Twin when the Prince is in it."""
    return recipe + (TWIN,) if PRINCE in recipe else recipe
