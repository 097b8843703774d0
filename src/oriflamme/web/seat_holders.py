"""The accounts holding a table's person seats, as ratings and mail read them."""

from __future__ import annotations

from dataclasses import dataclass

from .store import Storage

__all__ = ["SeatHolder", "seat_holders"]


@dataclass(frozen=True, slots=True)
class SeatHolder:
    """A person's seat held by a live account (not deleted, not suspended), as ratings and mail need it."""

    seat: int
    account: str
    name: str
    #: Where its mail goes, if it wants mail there; and its unsubscribe token.
    mail_to: str | None
    mail_token: str | None
    #: Claimed after the seat had decided something: it does not make the game rated.
    late: bool = False
    #: Forgotten from "My games" by its holder: still theirs (rated), but no mail about it.
    hidden: bool = False


async def seat_holders(store: Storage, table_id: str) -> list[SeatHolder]:
    """The accounts holding the person seats of a table (a deleted or suspended one holds none)."""
    rows = await store.run_statements(
        [
            (
                "SELECT t.seat, a.id, a.name, a.email, a.mail_wanted, a.mail_token, t.late, t.hidden "
                "FROM account_tokens t "
                "JOIN accounts a ON a.id = t.account_id WHERE t.table_id = ? AND t.role = 'person' "
                "AND a.deleted IS NULL AND a.suspended IS NULL",
                (table_id,),
            )
        ]
    )
    return [
        SeatHolder(seat, account, name, email if wanted else None, token, bool(late), bool(hidden))
        for seat, account, name, email, wanted, token, late, hidden in rows
    ]
