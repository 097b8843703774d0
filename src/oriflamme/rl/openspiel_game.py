"""Oriflamme as an OpenSpiel game, ``python_oriflamme`` (registered with ``pyspiel`` on import).

Parameters: ``players`` (2 to 5), ``deck`` (a preset, or ten card slugs
joined by ``+``; commas are read too, but the game stores ``+`` since
OpenSpiel's game strings split parameters at commas: see
:func:`deck_parameter`), ``schemer_gain``, ``two_player_cards_per_round``
and ``rounds`` (the rule options). The deal is
explicit chance: first the first player (one outcome per seat), then each
seat's set-aside cards as one outcome (an index into the combinations of its
family's cards, as many as its hand leaves over), each uniform, which is the
distribution ``Game.new`` draws from a seed. Player actions are the fixed
space of ``oriflamme.encoding.actions``.

* ``returns()``: each seat's share of the win minus 1/n, the mapping of the
  PettingZoo environment (``oriflamme.rl.seat_rewards``).
* Observation string and tensor: the seat's view now (the tensor is
  ``oriflamme.encoding.observation``).
* Information-state string: the seat's own deal and, for every step since,
  who decided what kind of decision, the seat's own choices, and the events
  as redacted for that seat; nothing another seat alone knows.
* ``resample_from_infostate`` (and :func:`resampler` for OpenSpiel's Python
  ``ISMCTSBot``) deals the cards the seat cannot see with the project's
  sampler; the new state keeps the seat's information state.

**Why a state is built the way it is.** OpenSpiel's searches clone a state
at every simulation and apply hundreds of actions to clones whose
information state no one asks for. OpenSpiel clones a Python state by
deep-copying each of its attributes and serializes it by pickling them, so a
state keeps all its data in one attribute, :class:`_Core`, which copies
itself cheaply (the engine's ``Game.clone``; everything else is immutable and
shared) and pickles its setup by name, not the OpenSpiel game object. The
information-state log (:mod:`.openspiel_infostate`) is a chain of immutable
entries shared by every clone, whose texts are made only when asked for. The
parameters' text form is :mod:`.openspiel_params`.
"""

from __future__ import annotations

import functools
import itertools
import random
from typing import Any, cast

import numpy as np
import pyspiel

from ..encoding.actions import action_count, game_legal_indices, index_name
from ..encoding.observation import observation_size, observe
from ..engine.action_text import action_text
from ..engine.game import Game
from ..engine.layout import dealt_cards
from ..engine.options import RuleOptions
from ..engine.sampler import sample_game
from ..engine.state import SLOTS, TRANSIENT_SLOTS
from .openspiel_infostate import (
    AsideEntry,
    LogEntry,
    NoteEntry,
    ResampledEntry,
    RestoredEntry,
    StepEntry,
    info_string,
    observation_text,
    pile_text,
)
from .openspiel_params import DECK_SEPARATOR, deck_parameter, deck_text, read_setup
from .oriflamme_v0 import seat_rewards
from .render import render_table

__all__ = [
    "DECK_SEPARATOR",
    "GAME_NAME",
    "OriflammeGame",
    "OriflammeState",
    "deal_actions",
    "deck_parameter",
    "resampler",
]

GAME_NAME = "python_oriflamme"
#: More player actions than any game takes (a 5-player game takes a few hundred).
MAX_GAME_LENGTH = 2000

_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Oriflamme (Python)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=5,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={
        "players": 4,
        "deck": "base",
        "schemer_gain": 1,
        "two_player_cards_per_round": 2,
        "rounds": 6,
    },
)


# ---------------------------------------------------------------- the table


