"""What a self-play run trains on and how: :class:`SelfPlayConfig`, and the setups it mixes."""

from __future__ import annotations

import dataclasses
import json
from typing import Any, Final

from ...encoding.actions import MAX_PLAYERS

__all__ = ["ALL_SETUPS", "DECKS", "SelfPlayConfig", "Setup", "parse_setups"]

#: The decks a setup may name: the three boxes and ten kinds drawn per game from all 30.
DECKS: Final = ("base", "ablaze", "alliance", "random")


@dataclasses.dataclass(frozen=True, order=True)
class Setup:
    """One kind of game in the mix: a player count and a deck."""

    players: int
    deck: str

    def __str__(self) -> str:
        return f"{self.players}:{self.deck}"


#: Every player count with every deck: what one network is trained to play.
ALL_SETUPS: Final = tuple(Setup(n, deck) for deck in DECKS for n in range(2, MAX_PLAYERS + 1))


def parse_setups(text: str) -> tuple[Setup, ...]:
    """``all``, or comma-separated ``PLAYERS:DECK`` (``4:base,2:alliance``); ValueError says what is wrong."""
    if text.strip().lower() == "all":
        return ALL_SETUPS
    setups = []
    for part in text.split(","):
        count, sep, deck = part.strip().partition(":")
        deck = deck.strip().lower()
        if not sep or not count.strip().isdigit() or deck not in DECKS:
            raise ValueError(
                f"setup {part.strip()!r}: write PLAYERS:DECK with a deck among {', '.join(DECKS)} "
                "(e.g. 4:base), or 'all'"
            )
        players = int(count)
        if not 2 <= players <= MAX_PLAYERS:
            raise ValueError(f"setup {part.strip()!r}: players must be 2 to {MAX_PLAYERS}")
        setups.append(Setup(players, deck))
    if len(set(setups)) != len(setups):
        raise ValueError(f"setups {text!r} name one setup twice")
    return tuple(setups)


def _from_0_to_1(value: object) -> bool:
    """Whether ``value`` is a number (not a bool) from 0 to 1 (nan is not)."""
    return not isinstance(value, bool) and isinstance(value, int | float) and 0 <= value <= 1


