"""The server's health and metrics: what a proxy, an orchestrator and a dashboard ask of it.

``/healthz`` answers while the process runs; ``/readyz`` only once the store
is open and the tables are loaded, and no longer while shutting down (a proxy
stops sending players to it). ``/metrics`` is in the Prometheus text format
(``prometheus_client``), one registry per app, so tests and several apps in
one process do not mix their counts.
"""

from __future__ import annotations

from collections.abc import Callable

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST

#: Histogram buckets of the broadcast latency, in seconds: the target is a p95 under 50 ms.
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)

CONTENT_TYPE = CONTENT_TYPE_LATEST


class ServerMetrics:
    """The figures of one server process, read when scraped."""

    def __init__(
        self,
        *,
        tables: Callable[[], int],
        connections: Callable[[], int],
        bots_thinking: Callable[[], int],
        tables_owned: Callable[[], int] | None = None,
    ) -> None:
        self.registry = CollectorRegistry()
        Gauge(
            "oriflamme_tables_live", "Tables held in memory (being played or watched)", registry=self.registry
        ).set_function(lambda: float(tables()))
        owned = tables_owned or tables
        Gauge(
            "oriflamme_tables_owned",
            "Live tables this process plays (holds the lease of); the others it follows for its clients",
            registry=self.registry,
        ).set_function(lambda: float(owned()))
        Gauge("oriflamme_connections", "Open game sockets", registry=self.registry).set_function(
            lambda: float(connections())
        )
        Gauge("oriflamme_bots_thinking", "Bot moves being computed", registry=self.registry).set_function(
            lambda: float(bots_thinking())
        )
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

    def action_broadcast(self, state: int, seconds: float) -> None:
        """Called by every table after it broadcast an action."""
        self.actions.inc()
        self.broadcast.observe(seconds)

    def render(self) -> bytes:
        return generate_latest(self.registry)
