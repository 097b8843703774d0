"""Saving and loading a game as JSON, at any decision point.

A game is fully determined by its *setup* (players, deck recipe, rule options,
seed, first player) plus the list of actions played; the save file holds both,
and also the complete *state*, so that a position built for a test or a puzzle
(which has no setup to replay) can be saved too, and so that a file can be
checked: when the actions are present, replaying them from the setup must give
the stored state exactly, or the file is refused.

Schema, version 2 (``dumps`` writes the keys in this order, compactly)::

    {
      "format": "oriflamme-save",
      "version": 2,
      "setup": {
        "players": 2..5,
        "recipe": ["archer", ...],       # the 10 kind slugs of the deck recipe
        "rules": {"schemer_gain": 1, "two_player_cards_per_round": 2, "rounds": 6},
        "seed": int | null,              # null: a built position (no deal to replay)
        "first_player": int | null       # seat of round 1's first player;
                                         # null: drawn from the seed, as Game.new does
      },
      "actions": [str, ...] | null,      # action texts (oriflamme.engine.action_text), in order;
                                         # null when the state cannot be replayed
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

Version 1 (oriflamme 0.1) had no ``ledger``. It still loads: a file with
actions gets the ledger of its replay; a built position's scores are put down
to the ``position`` cause.

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
import reprlib
from collections.abc import Mapping, Sequence
from dataclasses import fields
from typing import Any, NoReturn

from ..engine.action_text import action_text
from ..engine.actions import (
    ARG_MASK,
    COPY,
    FETCH,
    FROM_ASIDE,
    GAIN_ACTION,
    MODE,
    MODE_CASHOUT,
    MODE_COLLECT,
    MODE_CONDEMN,
    MODE_EXCHANGE,
    MODE_GIFT,
    MODE_VERDICT,
    PLACE_FIRST,
    PLACE_LAST,
    PLACE_ON,
    SHIFT,
    STEAL,
    SWAP,
    TARGET,
    TO,
    USE,
)
from ..engine.cards import (
    DIPLOMAT,
    INFORMANT,
    IS_CHARACTER,
    IS_KEPT,
    JUDGE,
    KIND_BY_SLUG,
    NUM_KINDS,
    SLUGS,
    TWIN,
)
from ..engine.causes import CAUSE_NAMES, NUM_CAUSES, POSITION
from ..engine.errors import OriflammeError, RecipeError, ReplayError, SaveFormatError, SetupError
from ..engine.game import Game
from ..engine.options import RuleOptions
from ..engine.recipes import validate_recipe
from ..engine.registry import (
    CONTINUATIONS,
    D_COPY,
    D_DECREE_DEST,
    D_DECREE_PICK,
    D_FETCH,
    D_KEEP_OR_REVEAL,
    D_MODE,
    D_PLACE,
    D_PLOT_CHAR,
    D_PLOT_IP,
    D_SPY,
    D_SWAP,
    D_TARGET_ELIMINATE,
    D_TARGET_OTHER,
    D_TWIN,
    DECISION_NAMES,
    K_DESERTER,
    K_FINISH,
    K_GAIN,
    K_PLOT,
    MODE_EFFECT,
    TARGET_EFFECT,
)
from ..engine.setup import Setup
from ..engine.zones import (
    ASIDE,
    COVERED,
    DISCARD,
    HAND,
    KEPT,
    OVER,
    PHASE_NAMES,
    PLACE,
    RESOLVE,
    TOP,
    TWIN_ASIDE,
    ZONE_NAMES,
)
from .replay import replay as replay_actions

FORMAT = "oriflamme-save"
VERSION = 2
#: Every version this program reads.
READABLE_VERSIONS = (1, 2)

SETUP_KEYS = ("players", "recipe", "rules", "seed", "first_player")
STATE_KEYS_V1 = (
    "kind", "owner", "ctrl", "up", "ip", "under", "zone", "verdict", "bribed_by", "asleep", "exposed",
    "queue", "hands", "aside", "twins", "discards", "kept", "score", "verdict_pool",
    "round", "first", "phase", "order", "turn", "ptr", "cur", "cur_gone",
    "stack", "pending", "options", "history", "winners",
)  # fmt: skip
#: Version 2 added the IP ledger.
STATE_KEYS = STATE_KEYS_V1 + ("ledger",)
TOP_KEYS = ("format", "version", "setup", "actions", "state")
#: Game slots that are not in ``state``: the setup, one derived value, and the
#: last apply's events. A test checks that every slot of Game is accounted for.
SLOTS_IN_SETUP = ("players", "recipe", "rules", "seed")
SLOTS_DERIVED = ("hand_size",)
SLOTS_TRANSIENT = ("events",)

#: No game comes near this many IP; a bigger count is a corrupt file, and
#: refusing it keeps every number printable and JSON-writable.
MAX_COUNT = 10**6
_PILES = ("hands", "aside", "twins", "discards", "kept")
_PILE_ZONE = {"hands": HAND, "aside": ASIDE, "twins": TWIN_ASIDE, "discards": DISCARD, "kept": KEPT}
#: Continuation frames this version can hold: code -> length of the frame.
_FRAME_LENGTH = {K_FINISH: 2, K_GAIN: 3, K_PLOT: 3, K_DESERTER: 2}
#: The modes of each choose-one ability.
_MODES = {
    INFORMANT: (MODE_COLLECT, MODE_EXCHANGE),
    DIPLOMAT: (MODE_GIFT, MODE_CASHOUT),
    JUDGE: (MODE_VERDICT, MODE_CONDEMN),
}
#: Decisions asked about a card in the queue (the ``actor``), which must still be there.
_ACTOR_IN_QUEUE = frozenset(
    (D_TARGET_ELIMINATE, D_TARGET_OTHER, D_DECREE_PICK, D_DECREE_DEST, D_SPY, D_COPY, D_TWIN, D_FETCH,
     D_MODE, D_SWAP, D_KEEP_OR_REVEAL)
)  # fmt: skip
_MAX_ACTION = 1 << 31


# ---------------------------------------------------------------- writing


def to_dict(game: Game) -> dict[str, Any]:
    """The save document of ``game`` (plain JSON data; see the module docstring)."""
    first_player: int | None = _round_one_first(game)
    actions: list[str] | None = None
    if game.seed is not None:
        for candidate in (None, first_player):
            texts = _replay_texts(game, candidate)
            if texts is not None:
                first_player, actions = candidate, texts
                break
    return {
        "format": FORMAT,
        "version": VERSION,
        "setup": {
            "players": game.players,
            "recipe": [SLUGS[k] for k in game.recipe],
            "rules": game.rules.to_dict(),
            "seed": game.seed,
            "first_player": first_player,
        },
        "actions": actions,
        "state": _state(game),
    }


def dumps(game: Game) -> str:
    """The save file text: compact JSON, keys always in the same order."""
    return json.dumps(to_dict(game), separators=(",", ":"))


def _round_one_first(game: Game) -> int:
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
    row = g.ledger[seat * NUM_CAUSES : (seat + 1) * NUM_CAUSES]
    off = g.score[seat] - sum(row)
    if off:
        row = row[:]
        row[POSITION] += off
    return {CAUSE_NAMES[c]: n for c, n in enumerate(row) if n}


def _replay_texts(game: Game, first_player: int | None) -> list[str] | None:
    """The action texts of ``game``'s history if it replays from its setup to the same state."""
    assert game.seed is not None
    try:
        g = Setup(game.players, game.recipe, game.rules, game.seed, first_player).deal()
    except OriflammeError:
        return None
    if g.first != _round_one_first(game):
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
    if not isinstance(text, (str, bytes, bytearray)):
        raise SaveFormatError(f"a save file is text, got {_type_name(text)}")
    try:
        data = json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_no_constant)
    except SaveFormatError:
        raise
    except RecursionError:
        raise SaveFormatError("not a save file: the JSON is nested too deeply") from None
    except ValueError as exc:  # JSONDecodeError, bad UTF-8, over-long integers
        raise SaveFormatError(f"not valid JSON: {exc}") from None
    return from_dict(data)


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
    doc = _obj(data, "save file", TOP_KEYS, check_keys=False)
    if doc.get("format") != FORMAT:
        _fail("format", f"expected {FORMAT!r}, got {_show(doc.get('format'))}: not an Oriflamme save file")
    version = doc.get("version")
    if type(version) is not int:
        _fail("version", f"expected an integer, got {_type_name(version)}")
    if version not in READABLE_VERSIONS:
        _fail(
            "version",
            f"unsupported version {_show(version)} (this program reads versions "
            f"{', '.join(map(str, READABLE_VERSIONS))})",
        )
    _obj(data, "save file", TOP_KEYS)
    setup = read_setup(doc["setup"])
    actions = _read_actions(doc["actions"], setup)
    keys = STATE_KEYS if version >= 2 else STATE_KEYS_V1
    game = _read_state(doc["state"], setup, keys)
    if actions is not None:
        if len(actions) != len(game.history):
            _fail(
                "actions",
                f"{len(actions)} action(s), but state.history records {len(game.history)}",
            )
        replayed = _replay(setup, actions)
        stored, got = _state(game), _state(replayed)
        for key in keys:
            _same_as_replayed(f"state.{key}", stored[key], got[key])
        game.ledger = replayed.ledger[:]  # the same, or (version 1) the one the file lacked
    return game


