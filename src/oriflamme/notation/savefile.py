"""Saving and loading a game as JSON, at any decision point.

A game is fully determined by its *setup* (players, deck recipe, rule options,
seed, first player) plus the list of actions played; the save file holds both,
and also the complete *state*, so that a position built for a test or a puzzle
(which has no setup to replay) can be saved too, and so that a file can be
checked: when the actions are present, replaying them from the setup must give
the stored state exactly, or the file is refused.

Schema, version 3 (``dumps`` writes the keys in this order, compactly)::

    {
      "format": "oriflamme-save",
      "version": 3,
      "setup": {
        "players": 2..5,
        "recipe": ["archer", ...],       # the 10 kind slugs of the deck recipe
        "rules": {"schemer_gain": 1, "two_player_cards_per_round": 2, "rounds": 6},
        "seed": int | null,              # null: a built position (no deal to replay)
        "first_player": int | null,      # seat of round 1's first player;
                                         # null: drawn from the seed, as Game.new does
        "kinds": {slug: int}             # only with designer cards in the recipe: the number each
                                         # had when saved (they are numbered in loading order)
      },
      "actions": [str, ...] | null,      # action texts (oriflamme.engine.action_text), in order;
                                         # null when the state cannot be replayed
      "seats": [str, ...] | null,        # who plays each seat, as the program that saved it
                                         # names them (the terminal: "you", "ismcts:normal", ...);
                                         # null when not known
      "state": {                         # every mutable slot of Game, same names
        "kind": [slug per card], "owner": [seat per card],    # checked against setup
        "ctrl", "ip", "under", "bribed_by": [int per card],
        "up", "verdict", "asleep", "exposed": [bool per card],
        "zone": [zone name per card],    # oriflamme.engine.zones.ZONE_NAMES
        "queue": [card, ...],            # top cards, in resolution order
        "hands", "aside", "twins", "discards", "kept": [[card, ...] per seat],
        "score": [int per seat], "verdict_pool": int,
        "round": int, "first": int, "phase": "place" | "resolve" | "over",
        "order": [seat, ...], "turn": int, "ptr": int, "cur": int, "cur_gone": bool,
        "stack": [[int, ...], ...],      # continuation frames (registry.K_*), bottom first
        "pending": [int x 6] | null,     # (decision, seat, actor, ctrl, a, b), registry.D_*
        "options": [action, ...], "history": [action, ...], "winners": [seat, ...],
        "ledger": [{cause: int} per seat]  # net IP by cause (oriflamme.engine.causes), sums to score
      }
    }

Cards are the engine's card ids (indexes into the per-card arrays); actions in
``options``, ``history``, ``pending`` and ``stack`` are the engine's integer
codes (:mod:`oriflamme.actions`, :mod:`oriflamme.engine.registry`). Those codes are part
of the version: changing them means a new version. The events of the last
:meth:`Game.apply` are not state and are not saved.

Version 3 added ``seats``, and its actions are action-sequence version 2
(:data:`oriflamme.notation.replay.ACTIONS_VERSION`): an Impersonation fetch
and an Informant swap are asked even with one answer. Versions 1 and 2 hold
version 1 sequences; they load by replaying with those answers filled in, so
the loaded game's history is a current one (it may be longer than the file's).

Version 1 (oriflamme 0.1) had no ``ledger``. It still loads: a file with
actions gets the ledger of its replay; a built position's scores are put down
to the ``position`` cause. With actions, a stored ledger must equal the
replay's; without them (a built or edited position) it is taken as written,
as long as each seat's causes add up to its score.

Why ``first_player`` may be null: ``Game.new`` draws the first player from the
seed's random stream *before* dealing when none is given, so "seat 2, drawn"
and "seat 2, given" deal differently. :func:`to_dict` finds which one the game
came from by replaying its history both ways (null is tried first); a game
that neither replays (its state was edited by hand) is saved with
``"actions": null`` and the first player worked out from the round.

:func:`from_dict` checks the whole document and raises
:class:`~oriflamme.engine.errors.SaveFormatError` naming the path of the first
problem (``state.hands[1][2]: ...``); it raises nothing else on any input.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any, NoReturn

from ..engine.action_text import action_text
from ..engine.cards import KIND_BY_SLUG, OFFICIAL_KINDS, SLUGS
from ..engine.causes import NUM_CAUSES, POSITION, cause_code, cause_name
from ..engine.errors import OriflammeError, RecipeError, ReplayError, SaveFormatError, SetupError
from ..engine.game import Game
from ..engine.options import RuleOptions
from ..engine.recipes import validate_recipe
from ..engine.registry import P_ACTOR, P_CTRL, P_DATA, P_DATA2, P_DECISION, P_SEAT
from ..engine.setup import Setup
from ..engine.state import TRANSIENT_SLOTS
from ..engine.zones import (
    ASIDE,
    DISCARD,
    HAND,
    KEPT,
    PHASE_NAMES,
    TWIN_ASIDE,
    ZONE_NAMES,
)
from .checks import check_state
from .fields import (
    MAX_COUNT,
    fail,
    read_bool,
    read_bools,
    read_int,
    read_ints,
    read_list,
    read_name,
    read_object,
    show,
    type_name,
)
from .replay import ACTIONS_VERSION
from .replay import replay as replay_actions

FORMAT = "oriflamme-save"
VERSION = 3
#: Every version this program reads.
READABLE_VERSIONS = (1, 2, 3)
#: The action-sequence version (:mod:`oriflamme.notation.replay`) of each file version.
ACTIONS_VERSION_OF = {1: 1, 2: 1, 3: ACTIONS_VERSION}
#: A seat's name: at most this many characters.
MAX_SEAT_NAME = 64

SETUP_KEYS = ("players", "recipe", "rules", "seed", "first_player")
#: With designer cards in the recipe, the setup also says how they were numbered.
SETUP_KEYS_DESIGNED = SETUP_KEYS + ("kinds",)
STATE_KEYS_V1 = (
    "kind", "owner", "ctrl", "up", "ip", "under", "zone", "verdict", "bribed_by", "asleep", "exposed",
    "queue", "hands", "aside", "twins", "discards", "kept", "score", "verdict_pool",
    "round", "first", "phase", "order", "turn", "ptr", "cur", "cur_gone",
    "stack", "pending", "options", "history", "winners",
)  # fmt: skip
#: Version 2 added the IP ledger.
STATE_KEYS = STATE_KEYS_V1 + ("ledger",)
TOP_KEYS_V2 = ("format", "version", "setup", "actions", "state")
#: Version 3 added who plays each seat.
TOP_KEYS = ("format", "version", "setup", "actions", "seats", "state")
#: Game slots that are not in ``state``: the setup, one derived value, and the
#: last apply's events. A test checks that every slot of Game is accounted for.
SLOTS_IN_SETUP = ("players", "recipe", "rules", "seed")
SLOTS_DERIVED = ("hand_size",)
SLOTS_TRANSIENT = TRANSIENT_SLOTS

_PILES = ("hands", "aside", "twins", "discards", "kept")
_PILE_ZONE = {"hands": HAND, "aside": ASIDE, "twins": TWIN_ASIDE, "discards": DISCARD, "kept": KEPT}
_MAX_ACTION = 1 << 31


# ---------------------------------------------------------------- writing


@dataclass(frozen=True, slots=True)
class SaveFile:
    """A save file as read: the game, its deal and actions, and who played each seat if it says so."""

    game: Game
    seats: tuple[str, ...] | None
    setup: Setup
    #: The action texts as the file holds them (None: a position without its actions) ...
    actions: list[str] | None
    #: ... and the action-sequence version they are written in (:data:`ACTIONS_VERSION_OF`).
    actions_version: int


def to_dict(game: Game, seats: Sequence[str] | None = None) -> dict[str, Any]:
    """The save document of ``game`` (plain JSON data; see the module docstring).

    ``seats`` names who plays each seat, in the saving program's own terms.
    """
    if seats is not None and len(seats) != game.players:
        raise ValueError(f"{len(seats)} seat names for a {game.players}-player game")
    first_player: int | None = round_one_first(game)
    actions: list[str] | None = None
    if game.seed is not None:
        for candidate in (None, first_player):
            texts = _replay_texts(game, candidate)
            if texts is not None:
                first_player, actions = candidate, texts
                break
    setup: dict[str, Any] = {
        "players": game.players,
        "recipe": [SLUGS[k] for k in game.recipe],
        "rules": game.rules.to_dict(),
        "seed": game.seed,
        "first_player": first_player,
    }
    designed = {SLUGS[k]: k for k in game.recipe if k >= OFFICIAL_KINDS}
    if designed:
        setup["kinds"] = designed
    return {
        "format": FORMAT,
        "version": VERSION,
        "setup": setup,
        "actions": actions,
        "seats": None if seats is None else list(seats),
        "state": _state(game),
    }


def dumps(game: Game, seats: Sequence[str] | None = None) -> str:
    """The save file text: compact JSON, keys always in the same order."""
    return json.dumps(to_dict(game, seats), separators=(",", ":"))


def round_one_first(game: Game) -> int:
    """The seat that placed first in round 1 (the tile moves one seat per round, then stays)."""
    # The first-player tile moves one seat per round and stays put after the last.
    return (game.first - (game.round - 1)) % game.players


def _state(g: Game) -> dict[str, Any]:
    return {
        "kind": [SLUGS[k] for k in g.kind],
        "owner": list(g.owner),
        "ctrl": g.ctrl[:],
        "up": g.up[:],
        "ip": g.ip[:],
        "under": g.under[:],
        "zone": [ZONE_NAMES[z] for z in g.zone],
        "verdict": g.verdict[:],
        "bribed_by": g.bribed_by[:],
        "asleep": g.asleep[:],
        "exposed": g.exposed[:],
        "queue": g.queue[:],
        "hands": [p[:] for p in g.hands],
        "aside": [p[:] for p in g.aside],
        "twins": [p[:] for p in g.twins],
        "discards": [p[:] for p in g.discards],
        "kept": [p[:] for p in g.kept],
        "score": g.score[:],
        "verdict_pool": g.verdict_pool,
        "round": g.round,
        "first": g.first,
        "phase": PHASE_NAMES[g.phase],
        "order": list(g.order),
        "turn": g.turn,
        "ptr": g.ptr,
        "cur": g.cur,
        "cur_gone": g.cur_gone,
        "stack": [list(f) for f in g.stack],
        "pending": None if g.pending is None else list(g.pending),
        "options": list(g.options),
        "history": g.history[:],
        "winners": list(g.winners),
        "ledger": [_ledger_row(g, s) for s in range(g.players)],
    }


def _ledger_row(g: Game, seat: int) -> dict[str, int]:
    """``seat``'s net IP by cause; a score changed by hand (not through the engine) shows as ``position``."""
    row = g.ledger_row(seat)
    row[POSITION] += g.score[seat] - sum(row)
    return {cause_name(c): n for c, n in enumerate(row) if n}


