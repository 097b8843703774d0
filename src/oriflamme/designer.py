"""Designers' cards: a new card declared in one module, and loading such modules.

A card module (``examples/cards/herald.py`` is one; ``docs/new-cards.md`` is
the guide) holds one :class:`Card` per new kind in a module-level ``CARDS``
list: its slug, box, whether it is a character, its ability (a function the
engine calls with the game), its texts in the project's languages, and
optional art and bot hints. :func:`load_file` (``--cards FILE`` on the
command line) and :func:`load_entry_points` (the ``oriflamme.cards`` entry
point group of installed packages) register every card there:

- the engine learns the kind and its behaviour (:func:`oriflamme.engine.catalog.declare_kind`),
  so recipes, positions, saves, views and action text name it;
- the encodings grow by its kind (the action space and the observation are
  sized from the kinds loaded);
- the message catalogs get its name and text, which narration, the terminal,
  the browser's cards, gallery and rules dialog read;
- the bots' tables get its hints, or defaults (:mod:`oriflamme.bots.kind_hints`).

Registering checks everything first: a card with a problem is refused with a
message naming the card and the problem, and nothing of it is registered.
A card module must be loaded before the first game that uses it is dealt,
in every process that plays it (the server's bot workers load the same files).
"""

from __future__ import annotations

import importlib.util
import os
import re
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

from .bots.kind_hints import hint_problem, learn_hints
from .engine.behaviour import Ability, Reaction, TargetEffect
from .engine.cards import KINDS, MAX_KINDS, kind_problem
from .engine.catalog import declare_kind, withdraw_last_kind
from .i18n import LANGUAGES, add_messages, remove_messages

__all__ = [
    "ENTRY_POINT_GROUP",
    "ENVIRONMENT",
    "Card",
    "CardError",
    "CardText",
    "art_of",
    "card_files",
    "designed_cards",
    "load_entry_points",
    "load_environment",
    "load_file",
    "register",
    "registered",
]

#: The entry point group an installed package names its card modules (or lists of cards) in.
ENTRY_POINT_GROUP = "oriflamme.cards"
#: The environment variable naming the card files (and ``entry-points``) a process loads when
#: ``oriflamme`` is imported: set by :func:`load_file` and :func:`load_entry_points`, so that the
#: worker processes of the bots, tournaments and studies (started afresh) know the same cards.
ENVIRONMENT = "ORIFLAMME_CARDS"
_ENTRY_POINTS_WORD = "entry-points"
#: One SVG path's data in a 48x48 box: commands and numbers only (nothing that could be markup).
_PATH_DATA = re.compile(r"[MmLlHhVvCcSsQqTtAaZz0-9 ,.\-]{1,2000}")


class CardError(ValueError):
    """A card module or card that cannot be loaded: the message says which and why."""


@dataclass(frozen=True)
class CardText:
    """A card's words in one language: its name, its ability, and optionally its target's question."""

    name: str
    text: str
    #: The question a target decision of this card asks ("Herald: on which card ...?").
    target: str | None = None


