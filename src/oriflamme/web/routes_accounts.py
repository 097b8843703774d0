"""Accounts: registering, logging in and out, the password, deleting and exporting (see :mod:`.accounts`).

Routes::

    GET  /api/account              who is logged in here (null: nobody); sets the CSRF cookie
    POST /api/account/register     {name, password} -> the account, logged in
    POST /api/account/login        {name, password} -> the account, logged in
    POST /api/account/logout       ends this session
    POST /api/account/password     {current, new} -> other sessions end
    POST /api/account/delete       {password} -> name and password erased, games kept
    GET  /api/account/export       everything kept about the account, as JSON
    GET  /api/account/links        the links the account holds, newest first ("My games")
    POST /api/account/links        {tokens} -> kept with the account (a guest's seats claimed)
    POST /api/account/links/forget {tokens} -> no longer kept
    POST /api/account/email        {email} -> "your turn" and "game over" mail go there ("" stops them)
    GET  /api/mail/unsubscribe/{token}  the link in every mail: no more mail
    GET  /api/ratings/{ladder}     a ladder's standing this season ("duel": 2 players, "multi": 3-5;
                                   ?season=N for an earlier one; ?offset=N&limit=N a page of it,
                                   50 by default, 100 at most), the bots' anchors among its rows
    GET  /api/account/ratings      the account's rating after each of its rated games, per ladder
    GET  /api/players/{name}       a player's public profile: ratings, their course, results, last games,
                                   favourite cards

Every POST needs the CSRF token: the page reads the ``oriflamme_csrf`` cookie
(set by ``GET /api/account``) and sends it back in the ``X-CSRF-Token`` header.
Another site's page can make a browser send the cookies, but cannot read
them, so it cannot send the header (the double-submit pattern). Logging in
is guarded the same way, so that no page can log a visitor into an account of
its choosing.
"""

from __future__ import annotations

import asyncio
import hmac
import secrets
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, Response
from fastapi.responses import HTMLResponse, JSONResponse
from pydantic import BaseModel, Field

from .accounts import MAX_PASSWORD, SESSION_SECONDS, Account, AccountError, account_key
from .addresses import address_of
from .guard import Refused
from .known_devices import DEVICE_SECONDS, KnownDevices, device_digest
from .ladder_pages import LADDER_PAGE, MAX_LADDER_PAGE, MAX_OFFSET, ladder_page, offered_anchors
from .ratings import LADDERS
from .server_parts import Parts
from .table_game import seats_that_decided
from .tables import TableDamaged

SESSION_COOKIE = "oriflamme_session"
CSRF_COOKIE = "oriflamme_csrf"
#: A browser that logged into an account before (see :mod:`.known_devices`).
DEVICE_COOKIE = "oriflamme_device"
#: Over HTTPS the cookies' names carry this prefix, with which a browser accepts a cookie only from
#: this very host over HTTPS (never from a sibling subdomain or a plain-HTTP man in the middle).
#: Such a cookie cannot be planted, so neither a session nor a CSRF token can.
HOST_ONLY = "__Host-"


def session_cookie(request: Request) -> str:
    """The session cookie's name for this request (host-only over HTTPS)."""
    return HOST_ONLY + SESSION_COOKIE if _secure(request) else SESSION_COOKIE


def device_cookie(request: Request) -> str:
    """The device cookie's name for this request (host-only over HTTPS)."""
    return HOST_ONLY + DEVICE_COOKIE if _secure(request) else DEVICE_COOKIE


def csrf_cookie(request: Request) -> str:
    """The CSRF cookie's name for this request (host-only over HTTPS)."""
    return HOST_ONLY + CSRF_COOKIE if _secure(request) else CSRF_COOKIE


CSRF_HEADER = "x-csrf-token"

router = APIRouter()


class Credentials(BaseModel):
    name: str = Field(max_length=200)
    password: str = Field(max_length=MAX_PASSWORD)