def _same_as_replayed(path: str, stored: object, replayed: object) -> None:
    """Fail at the first place where the stored state and the replayed one differ."""
    if stored == replayed:
        return
    if isinstance(stored, list) and isinstance(replayed, list) and len(stored) == len(replayed):
        for i, (a, b) in enumerate(zip(stored, replayed, strict=True)):
            _same_as_replayed(f"{path}[{i}]", a, b)
    _fail(path, f"stored {_show(stored)}, but replaying the actions from the setup gives {_show(replayed)}")


def replay(setup: object, actions: object) -> Game:
    """Deal the game described by a ``setup`` object and play the action texts in order."""
    s = read_setup(setup)
    texts = _read_actions(actions, s)
    if texts is None:
        _fail("actions", "expected a list of action texts, got null")
    return _replay(s, texts)


def _replay(setup: Setup, actions: Sequence[str]) -> Game:
    try:
        return replay_actions(setup, actions)
    except ReplayError as exc:
        _fail(f"actions[{exc.index}]", str(exc))


def read_setup(value: object) -> Setup:
    """Check a ``setup`` object (the deal of a game) and return it typed."""
    d = _obj(value, "setup", SETUP_KEYS)
    players = _int(d["players"], "setup.players", 2, 5)
    recipe_value = _list(d["recipe"], "setup.recipe")
    kinds: list[int] = []
    for i, slug in enumerate(recipe_value):
        path = f"setup.recipe[{i}]"
        if not isinstance(slug, str):
            _fail(path, f"expected a card slug, got {_type_name(slug)}")
        if slug not in KIND_BY_SLUG:
            _fail(path, f"unknown card {_show(slug)}")
        kinds.append(KIND_BY_SLUG[slug])
    try:
        recipe = validate_recipe(kinds)
    except RecipeError as exc:
        _fail("setup.recipe", str(exc))
    names = tuple(f.name for f in fields(RuleOptions))
    rules_value = _obj(d["rules"], "setup.rules", names)
    for name in names:
        _int(rules_value[name], f"setup.rules.{name}", -MAX_COUNT, MAX_COUNT)
    try:
        rules = RuleOptions.from_dict(dict(rules_value))
    except SetupError as exc:
        _fail("setup.rules", str(exc))
    seed_value = d["seed"]
    seed = None if seed_value is None else _int(seed_value, "setup.seed", None, None)
    fp_value = d["first_player"]
    first_player = None if fp_value is None else _int(fp_value, "setup.first_player", 0, players - 1)
    if first_player is None and seed is None:
        _fail("setup.first_player", "null means 'drawn from the seed', but setup.seed is null")
    try:
        Game._blank(players, recipe, rules, seed)
    except SetupError as exc:
        _fail("setup", str(exc))
    return Setup(players, recipe, rules, seed, first_player)


