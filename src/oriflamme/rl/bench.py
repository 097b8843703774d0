"""Speed of the learning environments: steps per second, and where a step's time goes.

Measured on random legal play (one ``random()`` per decision, as ``bench
engine``). Loops over the same games (same seeds, same choices), taking turns
game by game:

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
* **openspiel**: the same games through the game ``python_oriflamme`` and
  ``pyspiel`` (each dealt by the chance actions that give ``Game.new``'s
  deal, the move drawn from the sorted legal actions as from the mask), every
  decision asking the state for its observation tensor and legal actions,
  then applying the move (the chance steps' time is counted, a step is a
  decision): like for like with a PettingZoo step.

Both environment loops also time the move alone: PettingZoo's ``env.step()``,
and OpenSpiel's ``apply_action()`` with its information-state bookkeeping
(what OpenSpiel's searches do at every step of every simulation, on clones
whose observation no one asks for).

Encoder time (legal indices, view, observation and mask) is measured alone
on the direct loop's decisions. Numbers only: the command formats them, tests never time.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from time import perf_counter
from typing import Any

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
    #: None where OpenSpiel is not installed, or the deck is random (not an explicit chance node).
    openspiel_us: float | None = None
    #: ``env.step()`` alone (the move, without ``last()``'s observation).
    pettingzoo_step_us: float = 0.0
    #: ``apply_action()`` alone (the move with the information-state bookkeeping).
    openspiel_apply_us: float | None = None

    @property
    def pettingzoo_steps_per_s(self) -> float:
        return 1e6 / self.pettingzoo_us

    @property
    def gymnasium_steps_per_s(self) -> float:
        return 1e6 / self.gymnasium_us

    @property
    def openspiel_steps_per_s(self) -> float | None:
        return None if self.openspiel_us is None else 1e6 / self.openspiel_us

    @property
    def openspiel_vs_pettingzoo(self) -> float | None:
        """An OpenSpiel decision's time over a PettingZoo step's, on the same games."""
        return None if self.openspiel_us is None else self.openspiel_us / self.pettingzoo_us

    @property
    def openspiel_apply_vs_step(self) -> float | None:
        """OpenSpiel's ``apply_action()`` time over PettingZoo's ``env.step()``, on the same games."""
        if self.openspiel_apply_us is None or not self.pettingzoo_step_us:
            return None
        return self.openspiel_apply_us / self.pettingzoo_step_us


def _pick(legal: list[int], rng: random.Random) -> int:
    return legal[int(rng.random() * len(legal))]


@dataclass(slots=True)
class _Tally:
    """One loop's sums over the games: steps, seconds, and the seconds of the part it times alone."""

    steps: int = 0
    seconds: float = 0.0
    part: float = 0.0

    def add(self, steps: int, seconds: float, part: float = 0.0) -> None:
        self.steps += steps
        self.seconds += seconds
        self.part += part

    def us(self, seconds: float) -> float:
        return 1e6 * seconds / self.steps


def _direct_game(players: int, deck: str, seed: int) -> tuple[int, float, float]:
    """(steps, total seconds, encoder seconds) of the engine plus encoder on game ``seed``."""
    steps = 0
    total = encoder = 0.0
    rng = random.Random(seed)
    t_new = perf_counter()
    g = Game.new(players=players, deck=deck, seed=seed, record_events=False)
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


def _pettingzoo_game(env: Any, seed: int) -> tuple[int, float, float]:
    """(decision steps, seconds, seconds in ``env.step()``) of game ``seed`` through the AEC environment."""
    steps = 0
    moving = 0.0
    rng = random.Random(seed)
    t0 = perf_counter()
    env.reset(seed=seed)
    for _agent in env.agent_iter():
        obs, _, done, truncated, _ = env.last()
        if done or truncated:
            env.step(None)
            continue
        action = _pick(np.flatnonzero(obs["action_mask"]).tolist(), rng)
        t1 = perf_counter()
        env.step(action)
        moving += perf_counter() - t1
        steps += 1
    return steps, perf_counter() - t0, moving