class NewPassword(BaseModel):
    current: str = Field(max_length=MAX_PASSWORD)
    new: str = Field(max_length=MAX_PASSWORD)


class Confirmation(BaseModel):
    password: str = Field(max_length=MAX_PASSWORD)


class Email(BaseModel):
    email: str = Field(max_length=320)


class Links(BaseModel):
    tokens: list[Annotated[str, Field(max_length=64)]] = Field(max_length=200)


def _refusal(message: str, status: int) -> JSONResponse:
    return JSONResponse({"detail": message}, status_code=status)


async def csrf_checked(request: Request) -> None:
    """Refuse a POST whose ``X-CSRF-Token`` header is not the CSRF cookie's token (403)."""
    cookie = request.cookies.get(csrf_cookie(request), "")
    header = request.headers.get(CSRF_HEADER, "")
    if not cookie or not hmac.compare_digest(cookie.encode(), header.encode()):
        raise AccountError("missing or wrong CSRF token: reload the page", 403)


async def session_account(request: Request, parts: Parts) -> Account | None:
    """The account logged in by this request's session cookie (None: nobody)."""
    return await parts.accounts.session(request.cookies.get(session_cookie(request)))


CsrfChecked = Depends(csrf_checked)
LoggedIn = Annotated[Account | None, Depends(session_account)]


def _shown(account: Account) -> dict[str, Any]:
    return {
        "name": account.name,
        "created": account.created,
        "email": account.email,
        "mail": account.email is not None and account.mail_wanted,
    }


def _secure(request: Request) -> bool:
    return request.url.scheme == "https"


def logged_in_answer(request: Request, account: Account, token: str) -> JSONResponse:
    """The answer to any log-in (a password's, a passkey's): the account, and its new session's cookie."""
    response = JSONResponse({"account": _shown(account)})
    response.set_cookie(
        session_cookie(request), token, max_age=SESSION_SECONDS, httponly=True, samesite="lax",
        secure=_secure(request), path="/",
    )  # fmt: skip
    # A new CSRF token with each session: one planted or seen before the log-in is good for nothing after.
    _new_csrf_token(request, response)
    return response


def _new_csrf_token(request: Request, response: Response) -> None:
    response.set_cookie(
        csrf_cookie(request), secrets.token_urlsafe(24), samesite="strict", secure=_secure(request), path="/"
    )


@router.get("/api/account")
async def who(request: Request, account: LoggedIn) -> Response:
    response = JSONResponse({"account": None if account is None else _shown(account)})
    response.headers["Cache-Control"] = "no-store"
    if not request.cookies.get(csrf_cookie(request)):
        _new_csrf_token(request, response)
    return response


@router.post("/api/account/register", dependencies=[CsrfChecked])
async def register(body: Credentials, request: Request, parts: Parts) -> Response:
    try:
        parts.guard.register(address_of(request.client))
    except Refused as stop:
        return parts.refused(stop, "accounts_per_address")
    old = request.cookies.get(session_cookie(request))
    account, token = await parts.accounts.register(body.name, body.password)
    if old:
        await parts.accounts.log_out(old)  # a new account ends the session this browser had
    response = logged_in_answer(request, account, token)
    await remember_device(
        request, response, KnownDevices(parts.accounts.store, parts.accounts.clock), account
    )
    return response


@router.post("/api/account/login", dependencies=[CsrfChecked])
async def log_in(body: Credentials, request: Request, parts: Parts) -> Response:
    devices = KnownDevices(parts.accounts.store, parts.accounts.clock)
    device = request.cookies.get(device_cookie(request))
    known = device is not None and await devices.recognised(device, body.name)
    try:
        parts.guard.log_in(
            address_of(request.client),
            account_key(body.name),
            device_digest(device) if device and known else None,
        )
    except Refused as stop:
        return parts.refused(stop, "logins")
    old = request.cookies.get(session_cookie(request))
    account, token = await parts.accounts.log_in(body.name, body.password)
    if old:
        await parts.accounts.log_out(old)  # a session is never carried across a log-in
    response = logged_in_answer(request, account, token)
    if not known:
        await remember_device(request, response, devices, account)
    return response


