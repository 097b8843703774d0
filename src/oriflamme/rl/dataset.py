"""Training examples from search games, for a learned policy and value (expert iteration).

Every seat is a search bot, the hand-made ISMCTS or the network-guided
``zero-search`` (whose examples improve the network it searches with:
search-guided targets); at each decision with a choice the search's
root visit counts become the policy target (over the fixed action space),
and once the game ends each of its examples gets the deciding seat's reward
(its share of the win minus 1/n, as the environments give) as the value
target. Observations and masks are the environments' (``oriflamme.encoding``),
so a network trained on them plays through the same interface.

The games are a pure function of ``seed`` (deal and bots' seeds derive from
it), and :func:`save` writes one compressed ``.npz`` file with the arrays and
what made them.
"""

from __future__ import annotations

import json
import zipfile
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Protocol

import numpy as np
import numpy.typing as npt

from ..bots.base import Bot
from ..bots.heuristic.bot import heuristic_choice
from ..bots.ismcts import ActionValue, IsmctsBot
from ..bots.net.model import Network, WeightsError
from ..bots.net.model import load as load_network
from ..bots.registry import make_bot, parse_bot_spec
from ..encoding.actions import action_count, action_index, view_kinds
from ..encoding.observation import action_mask, observation_size, observe
from ..engine.game import Game
from ..engine.options import RuleOptions
from ..engine.seeds import derive_seed
from ..engine.view import SeatView
from .oriflamme_v0 import seat_rewards

__all__ = ["DATASET_VERSION", "SEARCHES", "Examples", "concatenate", "generate", "load", "save"]

#: Bumped whenever the arrays' meaning changes (with the observation or action space).
DATASET_VERSION = 2

#: The searches that can play and label the games: the hand-made ISMCTS (``level``: its levels)
#: and the network-guided ``zero-search`` (``level``: ``fast``, ``normal``, ``strong`` or a number
#: of iterations).
SEARCHES: Final = ("ismcts", "zero-search")


class _Labeller(Protocol):
    """A search that scores every legal action of a decision, best first (its root visits)."""

    def evaluate(self, view: SeatView) -> tuple[ActionValue, ...]: ...


@dataclass
class Examples:
    """Arrays of one batch of examples, row ``i`` being one decision."""

    observations: npt.NDArray[np.float32]
    masks: npt.NDArray[np.int8]
    policies: npt.NDArray[np.float32]
    values: npt.NDArray[np.float32]
    #: The index of the heuristic bot's choice at each decision (an input of the net bot's policy).
    heuristic: npt.NDArray[np.int16]
    meta: dict[str, Any] = field(default_factory=dict)

    def __len__(self) -> int:
        return int(self.values.shape[0])


