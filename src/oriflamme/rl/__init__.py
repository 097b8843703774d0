"""Environments for training agents on Oriflamme (PettingZoo; needs the ``rl`` extra).

``oriflamme.rl.oriflamme_v0`` is the versioned PettingZoo AEC environment;
``oriflamme.rl.env`` and ``oriflamme.rl.raw_env`` name the current version.
``oriflamme.rl.solo_v0.SoloEnv`` is one seat against bots as a single-agent
Gymnasium environment, registered as ``oriflamme/Solo-v0``.
``import oriflamme.rl.openspiel_game`` registers the OpenSpiel game
``python_oriflamme`` with ``pyspiel`` (not imported here: OpenSpiel is large).
"""

from ..extras import require_extra

# Say which extra to install rather than fail on the first missing import.
require_extra("rl", "oriflamme.rl (the learning environments)")

import gymnasium  # noqa: E402

from . import oriflamme_v0, solo_v0  # noqa: E402
from .oriflamme_v0 import env, raw_env, seat_rewards  # noqa: E402
from .solo_v0 import ENV_ID, SoloEnv  # noqa: E402

if ENV_ID not in gymnasium.registry:
    gymnasium.register(ENV_ID, entry_point="oriflamme.rl.solo_v0:SoloEnv")

__all__ = ["ENV_ID", "SoloEnv", "env", "oriflamme_v0", "raw_env", "seat_rewards", "solo_v0"]
