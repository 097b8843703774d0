"""The server's health and metrics: what a proxy, an orchestrator and a dashboard ask of it.

``/healthz`` answers while the process runs; ``/readyz`` only once the store
is open and the tables are loaded, and no longer while shutting down (a proxy
stops sending players to it). ``/metrics`` is in the Prometheus text format
(``prometheus_client``), one registry per app, so tests and several apps in
one process do not mix their counts.

Under ``serve --workers N`` any worker may answer a scrape, so each answer has
to speak for all of them: ``serve`` gives the workers a fresh directory
(``PROMETHEUS_MULTIPROC_DIR``, prometheus_client's multi-process mode) where
each keeps its counters, histograms and gauges, and ``/metrics`` adds up what
the directory holds. Counters count every worker's events since the server
started (a worker that stopped still counts); gauges are the sum over the
workers alive, and each worker's own figure is there too
(``oriflamme_worker_*``, labelled by process id). A worker writes its gauges
every :data:`PUBLISH_SECONDS` and when it answers a scrape.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import tempfile
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from prometheus_client.multiprocess import MultiProcessCollector, mark_process_dead

#: Histogram buckets of the broadcast latency, in seconds: the target is a p95 under 50 ms.
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)

CONTENT_TYPE = CONTENT_TYPE_LATEST

#: The environment variable that puts prometheus_client in multi-process mode: the directory the
#: workers of one server share (``serve --workers N`` makes it, fresh, and removes it).
MULTIPROCESS_DIR = "PROMETHEUS_MULTIPROC_DIR"
#: Seconds between a worker's writes of its gauges to that directory: how old another worker's
#: figures may be in a scrape.
PUBLISH_SECONDS = 1.0


class ServerMetrics:
    """The figures of one server process, read when scraped (with those of its sibling workers, if any)."""

    def __init__(
        self,
        *,
        tables: Callable[[], int],
        connections: Callable[[], int],
        bots_thinking: Callable[[], int],
        tables_owned: Callable[[], int] | None = None,
    ) -> None:
        self.registry = CollectorRegistry()
        #: Where the workers of this server keep their figures; None for a server of one process.
        self.shared_dir: str | None = os.environ.get(MULTIPROCESS_DIR) or None
        #: Each gauge's reading and the gauges that show it (multi-process mode: the sum and this worker's).
        self._gauges: list[tuple[Callable[[], int], list[Gauge]]] = []
        self._gauge("oriflamme_tables_live", "Tables held in memory (being played or watched)", tables)
        self._gauge(
            "oriflamme_tables_owned",
            "Live tables this process plays (holds the lease of); the others it follows for its clients",
            tables_owned or tables,
        )
        self._gauge("oriflamme_connections", "Open game sockets", connections)
        self._gauge("oriflamme_bots_thinking", "Bot moves being computed", bots_thinking)
        self.actions = Counter("oriflamme_actions", "Actions stored and broadcast", registry=self.registry)
        self.broadcast = Histogram(
            "oriflamme_broadcast_seconds",
            "Seconds from receiving an action (or a bot choosing it) to broadcasting it",
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.refused = Counter(
            "oriflamme_refused",
            "Requests refused by a limit (see oriflamme.web.guard)",
            ["limit"],
            registry=self.registry,
        )

    def _gauge(self, name: str, documentation: str, read: Callable[[], int]) -> None:
        """A gauge read when scraped; with several workers, their sum and, per worker, its own figure."""
        if self.shared_dir is None:
            Gauge(name, documentation, registry=self.registry).set_function(lambda: float(read()))
            return
        # Another worker cannot call this one's functions: the figures are written to the directory.
        total = Gauge(
            name, f"{documentation}, all workers", registry=self.registry, multiprocess_mode="livesum"
        )
        own = Gauge(
            name.replace("oriflamme_", "oriflamme_worker_", 1),
            f"{documentation}, per worker (by process id)",
            registry=self.registry,
            multiprocess_mode="liveall",
        )
        self._gauges.append((read, [total, own]))

    def action_broadcast(self, state: int, seconds: float) -> None:
        """Called by every table after it broadcast an action."""
        self.actions.inc()
        self.broadcast.observe(seconds)

    def publish(self) -> None:
        """Write this worker's gauges where every worker's ``/metrics`` reads them (multi-process mode)."""
        for read, gauges in self._gauges:
            value = float(read())
            for gauge in gauges:
                gauge.set(value)

    async def publish_forever(self) -> None:
        """Keep this worker's gauges fresh for the others' scrapes (returns at once with one process)."""
        while self.shared_dir is not None:
            self.publish()
            await asyncio.sleep(PUBLISH_SECONDS)

    def forget(self) -> None:
        """Take this worker's gauges out of the sums: it is stopping (its counters keep counting)."""
        if self.shared_dir is not None:
            mark_process_dead(os.getpid(), self.shared_dir)  # type: ignore[no-untyped-call]

    def render(self) -> bytes:
        if self.shared_dir is None:
            return generate_latest(self.registry)
        self.publish()
        forget_dead_workers(self.shared_dir)
        # A registry of its own per scrape, as prometheus_client's multi-process mode asks.
        every_worker = CollectorRegistry()
        MultiProcessCollector(every_worker, path=self.shared_dir)  # type: ignore[no-untyped-call]
        return generate_latest(every_worker)


def forget_dead_workers(directory: str) -> None:
    """Take the gauges of workers that died without stopping (killed) out of the sums.

    A worker that stops forgets its own (:meth:`ServerMetrics.forget`); one killed
    leaves its files, named by its process id, behind. Windows is left out: there
    ``os.kill`` would end the process it asks about.
    """
    if os.name != "posix":
        return
    pids = {path.stem.rpartition("_")[2] for path in Path(directory).glob("gauge_live*_*.db")}
    for pid in sorted(int(pid) for pid in pids if pid.isdigit()):
        if not _alive(pid):
            # Another worker answering a scrape at the same moment may have removed them first.
            with contextlib.suppress(FileNotFoundError):
                mark_process_dead(pid, directory)  # type: ignore[no-untyped-call]


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # somebody else's process by that id
        return True
    return True


@contextlib.contextmanager
def shared_directory() -> Iterator[str]:
    """A fresh directory for the metrics of ``serve --workers N``'s processes, removed when they stop.

    Set in the environment, which the workers inherit before they import prometheus_client (its
    mode is chosen at import). Fresh, because every file in it is added up: an earlier server's
    counts would be added to this one's.
    """
    directory = tempfile.mkdtemp(prefix="oriflamme-metrics-")
    before = os.environ.get(MULTIPROCESS_DIR)
    os.environ[MULTIPROCESS_DIR] = directory
    try:
        yield directory
    finally:
        if before is None:
            os.environ.pop(MULTIPROCESS_DIR, None)
        else:
            os.environ[MULTIPROCESS_DIR] = before
        shutil.rmtree(directory, ignore_errors=True)


def publish_while_serving(app: Any) -> None:
    """Keep ``app``'s gauges written for its sibling workers from its start to its stop.

    Wraps the app's lifespan (a Starlette router's): after the app's own start, a task writes
    its gauges every :data:`PUBLISH_SECONDS`; at its stop, they leave the sums.
    """
    metrics: ServerMetrics = app.state.metrics
    serving = app.router.lifespan_context

    @contextlib.asynccontextmanager
    async def lifespan(app: Any) -> AsyncIterator[None]:
        async with serving(app):
            publishing = asyncio.create_task(metrics.publish_forever(), name="oriflamme-metrics")
            try:
                yield
            finally:
                publishing.cancel()
                metrics.forget()

    app.router.lifespan_context = lifespan