def _replay_texts(game: Game, first_player: int | None) -> list[str] | None:
    """The action texts of ``game``'s history if it replays from its setup to the same state."""
    assert game.seed is not None
    try:
        g = Setup(game.players, game.recipe, game.rules, game.seed, first_player).deal()
    except OriflammeError:
        return None
    if g.first != round_one_first(game):
        return None  # the seed draws another first player: no need to replay
    texts: list[str] = []
    for a in game.history:
        if a not in g.options:
            return None
        texts.append(action_text(g, a))
        g.apply(a)
    return texts if _state(g) == _state(game) else None


# ---------------------------------------------------------------- reading


def loads(text: str | bytes | bytearray) -> Game:
    """Read a save file's text; :class:`SaveFormatError` says what is wrong with a bad one."""
    return read(text).game


def read(text: str | bytes | bytearray) -> SaveFile:
    """Read a save file's text, with its seats; :class:`SaveFormatError` says what is wrong."""
    if not isinstance(text, (str, bytes, bytearray)):
        raise SaveFormatError(f"a save file is text, got {type_name(text)}")
    try:
        data = json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_no_constant)
    except SaveFormatError:
        raise
    except RecursionError:
        raise SaveFormatError("not a save file: the JSON is nested too deeply") from None
    except ValueError as exc:  # JSONDecodeError, bad UTF-8, over-long integers
        raise SaveFormatError(f"not valid JSON: {exc}") from None
    return read_dict(data)


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise SaveFormatError(f"not a save file: key {key!r} appears twice in one object")
        out[key] = value
    return out


