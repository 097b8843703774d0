"""Passkeys (WebAuthn credentials): a second way into an account, with no secret for a server to lose.

An account keeps its password; a passkey is added to it by its logged-in owner
and then logs in without a name or a password (a discoverable credential: the
browser offers the passkeys it holds for this site). The ceremonies are
py_webauthn's (``webauthn``); what this module adds is where their state lives
and what an attacker may try:

- a ceremony's challenge lives in the database (``passkey_challenges``), since
  with ``--workers`` the options and the answer may reach two processes. It is
  taken (deleted) by the answer that names it, whether or not that answer is
  accepted, so none is used twice; it lapses after :data:`CHALLENGE_SECONDS`;
  it serves one purpose, and a registration's serves the account that asked;
- the relying party is the host the page was served from (:class:`RelyingParty`):
  the browser signs the page's origin and the authenticator the host's hash,
  so a passkey made here answers nowhere else, and a page elsewhere gets none;
- the server keeps the credential's public key and its signature counter only:
  a copy of the database logs nobody in. A counter that goes back (both
  non-zero) is refused, as the spec says: the credential may have been cloned;
- every refused answer gets one message (:data:`NOT_ACCEPTED`) and changes
  nothing but the challenge it used up.
"""

from __future__ import annotations

import json
import secrets
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from webauthn import (
    base64url_to_bytes,
    generate_authentication_options,
    generate_registration_options,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import bytes_to_base64url, options_to_json, parse_authentication_credential_json
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    AuthenticatorTransport,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from .accounts import Account, AccountError
from .store import Storage
from .store_errors import StorageConflict

__all__ = ["CHALLENGE_SECONDS", "NOT_ACCEPTED", "Passkey", "Passkeys", "RelyingParty"]

#: How long a ceremony may take, from its options to its answer (the browser's prompt included).
CHALLENGE_SECONDS = 5 * 60
#: The one answer to any refused passkey, whatever was wrong with it.
NOT_ACCEPTED = "passkey not accepted"
#: Passkeys one account may hold (each is a row; a person has a few devices).
MAX_PASSKEYS = 20
MAX_LABEL = 60
RP_NAME = "Oriflamme"
_TRANSPORTS = {t.value for t in AuthenticatorTransport}
#: What a refused answer may raise inside the library: its own errors, and those of decoding
#: base64url, CBOR and JSON that a forged answer can provoke before any check is reached.
_REFUSED = (WebAuthnException, ValueError, TypeError, KeyError, AttributeError)


@dataclass(frozen=True, slots=True)
class RelyingParty:
    """Whom a passkey is for: the site's host (the RP ID) and the origin the browser must report."""

    id: str
    origin: str

    @classmethod
    def of(cls, scheme: str, host: str, port: int | None) -> RelyingParty:
        """The relying party of a page at ``scheme://host:port`` (a default port is not written)."""
        host = host.lower()
        default = 443 if scheme == "https" else 80
        shown = host if port in (None, default) else f"{host}:{port}"
        return cls(host, f"{scheme}://{shown}")


@dataclass(frozen=True, slots=True)
class Passkey:
    """A passkey as its owner sees it in the list (its id is the credential's, base64url)."""

    id: str
    label: str
    created: float
    last_used: float | None

    def shown(self) -> dict[str, Any]:
        return {"id": self.id, "label": self.label, "created": self.created, "last_used": self.last_used}


def clean_label(text: str) -> str:
    """A label as it is kept: control characters out, spaces collapsed, at most :data:`MAX_LABEL`."""
    kept = "".join(" " if unicodedata.category(c)[0] in "CZ" else c for c in text)
    return " ".join(kept.split())[:MAX_LABEL]


def _refused() -> AccountError:
    return AccountError(NOT_ACCEPTED, 400)


class Passkeys:
    """An account's passkeys: adding one, listing, renaming and removing them, and logging in by one."""

    def __init__(self, store: Storage, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.clock = clock

    # ---------------------------------------------------------------- adding a passkey

    async def registration_options(self, account: Account, rp: RelyingParty) -> dict[str, Any]:
        """The options of a new passkey for ``account`` (its passkeys excluded), and the ceremony's id."""
        held = await self._credentials_of(account.id)
        if len(held) >= MAX_PASSKEYS:
            raise AccountError(f"an account holds at most {MAX_PASSKEYS} passkeys", 409)
        options = generate_registration_options(
            rp_id=rp.id,
            rp_name=RP_NAME,
            user_name=account.name,
            # The account's random id, never its name: a name can change, and a handle must not.
            user_id=account.id.encode(),
            authenticator_selection=AuthenticatorSelectionCriteria(
                resident_key=ResidentKeyRequirement.REQUIRED,
                user_verification=UserVerificationRequirement.REQUIRED,
            ),
            exclude_credentials=[PublicKeyCredentialDescriptor(id=_bytes_of(c)) for c in held],
            timeout=CHALLENGE_SECONDS * 1000,
        )
        ceremony = await self._new_challenge(options.challenge, "register", account.id)
        return {"ceremony": ceremony, "options": json.loads(options_to_json(options))}

    async def register(
        self, account: Account, rp: RelyingParty, ceremony: str, credential: dict[str, Any], label: str
    ) -> Passkey:
        """Keep the passkey the browser made for ``account`` in ceremony ``ceremony``; AccountError if refused."""
        challenge = await self._take_challenge(ceremony, "register", account.id)
        try:
            verified = verify_registration_response(
                credential=credential,
                expected_challenge=challenge,
                expected_rp_id=rp.id,
                expected_origin=rp.origin,
                require_user_verification=True,
            )
        except _REFUSED:
            raise _refused() from None
        passkey = Passkey(bytes_to_base64url(verified.credential_id), clean_label(label), self.clock(), None)
        try:
            await self.store.run_statements(
                [
                    (
                        "INSERT INTO passkeys (credential_id, account_id, public_key, sign_count, transports, "
                        "label, created) VALUES (?, ?, ?, ?, ?, ?, ?)",
                        (
                            passkey.id,
                            account.id,
                            verified.credential_public_key,
                            verified.sign_count,
                            _transports(credential),
                            passkey.label,
                            passkey.created,
                        ),
                    )
                ]
            )
        except StorageConflict:
            raise AccountError("this passkey is added already", 409) from None
        return passkey

    # ---------------------------------------------------------------- the owner's list

    async def listed(self, account: Account) -> list[Passkey]:
        """The account's passkeys, oldest first."""
        rows = await self.store.run_statements(
            [
                (
                    "SELECT credential_id, label, created, last_used FROM passkeys WHERE account_id = ? "
                    "ORDER BY created",
                    (account.id,),
                )
            ]
        )
        return [Passkey(*row) for row in rows]

    async def rename(self, account: Account, passkey_id: str, label: str) -> None:
        await self._change_own(
            "UPDATE passkeys SET label = ? WHERE credential_id = ? AND account_id = ?",
            (clean_label(label), passkey_id, account.id),
        )

    async def remove(self, account: Account, passkey_id: str) -> None:
        """Remove one of the account's passkeys (always allowed: an account keeps its password)."""
        await self._change_own(
            "DELETE FROM passkeys WHERE credential_id = ? AND account_id = ?", (passkey_id, account.id)
        )

    # ---------------------------------------------------------------- logging in

    async def login_options(self, rp: RelyingParty) -> dict[str, Any]:
        """The options of a log-in by any passkey of this site (no list: the browser offers its own)."""
        options = generate_authentication_options(
            rp_id=rp.id,
            user_verification=UserVerificationRequirement.REQUIRED,
            timeout=CHALLENGE_SECONDS * 1000,
        )
        ceremony = await self._new_challenge(options.challenge, "login", None)
        return {"ceremony": ceremony, "options": json.loads(options_to_json(options))}

    async def log_in(self, rp: RelyingParty, ceremony: str, credential: dict[str, Any]) -> str:
        """The id of the live account whose passkey signed ceremony ``ceremony``'s challenge;
        AccountError (:data:`NOT_ACCEPTED`) for anything wrong, the same for every cause."""
        challenge = await self._take_challenge(ceremony, "login", None)
        try:
            parsed = parse_authentication_credential_json(credential)
        except _REFUSED:
            raise _refused() from None
        found = await self._live_passkey(parsed.id)
        if found is None:
            raise _refused()
        account_id, public_key, count = found
        # A discoverable passkey names its account: it must be the one the credential is kept for.
        if parsed.response.user_handle is not None and parsed.response.user_handle != account_id.encode():
            raise _refused()
        try:
            verified = verify_authentication_response(
                credential=parsed,
                expected_challenge=challenge,
                expected_rp_id=rp.id,
                expected_origin=rp.origin,
                credential_public_key=public_key,
                credential_current_sign_count=count,
                require_user_verification=True,
            )
        except _REFUSED:
            raise _refused() from None
        await self._used(parsed.id, count, verified.new_sign_count)
        return account_id

    # ---------------------------------------------------------------- helpers

    async def _credentials_of(self, account_id: str) -> list[str]:
        rows = await self.store.run_statements(
            [("SELECT credential_id FROM passkeys WHERE account_id = ?", (account_id,))]
        )
        return [credential_id for (credential_id,) in rows]

    async def _live_passkey(self, credential_id: str) -> tuple[str, bytes, int] | None:
        """(account id, public key, signature counter) of a passkey whose account is not deleted."""
        rows = await self.store.run_statements(
            [
                (
                    "SELECT p.account_id, p.public_key, p.sign_count FROM passkeys p "
                    "JOIN accounts a ON a.id = p.account_id WHERE p.credential_id = ? AND a.deleted IS NULL",
                    (credential_id[:1024],),
                )
            ]
        )
        if not rows:
            return None
        account_id, public_key, count = rows[0]
        return account_id, bytes(public_key), count

    async def _used(self, credential_id: str, was: int, now: int) -> None:
        """Record a log-in by the passkey: its new counter, unless another log-in moved it meanwhile
        (two answers with one counter: one of them is a copy's)."""
        try:
            await self.store.run_statements(
                [
                    (
                        "UPDATE passkeys SET sign_count = ?, last_used = ? WHERE credential_id = ? AND sign_count = ?",
                        (now, self.clock(), credential_id, was),
                    )
                ],
                must_change=True,
            )
        except StorageConflict:
            raise _refused() from None

    async def _change_own(self, sql: str, values: tuple[Any, ...]) -> None:
        try:
            await self.store.run_statements([(sql, values)], must_change=True)
        except StorageConflict:
            raise AccountError("no such passkey", 404) from None

    async def _new_challenge(self, challenge: bytes, purpose: str, account_id: str | None) -> str:
        ceremony = secrets.token_hex(16)
        now = self.clock()
        await self.store.run_statements(
            [
                # Lapsed ceremonies go as new ones begin: the table holds only those under way,
                # and an account adds one passkey at a time (its earlier addition is abandoned).
                ("DELETE FROM passkey_challenges WHERE expires <= ?", (now,)),
                (
                    "DELETE FROM passkey_challenges WHERE purpose = 'register' AND account_id = ?",
                    (account_id if purpose == "register" else None,),
                ),
                (
                    "INSERT INTO passkey_challenges (id, challenge, purpose, account_id, expires) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (ceremony, bytes_to_base64url(challenge), purpose, account_id, now + CHALLENGE_SECONDS),
                ),
            ]
        )
        return ceremony

    async def _take_challenge(self, ceremony: str, purpose: str, account_id: str | None) -> bytes:
        """The challenge of ceremony ``ceremony``, deleted in the same step (whatever the answer turns
        out to be); AccountError unless it is unexpired and for this purpose and account."""
        rows = await self.store.run_statements(
            [
                (
                    "DELETE FROM passkey_challenges WHERE id = ? "
                    "RETURNING challenge, purpose, account_id, expires",
                    (ceremony[:64],),
                )
            ]
        )
        if not rows:
            raise _refused()
        challenge, kept_purpose, kept_account, expires = rows[0]
        if kept_purpose != purpose or kept_account != account_id or expires <= self.clock():
            raise _refused()
        return _bytes_of(challenge)


def _bytes_of(text: str) -> bytes:
    return base64url_to_bytes(text)


def _transports(credential: dict[str, Any]) -> str:
    """The transports the browser reported for a new credential, those the spec names, comma-separated."""
    response = credential.get("response")
    said = response.get("transports") if isinstance(response, dict) else None
    if not isinstance(said, list):
        return ""
    known = [t for t in said if isinstance(t, str) and t in _TRANSPORTS]
    return ",".join(dict.fromkeys(known))
