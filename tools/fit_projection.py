"""Fit the projection to who won: per-box weights for ``oriflamme.bots.heuristic.fitted``.

The search scores a position at its horizon by each seat's projected worth,
read as win chances through a softmax (``projected_shares``). This tool
replays tournament records, takes every seat's features at the start of each
round from the second on (the search's horizons fall there), and fits, per
box, the weights under which the recorded winners are likeliest: a
conditional logit over the seats, each seat's utility its features times the
weights over the rounds left (counting the one starting), so that a lead
counts for less the further the end is. The features are the seat's IP, the
hand-made projection's four terms (revealed characters, face-down cards,
hand, kept Agreements), per kind the activations left of its revealed
characters, its face-down cards and its turns left per card in hand, the IP
on its face-down cards and its cards on the table. The weights are then
divided by the IP's, so that they read in IP::

    python tools/fit_projection.py docs/measurements/alliance-ismcts-*-vs-normal*.jsonl.gz

prints, per box, the mean log-likelihood of the winners on the held-out games
(every fifth) for the hand-made projection at its likeliest temperature and
for the fitted one, and the weights; ``--python`` prints the table kept as
``FITTED_WEIGHTS``, ``--json`` everything. A uniform guess scores ``ln(1/4)``
= -1.386 with four players. Newton's method on a convex problem, numpy only.
Not run in CI (a test runs it on a small record).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from oriflamme.bots.heuristic.context import Context
from oriflamme.bots.heuristic.fitted import CARDS, FEATURES, HAND, HIDDEN, HIDDEN_IP, REVEALED
from oriflamme.bots.heuristic.projection import HAND_WEIGHT, best_of_hand, plays_left
from oriflamme.engine.cards import AGREEMENT, IS_CHARACTER, KINDS
from oriflamme.engine.errors import SetupError
from oriflamme.engine.game import Game
from oriflamme.tournament.games import deal
from oriflamme.tournament.record import open_record

Array = npt.NDArray[np.float64]
#: Ridge penalty on the per-kind and per-card weights (not on the IP and the projection's terms).
RIDGE = 1e-3
#: Every this-many-th game is held out to judge the fit.
HOLD_OUT = 5


def features(g: Game) -> Array:
    """Per seat, the features of ``g`` (rows), in the order of ``FITTED_WEIGHTS``' tables."""
    ctx = Context(g, 0)
    out = np.zeros((g.players, FEATURES))
    kind, up, ip, ctrl = g.kind, g.up, g.ip, g.ctrl
    out[:, 0] = g.score
    for j, c in enumerate(g.queue):
        k = kind[c]
        x = ctrl[c]
        out[x, CARDS] += 1
        if up[c]:
            if IS_CHARACTER[k]:
                n = ctx.acts(j)
                out[x, 1] += ctx.char_act(k, j, x) * n + ip[c]
                out[x, REVEALED + k] += n
        else:
            out[x, 2] += ctx.hidden_worth(k, ip[c])
            out[x, HIDDEN + k] += 1
            out[x, HIDDEN_IP] += ip[c]
    rounds = ctx.left + 1
    for s, kept in enumerate(g.kept):
        for c in kept:
            if kind[c] == AGREEMENT:
                out[s, 4] += ip[c] * rounds
    for s, hand in enumerate(g.hands):
        if hand:
            plays = plays_left(g, ctx, s)
            out[s, 3] += best_of_hand(g, ctx, s, plays)
            for c in hand:
                out[s, HAND + kind[c]] += plays / len(hand)
    return out


def collect(paths: list[Path]) -> dict[str, tuple[Array, Array, Array, Array]]:
    """Per box: features (samples x seats x features), win shares, rounds left and game numbers.

    A game numbered after one with no round start to sample (over in its
    first round) takes the same number; a game is never split.
    """
    rows: dict[str, tuple[list[Array], list[list[float]], list[int], list[int]]] = {}
    for path in paths:
        reader = open_record(path)
        config = reader.config
        for record in reader.games(check_replay=False):
            if not record.has_actions:
                raise SetupError(f"{path}: game {record.index} keeps no actions to replay")
            g = deal(config, record.index)
            boxes = {KINDS[k].box for k in g.recipe}
            box = boxes.pop() if len(boxes) == 1 else "mixed"
            seen = g.round
            starts: list[tuple[int, Array]] = []
            for action in record.actions:
                if g.round != seen:
                    seen = g.round
                    if g.round >= 2:
                        starts.append((g.rules.rounds - g.round + 1, features(g)))
                g.apply(action)
            shares = g.returns()
            x, y, left, games = rows.setdefault(box, ([], [], [], []))
            # Games are numbered per box, in the order read: every HOLD_OUT-th is held out.
            game = games[-1] + 1 if games else 0
            for r, f in starts:
                x.append(f)
                y.append(shares)
                left.append(r)
                games.append(game)
    return {
        box: (np.array(x), np.array(y), np.array(left, dtype=float), np.array(games))
        for box, (x, y, left, games) in rows.items()
        if x
    }