def generate(
    games: int,
    players: int = 4,
    deck: str = "base",
    level: str = "normal",
    seed: int = 0,
    rules: RuleOptions | None = None,
    *,
    first: int = 0,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
    movers: Sequence[str | None] | None = None,
    search: str = "ismcts",
    weights: str | Path | None = None,
) -> Examples:
    """Play games ``first .. first + games - 1`` of search bots in every seat; return their decisions.

    ``search`` names the search (:data:`SEARCHES`) and ``level`` its level. ``zero-search``
    searches with the network of the ``weights`` file (by default ``zero``'s networks), which
    must play without the heuristic hint, as ``zero``'s do (the search's priors have none): the
    examples of a search around a network are its targets for improving that network, the
    policy-improvement step of expert iteration and AlphaZero. The search, its level and the
    file are checked before any game (``games=0`` only checks them).

    The search labels every decision; by default its most visited action is
    also the one played. ``movers`` instead names, per entrant, a bot spec
    whose choice is played (``None``: the search's), entrants rotating
    through the seats from game to game as in a tournament: with
    ``["net:my.npz", "heuristic", "heuristic", "heuristic"]`` the examples
    are the positions a network meets against heuristic bots, each labelled
    with what the search would do there (the data-aggregation step of
    expert iteration), and the values are the outcomes of that play.

    Game ``g`` depends only on ``seed`` and ``g``, so the examples are the
    same whatever ``workers`` (processes sharing the games) and however the
    games are split into calls: :func:`concatenate` of two calls equals one
    call over both ranges. ``progress`` is called with the number of games
    finished since its last call.
    """
    if games < 0 or first < 0 or workers < 1:
        raise ValueError(f"games ({games}) and first ({first}) must be >= 0 and workers ({workers}) >= 1")
    network = _search_network(search, level, weights)
    if movers is not None:
        if len(movers) != players:
            raise ValueError(f"{players} players need {players} movers, got {len(movers)}")
        for spec in movers:
            if spec is not None:
                parse_bot_spec(spec, custom=True)  # an unknown spec fails here, saying what is accepted
    meta = {
        "version": DATASET_VERSION,
        "games": games,
        "first": first,
        "players": players,
        "deck": deck,
        "level": level,
        "seed": seed,
        "rules": (rules or RuleOptions()).to_dict(),
        "movers": None if movers is None else list(movers),
        "search": search,
        # The file's path says where it was; the digest of its weights, which network it was
        # (None with zero's shipped networks: those of the installed version).
        "weights": None if weights is None else str(weights),
        "weights_sha256": None if network is None else network.digest(),
    }
    if workers > 1 and games > 1:
        return _generate_parallel(
            games, players, deck, level, seed, rules, first, workers, progress, meta, movers, search, weights
        )
    obs: list[npt.NDArray[np.float32]] = []
    masks: list[npt.NDArray[np.int8]] = []
    policies: list[npt.NDArray[np.float32]] = []
    values: list[float] = []
    heuristic: list[int] = []
    for g_no in range(first, first + games):
        game_seed = derive_seed("dataset", seed, g_no)
        game = Game.new(players=players, deck=deck, seed=game_seed, rules=rules, record_events=False)
        bots = [
            _labeller(search, level, derive_seed("dataset", seed, g_no, "bot", s), network)
            for s in range(players)
        ]
        played: dict[int, Bot] = {}
        for s, spec in enumerate(movers or []):
            if spec is not None:
                played[(s + g_no) % players] = make_bot(spec, derive_seed("dataset", seed, g_no, "mover", s))
        seats: list[int] = []
        while not game.is_over():
            seat = game.current_player()
            view = game.view(seat)
            if len(view.legal_actions) == 1:
                game.apply(view.legal_actions[0])
                continue
            ranked = bots[seat].evaluate(view)
            kinds = view_kinds(view)
            total = sum(v.visits for v in ranked)
            policy = np.zeros(action_count(), np.float32)
            for v in ranked:
                if v.visits:
                    policy[action_index(v.action, seat, players, kinds)] = v.visits / total
            obs.append(observe(view))
            masks.append(action_mask(view))
            policies.append(policy)
            heuristic.append(action_index(heuristic_choice(view), seat, players, kinds))
            seats.append(seat)
            game.apply(played[seat].choose(view) if seat in played else ranked[0].action)
        rewards = seat_rewards(game)
        values.extend(rewards[s] for s in seats)
        if progress is not None:
            progress(1)
    return Examples(
        observations=np.stack(obs) if obs else np.zeros((0, observation_size()), np.float32),
        masks=np.stack(masks) if masks else np.zeros((0, action_count()), np.int8),
        policies=np.stack(policies) if policies else np.zeros((0, action_count()), np.float32),
        values=np.asarray(values, np.float32),
        heuristic=np.asarray(heuristic, np.int16),
        meta=meta,
    )


def _search_network(search: str, level: str, weights: str | Path | None) -> Network | None:
    """Check the search, its level and its network; the network ``zero-search`` searches with
    (None: ``zero``'s). A ValueError says what is wrong (:class:`WeightsError` for the network)."""
    if search not in SEARCHES:
        raise ValueError(f"search {search!r}: choose among {', '.join(SEARCHES)}")
    if search == "ismcts":
        if weights is not None:
            raise ValueError("a weights file is for zero-search; ismcts searches without a network")
        return None
    from ..bots.net import ZeroBot
    from ..bots.zero_levels import zero_iterations

    zero_iterations(level)  # a bad level fails here, saying what is accepted
    if weights is None:
        ZeroBot()  # the shipped networks, refused if the cards loaded now are not theirs
        return None
    network = load_network(weights)
    if network.heuristic_bonus:
        raise WeightsError(
            f"{weights}: a network with the heuristic hint, which zero-search does not give it; "
            "search with a network trained without it (zero's, or oriflamme train --no-hint)"
        )
    return network