def _read_actions(value: object, setup: Setup) -> list[str] | None:
    if value is None:
        return None
    if setup.seed is None:
        _fail("actions", "actions can only be replayed from a seeded setup; setup.seed is null")
    items = _list(value, "actions")
    for i, text in enumerate(items):
        if not isinstance(text, str):
            _fail(f"actions[{i}]", f"expected an action text, got {_type_name(text)}")
    return [t for t in items if isinstance(t, str)]


# ------------------------------------------------------------ the state


def _read_state(value: object, setup: Setup, keys: tuple[str, ...] = STATE_KEYS) -> Game:
    """Type-check every field of ``state``, build the game, then check it is consistent."""
    d = _obj(value, "state", keys)
    g = Game._blank(setup.players, setup.recipe, setup.rules, setup.seed)
    n = len(g.kind)
    players = setup.players

    kinds = _list(d["kind"], "state.kind", n)
    for c, slug in enumerate(kinds):
        if slug != SLUGS[g.kind[c]]:
            _fail(
                f"state.kind[{c}]",
                f"expected {SLUGS[g.kind[c]]!r} (the card this recipe and {players} players deal as "
                f"card {c}), got {_show(slug)}",
            )
    owners = _list(d["owner"], "state.owner", n)
    for c, o in enumerate(owners):
        if type(o) is not int or o != g.owner[c]:
            _fail(f"state.owner[{c}]", f"expected {g.owner[c]} (card {c}'s family), got {_show(o)}")
    g.ctrl = _ints(d["ctrl"], "state.ctrl", 0, players - 1, n)
    g.up = _bools(d["up"], "state.up", n)
    g.ip = _ints(d["ip"], "state.ip", 0, MAX_COUNT, n)
    g.under = _ints(d["under"], "state.under", -1, n - 1, n)
    g.zone = [
        _name(z, f"state.zone[{c}]", ZONE_NAMES) for c, z in enumerate(_list(d["zone"], "state.zone", n))
    ]
    g.verdict = _bools(d["verdict"], "state.verdict", n)
    g.bribed_by = _ints(d["bribed_by"], "state.bribed_by", -1, players - 1, n)
    g.asleep = _bools(d["asleep"], "state.asleep", n)
    g.exposed = _bools(d["exposed"], "state.exposed", n)
    g.queue = _ints(d["queue"], "state.queue", 0, n - 1)
    for name in _PILES:
        piles = _list(d[name], f"state.{name}", players)
        setattr(g, name, [_ints(p, f"state.{name}[{s}]", 0, n - 1) for s, p in enumerate(piles)])
    g.set_scores(_ints(d["score"], "state.score", 0, MAX_COUNT, players))
    if "ledger" in keys:
        g.ledger = _read_ledger(d["ledger"], g.score)
    g.verdict_pool = _int(d["verdict_pool"], "state.verdict_pool", 0, Game.VERDICT_TOKENS)
    g.round = _int(d["round"], "state.round", 1, setup.rules.rounds)
    g.first = _int(d["first"], "state.first", 0, players - 1)
    g.phase = _name(d["phase"], "state.phase", PHASE_NAMES)
    g.order = tuple(_ints(d["order"], "state.order", 0, players - 1))
    g.turn = _int(d["turn"], "state.turn", 0, len(g.order))
    g.ptr = _int(d["ptr"], "state.ptr", 0, len(g.queue))
    g.cur = _int(d["cur"], "state.cur", -1, n - 1)
    g.cur_gone = _bool(d["cur_gone"], "state.cur_gone")
    g.stack = [
        tuple(_ints(f, f"state.stack[{i}]", -1, _MAX_ACTION))
        for i, f in enumerate(_list(d["stack"], "state.stack"))
    ]
    pending = d["pending"]
    if pending is None:
        g.pending = None
    else:
        p = _ints(pending, "state.pending", -1, _MAX_ACTION, 6)
        g.pending = (p[0], p[1], p[2], p[3], p[4], p[5])
    g.options = tuple(_ints(d["options"], "state.options", 0, _MAX_ACTION))
    g.history = _ints(d["history"], "state.history", 0, _MAX_ACTION)
    g.winners = tuple(_ints(d["winners"], "state.winners", 0, players - 1))

    _check_cards(g)
    _check_progress(g, setup)
    return g


