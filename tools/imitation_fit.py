"""How closely networks imitate a search: their fit to the held-out tail of saved training examples.

    python tools/imitation_fit.py --data A.npz [--data B.npz ...] NET.npz [net] [...]

reads the examples as ``oriflamme train`` does (``--data`` files in order, the last
``--holdout`` share, 10%, held out: the last games played) and prints, for each
network, on those held-out decisions:

* **agreement**: the share where the network's favourite legal move is one the
  search visited most (ties at the top count, as ``oriflamme train`` counts them);
* **policy loss**: the cross-entropy of the search's visit shares under the
  network's policy, in nats a decision (the search's own spread is part of it, so
  it compares networks, and is not zero for a perfect imitator);
* **value error**: the squared error of the value head against the deciding seat's
  reward, beside the rewards' variance.

``net`` is the ``net`` bot's shipped network. A network with the heuristic hint
plays with it unless ``--without-hint``, which scores it as ``selfplay --anchor``
and ``--init`` read it (the hint left out). The networks are those of the
``zero`` and ``net`` bots, so this is how an anchor for self-play is chosen
(docs/training.md §6, "A closer anchor"). Not run in CI (a test runs it on
small examples).
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from oriflamme.bots.net import Network, load
from oriflamme.bots.net.bot import default_network
from oriflamme.rl.dataset import Examples, concatenate
from oriflamme.rl.dataset import load as load_examples

#: Rows scored at once (keeps the logits of a batch, rows x 1,502, small).
_BATCH = 2048


@dataclass(frozen=True)
class Fit:
    """A network's fit to examples: see the module's docstring."""

    rows: int
    agreement: float
    policy_loss: float
    value_mse: float


def held_out(examples: Examples, share: float) -> Examples:
    """The last ``share`` of ``examples``' rows, as ``oriflamme train`` holds them out."""
    if not 0 < share < 1:
        raise ValueError(f"--holdout must lie between 0 and 1, got {share}")
    cut = len(examples) - int(len(examples) * share)
    if cut >= len(examples):
        raise ValueError(f"{len(examples)} examples hold none out at {share}")
    return Examples(
        observations=examples.observations[cut:],
        masks=examples.masks[cut:],
        policies=examples.policies[cut:],
        values=examples.values[cut:],
        heuristic=examples.heuristic[cut:],
        meta=examples.meta,
    )


def fit(network: Network, examples: Examples, hint: bool = True) -> Fit:
    """``network``'s fit to every row of ``examples`` (its hint used if it has one and ``hint``)."""
    agree = loss = squared = 0.0
    for start in range(0, len(examples), _BATCH):
        rows = slice(start, start + _BATCH)
        logits, values = _forward(network, examples.observations[rows])
        if hint and network.heuristic_bonus:
            logits[np.arange(logits.shape[0]), examples.heuristic[rows]] += network.heuristic_bonus
        legal = examples.masks[rows] > 0
        logits = np.where(legal, logits, -np.inf)
        logp = logits - logits.max(axis=1, keepdims=True)
        logp -= np.log(np.exp(logp).sum(axis=1, keepdims=True))
        target = examples.policies[rows]
        picked = target[np.arange(target.shape[0]), logits.argmax(axis=1)]
        agree += float((picked >= target.max(axis=1)).sum())
        loss -= float((target * np.where(legal, logp, 0.0)).sum())
        squared += float(((values - examples.values[rows]) ** 2).sum())
    n = len(examples)
    return Fit(n, agree / n, loss / n, squared / n)


def _forward(network: Network, observations: npt.NDArray[np.float32]) -> tuple[np.ndarray, np.ndarray]:
    """The policy logits over every action, and the values, of a batch of observations."""
    h = observations.astype(np.float32)
    for w, b in network.trunk:
        h = np.maximum(h @ w.astype(np.float32) + b.astype(np.float32), 0.0)
    pw, pb = network.policy
    vw, vb = network.value
    logits = h @ pw.astype(np.float32) + pb.astype(np.float32)
    values = np.tanh(h @ vw[:, 0].astype(np.float32) + float(vb[0]))
    return logits, values


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("networks", nargs="+", help="weights files, or 'net' (the net bot's network)")
    parser.add_argument("--data", action="append", required=True, type=Path, help="examples (repeatable)")
    parser.add_argument("--holdout", type=float, default=0.1, help="the share held out at the end")
    parser.add_argument("--without-hint", action="store_true", help="score hinted networks without it")
    args = parser.parse_args(argv)
    try:
        parts = [load_examples(p) for p in args.data]
        tail = held_out(parts[0] if len(parts) == 1 else concatenate(parts), args.holdout)
        networks = [(name, default_network() if name == "net" else load(name)) for name in args.networks]
    except (ValueError, OSError) as exc:  # WeightsError is a ValueError
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"{tail.values.size} held-out decisions; the rewards' variance {float(tail.values.var()):.3f}")
    for name, network in networks:
        f = fit(network, tail, hint=not args.without_hint)
        print(
            f"{name}: agreement {100 * f.agreement:.1f}%, policy loss {f.policy_loss:.3f}, "
            f"value error {f.value_mse:.3f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())


__all__ = ["Fit", "fit", "held_out", "main"]
