"""Optional dependencies by extra, and the message a command gives when its extra is missing.

The engine, the notation and the bots need only the standard library; every
command of the ``oriflamme`` program needs some third-party packages, grouped
in pyproject.toml as extras. A command checks its extra before doing
anything, so that a missing package is reported as the one line that fixes it
(``pip install 'oriflamme[web]'``) instead of an ImportError traceback.
"""

from __future__ import annotations

import importlib.util

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
    ),
    "tournament": ("typer", "rich", "openskill"),
    "cluster": ("ray",),
    "postgres": ("psycopg", "psycopg_pool"),
    "analysis": ("typer", "rich", "openskill", "matplotlib", "pyarrow"),
    "bench": ("typer", "rich", "fastapi", "uvicorn", "websockets"),
    "rl": ("numpy", "gymnasium", "pettingzoo"),
    "train": ("numpy", "jax", "optax"),
}


class MissingExtraError(ImportError):
    """A feature was used whose optional dependencies are not installed."""

    def __init__(self, extra: str, missing: list[str], what: str) -> None:
        self.extra = extra
        self.missing = missing
        super().__init__(
            f"{what} needs the '{extra}' extra (missing: {', '.join(missing)}); "
            f"install it with: pip install 'oriflamme[{extra}]'"
        )


def missing_modules(modules: tuple[str, ...]) -> list[str]:
    """The modules of ``modules`` that cannot be imported here."""
    return [m for m in modules if importlib.util.find_spec(m) is None]


def require_extra(extra: str, what: str) -> None:
    """Raise :class:`MissingExtraError` naming ``extra`` if any of its modules is missing."""
    missing = missing_modules(EXTRAS[extra])
    if missing:
        raise MissingExtraError(extra, missing, what)
