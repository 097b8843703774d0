"""Oriflamme as a batched JAX program: fixed-shape states, and their observations and masks (docs/environments/vector.md).

A client of the engine and the encodings: ``from_game`` turns any Python
game at any decision into a :class:`State` (and ``to_game`` back into a
game the engine plays on identically); :func:`observe` and
:func:`legal_action_mask` are jit- and vmap-able and equal, bit for bit,
what :mod:`oriflamme.encoding` gives for the same position. Stepping on the
device: ``oriflamme.vector.step.step`` applies a decision and runs the rules to the next
one, exactly as the engine does for all 31 kinds, :func:`place` the placement alone. (``step`` is not a name of this
package: its module has that name.) :func:`deal` deals new games on the device, and
:class:`Env` is the environment in pgx's shape (``init``, ``step``, ``observe``).

Importing this package needs nothing; using it needs JAX (the ``vector``
extra): without it, any name of the package raises
:class:`~oriflamme.extras.MissingExtraError` with the line that installs it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from ..extras import require_extra

if TYPE_CHECKING:
    from .convert import from_game, from_games, to_game
    from .deal import deal
    from .env import Env, EnvState
    from .mask import legal_action_mask
    from .observation import observe
    from .sparse import batched
    from .state import State
    from .step import place

__all__ = [
    "Env",
    "EnvState",
    "State",
    "batched",
    "deal",
    "from_game",
    "from_games",
    "legal_action_mask",
    "observe",
    "place",
    "to_game",
]

#: Each public name, and the module of this package that holds it.
_HOMES = {
    "State": "state",
    "Env": "env",
    "EnvState": "env",
    "batched": "sparse",
    "deal": "deal",
    "from_game": "convert",
    "from_games": "convert",
    "to_game": "convert",
    "legal_action_mask": "mask",
    "observe": "observation",
    "place": "step",
}


def __getattr__(name: str) -> Any:
    """Load a public name's module on first use, once JAX is known to be there."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    require_extra("vector", "oriflamme.vector")
    return getattr(importlib.import_module(f"{__name__}.{home}"), name)
