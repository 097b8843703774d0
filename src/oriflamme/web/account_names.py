"""The keys names are compared by: unique up to lookalikes, and never passing for a seat's default.

An account's name is unique as :func:`name_key` has it, so that nobody registers a name that
passes for another's; :func:`account_key` is what a typed name designates (looking an account up,
counting log-in attempts on it).
"""

from __future__ import annotations

import functools
import unicodedata

from .names import DEFAULT_NAME_WORDS, clean_name

__all__ = ["account_key", "name_key", "reads_as_a_default_name"]


def name_key(name: str) -> str:
    """The form in which names are compared for uniqueness, so that a name cannot pass for another.

    Compatibility-normalised (NFKC), each character that looks like a plain ASCII one replaced by it
    (Unicode's confusables: the Cyrillic "А" of "Аnna" is the Latin "A"; "0" is "O"; "1", "I" and
    "|" are "l"), as Unicode's skeletons for identifiers do; then case-folded, with separators and
    marks dropped: "Anna", "ANNA", "Ａｎｎａ", "Аnna" and "A n n a" are one name.
    """
    looks = _lookalikes()
    plain = unicodedata.normalize("NFKC", name)
    # Before and after case folding: "I" looks like "l", and so does the "l" that "L" folds to.
    for _ in range(2):
        plain = "".join(looks.get(c, c) for c in plain).casefold()
    decomposed = unicodedata.normalize("NFKD", plain)
    return "".join(c for c in decomposed if unicodedata.category(c)[0] in "LN")


def reads_as_a_default_name(name: str) -> bool:
    """Whether ``name`` passes for a seat's default name ("Bot 2") through lookalikes: "B0t 2",
    "ВОТ 2", "Player l" compared as names are (:func:`name_key`), trailing digits or their
    lookalikes dropped. An account's name is shown beside bots on the ladders and at tables."""
    words, digits = _default_name_keys()
    return name_key(name).rstrip(digits) in words


@functools.cache
def _default_name_keys() -> tuple[frozenset[str], str]:
    """The default names' words as :func:`name_key` has them, and the characters digits become."""
    return frozenset(name_key(word) for word in DEFAULT_NAME_WORDS), name_key("0123456789")


@functools.cache
def _lookalikes() -> dict[str, str]:
    """Characters mapped to the ASCII character they look like (``confusable_homoglyphs``' table).

    ASCII characters that look alike ("0" and "O"; "1", "I", "l" and "|") are one class, shown
    by its letter; any other character with an ASCII lookalike maps to that lookalike's class.
    """
    from confusable_homoglyphs.confusables import confusables_data

    pairs = [
        (char, glyph["c"])
        for char, glyphs in confusables_data.items()
        for glyph in glyphs
        if len(char) == 1 and len(glyph["c"]) == 1
    ]
    parent: dict[str, str] = {}

    def root(c: str) -> str:
        while parent.setdefault(c, c) != c:
            c = parent[c]
        return c

    for a, b in pairs:
        if a.isascii() and b.isascii():
            parent[root(a)] = root(b)
    classes: dict[str, list[str]] = {}
    for c in list(parent):
        classes.setdefault(root(c), []).append(c)
    ascii_of = {c: min(m, key=lambda x: (not x.isalpha(), x)) for m in classes.values() for c in m}
    looks: dict[str, str] = {c: r for c, r in ascii_of.items() if c != r}
    for a, b in pairs:
        if not a.isascii() and b.isascii():
            mapped = ascii_of.get(b, b)
            looks[a] = min(looks.get(a, mapped), mapped)
    return looks


def account_key(typed: str) -> str:
    """The key of the account a typed name designates: the name cleaned as at registration, then
    :func:`name_key`. Looking an account up and counting log-in attempts on it use this one key."""
    return name_key(clean_name(typed))
