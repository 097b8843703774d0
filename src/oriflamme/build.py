"""Which build of the package is running: pure Python, or the optional mypyc-compiled one.

Measurements record it, since the compiled build plays the same moves in
about a third of the time: a win rate holds for both, a time only for its build.
"""

from __future__ import annotations

import importlib

__all__ = ["build_kind", "is_compiled"]

#: The modules the optional build compiles that matter for speed (see pyproject.toml).
_COMPILED = ("oriflamme.engine.game", "oriflamme.bots.ismcts")


def is_compiled(module: str) -> bool:
    """Whether ``module`` (a dotted name, imported if it is not yet) is an extension module built
    by mypyc rather than a .py file."""
    return not (importlib.import_module(module).__file__ or "").endswith(".py")


def build_kind() -> str:
    """``pure Python``, ``compiled (mypyc)``, or ``mixed`` when only some hot modules are compiled."""
    compiled = [is_compiled(m) for m in _COMPILED]
    if all(compiled):
        return "compiled (mypyc)"
    return "mixed" if any(compiled) else "pure Python"
