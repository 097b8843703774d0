"""Card behaviour, one module per box; importing this package registers all of it."""

from . import ablaze, alliance, base, common  # noqa: F401
