"""An account's friends, blocks and invitations by name (see :mod:`.friends`).

Routes::

    GET  /api/account/friends          the friends list, each with ``online`` (null unless mutual)
    POST /api/account/friends/add      {name} -> listed (the list answered)
    POST /api/account/friends/remove   {name} -> no longer listed (the list answered)
    GET  /api/account/blocks           the names this account blocks
    POST /api/account/blocks/add       {name} -> blocked (the names answered)
    POST /api/account/blocks/remove    {name} -> unblocked (the names answered)
    GET  /api/account/invites          the seats offered to this account, with their tables
    POST /api/account/invites/take     {table, seat} -> the seat's link, kept with the account
    POST /api/account/invites/decline  {table, seat} -> the invitation is gone
    POST /api/account/invites/send     {host, seat, name} -> a seat nobody took offered by name,
                                       from the table's host link (the seat's link still works)

Every POST needs the CSRF token (see :mod:`.routes_accounts`), and every route a session.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from .accounts import Account, AccountError
from .friends import Invitation, Social
from .live_table import LiveTable
from .routes_accounts import CsrfChecked, LoggedIn
from .server_parts import Parts, ServerParts
from .store import TokenRef
from .tables import TableDamaged

router = APIRouter()


class NameBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: Annotated[str, Field(min_length=1, max_length=64)]


class InviteBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    table: Annotated[str, Field(min_length=1, max_length=64)]
    seat: Annotated[int, Field(ge=0, le=4)]


class SendBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    #: The table's host link: whoever holds it hands out the seats' links already.
    host: Annotated[str, Field(min_length=1, max_length=64)]
    seat: Annotated[int, Field(ge=1, le=4)]
    name: Annotated[str, Field(min_length=1, max_length=64)]


NO_INVITATION = "no such invitation (it was taken, declined, or its game is over)"


def _owner(account: Account | None) -> Account:
    if account is None:
        raise AccountError("log in first", 401)
    return account


def _private(data: dict[str, Any]) -> JSONResponse:
    return JSONResponse(data, headers={"Cache-Control": "no-store"})


async def _friends(social: Social, me: Account) -> JSONResponse:
    listed = await social.friends(me)
    return _private({"friends": [{"name": f.name, "added": f.added, "online": f.online} for f in listed]})


async def _blocks(social: Social, me: Account) -> JSONResponse:
    return _private({"blocks": await social.blocked(me)})


@router.get("/api/account/friends")
async def friends(parts: Parts, account: LoggedIn) -> Response:
    return await _friends(parts.social, _owner(account))


@router.post("/api/account/friends/add", dependencies=[CsrfChecked], response_model=None)
async def add_friend(body: NameBody, request: Request, parts: Parts, account: LoggedIn) -> Response:
    me = _owner(account)
    if (over := parts.over_reads(request)) is not None:  # names are not to be tried in bulk
        return over
    await parts.social.add_friend(me, body.name)
    return await _friends(parts.social, me)


@router.post("/api/account/friends/remove", dependencies=[CsrfChecked])
async def remove_friend(body: NameBody, parts: Parts, account: LoggedIn) -> Response:
    me = _owner(account)
    await parts.social.remove_friend(me, body.name)
    return await _friends(parts.social, me)


@router.get("/api/account/blocks")
async def blocks(parts: Parts, account: LoggedIn) -> Response:
    return await _blocks(parts.social, _owner(account))


@router.post("/api/account/blocks/add", dependencies=[CsrfChecked], response_model=None)
async def block(body: NameBody, request: Request, parts: Parts, account: LoggedIn) -> Response:
    me = _owner(account)
    if (over := parts.over_reads(request)) is not None:
        return over
    await parts.social.block(me, body.name)
    return await _blocks(parts.social, me)


@router.post("/api/account/blocks/remove", dependencies=[CsrfChecked])
async def unblock(body: NameBody, parts: Parts, account: LoggedIn) -> Response:
    me = _owner(account)
    await parts.social.unblock(me, body.name)
    return await _blocks(parts.social, me)


async def _open_table(parts: ServerParts, invitation: Invitation) -> LiveTable | None:
    """The invitation's table while its seat may still be taken (None: it cannot, and the
    invitation is forgotten: the game is over, or somebody opened the seat's link)."""
    try:
        table = await parts.registry.get(invitation.table_id)
    except TableDamaged:
        table = None
    if table is None or table.finished or table.game.is_over() or invitation.seat in table.joined:
        await parts.social.drop_invitation(invitation.table_id, invitation.seat)
        return None
    return table


@router.get("/api/account/invites")
async def invites(request: Request, parts: Parts, account: LoggedIn) -> Response:
    me = _owner(account)
    if (over := parts.over_reads(request)) is not None:
        return over
    out: list[dict[str, Any]] = []
    for invitation in await parts.social.invitations(me):
        table = await _open_table(parts, invitation)
        if table is None:
            continue
        r = table.record
        out.append(
            {
                "table": r.id,
                "seat": invitation.seat,
                "by": invitation.by,
                "created": invitation.created,
                "deck": r.deck,
                "players": r.players,
                "turn_seconds": r.turn_seconds,
                "seats": [{"name": s.name, "kind": s.kind, "bot": s.bot} for s in r.seats],
            }
        )
    return _private({"invites": out})


@router.post("/api/account/invites/take", dependencies=[CsrfChecked])
async def take(body: InviteBody, parts: Parts, account: LoggedIn) -> Response:
    """The seat's link, kept with the account (shown in "My games" wherever its owner logs in)."""
    me = _owner(account)
    invitation = await parts.social.invitation(me, body.table, body.seat)
    table = None if invitation is None else await _open_table(parts, invitation)
    if table is None:
        raise AccountError(NO_INVITATION, 404)
    token = table.record.seats[body.seat].token
    refused = await parts.accounts.keep_links(me, [(token, TokenRef(body.table, "person", body.seat))])
    if refused:
        raise AccountError("your account holds another seat at this table", 409)
    await parts.social.drop_invitation(body.table, body.seat, me)
    return _private({"table": body.table, "seat": body.seat, "token": token})


@router.post("/api/account/invites/decline", dependencies=[CsrfChecked])
async def decline(body: InviteBody, parts: Parts, account: LoggedIn) -> Response:
    me = _owner(account)
    if await parts.social.invitation(me, body.table, body.seat) is None:
        raise AccountError(NO_INVITATION, 404)
    await parts.social.drop_invitation(body.table, body.seat, me)
    return Response(status_code=204)


@router.post("/api/account/invites/send", dependencies=[CsrfChecked], response_model=None)
async def send(body: SendBody, request: Request, parts: Parts, account: LoggedIn) -> Response:
    """Offer a friend's seat nobody took yet to an account by name, from the table's host link.

    Answered alike whether or not the account blocks the sender (then nothing is offered)."""
    me = _owner(account)
    if (over := parts.over_reads(request)) is not None:
        return over
    found = await parts.registry.resolve(body.host)
    if found is None or found[1].role != "host":
        raise AccountError("no table has this host link", 404)
    table = found[0]
    r = table.record
    if table.finished or table.game.is_over():
        raise AccountError("the game is over", 409)
    if not r.host_sees_links or body.seat >= r.players or r.seats[body.seat].kind != "person":
        raise AccountError(f"seat {body.seat + 1} is not a friend's seat: only those are offered by name")
    if body.seat in table.joined:
        raise AccountError("somebody took this seat already", 409)
    invitees = await parts.social.invitees(me, {body.seat: body.name})
    await parts.social.invite(me, r.id, invitees)
    return Response(status_code=204)