def _read_ledger(value: object, scores: list[int]) -> list[int]:
    """Per seat, ``{cause: net IP}`` with known causes, summing to that seat's score."""
    rows = _list(value, "state.ledger", len(scores))
    ledger = [0] * (len(scores) * NUM_CAUSES)
    for s, row in enumerate(rows):
        path = f"state.ledger[{s}]"
        if not isinstance(row, dict):
            _fail(path, f"expected an object of causes, got {_type_name(row)}")
        for name, n in row.items():
            cause = _name(name, f"{path} key", CAUSE_NAMES)
            ledger[s * NUM_CAUSES + cause] = _int(n, f"{path}[{name!r}]", -MAX_COUNT, MAX_COUNT)
        total = sum(ledger[s * NUM_CAUSES : (s + 1) * NUM_CAUSES])
        if total != scores[s]:
            _fail(path, f"the causes add up to {total}, but state.score[{s}] is {scores[s]}")
    return ledger


def _check_cards(g: Game) -> None:
    """Every card is in exactly one place, and that place agrees with its zone and tokens."""
    n = len(g.kind)
    seen: dict[int, str] = {}

    def put(c: int, path: str) -> None:
        if c in seen:
            _fail(path, f"card {c} ({_card(g, c)}) is also at {seen[c]}")
        seen[c] = path

    for i, top in enumerate(g.queue):
        put(top, f"state.queue[{i}]")
        if g.zone[top] != TOP:
            _fail(
                f"state.zone[{top}]",
                f"card {top} is the top of queue position {i + 1} but its zone is "
                f"{ZONE_NAMES[g.zone[top]]!r}",
            )
        c, above = g.under[top], top
        while c >= 0:
            if c in seen:
                _fail(f"state.under[{above}]", f"card {c} under card {above} is already at {seen[c]}")
            put(c, f"state.under[{above}]")
            if g.zone[c] != COVERED:
                _fail(
                    f"state.zone[{c}]",
                    f"card {c} lies under card {above} in queue position {i + 1} but its zone is "
                    f"{ZONE_NAMES[g.zone[c]]!r}, not 'covered'",
                )
            c, above = g.under[c], c
    for name in _PILES:
        zone = _PILE_ZONE[name]
        for s, pile in enumerate(getattr(g, name)):
            for j, c in enumerate(pile):
                path = f"state.{name}[{s}][{j}]"
                put(c, path)
                if g.zone[c] != zone:
                    _fail(path, f"card {c} is in {name} but its zone is {ZONE_NAMES[g.zone[c]]!r}")
                if name != "kept" and g.owner[c] != s:
                    _fail(path, f"card {c} ({_card(g, c)}) is in the {name} pile of p{s + 1}")
    for c in range(n):
        if c not in seen:
            _fail(
                f"state.zone[{c}]",
                f"card {c} ({_card(g, c)}) has zone {ZONE_NAMES[g.zone[c]]!r} but no pile or queue "
                "position holds it",
            )
        _check_card(g, c)
    on_cards = sum(g.verdict)
    if on_cards + g.verdict_pool != Game.VERDICT_TOKENS:
        _fail(
            "state.verdict_pool",
            f"{g.verdict_pool} in the pool and {on_cards} on cards make "
            f"{g.verdict_pool + on_cards}, not {Game.VERDICT_TOKENS}",
        )


