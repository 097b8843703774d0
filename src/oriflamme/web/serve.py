"""``oriflamme serve``: run the web server with uvicorn, the database under the user's data directory."""

from __future__ import annotations

import contextlib
import dataclasses
import errno
import gc
import json
import logging
import math
import os
import socket
import threading
import webbrowser
from pathlib import Path
from typing import Annotated, Any

import typer

from ..commandline import CardsOption, fail, load_cards, needs_extra
from .guard import ServerLimits
from .mail import MailSettings
from .sqlite_store import sqlite_file_problem

_LIMITS = ServerLimits()
#: The option of each limit, for messages about it.
_LIMIT_OPTIONS = {
    "tables per address": "--limit-tables",
    "connects per address": "--limit-connects",
    "open connections per address": "--limit-connections",
    "connections per table": "--limit-table-connections",
    "analyses per address": "--limit-analyses",
    "reads per address": "--limit-reads",
    "logins per address": "--limit-logins",
    "accounts per address": "--limit-accounts",
    "allowed origin": "--allowed-origin",
}
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
#: Largest WebSocket frame uvicorn reads at all (a larger one closes the connection). Frames up to
#: this size reach the app, which answers anything over the protocol's 2 KiB limit with an error.
WS_MAX_SIZE = 1024 * 1024


def is_database_url(text: str) -> bool:
    """Whether ``--db`` names a PostgreSQL database rather than an SQLite file."""
    return text.startswith(("postgresql://", "postgres://"))


def redact_url(url: str) -> str:
    """A database URL without its password, for printing."""
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc))


def default_db() -> Path:
    """``games.sqlite3`` in the platform's per-user data directory (e.g. ~/.local/share/oriflamme)."""
    from platformdirs import user_data_path

    return user_data_path("oriflamme", appauthor=False) / "games.sqlite3"


def check_can_listen(host: str, port: int) -> None:
    """Refuse at once, in one line, an address this machine cannot listen on (a port in use, say)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except OSError as exc:
        raise fail(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            reason = "the port is in use" if exc.errno == errno.EADDRINUSE else exc.strerror or str(exc)
            raise fail(f"cannot listen on {host}:{port}: {reason}") from None


#: The environment variable through which ``serve --workers N`` hands its settings to each worker.
WORKER_SETTINGS = "ORIFLAMME_SERVE_SETTINGS"


def build_app(settings: dict[str, Any]) -> Any:
    """The app of one server process, from the settings ``serve`` checked (JSON-ready, for workers)."""
    from .app import create_app
    from .bot_runners import BotRunner, ExecutorBotRunner, InlineBotRunner, SplitBotRunner

    bot_workers = int(settings["bot_workers"])
    kind = settings["bot_runner"]
    runner: BotRunner = (
        InlineBotRunner()
        if bot_workers <= 0 or kind == "threads"
        else ExecutorBotRunner(workers=bot_workers)
        if kind == "processes"
        else SplitBotRunner(workers=bot_workers)
    )
    limits = dict(settings["limits"])
    if limits.get("allowed_origins") is not None:
        limits["allowed_origins"] = tuple(limits["allowed_origins"])
    mail = settings.get("mail")
    return create_app(
        settings["db"],
        mail=None if mail is None else MailSettings(**mail),
        bot_runner=runner,
        bot_delay=float(settings["bot_delay"]),
        limits=ServerLimits(**limits),
        idle_seconds=settings["idle_seconds"],
        lease_seconds=float(settings.get("lease_seconds", 3.0)),
        parallel_bots=bool(settings.get("parallel_bots", False)),
    )


def _mail_settings(
    smtp: str | None, sender: str | None, public_url: str | None, user: str | None, starttls: bool, port: int
) -> dict[str, Any] | None:
    """The mail settings ``serve`` was given, checked (None: no mail)."""
    if smtp is None:
        if sender or public_url or user:
            raise fail("--mail-from, --public-url and --smtp-user go with --smtp HOST:PORT")
        return None
    host, _, number = smtp.rpartition(":")
    if not host or not number.isdigit() or not 1 <= int(number) <= 65535:
        raise fail(f"--smtp must be HOST:PORT, got {smtp!r}")
    if not sender or "@" not in sender:
        raise fail("--smtp needs --mail-from ADDRESS (who the mail is from)")
    url = (public_url or f"http://127.0.0.1:{port}").rstrip("/")
    if not url.startswith(("http://", "https://")):
        raise fail(f"--public-url must start with http:// or https://, got {public_url!r}")
    password = os.environ.get("ORIFLAMME_SMTP_PASSWORD") if user else None
    return dataclasses.asdict(
        MailSettings(host, int(number), sender, url, username=user, password=password, starttls=starttls)
    )


def worker_app() -> Any:
    """The app of one of ``serve --workers N``'s processes (uvicorn calls this in each of them)."""
    from .metrics import publish_while_serving

    process_setup()
    app = build_app(json.loads(os.environ[WORKER_SETTINGS]))
    # Any worker may answer a scrape: each keeps its figures where the others read them.
    publish_while_serving(app)
    return app


