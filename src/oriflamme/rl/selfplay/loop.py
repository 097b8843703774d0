"""A self-play run in a directory: train, checkpoint, evaluate, keep the best, go on after a stop.

The directory holds ``checkpoint.npz`` (:mod:`.checkpoint`), ``log.jsonl``
(one line per iteration and per evaluation) and the networks in the ``net``
bot's format (float16, what the ``zero`` bot plays): ``latest.npz`` at each
evaluation, ``best.npz``, the one that did best, and, if asked for,
``snapshots/itN.npz`` every so many iterations, for measuring a run's networks
afterwards when it cannot afford its gauntlet. Starting a run in a directory
with a checkpoint takes it up where it stopped.

Evaluation is handed in (``evaluate``): this package trains on the vector
engine and knows nothing of tournaments; ``oriflamme selfplay`` plays the
gauntlet (:mod:`oriflamme.tournament.gauntlet`) through the tournament runner.
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jax

from ...bots.net.model import load as load_network
from ...bots.net.model import save as save_network
from ...files import write_whole
from ..train import to_network
from .checkpoint import CheckpointError, read_config, restore, save
from .config import SelfPlayConfig
from .learner import Learner, TrainingState, UpdateStats

__all__ = ["Best", "Evaluate", "Progress", "Run", "kept_best", "open_run"]


@dataclasses.dataclass(frozen=True)
class Best:
    """The best network so far: its file, and the evaluation that made it the best (as logged).

    The record is what lets an evaluation compare a new network with the best
    one on the gauntlet's figures; it is None where the log has lost it (see
    :func:`kept_best`).
    """

    path: Path
    record: dict[str, Any] | None


#: ``evaluate(network, best)``: plays the network file against the gauntlet (and the best so far,
#: if any); returns what to log and whether the network is the new best.
Evaluate = Callable[[Path, Best | None], tuple[dict[str, Any], bool]]


@dataclasses.dataclass(frozen=True)
class Progress:
    """What the run reports after each iteration."""

    iteration: int
    stats: UpdateStats
    setup: str
    #: Environment steps and finished games per second of this iteration (its update included).
    steps_per_s: float
    games_per_s: float
    #: The evaluation done after this iteration, if any (as logged).
    evaluation: dict[str, Any] | None


class Run:
    """A run's directory, its configuration and its state; :meth:`train` goes on with it."""

    def __init__(
        self, directory: Path, config: SelfPlayConfig, state: TrainingState, learner: Learner
    ) -> None:
        self.directory = directory
        self.config = config
        self.state = state
        self.learner = learner

    @property
    def checkpoint(self) -> Path:
        return self.directory / "checkpoint.npz"

    @property
    def best(self) -> Path:
        return self.directory / "best.npz"

    def snapshot(self, iteration: int) -> Path:
        """Where the network of ``iteration`` is kept when the run takes snapshots."""
        return self.directory / "snapshots" / f"it{iteration}.npz"

    def save(self) -> None:
        save(self.state, self.config, self.checkpoint)

    def write_network(self, path: Path) -> None:
        """The current weights as a ``zero`` bot's file (the training's settings in its metadata)."""
        meta = {
            "trained": {
                "method": "self-play PPO on the vector engine (oriflamme selfplay)",
                "config": self.config.to_dict(),
                "iteration": self.state.iteration,
                "steps": self.state.steps,
                "games": self.state.finished,
                "jax": jax.__version__,
            }
        }
        network = to_network(self.state.params, meta)
        write_whole(path, lambda tmp: save_network(network, tmp))

    def log(self, record: dict[str, Any]) -> None:
        with (self.directory / "log.jsonl").open("a", encoding="utf-8") as out:
            out.write(json.dumps(record, sort_keys=True) + "\n")

    def train(
        self,
        until: int,
        *,
        evaluate: Evaluate | None = None,
        evaluate_every: int = 50,
        checkpoint_every: int = 10,
        snapshot_every: int | None = None,
        report: Callable[[Progress], None] | None = None,
    ) -> None:
        """Train until iteration ``until``; on Ctrl-C the last finished iteration is saved, then re-raised.

        With ``snapshot_every``, the network of every such iteration is also
        written to :meth:`snapshot` (a run killed between checkpoints writes
        the ones it does again again, with the same weights).
        """
        try:
            while self.state.iteration < until:
                self._one(until, evaluate, evaluate_every, checkpoint_every, snapshot_every, report)
        except KeyboardInterrupt:
            self.save()
            raise
        self.save()

    def _one(
        self,
        until: int,
        evaluate: Evaluate | None,
        evaluate_every: int,
        checkpoint_every: int,
        snapshot_every: int | None,
        report: Callable[[Progress], None] | None,
    ) -> None:
        started = time.perf_counter()
        setup = str(self.config.setups[self.learner.setup_of(self.state.iteration + 1)])
        self.state, stats = self.learner.advance(self.state)
        seconds = time.perf_counter() - started
        i = self.state.iteration
        self.log(
            {
                "iteration": i,
                "setup": setup,
                "loss": stats.loss,
                "counted": stats.counted,
                "finished": stats.finished,
                "value_mse": stats.value_mse,
                "entropy": stats.entropy,
                **({"anchor_kl": stats.anchor_kl} if self.config.anchor is not None else {}),
                "seconds": seconds,
                "steps": self.state.steps,
                "games": self.state.finished,
            }
        )
        if i % checkpoint_every == 0:
            self.save()
        if snapshot_every is not None and i % snapshot_every == 0:
            snapshot = self.snapshot(i)
            snapshot.parent.mkdir(exist_ok=True)
            self.write_network(snapshot)
        evaluation = None
        if evaluate is not None and (i % evaluate_every == 0 or i == until):
            evaluation = self._evaluate(evaluate)
        if report is not None:
            steps = self.config.batch * self.config.horizon
            report(Progress(i, stats, setup, steps / seconds, stats.finished / seconds, evaluation))

    def _evaluate(self, evaluate: Evaluate) -> dict[str, Any]:
        latest = self.directory / "latest.npz"
        self.write_network(latest)
        record, is_best = evaluate(latest, kept_best(self.directory))
        record = {"evaluation": self.state.iteration, **record, "best": is_best}
        if is_best:
            self.write_network(self.best)
        self.log(record)
        return record