@dataclasses.dataclass(frozen=True)
class SelfPlayConfig:
    """The settings of a run; everything the trained network depends on (with the device's arithmetic).

    Iterations are not among them: a run can be resumed for more of them.
    """

    setups: tuple[Setup, ...] = (Setup(4, "base"),)
    #: Games played at once per setup, every seat by the network being trained.
    batch: int = 256
    #: Steps per rollout: one iteration rolls one setup's games this far, then learns from them.
    horizon: int = 128
    #: Iterations in a row on one setup before the next one's turn (a setup's compiled program
    #: is large: see :class:`~.learner.Learner` on how many are kept at once).
    block: int = 8
    hidden: tuple[int, ...] = (256, 256)
    learning_rate: float = 3e-4
    #: Passes over each rollout (1: plain advantage actor-critic; more: PPO's clipped reuse).
    epochs: int = 4
    minibatches: int = 4
    #: PPO's clip of the probability ratio.
    clip: float = 0.2
    entropy: float = 0.01
    value_weight: float = 0.5
    #: Global gradient norm clip (PPO's usual 0.5).
    max_grad_norm: float = 0.5
    seed: int = 0
    #: Give a decision whose game goes on past the rollout its seat's latest value estimate as its
    #: target (``vector_train.bootstrapped_targets``) rather than leaving it out.
    bootstrap: bool = False
    #: A weights file (``oriflamme train``'s format) to start from instead of random weights, or
    #: ``net``: the ``net`` bot's shipped network (its heuristic hint left out).
    init: str | None = None
    #: Share of each setup's games in which one seat is played by the network being trained and the
    #: others by a past one (a rival drawn each iteration from the last ``rival_pool`` snapshots,
    #: one taken every ``rival_every`` iterations; the starting network fills the pool at first).
    #: 0: pure self-play. Only the trained seat's moves are learned from in those games.
    rivals: float = 0.0
    rival_every: int = 10
    rival_pool: int = 4
    #: Weights files (or ``net``) that are the rivals instead of the run's past networks: a fixed
    #: pool, drawn from as the snapshots are and never replaced (``rival_every`` and
    #: ``rival_pool`` then unused). Each must have the run's trunk. Why: a network that meets only
    #: itself and its past learns to beat that table; fixed rivals that play as another population
    #: does (``net``'s network, hint left out, was trained to imitate ``ismcts:normal``) make the
    #: trained seat's games those of that table.
    #: Read once, when the run starts (the checkpoint keeps the pool).
    rivals_from: tuple[str, ...] = ()
    #: Weight of the final score margin in the reward: a seat's reward at the end becomes its share
    #: of the win minus 1/n plus this times (its IP less the table's mean IP) / 10, clipped to
    #: [-1, 1]. 0: the win alone. (``vector_train.shaped_rewards``; the value head then estimates
    #: that reward.) At most 1: beyond, the margin would outweigh the win.
    score_weight: float = 0.0
    #: A weights file (or ``net``) whose policy the trained one is kept near: the loss adds
    #: ``anchor_weight`` times KL(trained || anchor) over the decisions it learns from, the
    #: regularised self-play of piKL (Jacob et al., 2022). Why: a network that meets only
    #: itself settles into habits of its own (docs/training.md, "Anchored"); an anchor that
    #: plays as another population does keeps it among that population's moves where its own
    #: games do not tell them apart. Read once, when the run starts (the checkpoint keeps it).
    anchor: str | None = None
    anchor_weight: float = 0.0

    def check(self) -> None:
        """Raise ValueError with one line for a setting that is not one."""
        if not self.setups or not all(isinstance(s, Setup) for s in self.setups):
            raise ValueError("at least one setup (PLAYERS:DECK) is needed")
        for name in ("batch", "horizon", "block", "epochs", "minibatches", "rival_every", "rival_pool"):
            value = getattr(self, name)
            if type(value) is not int or value < 1:
                raise ValueError(f"{name} must be a positive int, got {value!r}")
        if (self.batch * self.horizon) % self.minibatches:
            raise ValueError(
                f"minibatches ({self.minibatches}) must divide batch x horizon ({self.batch * self.horizon})"
            )
        if not self.hidden or any(type(h) is not int or not 1 <= h <= 4096 for h in self.hidden):
            raise ValueError(f"hidden must be layer widths of 1 to 4096, got {self.hidden!r}")
        for name in ("learning_rate", "clip", "max_grad_norm"):
            if not getattr(self, name) > 0:
                raise ValueError(f"{name} must be positive, got {getattr(self, name)!r}")
        if not _from_0_to_1(self.rivals):
            raise ValueError(f"rivals must be a share from 0 to 1, got {self.rivals!r}")
        if self.rivals > 0 and self.rival_games == 0:
            raise ValueError(f"rivals {self.rivals!r} of {self.batch} games rounds to no game")
        if type(self.rivals_from) is not tuple or not all(
            isinstance(name, str) and name for name in self.rivals_from
        ):
            raise ValueError(f"rivals_from must be weights files or 'net', got {self.rivals_from!r}")
        if self.rivals_from and not self.rivals > 0:
            raise ValueError("rivals_from needs a share of games against them (rivals above 0)")
        if type(self.bootstrap) is not bool:
            raise ValueError(f"bootstrap must be true or false, got {self.bootstrap!r}")
        if not _from_0_to_1(self.score_weight):
            raise ValueError(f"score_weight must be a number from 0 to 1, got {self.score_weight!r}")
        if not (type(self.anchor_weight) in (int, float) and 0 <= self.anchor_weight <= 100):
            raise ValueError(f"anchor_weight must be a number from 0 to 100, got {self.anchor_weight!r}")
        if (self.anchor is None) != (self.anchor_weight == 0):
            raise ValueError(
                "an anchor needs a positive anchor_weight, and a positive anchor_weight an anchor "
                f"(got anchor {self.anchor!r}, anchor_weight {self.anchor_weight!r})"
            )
        for name in ("entropy", "value_weight"):
            if not getattr(self, name) >= 0:
                raise ValueError(f"{name} must not be negative, got {getattr(self, name)!r}")

    @property
    def pool_size(self) -> int:
        """How many networks the rivals are drawn from: the fixed ones, or ``rival_pool`` snapshots."""
        return len(self.rivals_from) or self.rival_pool

    @property
    def rival_games(self) -> int:
        """How many of each setup's ``batch`` games are played against a rival (the first ones)."""
        return round(self.rivals * self.batch)

    def to_dict(self) -> dict[str, Any]:
        data = dataclasses.asdict(self)
        data["setups"] = [str(s) for s in self.setups]
        data["hidden"] = list(self.hidden)
        data["rivals_from"] = list(self.rivals_from)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SelfPlayConfig:
        """The config :meth:`to_dict` wrote (ValueError for anything else)."""
        names = {f.name for f in dataclasses.fields(cls)}
        if not isinstance(data, dict) or set(data) - names:
            raise ValueError(f"not a self-play configuration: {json.dumps(data)[:200]}")
        values = dict(data)
        values["setups"] = parse_setups(",".join(values.get("setups", ["4:base"])))
        values["hidden"] = tuple(values.get("hidden", (256, 256)))
        if isinstance(values.get("rivals_from", ()), list):  # anything else: check() refuses it
            values["rivals_from"] = tuple(values.get("rivals_from", ()))
        config = cls(**values)
        config.check()
        return config
