"""The vector engine in pgx's shape: ``Env(players, deck, rules)`` with ``init``, ``step`` and ``observe``.

Training code written for pgx (``pgx.core.Env``) runs on it unchanged:
``state = env.init(key)``, ``state = env.step(state, action, key)``, both
pure and jit- and vmap-able, and an :class:`EnvState` with pgx's fields
(``current_player``, ``observation``, ``legal_action_mask``, ``rewards``,
``terminated``, ``truncated``, ``_step_count``) beside the game itself
(``game``, a :class:`~oriflamme.vector.state.State`). pgx's rules are kept:

* an action outside the legal mask ends that game at once: -1 for the
  seat that chose it and 0 for the others (as the PettingZoo ``env()``);
* stepping a terminated state changes nothing but the rewards, which
  are zero;
* once terminated, the mask is all ones (pgx's guard against dividing by
  zero when normalising a policy over the legal actions).

**Rewards** come at the end only, each seat's share of the win (1, split among
tied winners) minus 1/n, the mapping of the PettingZoo and OpenSpiel
environments (``oriflamme.rl.oriflamme_v0.seat_rewards``).

**Stepping** is ``oriflamme.vector.step.step``: every decision of every kind.
``step_batch`` steps a batch at once with ``step.step_batch`` (the same results
as ``jax.vmap(env.step)``, faster: the resolution loop follows the games that
still run). A game has no step limit (it ends after its last round), so ``truncated`` is
always false; it is there because pgx's training loops read it.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Sequence
from typing import Any, Final, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
import numpy.typing as npt

from ..encoding.actions import MAX_PLAYERS
from ..engine.errors import OriflammeError
from ..engine.options import RuleOptions
from ..engine.recipes import PRESETS, parse_recipe
from ..engine.zones import OVER
from . import dense, sparse
from . import step as stepping
from .deal import CHOOSABLE_MASK, deal, draw_recipe, recipe_mask, rules_array
from .mask import ACTIONS, legal_action_mask, option_count
from .observation import LAYOUT, observe
from .sparse import batched as batched_map
from .state import State

__all__ = ["Env", "EnvState", "batched", "seat_rewards"]

#: Floats in one observation (the encoder's layout of the 31 official kinds).
OBSERVATION_SIZE: Final = int(LAYOUT.size)


@dataclasses.dataclass(frozen=True)
class EnvState:
    """pgx's ``State`` fields for one game (a batch: the same with a leading axis), and the game."""

    #: () int32: the seat to act (after the end: the seat that acted last).
    current_player: jax.Array
    #: (4224,) float32: ``current_player``'s observation (``observe``).
    observation: jax.Array
    #: (1502,) bool: the legal indices (all true once terminated, as pgx).
    legal_action_mask: jax.Array
    #: (N,) float32: what each seat got from the last step.
    rewards: jax.Array
    terminated: jax.Array
    #: Always false: a game ends by its rules, after its last round (pgx's loops read the field).
    truncated: jax.Array
    #: () int32: steps taken in this game.
    _step_count: jax.Array
    #: The game itself.
    game: State

    def replace(self, **changes: Any) -> EnvState:
        """A copy with ``changes`` (states are immutable), as pgx's ``State.replace``."""
        return dataclasses.replace(self, **changes)


jax.tree_util.register_dataclass(
    EnvState, data_fields=[f.name for f in dataclasses.fields(EnvState)], meta_fields=[]
)


def seat_rewards(game: State) -> jax.Array:
    """Per seat of a finished game: its share of the win minus 1/n (float32; they sum to zero).

    Read from a table computed in float64 and rounded once, as the Python environments round
    their float64 rewards: computed in float32 on the device, 1 - 1/3 lands one bit away."""
    n = game.score.shape[-1]
    won = np.array([0.0] + [1.0 / k - 1.0 / n for k in range(1, n + 1)], dtype=np.float32)
    winners = game.winners.astype(jnp.int32)
    count = winners.sum(axis=-1, keepdims=True)
    return jnp.where(winners > 0, jnp.asarray(won)[count], jnp.float32(-1.0 / n))


