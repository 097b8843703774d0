"""Speed of the learning environments: steps per second, and where a step's time goes.

Measured on random legal play (one ``random()`` per decision, as ``bench
engine``). Three loops over the same games (same seeds, same choices):

* **direct**: the engine with the encoder, no environment: each game's deal
  (``Game.new``, which the environments' ``reset()`` also does), and for each
  decision the seat's view, its observation and mask, the legal indices and
  the chosen action applied;
* **pettingzoo**: the same games through the AEC environment as ``env()``
  returns it (``env.last()`` then ``env.step()``, the move drawn from the
  mask in both loops), so its time minus the direct loop's is the
  environment's own overhead per step (and the same through ``raw_env``);
* **gymnasium**: one seat of ``SoloEnv`` against random bots (a step is one
  of the agent's decisions, the bots' moves included);
* **openspiel**: the game ``python_oriflamme`` through ``pyspiel``, every
  decision asking the state for its observation tensor and legal actions
  (the deals are OpenSpiel's chance outcomes, so these are other games; the
  chance steps' time is counted, a step is a decision).

Encoder time (legal indices, view, observation and mask) is measured alone
on the direct loop's decisions. Numbers only: the command formats them, tests never time.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from time import perf_counter

import numpy as np

from ..encoding.actions import game_legal_indices
from ..encoding.observation import mask_of, observe
from ..engine.game import Game
from .oriflamme_v0 import env as make_env
from .oriflamme_v0 import raw_env
from .solo_v0 import SoloEnv


@dataclass(frozen=True, slots=True)
class RlBench:
    """One setup's figures (times in microseconds per step)."""

    players: int
    deck: str
    steps: int
    direct_us: float
    encoder_us: float
    pettingzoo_us: float
    pettingzoo_overhead_us: float
    raw_overhead_us: float
    gymnasium_us: float
    #: None where OpenSpiel is not installed.
    openspiel_us: float | None = None

    @property
    def pettingzoo_steps_per_s(self) -> float:
        return 1e6 / self.pettingzoo_us

    @property
    def gymnasium_steps_per_s(self) -> float:
        return 1e6 / self.gymnasium_us

    @property
    def openspiel_steps_per_s(self) -> float | None:
        return None if self.openspiel_us is None else 1e6 / self.openspiel_us


def _pick(legal: list[int], rng: random.Random) -> int:
    return legal[int(rng.random() * len(legal))]


def _direct(players: int, deck: str, games: int, seed: int) -> tuple[int, float, float]:
    """(steps, total seconds, encoder seconds) of the engine plus encoder on ``games`` games."""
    steps = 0
    total = encoder = 0.0
    for g_no in range(games):
        rng = random.Random(seed + g_no)
        t_new = perf_counter()
        g = Game.new(players=players, deck=deck, seed=seed + g_no, record_events=False)
        # The deal counts as engine work here as it does inside the environments' reset(), which
        # also deals without an event log.
        total += perf_counter() - t_new
        while not g.is_over():
            t0 = perf_counter()
            legal = game_legal_indices(g)
            observe(g.view(g.current_player()))
            mask = mask_of(legal)
            t1 = perf_counter()
            # The move is drawn from the mask, as an agent of the environments does.
            g.apply(legal[_pick(np.flatnonzero(mask).tolist(), rng)])
            t2 = perf_counter()
            encoder += t1 - t0
            total += t2 - t0
            steps += 1
    return steps, total, encoder


def _pettingzoo(players: int, deck: str, games: int, seed: int, wrapped: bool = True) -> tuple[int, float]:
    """(decision steps, seconds) through the AEC environment (``env()``, or ``raw_env``) on the same games."""
    env = make_env(players=players, deck=deck) if wrapped else raw_env(players=players, deck=deck)
    steps = 0
    total = 0.0
    for g_no in range(games):
        rng = random.Random(seed + g_no)
        t0 = perf_counter()
        env.reset(seed=seed + g_no)
        for _agent in env.agent_iter():
            obs, _, done, truncated, _ = env.last()
            if done or truncated:
                env.step(None)
                continue
            env.step(_pick(np.flatnonzero(obs["action_mask"]).tolist(), rng))
            steps += 1
        total += perf_counter() - t0
    return steps, total


def _gymnasium(players: int, deck: str, games: int, seed: int) -> tuple[int, float]:
    env = SoloEnv(players=players, deck=deck, opponents="random")
    steps = 0
    total = 0.0
    for g_no in range(games):
        rng = random.Random(seed + g_no)
        t0 = perf_counter()
        obs, _ = env.reset(seed=seed + g_no)
        while True:
            obs, _, terminated, _, _ = env.step(_pick(np.flatnonzero(obs["action_mask"]).tolist(), rng))
            steps += 1
            if terminated:
                break
        total += perf_counter() - t0
    return steps, total


def _openspiel(players: int, deck: str, games: int, seed: int) -> tuple[int, float] | None:
    """(decision steps, seconds) of random play through pyspiel, or None without OpenSpiel."""
    try:
        import pyspiel

        from . import openspiel_game  # noqa: F401  (registers python_oriflamme)
    except ImportError:
        return None
    game = pyspiel.load_game("python_oriflamme", {"players": players, "deck": deck})
    steps = 0
    total = 0.0
    for g_no in range(games):
        rng = random.Random(seed + g_no)
        t0 = perf_counter()
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rng.random() * len(outcomes))][0])
                continue
            state.observation_tensor(state.current_player())
            state.apply_action(_pick(state.legal_actions(), rng))
            steps += 1
        total += perf_counter() - t0
    return steps, total


def run_rl_bench(players: int, deck: str, games: int = 50, seed: int = 0) -> RlBench:
    """Measure one setup on ``games`` random games."""
    steps, direct, encoder = _direct(players, deck, games, seed)
    pz_steps, pz = _pettingzoo(players, deck, games, seed)
    raw_steps, raw = _pettingzoo(players, deck, games, seed, wrapped=False)
    if pz_steps != steps or raw_steps != steps:
        raise RuntimeError(f"the environment played {pz_steps} steps where the engine played {steps}")
    gym_steps, gym = _gymnasium(players, deck, games, seed)
    spiel = _openspiel(players, deck, games, seed)
    return RlBench(
        players=players,
        deck=deck,
        steps=steps,
        direct_us=1e6 * direct / steps,
        encoder_us=1e6 * encoder / steps,
        pettingzoo_us=1e6 * pz / steps,
        pettingzoo_overhead_us=1e6 * (pz - direct) / steps,
        raw_overhead_us=1e6 * (raw - direct) / steps,
        gymnasium_us=1e6 * gym / gym_steps,
        openspiel_us=None if spiel is None else 1e6 * spiel[1] / spiel[0],
    )
