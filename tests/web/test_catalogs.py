"""The browser's messages: every key the page uses exists, in all five languages, with the same fields."""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path

import pytest

from oriflamme.web.routes_site import merged_catalog

LANGUAGES = ("en", "ru", "uk", "pl", "fr")
#: CLDR cardinal plural categories of each language (what Intl.PluralRules may answer).
PLURALS = {
    "en": {"one", "other"},
    "ru": {"one", "few", "many", "other"},
    "uk": {"one", "few", "many", "other"},
    "pl": {"one", "few", "many", "other"},
    "fr": {"one", "many", "other"},
}
STATIC = Path(str(resources.files("oriflamme.web") / "static"))
WEB_LOCALES = Path(str(resources.files("oriflamme.web") / "locales"))


def web_catalog(lang: str) -> dict[str, object]:
    data: dict[str, object] = json.loads((WEB_LOCALES / f"{lang}.json").read_text(encoding="utf-8"))
    return data


def fields(message: object) -> set[str]:
    forms = message.values() if isinstance(message, dict) else [message]
    return {name for form in forms for name in re.findall(r"\{([A-Za-z_]\w*)\}", str(form))}


def keys_used_by_the_page() -> set[str]:
    """Literal keys passed to t()/tr() in the page's scripts."""
    source = "\n".join(p.read_text(encoding="utf-8") for p in STATIC.glob("*.js"))
    return set(re.findall(r"\btr?\(\s*\"([a-z_]+(?:\.[a-z_-]+)+)\"", source))


@pytest.mark.parametrize("lang", LANGUAGES[1:])
def test_each_web_catalog_has_every_english_key_with_the_same_fields(lang: str) -> None:
    en, other = web_catalog("en"), web_catalog(lang)
    assert set(other) == set(en)
    for key, message in en.items():
        assert fields(other[key]) == fields(message), key


@pytest.mark.parametrize("lang", LANGUAGES)
def test_plural_messages_use_the_languages_plural_categories(lang: str) -> None:
    for key, message in web_catalog(lang).items():
        if isinstance(message, dict):
            assert set(message) == PLURALS[lang], key


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_key_the_page_uses_is_in_the_served_catalog(lang: str) -> None:
    """The served catalog is the shared one (cards, events, prompts) plus the page's own keys."""
    served = merged_catalog(lang)
    used = keys_used_by_the_page()
    assert len(used) > 60
    assert sorted(k for k in used if k not in served) == []


def test_every_error_the_server_sends_a_page_is_in_every_language() -> None:
    """The page shows an error by its code's message (``web.error.CODE``), falling back to the
    server's English text: every code the server sources send has a message in all five languages
    (``bad_token`` the page answers with a page of its own)."""
    from oriflamme.web.table_host import MOVED

    web = Path(str(resources.files("oriflamme.web")))
    codes = {MOVED, "illegal"}
    for source in web.glob("*.py"):
        text = source.read_text(encoding="utf-8")
        codes |= set(re.findall(r'(?:error_message|ProtocolError)\(\s*"([a-z_]+)"', text))
        codes |= set(re.findall(r'return\s+\(?"([a-z_]+)",\s*f?"', text))
    codes.discard("bad_token")
    assert {"stale", "unavailable", "too_many_connections", "seat_busy"} <= codes, "the scan finds codes"
    for lang in LANGUAGES:
        missing = sorted(code for code in codes if f"web.error.{code}" not in web_catalog(lang))
        assert missing == [], f"{lang}: no message for {missing}"
