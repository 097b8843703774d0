"""Between the Python engine and the vector engine: ``from_game`` and back, ``to_game``.

Plain Python and NumPy, never jitted: a converter runs once per position, and
it refuses what the vector engine cannot hold (a designer's kind, a queue past
the action space's bound, deeper continuations) with one clear line.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from functools import cache
from typing import Any, Final

import jax
import jax.numpy as jnp
import numpy as np
import numpy.typing as npt

from ..engine import registry as rg
from ..engine.actions import (
    ARG_MASK,
    COPY,
    FETCH,
    GAIN,
    KEEP,
    MODE,
    PLACE_FIRST,
    PLACE_LAST,
    PLACE_ON,
    REVEAL,
    SHIFT,
    STEAL,
    SWAP,
    TARGET,
    TO,
    USE,
)
from ..engine.game import Game
from ..engine.layout import set_blank
from ..engine.options import RuleOptions
from ..engine.recipes import validate_recipe
from ..engine.zones import ASIDE, DISCARD, HAND, KEPT, TWIN_ASIDE
from .mask import ACTIONS, legal_action_mask
from .state import FRAME_FIELDS, KINDS, MAX_FRAMES, MAX_ORDER, MAX_QUEUE, PENDING_FIELDS, State, card_count

__all__ = ["from_game", "from_games", "numpy_fields", "piles_of", "to_game"]

_I32 = np.int32


def _padded(values: Sequence[int], size: int, what: str) -> npt.NDArray[np.int32]:
    if len(values) > size:
        raise ValueError(f"{what} holds {len(values)} entries, more than the vector engine's {size}")
    out = np.full(size, -1, dtype=_I32)
    out[: len(values)] = values
    return out


def _per_card(values: Sequence[int], cards: int, fill: int = 0) -> npt.NDArray[np.int32]:
    out = np.full(cards, fill, dtype=_I32)
    out[: len(values)] = values
    return out


def _frames(stack: Sequence[tuple[int, ...]]) -> npt.NDArray[np.int32]:
    if len(stack) > MAX_FRAMES:
        raise ValueError(
            f"the game waits on {len(stack)} continuations, more than the vector engine's {MAX_FRAMES}"
        )
    out = np.full((MAX_FRAMES, FRAME_FIELDS), -1, dtype=_I32)
    for i, frame in enumerate(stack):
        if len(frame) > FRAME_FIELDS:
            raise ValueError(f"continuation frame {frame} has more than {FRAME_FIELDS} fields")
        out[i, : len(frame)] = frame
    return out


def _discard_order(discards: Sequence[Sequence[int]], cards: int) -> npt.NDArray[np.int32]:
    out = np.full(cards, -1, dtype=_I32)
    for pile in discards:
        out[list(pile)] = np.arange(len(pile), dtype=_I32)
    return out


def _check_convertible(game: object) -> Game:
    if not isinstance(game, Game):
        raise TypeError(f"from_game needs an oriflamme Game, got {type(game).__name__}")
    designed = [k for k in game.recipe if k >= KINDS]
    if designed:
        raise ValueError(
            f"the vector engine plays the {KINDS} official kinds; this recipe holds kind(s) {designed}"
        )
    return game


# The Python piles are, as sets, the cards of a zone by owner (kept: by the controller that kept
# them, who is their owner, since only an owner's own intrigue is kept); State holds the zones, and
# the discard's order (``discard_order``). Hands, set-aside cards and Twins stay in id order in the
# engine (a card leaves them, or an Informant is sorted back in), and no rule reads the kept order.
_PILE_ZONES = (
    ("hands", HAND),
    ("aside", ASIDE),
    ("twins", TWIN_ASIDE),
    ("discards", DISCARD),
    ("kept", KEPT),
)


def piles_of(zone: Sequence[int], owner: Sequence[int], players: int) -> dict[str, list[list[int]]]:
    """Per pile name, each seat's card ids (ascending) as the zones say: what ``State`` holds of the piles."""
    out: dict[str, list[list[int]]] = {}
    for name, z in _PILE_ZONES:
        out[name] = [
            [c for c, (cz, o) in enumerate(zip(zone, owner, strict=True)) if cz == z and o == s]
            for s in range(players)
        ]
    return out


#: Piles whose order the state takes to be the cards' ids (the others' order is held, or read by no rule).
_ID_ORDERED = ("hands", "aside", "twins")


def _check_piles(game: Game) -> None:
    zones = piles_of(game.zone, game.owner, game.players)
    for name, _ in _PILE_ZONES:
        piles = getattr(game, name)
        held = [list(p) if name in _ID_ORDERED else sorted(p) for p in piles]
        if held != zones[name]:
            raise ValueError(
                f"the game's {name} {held} are not its cards' zones by owner, in id order {zones[name]}"
            )


