"""A finished game's documents: its replay as a link may see it, and its save file.

Routes::

    GET  /api/replay/TOKEN         every step of a finished game, as that token may see it
    GET  /api/save/TOKEN           a finished game as a save file (replay, review)

Both are built once, off the event loop, and cached (:mod:`.documents`).
"""

from __future__ import annotations

from functools import partial

from fastapi import APIRouter, HTTPException, Request, Response

from ..notation import savefile
from .live_table import LiveTable
from .ratings import RATED_REPLAY
from .server_parts import Parts, ServerParts
from .table_documents import replay_document, save_seats
from .tables import TableDamaged

router = APIRouter()


async def _finished_table(parts: ServerParts, token: str, not_over: str) -> tuple[LiveTable, int | None]:
    """The finished table behind a player's, host's or spectator's link, and the seat it plays (None:
    none); 404 for an unknown or a bot's link, 409 with ``not_over`` while the game goes on."""
    if token.startswith(RATED_REPLAY) and len(token) <= 200:
        return await _rated_table(parts, token.removeprefix(RATED_REPLAY)), None
    found = await parts.registry.resolve(token) if len(token) <= 64 else None
    if found is None or found[1].role == "bot":
        raise HTTPException(404, "no table has this link")
    table, ref = found
    if not table.game.is_over():
        raise HTTPException(409, not_over)
    return table, ref.seat if ref.role == "person" else None


async def _rated_table(parts: ServerParts, table_id: str) -> LiveTable:
    """A rated game, as the public replay link of a player's profile names it (its spectator's
    view; nothing else of the table: its own links stay with those who were given them)."""
    try:
        table = await parts.registry.get(table_id) if await parts.ratings.was_rated(table_id) else None
    except TableDamaged:
        table = None
    if table is None or not table.game.is_over():
        raise HTTPException(404, "no rated game has this link")
    return table


@router.get("/api/replay/{token}")
async def replay(token: str, request: Request, parts: Parts) -> Response:
    if (over := parts.over_reads(request)) is not None:
        return over
    table, seat = await _finished_table(parts, token, "the game is not over yet")
    key = ("replay", table.record.id, seat)
    text = await parts.documents.get(key, partial(replay_document, table, seat))
    return Response(text, media_type="application/json")


@router.get("/api/save/{token}")
async def save_file(token: str, request: Request, parts: Parts) -> Response:
    """A finished game as a save file (``oriflamme replay`` / ``oriflamme review`` read it).

    Only once the game is over: the file holds the seed, from which every card can be dealt again.
    """
    if (over := parts.over_reads(request)) is not None:
        return over
    not_over = "the game is not over yet: it can be downloaded when it ends"
    table, _ = await _finished_table(parts, token, not_over)
    body = await parts.documents.get(
        ("save", table.record.id), lambda: savefile.dumps(table.game, seats=save_seats(table))
    )
    name = f"oriflamme-{table.record.id}.json"
    return Response(
        body,
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )
