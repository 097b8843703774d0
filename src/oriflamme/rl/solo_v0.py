"""One seat against bots, as a single-agent Gymnasium environment, version 0.

The agent plays one seat; every other seat is a bot of ``oriflamme.bots``
(``heuristic`` by default, any spec: ``random``, ``ismcts:easy`` ...) and moves
inside :meth:`SoloEnv.step` until the agent must decide again or the game
ends. Observations and actions are those of the PettingZoo environment
(``oriflamme.encoding``): a dict of the seat's observation vector and its
action mask, and the fixed space of 1,502 moves. :meth:`SoloEnv.action_masks`
gives the mask as booleans, the method maskable policies look for
(``sb3_contrib.MaskablePPO``).

The reward is 0 until the end, then the seat's share of the win minus 1/n
(as ``oriflamme.rl.seat_rewards``). ``reset(seed=s)`` deals game ``s`` and,
with ``seat=None`` (the default), seats the agent at a seat drawn from the
same seed, so a training run sees every seat; the bots' seeds derive from it
too, so a seed replays the same episode for the same actions.

Registered with Gymnasium as ``oriflamme/Solo-v0`` (``gymnasium.make`` after
``import oriflamme.rl``). An action the mask forbids raises ValueError and
changes nothing; with ``illegal_action="end"`` it ends the episode at -1
instead (the game untouched), for tools that sample unmasked actions.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from ..bots.base import Bot
from ..bots.registry import make_bot
from ..encoding.actions import action_count, game_legal_indices, index_name
from ..encoding.observation import mask_of, observation_size, observe
from ..engine.game import Game
from ..engine.options import RuleOptions
from ..engine.seeds import derive_seed
from .oriflamme_v0 import seat_rewards
from .render import render_table

__all__ = ["ENV_ID", "SoloEnv"]

ENV_ID = "oriflamme/Solo-v0"

Observation = dict[str, npt.NDArray[Any]]


class SoloEnv(gymnasium.Env[Observation, np.int64]):
    """One seat of an Oriflamme table; the other seats are bots."""

    metadata = {"render_modes": ["ansi", "human"]}  # noqa: RUF012 -- gymnasium's declaration

    def __init__(
        self,
        players: int = 4,
        deck: str = "base",
        rules: RuleOptions | None = None,
        opponents: str | Sequence[str] = "heuristic",
        seat: int | None = None,
        render_mode: str | None = None,
        illegal_action: str = "raise",
    ) -> None:
        if illegal_action not in ("raise", "end"):
            raise ValueError(f"illegal_action must be 'raise' or 'end', got {illegal_action!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None")
        Game.new(players=players, deck=deck, seed=0, rules=rules)  # a bad setup fails here, with its reason
        specs = [opponents] * (players - 1) if isinstance(opponents, str) else list(opponents)
        if len(specs) != players - 1:
            raise ValueError(f"{players} players need {players - 1} opponents, got {len(specs)}")
        for spec in specs:
            make_bot(spec, 0)  # an unknown spec fails here, with what is accepted
        if seat is not None and not 0 <= seat < players:
            raise ValueError(f"seat must be 0 to {players - 1} or None, got {seat}")
        self.players = players
        self.deck = deck
        self.rules = rules
        self.opponents = specs
        self.fixed_seat = seat
        self.illegal_action = illegal_action
        self._ended = False
        self.render_mode = render_mode
        self.observation_space = spaces.Dict(  # type: ignore[assignment]
            {
                "observation": spaces.Box(0.0, np.inf, (observation_size(),), np.float32),
                "action_mask": spaces.Box(0, 1, (action_count(),), np.int8),
            }
        )
        self.action_space = spaces.Discrete(action_count())
        self.game: Game | None = None
        self.seat = 0
        self._bots: dict[int, Bot] = {}
        self._seeds = random.Random()

    # ------------------------------------------------------------------ gymnasium

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._seeds = random.Random(seed)
            game_seed = seed
        else:
            game_seed = self._seeds.getrandbits(63)
        # No event log: an agent observes views, never the story of a move.
        self.game = Game.new(
            players=self.players, deck=self.deck, seed=game_seed, rules=self.rules, record_events=False
        )
        self.seat = (
            self.fixed_seat
            if self.fixed_seat is not None
            else random.Random(derive_seed("solo", game_seed, "seat")).randrange(self.players)
        )
        others = [s for s in range(self.players) if s != self.seat]
        self._bots = {
            s: make_bot(spec, derive_seed("solo", game_seed, "bot", s))
            for s, spec in zip(others, self.opponents, strict=True)
        }
        self._ended = False
        self._bots_play()
        return self._observation(), self._info()

    def step(self, action: int | np.integer[Any]) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        game = self.game
        if game is None:
            raise RuntimeError("call reset() before step()")
        if game.is_over() or self._ended:
            raise RuntimeError("the episode is over: call reset()")
        legal = game_legal_indices(game)
        index = int(action)
        if index not in legal:
            if self.illegal_action == "end":
                # As PettingZoo's classic games: the episode ends, at -1, with the game untouched.
                self._ended = True
                return self._observation(), -1.0, True, False, {**self._info(), "illegal_action": index}
            allowed = ", ".join(f"{i} ({index_name(i)})" for i in sorted(legal))
            shown = f"{index} ({index_name(index)})" if 0 <= index < action_count() else str(index)
            raise ValueError(f"action {shown} is not legal now; legal: {allowed}")
        game.apply(legal[index])
        self._bots_play()
        over = game.is_over()
        reward = seat_rewards(game)[self.seat] if over else 0.0
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, over, False, self._info()

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal moves as booleans (what maskable policies call)."""
        if self.game is None:
            raise RuntimeError("call reset() first")
        game = self.game
        mine = game.pending is not None and game.current_player() == self.seat
        return mask_of(game_legal_indices(game) if mine else ()).astype(bool)

    def render(self) -> str | None:
        if self.render_mode is None or self.game is None:
            return None
        text = render_table(self.game)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    # ------------------------------------------------------------------ helpers

    def _bots_play(self) -> None:
        game = self.game
        assert game is not None
        while not game.is_over():
            mover = game.current_player()
            if mover == self.seat:
                return
            game.apply(self._bots[mover].choose(game.view(mover)))

    def _observation(self) -> Observation:
        game = self.game
        assert game is not None
        mine = game.pending is not None and game.current_player() == self.seat
        return {
            "observation": observe(game.view(self.seat)),
            "action_mask": mask_of(game_legal_indices(game) if mine else ()),
        }

    def _info(self) -> dict[str, Any]:
        assert self.game is not None
        info: dict[str, Any] = {"seat": self.seat}
        if self.game.is_over():
            info["scores"] = list(self.game.score)
            info["winners"] = list(self.game.winners)
        return info
