"""Import paths of earlier releases, kept for one release with a DeprecationWarning.

Version 0.1 had every module at the top of the package (``oriflamme.game``,
``oriflamme.position``, ``oriflamme.savefile`` ...). They moved into
:mod:`oriflamme.engine`, :mod:`oriflamme.notation`, :mod:`oriflamme.tournament`
and :mod:`oriflamme.bench`. An old path still imports, as a module that
forwards every attribute to its new home, and warns; it goes in 0.3, the
release after this one (see CHANGELOG.md). The names in
``oriflamme.__all__`` are the stable way in and never warn.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import types
import warnings
from collections.abc import Callable, Sequence
from typing import Any

#: Old module path -> the modules that now hold its names (searched in order).
MOVED: dict[str, tuple[str, ...]] = {
    "oriflamme.actions": ("oriflamme.engine.actions",),
    "oriflamme.cards": ("oriflamme.engine.cards",),
    "oriflamme.zones": ("oriflamme.engine.zones",),
    "oriflamme.errors": ("oriflamme.engine.errors",),
    "oriflamme.options": ("oriflamme.engine.options",),
    "oriflamme.recipes": ("oriflamme.engine.recipes",),
    "oriflamme.registry": ("oriflamme.engine.registry",),
    "oriflamme.events": ("oriflamme.engine.events", "oriflamme.engine.view"),
    "oriflamme.game": ("oriflamme.engine.game", "oriflamme.engine.state", "oriflamme.engine.layout"),
    "oriflamme.view": ("oriflamme.engine.view",),
    "oriflamme.sampler": ("oriflamme.engine.sampler",),
    "oriflamme.boxes": ("oriflamme.engine.boxes",),
    "oriflamme.boxes.base": ("oriflamme.engine.boxes.base",),
    "oriflamme.boxes.ablaze": ("oriflamme.engine.boxes.ablaze",),
    "oriflamme.boxes.alliance": ("oriflamme.engine.boxes.alliance",),
    "oriflamme.boxes.common": ("oriflamme.engine.boxes.common",),
    "oriflamme.position": ("oriflamme.notation.position",),
    "oriflamme.savefile": ("oriflamme.notation.savefile",),
    "oriflamme.tournament_record": ("oriflamme.tournament.record", "oriflamme.tournament.record_lines"),
    "oriflamme.cli_tournament": ("oriflamme.tournament.command",),
    "oriflamme.web.loadbench": ("oriflamme.bench.server", "oriflamme.bench.server_command"),
}


class _Forwarder(types.ModuleType):
    """A module whose attributes are those of the modules that replaced it."""

    def __init__(self, name: str, targets: Sequence[types.ModuleType]) -> None:
        super().__init__(name, f"Deprecated: moved to {', '.join(t.__name__ for t in targets)}.")
        self._targets = tuple(targets)
        # ``from oriflamme.cards import *`` binds what the new homes export.
        exported: dict[str, None] = {}
        for t in targets:
            for n in getattr(t, "__all__", [n for n in vars(t) if not n.startswith("_")]):
                exported[n] = None
        self.__all__ = list(exported)

    def __getattr__(self, attr: str) -> Any:
        # Module machinery (``__path__``, ``__file__`` ...) is the forwarder's own: forwarding
        # ``__path__`` would let the import system load a moved module's file a second time.
        if attr.startswith("__"):
            raise AttributeError(attr)
        for target in self.__dict__.get("_targets", ()):
            if hasattr(target, attr):
                return getattr(target, attr)
        raise AttributeError(f"module {self.__name__!r} has no attribute {attr!r}")

    def __dir__(self) -> list[str]:
        return sorted({a for t in self._targets for a in dir(t)})


def _importer_level() -> int:
    """The ``stacklevel`` of the code that wrote the import, past the import machinery's frames.

    ``warnings`` itself already skips the frozen ``importlib._bootstrap`` frames, so only the
    others are counted.
    """
    frame: types.FrameType | None = sys._getframe(1)
    level = 1
    while frame is not None and frame.f_back is not None:
        name = frame.f_code.co_filename
        internal = "importlib" in name and "_bootstrap" in name
        if not internal and name not in (__file__, importlib.__file__):
            break
        frame = frame.f_back
        level += 0 if internal else 1
    return level


class _Loader(importlib.abc.Loader):
    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        targets = [importlib.import_module(t) for t in MOVED[spec.name]]
        new = ", ".join(MOVED[spec.name])
        warnings.warn(
            f"{spec.name} is deprecated and will be removed in oriflamme 0.3; import from {new} "
            "or from the top-level oriflamme package instead",
            DeprecationWarning,
            stacklevel=_importer_level(),
        )
        return _Forwarder(spec.name, targets)

    def exec_module(self, module: types.ModuleType) -> None:
        """Nothing to run: the forwarder is complete when created."""


class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: types.ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in MOVED:
            return None
        # A package path, so that the old ``oriflamme.boxes.base`` can be found below it.
        return importlib.machinery.ModuleSpec(fullname, _Loader(), is_package=fullname == "oriflamme.boxes")


_FINDER = _Finder()


def moved_names(package: str, names: dict[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` for names that left ``package`` in 0.2 while the module stayed.

    ``names`` maps an old name to ``"new.module:new_name"``; reading the old name warns and
    forwards, any other missing name is the usual AttributeError.
    """

    def __getattr__(name: str) -> Any:
        target = names.get(name)
        if target is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module, _, attr = target.partition(":")
        warnings.warn(
            f"{package}.{name} is deprecated and will be removed in oriflamme 0.3; use {module}.{attr}",
            DeprecationWarning,
            stacklevel=2,
        )
        return getattr(importlib.import_module(module), attr)

    return __getattr__


def final_ranks(game: Any) -> list[float]:
    """0.1's ``oriflamme.tournament.final_ranks``: now ``game.outcome().ranks``."""
    return list(game.outcome().ranks)


def install() -> None:
    """Put the finder on ``sys.meta_path`` once (after the regular finders: real modules win)."""
    if _FINDER not in sys.meta_path:
        sys.meta_path.append(_FINDER)