@dataclass
class Card:
    """A designer's card: everything the program needs to know about a new kind, in one place."""

    slug: str
    box: str
    character: bool
    ability: Ability
    #: Per language code (``en`` required; a missing language shows the English words).
    texts: Mapping[str, CardText]
    on_eliminated: Reaction | None = None
    target_effect: TargetEffect | None = None
    eliminate_effect: TargetEffect | None = None
    can_reveal: Callable[[Any, int], bool] | None = None
    reveal_takes_ip: bool = True
    kept: bool = False
    turns_down: bool = False
    #: The card's emblem: SVG path data in a 48x48 box, drawn in the card's family colours.
    art: Sequence[str] = ()
    #: Values for the heuristic and the inference (:data:`oriflamme.bots.kind_hints.HINT_NAMES`).
    hints: Mapping[str, object] = field(default_factory=dict)
    #: The kind id the engine gave it (-1 until registered).
    kind: int = -1

    def problem(self) -> str | None:
        """What keeps this card from being registered (None: nothing). Changes nothing."""
        problem = kind_problem(self.slug, self.box, self.character, self.kept, self.turns_down)
        if problem is not None:
            return problem
        ability: object = self.ability  # a designer's module may put anything here
        if not callable(ability):
            return "its ability is not a function (of game, actor, ctrl, revealed)"
        if not isinstance(self.texts, Mapping) or "en" not in self.texts:
            return "it needs texts, English ('en') at least: {'en': CardText(name, text)}"
        for lang, words in self.texts.items():
            if lang not in LANGUAGES:
                return f"texts in {lang!r}: the languages are {', '.join(LANGUAGES)}"
            if not isinstance(words, CardText) or not all(
                isinstance(s, str) and s.strip() for s in (words.name, words.text)
            ):
                return f"its {lang!r} text is not a CardText with a name and a text"
            question: object = words.target
            if question is not None and not isinstance(question, str):
                return f"its {lang!r} target question is not text"
        if isinstance(self.art, str) or not all(
            isinstance(d, str) and _PATH_DATA.fullmatch(d) for d in self.art
        ):
            return "its art is a list of SVG path data strings (commands and numbers in a 48x48 box)"
        return hint_problem(self.hints)


_DESIGNED: list[Card] = []


def designed_cards() -> tuple[Card, ...]:
    """The designers' cards registered in this process, in the order they were."""
    return tuple(_DESIGNED)


def art_of(slug: str) -> tuple[str, ...]:
    """A designer's card's emblem paths (empty for official kinds and cards without art)."""
    for card in _DESIGNED:
        if card.slug == slug:
            return tuple(card.art)
    return ()


def _messages(card: Card, words: CardText) -> dict[str, str]:
    out = {f"card.{card.slug}.name": words.name, f"card.{card.slug}.text": words.text}
    if words.target is not None:
        out[f"decision.target.{card.slug}"] = words.target
    return out


def register(card: Card) -> Card:
    """Register ``card`` everywhere (see the module docstring); CardError, and nothing registered, if not."""
    if not isinstance(card, Card):
        raise CardError(f"not a Card: {card!r}")
    problem = card.problem()
    if problem is not None:
        raise CardError(f"card {card.slug!r}: {problem}")
    try:
        kind = declare_kind(
            card.slug,
            card.box,
            card.character,
            card.ability,
            on_eliminated=card.on_eliminated,
            target_effect=card.target_effect,
            eliminate_effect=card.eliminate_effect,
            can_reveal=card.can_reveal,
            reveal_takes_ip=card.reveal_takes_ip,
            kept=card.kept,
            turns_down=card.turns_down,
        )
    except ValueError as exc:
        raise CardError(f"card {card.slug!r}: {exc}") from None
    card.kind = kind.id
    added: list[str] = []
    try:
        learn_hints(kind.id, card.hints)
        for lang, words in card.texts.items():
            add_messages(lang, _messages(card, words))
            added.append(lang)
    except ValueError as exc:
        for lang in added:
            remove_messages(lang, _messages(card, card.texts[lang]))
        withdraw_last_kind(card.slug)
        card.kind = -1
        raise CardError(f"card {card.slug!r}: {exc}") from None
    _DESIGNED.append(card)
    return card


def _withdraw(card: Card) -> None:
    """Undo :func:`register` of the last card registered (tests load and unload their cards)."""
    if not _DESIGNED or _DESIGNED[-1] is not card:
        raise CardError(f"card {card.slug!r} is not the last card registered")
    for lang, words in card.texts.items():
        remove_messages(lang, _messages(card, words))
    withdraw_last_kind(card.slug)
    _DESIGNED.pop()
    card.kind = -1


@contextmanager
def registered(*cards: Card) -> Iterator[tuple[Card, ...]]:
    """Register ``cards`` for the length of a ``with`` block, then withdraw them (for tests)."""
    done: list[Card] = []
    try:
        for card in cards:
            done.append(register(card))
        yield tuple(done)
    finally:
        for card in reversed(done):
            _withdraw(card)


