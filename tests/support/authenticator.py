"""A software authenticator: the answers a browser and a passkey would give to a server's WebAuthn
options, made with ``cryptography`` (an ES256 key, "none" attestation), so that HTTP tests can run
the ceremonies whole, and forge or replay any part of them."""

from __future__ import annotations

import hashlib
import json
import os
from typing import Any

import cbor2
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url

#: Flags of authenticator data: the user was present (UP), verified (UV); credential data follows (AT).
UP, UV, AT = 0x01, 0x04, 0x40


class SoftAuthenticator:
    """One passkey: a key pair, its credential id, the account's handle and a signature counter."""

    def __init__(self, origin: str, counter_step: int = 1) -> None:
        self.origin = origin
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.credential_id = os.urandom(16)
        self.user_handle = b""
        self.counter = 0
        #: How much the counter grows at each use (0: a passkey that keeps no counter, as synced ones).
        self.counter_step = counter_step

    @property
    def id(self) -> str:
        return bytes_to_base64url(self.credential_id)

    def create(self, options: dict[str, Any], origin: str | None = None) -> dict[str, Any]:
        """What ``navigator.credentials.create(options)`` would give, as ``credential.toJSON()``."""
        self.user_handle = base64url_to_bytes(options["user"]["id"])
        client_data = self._client_data("webauthn.create", options["challenge"], origin)
        auth_data = self._auth_data(options["rp"]["id"], UP | UV | AT) + self._attested_credential()
        attestation = cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": auth_data})
        return {
            "id": self.id,
            "rawId": self.id,
            "type": "public-key",
            "response": {
                "clientDataJSON": bytes_to_base64url(client_data),
                "attestationObject": bytes_to_base64url(attestation),
                "transports": ["internal"],
            },
            "clientExtensionResults": {},
        }

    def get(self, options: dict[str, Any], origin: str | None = None, flags: int = UP | UV) -> dict[str, Any]:
        """What ``navigator.credentials.get(options)`` would give, as ``credential.toJSON()``."""
        self.counter += self.counter_step
        client_data = self._client_data("webauthn.get", options["challenge"], origin)
        auth_data = self._auth_data(options["rpId"], flags)
        signature = self.key.sign(auth_data + hashlib.sha256(client_data).digest(), ec.ECDSA(hashes.SHA256()))
        return {
            "id": self.id,
            "rawId": self.id,
            "type": "public-key",
            "response": {
                "clientDataJSON": bytes_to_base64url(client_data),
                "authenticatorData": bytes_to_base64url(auth_data),
                "signature": bytes_to_base64url(signature),
                "userHandle": bytes_to_base64url(self.user_handle),
            },
            "clientExtensionResults": {},
        }

    def _client_data(self, kind: str, challenge: str, origin: str | None) -> bytes:
        said = {"type": kind, "challenge": challenge, "origin": origin or self.origin, "crossOrigin": False}
        return json.dumps(said).encode()

    def _auth_data(self, rp_id: str, flags: int) -> bytes:
        return hashlib.sha256(rp_id.encode()).digest() + bytes([flags]) + self.counter.to_bytes(4, "big")

    def _attested_credential(self) -> bytes:
        numbers = self.key.public_key().public_numbers()
        cose = {1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"), -3: numbers.y.to_bytes(32, "big")}
        aaguid = bytes(16)
        return aaguid + len(self.credential_id).to_bytes(2, "big") + self.credential_id + cbor2.dumps(cose)
