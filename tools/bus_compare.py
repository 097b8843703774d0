"""Measure the two candidate message buses between server processes: PostgreSQL LISTEN/NOTIFY and Redis pub/sub.

What the server needs from a bus is this: when the process that owns a table
stores an action, every other process showing that table hears of it, in
order, soon. So both candidates are timed on that exact job: a publisher
process stores an action row in PostgreSQL and announces it, and a listener
process (subscribed to every table's channel) receives it.

- ``notify``: the row and ``pg_notify`` in one transaction (the announcement
  leaves only if the row is committed, in commit order);
- ``redis``: the row committed, then ``PUBLISH`` to Redis (two round trips to
  two services; an announcement can be lost if the publisher dies in between).

For each offered rate it prints the announcements per second delivered and the
latency from the start of the store to the receipt (p50, p95, p99, ms), then
the largest rate each sustains with the publishers sending as fast as they can.

    python tools/bus_compare.py --dsn postgresql://user@127.0.0.1:5432/db --redis redis://127.0.0.1:6379/0

Not run in CI: it needs both services, and its figures are for docs/server.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import statistics
import time
from typing import Any

TABLES = 200
PUBLISHERS = 8


def _channel(i: int) -> str:
    return f"t_bench{i:04d}"


async def _listen(kind: str, dsn: str, redis_url: str, expect: int, ready: Any, out: Any) -> None:
    latencies: list[float] = []
    first = last = 0.0
    if kind == "notify":
        import psycopg

        conn = await psycopg.AsyncConnection.connect(dsn, autocommit=True)
        for i in range(TABLES):
            await conn.execute(f'LISTEN "{_channel(i)}"')
        ready.set()
        async for note in conn.notifies():
            now = time.monotonic()
            latencies.append(now - json.loads(note.payload)["at"])
            first = first or now
            last = now
            if len(latencies) >= expect:
                break
        await conn.close()
    else:
        import redis.asyncio as redis

        client = redis.from_url(redis_url)
        pubsub = client.pubsub()
        await pubsub.subscribe(*[_channel(i) for i in range(TABLES)])
        ready.set()
        async for message in pubsub.listen():
            if message["type"] != "message":
                continue
            now = time.monotonic()
            latencies.append(now - json.loads(message["data"])["at"])
            first = first or now
            last = now
            if len(latencies) >= expect:
                break
        await pubsub.aclose()
        await client.aclose()
    out.put((latencies, first, last))


def _listener(kind: str, dsn: str, redis_url: str, expect: int, ready: Any, out: Any) -> None:
    asyncio.run(_listen(kind, dsn, redis_url, expect, ready, out))


async def _publish(kind: str, dsn: str, redis_url: str, count: int, rate: float | None) -> None:
    import psycopg

    conns = [await psycopg.AsyncConnection.connect(dsn) for _ in range(PUBLISHERS)]
    client: Any = None
    if kind == "redis":
        import redis.asyncio as redis

        client = redis.from_url(redis_url)
    start = time.monotonic()
    per = count // PUBLISHERS

    async def one(p: int) -> None:
        conn = conns[p]
        for n in range(per):
            index = p * per + n
            if rate is not None:
                due = start + index / rate
                delay = due - time.monotonic()
                if delay > 0:
                    await asyncio.sleep(delay)
            table = index % TABLES
            payload = json.dumps({"at": time.monotonic(), "i": index, "a": "place 3 at 2"})
            async with conn.transaction():
                await conn.execute(
                    "INSERT INTO bench_actions (table_id, idx, action) VALUES (%s, %s, %s)",
                    (table, index, "place 3 at 2"),
                )
                if kind == "notify":
                    await conn.execute("SELECT pg_notify(%s, %s)", (_channel(table), payload))
            if kind == "redis":
                await client.publish(_channel(table), payload)

    # Interleave the publishers' indices so the offered rate is spread evenly.
    await asyncio.gather(*(one(p) for p in range(PUBLISHERS)))
    for conn in conns:
        await conn.close()
    if client is not None:
        await client.aclose()


def _prepare(dsn: str) -> None:
    import psycopg

    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("DROP TABLE IF EXISTS bench_actions")
        conn.execute(
            "CREATE TABLE bench_actions (table_id INT, idx INT, action TEXT, PRIMARY KEY (table_id, idx))"
        )


def run(kind: str, dsn: str, redis_url: str, count: int, rate: float | None) -> dict[str, float]:
    _prepare(dsn)
    count -= count % PUBLISHERS
    ctx = multiprocessing.get_context("spawn")
    ready = ctx.Event()
    out = ctx.Queue()
    listener = ctx.Process(target=_listener, args=(kind, dsn, redis_url, count, ready, out))
    listener.start()
    ready.wait(30)
    started = time.monotonic()
    asyncio.run(_publish(kind, dsn, redis_url, count, rate))
    sent = time.monotonic() - started
    latencies, _first, last = out.get(timeout=120)
    listener.join()
    ms = sorted(x * 1000 for x in latencies)
    return {
        "delivered_per_s": len(ms) / max(last - started, 1e-9),
        "sent_per_s": count / sent,
        "p50": statistics.median(ms),
        "p95": ms[int(0.95 * (len(ms) - 1))],
        "p99": ms[int(0.99 * (len(ms) - 1))],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dsn", required=True, help="a PostgreSQL database to write a scratch table in")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/0")
    parser.add_argument("--rates", default="200,1000,2000", help="offered announcements per second")
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--repeat", type=int, default=2, help="alternating runs of each bus per rate")
    args = parser.parse_args()
    rates: list[float | None] = [float(r) for r in args.rates.split(",")] + [None]
    print(f"{'bus':7} {'offered/s':>9} {'sent/s':>8} {'got/s':>8} {'p50 ms':>7} {'p95 ms':>7} {'p99 ms':>7}")
    for rate in rates:
        count = int((rate or 3000) * args.seconds)
        for _ in range(args.repeat):
            for kind in ("notify", "redis"):
                r = run(kind, args.dsn, args.redis, count, rate)
                offered = "max" if rate is None else f"{rate:.0f}"
                print(
                    f"{kind:7} {offered:>9} {r['sent_per_s']:8.0f} {r['delivered_per_s']:8.0f} "
                    f"{r['p50']:7.2f} {r['p95']:7.2f} {r['p99']:7.2f}",
                    flush=True,
                )


if __name__ == "__main__":
    main()
