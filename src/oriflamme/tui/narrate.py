"""Events as sentences in the terminal: the narrations of :mod:`oriflamme.narration`, formatted.

Input is an event already redacted for the viewing seat
(:func:`oriflamme.engine.view.redact`), so a card the seat may not know arrives
as ``None`` and is told as "a face-down card". Which sentence an event gets is
decided in :mod:`oriflamme.narration`, for the browser as well; this module
only puts the arguments into words.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .._compat import moved_names
from ..engine.events import Event
from ..engine.view import redact
from ..i18n import Translator
from ..narration import narration


def _word(t: Translator, value: Any) -> object:
    """One typed argument of a narration in words (see :mod:`oriflamme.narration`)."""
    if not isinstance(value, dict):
        return value
    if "seat" in value:
        return t.player(value["seat"])
    if "seats" in value:
        return t.join([t.player(s) for s in value["seats"]])
    if "card" in value:
        return t.card(value["card"]) if value["card"] else t("ui.a_face_down_card")
    if "cause" in value:
        return t.cause(value["cause"])
    return t.ip(value["ip"])


def narrate(t: Translator, event: Mapping[str, Any]) -> str:
    """One redacted event as a sentence."""
    said = narration(event)
    return t(said["key"], **{name: _word(t, value) for name, value in said["args"].items()})


def narrate_events(t: Translator, game: Any, events: Iterable[Event], seat: int | None) -> list[str]:
    """The events of one :meth:`Game.apply`, redacted for ``seat`` and told in ``t``'s language."""
    return [narrate(t, redact(game, e, seat)) for e in events]


#: The narration rules moved to :mod:`oriflamme.narration` (shared with the browser).
__getattr__ = moved_names(
    __name__,
    {name: f"oriflamme.narration:{name}" for name in ("HIDDEN_VARIANTS", "all_event_keys", "message_key")},
)

__all__ = ["narrate", "narrate_events"]