def _check_card(g: Game, c: int) -> None:
    zone = g.zone[c]
    k = g.kind[c]
    if zone not in (TOP, COVERED):
        for name, value, free in (
            ("under", g.under[c], -1),
            ("ctrl", g.ctrl[c], g.owner[c]),
            ("bribed_by", g.bribed_by[c], -1),
            ("verdict", g.verdict[c], False),
            ("asleep", g.asleep[c], False),
            ("exposed", g.exposed[c], False),
        ):
            if value != free:
                _fail(
                    f"state.{name}[{c}]",
                    f"must be {_show(free)} for a card out of the queue (zone {ZONE_NAMES[zone]!r}), "
                    f"got {_show(value)}",
                )
        if zone != KEPT and g.ip[c]:
            _fail(f"state.ip[{c}]", f"IP on a card in zone {ZONE_NAMES[zone]!r}")
    if g.bribed_by[c] >= 0 and g.ctrl[c] != g.bribed_by[c]:
        _fail(
            f"state.ctrl[{c}]",
            f"card {c} bears p{g.bribed_by[c] + 1}'s Bribery token but is controlled by p{g.ctrl[c] + 1}",
        )
    if zone in (DISCARD, KEPT, TWIN_ASIDE) and not g.up[c]:
        _fail(f"state.up[{c}]", f"a card in zone {ZONE_NAMES[zone]!r} must be face up")
    if zone == ASIDE and g.up[c]:
        _fail(f"state.up[{c}]", "a set-aside card must be face down")
    if (zone == TWIN_ASIDE) != (k == TWIN and zone not in (TOP, COVERED, DISCARD)):
        _fail(f"state.zone[{c}]", f"a {SLUGS[k]} cannot be in zone {ZONE_NAMES[zone]!r}")
    if zone == KEPT and not IS_KEPT[k]:
        _fail(f"state.zone[{c}]", f"a {SLUGS[k]} is never kept")
    if g.exposed[c] and g.up[c]:
        _fail(f"state.exposed[{c}]", "only a face-down card can be exposed")
    if g.asleep[c] and g.phase != RESOLVE:
        _fail(f"state.asleep[{c}]", "cards sleep only during a resolution")


