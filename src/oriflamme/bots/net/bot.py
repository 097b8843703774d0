"""The ``net`` bot: plays the move its policy network rates highest, without search."""

from __future__ import annotations

import os
import random
from collections.abc import Mapping
from functools import lru_cache
from importlib.resources import files
from pathlib import Path
from types import MappingProxyType
from typing import ClassVar, Final

import numpy as np

from ...encoding.actions import legal_indices
from ...encoding.observation import observe
from ...engine.cards import SLUGS
from ...engine.game import Game
from ...engine.recipes import PRESETS
from ...engine.registry import P_SEAT
from ...engine.view import SeatView
from ..heuristic import heuristic_action
from ..heuristic.bot import heuristic_choice
from .model import Network, load

__all__ = [
    "DEFAULT_WEIGHTS",
    "NetBot",
    "ZeroBot",
    "box_of",
    "default_network",
    "net_action",
    "shipped_network",
]

#: The network shipped with the package (docs/measurements/net.md says how it was trained).
DEFAULT_WEIGHTS = "net-v1.npz"


@lru_cache(maxsize=8)
def _load_version(path: str, mtime_ns: int, size: int) -> Network:
    return load(path)


def _load_cached(path: str) -> Network:
    """A weights file read once per process while it is unchanged (a rewritten file is read again)."""
    try:
        st = os.stat(path)
    except OSError:
        return load(path)  # says what is wrong with the path
    return _load_version(path, st.st_mtime_ns, st.st_size)


def shipped_network(name: str) -> Network:
    """A network shipped in this package (``net-v1.npz``, ``zero-v1.npz``), read once per process."""
    return _load_cached(str(files(__package__).joinpath(name)))


#: Each box's recipe, as the slugs a view names its game's kinds by.
_BOX_RECIPES: Final = {frozenset(SLUGS[k] for k in kinds): box for box, kinds in PRESETS.items()}


def box_of(view: SeatView) -> str | None:
    """The box whose recipe ``view``'s game plays (``base``, ``ablaze``, ``alliance``), or None for
    a mixed deck: a network fine-tuned on one box's games plays those only (docs/training.md §6)."""
    return _BOX_RECIPES.get(frozenset(view.recipe))


def default_network() -> Network:
    """The ``net`` bot's shipped network, read once per process."""
    return shipped_network(DEFAULT_WEIGHTS)


class NetBot:
    """A bot that encodes its view, evaluates the network once and plays the best-rated legal action.

    ``weights`` is a file written by ``oriflamme train`` (or a loaded
    :class:`~oriflamme.bots.net.model.Network`); by default the shipped
    network. The bot is deterministic: ``seed`` is accepted for the bot
    interface's sake, and ties between equal logits go to the first legal
    action in the engine's order.
    """

    #: The bot's kind in specs (``net``, ``net:FILE``) and the file it plays without one.
    KIND = "net"
    WEIGHTS = DEFAULT_WEIGHTS

    def __init__(self, weights: str | Path | Network | None = None, seed: int | None = None) -> None:
        if weights is None:
            self.network = shipped_network(self.WEIGHTS)
            self.spec = self.KIND
        elif isinstance(weights, Network):
            self.network = weights
            self.spec = self.KIND
        else:
            self.network = _load_cached(str(Path(weights).resolve()))
            self.spec = f"{self.KIND}:{weights}"
        self.seed = seed
        #: The value head's estimate at the last decision with a choice (the seat's expected reward).
        self.last_value: float | None = None

    def network_for(self, view: SeatView) -> Network:
        """The network that plays ``view``'s game: the bot's one network."""
        return self.network

    def policy(self, view: SeatView) -> list[tuple[int, float]]:
        """Each legal action of ``view`` with the network's probability for it, best first."""
        by_index = legal_indices(view)
        if not by_index:
            raise ValueError("the view's seat has no decision to make")
        indices = np.fromiter(by_index, dtype=np.intp, count=len(by_index))
        network = self.network_for(view)
        features = network.features(observe(view))
        self.last_value = network.evaluate(features)
        logits = network.logits(features, indices).astype(np.float64)
        if network.heuristic_bonus:
            hint = heuristic_choice(view)
            logits[list(by_index.values()).index(hint)] += network.heuristic_bonus
        probs = np.exp(logits - logits.max())
        probs /= probs.sum()
        # Indices come in the engine's order of legal actions, and the sort is stable.
        order = sorted(range(len(indices)), key=lambda i: -probs[i])
        return [(by_index[int(indices[i])], float(probs[i])) for i in order]

    def choose(self, view: SeatView) -> int:
        """The legal action with the highest logit (the only one, without evaluating, if forced)."""
        if len(view.legal_actions) == 1:
            return view.legal_actions[0]
        return self.policy(view)[0][0]


