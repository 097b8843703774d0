"""Self-play training on the batched engine: the network behind the ``zero`` bot.

:mod:`.config` says what a run trains on, :mod:`.learner` is the jitted
rollout and PPO update, :mod:`.checkpoint` saves and restores a run exactly,
and :mod:`.loop` runs one in a directory with evaluations handed in. The
command is ``oriflamme selfplay``; docs/training.md explains the method and
how the shipped network was trained. Needs the ``train`` extra (JAX, optax).
"""

from .checkpoint import CheckpointError
from .config import ALL_SETUPS, DECKS, SelfPlayConfig, Setup, parse_setups
from .learner import Learner, TrainingState, UpdateStats
from .loop import Best, Evaluate, Progress, Run, kept_best, open_run

__all__ = [
    "ALL_SETUPS",
    "DECKS",
    "Best",
    "CheckpointError",
    "Evaluate",
    "Learner",
    "Progress",
    "Run",
    "SelfPlayConfig",
    "Setup",
    "TrainingState",
    "UpdateStats",
    "kept_best",
    "open_run",
    "parse_setups",
]
