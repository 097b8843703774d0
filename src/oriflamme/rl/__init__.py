"""Environments for training agents on Oriflamme (PettingZoo; needs the ``rl`` extra).

``oriflamme.rl.oriflamme_v0`` is the versioned PettingZoo AEC environment;
``oriflamme.rl.env`` and ``oriflamme.rl.raw_env`` name the current version.
"""

from ..extras import require_extra

# Say which extra to install rather than fail on the first missing import.
require_extra("rl", "oriflamme.rl (the learning environments)")

from . import oriflamme_v0  # noqa: E402
from .oriflamme_v0 import env, raw_env, seat_rewards  # noqa: E402

__all__ = ["env", "oriflamme_v0", "raw_env", "seat_rewards"]