def _no_constant(name: str) -> NoReturn:
    raise SaveFormatError(f"not valid JSON: {name} is not a JSON number")


def from_dict(data: object) -> Game:
    """Rebuild a game from a save document, after checking every part of it.

    When the document holds actions, they are replayed from the setup and the
    result must equal the stored state.
    """
    return read_dict(data).game


def read_dict(data: object) -> SaveFile:
    """Like :func:`from_dict`, with the seats the document names."""
    doc = read_object(data, "save file", TOP_KEYS, check_keys=False)
    if doc.get("format") != FORMAT:
        fail("format", f"expected {FORMAT!r}, got {show(doc.get('format'))}: not an Oriflamme save file")
    version = doc.get("version")
    if type(version) is not int:
        fail("version", f"expected an integer, got {type_name(version)}")
    if version not in READABLE_VERSIONS:
        fail(
            "version",
            f"unsupported version {show(version)} (this program reads versions "
            f"{', '.join(map(str, READABLE_VERSIONS))})",
        )
    read_object(data, "save file", TOP_KEYS if version >= 3 else TOP_KEYS_V2)
    setup = read_setup(doc["setup"])
    actions = _read_actions(doc["actions"], setup)
    seats = _read_seats(doc["seats"], setup.players) if version >= 3 else None
    keys = STATE_KEYS if version >= 2 else STATE_KEYS_V1
    game = _read_state(doc["state"], setup, keys)
    actions_version = ACTIONS_VERSION_OF[version]
    if actions is None:
        return SaveFile(game, seats, setup, actions, actions_version)
    if len(actions) != len(game.history):
        fail("actions", f"{len(actions)} action(s), but state.history records {len(game.history)}")
    replayed = _replay(setup, actions, actions_version)
    stored, got = _state(game), _state(replayed)
    for key in keys:
        # An older sequence replays with the newly asked questions answered: a longer history.
        if key != "history" or actions_version == ACTIONS_VERSION:
            _same_as_replayed(f"state.{key}", stored[key], got[key])
    if actions_version == ACTIONS_VERSION:
        game.ledger = replayed.ledger[:]  # the same, or (version 1) the one the file lacked
        return SaveFile(game, seats, setup, actions, actions_version)
    return SaveFile(replayed, seats, setup, actions, actions_version)


