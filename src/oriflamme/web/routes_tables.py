"""Tables: making one, the lobby's list, open tables and their seats, quick match, rematches.

Routes::

    POST /api/tables               create a table -> invite links (and seats offered to accounts by name)
    POST /api/lobby                summaries of the tables behind a list of tokens
    GET  /api/open                 open tables, with their free seats
    GET  /api/live                 live games anyone may watch, with their players' ratings
    POST /api/open/join            take a free seat at an open table -> its link
    POST /api/quick-match          a seat now, at an open table or a new one -> its link
    POST /api/rematch              the next game with the same seats -> the asker's new link
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import JSONResponse

from .accounts import Account, AccountError
from .addresses import address_of, maker_of, person_of
from .api_bodies import CreateTableBody, JoinOpenBody, LobbyBody, QuickMatchBody, RematchBody
from .live_table import LiveTable
from .routes_accounts import session_account
from .server_parts import Parts
from .table_documents import table_summary
from .tables import LANGUAGES, SeatRequest, SetupProblem, TableDamaged

#: A quick match's table gives each person this long per decision, so nobody waits on an absent stranger.
QUICK_MATCH_TURN_SECONDS = 60

router = APIRouter()


@router.post("/api/tables", response_model=None)
async def create_table(
    body: CreateTableBody, request: Request, parts: Parts
) -> dict[str, Any] | JSONResponse:
    if (over := parts.over_creations(request)) is not None:
        return over
    registry = parts.registry
    # Every name is checked before anything is made: a wrong one makes nothing.
    inviter, invitees = await _invitees(body, request, parts)
    try:
        table = await registry.create(
            players=body.players,
            deck=body.deck,
            seats=[SeatRequest(s.kind, s.name, s.bot, s.lang) for s in body.seats],
            seed=body.seed,
            first_player=body.first_player,
            rules=body.rules,
            turn_seconds=body.turn_seconds,
            open=body.open,
            owner=maker_of(address_of(request.client)),
            watchable=body.watchable,
        )
    except SetupProblem as exc:
        raise HTTPException(400, str(exc)) from None
    r = table.record
    if r.open:
        registry.open_seats.note(r.id, person_of(request))
    if inviter is not None:
        await parts.social.invite(inviter, r.id, invitees)
    return {
        "table": r.id,
        "host": r.host_token,
        "spectator": r.spectator_token,
        "seats": [
            {
                "name": s.name,
                "kind": s.kind,
                "bot": s.bot,
                # At an open table the creator gets their own link only: the strangers who
                # take the other seats are given links of their own (OpenSeats.take).
                "token": s.token if s.kind == "person" and (i == 0 or r.host_sees_links) else None,
            }
            for i, s in enumerate(r.seats)
        ],
    }


async def _invitees(
    body: CreateTableBody, request: Request, parts: Parts
) -> tuple[Account | None, dict[int, str]]:
    """Who makes the table and the accounts its seats are offered to by name (by seat); an
    AccountError says why a name cannot be offered a seat."""
    named = {i: s.invite.strip() for i, s in enumerate(body.seats) if s.invite.strip()}
    if not named:
        return None, {}
    inviter = await session_account(request, parts)
    if inviter is None:
        raise AccountError("log in to invite players by name", 401)
    if body.open:
        raise AccountError("an open table's seats are for anyone: invite by name at a table among friends")
    for i in named:
        if i == 0 or i >= body.players or body.seats[i].kind != "person":
            raise AccountError(f"seat {i + 1} is not a friend's seat: only those are offered by name")
    return inviter, await parts.social.invitees(inviter, named)


@router.post("/api/lobby", response_model=None)
async def lobby(body: LobbyBody, request: Request, parts: Parts) -> dict[str, Any] | JSONResponse:
    if (over := parts.over_reads(request)) is not None:
        return over
    out: list[dict[str, Any]] = []
    for token in dict.fromkeys(body.tokens):
        try:
            found = await parts.registry.resolve(token)
        except TableDamaged:
            continue  # its own link says why, when opened
        if found is None:
            continue
        table, ref = found
        out.append(table_summary(table, token, ref.role, ref.seat))
    return {"tables": out}


@router.get("/api/open", response_model=None)
async def open_tables(request: Request, parts: Parts) -> dict[str, Any] | JSONResponse:
    """Tables anyone may sit at, oldest first, with their free seats."""
    if (over := parts.over_reads(request)) is not None:
        return over
    listed = await parts.registry.store.open_tables()
    return {
        "tables": [
            {
                "table": t.record.id,
                "deck": t.record.deck,
                "players": t.record.players,
                "rules": t.record.rules,
                "turn_seconds": t.record.turn_seconds,
                "created": t.record.created,
                "free": len(t.free),
                "seats": [{"name": s.name, "kind": s.kind, "bot": s.bot} for s in t.record.seats],
            }
            for t in listed
        ]
    }


def _seated(table: LiveTable, seat: int, token: str) -> dict[str, Any]:
    return {"table": table.record.id, "seat": seat, "token": token}


@router.get("/api/live", response_model=None)
async def live_games(request: Request, parts: Parts) -> dict[str, Any] | JSONResponse:
    """Unfinished tables made to be watched, newest first, each with its spectator link."""
    if (over := parts.over_reads(request)) is not None:
        return over
    out: list[dict[str, Any]] = []
    for table_id in await parts.registry.store.watchable_tables():
        try:
            table = await parts.registry.get(table_id)
        except TableDamaged:
            continue
        # A table nobody sat down at is not a game to watch (nor a place for chosen names).
        if table is None or table.game.is_over() or not table.joined:
            continue
        summary = table_summary(table, table.record.spectator_token, "spectator", None)
        ratings = await parts.ratings.seat_ratings(table)
        for i, seat in enumerate(summary["seats"]):
            seat["rating"] = ratings.get(i)
        out.append(summary)
    return {"tables": out}


@router.post("/api/open/join", response_model=None)
async def join_open(body: JoinOpenBody, request: Request, parts: Parts) -> dict[str, Any] | JSONResponse:
    """Take a free seat at an open table (the one asked for, or the oldest): its link.

    Counted like creating a table, so that one client cannot take every free seat there is."""
    if (over := parts.over_creations(request)) is not None:
        return over
    address = person_of(request)
    seats = parts.registry.open_seats
    if body.table is not None and seats.seated_at(body.table, address):
        raise HTTPException(409, "you have a seat at this table already")
    # Without a table named, the oldest one is chosen as a quick match chooses it.
    longest = QUICK_MATCH_TURN_SECONDS if body.table is None else None
    found = await seats.take(body.table, address, longest_turn=longest)
    if found is None:
        raise HTTPException(404 if body.table is None else 409, "no free seat at an open table")
    return _seated(*found)


@router.post("/api/quick-match", response_model=None)
async def quick_match(body: QuickMatchBody, request: Request, parts: Parts) -> dict[str, Any] | JSONResponse:
    """A seat now: at the oldest open table with one free, else at a new open table (you, a seat
    for the next person to ask, and a bot; a bot plays for an absent person after a minute)."""
    if (over := parts.over_creations(request)) is not None:
        return over
    registry = parts.registry
    address = person_of(request)
    found = await registry.open_seats.take(address=address, longest_turn=QUICK_MATCH_TURN_SECONDS)
    if found is not None:
        return _seated(*found)
    lang = body.lang if body.lang in LANGUAGES else "en"
    seats = [
        SeatRequest("person", "", None, lang),
        SeatRequest("person", "", None, lang),
        SeatRequest("bot", "", "heuristic", lang),
    ]
    table = await registry.create(
        3,
        "base",
        seats,
        rules=None,
        turn_seconds=QUICK_MATCH_TURN_SECONDS,
        open=True,
        owner=maker_of(address_of(request.client)),
    )
    # Stored with seat 1 taken: an open table's first seat is its creator's.
    registry.open_seats.note(table.record.id, address)
    return _seated(table, 0, table.record.seats[0].token)


@router.post("/api/rematch", response_model=None)
async def rematch(body: RematchBody, request: Request, parts: Parts) -> dict[str, Any] | JSONResponse:
    """The next game with the same seats, once this one is over; everyone asking gets the same one.

    Answers the asker's own link at the new table; the others at the old table are told theirs.
    """
    registry = parts.registry
    found = await registry.resolve(body.token)
    if found is None or found[1].role == "bot":
        raise HTTPException(404, "no table has this link")
    table, ref = found
    if ref.role not in ("person", "host"):
        raise HTTPException(403, "only the players can ask for a rematch")
    if not table.game.is_over():
        raise HTTPException(409, "the game is not over yet")
    if await registry.rematch_of(table) is None and (over := parts.over_creations(request)) is not None:
        return over
    try:
        new = await registry.rematch(table, maker_of(address_of(request.client)))
    except SetupProblem as exc:
        raise HTTPException(409, str(exc)) from None
    r = new.record
    if ref.role == "host":
        return {"table": r.id, "token": r.host_token, "role": "host", "seat": None}
    assert ref.seat is not None  # a person's link names a seat
    return {"table": r.id, "token": r.seats[ref.seat].token, "role": "person", "seat": ref.seat}