class _Spec:
    """What every state of one setup shares and never changes: the setup, card kinds, chance outcomes.

    There is one per setup (:func:`_spec_for`): states hold it by reference, a
    clone shares it, and a pickled state names it by its setup alone.
    """

    __slots__ = (
        "players",
        "recipe",
        "rules",
        "kinds",
        "aside_choices",
        "first_outcomes",
        "aside_outcomes",
        "_index",
    )

    def __init__(self, players: int, recipe: tuple[int, ...], rules: RuleOptions) -> None:
        table = Game.new(players=players, deck=recipe, seed=0, rules=rules)  # refuse a bad setup now
        self.players = players
        self.recipe = recipe
        self.rules = rules
        #: Kind of each card id of this table.
        self.kinds = table.kind
        #: Per seat, every way to set its cards aside (the chance outcomes of its deal).
        self.aside_choices: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
            tuple(itertools.combinations(cards, len(cards) - table.hand_size))
            for cards in dealt_cards(players, recipe)
        )
        # The chance outcomes as OpenSpiel wants them, made once (4,845 of them per seat with 2 players).
        self.first_outcomes = [(s, 1.0 / players) for s in range(players)]
        self.aside_outcomes = [[(i, 1.0 / len(c)) for i in range(len(c))] for c in self.aside_choices]
        self._index: list[dict[tuple[int, ...], int]] | None = None

    def __reduce__(self) -> tuple[Any, ...]:
        return (_spec_for, (self.players, self.recipe, self.rules))

    def aside_action(self, seat: int, pile: list[int] | tuple[int, ...]) -> int:
        """The chance outcome that sets ``pile`` (card ids, in any order) aside for ``seat``."""
        if self._index is None:
            self._index = [{tuple(sorted(c)): i for i, c in enumerate(cs)} for cs in self.aside_choices]
        return self._index[seat][tuple(sorted(pile))]


@functools.cache
def _spec_for(players: int, recipe: tuple[int, ...], rules: RuleOptions) -> _Spec:
    return _Spec(players, recipe, rules)