def _gymnasium_game(env: SoloEnv, seed: int) -> tuple[int, float, float]:
    """(the agent's steps, seconds) of one seat against random bots in game ``seed``."""
    steps = 0
    rng = random.Random(seed)
    t0 = perf_counter()
    obs, _ = env.reset(seed=seed)
    while True:
        obs, _, terminated, _, _ = env.step(_pick(np.flatnonzero(obs["action_mask"]).tolist(), rng))
        steps += 1
        if terminated:
            break
    return steps, perf_counter() - t0, 0.0


def _openspiel_setup(players: int, deck: str) -> Any | None:
    """The OpenSpiel game, or None without OpenSpiel or for a random deck (not an explicit chance node)."""
    if deck.strip().lower().startswith("random"):
        return None
    try:
        import pyspiel

        from .openspiel_game import GAME_NAME
    except ImportError:
        return None
    return pyspiel.load_game(GAME_NAME, {"players": players, "deck": deck})


def _openspiel_game(game: Any, players: int, deck: str, seed: int) -> tuple[int, float, float]:
    """(decision steps, seconds, seconds in ``apply_action()``) of game ``seed`` through pyspiel."""
    from .openspiel_game import deal_actions

    steps = 0
    moving = 0.0
    rng = random.Random(seed)
    deal = deal_actions(game, Game.new(players=players, deck=deck, seed=seed))
    t0 = perf_counter()
    state = game.new_initial_state()
    for action in deal:
        state.apply_action(action)
    while not state.is_terminal():
        state.observation_tensor(state.current_player())
        action = _pick(state.legal_actions(), rng)
        t1 = perf_counter()
        state.apply_action(action)
        moving += perf_counter() - t1
        steps += 1
    return steps, perf_counter() - t0, moving


def _same_game(tally: _Tally, played: tuple[int, float, float], steps: int) -> None:
    """Count a game an environment played, after checking it took the engine's ``steps``."""
    if played[0] != steps:
        raise RuntimeError(f"an environment played {played[0]} steps where the engine played {steps}")
    tally.add(*played)


def run_rl_bench(players: int, deck: str, games: int = 50, seed: int = 0) -> RlBench:
    """Measure one setup on ``games`` random games.

    The loops take turns game by game, so that a busy machine's slow spells
    fall on all of them alike and their ratios hold.
    """
    direct, pz, raw, gym, spiel = _Tally(), _Tally(), _Tally(), _Tally(), _Tally()
    pz_env = make_env(players=players, deck=deck)
    raw_env_ = raw_env(players=players, deck=deck)
    gym_env = SoloEnv(players=players, deck=deck, opponents="random")
    spiel_game = _openspiel_setup(players, deck)
    for g_no in range(games):
        game_seed = seed + g_no
        steps, total, encoder = _direct_game(players, deck, game_seed)
        direct.add(steps, total, encoder)
        _same_game(pz, _pettingzoo_game(pz_env, game_seed), steps)
        _same_game(raw, _pettingzoo_game(raw_env_, game_seed), steps)
        if spiel_game is not None:
            _same_game(spiel, _openspiel_game(spiel_game, players, deck, game_seed), steps)
        gym.add(*_gymnasium_game(gym_env, game_seed))
    return RlBench(
        players=players,
        deck=deck,
        steps=direct.steps,
        direct_us=direct.us(direct.seconds),
        encoder_us=direct.us(direct.part),
        pettingzoo_us=pz.us(pz.seconds),
        pettingzoo_overhead_us=pz.us(pz.seconds - direct.seconds),
        raw_overhead_us=raw.us(raw.seconds - direct.seconds),
        gymnasium_us=gym.us(gym.seconds),
        openspiel_us=None if spiel_game is None else spiel.us(spiel.seconds),
        pettingzoo_step_us=pz.us(pz.part),
        openspiel_apply_us=None if spiel_game is None else spiel.us(spiel.part),
    )