async def remember_device(
    request: Request, response: Response, devices: KnownDevices, account: Account
) -> None:
    """Give this browser a device cookie for ``account`` (see :mod:`.known_devices`)."""
    token = await devices.remember(account.id, request.cookies.get(device_cookie(request)))
    response.set_cookie(
        device_cookie(request), token, max_age=DEVICE_SECONDS, httponly=True,
        samesite="lax", secure=_secure(request), path="/",
    )  # fmt: skip


@router.post("/api/account/logout", dependencies=[CsrfChecked])
async def log_out(request: Request, parts: Parts) -> Response:
    token = request.cookies.get(session_cookie(request))
    if token:
        await parts.accounts.log_out(token)
    response = Response(status_code=204)
    response.delete_cookie(session_cookie(request), path="/", secure=_secure(request))
    return response


def owner_of(account: Account | None) -> Account:
    """The logged-in account a request about an account's own things needs (401: nobody is)."""
    if account is None:
        raise AccountError("log in first", 401)
    return account


@router.post("/api/account/password", dependencies=[CsrfChecked])
async def change_password(body: NewPassword, request: Request, parts: Parts, account: LoggedIn) -> Response:
    owner = owner_of(account)
    await parts.accounts.change_password(
        owner, body.current, body.new, request.cookies.get(session_cookie(request), "")
    )
    # Browsers that knew the old password are strangers to the limits again (this one excepted).
    devices = KnownDevices(parts.accounts.store, parts.accounts.clock)
    await devices.forget_others(owner.id, request.cookies.get(device_cookie(request)))
    return Response(status_code=204)


async def confirm_password(request: Request, parts: Parts, account: Account, password: str) -> None:
    """Check the password of the account logged in, asked again before a grave change; each try
    counts as a log-in attempt (a stolen session must not become a way to guess the password)."""
    try:
        parts.guard.log_in(address_of(request.client), account_key(account.name))
    except Refused as stop:
        parts.metrics.refused.labels("logins").inc()
        raise AccountError(stop.message, 429) from None
    await parts.accounts.check_password(account, password)


@router.post("/api/account/delete", dependencies=[CsrfChecked])
async def delete(body: Confirmation, request: Request, parts: Parts, account: LoggedIn) -> Response:
    erased = await parts.accounts.delete(owner_of(account), body.password)
    parts.registry.names_erased(erased)
    response = Response(status_code=204)
    response.delete_cookie(session_cookie(request), path="/", secure=_secure(request))
    return response


@router.get("/api/account/export")
async def export(parts: Parts, account: LoggedIn) -> Response:
    data = await parts.accounts.export(owner_of(account))
    return JSONResponse(
        data,
        headers={
            "Content-Disposition": 'attachment; filename="oriflamme-account.json"',
            "Cache-Control": "no-store",
        },
    )


@router.get("/api/account/links")
async def links(parts: Parts, account: LoggedIn) -> Response:
    held = await parts.accounts.links(owner_of(account))
    return JSONResponse(
        {"links": [{"token": token, "role": role} for token, role in held]},
        headers={"Cache-Control": "no-store"},
    )


@router.post("/api/account/links", dependencies=[CsrfChecked])
async def keep_links(body: Links, request: Request, parts: Parts, account: LoggedIn) -> Response:
    """Keep the links this browser holds with the account. Unknown links and bots' are skipped; a
    person's seat that another account holds is refused (each seat counts for one account)."""
    owner = owner_of(account)
    if (over := parts.over_reads(request)) is not None:
        return over
    found = []
    late: set[str] = set()
    for token in dict.fromkeys(body.tokens):
        ref = await parts.registry.store.resolve_token(token)
        if ref is not None and ref.role != "bot":
            found.append((token, ref))
            if ref.role == "person" and await _seat_decided(parts, token):
                late.add(token)
    refused = await parts.accounts.keep_links(owner, found, frozenset(late))
    return JSONResponse({"kept": len(found) - len(refused), "refused": refused})


