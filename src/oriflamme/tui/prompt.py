"""Menus built from the legal actions, and the reading of what a person types.

Every decision becomes a short numbered menu whose entries are the legal
actions in words of the chosen language (placement is two menus: which card,
then where). Besides a number, a person may type the action's text form
(``place soldier first``, ``target 3``, see :mod:`oriflamme.engine.action_text`) or a
command: ``?``/``help`` (the commands), ``help CARD`` (a card's ability; the
card may be named in any of the languages or by its slug), ``rules``,
``log``, ``save [FILE]``, ``quit``, and ``back`` inside the second placement
menu. Nothing typed can raise: what cannot be read is an ``invalid`` command
with a message for the person.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Literal

from ..engine.action_text import action_text, parse_action
from ..engine.actions import (
    ARG_MASK,
    COPY,
    FETCH,
    FETCH_NAMES,
    GAIN,
    KEEP,
    MODE,
    MODE_NAMES,
    PLACE_FIRST,
    PLACE_LAST,
    REVEAL,
    SHIFT,
    STEAL,
    SWAP,
    TARGET,
    TO,
    USE,
    placed_card,
)
from ..engine.cards import SLUGS
from ..engine.errors import OriflammeError
from ..engine.view import CardView, SeatView
from ..i18n import LANGUAGES, Translator
from .render import card_name, position_label
from .words import Words, fold, words_for

if TYPE_CHECKING:
    from ..engine.game import Game


@dataclass(frozen=True)
class Option:
    """One menu entry: an engine action, or (placement) a further menu."""

    label: str
    action: int | None = None
    submenu: Menu | None = None
    #: The queue position the option is, for a choice of a card in the queue (shown as its number).
    position: int | None = None


@dataclass(frozen=True)
class Menu:
    """A titled, numbered list of options."""

    title: str
    options: tuple[Option, ...]
    #: Text form of one legal action, shown as an example of what may be typed.
    example: str = ""
    #: A second-level menu ("where?") can go back to the first one.
    nested: bool = False

    @property
    def by_position(self) -> bool:
        """Whether the options are cards of the queue, numbered by their positions as the board shows them."""
        return bool(self.options) and all(option.position is not None for option in self.options)

    def numbers(self) -> list[int]:
        """The number of each option: its queue position, or else its place in the menu (from 1)."""
        if self.by_position:
            return [option.position or 0 for option in self.options]
        return list(range(1, len(self.options) + 1))


CommandKind = Literal[
    "choose", "action", "help", "card", "rules", "log", "save", "quit", "undo", "back", "invalid"
]


@dataclass(frozen=True)
class Command:
    """What a line of input asks for. ``value``: the option index, action, card slug, file, or message."""

    kind: CommandKind
    value: int | str | None = None
    params: dict[str, object] = field(default_factory=dict)


# ------------------------------------------------------------------ menus


def _short(t: Translator, cv: CardView) -> str:
    return f"{card_name(t, cv)} {t.player(cv.controller)}"


def build_menu(game: Game, t: Translator) -> Menu:
    """The menu of the pending decision, worded for (and knowing only what) the deciding seat knows."""
    p = game.pending
    if p is None:
        raise ValueError("the game is over: there is no decision to ask")
    seat = p[1]
    view = game.view(seat)
    decision = game.decision() or ""
    actions = game.legal_actions()
    example = words_for(t.lang).action(t, action_text(game, actions[-1])) if actions else ""
    applied = p[4]
    if decision == "place":
        return Menu(t("decision.place", round=view.round), _placement_cards(game, t, view, actions), example)
    if decision == "twin":
        return Menu(t("decision.twin", name=t.card("twin")), _destinations(game, t, view, actions), example)
    if decision == "keep_or_reveal":
        actor = p[2]
        name = t.card(SLUGS[game.kind[actor]])
        pos = game.queue.index(actor) + 1
        opts = []
        for a in actions:
            if a >> SHIFT == KEEP:
                opts.append(Option(t("option.keep", ip=t.ip(game.ip[actor] + 1)), a))
            elif a >> SHIFT == REVEAL:
                opts.append(Option(t("option.reveal"), a))
        return Menu(t("decision.keep_or_reveal", name=name, pos=pos), tuple(opts), example)
    options = _one_numbering(tuple(_option(game, t, view, decision, a) for a in actions), t, view)
    title_params: dict[str, object] = {}
    key = f"decision.{decision}"
    if decision in ("eliminate", "target", "mode", "fetch", "decree_pick"):
        title_params["name"] = t.card(SLUGS[applied])
        if decision == "target" and t.has(f"decision.target.{SLUGS[applied]}"):
            key = f"decision.target.{SLUGS[applied]}"
    elif decision == "decree_dest":
        title_params["name"] = card_name(t, view.queue[applied][-1])
    elif decision in ("plot_character", "plot_ip"):
        title_params["ip"] = t.ip(applied)
    elif decision == "swap":
        title_params["name"] = t.card("informant")
    return Menu(t(key, **title_params), options, example)


def _placement_cards(
    game: Game, t: Translator, view: SeatView, actions: tuple[int, ...]
) -> tuple[Option, ...]:
    by_card: dict[int, list[int]] = {}
    for a in actions:
        by_card.setdefault(placed_card(a), []).append(a)
    opts = []
    for card, acts in by_card.items():
        name = t.card(SLUGS[game.kind[card]])
        dests = _destinations(game, t, view, tuple(acts))
        if len(dests) == 1:
            # An empty queue has one place: choosing the card is choosing the action.
            opts.append(Option(name, dests[0].action))
        else:
            example = words_for(t.lang).action(t, action_text(game, acts[0]))
            sub = Menu(t("prompt.place_where", name=name), dests, example, nested=True)
            opts.append(Option(name, None, sub))
    return tuple(opts)


def _destinations(game: Game, t: Translator, view: SeatView, actions: tuple[int, ...]) -> tuple[Option, ...]:
    n = len(view.queue)
    opts = []
    for a in actions:
        verb = a >> SHIFT
        if verb == PLACE_FIRST:
            label = t("option.first") if n else t("option.only")
        elif verb == PLACE_LAST:
            label = t("option.last", pos=n)
        else:
            label = t("option.on", desc=position_label(t, view, (a & ARG_MASK) & 255))
        opts.append(Option(label, a))
    return tuple(opts)


def _option(game: Game, t: Translator, view: SeatView, decision: str, a: int) -> Option:
    verb = a >> SHIFT
    arg = a & ARG_MASK
    if verb == TARGET:
        return Option(position_label(t, view, arg, numbered=False), a, position=arg + 1)
    if verb == USE:
        return Option(t("option.use", desc=position_label(t, view, arg)), a)
    if verb == GAIN:
        return Option(t("option.gain"), a)
    if verb == STEAL:
        return Option(t("option.steal", player=t.player(arg), ip=t.ip(view.scores[arg])), a)
    if verb == COPY:
        return Option(t("option.copy", name=t.card(SLUGS[arg])), a)
    if verb == FETCH:
        return Option(t(f"option.fetch.{FETCH_NAMES[arg]}"), a)
    if verb == MODE:
        return Option(t(f"option.mode.{MODE_NAMES[arg]}"), a)
    if verb == SWAP:
        return Option(t.card(SLUGS[game.kind[arg]]), a)
    if verb == TO:
        return Option(_destination_label(t, view, arg), a)
    return Option(action_text(game, a), a)


def _one_numbering(options: tuple[Option, ...], t: Translator, view: SeatView) -> tuple[Option, ...]:
    """Options numbered by queue position only when all of them are positions; else each position
    goes back into its label (the menu numbers them 1, 2 ...)."""
    if all(option.position is not None for option in options):
        return options
    return tuple(
        option
        if option.position is None
        else Option(position_label(t, view, option.position - 1), option.action, option.submenu)
        for option in options
    )


def _destination_label(t: Translator, view: SeatView, new_index: int) -> str:
    """Where the Royal Decree would put its card: new position, and the cards either side of it."""
    p = view.pending
    assert p is not None
    moved = p[4]
    q = view.queue
    # The cards in order once the moved card has left (a stack stays, showing the card below).
    rest = [q[i][-1] for i in range(len(q)) if i != moved]
    if len(q[moved]) > 1:
        rest.insert(moved, q[moved][-2])
    pos = new_index + 1
    if new_index == 0:
        return t("option.to_first", pos=pos, after=_short(t, rest[0]))
    if new_index >= len(rest):
        return t("option.to_last", pos=pos, before=_short(t, rest[-1]))
    return t(
        "option.to_between", pos=pos, before=_short(t, rest[new_index - 1]), after=_short(t, rest[new_index])
    )


# ------------------------------------------------------------------ input


@cache
def _name_forms() -> dict[str, frozenset[str]]:
    """Every way of naming each card: its slug and its name in every catalog, folded."""
    translators = [Translator(lang) for lang in LANGUAGES]
    return {slug: frozenset({fold(slug)} | {fold(tr.card(slug)) for tr in translators}) for slug in SLUGS}


def resolve_card(text: str) -> str | None:
    """The slug of the card named ``text`` in any language (or by slug, or by a unique prefix)."""
    wanted = fold(text)
    if not wanted:
        return None
    names = _name_forms()
    exact = [slug for slug, forms in names.items() if wanted in forms]
    if len(exact) == 1:
        return exact[0]
    if len(wanted) >= 3:
        prefix = [slug for slug, forms in names.items() if any(f.startswith(wanted) for f in forms)]
        if len(prefix) == 1:
            return prefix[0]
    return None


def _with_slugs(words: list[str]) -> list[str]:
    """``words`` with every card name (any language, spaces allowed, or a unique prefix) as its slug."""
    out: list[str] = []
    i = 0
    while i < len(words):
        for j in range(min(len(words), i + 4), i, -1):
            # A name of several words first ("royal decree"), then one word; numbers are never names.
            span = " ".join(words[i:j])
            slug = None if span.isdigit() else resolve_card(span)
            if slug is not None:
                out.append(slug)
                i = j
                break
        else:
            out.append(words[i])
            i += 1
    return out


def read_action(line: str, game: Game, language: Words | None = None) -> int | None:
    """The legal action a person means by ``line``, or None when it names none or several.

    Beyond the exact text form it accepts card names with spaces or in any of the five
    languages (``place royal decree last``, ``place «Солдат» first``), the action words of
    ``language`` (English by default, always accepted: ``révéler``, ``poser soldat fin``),
    ``start``/``end`` for the ends of the queue, a missing verb when every choice has the
    same one (``soldier last``, ``3`` for ``target 3``) and any unambiguous beginning of one choice.
    """
    words = (language or words_for("en")).read_action_words(_with_slugs(fold(line).split()))
    if not words:
        return None
    # Action texts are lower-case words and slugs already; the input's card names became slugs.
    legal = {a: action_text(game, a).split() for a in game.legal_actions()}
    verbs = {texts[0] for texts in legal.values()}
    tries = [words]
    if len(verbs) == 1 and words[0] not in verbs:
        tries.append([*verbs, *words])
    for attempt in tries:
        exact = [a for a, texts in legal.items() if texts == attempt]
        if len(exact) == 1:
            return exact[0]
        prefix = [a for a, texts in legal.items() if texts[: len(attempt)] == attempt]
        if len(prefix) == 1:
            return prefix[0]
    return None


def _placement_choice(line: str, menu: Menu, game: Game, language: Words) -> int | None:
    """At the "which card?" menu, the option of the card named by ``line`` alone."""
    words = language.read_action_words(_with_slugs(fold(line).split()))
    if words[:1] == ["place"]:
        words = words[1:]
    if len(words) != 1 or words[0] not in SLUGS:
        return None
    for i, option in enumerate(menu.options):
        # Every action of an option places the same card: the first one tells which.
        first = option.action if option.submenu is None else option.submenu.options[0].action
        if first is not None and SLUGS[game.kind[placed_card(first)]] == words[0]:
            return i
    return None


def interpret(text: str, menu: Menu, game: Game, t: Translator) -> Command:
    """Read one line typed at ``menu``, in ``t``'s language or in English; never raises."""
    line = " ".join(text.strip().split())
    if not line:
        return Command("invalid", "error.empty")
    language = words_for(t.lang)
    word, _, rest = line.partition(" ")
    command = _command(word, rest, menu, language)
    if command is not None:
        return command
    if line.isascii() and line.isdigit():
        return _number(int(line), menu)
    try:
        return Command("action", parse_action(game, line))
    except (OriflammeError, ValueError, IndexError):
        pass
    if game.decision() == "place" and not menu.nested:
        picked = _placement_choice(line, menu, game, language)
        if picked is not None:
            return Command("choose", picked)
    action = read_action(line, game, language)
    if action is not None:
        return Command("action", action)
    candidates = _candidates(line, menu)
    if len(candidates) == 1:
        return Command("choose", candidates[0])
    return _not_understood(line, menu, game, t, candidates)


