"""``oriflamme admin``: what a server's administrator does to accounts, on its database.

Works on the database a server uses (``--db``, as ``oriflamme serve`` takes it: an SQLite file or
a ``postgresql://`` URL), whether or not the server runs; each change is one transaction, and a
suspension or a deletion ends the account's sessions at once.
"""

from __future__ import annotations

import asyncio
import datetime
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer

from ..commandline import fail, needs_extra

T = TypeVar("T")

admin_app = typer.Typer(
    help="Manage a server's accounts and seasons: list, rename, suspend, unsuspend, delete, new-season.",
    no_args_is_help=True,
)

DbOption = Annotated[
    str | None,
    typer.Option(
        "--db", metavar="PATH|URL", help="The server's database (default: the one `oriflamme serve` uses)."
    ),
]


def _run(db: str | None, work: Callable[[Any], Awaitable[T]]) -> T:
    """Open the database's accounts, do ``work`` with them, close; a refusal stops the command with why."""
    needs_extra("web", "admin")
    from .accounts import AccountError, Accounts
    from .app import _store
    from .serve import default_db
    from .store_errors import StorageError

    where = db if db is not None else str(default_db())
    if not where.startswith(("postgresql://", "postgres://")) and not Path(where).is_file():
        # Opening would make a new, empty database there: a mistyped path must not look like a
        # server without accounts.
        raise fail(f"no database at {where}: give --db the database the server uses")

    async def go() -> T:
        store = _store(where)
        await store.open()
        try:
            return await work(Accounts(store))
        finally:
            await store.close()

    try:
        return asyncio.run(go())
    except AccountError as exc:
        raise fail(exc.message) from None
    except StorageError as exc:
        raise fail(f"the database cannot be used: {exc}") from None


def _when(seconds: float) -> str:
    return datetime.datetime.fromtimestamp(seconds, tz=datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")


@admin_app.command("list")
def list_accounts(db: DbOption = None) -> None:
    """Every account, with when it was made and whether it is suspended."""
    for name, created, suspended in _run(db, lambda accounts: accounts.listed()):
        mark = f"  suspended since {_when(suspended)}" if suspended is not None else ""
        typer.echo(f"{name}  (since {_when(created)}){mark}")


@admin_app.command("rename")
def rename(
    name: Annotated[str, typer.Argument(help="The account's name now.")],
    new: Annotated[str, typer.Argument(help="Its new name.")],
    db: DbOption = None,
) -> None:
    """Give an account a new name (checked as a registration's: unique up to lookalikes)."""
    shown = _run(db, lambda accounts: accounts.rename(name, new))
    typer.echo(f"{name} is now {shown}")


@admin_app.command("suspend")
def suspend(name: Annotated[str, typer.Argument(help="The account's name.")], db: DbOption = None) -> None:
    """Suspend an account: its sessions end, it cannot log in, and it leaves the ladders."""
    _run(db, lambda accounts: accounts.suspend(name, True))
    typer.echo(f"{name} is suspended")


@admin_app.command("unsuspend")
def unsuspend(name: Annotated[str, typer.Argument(help="The account's name.")], db: DbOption = None) -> None:
    """Lift an account's suspension."""
    _run(db, lambda accounts: accounts.suspend(name, False))
    typer.echo(f"{name} may log in again")


@admin_app.command("new-season")
def new_season(
    db: DbOption = None,
    yes: Annotated[bool, typer.Option("--yes", help="Do not ask to confirm.")] = False,
) -> None:
    """Begin a new season: the ladders start afresh; earlier seasons' standings stay readable."""
    if not yes and not typer.confirm("Begin a new season (the ladders start afresh)?"):
        raise typer.Exit(1)

    async def begin(accounts: Any) -> int:
        from .ratings import Ratings

        number: int = await Ratings(accounts.store).new_season()
        return number

    number = _run(db, begin)
    typer.echo(f"season {number} begins; earlier standings stay at /api/ratings/LADDER?season=N")


@admin_app.command("delete")
def delete(
    name: Annotated[str, typer.Argument(help="The account's name.")],
    db: DbOption = None,
    yes: Annotated[bool, typer.Option("--yes", help="Do not ask to confirm.")] = False,
) -> None:
    """Delete an account: its name, password, sessions, links and ratings are erased; its games stay."""
    if not yes and not typer.confirm(f"Erase the account {name!r}?"):
        raise typer.Exit(1)

    async def erase(accounts: Any) -> None:
        account_id, _, _, _ = await accounts.find(name)
        await accounts.erase(account_id)

    _run(db, erase)
    typer.echo(f"{name} is deleted")