@cache
def _default_key() -> npt.NDArray[np.uint32]:
    """``jax.random.key(0)``'s data, made once (a batch converts thousands of games)."""
    key = np.asarray(jax.random.key_data(jax.random.key(0)))
    key.flags.writeable = False
    return key


def numpy_fields(game: object, key: npt.ArrayLike | None) -> dict[str, npt.NDArray[np.generic]]:
    """The state's fields as NumPy arrays (see :class:`~oriflamme.vector.state.State`)."""
    g = _check_convertible(game)
    _check_piles(g)
    n = g.players
    cards = card_count(n)
    recipe = np.zeros(KINDS, dtype=bool)
    recipe[list(g.recipe)] = True
    pending = (-1,) * PENDING_FIELDS if g.pending is None else g.pending
    winners = np.zeros(n, dtype=bool)
    winners[list(g.winners)] = True
    scalars = {
        "schemer_gain": g.rules.schemer_gain,
        "cards_per_round": g.rules.two_player_cards_per_round,
        "rounds": g.rules.rounds,
        "queue_len": len(g.queue),
        "verdict_pool": g.verdict_pool,
        "round": g.round,
        "first": g.first,
        "phase": g.phase,
        "order_len": len(g.order),
        "turn": g.turn,
        "ptr": g.ptr,
        "cur": g.cur,
        "frames_len": len(g.stack),
    }
    out: dict[str, npt.NDArray[np.generic]] = {name: np.asarray(v, dtype=_I32) for name, v in scalars.items()}
    out |= {
        "recipe": recipe,
        "kind": _per_card(g.kind, cards, -1),
        "owner": _per_card(g.owner, cards, -1),
        "ctrl": _per_card(g.ctrl, cards, -1),
        "up": _per_card(g.up, cards).astype(bool),
        "ip": _per_card(g.ip, cards),
        "under": _per_card(g.under, cards, -1),
        "zone": _per_card(g.zone, cards, -1),
        "verdict": _per_card(g.verdict, cards).astype(bool),
        "bribed_by": _per_card(g.bribed_by, cards, -1),
        "asleep": _per_card(g.asleep, cards).astype(bool),
        "exposed": _per_card(g.exposed, cards).astype(bool),
        "discard_order": _discard_order(g.discards, cards),
        "queue": _padded(g.queue, MAX_QUEUE, "the queue"),
        "score": np.asarray(g.score, dtype=_I32),
        "order": _padded(g.order, MAX_ORDER, "the placement order"),
        "cur_gone": np.asarray(g.cur_gone, dtype=bool),
        "pending": np.asarray(pending, dtype=_I32),
        "frames": _frames(g.stack),
        "winners": winners,
        "key": np.asarray(_default_key() if key is None else key, dtype=np.uint32),
    }
    return out


def from_game(game: Game, key: npt.ArrayLike | None = None) -> State:
    """The vector state of ``game`` at its current decision (or at its end).

    ``key`` (uint32 (2,), ``jax.random.key_data`` form) seeds what the vector engine draws
    later; by default ``jax.random.key(0)``'s. Raises TypeError or ValueError, with the
    reason, for what the vector engine cannot hold.
    """
    return State(**{name: jnp.asarray(a) for name, a in numpy_fields(game, key).items()})


def from_games(games: Sequence[Game], key: npt.ArrayLike | None = None) -> State:
    """One batched state of ``games`` (all of one player count), in order: for ``jax.vmap``."""
    if not games:
        raise ValueError("from_games needs at least one game")
    players = {getattr(g, "players", None) for g in games}
    if len(players) != 1:
        raise ValueError(f"a batch holds games of one player count, got {sorted(map(str, players))}")
    fields = [numpy_fields(g, key) for g in games]
    return State(**{name: jnp.asarray(np.stack([f[name] for f in fields])) for name in fields[0]})


# ---------------------------------------------------------------- back to the Python engine

#: Ints in each continuation frame the rules push (the state pads frames to FRAME_FIELDS with -1).
_FRAME_LENGTHS: Final = {rg.K_FINISH: 2, rg.K_GAIN: 3, rg.K_PLOT: 3, rg.K_DESERTER: 2}
_PLACING: Final = (PLACE_FIRST, PLACE_LAST, PLACE_ON)


def _unbatched(state: State) -> dict[str, npt.NDArray[Any]]:
    if not isinstance(state, State):
        raise TypeError(f"to_game needs a vector State, got {type(state).__name__}")
    if np.ndim(state.score) != 1:
        raise ValueError(f"to_game takes one state, not a batch (scores of shape {np.shape(state.score)})")
    return {f.name: np.asarray(getattr(state, f.name)) for f in dataclasses.fields(State)}