def _command(word: str, rest: str, menu: Menu, language: Words) -> Command | None:
    """The command ``word`` names (``rest``: what follows it), or None when it names none."""
    meaning = "help" if word == "?" else language.meaning(word)
    if meaning == "help":
        if not rest:
            return Command("help")
        slug = resolve_card(rest)
        if slug is None:
            return Command("invalid", "error.unknown_card", {"name": rest})
        return Command("card", slug)
    if meaning == "save":
        return Command("save", rest or None)
    if meaning in ("rules", "log", "quit") or (meaning == "undo" and not rest):
        assert meaning is not None
        return Command(meaning)  # type: ignore[arg-type]
    if (meaning == "back" or word == "0") and not rest:
        return Command("back") if menu.nested else Command("invalid", "error.no_back")
    return None


def _number(number: int, menu: Menu) -> Command:
    """The option numbered ``number`` in ``menu`` (its queue position, where it shows them)."""
    numbers = menu.numbers()
    if number in numbers:
        return Command("choose", numbers.index(number))
    if menu.by_position:
        return Command("invalid", "error.not_a_position", {"positions": ", ".join(map(str, numbers))})
    return Command("invalid", "error.out_of_range", {"max": len(menu.options)})


def _not_understood(line: str, menu: Menu, game: Game, t: Translator, candidates: list[int]) -> Command:
    """The message for a line that is no choice: the options it could be, or what can be typed."""
    if candidates:
        numbers = menu.numbers()
        names = [
            f"{numbers[i]} {menu.options[i].label}" if menu.by_position else menu.options[i].label
            for i in candidates
        ]
        return Command("invalid", "error.ambiguous", {"input": line, "candidates": ", ".join(names)})
    language = words_for(t.lang)
    forms = [language.action(t, action_text(game, a)) for a in game.legal_actions()]
    shown = ", ".join(forms[:6]) + (", …" if len(forms) > 6 else "")
    return Command(
        "invalid", "error.not_understood", {"input": line, "example": menu.example, "forms": shown}
    )


def _candidates(line: str, menu: Menu) -> list[int]:
    """The options of ``menu`` whose label begins with ``line`` (a card's name, or its beginning: ``a``)."""
    wanted = fold(line)
    return [i for i, option in enumerate(menu.options) if fold(option.label).startswith(wanted)]


__all__ = ["Command", "Menu", "Option", "build_menu", "interpret", "resolve_card"]


def action_label(game: Game, t: Translator, action: int) -> str:
    """``action`` at ``game``'s pending decision, worded as the menu words it (a placement: card, then where)."""
    for option in build_menu(game, t).options:
        if option.action == action:
            return option.label
        if option.submenu is not None:
            for where in option.submenu.options:
                if where.action == action:
                    return f"{option.label}: {where.label}"
    return action_text(game, action)
