"""Message catalogs: every string the terminal (and later the browser) shows people.

The catalogs are JSON files in the package :mod:`oriflamme.i18n`, one per language
(``en``, ``ru``, ``uk``, ``pl``, ``fr``), each a flat object of dotted keys
(``card.soldier.name``, ``event.eliminated``, ``prompt.choice``). A value is
either a string with ``{placeholder}`` fields, or a *plural object* keyed by
CLDR plural categories (``one``, ``few``, ``many``, ``other``...), chosen for
the count ``n`` by the language's plural rules. The format is deliberately
that small so that the browser can read the same files with a dozen lines
of code and ``Intl.PluralRules``.

English is the reference: a key missing from another catalog falls back to
English, and a key missing everywhere shows as the key itself, so a gap in a
translation degrades a message instead of crashing a game. Tests check that
no catalog has gaps.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping, Sequence
from functools import cache
from importlib import resources
from typing import Any

#: The languages that have a catalog, English first (the reference).
LANGUAGES: tuple[str, ...] = ("en", "ru", "uk", "pl", "fr")
DEFAULT_LANGUAGE = "en"

Message = str | dict[str, str]
Catalog = dict[str, Message]

_FIELD = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


@cache
def load_catalog(lang: str) -> Catalog:
    """The raw catalog of ``lang`` (cached); raises ``ValueError`` for a language without one."""
    if lang not in LANGUAGES:
        raise ValueError(f"no catalog for language {lang!r}; languages: {', '.join(LANGUAGES)}")
    text = resources.files("oriflamme.i18n").joinpath(f"{lang}.json").read_text(encoding="utf-8")
    data: Any = json.loads(text)
    if not isinstance(data, dict):
        raise ValueError(f"catalog {lang}.json is not a JSON object")
    return data


#: Messages added at run time (a designer's card's name and text), by language: the browser's
#: catalog (``/locales/LANG.json``) serves them with the files' keys.
ADDED: dict[str, dict[str, str]] = {lang: {} for lang in LANGUAGES}


def add_messages(lang: str, messages: Mapping[str, str]) -> None:
    """Add ``messages`` to the catalog of ``lang``; ValueError, and nothing added, for a key it has."""
    catalog = load_catalog(lang)
    taken = sorted(key for key in messages if key in catalog)
    if taken:
        raise ValueError(f"the {lang} catalog already has {', '.join(taken)}")
    catalog.update(messages)
    ADDED[lang].update(messages)


def remove_messages(lang: str, messages: Mapping[str, str]) -> None:
    """Take back messages added by :func:`add_messages` (a test's card, at its end)."""
    catalog = load_catalog(lang)
    for key in messages:
        if ADDED[lang].pop(key, None) is not None:
            catalog.pop(key, None)


def placeholders(message: Message) -> set[str]:
    """The ``{field}`` names a message uses (all forms of a plural object together)."""
    forms = message.values() if isinstance(message, dict) else (message,)
    return {name for form in forms for name in _FIELD.findall(form)}


def substitute(template: str, params: Mapping[str, object]) -> str:
    """Fill ``{field}``s from ``params``; an unknown field is left as written, never an error."""

    def fill(m: re.Match[str]) -> str:
        name = m.group(1)
        return str(params[name]) if name in params else m.group(0)

    return _FIELD.sub(fill, template)


def language_from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The catalog language named by the locale variables, or English.

    Looks at ``LANGUAGE`` (a colon-separated preference list), ``LC_ALL``,
    ``LC_MESSAGES`` and ``LANG`` in the order gettext does; ``C``/``POSIX``
    and unknown languages are skipped.
    """
    env = os.environ if environ is None else environ
    candidates: list[str] = []
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var, "")
        candidates.extend(value.split(":") if var == "LANGUAGE" else [value])
    for value in candidates:
        code = re.split(r"[_.@-]", value.strip(), maxsplit=1)[0].lower()
        if code in LANGUAGES:
            return code
    return DEFAULT_LANGUAGE


class Translator:
    """Formats messages of one language; ``t("event.gained", player="p1", ip=t.ip(2))``."""

    def __init__(self, lang: str = DEFAULT_LANGUAGE) -> None:
        self.lang = lang
        self.catalog = load_catalog(lang)
        self.reference = load_catalog(DEFAULT_LANGUAGE)
        # Babel (the tui extra) only where plural forms are needed: the web server reads the
        # catalog files of this package without it.
        from babel import Locale

        self._locale = Locale.parse(lang)

    def plural_category(self, n: int) -> str:
        """The CLDR plural category of ``n`` in this language (``one``, ``few``, ``many``, ``other``...)."""
        category: str = self._locale.plural_form(abs(n))
        return category

    def message(self, key: str) -> Message | None:
        """The raw message of ``key``, from this catalog or else English; None if neither has it."""
        found = self.catalog.get(key)
        return found if found is not None else self.reference.get(key)

    def has(self, key: str) -> bool:
        return self.message(key) is not None

    def __call__(self, key: str, /, **params: object) -> str:
        """The message ``key`` with its fields filled; an integer ``n`` also picks the plural form."""
        msg = self.message(key)
        if msg is None:
            return key
        if isinstance(msg, dict):
            n = params.get("n")
            count = n if isinstance(n, int) else 0
            template = msg.get(self.plural_category(count)) or msg.get("other") or next(iter(msg.values()))
        else:
            template = msg
        return substitute(template, params)

    # Shorthands for the phrases used everywhere.

    def card(self, slug: str) -> str:
        """A card kind's display name."""
        return self(f"card.{slug}.name")

    def cause(self, name: str) -> str:
        """Why IP moved (a ledger or narration cause): a card's name, or the rule's (``cause.start`` ...)."""
        return self.card(name) if self.has(f"card.{name}.name") else self(f"cause.{name}")

    def card_text(self, slug: str, schemer_gain: int = 1) -> str:
        """A card kind's ability, in the project's own words."""
        return self(f"card.{slug}.text", gain=self.ip(schemer_gain))

    def ordinal(self, n: int) -> str:
        """``n`` as an ordinal number (``4th``, ``4e``, ``4-я``), by the language's CLDR ordinal rules.

        Ordinal categories (English: ``one`` 1st, ``two`` 2nd, ``few`` 3rd) are not the
        cardinal ones of plural objects, so each has its own key: ``unit.ordinal.few`` ...
        falling back to ``unit.ordinal.other``.
        """
        category: str = self._locale.ordinal_form(abs(n))
        key = f"unit.ordinal.{category}"
        return self(key if self.has(key) else "unit.ordinal.other", n=n)

    def ip(self, n: int) -> str:
        """``n`` influence points, with the right plural form (``1 IP``, ``5 очков влияния``)."""
        return self("unit.ip", n=n)

    def player(self, seat: int) -> str:
        """A player's label (``p1`` .. ``p5``)."""
        return self("ui.player", num=seat + 1)

    def join(self, items: Sequence[str]) -> str:
        """``a, b and c`` in this language, by its CLDR list patterns (through Babel).

        Languages differ in more than the word for "and": English puts a comma
        before it from three items on (``p1, p2, and p3``), Russian, Ukrainian,
        Polish and French do not. One catalog string, ``{first} and {last}``,
        cannot say that; Babel's patterns do, for every language. (The browser
        joins with the catalog's ``ui.list_and``.)
        """
        from babel.lists import format_list

        return format_list(list(items), locale=self._locale)


__all__ = [
    "ADDED",
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "Translator",
    "add_messages",
    "language_from_environment",
    "load_catalog",
    "placeholders",
    "remove_messages",
    "substitute",
]