def _labeller(search: str, level: str, seed: int, network: Network | None) -> _Labeller:
    """A seat's search: ``zero-search`` around ``network`` (None: ``zero``'s), or ISMCTS."""
    if search == "ismcts":
        return IsmctsBot(level, seed)
    from ..bots.zero_search import ZeroSearchBot

    return ZeroSearchBot(level, seed, network=network)


#: Games per task handed to a worker process: small enough to show progress, large enough
#: that sending the arrays back costs little next to playing.
_CHUNK = 4


def _generate_parallel(
    games: int,
    players: int,
    deck: str,
    level: str,
    seed: int,
    rules: RuleOptions | None,
    first: int,
    workers: int,
    progress: Callable[[int], None] | None,
    meta: dict[str, Any],
    movers: Sequence[str | None] | None,
    search: str,
    weights: str | Path | None,
) -> Examples:
    """:func:`generate` with the games shared by ``workers`` processes, in game order."""
    from ..pools import worker_pool

    starts = list(range(first, first + games, _CHUNK))
    # Fresh worker processes, not forks: the caller may have started threads (JAX does, when the
    # examples are made by the training command), and a forked copy of those would be unsafe.
    with worker_pool(workers, ignore_ctrl_c=False) as pool:
        futures = [
            pool.submit(
                generate,
                min(_CHUNK, first + games - at),
                players,
                deck,
                level,
                seed,
                rules,
                first=at,
                movers=movers,
                search=search,
                weights=weights,
            )
            for at in starts
        ]
        parts = []
        for future in futures:
            part = future.result()
            parts.append(part)
            if progress is not None:
                progress(part.meta["games"])
    out = concatenate(parts)
    out.meta = meta
    return out


def concatenate(parts: Sequence[Examples]) -> Examples:
    """One batch of the rows of ``parts`` in order; its metadata lists each part's."""
    if not parts:
        raise ValueError("no examples to concatenate")
    return Examples(
        observations=np.concatenate([p.observations for p in parts]),
        masks=np.concatenate([p.masks for p in parts]),
        policies=np.concatenate([p.policies for p in parts]),
        values=np.concatenate([p.values for p in parts]),
        heuristic=np.concatenate([p.heuristic for p in parts]),
        meta={"version": DATASET_VERSION, "parts": [p.meta for p in parts]},
    )


#: The ``format`` entry of a saved file's metadata (a network's weights file says ``oriflamme-net``).
FORMAT = "oriflamme-examples"

#: What reading a damaged or foreign ``.npz`` can raise, reported as one ValueError naming the file.
_READ_ERRORS = (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile, zlib.error)


def save(examples: Examples, path: str | Path) -> None:
    """Write ``examples`` to one compressed ``.npz`` file (the metadata as JSON inside it)."""
    np.savez_compressed(
        path,
        observations=examples.observations,
        masks=examples.masks,
        policies=examples.policies,
        values=examples.values,
        heuristic=examples.heuristic,
        meta=np.array(json.dumps({**examples.meta, "format": FORMAT}, sort_keys=True)),
    )


def load(path: str | Path) -> Examples:
    """Read a file written by :func:`save`; a damaged file, another kind of file or another
    dataset version is refused with a ValueError saying which."""
    try:
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
            if not isinstance(meta, dict) or meta.get("format", FORMAT) != FORMAT:
                kind = meta.get("format") if isinstance(meta, dict) else None
                raise ValueError(f"{path}: a {kind or 'foreign'} file, not training examples")
            meta.pop("format", None)
            if meta.get("version") != DATASET_VERSION:
                raise ValueError(
                    f"{path}: dataset version {meta.get('version')!r}; this program reads version {DATASET_VERSION}"
                )
            out = Examples(
                observations=data["observations"],
                masks=data["masks"],
                policies=data["policies"],
                values=data["values"],
                heuristic=data["heuristic"],
                meta=meta,
            )
    except _READ_ERRORS as exc:
        message = str(exc)
        raise ValueError(
            message if message.startswith(f"{path}: ") else f"{path}: unreadable examples ({exc})"
        ) from None
    n = len(out)
    shapes = {
        "observations": (out.observations.shape, (n, observation_size())),
        "masks": (out.masks.shape, (n, action_count())),
        "policies": (out.policies.shape, (n, action_count())),
        "heuristic": (out.heuristic.shape, (n,)),
    }
    for name, (got, want) in shapes.items():
        if got != want:
            raise ValueError(f"{path}: {name} has shape {got}, expected {want}")
    return out