def _check_progress(g: Game, setup: Setup) -> None:
    """Round, turn, pointer, frames and the pending decision agree with each other."""
    players = g.players
    f = g.first
    if setup.first_player is not None and f != (setup.first_player + g.round - 1) % players:
        _fail(
            "state.first",
            f"round {g.round} of a game that p{setup.first_player + 1} started has p"
            f"{(setup.first_player + g.round - 1) % players + 1} first, got p{f + 1}",
        )
    if players == 2:
        order = (f, 1 - f) * setup.rules.two_player_cards_per_round
    else:
        order = tuple((f + i) % players for i in range(players))
    if g.order != order:
        _fail("state.order", f"with p{f + 1} first the placement order is {list(order)}, got {list(g.order)}")
    over = g.phase == OVER
    if g.phase == PLACE:
        if g.turn >= len(g.order):
            _fail("state.turn", f"placement turn {g.turn} of {len(g.order)} is past the last placer")
    elif g.turn != len(g.order):
        _fail("state.turn", f"every placer has played once placement is over: expected {len(g.order)}")
    if g.phase != RESOLVE:
        for name, value, rest in (("ptr", g.ptr, 0), ("cur", g.cur, -1), ("cur_gone", g.cur_gone, False)):
            if value != rest:
                _fail(f"state.{name}", f"must be {_show(rest)} outside a resolution, got {_show(value)}")
        if g.stack:
            _fail("state.stack", "frames are left only during a resolution")
    if over:
        if g.round != setup.rules.rounds:
            _fail("state.round", f"a finished game ended in round {setup.rules.rounds}")
        if g.pending is not None:
            _fail("state.pending", "a finished game has no pending decision")
        if g.options:
            _fail("state.options", "a finished game has no legal actions")
        winners = g.outcome().winners
        if g.winners != winners:
            _fail("state.winners", f"the scores and the queue make {list(winners)} the winners")
        return
    if g.winners:
        _fail("state.winners", "a game in progress has no winners")
    if g.pending is None:
        _fail("state.pending", "a game in progress waits for a decision; got null")
    if not g.options:
        _fail("state.options", "a game in progress has at least one legal action")
    for i, frame in enumerate(g.stack):
        _check_frame(g, frame, f"state.stack[{i}]")
    _check_pending(g, g.pending)


def _check_frame(g: Game, frame: tuple[int, ...], path: str) -> None:
    code = frame[0] if frame else -1
    length = _FRAME_LENGTH.get(code)
    if length is None or code not in CONTINUATIONS:
        _fail(path, f"unknown continuation frame {_show(list(frame))}")
    if len(frame) != length:
        _fail(path, f"a frame of code {code} has {length} numbers, got {len(frame)}")
    if code in (K_FINISH, K_DESERTER):
        _in_range(frame[1], f"{path}[1]", 0, len(g.kind) - 1, "a card")
    else:
        _in_range(frame[1], f"{path}[1]", 0, g.players - 1, "a seat")
        _in_range(frame[2], f"{path}[2]", 0, MAX_COUNT, "a count")


def _check_pending(g: Game, p: tuple[int, int, int, int, int, int]) -> None:
    decision, seat, actor, ctrl, a, b = p
    path = "state.pending"
    _in_range(decision, f"{path}[0]", 0, len(DECISION_NAMES) - 1, "a decision kind")
    _in_range(seat, f"{path}[1]", 0, g.players - 1, "a seat")
    if ctrl != seat:
        _fail(
            path, f"the deciding seat ({seat}) and the controller ({ctrl}) of a decision are the same player"
        )
    _in_range(actor, f"{path}[2]", -1, len(g.kind) - 1, "a card or -1")
    name = DECISION_NAMES[decision]
    if (decision == D_PLACE) != (g.phase == PLACE):
        _fail(f"{path}[0]", f"a {name!r} decision in the {PHASE_NAMES[g.phase]} phase")
    if decision in _ACTOR_IN_QUEUE and (actor < 0 or g.zone[actor] != TOP):
        _fail(f"{path}[2]", f"the card deciding a {name!r} decision must be the top of a queue position")
    if len(set(g.options)) != len(g.options):
        _fail("state.options", "the legal actions are distinct")
    if decision not in (D_PLACE, D_KEEP_OR_REVEAL) and len(g.options) < 2:
        _fail("state.options", f"a {name!r} decision with one option is never asked")
    q = g.queue
    nq = len(q)

    def expect(index: int, value: int, wanted: int, what: str) -> None:
        if value != wanted:
            _fail(f"{path}[{index}]", f"for a {name!r} decision this is {what} ({wanted}), got {value}")

    def kind_field(index: int, value: int) -> None:
        _in_range(value, f"{path}[{index}]", 0, NUM_KINDS - 1, "a card kind")

    if decision == D_PLACE:
        expect(1, seat, g.order[g.turn], "the placer whose turn it is")
        expect(2, actor, -1, "unused")
        # Placement options depend on the state alone: ask the engine for them.
        probe = g.clone()
        probe.pending, probe.options = None, ()
        probe._ask_place()
        if probe.options != g.options:
            _fail(
                "state.options",
                f"p{seat + 1}'s placements here are {_show(list(probe.options))}, "
                f"got {_show(list(g.options))}",
            )
    if decision == D_KEEP_OR_REVEAL:
        top = q[g.ptr] if g.ptr < nq else -1
        expect(2, actor, top, "the card at the resolution pointer")
        expect(1, seat, g.ctrl[actor], "its controller")
        if g.up[actor] or g.asleep[actor] or g.cur != actor or g.cur_gone:
            _fail(path, f"card {actor} at the pointer is not a face-down card waiting to resolve")
        # What a face-down card at the pointer offers depends on the state alone: ask the engine.
        probe = g.clone()
        probe.pending, probe.options = None, ()
        probe._resolve_next()
        if probe.options != g.options:
            _fail(
                "state.options",
                f"card {actor} ({_card(g, actor)}) at the pointer offers {_show(list(probe.options))}, "
                f"got {_show(list(g.options))}",
            )
    if decision not in (D_DECREE_DEST, D_TWIN, D_FETCH):
        expect(5, b, -1, "unused")
    if decision in (D_PLACE, D_KEEP_OR_REVEAL):
        expect(4, a, -1, "unused")
    if decision in (D_TARGET_ELIMINATE, D_TARGET_OTHER, D_DECREE_PICK, D_SPY, D_COPY, D_MODE, D_SWAP):
        kind_field(4, a)
    if decision == D_TARGET_OTHER and a not in TARGET_EFFECT:
        _fail(f"{path}[4]", f"{SLUGS[a]} has no targeting ability")
    if decision == D_MODE and (a not in MODE_EFFECT or a not in _MODES):
        _fail(f"{path}[4]", f"{SLUGS[a]} has no choose-one ability")
    if decision == D_DECREE_DEST:
        _in_range(a, f"{path}[4]", 0, nq - 1, "the position of the card being moved")
        expect(5, b, -1, "unused")
    if decision == D_TWIN:
        _in_range(a, f"{path}[4]", 0, len(g.kind) - 1, "the twin card")
        if g.kind[a] != TWIN or a not in g.twins[g.owner[a]]:
            _fail(f"{path}[4]", f"card {a} is not a twin waiting for its prince")
        expect(5, b, -1, "unused")
    if decision == D_FETCH:
        kind_field(4, a)
        if not IS_CHARACTER[a]:
            _fail(f"{path}[4]", f"impersonation replaces characters, not a {SLUGS[a]}")
        _in_range(b, f"{path}[5]", 0, 1, "the side (0 or 1)")
    if decision == D_PLOT_CHAR:
        expect(2, actor, -1, "unused")
        _in_range(a, f"{path}[4]", 0, MAX_COUNT, "the IP on the plot")
    if decision == D_PLOT_IP:
        expect(2, actor, -1, "unused")
        _in_range(a, f"{path}[4]", 1, MAX_COUNT, "the IP left to spend")

    for i, action in enumerate(g.options):
        why = _option_problem(g, p, action)
        if why is not None:
            _fail(f"state.options[{i}]", f"{action} is not an action of this {name!r} decision: {why}")


