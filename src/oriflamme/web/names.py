"""Text people type for others to read (seat names, chat lines), made fit to show on every screen."""

from __future__ import annotations

import unicodedata

MAX_NAME = 24
#: Combining marks kept after one character: enough for any script, not for a mark flood.
MAX_MARKS = 2
#: Letters that show as nothing (Hangul fillers, the braille blank): treated as spaces.
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
#: Joiners some scripts and emoji need; kept between two visible characters only.
_JOINERS = frozenset("\u200c\u200d")
#: Unicode categories a name may not hold: controls, formats (direction overrides and isolates,
#: zero-width characters), surrogates, private use and unassigned code points.
_UNWANTED = frozenset({"Cc", "Cf", "Cs", "Co", "Cn"})


def clean_name(text: str) -> str:
    """A seat name fit to show to others (see :func:`clean_text`), cut to :data:`MAX_NAME` characters."""
    return clean_text(text)[:MAX_NAME].strip()


def clean_text(text: str) -> str:
    """A text fit to show to others: no control, direction-override or invisible characters.

    Normalized (NFC), every run of white space (line breaks included) made
    one space, and trimmed. A right-to-left override in a name or a chat line
    would turn the rest of a line around on every screen that shows it; a NUL
    or an escape code has no business on any.
    """
    chars = unicodedata.normalize("NFC", text)
    kept: list[str] = []
    marks = 0
    for i, c in enumerate(chars):
        if c.isspace() or c in _BLANK_LETTERS:
            kept.append(" ")
            marks = 0
            continue
        if c in _JOINERS:
            # Kept only inside a word or an emoji sequence (Persian ZWNJ, family emoji).
            if kept and not kept[-1].isspace() and i + 1 < len(chars) and not chars[i + 1].isspace():
                kept.append(c)
            continue
        category = unicodedata.category(c)
        if category in _UNWANTED:
            continue
        if category.startswith("M"):
            marks += 1
            if marks > MAX_MARKS or not kept or kept[-1] == " ":
                continue
        else:
            marks = 0
        kept.append(c)
    return " ".join("".join(kept).split())