class OriflammeGame(pyspiel.Game):
    """The game for one set of parameters (players, deck, rule options)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        merged = {**_GAME_TYPE.parameter_specification, **(params or {})}
        players, recipe, rules = read_setup(merged)
        self.spec = _spec_for(players, recipe, rules)
        # Stored canonical, so that str(game) is a game string OpenSpiel can load.
        merged["deck"] = deck_text(recipe)
        info = pyspiel.GameInfo(
            num_distinct_actions=action_count(),
            max_chance_outcomes=max(players, *(len(c) for c in self.spec.aside_choices)),
            num_players=players,
            min_utility=-1.0 / players,
            max_utility=1.0 - 1.0 / players,
            utility_sum=0.0,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(_GAME_TYPE, info, merged)

    @property
    def players(self) -> int:
        return self.spec.players

    @property
    def recipe(self) -> tuple[int, ...]:
        return self.spec.recipe

    @property
    def rules(self) -> RuleOptions:
        return self.spec.rules

    @property
    def kinds(self) -> tuple[int, ...]:
        """Kind of each card id of this table."""
        return self.spec.kinds

    @property
    def aside_choices(self) -> tuple[tuple[tuple[int, ...], ...], ...]:
        """Per seat, every way to set its cards aside (the chance outcomes of its deal)."""
        return self.spec.aside_choices

    def new_initial_state(self) -> OriflammeState:
        return OriflammeState(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: dict[str, Any] | None = None
    ) -> _Observer:
        """The seat's own observation, or with perfect recall its information state.

        A public-only observer (``private_info=NONE``) is refused rather than
        given the seat's private view.
        """
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        if iig_obs_type is not None and iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
            raise ValueError("only a seat's own observation (private_info=SINGLE_PLAYER) is provided")
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return _Observer(perfect_recall)


def deal_actions(game: OriflammeGame, dealt: Game) -> list[int]:
    """The chance actions that deal ``dealt`` (a game no one has moved in yet, e.g. ``Game.new(seed=s)``).

    Its first player, then each seat's set-aside cards: a game of the
    PettingZoo environment, replayed through OpenSpiel with the same moves,
    is then the same game.
    """
    spec = game.spec
    if dealt.history or dealt.round != 1:
        raise ValueError("deal_actions needs a game no one has moved in yet")
    if (dealt.players, dealt.recipe, dealt.rules) != (spec.players, spec.recipe, spec.rules):
        raise ValueError("the dealt game has another setup than the OpenSpiel game")
    return [dealt.first, *(spec.aside_action(s, pile) for s, pile in enumerate(dealt.aside))]


# ---------------------------------------------------------------- a state's data

#: The engine game's slots a pickled state keeps (the transient ones are set afresh).
_GAME_SLOTS = tuple(name for name in SLOTS if name not in TRANSIENT_SLOTS)


def _game_data(game: Game | None) -> tuple[Any, ...] | None:
    """The engine game as its slots' values, for pickling: read by name, as the engine's own
    save code does, so that it works the same whether the engine is compiled or not."""
    return None if game is None else tuple(getattr(game, name) for name in _GAME_SLOTS)


def _game_from(data: tuple[Any, ...] | None) -> Game | None:
    """The engine game :func:`_game_data` took apart (unpickled, so it shares nothing)."""
    if data is None:
        return None
    game = Game()
    for name, value in zip(_GAME_SLOTS, data, strict=True):
        setattr(game, name, value)
    game.events = []
    game.ledger_shared = False
    game.record_events = True
    return game


class _Core:
    """A state's own data: the deal so far, the engine game once dealt, the log and the legal actions.

    OpenSpiel clones a Python state by ``copy.deepcopy`` of each attribute:
    :meth:`__deepcopy__` copies the engine game (``Game.clone``) and shares
    the rest, which is immutable. It serializes a state by pickling them:
    :meth:`__reduce__` keeps the setup by name, the game's slots and each
    seat's information string.
    """

    __slots__ = ("spec", "first", "aside", "game", "log", "legal", "legal_sorted")

    def __init__(
        self,
        spec: _Spec,
        first: int | None = None,
        aside: tuple[tuple[int, ...], ...] = (),
        game: Game | None = None,
        log: LogEntry | None = None,
    ) -> None:
        self.spec = spec
        #: Round one's first player, once drawn.
        self.first = first
        #: Each seat's set-aside card ids, as drawn so far.
        self.aside = aside
        #: The engine game, once every seat's cards are dealt.
        self.game = game
        #: The last entry of the information-state log (None: nothing yet).
        self.log = log
        #: The pending decision's legal actions (index -> engine action, and sorted), once asked for.
        self.legal: dict[int, int] | None = None
        self.legal_sorted: list[int] | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> _Core:
        out = _Core(
            self.spec, self.first, self.aside, None if self.game is None else self.game.clone(), self.log
        )
        out.legal = self.legal
        out.legal_sorted = self.legal_sorted
        return out

    def __reduce__(self) -> tuple[Any, ...]:
        texts = (
            None if self.log is None else tuple(info_string(self.log, s) for s in range(self.spec.players))
        )
        return (_restore_core, (self.spec, self.first, self.aside, _game_data(self.game), texts))

    def legal_map(self) -> dict[int, int]:
        if self.legal is None:
            assert self.game is not None
            self.legal = game_legal_indices(self.game)
        return self.legal

    def legal_list(self) -> list[int]:
        if self.legal_sorted is None:
            self.legal_sorted = sorted(self.legal_map())
        return self.legal_sorted


def _restore_core(
    spec: _Spec,
    first: int | None,
    aside: tuple[tuple[int, ...], ...],
    game: tuple[Any, ...] | None,
    texts: tuple[str, ...] | None,
) -> _Core:
    return _Core(spec, first, aside, _game_from(game), None if texts is None else RestoredEntry(texts))


# ---------------------------------------------------------------- the state


class OriflammeState(pyspiel.State):
    """A state: the deal so far (chance), then an engine game, and the shared information-state log."""

    def __init__(self, game: OriflammeGame) -> None:
        super().__init__(game)
        # All the state's data in one attribute: see the module's docstring and _Core.
        self._core = _Core(game.spec)

    @property
    def game(self) -> Game | None:
        """The engine game, once every seat's cards are dealt (read it, never change it)."""
        return self._core.game

    @property
    def aside(self) -> tuple[tuple[int, ...], ...]:
        """Each seat's set-aside card ids, as dealt so far (in a resampled state, its own world's)."""
        return self._core.aside

    # ---------------------------------------------------------------- pyspiel API

    def current_player(self) -> int:
        g = self._core.game
        if g is None:
            return _CHANCE
        if g.is_over():
            return _TERMINAL
        return g.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        core = self._core
        g = core.game
        if g is None or g.is_over() or player != g.current_player():
            return []
        return core.legal_list()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        core = self._core
        if core.game is not None:
            return []
        # A copy: a Python caller gets this list itself, and the setup's is shared by every state.
        if core.first is None:
            return list(core.spec.first_outcomes)
        return list(core.spec.aside_outcomes[len(core.aside)])

    def _apply_action(self, action: int) -> None:
        core = self._core
        g = core.game
        if g is None:
            _deal(core, action)
            return
        engine_action = core.legal_map().get(action)
        if engine_action is None:
            raise ValueError(f"{action} ({index_name(action)}) is not legal now")
        mover = g.current_player()
        decision = g.decision()
        events = g.apply(engine_action)
        core.log = StepEntry(core.log, g, mover, decision, action, events)
        core.legal = core.legal_sorted = None

    def _action_to_string(self, player: int, action: int) -> str:
        core = self._core
        if player == _CHANCE:
            if core.first is None:
                return f"first p{action + 1}"
            seat = len(core.aside)
            pile = core.spec.aside_choices[seat][action]
            return f"p{seat + 1} aside " + pile_text(pile, core.spec.kinds)
        g = core.game
        if g is not None and not g.is_over():
            engine_action = core.legal_map().get(action)
            if engine_action is not None:
                return action_text(g, engine_action)
        return index_name(action)

    def is_terminal(self) -> bool:
        g = self._core.game
        return g is not None and g.is_over()

    def returns(self) -> list[float]:
        g = self._core.game
        if g is None or not g.is_over():
            return [0.0] * self._core.spec.players
        return seat_rewards(g)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any = None) -> OriflammeState:
        """A state the seat cannot tell from this one: its hidden cards dealt again (see module doc)."""
        seed = int(probability_sampler() * 2**62) if callable(probability_sampler) else random.getrandbits(62)
        return _resample(self, player_id, random.Random(seed))

    def __str__(self) -> str:
        g = self._core.game
        return "dealing" if g is None else render_table(g)

    # ---------------------------------------------------------------- strings

    def information_state(self, player: int) -> str:
        return info_string(self._core.log, player)

    def observation(self, player: int) -> str:
        g = self._core.game
        if g is None:
            return info_string(self._core.log, player)
        return observation_text(g, player)