def _option_problem(g: Game, p: tuple[int, int, int, int, int, int], action: int) -> str | None:
    """Why ``action`` cannot be an option of the pending decision ``p``, or None if it can."""
    decision, seat, _actor, ctrl, a, _b = p
    verb, arg = action >> SHIFT, action & ARG_MASK
    q = g.queue
    nq = len(q)
    if decision in (D_PLACE, D_TWIN):
        if verb not in (PLACE_FIRST, PLACE_LAST, PLACE_ON):
            return "not a placement"
        c, i = (arg >> 8, arg & 255) if verb == PLACE_ON else (arg, -1)
        if decision == D_PLACE:
            if c not in g.hands[seat]:
                return f"card {c} is not in p{seat + 1}'s hand"
            if verb == PLACE_LAST and not q:
                return "the queue is empty: a card goes first"
        elif c != a:
            return f"the card placed is the twin {a}"
        if verb == PLACE_ON:
            if g.round == 1:
                return "stacking starts in round 2"
            if not 0 <= i < nq or g.ctrl[q[i]] != seat:
                return f"position {i + 1} is not p{seat + 1}'s"
        return None
    if decision == D_KEEP_OR_REVEAL:
        return None  # checked as a whole
    if decision in (D_TARGET_ELIMINATE, D_TARGET_OTHER, D_DECREE_PICK):
        if verb != TARGET or arg >= nq:
            return "not a target position in the queue"
        if decision == D_TARGET_OTHER and a == JUDGE and (g.verdict[q[arg]] or not g.verdict_pool):
            return "no verdict can go there"
        return None
    if decision == D_DECREE_DEST:
        return None if verb == TO and arg <= nq else "not a place in the queue"
    if decision == D_SPY:
        return None if verb == STEAL and arg < g.players else "not a seat to steal from"
    if decision == D_COPY:
        return None if verb == COPY and arg < NUM_KINDS and IS_CHARACTER[arg] else "not a character to copy"
    if decision == D_FETCH:
        if verb != FETCH or arg > FROM_ASIDE:
            return "not a pile to fetch from"
        pile = g.aside[ctrl] if arg == FROM_ASIDE else g.discards[ctrl]
        if (arg == FROM_ASIDE and a == TWIN) or not any(g.kind[c] == a for c in pile):
            return f"that pile has no {SLUGS[a]} to fetch"
        return None
    if decision in (D_PLOT_CHAR, D_PLOT_IP):
        if decision == D_PLOT_IP and action == GAIN_ACTION:
            return None
        if verb != USE or arg >= nq:
            return "not a position to use"
        c = q[arg]
        if not (g.up[c] and IS_CHARACTER[g.kind[c]] and g.ctrl[c] == ctrl):
            return f"position {arg + 1} is not a revealed character of p{ctrl + 1}"
        return None
    if decision == D_MODE:
        if verb != MODE or arg not in _MODES[a]:
            return f"not a mode of the {SLUGS[a]}"
        if arg == MODE_EXCHANGE and not g.hands[ctrl]:
            return "an empty hand has nothing to swap"
        if arg == MODE_CONDEMN and not any(g.verdict[c] for c in q):
            return "no card bears a verdict"
        return None
    if decision == D_SWAP:
        return None if verb == SWAP and arg in g.hands[ctrl] else f"not a card in p{ctrl + 1}'s hand"
    return "unknown decision"


