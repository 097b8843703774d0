"""Oriflamme as a PettingZoo AEC environment, version 0.

| Import             | `from oriflamme.rl import oriflamme_v0` (`oriflamme.rl.env` is the latest) |
|--------------------|-----------------------------------------------------------------------------|
| Actions            | Discrete, 1,502 (the fixed action space of `oriflamme.encoding.actions`)    |
| Agents             | `player_0` ... `player_{n-1}`, 2 to 5                                        |
| Observation        | dict: `observation` float32 (4,224,), `action_mask` int8 (1,502,)           |
| Observation values | 0 and up (one-hots, counts and scaled numbers, see `encoding.observation`)  |
| Parallel API       | No (turns are sequential; a seat may decide several times in a row)         |

Each agent observes only its own seat's view (`Game.view(seat)`): no
opponent's hand, no face-down card it does not own, no set-aside card of
another seat. The mask is all zeros for every agent but the one to move.

**Rewards** come at the end of the game only: each seat gets its share of the
win (1, split among tied winners, as `Game.returns()`) minus 1/n, so that
the rewards of a table sum to zero; OpenSpiel's `returns()` uses the same
mapping (:func:`seat_rewards`).

**Seeds.** `reset(seed=s)` deals game ``s`` (`Game.new(players, deck, seed=s)`),
so a seed fixes the deal, the first player and a random recipe; a reset
without a seed deals the next game of the last seeded sequence.

**Illegal actions.** `env()` ends the game with a reward of -1 for an agent
that plays an action its mask forbids (and 0 for the others), as PettingZoo's
classic games do with their usual wrappers; `raw_env()` raises ValueError
saying what was legal, and changes nothing. Both refuse an action outside the
action space, and a step or an observation before the first ``reset()``, with
a clear error.

**Why no PettingZoo wrappers.** The classic games wrap their raw environment
in ``TerminateIllegalWrapper``, ``AssertOutOfBoundsWrapper`` and
``OrderEnforcingWrapper``; each of those adds about 10 µs to a step here
(their attribute forwarding), three times this environment's own work. The
environment does the same three checks itself instead (``illegal_action``).

**Version history.** v0: first release (observation and action space of
`oriflamme.encoding` as of 0.2.0). Any change to either bumps the version.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.env_logger import EnvLogger

from ..encoding.actions import action_count, game_legal_indices, index_name
from ..encoding.observation import mask_of, observation_size, observe
from ..engine.game import Game
from ..engine.options import RuleOptions
from .render import render_table

__all__ = ["env", "raw_env", "seat_rewards"]

NAME = "oriflamme_v0"


def seat_rewards(game: Game) -> list[float]:
    """Per seat of a finished game: its share of the win minus 1/n (they sum to zero)."""
    share = game.returns()
    n = game.players
    return [s - 1.0 / n for s in share]


def env(**kwargs: Any) -> AECEnv:
    """The environment as agents use it: an illegal move ends the game at -1 for its agent.

    The checks of PettingZoo's usual wrappers (order, bounds, illegal moves)
    are built in, without their cost per step (see the module's docstring).
    """
    kwargs.setdefault("illegal_action", "end")
    return raw_env(**kwargs)


class raw_env(AECEnv):
    """Oriflamme for ``players`` seats with ``deck`` (a preset, ``random`` or a recipe) and ``rules``."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human"],
        "name": NAME,
        "is_parallelizable": False,
    }

    def __init__(
        self,
        players: int = 4,
        deck: str = "base",
        rules: RuleOptions | None = None,
        render_mode: str | None = None,
        illegal_action: str = "raise",
    ) -> None:
        super().__init__()
        if illegal_action not in ("raise", "end"):
            raise ValueError(f"illegal_action must be 'raise' or 'end', got {illegal_action!r}")
        self.illegal_action = illegal_action
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None")
        # Refuse a bad setup now, with the engine's message, rather than at the first reset.
        Game.new(players=players, deck=deck, seed=0, rules=rules)
        self.players = players
        self.deck = deck
        self.rules = rules
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agents = self.possible_agents[:]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, np.inf, (observation_size(),), np.float32),
                "action_mask": spaces.Box(0, 1, (action_count(),), np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        self.action_spaces = {a: spaces.Discrete(action_count()) for a in self.possible_agents}
        self._seeds = random.Random()
        self.game: Game | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds = random.Random(seed)
            game_seed = seed
        else:
            game_seed = self._seeds.getrandbits(63)
        # No event log: an agent observes views, never the story of a move.
        self.game = Game.new(
            players=self.players, deck=self.deck, seed=game_seed, rules=self.rules, record_events=False
        )
        self._legal_at = -1
        self._legal_map: dict[int, int] = {}
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game.current_player()]

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        game = self.game
        if game is None:
            raise RuntimeError("call reset() before observe() or last()")
        seat = self._seat[agent]
        legal = self._legal() if game.pending is not None and game.current_player() == seat else {}
        return {"observation": observe(game.view(seat)), "action_mask": mask_of(legal)}

    def _legal(self) -> dict[int, int]:
        """Index -> engine action of the pending decision, kept until the next action.

        The mask of ``observe`` and the check of ``step`` need the same map;
        an agent calls both for every move.
        """
        game = self.game
        assert game is not None
        moves = len(game.history)
        if self._legal_at != moves:
            self._legal_map = game_legal_indices(game)
            self._legal_at = moves
        return self._legal_map

    def step(self, action: int | None) -> None:
        if self.game is None:
            raise RuntimeError("call reset() before step()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self.game
        if action is None or not isinstance(action, int | np.integer) or not 0 <= action < action_count():
            raise ValueError(
                f"{agent} played {action!r}: an action is an integer from 0 to {action_count() - 1}"
            )
        legal = self._legal()
        if int(action) not in legal:
            if self.illegal_action == "end":
                self._end_on_illegal(agent)
                return
            allowed = ", ".join(f"{i} ({index_name(i)})" for i in sorted(legal))
            raise ValueError(
                f"{agent} played {action} ({index_name(int(action))}), which is not legal now; legal: {allowed}"
            )
        self._cumulative_rewards[agent] = 0.0
        game.apply(legal[int(action)])
        if game.is_over():
            for a, r in zip(self.possible_agents, seat_rewards(game), strict=True):
                self.rewards[a] = r
                self.terminations[a] = True
            self.infos = {a: {"scores": list(game.score)} for a in self.agents}
            self._accumulate_rewards()  # rewards are all 0 before the end: nothing to add until then
        else:
            self.agent_selection = self.possible_agents[game.current_player()]
        if self.render_mode == "human":
            self.render()

    def _end_on_illegal(self, agent: str) -> None:
        """What PettingZoo's TerminateIllegalWrapper does: the game ends, -1 for the agent, 0 for the rest."""
        EnvLogger.warn_on_illegal_move()
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.rewards[agent] = -1.0
        self.terminations = dict.fromkeys(self.agents, True)
        self.truncations = dict.fromkeys(self.agents, False)
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        if self.game is None:
            raise RuntimeError("call reset() before render()")
        text = render_table(self.game)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        pass
