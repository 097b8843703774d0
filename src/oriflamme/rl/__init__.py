"""Environments for training agents on Oriflamme (PettingZoo; needs the ``rl`` extra).

``oriflamme.rl.oriflamme_v0`` is the versioned PettingZoo AEC environment;
``oriflamme.rl.env`` and ``oriflamme.rl.raw_env`` name the current version.
"""

from . import oriflamme_v0
from .oriflamme_v0 import env, raw_env, seat_rewards

__all__ = ["env", "oriflamme_v0", "raw_env", "seat_rewards"]
