"""Finished games' documents (replays, save files), built once, on a thread, and kept a while.

A replay rebuilds the whole game and runs to hundreds of kilobytes (tens of
milliseconds of work): built on the event loop for each request, sixteen
clients asking for one made every other table wait. A finished game never
changes, so each document is built once per (table, seat), away from the
loop, by the first request; the requests that arrive meanwhile wait for that
same build, and later ones are answered from memory (``cachetools``, bounded
by the documents' total size).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Hashable

from cachetools import LRUCache

#: Characters of documents kept in memory, in all.
CACHE_CHARS = 64 * 1024 * 1024


class Documents:
    """Documents of finished games by key, each built once by a function run on a thread."""

    def __init__(self, max_chars: int = CACHE_CHARS) -> None:
        self._kept: LRUCache[Hashable, str] = LRUCache(maxsize=max_chars, getsizeof=len)
        self._building: dict[Hashable, asyncio.Future[str]] = {}
        #: Documents built (not answered from memory): what the tests and the metrics count.
        self.builds = 0

    async def get(self, key: Hashable, build: Callable[[], str]) -> str:
        """The document of ``key``: kept, being built, or built now by ``build()`` on a thread."""
        kept = self._kept.get(key)
        if kept is not None:
            return kept
        pending = self._building.get(key)
        if pending is None:
            pending = self._building[key] = asyncio.ensure_future(self._build(key, build))
        # Shielded: a request that goes away does not stop the build the others wait for.
        return await asyncio.shield(pending)

    async def _build(self, key: Hashable, build: Callable[[], str]) -> str:
        try:
            self.builds += 1
            text = await asyncio.to_thread(build)
            if len(text) <= self._kept.maxsize:
                self._kept[key] = text
            return text
        finally:
            del self._building[key]
