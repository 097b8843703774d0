"""Oriflamme as an OpenSpiel game, ``python_oriflamme`` (registered with ``pyspiel`` on import).

Parameters: ``players`` (2 to 5), ``deck`` (a preset or a comma-separated
recipe), ``schemer_gain``, ``two_player_cards_per_round`` and ``rounds`` (the
rule options). The deal is explicit chance: first the first player (one
outcome per seat), then each seat's set-aside cards as one outcome (an index
into the combinations of its family's cards, as many as its hand leaves
over), each uniform, which is the distribution ``Game.new`` draws from a
seed. Player actions are the fixed space of ``oriflamme.encoding.actions``.

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
"""

from __future__ import annotations

import itertools
import json
import random
from typing import Any

import numpy as np
import pyspiel

from ..encoding.actions import ACTION_COUNT, game_legal_indices, index_name
from ..encoding.observation import OBSERVATION_SIZE, observe
from ..engine.action_text import action_text
from ..engine.cards import SLUGS
from ..engine.events import Event
from ..engine.game import Game
from ..engine.layout import dealt_cards
from ..engine.options import RuleOptions
from ..engine.recipes import parse_recipe
from ..engine.sampler import sample_game
from ..engine.view import redact
from .oriflamme_v0 import seat_rewards
from .render import render_table

__all__ = ["GAME_NAME", "OriflammeGame", "OriflammeState", "resampler"]

GAME_NAME = "python_oriflamme"
#: More player actions than any game takes (a 5-player game takes a few hundred).
MAX_GAME_LENGTH = 2000

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


class OriflammeGame(pyspiel.Game):
    """The game for one set of parameters (players, deck, rule options)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        merged = {**_GAME_TYPE.parameter_specification, **(params or {})}
        players = int(merged["players"])
        deck = str(merged["deck"])
        if deck.strip().lower().startswith("random"):
            raise ValueError(
                "deck: give a preset or a list of cards; a random recipe is not an explicit chance node"
            )
        self.recipe = parse_recipe(deck)
        self.rules = RuleOptions(
            schemer_gain=int(merged["schemer_gain"]),
            two_player_cards_per_round=int(merged["two_player_cards_per_round"]),
            rounds=int(merged["rounds"]),
        )
        Game.new(players=players, deck=self.recipe, seed=0, rules=self.rules)  # refuse a bad setup now
        self.players = players
        #: Kind of each card id of this table.
        self.kinds = Game.new(players=players, deck=self.recipe, seed=0, rules=self.rules).kind
        hand = 16 if players == 2 else 7
        #: Per seat, every way to set its cards aside (the chance outcomes of its deal).
        self.aside_choices = [
            list(itertools.combinations(cards, len(cards) - hand))
            for cards in dealt_cards(players, self.recipe)
        ]
        info = pyspiel.GameInfo(
            num_distinct_actions=ACTION_COUNT,
            max_chance_outcomes=max(players, *(len(c) for c in self.aside_choices)),
            num_players=players,
            min_utility=-1.0 / players,
            max_utility=1.0 - 1.0 / players,
            utility_sum=0.0,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(_GAME_TYPE, info, merged)

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


class OriflammeState(pyspiel.State):
    """A state: the deal so far (chance), then an engine game and each seat's information log."""

    def __init__(self, game: OriflammeGame) -> None:
        super().__init__(game)
        self._spec = game
        self._first: int | None = None
        self._aside: list[tuple[int, ...]] = []
        self.game: Game | None = None
        #: Per seat: what it has learned, step by step (its information state).
        self.logs: list[list[str]] = [[] for _ in range(game.players)]

    # ---------------------------------------------------------------- pyspiel API

    def current_player(self) -> int:
        g = self.game
        if g is None:
            return int(pyspiel.PlayerId.CHANCE)
        if g.is_over():
            return int(pyspiel.PlayerId.TERMINAL)
        return g.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        g = self.game
        if g is None or g.is_over() or player != g.current_player():
            return []
        return sorted(game_legal_indices(g))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        n = self._spec.players
        if self._first is None:
            return [(s, 1.0 / n) for s in range(n)]
        count = len(self._spec.aside_choices[len(self._aside)])
        return [(i, 1.0 / count) for i in range(count)]

    def _apply_action(self, action: int) -> None:
        spec = self._spec
        if self.game is None:
            if self._first is None:
                if not 0 <= action < spec.players:
                    raise ValueError(f"no seat {action} to start")
                self._first = action
                for log in self.logs:
                    log.append(f"first p{action + 1}")
                return
            seat = len(self._aside)
            pile = spec.aside_choices[seat][action]
            self._aside.append(pile)
            for s, log in enumerate(self.logs):
                log.append(f"p{seat + 1} aside " + (self._pile_text(pile) if s == seat else "?"))
            if len(self._aside) == spec.players:
                self.game = Game.deal_from(spec.players, spec.recipe, self._first, self._aside, spec.rules)
            return
        g = self.game
        legal = game_legal_indices(g)
        if action not in legal:
            raise ValueError(f"{action} ({index_name(action)}) is not legal now")
        mover = g.current_player()
        decision = g.decision()
        events = g.apply(legal[action])
        self._log_step(g, mover, decision, action, events)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self._first is None:
                return f"first p{action + 1}"
            seat = len(self._aside)
            pile = self._spec.aside_choices[seat][action]
            return f"p{seat + 1} aside " + self._pile_text(pile)
        g = self.game
        if g is not None and not g.is_over():
            legal = game_legal_indices(g)
            if action in legal:
                return action_text(g, legal[action])
        return index_name(action)

    def is_terminal(self) -> bool:
        return self.game is not None and self.game.is_over()

    def returns(self) -> list[float]:
        g = self.game
        if g is None or not g.is_over():
            return [0.0] * self._spec.players
        return seat_rewards(g)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any = None) -> OriflammeState:
        """A state the seat cannot tell from this one: its hidden cards dealt again (see module doc)."""
        seed = int(probability_sampler() * 2**62) if callable(probability_sampler) else random.getrandbits(62)
        return _resample(self, player_id, random.Random(seed))

    def __str__(self) -> str:
        return "dealing" if self.game is None else render_table(self.game)

    # ---------------------------------------------------------------- helpers

    def _pile_text(self, pile: tuple[int, ...]) -> str:
        # Card ids too: in the 2-player variant a family has two cards (two colours) of each kind.
        return ",".join(f"{SLUGS[self._spec.kinds[c]]}#{c}" for c in pile)

    def _log_step(self, g: Game, mover: int, decision: str | None, action: int, events: list[Event]) -> None:
        for s, log in enumerate(self.logs):
            told = [json.dumps(redact(g, e, s), sort_keys=True, separators=(",", ":")) for e in events]
            mine = f" {index_name(action)}" if s == mover else ""
            log.append(f"p{mover + 1} {decision}{mine}: " + ";".join(told))

    def information_state(self, player: int) -> str:
        return f"p{player + 1}|" + "|".join(self.logs[player])

    def observation(self, player: int) -> str:
        g = self.game
        if g is None:
            return f"p{player + 1}|" + "|".join(self.logs[player])
        view = g.view(player).to_dict()
        # Not the number of actions so far (a resampled world has no history), and cards by
        # kind only: in the 2-player variant, which copy of a kind is which is not in the
        # information state either.
        del view["state_number"]
        _drop_ids(view)
        return json.dumps(view, sort_keys=True, separators=(",", ":"))


