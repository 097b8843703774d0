"""The ``oriflamme`` program: a stdlib-only entry point in front of the Typer app.

``main`` checks that the command-line extra is installed before importing
anything from it, so that ``pip install oriflamme`` (the engine alone) followed
by ``oriflamme`` says what to install instead of failing with a traceback.
"""

from __future__ import annotations

import sys

from .._compat import moved_names
from ..extras import MissingExtraError, require_extra

#: Exit code for bad arguments and missing extras, the same as a usage error.
EXIT_USAGE = 2


def main() -> None:
    """Console-script entry point."""
    try:
        require_extra("cli", "the oriflamme command")
    except MissingExtraError as exc:
        print(f"error: {exc}", file=sys.stderr)
        raise SystemExit(EXIT_USAGE) from None
    from .app import app

    app(prog_name="oriflamme")


#: 0.1's ``oriflamme.cli`` held the Typer app and its helpers.
__getattr__ = moved_names(
    __name__,
    {
        "print_json": "oriflamme.commandline:print_json",
        "user_errors": "oriflamme.commandline:user_errors",
    },
)
