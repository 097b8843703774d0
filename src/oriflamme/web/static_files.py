"""The page's static files: where they are, their version hash, and how they are served."""

from __future__ import annotations

import hashlib
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import Response
from fastapi.staticfiles import StaticFiles

STATIC = Path(str(resources.files("oriflamme.web") / "static"))


def static_version() -> str:
    """A short hash of every static file: the path segment under which this version's files are served."""
    digest = hashlib.sha256()
    for path in sorted(STATIC.rglob("*")):
        if path.is_file():
            digest.update(path.relative_to(STATIC).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


class ImmutableFiles(StaticFiles):
    """Static files whose path holds their version: cached by browsers and proxies for a year."""

    async def get_response(self, path: str, scope: Any) -> Response:
        response = await super().get_response(path, scope)
        if response.status_code == 200:
            response.headers["Cache-Control"] = "public, max-age=31536000, immutable"
        return response