# ------------------------------------------------------- checking helpers


def _fail(path: str, problem: str) -> NoReturn:
    raise SaveFormatError(f"{path}: {problem}")


def _type_name(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"a boolean ({_show(value)})"
    if isinstance(value, int):
        return f"an integer ({_show(value)})"
    if isinstance(value, float):
        return f"a number ({_show(value)})"
    if isinstance(value, str):
        return f"a string ({_show(value)})"
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, Mapping):
        return "an object"
    return f"a {type(value).__name__}"


_REPR = reprlib.Repr()
_REPR.maxstring = 40
_REPR.maxother = 40
_REPR.maxlist = 8
_REPR.maxlevel = 3


def _show(value: object) -> str:
    """A short printable form of any value (never fails: huge ints and deep nests included)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int) and value.bit_length() > 64:
        return f"an integer of {value.bit_length()} bits"
    try:
        return _REPR.repr(value)
    except (ValueError, RecursionError):
        return f"<{type(value).__name__}>"


def _card(g: Game, c: int) -> str:
    return f"{SLUGS[g.kind[c]]} of p{g.owner[c] + 1}"


def _obj(value: object, path: str, keys: tuple[str, ...], check_keys: bool = True) -> dict[str, object]:
    if not isinstance(value, dict):
        _fail(path, f"expected an object, got {_type_name(value)}")
    if check_keys:
        for key in keys:
            if key not in value:
                _fail(path, f"missing key {key!r}")
        for key in value:
            if key not in keys:
                _fail(path, f"unexpected key {_show(key)} (known: {', '.join(keys)})")
    return {k: v for k, v in value.items() if isinstance(k, str)}


def _list(value: object, path: str, length: int | None = None) -> list[object]:
    if not isinstance(value, list):
        _fail(path, f"expected a list, got {_type_name(value)}")
    if length is not None and len(value) != length:
        _fail(path, f"expected {length} entries, got {len(value)}")
    return value


def _int(value: object, path: str, lo: int | None, hi: int | None) -> int:
    if type(value) is not int:
        _fail(path, f"expected an integer, got {_type_name(value)}")
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        _fail(path, f"{_show(value)} is out of range {lo}..{hi}")
    return value


def _in_range(value: int, path: str, lo: int, hi: int, what: str) -> None:
    if not lo <= value <= hi:
        _fail(path, f"expected {what} ({lo}..{hi}), got {_show(value)}")


def _ints(value: object, path: str, lo: int, hi: int, length: int | None = None) -> list[int]:
    return [_int(v, f"{path}[{i}]", lo, hi) for i, v in enumerate(_list(value, path, length))]


def _bool(value: object, path: str) -> bool:
    if type(value) is not bool:
        _fail(path, f"expected true or false, got {_type_name(value)}")
    return value


def _bools(value: object, path: str, length: int) -> list[bool]:
    return [_bool(v, f"{path}[{i}]") for i, v in enumerate(_list(value, path, length))]


def _name(value: object, path: str, names: tuple[str, ...]) -> int:
    if not isinstance(value, str) or value not in names:
        _fail(path, f"expected one of {', '.join(names)}; got {_type_name(value)}")
    return names.index(value)


__all__ = [
    "FORMAT",
    "VERSION",
    "Setup",
    "dumps",
    "from_dict",
    "loads",
    "read_setup",
    "replay",
    "to_dict",
]
