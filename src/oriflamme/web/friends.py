"""Friends, blocks and seats offered by name: what accounts keep about one another.

Each rule is about what one account may learn of another:

- a friends list is one direction (I add you); whether a friend is online shows only when both
  listed each other, so that nobody can watch a stranger's comings and goings;
- a block is never shown to the one blocked. Adding as a friend someone who blocked you answers
  as any success does, and the row is kept: it stays inert (a block removes the blocker's row,
  and an account cannot list someone it blocks), so it shows nothing either way;
- an invitation by name reaches its addressee only if the addressee does not block its sender;
  the sender is answered the same either way (the seat keeps its ordinary link);
- only the addressee reads, takes or declines an invitation: another account's request is
  answered as one for an invitation that does not exist.

Names are matched as at registration (:func:`~.accounts.account_key`), lookalikes too. An unknown
name, a deleted account's and a suspended one's get one answer, :data:`NO_PLAYER`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from .accounts import Account, AccountError, account_key
from .store import Statement, Storage

__all__ = ["NO_PLAYER", "Friend", "Invitation", "Social", "seats_not_hearing"]

#: Seen within this many seconds: online.
ONLINE_SECONDS = 5 * 60
#: The longest friends list, and the most accounts one account may block.
MAX_FRIENDS = 200
MAX_BLOCKS = 500
#: The most invitations an account's lobby lists at once.
MAX_INVITES = 50
#: The most invitations one account may have waiting for another: more are not made (and the
#: sender is answered alike), so that nobody can bury a player's real invitations under theirs.
MAX_INVITES_FROM_ONE = 5
#: The one answer to a name that designates no live account.
NO_PLAYER = "no player by that name"


@dataclass(frozen=True, slots=True)
class Friend:
    """One name in an account's friends list."""

    name: str
    added: float
    #: Whether the friend was seen lately; None unless the friend listed this account back.
    online: bool | None


@dataclass(frozen=True, slots=True)
class Invitation:
    """A seat offered to an account by name: the table, the seat, and who offered it."""

    table_id: str
    seat: int
    by: str
    created: float