def log_likelihood(z: Array, y: Array, w: Array) -> float:
    """Mean log-likelihood of the winners' shares under utilities ``z @ w``."""
    u = z @ w
    u = u - u.max(axis=1, keepdims=True)
    logp = u - np.log(np.exp(u).sum(axis=1, keepdims=True))
    return float((y * logp).sum() / len(z))


def newton(z: Array, y: Array, ridge: Array, steps: int = 50) -> Array:
    """The weights that maximize the penalized log-likelihood (convex: Newton's method converges)."""
    w = np.zeros(z.shape[2])
    n = len(z)
    for _ in range(steps):
        u = z @ w
        u = u - u.max(axis=1, keepdims=True)
        p = np.exp(u)
        p /= p.sum(axis=1, keepdims=True)
        mass = y.sum(axis=1)
        grad = np.einsum("ns,nsd->d", y - p * mass[:, None], z) / n - 2 * ridge * w
        mean = np.einsum("ns,nsd->nd", p, z)
        hess = (
            np.einsum("n,ns,nsd,nse->de", mass, p, z, z) - np.einsum("n,nd,ne->de", mass, mean, mean)
        ) / n + 2 * np.diag(ridge)
        step = np.linalg.solve(hess + 1e-9 * np.eye(len(w)), grad)
        w = w + step
        if np.abs(step).max() < 1e-9:
            break
    return w


def fit(x: Array, y: Array, left: Array, games: Array) -> dict[str, Any]:
    """The fitted weights (in IP) of one box, and both projections' held-out log-likelihoods."""
    held = games % HOLD_OUT == 0
    z = x / left[:, None, None]
    used = np.abs(z).sum(axis=(0, 1)) > 0
    ridge = np.where(np.arange(x.shape[2]) < REVEALED, 0.0, RIDGE)[used]
    w = np.zeros(x.shape[2])
    w[used] = newton(z[~held][:, :, used], y[~held], ridge)
    hand_made = np.zeros(x.shape[2])
    hand_made[[0, 1, 2, 3, 4]] = [1.0, 1.0, 1.0, HAND_WEIGHT, 1.0]
    scale = newton((z @ hand_made)[~held][:, :, None], y[~held], np.zeros(1))[0]
    return {
        "samples": len(x),
        "held_out": int(held.sum()),
        "projection": {
            "temperature_per_round": 1.0 / scale,
            "held_out_log_likelihood": log_likelihood(z[held], y[held], hand_made * scale),
        },
        "fitted": {
            "temperature_per_round": 1.0 / w[0],
            "held_out_log_likelihood": log_likelihood(z[held], y[held], w),
            "weights": [round(float(v), 3) for v in w / w[0]],
        },
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("records", nargs="+", type=Path, help="tournament records (.jsonl or .jsonl.gz)")
    out = parser.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print the fits as JSON")
    out.add_argument("--python", action="store_true", help="print the weights as the FITTED_WEIGHTS literal")
    args = parser.parse_args(argv)
    try:
        fits = {box: fit(*data) for box, data in sorted(collect(args.records).items()) if box != "mixed"}
    except SetupError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(fits, indent=2))
    elif args.python:
        print("{")
        for box, result in fits.items():
            print(f'    "{box}": ({", ".join(repr(v) for v in result["fitted"]["weights"])}),')
        print("}")
    else:
        for box, result in fits.items():
            hand, fitted = result["projection"], result["fitted"]
            print(
                f"{box}: {result['samples']} positions ({result['held_out']} held out); held-out log-likelihood "
                f"{hand['held_out_log_likelihood']:.4f} hand-made (temperature {hand['temperature_per_round']:.2f} "
                f"IP per round left), {fitted['held_out_log_likelihood']:.4f} fitted "
                f"({fitted['temperature_per_round']:.2f})"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
