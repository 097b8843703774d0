"""Train one seat of Oriflamme against heuristic bots with MaskablePPO (sb3-contrib), then measure it.

Not part of the test suite: it needs PyTorch and sb3-contrib besides the ``rl`` extra::

    pip install 'oriflamme[rl]' sb3-contrib
    python examples/maskable_ppo.py --steps 20000 --games 50

The environment is ``oriflamme/Solo-v0``: the agent's seat is drawn from each
reset's seed, the other seats are bots, and the mask keeps every sampled
action legal. A few thousand steps only show that the pieces fit; learning to
beat the heuristic bots takes millions (or start from the ``net`` bot's
examples, see docs/rl.md).
"""

from __future__ import annotations

import argparse

import gymnasium
import numpy as np
from sb3_contrib import MaskablePPO
from sb3_contrib.common.wrappers import ActionMasker

import oriflamme.rl  # noqa: F401  (registers oriflamme/Solo-v0)


class FlatObservation(gymnasium.ObservationWrapper):  # type: ignore[type-arg]
    """The observation vector alone: the mask reaches the policy through ``action_masks()``."""

    def __init__(self, env: gymnasium.Env) -> None:  # type: ignore[type-arg]
        super().__init__(env)
        self.observation_space = env.observation_space["observation"]  # type: ignore[index]

    def observation(self, observation: dict[str, np.ndarray]) -> np.ndarray:
        return observation["observation"]


def make_env(players: int, deck: str, opponents: str) -> gymnasium.Env:  # type: ignore[type-arg]
    env = gymnasium.make("oriflamme/Solo-v0", players=players, deck=deck, opponents=opponents)
    env = ActionMasker(env, lambda e: e.unwrapped.action_masks())
    return FlatObservation(env)


def evaluate(model: MaskablePPO, env: gymnasium.Env, games: int, seed: int) -> float:  # type: ignore[type-arg]
    """The agent's mean share of the win over ``games`` games (1/players is chance)."""
    shares = []
    for g in range(games):
        obs, _ = env.reset(seed=seed + g)
        done = False
        reward = 0.0
        while not done:
            masks = env.unwrapped.action_masks()  # type: ignore[attr-defined]
            action, _ = model.predict(obs, action_masks=masks, deterministic=True)
            obs, reward, terminated, truncated, _ = env.step(int(action))
            done = terminated or truncated
        shares.append(float(reward) + 1 / env.unwrapped.players)  # type: ignore[attr-defined]
    return float(np.mean(shares))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=5000, help="environment steps of training")
    parser.add_argument("--games", type=int, default=20, help="games to measure the agent on")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--deck", default="base")
    parser.add_argument("--opponents", default="heuristic")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    env = make_env(args.players, args.deck, args.opponents)
    model = MaskablePPO("MlpPolicy", env, n_steps=512, batch_size=128, seed=args.seed, verbose=1)
    model.learn(total_timesteps=args.steps)
    share = evaluate(model, make_env(args.players, args.deck, args.opponents), args.games, 10_000 + args.seed)
    print(f"mean share of the win over {args.games} games: {share:.3f} (chance: {1 / args.players:.3f})")


if __name__ == "__main__":
    main()