def _blank_game(a: dict[str, npt.NDArray[Any]]) -> Game:
    """The table of the state's player count, recipe and rules, before the deal; its card ids checked."""
    players = len(a["score"])
    recipe = tuple(int(k) for k in np.flatnonzero(a["recipe"]))
    rules = RuleOptions(int(a["schemer_gain"]), int(a["cards_per_round"]), int(a["rounds"]))
    g = Game()
    set_blank(g, players, validate_recipe(recipe), rules, None)
    cards = len(g.kind)
    if list(a["kind"][:cards]) != list(g.kind) or (a["kind"][cards:] != -1).any():
        raise ValueError("the state's card kinds are not the table its recipe and player count deal")
    return g


def _card_of(a: dict[str, npt.NDArray[Any]], seat: int, kind: int, zone: int) -> int:
    """The lowest id of ``seat``'s cards of ``kind`` in ``zone``: the card the engine names first."""
    return int(np.flatnonzero((a["zone"] == zone) & (a["owner"] == seat) & (a["kind"] == kind))[0])


def _engine_action(a: dict[str, npt.NDArray[Any]], index: int, players: int) -> int:
    """The engine's action for a legal ``index`` of the state's pending decision."""
    decision, seat, _, ctrl, data, _ = (int(v) for v in a["pending"])
    block = max((start, name) for name, start in ACTIONS.starts.items() if start <= index)[1]
    i = index - ACTIONS.starts[block]
    if block in ("place first", "place last", "place on"):
        kind = i // MAX_QUEUE if block == "place on" else i
        card = data if decision == rg.D_TWIN else _card_of(a, seat, kind, HAND)
        if block == "place on":
            return PLACE_ON << SHIFT | card << 8 | i % MAX_QUEUE
        return (PLACE_FIRST if block == "place first" else PLACE_LAST) << SHIFT | card
    if block == "swap":
        return SWAP << SHIFT | _card_of(a, ctrl, i, HAND)
    if block == "steal":
        return STEAL << SHIFT | (seat + i) % players
    verb = {"keep": KEEP, "reveal": REVEAL, "gain": GAIN, "target": TARGET, "to": TO, "use": USE}
    verb |= {"copy": COPY, "fetch": FETCH, "mode": MODE}
    return verb[block] << SHIFT | i


def _engine_order(action: int) -> tuple[int, int, int]:
    """The engine's order of options: placements card by card (its ends, then onto positions), else by code."""
    verb, arg = action >> SHIFT, action & ARG_MASK
    if verb in _PLACING:
        on = verb == PLACE_ON
        return (int(on), arg >> 8 if on else arg, arg & 255 if on else verb)
    return (0, action, 0)


@cache
def _jitted_mask() -> Any:
    return jax.jit(legal_action_mask)


def _mask_of(state: State) -> jax.Array:
    mask: jax.Array = _jitted_mask()(state)
    return mask


def _options(state: State, a: dict[str, npt.NDArray[Any]], players: int) -> tuple[int, ...]:
    mask = np.asarray(_mask_of(state))
    actions = [_engine_action(a, int(i), players) for i in np.flatnonzero(mask)]
    return tuple(sorted(actions, key=_engine_order))


def to_game(state: State) -> Game:
    """The Python game of one vector state: a game the Python engine plays on exactly as from the original.

    What the state does not hold starts afresh: no history, no events, the IP ledger as
    scores of unknown cause (``State.set_scores``), no seed. The legal actions are the
    state's mask as engine actions, in the engine's order. Raises TypeError or ValueError for
    what is not one state of a table.
    """
    a = _unbatched(state)
    g = _blank_game(a)
    cards, players = len(g.kind), len(a["score"])
    for name in ("ctrl", "ip", "under", "zone", "bribed_by"):
        setattr(g, name, [int(v) for v in a[name][:cards]])
    for name in ("up", "verdict", "asleep", "exposed"):
        setattr(g, name, [bool(v) for v in a[name][:cards]])
    g.queue = [int(c) for c in a["queue"][: int(a["queue_len"])]]
    piles = piles_of(g.zone, g.owner, players)
    g.hands, g.aside, g.twins, g.kept = piles["hands"], piles["aside"], piles["twins"], piles["kept"]
    g.discards = [sorted(pile, key=lambda c: int(a["discard_order"][c])) for pile in piles["discards"]]
    g.set_scores([int(v) for v in a["score"]])
    for name in ("verdict_pool", "round", "first", "phase", "turn", "ptr", "cur"):
        setattr(g, name, int(a[name]))
    g.cur_gone = bool(a["cur_gone"])
    g.order = tuple(int(s) for s in a["order"][: int(a["order_len"])])
    frames = a["frames"][: int(a["frames_len"])]
    g.stack = [tuple(int(v) for v in f[: _FRAME_LENGTHS[int(f[0])]]) for f in frames]
    g.pending = None if a["pending"][0] < 0 else tuple(int(v) for v in a["pending"])  # type: ignore[assignment]
    g.options = () if g.pending is None else _options(state, a, players)
    g.winners = tuple(int(s) for s in np.flatnonzero(a["winners"]))
    return g
