"""The words a person types at the terminal, in their own language.

The commands (``help``, ``rules``, ``undo`` ...) and the words of the actions'
text form (``place``, ``reveal``, ``first`` ...) each have a *meaning*, the
English word the program reads. Each catalog names, under ``word.MEANING``,
the words of its language for it, comma-separated, the first one being the
word shown in hints and examples. A person may type the words of their
language or the English ones (and, as for card names, a queue's ends and the
other action words of any language); card names are read in any language
(:func:`oriflamme.tui.prompt.resolve_card`). Words are compared folded: case,
accents and quotes do not matter.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache

from ..engine.action_text import VERBS
from ..engine.actions import FETCH_NAMES
from ..i18n import DEFAULT_LANGUAGE, LANGUAGES, Translator, load_catalog

#: The commands, as the program reads them.
COMMANDS: tuple[str, ...] = (
    "help", "rules", "log", "save", "quit", "undo", "back", "review", "again", "yes", "next", "previous", "round",
)  # fmt: skip
#: The words of the actions' text form besides card names, numbers and players.
ACTION_WORDS: tuple[str, ...] = (*VERBS, "first", "last", "on", *FETCH_NAMES)
MEANINGS: tuple[str, ...] = COMMANDS + ACTION_WORDS


def fold(text: str) -> str:
    """Lower case, no accents, no quotes or dashes: what typed words and names are compared on."""
    text = unicodedata.normalize("NFKD", text.casefold())
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    for ch in "«»\"'„”“’`":
        text = text.replace(ch, "")
    return " ".join(text.replace("-", " ").replace("_", " ").split())


def catalog_words(lang: str, meaning: str) -> tuple[str, ...]:
    """The words ``lang``'s catalog gives for ``meaning``, as written there (the shown one first)."""
    value = load_catalog(lang).get(f"word.{meaning}")
    if not isinstance(value, str):
        return ()
    return tuple(word.strip() for word in value.split(",") if word.strip())


@dataclass(frozen=True)
class Words:
    """What the typed words of one language mean, and which word it shows for each meaning."""

    lang: str
    #: Folded typed word -> meaning: the language's own words, then English ones it does not use.
    meanings: Mapping[str, str]
    #: Meaning -> the word shown for it.
    shown: Mapping[str, str]

    def meaning(self, word: str) -> str | None:
        """What a typed word means, or None for a word that is no command or action word."""
        return self.meanings.get(fold(word))

    def is_(self, word: str, *meanings: str) -> bool:
        """Whether the typed ``word`` means one of ``meanings``."""
        return self.meaning(word) in meanings

    def say(self, meaning: str) -> str:
        """The word shown for ``meaning`` in this language."""
        return self.shown.get(meaning, meaning)

    def read_action_words(self, words: Iterable[str]) -> list[str]:
        """Folded words with every action word of this language as the English one the engine reads."""
        out = []
        for word in words:
            meaning = self.meanings.get(word)
            out.append(meaning if meaning in ACTION_WORDS else word)
        return out

    def action(self, t: Translator, text_form: str) -> str:
        """An action's text form (``place royal-decree last``) as this language's words say it
        (English says it in the engine's own notation)."""
        if self.lang == DEFAULT_LANGUAGE:
            return text_form
        out = []
        for word in text_form.split():
            if word in ACTION_WORDS:
                out.append(self.say(word))
            elif t.has(f"card.{word}.name"):
                out.append(t.card(word).lower())
            else:
                out.append(word)
        return " ".join(out)


@cache
def words_for(lang: str) -> Words:
    """The words of ``lang``, then the English ones it does not use otherwise, then the action
    words of the other languages (as card names, a queue's ends are read in any language)."""
    meanings: dict[str, str] = {}
    shown: dict[str, str] = {}
    for source in dict.fromkeys((lang, DEFAULT_LANGUAGE, *LANGUAGES)):
        own = source in (lang, DEFAULT_LANGUAGE)
        for meaning in MEANINGS if own else ACTION_WORDS:
            words = catalog_words(source, meaning)
            if words and meaning not in shown:
                shown[meaning] = words[0]
            for word in words:
                meanings.setdefault(fold(word), meaning)
    return Words(lang, meanings, shown)


__all__ = ["ACTION_WORDS", "COMMANDS", "MEANINGS", "Words", "catalog_words", "fold", "words_for"]
