"""One word for each game term in each language, across the shared catalog and the browser's.

``src/oriflamme/i18n/glossary.json`` names, per language, the word used for each
term of the rules (the queue, revealing, an ability, eliminating ...) and the
variants to avoid. The browser's messages once said «очередь» where the
terminal's said «ряд событий», and «раскрыть» where it said «открыть».
"""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path

import pytest

I18N = Path(str(resources.files("oriflamme.i18n")))
WEB = Path(str(resources.files("oriflamme.web") / "locales"))
GLOSSARY: dict[str, list[dict[str, object]]] = json.loads(
    (I18N / "glossary.json").read_text(encoding="utf-8")
)


def messages(lang: str) -> dict[str, str]:
    """Every message of ``lang`` (each plural form on its own), keyed ``file:key[form]``."""
    out: dict[str, str] = {}
    for folder in (I18N, WEB):
        for key, value in json.loads((folder / f"{lang}.json").read_text(encoding="utf-8")).items():
            if key.startswith("card.") and key.endswith(".name"):
                continue  # card names follow the rulebooks (docs/translations.md), not the glossary
            forms = value.items() if isinstance(value, dict) else [("", value)]
            for form, text in forms:
                out[f"{folder.name}:{key}{f'[{form}]' if form else ''}"] = str(text)
    return out


@pytest.mark.parametrize("lang", sorted(GLOSSARY))
def test_no_message_uses_a_word_the_glossary_avoids(lang: str) -> None:
    found = []
    for where, text in messages(lang).items():
        for entry in GLOSSARY[lang]:
            for pattern in entry["avoid"]:  # type: ignore[attr-defined]
                if re.search(str(pattern), text, re.IGNORECASE):
                    found.append(f"{where}: {pattern!r} in {text!r}; say {entry['use']!r} ({entry['term']})")
    assert found == [], "\n".join(found)


@pytest.mark.parametrize("lang", sorted(GLOSSARY))
def test_every_glossary_term_is_the_one_the_catalogs_use(lang: str) -> None:
    text = " ".join(messages(lang).values())
    for entry in GLOSSARY[lang]:
        assert re.search(str(entry["stem"]), text, re.IGNORECASE), (
            f"{lang}: {entry['term']} never said as {entry['use']}"
        )


def test_the_glossary_covers_every_language_of_the_catalogs() -> None:
    assert sorted(GLOSSARY) == sorted(p.stem for p in WEB.glob("*.json"))
