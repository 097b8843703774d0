"""Events as sentences: the narrated log, in the chosen language.

Input is an event already redacted for the viewing seat
(:func:`oriflamme.engine.view.redact`), so a card the seat may not know arrives
as ``None`` and is told as "a face-down card". Each event type has a message
``event.<type>``; types whose card can be unknown also have an
``event.<type>.hidden`` variant, because "p2 places «Soldier»" and "p2
places a card" are different sentences in most languages, not one sentence
with a different noun.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ..engine.events import Event
from ..engine.view import redact
from ..i18n import Translator

#: Event types told differently when the card is not known to the viewer.
HIDDEN_VARIANTS: frozenset[str] = frozenset(
    {"placed.first", "placed.last", "placed.on", "kept_hidden", "moved", "ip_on_card", "ip_off_card",
     "verdict_placed", "swapped"}
)  # fmt: skip


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


def narrate(t: Translator, event: Mapping[str, Any]) -> str:
    """One redacted event as a sentence."""
    card = event.get("card")
    hand_card = event.get("hand_card")
    by_card = event.get("by_card")
    ability = event.get("ability")
    winners = [t.player(s) for s in event.get("winners", ())]
    params: dict[str, object] = {
        "player": t.player(event["seat"]) if "seat" in event else "",
        "owner": t.player(event["owner"]) if "owner" in event else "",
        "name": t.card(card) if card else t("ui.a_face_down_card"),
        "pos": event.get("pos", 0) + 1,
        "to": event.get("to", 0) + 1,
        "round": event.get("round", 0),
        "ip": t.ip(_amount(event)),
        "victim": t.player(event["victim"]) if "victim" in event else "",
        "by": t.card(by_card) if by_card else "",
        "model": t.card(ability) if ability else "",
        "hand": t.card(hand_card) if hand_card else "",
        "winners": t.join(winners),
    }
    if event["type"] == "agreement_income":
        params["name"] = t.card("agreement")
    return t(message_key(event), **params)


def narrate_events(t: Translator, game: Any, events: Iterable[Event], seat: int | None) -> list[str]:
    """The events of one :meth:`Game.apply`, redacted for ``seat`` and told in ``t``'s language."""
    return [narrate(t, redact(game, e, seat)) for e in events]


#: Every message key :func:`message_key` can produce (the catalogs must have them all).
def all_event_keys() -> list[str]:
    keys = [
        "round_started", "kept_hidden", "revealed", "revealed_ip", "ability", "ability_copy",
        "no_effect", "no_effect_copy", "eliminated", "eliminated_plain", "discarded", "gained", "lost",
        "stolen", "moved", "ip_on_card", "ip_off_card", "bribed", "verdict_placed", "verdict_returned",
        "card_kept", "card_kept_ip", "turned_down", "replaced.discard", "replaced.aside", "swapped",
        "round_ended", "game_ended", "game_ended_shared", "agreement_income", "bribe_returned",
    ]  # fmt: skip
    for where in ("first", "last", "on"):
        keys += [f"placed.{where}", f"twin_placed.{where}"]
    keys += [f"{k}.hidden" for k in sorted(HIDDEN_VARIANTS)]
    return [f"event.{k}" for k in keys]


__all__ = ["HIDDEN_VARIANTS", "all_event_keys", "message_key", "narrate", "narrate_events"]
