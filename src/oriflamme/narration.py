"""What to say about an event: the one source of every sentence that tells what happened.

An event, redacted for the receiving seat (:func:`oriflamme.engine.view.redact`),
becomes a *narration*: a message key of the catalogs (``event.revealed_ip``)
and its arguments as typed references, not text::

    {"key": "event.revealed_ip",
     "args": {"player": {"seat": 1}, "name": {"card": "heir"}, "pos": 3, "ip": {"ip": 2}}}

A client formats it in the reader's language: ``{"seat": s}`` is a player's
name, ``{"seats": [...]}`` a list of them, ``{"card": slug}`` a card's name
(``{"card": null}``: a card this reader may not know), ``{"ip": n}`` an amount
of IP with its plural, ``{"cause": name}`` why IP moved (a card's slug: its
name; else the rule's message ``cause.<name>``), a bare number is a number. The terminal
(:mod:`oriflamme.tui.narrate`) and the browser (``narrate`` in
``web/static/i18n.js``, which receives narrations from the server) both do
only that formatting; which sentence an event gets, and with what, is decided
here alone.

Each event type has a message ``event.<type>``; types whose card can be
unknown also have an ``event.<type>.hidden`` variant, because "p2 places
«Soldier»" and "p2 places a card" are different sentences in most languages,
not one sentence with a different noun.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: Event types told differently when the card is not known to the reader.
HIDDEN_VARIANTS: frozenset[str] = frozenset(
    {"placed.first", "placed.last", "placed.on", "kept_hidden", "moved", "ip_on_card", "ip_off_card",
     "verdict_placed", "swapped"}
)  # fmt: skip

Narration = dict[str, Any]


def message_key(event: Mapping[str, Any]) -> str:
    """The catalog key that tells ``event`` (a redacted event dict)."""
    kind = str(event["type"])
    if kind in ("placed", "twin_placed"):
        if event.get("stacked"):
            where = "on"
        else:
            where = "first" if event.get("pos", 0) == 0 else "last"
        kind = f"{kind}.{where}"
    elif kind == "revealed":
        kind = "revealed_ip" if event.get("ip", 0) else "revealed"
    elif kind in ("ability", "no_effect"):
        if event.get("ability") and event.get("card") and event["ability"] != event["card"]:
            kind += "_copy"
    elif kind == "eliminated":
        kind = "eliminated" if event.get("by_card") else "eliminated_plain"
    elif kind == "card_kept":
        kind = "card_kept_ip" if event.get("ip", 0) else "card_kept"
    elif kind == "replaced":
        kind = f"replaced.{event.get('source', 'discard')}"
    elif kind == "game_ended":
        kind = "game_ended" if len(event.get("winners", ())) == 1 else "game_ended_shared"
    elif kind == "bribed" and event.get("seat") == event.get("owner"):
        kind = "bribed_back"  # a family's own card, bribed by another, comes home
    hidden_card = event.get("hand_card") if kind == "swapped" else event.get("card")
    if kind in HIDDEN_VARIANTS and hidden_card is None:
        kind += ".hidden"
    return f"event.{kind}"


def _amount(event: Mapping[str, Any]) -> int:
    for key in ("amount", "ip"):
        value = event.get(key)
        if isinstance(value, int):
            return value
    return 0


def narration(event: Mapping[str, Any]) -> Narration:
    """The message key and typed arguments that tell ``event`` (a redacted event dict)."""
    args: dict[str, Any] = {}
    if event["type"] == "agreement_income":
        args["name"] = {"card": "agreement"}
    elif "card" in event:
        args["name"] = {"card": event["card"]}
    for arg in ("pos", "to"):
        if arg in event:
            args[arg] = event[arg] + 1  # positions count from 1 in text
    if "round" in event:
        args["round"] = event["round"]
    if "amount" in event or "ip" in event:
        args["ip"] = {"ip": _amount(event)}
    if "cause" in event:
        args["cause"] = {"cause": event["cause"]}
    if "winners" in event:
        args["winners"] = {"seats": list(event["winners"])}
    for arg, field in (("player", "seat"), ("owner", "owner"), ("victim", "victim")):
        if field in event:
            args[arg] = {"seat": event[field]}
    for arg, field in (("by", "by_card"), ("model", "ability"), ("hand", "hand_card")):
        if event.get(field):
            args[arg] = {"card": event[field]}
    return {"key": message_key(event), "args": args}


def all_event_keys() -> list[str]:
    """Every message key :func:`message_key` can produce (the catalogs must have them all)."""
    keys = [
        "round_started", "kept_hidden", "revealed", "revealed_ip", "ability", "ability_copy",
        "no_effect", "no_effect_copy", "eliminated", "eliminated_plain", "discarded", "gained", "lost",
        "stolen", "moved", "ip_on_card", "ip_off_card", "bribed", "bribed_back", "verdict_placed", "verdict_returned",
        "card_kept", "card_kept_ip", "turned_down", "replaced.discard", "replaced.aside", "swapped",
        "round_ended", "game_ended", "game_ended_shared", "agreement_income", "bribe_returned",
    ]  # fmt: skip
    for where in ("first", "last", "on"):
        keys += [f"placed.{where}", f"twin_placed.{where}"]
    keys += [f"{k}.hidden" for k in sorted(HIDDEN_VARIANTS)]
    return [f"event.{k}" for k in keys]


__all__ = ["HIDDEN_VARIANTS", "Narration", "all_event_keys", "message_key", "narration"]
