"""Optional dependencies by extra, and the message a command gives when its extra is missing.

The engine, the notation and the bots need only the standard library; every
command of the ``oriflamme`` program needs some third-party packages, grouped
in pyproject.toml as extras. A command checks its extra before doing
anything, so that a missing package is reported as the one line that fixes it
(``pip install 'oriflamme[web]'``) instead of an ImportError traceback. In a
source checkout installed with ``pip install -e`` that line would fetch the
released package over the checkout, so there the line installs the extra into
the checkout instead (``pip install -e '.[web]'``).
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import json
import os
from functools import cache
from pathlib import Path
from urllib.parse import unquote, urlparse

#: The importable modules each extra brings (what is checked, not every package installed).
EXTRAS: dict[str, tuple[str, ...]] = {
    "cli": ("typer", "rich"),
    "tui": ("typer", "rich", "babel"),
    "web": (
        "typer",
        "rich",
        "fastapi",
        "uvicorn",
        "platformdirs",
        "limits",
        "prometheus_client",
        "alembic",
        "sqlalchemy",
        "pwdlib",
        "argon2",
        "openskill",
        "confusable_homoglyphs",
    ),
    "tournament": ("typer", "rich", "openskill"),
    "cluster": ("ray",),
    "postgres": ("psycopg", "psycopg_pool"),
    "analysis": ("typer", "rich", "openskill", "matplotlib", "pyarrow"),
    "bench": ("typer", "rich", "fastapi", "uvicorn", "websockets"),
    "rl": ("numpy", "gymnasium", "pettingzoo"),
    "train": ("numpy", "jax", "optax"),
    "vector": ("numpy", "jax"),
}


class MissingExtraError(ImportError):
    """A feature was used whose optional dependencies are not installed."""

    def __init__(self, extra: str, missing: list[str], what: str) -> None:
        self.extra = extra
        self.missing = missing
        super().__init__(
            f"{what} needs the '{extra}' extra (missing: {', '.join(missing)}); "
            f"install it with: {install_command(extra)}"
        )


@cache
def editable_checkout() -> Path | None:
    """The folder of the source checkout this package is installed from in editable mode, if it is.

    pip records how a distribution was installed in its ``direct_url.json``
    (PEP 610); ``dir_info.editable`` marks ``pip install -e``.
    """
    try:
        text = importlib.metadata.distribution("oriflamme").read_text("direct_url.json")
    except importlib.metadata.PackageNotFoundError:
        return None
    try:
        record = json.loads(text or "null")
    except ValueError:
        return None
    if not isinstance(record, dict) or not isinstance(record.get("dir_info"), dict):
        return None
    url = urlparse(str(record.get("url", "")))
    if not record["dir_info"].get("editable") or url.scheme != "file":
        return None
    return Path(unquote(url.path))


def install_command(extra: str) -> str:
    """The pip line that installs ``extra`` into this installation (the checkout's own, when editable)."""
    checkout = editable_checkout()
    if checkout is None:
        return f"pip install 'oriflamme[{extra}]'"
    try:
        here = checkout.samefile(os.getcwd())
    except OSError:
        here = False
    return f"pip install -e '{'.' if here else checkout}[{extra}]'"


def missing_modules(modules: tuple[str, ...]) -> list[str]:
    """The modules of ``modules`` that cannot be imported here."""
    return [m for m in modules if importlib.util.find_spec(m) is None]


def require_extra(extra: str, what: str) -> None:
    """Raise :class:`MissingExtraError` naming ``extra`` if any of its modules is missing."""
    missing = missing_modules(EXTRAS[extra])
    if missing:
        raise MissingExtraError(extra, missing, what)
