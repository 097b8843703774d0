"""Passkeys: an account adding, listing, renaming and removing them, and logging in by one (see :mod:`.passkeys`).

Routes::

    POST /api/account/passkeys/begin     -> {ceremony, options}: a new passkey's creation options (logged in)
    POST /api/account/passkeys/finish    {ceremony, credential, label} -> the passkey, kept
    GET  /api/account/passkeys           the account's passkeys: id, label, created, last used
    POST /api/account/passkeys/rename    {id, label}
    POST /api/account/passkeys/remove    {id}
    POST /api/passkey/login/begin        -> {ceremony, options}: a log-in's request options (anyone)
    POST /api/passkey/login/finish       {ceremony, credential} -> the account, logged in

``options`` are WebAuthn's options as JSON (``PublicKeyCredential.parseCreationOptionsFromJSON``
and ``parseRequestOptionsFromJSON`` read them); ``credential`` is the browser's
``credential.toJSON()``. Every POST needs the CSRF token, as every account POST does
(:mod:`.routes_accounts`). Beginning a log-in counts as a log-in attempt of the address.

The relying party is the host the request was sent to, and the origin the browser
must report is the request's scheme and host: behind a proxy, it must pass the
Host header on and say the scheme (``X-Forwarded-Proto``, from an address uvicorn trusts),
as the ``__Host-`` cookies need already.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from .accounts import AccountError
from .addresses import address_of
from .guard import Refused
from .known_devices import KnownDevices
from .passkeys import MAX_LABEL, RelyingParty
from .routes_accounts import (
    Confirmation,
    CsrfChecked,
    LoggedIn,
    confirm_password,
    logged_in_answer,
    owner_of,
    remember_device,
    session_cookie,
)
from .server_parts import Parts

router = APIRouter()


class Ceremony(BaseModel):
    ceremony: str = Field(max_length=64)
    credential: dict[str, Any]


class NewPasskey(Ceremony):
    label: str = Field(default="", max_length=4 * MAX_LABEL)


class PasskeyId(BaseModel):
    id: str = Field(max_length=1024)


class NewLabel(PasskeyId):
    label: str = Field(max_length=4 * MAX_LABEL)


def relying_party(request: Request) -> RelyingParty:
    """The relying party of the page that sent ``request``: the host it was sent to, and its origin."""
    host = request.url.hostname
    if not host:
        raise AccountError("this request names no host", 400)
    return RelyingParty.of(request.url.scheme, host, request.url.port)


@router.post("/api/account/passkeys/begin", dependencies=[CsrfChecked])
async def begin_adding(body: Confirmation, request: Request, parts: Parts, account: LoggedIn) -> Response:
    """Options to add a passkey; the password is asked again, so that a stolen session cannot
    become a way in that outlives it (a new password ends sessions, not passkeys)."""
    owner = owner_of(account)
    await confirm_password(request, parts, owner, body.password)
    options = await parts.passkeys.registration_options(owner, relying_party(request))
    return JSONResponse(options, headers={"Cache-Control": "no-store"})


@router.post("/api/account/passkeys/finish", dependencies=[CsrfChecked])
async def finish_adding(body: NewPasskey, request: Request, parts: Parts, account: LoggedIn) -> Response:
    passkey = await parts.passkeys.register(
        owner_of(account), relying_party(request), body.ceremony, body.credential, body.label
    )
    return JSONResponse({"passkey": passkey.shown()})


@router.get("/api/account/passkeys")
async def listed(parts: Parts, account: LoggedIn) -> Response:
    held = await parts.passkeys.listed(owner_of(account))
    return JSONResponse({"passkeys": [p.shown() for p in held]}, headers={"Cache-Control": "no-store"})


@router.post("/api/account/passkeys/rename", dependencies=[CsrfChecked])
async def rename(body: NewLabel, parts: Parts, account: LoggedIn) -> Response:
    await parts.passkeys.rename(owner_of(account), body.id, body.label)
    return Response(status_code=204)


@router.post("/api/account/passkeys/remove", dependencies=[CsrfChecked])
async def remove(body: PasskeyId, parts: Parts, account: LoggedIn) -> Response:
    await parts.passkeys.remove(owner_of(account), body.id)
    return Response(status_code=204)


@router.post("/api/passkey/login/begin", dependencies=[CsrfChecked])
async def begin_log_in(request: Request, parts: Parts) -> Response:
    try:
        parts.guard.passkey_log_in(address_of(request.client))
    except Refused as stop:
        return parts.refused(stop, "logins")
    options = await parts.passkeys.login_options(relying_party(request))
    return JSONResponse(options, headers={"Cache-Control": "no-store"})


@router.post("/api/passkey/login/finish", dependencies=[CsrfChecked])
async def finish_log_in(body: Ceremony, request: Request, parts: Parts) -> Response:
    account_id = await parts.passkeys.log_in(relying_party(request), body.ceremony, body.credential)
    account, token = await parts.accounts.log_in_proven(account_id)
    old = request.cookies.get(session_cookie(request))
    if old:
        await parts.accounts.log_out(old)  # a session is never carried across a log-in
    response = logged_in_answer(request, account, token)
    # A browser holding the account's passkey is its owner's: known from now on (see .known_devices).
    await remember_device(
        request, response, KnownDevices(parts.accounts.store, parts.accounts.clock), account
    )
    return response
