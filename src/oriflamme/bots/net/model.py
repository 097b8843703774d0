"""The policy/value network's weights file and its forward pass, in numpy alone.

A network is a stack of fully connected ReLU layers over the observation
(:mod:`oriflamme.encoding.observation`), then two heads: one logit per index
of the fixed action space (:mod:`oriflamme.encoding.actions`) and a value in
[-1, 1] (the seat's expected reward, as the environments give it). Playing
needs only this module; training (``oriflamme.rl.train``, with JAX) writes
the same file.

The policy also gets one hint: the move the hand-written heuristic policy
would play gains ``heuristic_bonus`` on its logit. The network then learns
where the search departs from the heuristic, rather than all of the game's
sense from scratch; without the hint, networks trained on the same games
blundered into losses the heuristic avoids (docs/measurements/net.md).

The file is one ``.npz``: arrays ``trunk_w0, trunk_b0, ...``, ``policy_w``,
``policy_b``, ``value_w``, ``value_b``, ``heuristic_bonus`` (stored as float16
to keep the shipped file small; computed in float32) and ``meta``, a JSON
object naming the format
and its version, the observation and action sizes it was trained for, and how
it was trained. A file of another format version, or for another observation
or action space, is refused with a message saying which.

Speed: an observation has about a hundred non-zero entries out of 4,224, so
the first layer sums those rows of its matrix instead of multiplying the
whole vector, and the policy head is evaluated for the legal indices only.
"""

from __future__ import annotations

import hashlib
import json
import zipfile
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, TypeAlias

import numpy as np
import numpy.typing as npt

from ...encoding.actions import action_count
from ...encoding.observation import observation_size
from ...engine.cards import OFFICIAL_KINDS, SLUGS

__all__ = ["FORMAT", "FORMAT_VERSION", "Network", "WeightsError", "ensemble", "load", "save"]

FORMAT: Final = "oriflamme-net"
#: Bumped whenever the file's layout or the network's meaning changes.
FORMAT_VERSION: Final = 1

#: A float32 array (an alias that stays valid where numpy is not installed, as in the mypyc build).
Matrix: TypeAlias = npt.NDArray[np.float32]


class WeightsError(ValueError):
    """A weights file that cannot be used, with what is wrong with it."""


@dataclass
class Network:
    """Weights of one network, ready to evaluate (float32 arrays)."""

    trunk: list[tuple[Matrix, Matrix]]
    policy: tuple[Matrix, Matrix]
    value: tuple[Matrix, Matrix]
    #: Added to the logit of the heuristic policy's move (0: the network plays alone).
    heuristic_bonus: float = 0.0
    meta: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        width = observation_size()
        for i, (w, b) in enumerate(self.trunk):
            if w.shape != (width, b.shape[0]) or b.ndim != 1:
                raise WeightsError(
                    f"trunk layer {i}: weights {w.shape} and bias {b.shape} do not follow {width} inputs"
                )
            width = b.shape[0]
        for name, (w, b), out in (("policy", self.policy, action_count()), ("value", self.value, 1)):
            if w.shape != (width, out) or b.shape != (out,):
                raise WeightsError(
                    f"{name} head: weights {w.shape}, bias {b.shape}; expected ({width}, {out}), ({out},)"
                )

    @property
    def hidden(self) -> tuple[int, ...]:
        """The trunk's layer widths."""
        return tuple(b.shape[0] for _, b in self.trunk)

    def digest(self) -> str:
        """SHA-256 of the weights as a file keeps them (float16): which network this is, whatever
        file it was read from, for recording what a training run started from or searched with."""
        h = hashlib.sha256()
        for w, b in [*self.trunk, self.policy, self.value]:
            h.update(w.astype(np.float16).tobytes())
            h.update(b.astype(np.float16).tobytes())
        h.update(np.float16(self.heuristic_bonus).tobytes())
        return h.hexdigest()

    def features(self, observation: Matrix) -> Matrix:
        """The trunk's output for one observation (a vector of :func:`~oriflamme.encoding.observation.observation_size`)."""
        nz = np.flatnonzero(observation)
        w0, b0 = self.trunk[0]
        h: Matrix = np.maximum(observation[nz] @ w0[nz] + b0, 0.0)
        for w, b in self.trunk[1:]:
            h = np.maximum(h @ w + b, 0.0)
        return h

    def logits(self, features: Matrix, indices: npt.NDArray[np.intp]) -> Matrix:
        """The policy logits of ``indices`` only."""
        w, b = self.policy
        return features @ w[:, indices] + b[indices]

    def evaluate(self, features: Matrix) -> float:
        """The value head: the seat's expected reward, in [-1, 1]."""
        w, b = self.value
        return float(np.tanh(features @ w[:, 0] + b[0]))


