"""A learned bot: a policy/value network that plays without search (needs numpy, the ``rl`` extra).

:class:`NetBot` encodes its view with :mod:`oriflamme.encoding` and plays the
legal action its network rates highest, in about a millisecond. The network
(:mod:`.model`) is evaluated in numpy; ``oriflamme train`` (JAX, the ``train``
extra) trains new ones from search games, and ``make_bot("net:FILE")`` plays
with one of them. :class:`ZeroBot` (``zero``) is the same player with the
network ``oriflamme selfplay`` learned by self-play. Not imported by :mod:`oriflamme.bots`, so that the other
bots need no third-party package.
"""

from .bot import DEFAULT_WEIGHTS, NetBot, ZeroBot, box_of, default_network, shipped_network
from .model import FORMAT_VERSION, Network, WeightsError, ensemble, load, save

__all__ = [
    "DEFAULT_WEIGHTS",
    "FORMAT_VERSION",
    "NetBot",
    "Network",
    "WeightsError",
    "ZeroBot",
    "box_of",
    "default_network",
    "ensemble",
    "load",
    "save",
    "shipped_network",
]