def _read_seats(value: object, players: int) -> tuple[str, ...] | None:
    if value is None:
        return None
    items = read_list(value, "seats", players)
    for i, name in enumerate(items):
        if not isinstance(name, str):
            fail(f"seats[{i}]", f"expected a seat name, got {type_name(name)}")
        if not name or len(name) > MAX_SEAT_NAME or not name.isprintable():
            fail(f"seats[{i}]", f"a seat name is 1 to {MAX_SEAT_NAME} printable characters, got {show(name)}")
    return tuple(str(n) for n in items)


def _same_as_replayed(path: str, stored: object, replayed: object) -> None:
    """Fail at the first place where the stored state and the replayed one differ."""
    if stored == replayed:
        return
    if isinstance(stored, list) and isinstance(replayed, list) and len(stored) == len(replayed):
        for i, (a, b) in enumerate(zip(stored, replayed, strict=True)):
            _same_as_replayed(f"{path}[{i}]", a, b)
    fail(path, f"stored {show(stored)}, but replaying the actions from the setup gives {show(replayed)}")


def replay(setup: object, actions: object, version: int = ACTIONS_VERSION) -> Game:
    """Deal the game described by a ``setup`` object and play the action texts in order.

    ``version`` is the action-sequence version the actions were written in.
    """
    s = read_setup(setup)
    texts = _read_actions(actions, s)
    if texts is None:
        fail("actions", "expected a list of action texts, got null")
    return _replay(s, texts, version)


def _replay(setup: Setup, actions: Sequence[str], version: int) -> Game:
    try:
        return replay_actions(setup, actions, version=version)
    except ReplayError as exc:
        fail(f"actions[{exc.index}]", str(exc))