def ensemble(networks: Sequence[Network]) -> Network:
    """One network that plays as ``networks`` together: its logits, and its value before the
    value head's tanh, are the means of theirs.

    A mean of logits is the normalized geometric mean of the networks' policies (a move needs all
    of them to rate it), which may be steadier than any one network trained by self-play, whose
    choices between close moves drift from one checkpoint to the next; for two 4-player networks
    it was not (docs/training.md §6, "Together"). A mean of weights mixes units that learned
    different things; this instead sets the networks side by side: the trunks' layers are joined
    (the first layers' weights side by side, the later ones' on the diagonal of a block matrix,
    zero across), and each head reads every trunk's features scaled by 1/len(networks). The
    result is an ordinary network of the summed widths, which every player of a weights file
    reads, so nothing is approximated but the float16 a file keeps. A decision costs about the
    networks' forward passes together (the layers after the first, dense, cost len(networks)
    times theirs). The trunks must be equally deep and no network may have a heuristic hint
    (whose bonus is not a logit to average).
    """
    if not networks:
        raise WeightsError("an ensemble needs at least one network")
    depths = {len(n.trunk) for n in networks}
    if len(depths) != 1:
        raise WeightsError(f"the networks' trunks are not equally deep ({sorted(depths)} layers)")
    if any(n.heuristic_bonus for n in networks):
        raise WeightsError("a network with a heuristic hint cannot join an ensemble")
    trunk = [(np.concatenate([n.trunk[0][0] for n in networks], axis=1), _joined_bias(networks, 0))]
    for layer in range(1, len(networks[0].trunk)):
        trunk.append((_block_diagonal([n.trunk[layer][0] for n in networks]), _joined_bias(networks, layer)))
    scale = np.float32(1.0 / len(networks))

    def head(pick: Callable[[Network], tuple[Matrix, Matrix]]) -> tuple[Matrix, Matrix]:
        weights = np.concatenate([pick(n)[0] for n in networks], axis=0) * scale
        bias = np.stack([pick(n)[1] for n in networks]).sum(axis=0) * scale
        return weights.astype(np.float32), bias.astype(np.float32)

    return Network(
        trunk=trunk,
        policy=head(lambda n: n.policy),
        value=head(lambda n: n.value),
        meta={"ensemble": [n.digest() for n in networks]},
    )


def _joined_bias(networks: Sequence[Network], layer: int) -> Matrix:
    return np.concatenate([n.trunk[layer][1] for n in networks])


def _block_diagonal(blocks: Sequence[Matrix]) -> Matrix:
    """The matrix with ``blocks`` on its diagonal and zeros elsewhere."""
    rows = sum(b.shape[0] for b in blocks)
    cols = sum(b.shape[1] for b in blocks)
    out = np.zeros((rows, cols), np.float32)
    r = c = 0
    for b in blocks:
        out[r : r + b.shape[0], c : c + b.shape[1]] = b
        r, c = r + b.shape[0], c + b.shape[1]
    return out