def _deal(core: _Core, action: int) -> None:
    """A chance action: round one's first player, then the next seat's set-aside cards."""
    spec = core.spec
    if core.first is None:
        if not 0 <= action < spec.players:
            raise ValueError(f"no seat {action} to start")
        core.first = action
        core.log = NoteEntry(core.log, f"first p{action + 1}")
        return
    seat = len(core.aside)
    choices = spec.aside_choices[seat]
    if not 0 <= action < len(choices):
        raise ValueError(f"p{seat + 1} has {len(choices)} ways to set cards aside, not {action}")
    pile = choices[action]
    core.aside += (pile,)
    core.log = AsideEntry(core.log, seat, pile, spec.kinds)
    if len(core.aside) == spec.players:
        core.game = Game.deal_from(spec.players, spec.recipe, core.first, core.aside, spec.rules)


def _resample(state: OriflammeState, player: int, rng: random.Random) -> OriflammeState:
    core = state._core
    spec = core.spec
    out = OriflammeState(cast(OriflammeGame, state.get_game()))
    new = out._core
    new.first = core.first
    if core.game is None:
        # Still dealing: the seat knows the first player and its own set-aside cards only.
        new.aside = tuple(
            pile if s == player else spec.aside_choices[s][rng.randrange(len(spec.aside_choices[s]))]
            for s, pile in enumerate(core.aside)
        )
        new.log = ResampledEntry(core.log, player, None)
        return out
    world = sample_game(core.game.view(player), rng)
    new.game = world
    # The deal of the sampled world, not the true one.
    new.aside = tuple(tuple(pile) for pile in world.aside)
    new.log = ResampledEntry(core.log, player, world.clone())
    return out


def resampler(state: OriflammeState, player: int, rng: random.Random | None = None) -> OriflammeState:
    """For ``open_spiel.python.algorithms.ismcts.ISMCTSBot.set_resampler``: a resampled state."""
    return _resample(state, player, rng or random.Random(random.getrandbits(62)))


class _Observer:
    """OpenSpiel's observer protocol: the observation tensor and strings for a player."""

    def __init__(self, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        size = 0 if perfect_recall else observation_size()
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: OriflammeState, player: int) -> None:
        if self.perfect_recall:
            return
        g = state._core.game
        if g is None:
            self.tensor.fill(0.0)
        else:
            self.tensor[:] = observe(g.view(player))

    def string_from(self, state: OriflammeState, player: int) -> str:
        return state.information_state(player) if self.perfect_recall else state.observation(player)


pyspiel.register_game(_GAME_TYPE, OriflammeGame)
