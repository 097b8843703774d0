"""The search for a person: hints during a game against bots, and the review of a finished game.

Routes::

    POST /api/hint                 a person's options ranked by the search (games against bots)
    GET  /api/review/TOKEN         a person's moves in a finished game, judged by the search
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import JSONResponse

from ..bots.review import move_facts
from ..engine.action_text import action_text
from ..engine.seeds import derive_seed
from . import analysis_jobs
from .addresses import address_of, maker_of
from .api_bodies import HintBody
from .bot_runners import plain_view
from .guard import Refused
from .server_parts import Parts, ServerParts
from .table_game import table_setup
from .tables import maker_digest

#: Hints and reviews waiting for the one analysis slot of a process, at most: beyond, "busy".
MAX_WAITING_ANALYSES = 8
#: Reviews of finished games a process keeps (a review does not change).
MAX_REVIEWS_KEPT = 256

router = APIRouter()


async def _analysed(parts: ServerParts, request: Request, job: Callable[..., Any], *args: Any) -> Any:
    """Run a search for a person: counted against their address, one at a time per process, and
    in turn with the bots' moves by the asker's address (:mod:`.bot_share`), so that hints and
    reviews never take more than one of the bot pool's workers, nor their fair share, from the tables."""
    address = address_of(request.client)
    parts.guard.analysis(address)
    if parts.analyses_waiting >= MAX_WAITING_ANALYSES:
        raise Refused("the server is busy with other hints and reviews; try again in a minute", 60)
    parts.analyses_waiting += 1
    try:
        async with parts.analysis_slot:
            registry = parts.registry
            runner = registry.bot_runner
            asker = maker_digest(maker_of(address))
            return await registry.bot_share.run(asker, lambda: runner.analyse(job, *args))
    finally:
        parts.analyses_waiting -= 1


@router.post("/api/hint", response_model=None)
async def hint(body: HintBody, request: Request, parts: Parts) -> dict[str, Any] | JSONResponse:
    """The search's view of the person's decision now: every option with its win chance.

    Only at a table where the person plays against bots alone (among people a hint would be
    help nobody else has), only for their own decision, from their own view.
    """
    found = await parts.registry.resolve(body.token)
    if found is None or found[1].role != "person":
        raise HTTPException(404, "no seat has this link")
    table, ref = found
    seat = ref.seat
    assert seat is not None
    if any(s.kind == "person" for i, s in enumerate(table.record.seats) if i != seat):
        raise HTTPException(403, "hints are for games against bots only")
    g = table.game
    if g.is_over() or g.current_player() != seat:
        raise HTTPException(409, "it is not your decision")
    if body.state != table.state:
        raise HTTPException(409, f"the hint was asked at state {body.state}; the game is at {table.state}")
    view = plain_view(g.view(seat))
    seed = derive_seed("hint", table.record.seed, body.state)
    try:
        values = await _analysed(parts, request, analysis_jobs.hint, view, seed)
    except Refused as stop:
        return parts.refused(stop, "analyses")
    if table.state != body.state:
        raise HTTPException(409, "the game moved on while the search thought")
    options = [
        {"action": action_text(g, a), "win": win, "visits": visits, "move": move_facts(g, a).to_dict()}
        for a, win, visits in values
    ]
    return {"state": body.state, "level": analysis_jobs.LEVEL, "options": options}


@router.get("/api/review/{token}", response_model=None)
async def review(token: str, request: Request, parts: Parts) -> dict[str, Any] | JSONResponse:
    """A person's moves in a finished game, each with the move the search preferred and its cost."""
    found = await parts.registry.resolve(token) if len(token) <= 64 else None
    if found is None or found[1].role != "person":
        raise HTTPException(404, "no seat has this link")
    table, ref = found
    seat = ref.seat
    assert seat is not None
    if not table.game.is_over():
        raise HTTPException(409, "the game is not over yet")
    key = (table.record.id, seat)
    rows = parts.reviews.get(key)
    if rows is None:
        job = analysis_jobs.review
        try:
            rows = await _analysed(parts, request, job, table_setup(table.record), list(table.actions), seat)
        except Refused as stop:
            return parts.refused(stop, "analyses")
        parts.reviews[key] = rows
        while len(parts.reviews) > MAX_REVIEWS_KEPT:
            parts.reviews.pop(next(iter(parts.reviews)))
    return {"seat": seat, "level": analysis_jobs.LEVEL, "moves": rows}
