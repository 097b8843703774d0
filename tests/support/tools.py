"""The scripts in ``tools/``, loaded as modules for their tests (``tools/`` is not a package)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).parents[2]


def load_tool(name: str) -> ModuleType:
    """``tools/NAME.py``, executed afresh as a module of that name."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    sys.modules[name] = tool  # a dataclass finds its module's namespace there
    spec.loader.exec_module(tool)
    return tool