class Social:
    """Friends lists, blocks and invitations by name, in the accounts' database."""

    def __init__(self, store: Storage, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.clock = clock

    async def account_named(self, me: Account, name: str) -> str:
        """The id of the live account ``name`` designates, other than ``me``; AccountError otherwise."""
        rows = await self.store.run_statements(
            [
                (
                    "SELECT id FROM accounts WHERE name_key = ? AND deleted IS NULL AND suspended IS NULL",
                    (account_key(name[:200]),),
                )
            ]
        )
        if not rows:
            raise AccountError(NO_PLAYER, 404)
        if rows[0][0] == me.id:
            raise AccountError("that is your own name", 400)
        found: str = rows[0][0]
        return found

    # ---------------------------------------------------------------- friends

    async def friends(self, me: Account) -> list[Friend]:
        """``me``'s friends by name; each one's presence only if the friend listed ``me`` back
        and neither blocks the other."""
        rows = await self.store.run_statements(
            [
                (
                    "SELECT a.name, f.added, a.last_seen, "
                    "EXISTS (SELECT 1 FROM friends back WHERE back.account_id = f.friend_id "
                    "AND back.friend_id = f.account_id) AND NOT EXISTS (SELECT 1 FROM blocks b WHERE "
                    "(b.account_id = f.account_id AND b.blocked_id = f.friend_id) OR "
                    "(b.account_id = f.friend_id AND b.blocked_id = f.account_id)) "
                    "FROM friends f JOIN accounts a ON a.id = f.friend_id "
                    "WHERE f.account_id = ? AND a.deleted IS NULL ORDER BY a.name_key",
                    (me.id,),
                )
            ]
        )
        since = self.clock() - ONLINE_SECONDS
        return [
            Friend(name, added, (seen is not None and seen >= since) if mutual else None)
            for name, added, seen, mutual in rows
        ]

    async def add_friend(self, me: Account, name: str) -> None:
        """List ``name`` among ``me``'s friends (listed already: nothing changes)."""
        friend = await self.account_named(me, name)
        if await self._blocks(me.id, friend):
            raise AccountError("you block this player: unblock them first", 409)
        if not await self._lists(me.id, friend) and await self._count("friends", me.id) >= MAX_FRIENDS:
            raise AccountError(f"a friends list holds at most {MAX_FRIENDS} players", 409)
        # Whether the friend blocks ``me`` is not asked: the row is kept either way (see above).
        await self.store.run_statements(
            [
                (
                    "INSERT INTO friends (account_id, friend_id, added) VALUES (?, ?, ?) "
                    "ON CONFLICT (account_id, friend_id) DO NOTHING",
                    (me.id, friend, self.clock()),
                )
            ]
        )

    async def remove_friend(self, me: Account, name: str) -> None:
        friend = await self.account_named(me, name)
        await self.store.run_statements(
            [("DELETE FROM friends WHERE account_id = ? AND friend_id = ?", (me.id, friend))]
        )

    # ---------------------------------------------------------------- blocks

    async def blocked(self, me: Account) -> list[str]:
        """The names of the accounts ``me`` blocks."""
        rows = await self.store.run_statements(
            [
                (
                    "SELECT a.name FROM blocks b JOIN accounts a ON a.id = b.blocked_id "
                    "WHERE b.account_id = ? AND a.deleted IS NULL ORDER BY a.name_key",
                    (me.id,),
                )
            ]
        )
        return [name for (name,) in rows]

    async def block(self, me: Account, name: str) -> None:
        """Block ``name``: off ``me``'s friends list, and no invitation or chat from them reaches ``me``."""
        other = await self.account_named(me, name)
        if not await self._blocks(me.id, other) and await self._count("blocks", me.id) >= MAX_BLOCKS:
            raise AccountError(f"you may block at most {MAX_BLOCKS} players", 409)
        await self.store.run_statements(
            [
                (
                    "INSERT INTO blocks (account_id, blocked_id, added) VALUES (?, ?, ?) "
                    "ON CONFLICT (account_id, blocked_id) DO NOTHING",
                    (me.id, other, self.clock()),
                ),
                # Off ``me``'s list only: theirs keeps ``me``, showing no presence any more, just
                # as after ``me`` unlisted them; removing ``me`` from it would tell them of the block.
                ("DELETE FROM friends WHERE account_id = ? AND friend_id = ?", (me.id, other)),
                ("DELETE FROM invites WHERE from_account = ? AND to_account = ?", (other, me.id)),
            ]
        )

    async def unblock(self, me: Account, name: str) -> None:
        other = await self.account_named(me, name)
        await self.store.run_statements(
            [("DELETE FROM blocks WHERE account_id = ? AND blocked_id = ?", (me.id, other))]
        )

    # ---------------------------------------------------------------- invitations

    async def invitees(self, me: Account, names: dict[int, str]) -> dict[int, str]:
        """The account ids of the names offered seats (by seat); AccountError if one designates
        nobody (or ``me``), or if one name is offered two seats."""
        found = {}
        for seat, name in names.items():
            try:
                found[seat] = await self.account_named(me, name)
            except AccountError as exc:
                raise AccountError(f"{exc.message}: {name}", exc.status) from None
        if len(set(found.values())) < len(found):
            raise AccountError("a player can be invited to one seat only", 400)
        return found

    async def _waiting_from(self, sender: str, invitee: str) -> int:
        """How many of ``sender``'s invitations wait for ``invitee``."""
        rows = await self.store.run_statements(
            [("SELECT count(*) FROM invites WHERE from_account = ? AND to_account = ?", (sender, invitee))]
        )
        return int(rows[0][0])

    async def invite(self, me: Account, table_id: str, invitees: dict[int, str]) -> None:
        """Offer each seat to its account, except to an account that blocks ``me``, or for which
        :data:`MAX_INVITES_FROM_ONE` of ``me``'s invitations wait already (never told)."""
        if not invitees:
            return
        skipped = {
            account
            for account in invitees.values()
            # At most a table's seats: a query each.
            if await self._blocks(account, me.id)
            or await self._waiting_from(me.id, account) >= MAX_INVITES_FROM_ONE
        }
        now = self.clock()
        # A seat offered again (from the host's link) is offered to the new name only.
        statements: list[Statement] = [
            ("DELETE FROM invites WHERE table_id = ? AND seat = ?", (table_id, seat)) for seat in invitees
        ]
        statements += [
            (
                "INSERT INTO invites (table_id, seat, from_account, to_account, created) VALUES (?, ?, ?, ?, ?) "
                # Two offers of one seat at once: the later one stands, as one after the other would.
                "ON CONFLICT (table_id, seat) DO UPDATE SET from_account = excluded.from_account, "
                "to_account = excluded.to_account, created = excluded.created",
                (table_id, seat, me.id, account, now),
            )
            for seat, account in invitees.items()
            if account not in skipped
        ]
        await self.store.run_statements(statements)

    async def invitations(self, me: Account) -> list[Invitation]:
        """The seats offered to ``me``, newest first, from accounts ``me`` does not block."""
        return await self._invitations(me, "", ())

    async def invitation(self, me: Account, table_id: str, seat: int) -> Invitation | None:
        """The seat offered to ``me`` (None: no such invitation for ``me``, whoever else it is for)."""
        found = await self._invitations(me, "AND i.table_id = ? AND i.seat = ? ", (table_id, seat))
        return found[0] if found else None

    async def _invitations(self, me: Account, where: str, args: tuple[object, ...]) -> list[Invitation]:
        rows = await self.store.run_statements(
            [
                (
                    "SELECT i.table_id, i.seat, a.name, i.created FROM invites i "
                    "JOIN accounts a ON a.id = i.from_account WHERE i.to_account = ? AND a.deleted IS NULL "
                    "AND NOT EXISTS (SELECT 1 FROM blocks b WHERE b.account_id = i.to_account "
                    f"AND b.blocked_id = i.from_account) {where}ORDER BY i.created DESC LIMIT ?",
                    (me.id, *args, MAX_INVITES),
                )
            ]
        )
        return [Invitation(table_id, seat, by, created) for table_id, seat, by, created in rows]

    async def drop_invitation(self, table_id: str, seat: int, me: Account | None = None) -> None:
        """Forget the invitation to a seat (``me``: only if it is ``me``'s)."""
        statement: Statement
        if me is None:
            statement = ("DELETE FROM invites WHERE table_id = ? AND seat = ?", (table_id, seat))
        else:
            statement = (
                "DELETE FROM invites WHERE table_id = ? AND seat = ? AND to_account = ?",
                (table_id, seat, me.id),
            )
        await self.store.run_statements([statement])

    # ---------------------------------------------------------------- helpers

    async def _blocks(self, account: str, other: str) -> bool:
        rows = await self.store.run_statements(
            [("SELECT 1 FROM blocks WHERE account_id = ? AND blocked_id = ?", (account, other))]
        )
        return bool(rows)

    async def _lists(self, account: str, friend: str) -> bool:
        rows = await self.store.run_statements(
            [("SELECT 1 FROM friends WHERE account_id = ? AND friend_id = ?", (account, friend))]
        )
        return bool(rows)

    async def _count(self, table: str, account: str) -> int:
        """How many rows of ``table`` (one of this module's own: never a name from a request) are ``account``'s."""
        rows = await self.store.run_statements(
            [(f"SELECT COUNT(*) FROM {table} WHERE account_id = ?", (account,))]
        )
        return int(rows[0][0])


async def seats_not_hearing(store: Storage, table_id: str, seat: int) -> frozenset[int]:
    """The seats of a table held by accounts that block the account holding ``seat``: its chat
    lines are not for them (a seat's account is the one keeping the seat's link)."""
    rows = await store.run_statements(
        [
            (
                "SELECT DISTINCT them.seat FROM account_tokens speaker "
                "JOIN blocks b ON b.blocked_id = speaker.account_id "
                "JOIN account_tokens them ON them.account_id = b.account_id "
                "WHERE speaker.table_id = ? AND speaker.role = 'person' AND speaker.seat = ? "
                "AND them.table_id = ? AND them.role = 'person'",
                (table_id, seat, table_id),
            )
        ]
    )
    return frozenset(int(s) for (s,) in rows if s != seat)


async def seats_unheard_by(store: Storage, table_id: str, seat: int) -> frozenset[int]:
    """The seats of a table whose accounts the account holding ``seat`` blocks: what it does not hear."""
    rows = await store.run_statements(
        [
            (
                "SELECT DISTINCT them.seat FROM account_tokens listener "
                "JOIN blocks b ON b.account_id = listener.account_id "
                "JOIN account_tokens them ON them.account_id = b.blocked_id "
                "WHERE listener.table_id = ? AND listener.role = 'person' AND listener.seat = ? "
                "AND them.table_id = ? AND them.role = 'person'",
                (table_id, seat, table_id),
            )
        ]
    )
    return frozenset(int(s) for (s,) in rows if s != seat)