def process_setup() -> None:
    """Logging and garbage collection as a server process wants them."""
    logging.basicConfig(level=logging.INFO, format=f"%(levelname)s [{os.getpid()}] %(name)s: %(message)s")
    # Alembic tells every step of its own start-up; the store says in one line what it migrated.
    logging.getLogger("alembic").setLevel(logging.WARNING)
    # Hundreds of live tables make a large, long-lived heap: collect the young generation less
    # often so that full collections (which pause every table at once) stay rare.
    gc.set_threshold(20_000, 50, 100)
    raise_open_file_limit()


def raise_open_file_limit() -> None:
    """Let the process hold as many sockets as the system allows it: the usual soft limit (often
    1,024, sometimes 256) is far below what the players and spectators of hundreds of tables need,
    and a client holding sockets open should meet the server's own limits first, not this one."""
    try:
        import resource
    except ImportError:  # not on Windows
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY:
        hard = max(soft, 65_536) if soft != resource.RLIM_INFINITY else soft
    if soft != resource.RLIM_INFINITY and soft < hard:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def serve_command(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = DEFAULT_HOST,
    port: Annotated[int, typer.Option(help="Port to listen on.")] = DEFAULT_PORT,
    db: Annotated[
        str | None,
        typer.Option(
            metavar="FILE|URL",
            help="SQLite database file (default: games.sqlite3 in your user data directory), or a "
            "PostgreSQL database: postgresql://user@host/dbname (needs pip install 'oriflamme\\[postgres]').",
        ),
    ] = None,
    open_browser: Annotated[
        bool,
        typer.Option("--open", help="Open the page in your web browser once the server runs.", metavar=""),
    ] = False,
    bot_delay: Annotated[
        float, typer.Option(help="Seconds a bot waits at least before moving, so people can follow.")
    ] = 0.8,
    bot_workers: Annotated[
        int, typer.Option(help="Processes for search bots to think in (0: every bot on threads).")
    ] = 2,
    parallel_bots: Annotated[
        bool,
        typer.Option(
            "--parallel-bots",
            help="Offer the levels that search in several processes per move (ismcts:master, two cores).",
            metavar="",
        ),
    ] = False,
    bot_runner: Annotated[
        str,
        typer.Option(
            help="Where bots think: split (random and heuristic on threads, search bots in processes; "
            "the fastest measured), processes (every bot), threads (every bot).",
        ),
    ] = "split",
    allowed_origin: Annotated[
        list[str] | None,
        typer.Option(
            "--allowed-origin",
            metavar="URL",
            help="A site whose pages may open the game socket, e.g. https://oriflamme.example (repeatable; "
            "default: pages of the address the browser used).",
        ),
    ] = None,
    idle_hours: Annotated[
        float,
        typer.Option(
            metavar="HOURS",
            help="An unfinished table nobody has played for this long leaves memory and is not loaded at "
            "start; it comes back when someone opens it (0: keep every table).",
        ),
    ] = 24.0,
    forwarded_allow_ips: Annotated[
        str | None,
        typer.Option(
            metavar="IPS",
            help="Proxies whose X-Forwarded-For to trust, comma-separated ('*': any); default: "
            "127.0.0.1, or the FORWARDED_ALLOW_IPS environment variable.",
        ),
    ] = None,
    limit_tables: Annotated[
        str, typer.Option(metavar="RATE", help="Tables one client address may create, e.g. 20/minute.")
    ] = _LIMITS.tables_per_address,
    limit_connects: Annotated[
        str,
        typer.Option(metavar="RATE", help="Game sockets one client address may open, e.g. 120/minute."),
    ] = _LIMITS.connects_per_address,
    limit_connections: Annotated[
        int, typer.Option(metavar="N", help="Game sockets one client address may hold open at once.")
    ] = _LIMITS.open_connections_per_address,
    limit_table_connections: Annotated[
        int, typer.Option(metavar="N", help="Sockets (players and spectators) one table accepts at once.")
    ] = _LIMITS.connections_per_table,
    limit_analyses: Annotated[
        str,
        typer.Option(
            metavar="RATE", help="Hints and reviews one client address may ask for, e.g. 20/10 minutes."
        ),
    ] = _LIMITS.analyses_per_address,
    limit_reads: Annotated[
        str,
        typer.Option(
            metavar="RATE",
            help="Reads of open tables, replays, save files and lobby summaries one client address may "
            "make, e.g. 120/minute.",
        ),
    ] = _LIMITS.reads_per_address,
    limit_logins: Annotated[
        str,
        typer.Option(
            metavar="RATE",
            help="Log-in attempts one client address may make, right or wrong, e.g. 20/10 minutes.",
        ),
    ] = _LIMITS.logins_per_address,
    limit_accounts: Annotated[
        str, typer.Option(metavar="RATE", help="Accounts one client address may register, e.g. 10/hour.")
    ] = _LIMITS.accounts_per_address,
    request_timeout: Annotated[
        float,
        typer.Option(
            metavar="SECONDS",
            help="Seconds a client has to send a request (headers and body) before the connection is closed.",
        ),
    ] = 10.0,
    lease_seconds: Annotated[
        float,
        typer.Option(
            metavar="SECONDS",
            help="With PostgreSQL: how long a process's hold on a table outlives it; another process takes the "
            "tables of one that died after this (renewed four times as often).",
        ),
    ] = 3.0,
    workers: Annotated[
        int,
        typer.Option(
            metavar="N",
            help="Server processes sharing the port (needs a PostgreSQL --db; each has its own bot processes).",
        ),
    ] = 1,
    smtp: Annotated[
        str | None,
        typer.Option(
            metavar="HOST:PORT",
            help='Send players who ask for it "your turn" and "game over" mail through this SMTP server.',
        ),
    ] = None,
    mail_from: Annotated[
        str | None, typer.Option(metavar="ADDRESS", help="The From address of the mail (with --smtp).")
    ] = None,
    public_url: Annotated[
        str | None,
        typer.Option(metavar="URL", help="The server's address as players reach it, for the links in mail."),
    ] = None,
    smtp_user: Annotated[
        str | None, typer.Option(metavar="NAME", help="Log in to the SMTP server as NAME.")
    ] = None,
    smtp_starttls: Annotated[
        bool, typer.Option("--smtp-starttls", help="Use STARTTLS with the SMTP server.", metavar="")
    ] = False,
    cards: CardsOption = None,
) -> None:
    """Play in the browser: start the web server and say which address to open.

    With --smtp, the password of --smtp-user is read from the ORIFLAMME_SMTP_PASSWORD environment
    variable (never from the command line, which other users of the machine can read).
    """
    needs_extra("web", "serve")
    load_cards(cards)
    if not 1 <= port <= 65535:
        raise fail(f"--port must be 1 to 65535, got {port}")
    if bot_runner not in ("split", "processes", "threads"):
        raise fail(f"--bot-runner must be split, processes or threads, got {bot_runner!r}")
    if not math.isfinite(idle_hours) or idle_hours < 0:
        raise fail(f"--idle-hours must be a number of hours, 0 or more, got {idle_hours:g}")
    limits = ServerLimits(
        tables_per_address=limit_tables,
        connects_per_address=limit_connects,
        open_connections_per_address=limit_connections,
        connections_per_table=limit_table_connections,
        analyses_per_address=limit_analyses,
        reads_per_address=limit_reads,
        logins_per_address=limit_logins,
        accounts_per_address=limit_accounts,
        allowed_origins=tuple(allowed_origin) if allowed_origin else None,
    )
    try:
        limits.check()
    except ValueError as exc:
        message = str(exc)
        for setting, option in _LIMIT_OPTIONS.items():
            message = message.replace(setting, option, 1) if message.startswith(setting) else message
        raise fail(message) from None
    if not math.isfinite(request_timeout) or not 0.5 <= request_timeout <= 600:
        raise fail(f"--request-timeout must be 0.5 to 600 seconds, got {request_timeout:g}")
    if not math.isfinite(lease_seconds) or not 0.5 <= lease_seconds <= 600:
        raise fail(f"--lease-seconds must be 0.5 to 600, got {lease_seconds:g}")
    if not 1 <= workers <= 64:
        raise fail(f"--workers must be 1 to 64, got {workers}")
    if workers > 1 and (db is None or not is_database_url(db)):
        raise fail(
            f"--workers {workers} needs a PostgreSQL database (--db postgresql://user@host/dbname): "
            "an SQLite file is played by one process"
        )
    if db is not None and is_database_url(db):
        needs_extra("postgres", "serve --db postgresql://...")
    check_can_listen(host, port)
    import uvicorn

    from .metrics import shared_directory

    path: str | Path = db if db is not None else default_db()
    if not is_database_url(str(path)) and str(path) != ":memory:":
        problem = sqlite_file_problem(Path(path))
        if problem is not None:
            raise fail(problem)
    mail = _mail_settings(smtp, mail_from, public_url, smtp_user, smtp_starttls, port)
    settings: dict[str, Any] = {
        "mail": mail,
        "db": str(path),
        "bot_delay": max(0.0, bot_delay),
        "bot_workers": bot_workers,
        "bot_runner": bot_runner,
        "parallel_bots": parallel_bots,
        "limits": dataclasses.asdict(limits),
        "idle_seconds": idle_hours * 3600 if idle_hours else None,
        "lease_seconds": lease_seconds,
    }
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    url = f"http://{shown}:{port}"
    typer.echo(f"Games are stored in {redact_url(str(path)) if is_database_url(str(path)) else path}")
    typer.echo(f"Open {url} in your browser (Ctrl+C stops the server)")
    if open_browser:
        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    process_setup()
    from .http_protocol import REQUEST_TIMEOUT_VARIABLE, RequestTimeoutProtocol

    # Read by the protocol of this process and of every worker's, which inherit the environment.
    os.environ[REQUEST_TIMEOUT_VARIABLE] = str(request_timeout)

    if workers > 1:
        # Each worker builds its own app (and bot processes) from the same settings.
        os.environ[WORKER_SETTINGS] = json.dumps(settings)
        target: Any = "oriflamme.web.serve:worker_app"
    else:
        target = build_app(settings)
    # No per-message deflate: a state message is a few kilobytes, and compressing every frame for
    # every seat costs more server time than the bytes it saves.
    with shared_directory() if workers > 1 else contextlib.nullcontext():
        uvicorn.run(
            target,
            factory=workers > 1,
            workers=workers if workers > 1 else None,
            host=host,
            port=port,
            http=RequestTimeoutProtocol,
            ws_max_size=WS_MAX_SIZE,
            ws_per_message_deflate=False,
            log_level="warning",
            lifespan="on",
            proxy_headers=True,
            forwarded_allow_ips=forwarded_allow_ips,
        )