async def _seat_decided(parts: Parts, token: str) -> bool:
    """Whether the person's seat behind ``token`` decided something already (its claim is late)."""
    try:
        found = await parts.registry.resolve(token)
    except TableDamaged:
        return True  # nothing to rate there
    if found is None or found[1].seat is None:
        return True
    table, ref = found
    # A replay of the game: off the event loop, which the other tables share.
    return ref.seat in await asyncio.to_thread(seats_that_decided, table.record, list(table.actions))


@router.post("/api/account/links/forget", dependencies=[CsrfChecked])
async def forget_links(body: Links, parts: Parts, account: LoggedIn) -> Response:
    await parts.accounts.forget_links(owner_of(account), list(body.tokens))
    return Response(status_code=204)


@router.post("/api/account/email", dependencies=[CsrfChecked])
async def set_email(body: Email, parts: Parts, account: LoggedIn) -> Response:
    address = await parts.accounts.set_email(owner_of(account), body.email)
    return JSONResponse({"email": address, "mail": address is not None})


@router.get("/api/mail/unsubscribe/{token}", response_model=None)
async def unsubscribe(token: str, request: Request, parts: Parts) -> Response:
    """The link in every mail: a GET, as mail programs follow it; it only ever turns mail off."""
    if (over := parts.over_reads(request)) is not None:
        return over
    done = await parts.accounts.unsubscribe(token)
    said = "You will get no more mail from this server." if done else "This link is not known here."
    page = f"<!doctype html><meta charset=utf-8><title>Oriflamme</title><p>{said}</p>"
    return HTMLResponse(page, status_code=200 if done else 404, headers={"Cache-Control": "no-store"})


@router.get("/api/ratings/{ladder}", response_model=None)
async def board(
    ladder: str,
    request: Request,
    parts: Parts,
    season: int | None = None,
    offset: int = 0,
    limit: int = LADDER_PAGE,
) -> Response:
    """A ladder's standing in ``season`` (default: the one played now; earlier ones stay readable):
    the accounts ranked ``offset + 1`` to ``offset + limit``, and the bots' anchors among them."""
    if ladder not in LADDERS:
        return _refusal(f"no ladder {ladder!r}: {' or '.join(LADDERS)}", 404)
    if not 0 <= offset <= MAX_OFFSET or not 1 <= limit <= MAX_LADDER_PAGE:
        return _refusal(f"offset must be 0 to {MAX_OFFSET} and limit 1 to {MAX_LADDER_PAGE}", 400)
    now = await parts.ratings.season_now()
    if season is not None and not 1 <= season <= now:
        return _refusal(f"no season {season}: seasons 1 to {now} have begun", 404)
    if (over := parts.over_reads(request)) is not None:
        return over
    page = await ladder_page(parts.ratings, ladder, season or now, offset, limit, offered_anchors())
    return JSONResponse({**page, "seasons": now})


@router.get("/api/players/{name}", response_model=None)
async def player(name: str, request: Request, parts: Parts) -> Response:
    """A player's public profile (what the ladders show, in more detail); 404 for no such player."""
    if (over := parts.over_reads(request)) is not None:
        return over
    found = await parts.accounts.public(name[:200])
    if found is None:
        return _refusal("no player has this name", 404)
    profile = await parts.ratings.profile(found.id)
    return JSONResponse({"name": found.name, "since": found.created, **profile})


@router.get("/api/account/ratings")
async def my_ratings(parts: Parts, account: LoggedIn) -> Response:
    owner = owner_of(account)
    return JSONResponse({ladder: await parts.ratings.history(owner.id, ladder) for ladder in LADDERS})


async def account_error(request: Request, exc: AccountError) -> JSONResponse:
    """An account request refused: its status and the reason."""
    return _refusal(exc.message, exc.status)