def read_setup(value: object) -> Setup:
    """Check a ``setup`` object (the deal of a game) and return it typed."""
    given_kinds = isinstance(value, dict) and "kinds" in value
    d = read_object(value, "setup", SETUP_KEYS_DESIGNED if given_kinds else SETUP_KEYS)
    players = read_int(d["players"], "setup.players", 2, 5)
    recipe_value = read_list(d["recipe"], "setup.recipe")
    kinds: list[int] = []
    for i, slug in enumerate(recipe_value):
        path = f"setup.recipe[{i}]"
        if not isinstance(slug, str):
            fail(path, f"expected a card slug, got {type_name(slug)}")
        if slug not in KIND_BY_SLUG:
            fail(path, f"unknown card {show(slug)}")
        kinds.append(KIND_BY_SLUG[slug])
    if given_kinds:
        _check_numbering(d["kinds"], kinds)
    try:
        recipe = validate_recipe(kinds)
    except RecipeError as exc:
        fail("setup.recipe", str(exc))
    names = tuple(f.name for f in fields(RuleOptions))
    rules_value = read_object(d["rules"], "setup.rules", names)
    for name in names:
        read_int(rules_value[name], f"setup.rules.{name}", -MAX_COUNT, MAX_COUNT)
    try:
        rules = RuleOptions.from_dict(dict(rules_value))
    except SetupError as exc:
        fail("setup.rules", str(exc))
    seed_value = d["seed"]
    seed = None if seed_value is None else read_int(seed_value, "setup.seed", None, None)
    fp_value = d["first_player"]
    first_player = None if fp_value is None else read_int(fp_value, "setup.first_player", 0, players - 1)
    if first_player is None and seed is None:
        fail("setup.first_player", "null means 'drawn from the seed', but setup.seed is null")
    try:
        Game._blank(players, recipe, rules, seed)
    except SetupError as exc:
        fail("setup", str(exc))
    return Setup(players, recipe, rules, seed, first_player)


def _check_numbering(value: object, recipe: list[int]) -> None:
    """Refuse a save whose designer cards were numbered otherwise than here.

    Designer cards are numbered in the order they are loaded, and the numbers
    are in the state (a recipe's card order, a decision naming the kind whose
    ability asks). Loaded in another order, the same file would mean another
    game, so it is refused with the order that reads it.
    """
    given = read_object(value, "setup.kinds", (), check_keys=False)
    designed = sorted(SLUGS[k] for k in recipe if k >= OFFICIAL_KINDS)
    if sorted(given) != designed:
        listed = ", ".join(designed) or "none"
        fail("setup.kinds", f"expected the recipe's designer cards ({listed}), got {show(sorted(given))}")
    numbers = {slug: read_int(n, f"setup.kinds.{slug}", OFFICIAL_KINDS, None) for slug, n in given.items()}
    for slug, number in numbers.items():
        if number != KIND_BY_SLUG[slug]:
            order = ", ".join(sorted(numbers, key=numbers.__getitem__))
            fail(
                f"setup.kinds.{slug}",
                f"{slug!r} was card kind {number} when this game was saved, and is {KIND_BY_SLUG[slug]} "
                f"here: load the designer cards in the order they were loaded then ({order})",
            )


def _read_actions(value: object, setup: Setup) -> list[str] | None:
    if value is None:
        return None
    if setup.seed is None:
        fail("actions", "actions can only be replayed from a seeded setup; setup.seed is null")
    items = read_list(value, "actions")
    for i, text in enumerate(items):
        if not isinstance(text, str):
            fail(f"actions[{i}]", f"expected an action text, got {type_name(text)}")
    return [t for t in items if isinstance(t, str)]


# ------------------------------------------------------------ the state


