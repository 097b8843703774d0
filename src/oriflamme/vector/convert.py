"""Between the Python engine and the vector engine: ``from_game`` and its inverse check.

Plain Python and NumPy, never jitted: a converter runs once per position, and
it refuses what the vector engine cannot hold (a designer's kind, a queue past
the action space's bound, deeper continuations) with one clear line.
"""

from __future__ import annotations

from collections.abc import Sequence

import jax
import jax.numpy as jnp
import numpy as np
import numpy.typing as npt

from ..engine.game import Game
from ..engine.zones import ASIDE, DISCARD, HAND, KEPT, TWIN_ASIDE
from .state import FRAME_FIELDS, KINDS, MAX_FRAMES, MAX_ORDER, MAX_QUEUE, PENDING_FIELDS, State, card_count

__all__ = ["from_game", "from_games", "numpy_fields", "piles_of"]

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


def _default_key() -> npt.NDArray[np.uint32]:
    return np.asarray(jax.random.key_data(jax.random.key(0)))


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