def _cards_of(module: object, origin: str) -> list[Card]:
    """The cards a loaded module (or an entry point's object) offers."""
    if isinstance(module, Card):
        return [module]
    found = getattr(module, "CARDS", module if isinstance(module, list | tuple) else None)
    if not isinstance(found, list | tuple) or not found:
        raise CardError(f"{origin}: no cards to load (a card module lists its Card objects in CARDS)")
    bad = [repr(c)[:60] for c in found if not isinstance(c, Card)]
    if bad:
        raise CardError(f"{origin}: CARDS holds things that are not Card objects: {', '.join(bad)}")
    return list(found)


def _register_all(cards: list[Card], origin: str) -> list[Card]:
    """Register all of ``cards`` or none (each checked before any is registered)."""
    slugs = [card.slug for card in cards]
    repeated = sorted({s for s in slugs if slugs.count(s) > 1})
    if repeated:
        raise CardError(f"{origin}: the card {repeated[0]!r} is listed twice")
    for card in cards:
        problem = card.problem()
        if problem is not None:
            raise CardError(f"{origin}: card {card.slug!r}: {problem}")
    if len(KINDS) + len(cards) > MAX_KINDS:
        raise CardError(f"{origin}: too many cards: a process holds at most {MAX_KINDS} kinds")
    done: list[Card] = []
    try:
        for card in cards:
            done.append(register(card))
    except CardError:
        for card in reversed(done):
            _withdraw(card)
        raise
    return done


def load_file(path: str | Path) -> list[Card]:
    """Import the card module at ``path`` and register its cards; CardError says what went wrong.

    Loading a file already loaded (the same cards by slug) does nothing more.
    """
    file = Path(path)
    if not file.is_file():
        raise CardError(f"{path}: no such card file")
    name = "oriflamme_designer_cards_" + re.sub(r"\W", "_", file.stem)
    spec = importlib.util.spec_from_file_location(name, file)
    if spec is None or spec.loader is None:
        raise CardError(f"{path}: not a Python module")
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception as exc:  # a designer's module with a bug: say so, register nothing
        raise CardError(f"{path}: the card module failed to load: {type(exc).__name__}: {exc}") from None
    cards = _cards_of(module, str(path))
    wanted = {card.slug for card in cards}
    if wanted <= {c.slug for c in _DESIGNED}:  # loaded already (the same file, or its cards)
        return [c for c in _DESIGNED if c.slug in wanted]
    sys.modules.setdefault(name, module)
    done = _register_all(cards, str(path))
    _remember(str(file.resolve()))
    return done


def _remember(item: str) -> None:
    """Name ``item`` in :data:`ENVIRONMENT`, for the processes this one starts."""
    items = [i for i in os.environ.get(ENVIRONMENT, "").split(os.pathsep) if i]
    if item not in items:
        os.environ[ENVIRONMENT] = os.pathsep.join([*items, item])


def card_files() -> list[str]:
    """The card files loaded in this process (absolute paths, in loading order): what a command that
    resumes its work must load again (entry points load by themselves)."""
    return [i for i in os.environ.get(ENVIRONMENT, "").split(os.pathsep) if i and i != _ENTRY_POINTS_WORD]


def load_environment() -> list[Card]:
    """Load what :data:`ENVIRONMENT` names: card files, and ``entry-points`` for the installed ones."""
    loaded: list[Card] = []
    for item in os.environ.get(ENVIRONMENT, "").split(os.pathsep):
        if item == _ENTRY_POINTS_WORD:
            loaded.extend(load_entry_points())
        elif item:
            loaded.extend(load_file(item))
    return loaded


def load_entry_points() -> list[Card]:
    """Register the cards of every installed package's ``oriflamme.cards`` entry points."""
    loaded: list[Card] = []
    for point in entry_points(group=ENTRY_POINT_GROUP):
        origin = f"entry point {point.name} ({point.value})"
        try:
            target = point.load()
        except Exception as exc:
            raise CardError(f"{origin} failed to load: {type(exc).__name__}: {exc}") from None
        cards = [c for c in _cards_of(target, origin) if c.slug not in {d.slug for d in _DESIGNED}]
        loaded.extend(_register_all(cards, origin))
    _remember(_ENTRY_POINTS_WORD)
    return loaded