def _drop_ids(value: Any) -> None:
    """Remove every card ``id`` from a view's plain data, in place."""
    if isinstance(value, dict):
        value.pop("id", None)
        for v in value.values():
            _drop_ids(v)
    elif isinstance(value, list):
        for v in value:
            _drop_ids(v)


def _resample(state: OriflammeState, player: int, rng: random.Random) -> OriflammeState:
    spec = state._spec
    out = OriflammeState(spec)
    out._first = state._first
    if state.game is None:
        # Still dealing: the seat knows the first player and its own set-aside cards only.
        out._aside = [
            pile if s == player else spec.aside_choices[s][rng.randrange(len(spec.aside_choices[s]))]
            for s, pile in enumerate(state._aside)
        ]
        out.logs = [list(state.logs[player]) for _ in range(spec.players)]
        if len(out._aside) == spec.players:  # pragma: no cover - the game is dealt with the last pile
            raise AssertionError("a dealt state has a game")
        return out
    out.game = sample_game(state.game.view(player), rng)
    # The deal of the sampled world, not the true one.
    out._aside = [tuple(pile) for pile in out.game.aside]
    # The seat's own information state is unchanged; the others' logs are not known to it,
    # so they start from its log and this world's view of them (what matters is that they
    # are consistent within one sampled world).
    for s in range(spec.players):
        if s == player:
            out.logs[s] = list(state.logs[s])
        else:
            out.logs[s] = [*state.logs[player], f"as p{s + 1}: {out.observation(s)}"]
    return out


def resampler(state: OriflammeState, player: int, rng: random.Random | None = None) -> OriflammeState:
    """For ``open_spiel.python.algorithms.ismcts.ISMCTSBot.set_resampler``: a resampled state."""
    return _resample(state, player, rng or random.Random(random.getrandbits(62)))


class _Observer:
    """OpenSpiel's observer protocol: the observation tensor and strings for a player."""

    def __init__(self, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        size = 0 if perfect_recall else OBSERVATION_SIZE
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: OriflammeState, player: int) -> None:
        if self.perfect_recall:
            return
        if state.game is None:
            self.tensor.fill(0.0)
        else:
            self.tensor[:] = observe(state.game.view(player))

    def string_from(self, state: OriflammeState, player: int) -> str:
        return state.information_state(player) if self.perfect_recall else state.observation(player)


pyspiel.register_game(_GAME_TYPE, OriflammeGame)