def save(network: Network, path: str | Path) -> None:
    """Write ``network`` as one compressed ``.npz`` (float16 weights, JSON metadata)."""
    arrays: dict[str, npt.NDArray[Any]] = {}
    for i, (w, b) in enumerate(network.trunk):
        arrays[f"trunk_w{i}"] = w.astype(np.float16)
        arrays[f"trunk_b{i}"] = b.astype(np.float16)
    for name, (w, b) in (("policy", network.policy), ("value", network.value)):
        arrays[f"{name}_w"] = w.astype(np.float16)
        arrays[f"{name}_b"] = b.astype(np.float16)
    arrays["heuristic_bonus"] = np.array([network.heuristic_bonus], np.float16)
    meta = {
        **network.meta,
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "observation_size": observation_size(),
        "action_count": action_count(),
        "kinds": list(SLUGS),
        "hidden": list(network.hidden),
    }
    arrays["meta"] = np.array(json.dumps(meta, sort_keys=True))
    np.savez_compressed(path, **arrays)  # type: ignore[arg-type]


def load(path: str | Path) -> Network:
    """Read a file written by :func:`save`; :class:`WeightsError` says what is wrong with a bad one."""
    try:
        return _read(path)
    except WeightsError:
        raise
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile, zlib.error) as exc:
        raise WeightsError(f"{path}: not a readable weights file ({exc})") from None


def _check_layout(path: str | Path, meta: dict[str, Any]) -> None:
    """Refuse a network trained on other cards than those loaded now (it reads another layout)."""
    trained = meta.get("kinds", SLUGS[:OFFICIAL_KINDS])  # files without the entry: the official kinds
    if trained != list(SLUGS):
        extra = [slug for slug in SLUGS if slug not in trained] if isinstance(trained, list) else []
        raise WeightsError(
            f"{path}: trained with {len(trained) if isinstance(trained, list) else '?'} card kinds, "
            f"but {len(SLUGS)} are loaded now"
            + (f" ({', '.join(extra)} besides those it knows)" if extra else "")
            + "; a network plays only the cards it was trained with, since its inputs and outputs "
            "are sized by them: play without the extra cards, or train a network with them"
        )
    for key, want in (("observation_size", observation_size()), ("action_count", action_count())):
        if meta.get(key) != want:
            raise WeightsError(f"{path}: trained for {key} {meta.get(key)!r}; this program's is {want}")


def _read(path: str | Path) -> Network:
    data = np.load(path, allow_pickle=False)
    with data:
        if "meta" not in data.files:
            raise WeightsError(f"{path}: no 'meta' entry; not an {FORMAT} weights file")
        try:
            meta = json.loads(str(data["meta"]))
        except ValueError as exc:
            raise WeightsError(f"{path}: unreadable metadata ({exc})") from None
        if not isinstance(meta, dict) or meta.get("format") != FORMAT:
            kind = meta.get("format") if isinstance(meta, dict) else None
            raise WeightsError(
                f"{path}: not an {FORMAT} weights file" + (f" (a {kind} file)" if kind else "")
            )
        if meta.get("version") != FORMAT_VERSION:
            raise WeightsError(
                f"{path}: weights format version {meta.get('version')!r}; this program reads version {FORMAT_VERSION}"
            )
        _check_layout(path, meta)

        def arr(name: str) -> Matrix:
            if name not in data.files:
                raise WeightsError(f"{path}: missing array {name!r}")
            a = data[name]
            if not np.issubdtype(a.dtype, np.floating):
                raise WeightsError(f"{path}: array {name!r} is {a.dtype}, not floating point")
            return np.ascontiguousarray(a, dtype=np.float32)

        layers = sum(1 for f in data.files if f.startswith("trunk_w"))
        if layers == 0:
            raise WeightsError(f"{path}: no trunk layers")
        trunk = [(arr(f"trunk_w{i}"), arr(f"trunk_b{i}")) for i in range(layers)]
        try:
            return Network(
                trunk=trunk,
                policy=(arr("policy_w"), arr("policy_b")),
                value=(arr("value_w"), arr("value_b")),
                heuristic_bonus=float(arr("heuristic_bonus").reshape(-1)[0]),
                meta=meta,
            )
        except WeightsError as exc:
            raise WeightsError(f"{path}: {exc}") from None