def _read_state(value: object, setup: Setup, keys: tuple[str, ...] = STATE_KEYS) -> Game:
    """Type-check every field of ``state``, build the game, then check it is consistent."""
    d = read_object(value, "state", keys)
    g = Game._blank(setup.players, setup.recipe, setup.rules, setup.seed)
    n = len(g.kind)
    players = setup.players

    kinds = read_list(d["kind"], "state.kind", n)
    for c, slug in enumerate(kinds):
        if slug != SLUGS[g.kind[c]]:
            fail(
                f"state.kind[{c}]",
                f"expected {SLUGS[g.kind[c]]!r} (the card this recipe and {players} players deal as "
                f"card {c}), got {show(slug)}",
            )
    owners = read_list(d["owner"], "state.owner", n)
    for c, o in enumerate(owners):
        if type(o) is not int or o != g.owner[c]:
            fail(f"state.owner[{c}]", f"expected {g.owner[c]} (card {c}'s family), got {show(o)}")
    g.ctrl = read_ints(d["ctrl"], "state.ctrl", 0, players - 1, n)
    g.up = read_bools(d["up"], "state.up", n)
    g.ip = read_ints(d["ip"], "state.ip", 0, MAX_COUNT, n)
    g.under = read_ints(d["under"], "state.under", -1, n - 1, n)
    g.zone = [
        read_name(z, f"state.zone[{c}]", ZONE_NAMES)
        for c, z in enumerate(read_list(d["zone"], "state.zone", n))
    ]
    g.verdict = read_bools(d["verdict"], "state.verdict", n)
    g.bribed_by = read_ints(d["bribed_by"], "state.bribed_by", -1, players - 1, n)
    g.asleep = read_bools(d["asleep"], "state.asleep", n)
    g.exposed = read_bools(d["exposed"], "state.exposed", n)
    g.queue = read_ints(d["queue"], "state.queue", 0, n - 1)
    for name in _PILES:
        piles = read_list(d[name], f"state.{name}", players)
        setattr(g, name, [read_ints(p, f"state.{name}[{s}]", 0, n - 1) for s, p in enumerate(piles)])
    g.set_scores(read_ints(d["score"], "state.score", 0, MAX_COUNT, players))
    if "ledger" in keys:
        g.ledger = _read_ledger(d["ledger"], g.score)
    g.verdict_pool = read_int(d["verdict_pool"], "state.verdict_pool", 0, Game.VERDICT_TOKENS)
    g.round = read_int(d["round"], "state.round", 1, setup.rules.rounds)
    g.first = read_int(d["first"], "state.first", 0, players - 1)
    g.phase = read_name(d["phase"], "state.phase", PHASE_NAMES)
    g.order = tuple(read_ints(d["order"], "state.order", 0, players - 1))
    g.turn = read_int(d["turn"], "state.turn", 0, len(g.order))
    g.ptr = read_int(d["ptr"], "state.ptr", 0, len(g.queue))
    g.cur = read_int(d["cur"], "state.cur", -1, n - 1)
    g.cur_gone = read_bool(d["cur_gone"], "state.cur_gone")
    g.stack = [
        tuple(read_ints(f, f"state.stack[{i}]", -1, _MAX_ACTION))
        for i, f in enumerate(read_list(d["stack"], "state.stack"))
    ]
    pending = d["pending"]
    if pending is None:
        g.pending = None
    else:
        p = read_ints(pending, "state.pending", -1, _MAX_ACTION, 6)
        g.pending = (p[P_DECISION], p[P_SEAT], p[P_ACTOR], p[P_CTRL], p[P_DATA], p[P_DATA2])
    g.options = tuple(read_ints(d["options"], "state.options", 0, _MAX_ACTION))
    g.history = read_ints(d["history"], "state.history", 0, _MAX_ACTION)
    g.winners = tuple(read_ints(d["winners"], "state.winners", 0, players - 1))

    check_state(g, setup.first_player)
    return g


def _read_ledger(value: object, scores: list[int]) -> list[int]:
    """Per seat, ``{cause: net IP}`` with known causes, summing to that seat's score."""
    rows = read_list(value, "state.ledger", len(scores))
    ledger = [0] * (len(scores) * NUM_CAUSES)
    for s, row in enumerate(rows):
        path = f"state.ledger[{s}]"
        if not isinstance(row, dict):
            fail(path, f"expected an object of causes, got {type_name(row)}")
        for name, n in row.items():
            cause = cause_code(name) if isinstance(name, str) else None
            if cause is None:
                fail(
                    f"{path} key",
                    f"expected a loaded card's slug or a rule (start, revealed-ip, eliminating, position); got {name!r}",
                )
            ledger[s * NUM_CAUSES + cause] = read_int(n, f"{path}[{name!r}]", -MAX_COUNT, MAX_COUNT)
        total = sum(ledger[s * NUM_CAUSES : (s + 1) * NUM_CAUSES])
        if total != scores[s]:
            fail(path, f"the causes add up to {total}, but state.score[{s}] is {scores[s]}")
    return ledger


__all__ = [
    "ACTIONS_VERSION_OF",
    "FORMAT",
    "READABLE_VERSIONS",
    "VERSION",
    "SaveFile",
    "dumps",
    "from_dict",
    "loads",
    "read",
    "read_dict",
    "read_setup",
    "replay",
    "to_dict",
]