def _batch_where(done: jax.Array, a: EnvState, b: EnvState) -> EnvState:
    """Each game of ``a`` where its (B,) ``done`` flag holds, of ``b`` elsewhere."""
    out: EnvState = jax.tree.map(
        lambda x, y: jnp.where(done.reshape(done.shape + (1,) * (x.ndim - 1)), x, y), a, b
    )
    return out


def _where(cond: jax.Array, a: Any, b: Any) -> Any:
    return jax.tree.map(lambda x, y: jnp.where(cond, x, y), a, b)


class Env:
    """Oriflamme for ``players`` seats with ``deck`` and ``rules``, in the shape of ``pgx.core.Env``.

    ``deck`` is a box (``base``, ``ablaze``, ``alliance``), ``random`` (ten kinds
    drawn per game on the device; ``random:ablaze+base`` from those boxes), ten
    comma-separated card slugs, or ten kind ids. Wrong arguments raise
    ValueError with one line saying why.
    """

    def __init__(
        self, players: int = 4, deck: str | Sequence[int] = "base", rules: RuleOptions | None = None
    ):
        if type(players) is not int or not 2 <= players <= MAX_PLAYERS:
            raise ValueError(f"players must be an int from 2 to {MAX_PLAYERS}, got {players!r}")
        if rules is not None and not isinstance(rules, RuleOptions):
            raise ValueError(f"rules must be a RuleOptions or None, got {type(rules).__name__}")
        self._players = players
        self.deck = deck
        self.rules = rules or RuleOptions()
        self._recipe, self._pool = _recipe_or_pool(deck)
        self._rules = rules_array(self.rules, players)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Env) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def _key(self) -> tuple[object, ...]:
        deck = self.deck if isinstance(self.deck, str) else tuple(self.deck)
        return (self._players, deck, self.rules)

    @property
    def id(self) -> str:
        return "oriflamme"

    @property
    def version(self) -> str:
        return "v0"

    @property
    def num_players(self) -> int:
        return self._players

    @property
    def num_actions(self) -> int:
        return int(ACTIONS.count)

    @property
    def observation_shape(self) -> tuple[int, ...]:
        return (OBSERVATION_SIZE,)

    def init(self, key: jax.Array) -> EnvState:
        """A new game dealt from ``key`` (``deal``; a ``random`` deck's recipe drawn from it too)."""
        return self.with_observation(self.init_unobserved(key))

    def wrap(self, game: State) -> EnvState:
        """The environment's state of a game at a decision (``from_game``'s, say), nothing yet taken."""
        return self.with_observation(
            self._settled(game, game.current_player, self._zero_rewards(), jnp.int32(0))
        )

    def step(self, state: EnvState, action: jax.Array | int, key: jax.Array | None = None) -> EnvState:
        """Apply ``action`` (an index of the 1,502) for the current player; pgx's rules (module docstring).

        ``key`` is taken for pgx's signature; the game draws nothing by chance after the deal.
        """
        del key
        return self.with_observation(self.step_unobserved(state, action))

    # The two halves of init and step: the observation, the costliest part, left to the caller
    # (``step_batch`` computes it once, after the rules and pgx's bookkeeping).

    def init_unobserved(self, key: jax.Array) -> EnvState:
        """``init`` but the observation (left zero; :meth:`with_observation` adds it)."""
        recipe_key, deal_key = jax.random.split(key)
        if self._pool is None:
            recipe = jnp.asarray(self._recipe)
        else:
            recipe = draw_recipe(recipe_key, jnp.asarray(self._pool))
        # A new game's queue, frames and more are constants: without the barrier XLA folds a whole
        # batch's mask of them at compile time (seconds of it, for nothing).
        game: State = jax.lax.optimization_barrier(
            deal(deal_key, self._players, recipe, jnp.asarray(self._rules))
        )  # type: ignore[no-untyped-call]
        return self._settled(game, game.current_player, self._zero_rewards(), jnp.int32(0))

    def step_unobserved(self, state: EnvState, action: jax.Array | int) -> EnvState:
        """``step`` but the observation (left as it was; :meth:`with_observation` adds it)."""
        index = jnp.asarray(action, dtype=jnp.int32)
        return self._after_step(state, index, stepping.step(state.game, self._clipped(index)))

    # The same over a batch (a leading axis), the rules stepped by ``step_batch``: what
    # ``jax.vmap(env.step)`` gives, faster (``oriflamme.vector.step.step_batch`` says why).

    def step_batch(self, state: EnvState, action: jax.Array) -> EnvState:
        """``step`` of every game of a batch: ``state`` and ``action`` have a leading batch axis."""
        return batched_map(self.with_observation)(self.step_batch_unobserved(state, action))

    def step_batch_unobserved(self, state: EnvState, action: jax.Array) -> EnvState:
        """``step_batch`` but the observation (left as it was)."""
        index = jnp.asarray(action, dtype=jnp.int32)
        played = stepping.step_batch(state.game, self._clipped(index))
        return batched_map(self._after_step)(state, index, played)

    def reset_done(self, state: EnvState, key: jax.Array) -> EnvState:
        """Each game of a batch that is over dealt afresh, the others as they are: auto-reset.

        The same states as ``init`` of ``jax.random.split(key, batch)`` where ``terminated``
        holds (a test checks it), but only the games that ended are dealt, a sixteenth of the
        batch at a time (16 games at least), the ended ones gathered first. Dealing the whole
        batch to keep a few games (about one in a hundred ends at a step) was a fifth of a
        random-play step.
        """
        done = state.terminated
        size = done.shape[0]
        keys = jax.random.split(key, size)
        chunk = min(size, max(size // 16, 16))
        ended = dense.order_by((~done).astype(jnp.int32), 1)
        count = done.sum(dtype=jnp.int32)
        init = batched_map(self.init)

        def deal_some(carry: tuple[EnvState, jax.Array]) -> tuple[EnvState, jax.Array]:
            games, start = carry
            # At the end of the batch the slice starts earlier (lax clamps it): a game dealt
            # twice gets the same deal, and one still playing is kept by the select.
            chosen = jax.lax.dynamic_slice(ended, (start,), (chunk,))

            def deal(few: EnvState) -> EnvState:
                return _batch_where(done[chosen], init(keys[chosen]), few)

            return dense.on_rows(games, chosen, deal), start + chunk

        out: EnvState = jax.lax.while_loop(lambda c: c[1] < count, deal_some, (state, jnp.int32(0)))[0]
        return out

    def _clipped(self, index: jax.Array) -> jax.Array:
        return jnp.clip(index, 0, self.num_actions - 1)

    def _after_step(self, state: EnvState, index: jax.Array, played: State) -> EnvState:
        """The environment's state once ``played`` is the game after ``index``: pgx's rules."""
        inside = (index >= 0) & (index < self.num_actions)
        legal = inside & state.legal_action_mask[self._clipped(index)]
        done = state.terminated
        chooser = state.current_player
        count = state._step_count + 1
        # The observation is left as it was in every outcome, so the selects below leave it alone
        # (a select of a value with itself is no work; 4,224 floats a game otherwise, twice).
        stepped = self._settled(played, chooser, None, count).replace(observation=state.observation)
        penalty = self._zero_rewards().at[chooser].set(-1.0)
        ended = state.replace(
            rewards=penalty,
            terminated=jnp.asarray(True),
            legal_action_mask=jnp.ones_like(state.legal_action_mask),
            _step_count=count,
        )
        after: EnvState = _where(legal, stepped, ended)
        result: EnvState = _where(done, state.replace(rewards=self._zero_rewards()), after)
        return result

    def with_observation(self, state: EnvState) -> EnvState:
        """``state`` with its current player's observation.

        The observation's count of legal options is the mask's (counting them again from the
        game was a seventh of the observation), except in a game an illegal action ended: its
        mask is all ones, so the decision still pending there is counted from the game.
        """
        count = state.legal_action_mask.sum(dtype=jnp.int32)
        ended_early = state.terminated & (state.game.pending[0] >= 0)
        count = sparse.cond(ended_early, lambda _: option_count(state.game)[0], lambda c: c, count)
        return state.replace(observation=observe(state.game, state.current_player, count))

    def observe(self, state: EnvState, player_id: jax.Array | int) -> jax.Array:
        """Seat ``player_id``'s observation of the game (``oriflamme.vector.observe``)."""
        return observe(state.game, player_id)

    def _zero_rewards(self) -> jax.Array:
        return jnp.zeros(self._players, dtype=jnp.float32)

    def _settled(
        self, game: State, chooser: jax.Array, rewards: jax.Array | None, count: jax.Array
    ) -> EnvState:
        over = game.phase == OVER
        mask = legal_action_mask(game)
        seat = jnp.where(game.decision >= 0, game.pending[1], chooser).astype(jnp.int32)
        earned = jnp.where(over, seat_rewards(game), 0.0) if rewards is None else rewards
        return EnvState(
            current_player=seat,
            observation=jnp.zeros(OBSERVATION_SIZE, jnp.float32),
            legal_action_mask=mask | over,
            rewards=earned.astype(jnp.float32),
            terminated=over,
            truncated=jnp.asarray(False),
            _step_count=jnp.asarray(count, dtype=jnp.int32),
            game=game,
        )


def _recipe_or_pool(deck: object) -> tuple[npt.NDArray[np.bool_] | None, npt.NDArray[np.bool_] | None]:
    """A fixed recipe's mask, or the pool a ``random`` deck draws from (ValueError: not a deck)."""
    try:
        if isinstance(deck, str):
            name = deck.strip().lower()
            if name == "random":
                return None, CHOOSABLE_MASK
            if name.startswith("random:"):
                pool = np.zeros_like(CHOOSABLE_MASK)
                for box in name.partition(":")[2].split("+"):
                    if box not in PRESETS:
                        raise ValueError(f"unknown box {box!r} in {deck!r}; boxes: {', '.join(PRESETS)}")
                    pool[list(PRESETS[box])] = True
                return None, pool & CHOOSABLE_MASK
            return recipe_mask(parse_recipe(deck)), None
        if isinstance(deck, Sequence) and all(type(k) is int for k in deck):
            return recipe_mask(deck), None
    except OriflammeError as exc:
        raise ValueError(str(exc)) from None
    raise ValueError(f"deck must be a box name, 'random', card slugs or ten kind ids, got {deck!r}")


class Batched(NamedTuple):
    """An environment's functions over a batch (vmapped), jitted once per environment's setup."""

    init: Callable[[jax.Array], EnvState]
    wrap: Callable[[State], EnvState]
    step: Callable[[EnvState, jax.Array], EnvState]
    #: Every seat's observation of each game: (batch, N, 4224).
    observe_all: Callable[[EnvState], jax.Array]


@functools.cache
def batched(env: Env) -> Batched:
    """``env``'s batched functions, the same jitted ones for every equal environment (one compilation per shape)."""
    seats = jnp.arange(env.num_players)
    every_seat = jax.vmap(env.observe, in_axes=(None, 0))
    return Batched(
        init=jax.jit(batched_map(env.init)),
        wrap=jax.jit(batched_map(env.wrap)),
        step=jax.jit(env.step_batch),
        observe_all=jax.jit(batched_map(lambda s: every_seat(s, seats))),
    )