def kept_best(directory: Path) -> Best | None:
    """The run's ``best.npz`` and the logged evaluation that made it the best, if the log has it.

    The record is looked up by the iteration the file says it was written at,
    not taken as the last one marked best: a run killed after writing
    ``best.npz`` and before its next checkpoint drops that evaluation's line
    when it resumes (the iterations after the checkpoint are done again), and
    an older line would then describe another network.
    """
    path = directory / "best.npz"
    if not path.exists():
        return None
    iteration = load_network(path).meta.get("trained", {}).get("iteration")
    log = directory / "log.jsonl"
    found = None
    for line in log.read_text(encoding="utf-8").splitlines() if log.exists() else []:
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(record, dict) and record.get("evaluation") == iteration and record.get("best") is True:
            found = record
    return Best(path, found)


def open_run(directory: Path, config: SelfPlayConfig | None) -> Run:
    """The run in ``directory``: taken up from its checkpoint if it has one, else started with
    ``config``. A checkpoint of another configuration than ``config`` (when given) is refused."""
    directory.mkdir(parents=True, exist_ok=True)
    checkpoint = directory / "checkpoint.npz"
    if checkpoint.exists():
        saved = read_config(checkpoint)
        if config is not None and config != saved:
            raise CheckpointError(
                f"{checkpoint}: this run was started with other settings; give no settings to resume it, "
                "or use another directory"
            )
        learner = Learner(saved)
        state = restore(learner, checkpoint)
        _trim_log(directory / "log.jsonl", state.iteration)
        return Run(directory, saved, state, learner)
    if config is None:
        config = SelfPlayConfig()
    _trim_log(directory / "log.jsonl", 0)  # what a run killed before its first checkpoint logged
    learner = Learner(config)
    return Run(directory, config, learner.start(), learner)


def _trim_log(log: Path, iteration: int) -> None:
    """Drop the log's records of iterations after the checkpoint's ``iteration`` (and a line a stop
    cut short): a run killed between checkpoints does those iterations again, and logs them once."""
    if not log.exists():
        return
    kept: list[str] = []
    lines = log.read_text(encoding="utf-8").splitlines()
    for line in lines:
        try:
            record = json.loads(line)
            at = record.get("iteration", record.get("evaluation"))
        except (json.JSONDecodeError, AttributeError):
            continue
        if isinstance(at, int) and at <= iteration:
            kept.append(line)
    if kept != lines:
        write_whole(log, lambda tmp: tmp.write_text("".join(f"{line}\n" for line in kept), encoding="utf-8"))