class ZeroBot(NetBot):
    """The ``zero`` bot: the network learned by self-play on the vector engine, alone (no search).

    It plays as :class:`NetBot` does, by default from ``zero-v1.npz`` and, in
    the games of a setup named in :attr:`SETUP_WEIGHTS` (a player count and a
    box), from that setup's own network (docs/training.md says how each was
    trained); its networks have no heuristic hint, so a move costs one forward
    pass and nothing else. ``zero:FILE`` plays a network written by
    ``oriflamme selfplay`` in every game.
    """

    KIND = "zero"
    WEIGHTS = "zero-v1.npz"
    #: Per setup (players, box), the network of its games when no file is given, each the one that
    #: wins most there against ``ismcts:normal`` (docs/training.md §6): in 2-player games
    #: ``zero-v1`` fine-tuned on 2-player base (``zero-2p-v1``), that one fine-tuned on the three
    #: boxes (``zero-2p-v2``, for Alliance) and that one on Ablaze alone (``zero-2p-v4``); in
    #: 4-player base ``zero-v1`` fine-tuned there kept near the ``net`` bot's policy
    #: (``zero-4p-v1``, "Anchored"), and in the other boxes' 4-player games that one fine-tuned on
    #: them the same way (``zero-4p-v2``). Other setups and mixed decks play :attr:`WEIGHTS`.
    SETUP_WEIGHTS: ClassVar[Mapping[tuple[int, str], str]] = MappingProxyType(
        {
            (2, "base"): "zero-2p-v1.npz",
            (2, "ablaze"): "zero-2p-v4.npz",
            (2, "alliance"): "zero-2p-v2.npz",
            (4, "base"): "zero-4p-v1.npz",
            (4, "ablaze"): "zero-4p-v2.npz",
            (4, "alliance"): "zero-4p-v2.npz",
        }
    )
    #: The 2-player part of :attr:`SETUP_WEIGHTS`, by box (as it was named before the 4-player one).
    TWO_PLAYER_WEIGHTS: ClassVar[Mapping[str, str]] = MappingProxyType(
        {box: name for (players, box), name in SETUP_WEIGHTS.items() if players == 2}
    )

    def __init__(self, weights: str | Path | Network | None = None, seed: int | None = None) -> None:
        super().__init__(weights, seed)
        #: Per setup, its own network, only when the shipped ones play (a file given plays every
        #: game).
        self.by_setup: dict[tuple[int, str], Network] = (
            {setup: shipped_network(name) for setup, name in self.SETUP_WEIGHTS.items()}
            if weights is None
            else {}
        )

    def network_for(self, view: SeatView) -> Network:
        """The setup's own network in its games (with no file given), else ``network``."""
        box = box_of(view) if self.by_setup else None
        if box is None:
            return self.network
        return self.by_setup.get((view.players, box), self.network)


def net_action(network: Network, g: Game, rng: random.Random) -> int:
    """The move the network rates highest for the seat to move in ``g``, from that seat's view.

    What :meth:`NetBot.choose` plays, for a game a search has dealt: the
    heuristic's hint is read from ``g`` itself with the same fixed tie-breaking
    generator, which gives the same move, since the heuristic reads only what
    the seat may know. The search's prior (``SearchLevel.prior``); ``rng`` is
    not drawn from, so the prior does not shift the search's random numbers.
    """
    p = g.pending
    assert p is not None
    view = g.view(p[P_SEAT])
    by_index = legal_indices(view)
    indices = np.fromiter(by_index, dtype=np.intp, count=len(by_index))
    logits = network.logits(network.features(observe(view)), indices).astype(np.float64)
    if network.heuristic_bonus:
        hint = heuristic_action(g, random.Random(0))
        logits[list(by_index.values()).index(hint)] += network.heuristic_bonus
    return by_index[int(indices[int(np.argmax(logits))])]
