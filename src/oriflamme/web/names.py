"""Text people type for others to read (seat names, chat lines), made fit to show on every screen."""

from __future__ import annotations

import re
import unicodedata

MAX_NAME = 24
#: Combining marks kept after one character: enough for any script, not for a mark flood.
MAX_MARKS = 2
#: Letters that show as nothing (Hangul fillers, the braille blank): treated as spaces.
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
#: Joiners some scripts and emoji need; kept, one at a time, between two visible characters only.
_JOINERS = frozenset("\u200c\u200d")
#: Combining marks that draw nothing (the grapheme joiner, Khmer's inherent vowels, variation
#: selectors): dropped, but for one emoji or text presentation selector after a visible character.
_INVISIBLE_MARKS = frozenset(
    "\u034f\u17b4\u17b5\u180b\u180c\u180d\u180f"
    + "".join(chr(c) for c in range(0xFE00, 0xFE10))
    + "".join(chr(c) for c in range(0xE0100, 0xE01F0))
)
_PRESENTATION = frozenset("\ufe0e\ufe0f")
#: The words of the names a seat is shown by when it has none ("Bot 2", "Игрок 3", in every
#: language the pages speak): a person may not take one, or seem a bot or another seat.
DEFAULT_NAME_WORDS = frozenset({"bot", "бот", "player", "игрок", "гравець", "gracz", "joueur"})
#: Why such a name is refused.
RESERVED_NAME = "a person's name may not read as a seat's default name (Bot 2, Player 3)"
_DEFAULT_NAME = re.compile(r"(?:" + "|".join(sorted(DEFAULT_NAME_WORDS)) + r")\s*\d*")
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
            # Kept only inside a word or an emoji sequence (Persian ZWNJ, family emoji), never two in a row.
            if kept and _visible(kept[-1]) and i + 1 < len(chars) and _visible(chars[i + 1]):
                kept.append(c)
            continue
        if c in _INVISIBLE_MARKS:
            if c in _PRESENTATION and kept and _visible(kept[-1]) and kept[-1] not in _PRESENTATION:
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


def _visible(c: str) -> bool:
    """Whether ``c`` shows as something (not a space, a joiner or an invisible mark)."""
    return not (c.isspace() or c in _JOINERS or c in _INVISIBLE_MARKS or c in _BLANK_LETTERS)


def looks_like_a_default_name(name: str) -> bool:
    """Whether ``name`` reads as the name a seat is shown by when it has none ("Bot 2", "Игрок 3"),
    once folded (case, and lookalike forms such as fullwidth letters and digits)."""
    folded = " ".join(unicodedata.normalize("NFKC", name).casefold().split())
    return _DEFAULT_NAME.fullmatch(folded) is not None
