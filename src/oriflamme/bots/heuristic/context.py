"""What the deciding seat knows, with the derived numbers every rule of thumb needs, computed once."""

from __future__ import annotations

import random
from collections.abc import Callable

from ...engine.cards import (
    AGREEMENT,
    APOTHECARY,
    ARCHER,
    ASSASSINATION,
    BRIBERY,
    CONSPIRACY,
    CUTTHROAT,
    DESERTER,
    DIPLOMAT,
    EMPRESS,
    FANATIC,
    FELON,
    HEIR,
    IMPERSONATION,
    INFILTRATION,
    INFORMANT,
    INSURRECTION,
    IS_CHARACTER,
    JUDGE,
    LORD,
    OFFICIAL_KINDS,
    PLOT,
    PRINCE,
    QUEEN,
    ROYAL_DECREE,
    SCHEMER,
    SHAPESHIFTER,
    SPY,
    TWIN,
)
from ...engine.game import Game
from ...engine.layout import family_ids
from ...engine.zones import PLACE, TOP
from .values import ACT, BAIT, KEEP_LIKELIHOOD, NEIGHBOUR_KILLERS, ONCE, unseen_table

#: Pool sums by (unseen kinds, IP bucket, rounds left), shared by every Context: a search asks
#: for the same few hundred thousand times. Pure function of its key, so sharing changes nothing.
_SHARED_POOLS: dict[tuple[tuple[int, ...], int, int], tuple[float, float, float, float, float, float]] = {}
#: Opponent weights by seat, player count and the other seats leading (see :func:`shared_weights`).
#: At most 75 entries (five players), so the table stays in the processor's caches: a table keyed
#: by the scores themselves grew to 200,000 entries, and missed them.
_WEIGHTS: dict[int, list[float]] = {}
#: Entries a shared table holds before it starts afresh (memory stays bounded in a long session).
_SHARED_MAX = 200_000
#: Abilities whose elimination is valued with a clause of their own (see Context.elim_value).
_OWN_CLAUSE = frozenset((CUTTHROAT, DESERTER, IMPERSONATION))
#: Characters whose :meth:`Context.ability_value` is never negative, whatever the table: a
#: player never loses by using them, which the keep-or-reveal rule reads without a context.
NEVER_NEGATIVE = frozenset((SPY, LORD, FANATIC, INFORMANT, DIPLOMAT, JUDGE, EMPRESS, QUEEN, PRINCE, TWIN))


def around(j: int, n: int) -> list[int]:
    """The positions next to position ``j`` in a queue of ``n``, the left one first."""
    if 0 < j < n - 1:
        return [j - 1, j + 1]  # the common case, without a comprehension's cost
    return [i for i in (j - 1, j + 1) if 0 <= i < n]


def shows_another(q: list[int], up: list[bool], kind: tuple[int, ...], card: int, k: int) -> bool:
    """Whether a queue top other than ``card`` is a face-up card of kind ``k``."""
    return any(c != card and up[c] and kind[c] == k for c in q)


def _weights(me: int, score: list[int]) -> list[float]:
    """How much hurting each seat helps ``me``: hurting an opponent helps relative to that opponent
    only, so the leader (or leaders) count fully, the others 0.6, and ``me`` nothing."""
    players = len(score)
    w = [1.0] * players
    w[me] = 0.0
    if players > 2:
        best = max(score[:me] + score[me + 1 :])
        for s in range(players):
            if s != me and score[s] < best:
                w[s] = 0.6
    return w


def shared_weights(me: int, score: list[int]) -> list[float]:
    """:func:`_weights`, read from a table shared by every Context (read only).

    The weights depend on the scores only through which other seats lead, so the
    table is keyed by that set (as a bit mask), ``me`` and the player count.
    """
    players = len(score)
    best = -(1 << 62)
    leaders = 0
    for s in range(players):
        if s != me:
            x = score[s]
            if x > best:
                best = x
                leaders = 1 << s
            elif x == best:
                leaders |= 1 << s
    key = leaders << 8 | players << 4 | me
    w = _WEIGHTS.get(key)
    if w is None:
        w = _WEIGHTS[key] = _weights(me, score)
    return w


def _pool_of(kinds: list[int], m: int, left: int) -> tuple[float, float, float, float, float, float]:
    """The pool figures of :meth:`Context.pool` for the unseen ``kinds`` and IP bucket ``m``."""
    table = unseen_table(left)
    if m == 0:
        tot = float(len(kinds))
        sums = [float(sum(col)) for col in zip(*[table[k] for k in kinds], strict=True)]
    else:
        like = KEEP_LIKELIHOOD
        ws = [like[k] ** m for k in kinds]
        tot = sum(ws, 0.0)
        sums = [
            sum((wt * x for wt, x in zip(ws, col, strict=True)), 0.0)
            for col in zip(*[table[k] for k in kinds], strict=True)
        ]
    return (sums[0] / tot, sums[1] / tot, sums[2] / tot, sums[3] / tot, sums[4] / tot, sums[5] / tot)


class Context:
    """What the deciding seat knows, with the derived numbers every rule needs, computed once."""

    __slots__ = (
        "g", "me", "q", "kind", "ctrl", "up", "ip", "owner", "under", "left", "placing", "ptr",
        "w", "_pools", "_unseen", "infiltrations", "n", "_archers", "_elims",
    )  # fmt: skip

    def __init__(self, g: Game, me: int) -> None:
        self.g = g
        self.me = me
        self.q = g.queue
        self.kind = g.kind
        self.ctrl = g.ctrl
        self.up = g.up
        self.ip = g.ip
        self.owner = g.owner
        self.under = g.under
        self.n = len(g.queue)
        #: Rounds still to come after this one.
        self.left = g.rules.rounds - g.round
        self.placing = g.phase == PLACE
        self.ptr = g.ptr
        #: Per seat, how much hurting it is worth to this seat (read only: shared between Contexts).
        self.w = shared_weights(me, g.score)
        kept = g.kept[me]
        self.infiltrations = sum(1 for c in kept if g.kind[c] == INFILTRATION) if kept else 0
        self._pools: dict[int, tuple[float, float, float, float, float, float]] | None = None
        self._unseen: dict[int, list[int]] | None = None
        self._archers: bool | None = None
        self._elims: dict[int, float] | None = None

    # ------------------------------------------------------------ knowledge

    def pool(self, o: int, ip: int) -> tuple[float, float, float, float, float, float]:
        """What a face-down card of ``o`` carrying ``ip`` IP may be, over the kinds this seat has not seen:
        (P(Ambush), P(Trap), P(Extortion), P(character), mean worth a, mean IP multiplier b), worth = a + b * IP.

        A card kept hidden (one IP per keep) is weighted towards what a player
        keeps hidden: bait and savings, not characters (see KEEP_LIKELIHOOD).
        """
        m = ip if ip < 3 else 3
        key = o * 4 + m
        cache = self._pools
        if cache is None:
            cache = self._pools = {}
        hit = cache.get(key)
        if hit is not None:
            return hit
        unseen = self._unseen
        if unseen is None:
            unseen = self._unseen = {}
        kinds = unseen.get(o)
        if kinds is None:
            kinds = unseen[o] = []
            if o != self.me:
                up = self.up
                exposed = self.g.exposed
                kind = self.kind
                for c in family_ids(self.owner, o):
                    if not up[c] and not exposed[c]:
                        kinds.append(kind[c])
        if not kinds:
            out = (0.0, 0.0, 0.0, 0.5, 2.0, 1.0)
            cache[key] = out
            return out
        # The same unseen cards recur across the many decisions of a search: share the sums.
        shared_key = (tuple(kinds), m, self.left)
        shared = _SHARED_POOLS.get(shared_key)
        if shared is None:
            shared = _pool_of(kinds, m, self.left)
            if len(_SHARED_POOLS) >= _SHARED_MAX:
                _SHARED_POOLS.clear()
            _SHARED_POOLS[shared_key] = shared
        cache[key] = shared
        return shared

    def acts(self, j: int) -> int:
        """Activations still to come for a revealed character at position ``j``."""
        return self.left + (1 if self.placing or j > self.ptr else 0)

    def char_act(self, k: int, j: int, x: int) -> float:
        """Per-activation value of kind ``k`` acting at position ``j`` for seat ``x``."""
        q = self.q
        if k == LORD:
            own = 0
            if j > 0 and self.ctrl[q[j - 1]] == x:
                own += 1
            if j + 1 < len(q) and self.ctrl[q[j + 1]] == x:
                own += 1
            return 1.0 + own
        if k == HEIR:
            return 0.2 if shows_another(q, self.up, self.kind, q[j] if j < len(q) else -1, HEIR) else 2.0
        if k == SPY:
            if (j > 0 and self.ctrl[q[j - 1]] != x) or (j + 1 < len(q) and self.ctrl[q[j + 1]] != x):
                return 1.5
            return 0.2
        return ACT[k]

    def worth(self, c: int, j: int) -> float:
        """Future IP the top card ``c`` at position ``j`` is worth to its controller."""
        k = self.kind[c]
        if self.up[c]:
            if IS_CHARACTER[k]:
                return self.char_act(k, j, self.ctrl[c]) * self.acts(j) + self.ip[c]
            return 0.5
        if self.owner[c] == self.me or self.g.exposed[c]:
            return self.hidden_worth(k, self.ip[c])
        ip = self.ip[c]
        pool = self.pool(self.owner[c], ip)
        return pool[4] + pool[5] * ip

    def hidden_worth(self, k: int, ip: int) -> float:
        """What a face-down card of a known kind will bring its owner."""
        if IS_CHARACTER[k]:
            return ip + ACT[k] * (self.left + 0.5)
        if k == CONSPIRACY:
            return 2.0 * ip + (2.0 if self.left else 0.0)
        if k in BAIT:
            return 1.0
        if k == AGREEMENT:
            return ip * (self.left + 1) + 0.5
        return ip + ONCE[k]

    def positions_of(self, x: int) -> int:
        ctrl = self.ctrl
        return sum(1 for c in self.q if ctrl[c] == x)

    def threat_to_me(self, c: int, j: int) -> float:
        """Extra reason to remove an opponent's revealed attacker: my cards in its reach."""
        k = self.kind[c]
        q = self.q
        me = self.me
        ctrl = self.ctrl
        if k in NEIGHBOUR_KILLERS or k == SHAPESHIFTER:
            hit = (j > 0 and ctrl[q[j - 1]] == me) or (j + 1 < len(q) and ctrl[q[j + 1]] == me)
        elif k == ARCHER:
            hit = ctrl[q[0]] == me or ctrl[q[-1]] == me
        elif k in (APOTHECARY, JUDGE, FELON, SPY):
            hit = True
        else:
            return 0.0
        return 1.2 * min(self.acts(j), 2) if hit else 0.0

    # ---------------------------------------------------------- eliminating

    def attacker_loss(self, attacker: int) -> float:
        """What losing the eliminating card to a sprung Ambush or Trap costs this seat."""
        if attacker < 0 or self.g.zone[attacker] != TOP or not self.up[attacker]:
            return 0.3
        k = self.kind[attacker]
        if not IS_CHARACTER[k]:
            return 0.3
        return ACT[k] * self.left

    def bait_cost(self, o: int, ip: int, attacker: int) -> float:
        """Expected loss from eliminating a face-down card of ``o`` (with ``ip`` on it) that may be bait."""
        pa, pt, pe = self.pool(o, ip)[:3]
        if not (pa or pt or pe):
            return 0.0
        w = self.w[o]
        loss = self.attacker_loss(attacker)
        cost = 0.0
        if pa:
            cost += pa * (4 * w + loss)
        if pt:
            t = min(3, self.g.score[self.me])
            cost += pt * (t * (1 + w) + loss)
        if pe:
            me = self.me
            ctrl = self.ctrl
            up = self.up
            on = self.ip
            mine_fd = 0
            for c in self.q:
                if ctrl[c] == me and not up[c] and on[c]:
                    mine_fd += 1
            cost += pe * (2 * w * (self.positions_of(me) - 1) + mine_fd)
        return cost

    def elim_value(self, j: int, attacker: int, applied: int) -> float:
        """Value to this seat of eliminating the top card at position ``j`` with ``applied``'s ability.

        Most abilities eliminate alike, so the value is the same for every one of them but
        the three with a clause of their own; it is remembered by position and attacker,
        since placement asks for the same few positions again and again.
        """
        if applied in _OWN_CLAUSE:
            return self._elim_value(j, attacker, applied)
        key = j << 8 | (attacker + 1)
        memo = self._elims
        if memo is None:
            memo = self._elims = {}
        v = memo.get(key)
        if v is None:
            v = memo[key] = self._elim_value(j, attacker, applied)
        return v

    def _elim_value(self, j: int, attacker: int, applied: int) -> float:
        c = self.q[j]
        x = self.ctrl[c]
        up = self.up[c]
        k = self.kind[c]
        reward = 1.0
        if not up and self.infiltrations:
            reward += 2 * self.infiltrations
        if applied == CUTTHROAT:
            return self._cutthroat_value(j, c, x)
        if applied == DESERTER:
            # One more for a character: certain when known, by the odds otherwise.
            if up or self.owner[c] == self.me or self.g.exposed[c]:
                reward += 1.0 if IS_CHARACTER[k] else 0.0
            else:
                reward += self.pool(self.owner[c], self.ip[c])[3]
        if x == self.me:
            return reward - self.worth(c, j) - (0.5 if c == attacker else 0.0)
        v = reward + self.w[x] * self.worth(c, j)
        if up:
            v += self.threat_to_me(c, j)
            if k == QUEEN:
                v += 1.0
            elif k in (PRINCE, TWIN):
                v += self.w[x] * 0.5 * self.left
            if applied == IMPERSONATION and self.under[c] < 0 and IS_CHARACTER[k]:
                g = self.g
                if any(self.kind[d] == k for d in g.discards[self.me]) or (
                    k != TWIN and any(self.kind[d] == k for d in g.aside[self.me])
                ):
                    v += ACT[k] * (self.left + 0.5)
        elif not self.g.exposed[c]:  # a card everybody knows (a turned-down Insurrection) is no bait
            v -= self.bait_cost(x, self.ip[c], attacker)
        return v

    def _cutthroat_value(self, j: int, c: int, x: int) -> float:
        me = self.me
        if not self.up[c]:
            if x == me or self.g.exposed[c]:
                return (-1.0 if x == me else self.w[x]) * self.worth(c, j)
            return self.w[x] * self.worth(c, j) - self.bait_cost(
                x, self.ip[c], self.q[self.ptr] if self.ptr < self.n else -1
            )
        k = self.kind[c]
        victims = [j] + [
            i
            for i, d in enumerate(self.q)
            if i != j and self.up[d] and self.kind[d] == k and self.ctrl[d] != me
        ]
        reward = 1.0 if len(victims) > 1 else 0.0
        v = 0.0
        for i in victims:
            d = self.q[i]
            y = self.ctrl[d]
            if y == me:
                v += reward - self.worth(d, i)
            else:
                v += reward + self.w[y] * self.worth(d, i) + (1.0 if k == QUEEN else 0.0)
        return v

    def best_elim(self, positions: list[int] | range, attacker: int, applied: int) -> float:
        best = -99.0
        for j in positions:
            v = self.elim_value(j, attacker, applied)
            if v > best:
                best = v
        return best

    # ------------------------------------------------------------- abilities

    def ability_value(self, k: int, j: int, actor: int) -> float:
        """Immediate value to this seat of applying kind ``k``'s ability from position ``j``."""
        q = self.q
        n = len(q)
        me = self.me
        nb = around(j, n)
        if k in NEIGHBOUR_KILLERS or k == IMPERSONATION:
            return self.best_elim(nb, actor, k) if nb else 0.0
        if k == ARCHER:
            return self.best_elim([0] if n == 1 else [0, n - 1], actor, k)
        if k == ASSASSINATION:
            return self.best_elim(range(n), actor, k)
        if k == APOTHECARY:
            own = [i for i, c in enumerate(q) if c != actor and self.ctrl[c] == me]
            targets = sorted({t for i in own for t in (i - 1, i + 1) if 0 <= t < n})
            return self.best_elim(targets, actor, k) if targets else 0.0
        if k == SPY:
            best = 0.0
            for i in nb:
                x = self.ctrl[q[i]]
                if x != me and self.g.score[x] > 0:
                    best = max(best, 1.0 + self.w[x])
            return best
        if k == HEIR:
            return 0.0 if shows_another(q, self.up, self.kind, actor, self.kind[actor]) else 2.0
        if k == LORD:
            return 1.0 + sum(1 for i in nb if self.ctrl[q[i]] == me)
        if k == SHAPESHIFTER:
            kinds = {self.kind[q[i]] for i in nb if self.up[q[i]] and IS_CHARACTER[self.kind[q[i]]]}
            kinds.discard(SHAPESHIFTER)
            return max((self.ability_value(m, j, actor) for m in kinds), default=0.0)
        if k == FELON:
            v = 0.0
            for i in nb:
                x = self.ctrl[q[i]]
                if x == me:
                    v -= 1.0 if self.g.score[me] > 0 else 0.0
                elif self.g.score[x] > 0:
                    v += self.w[x]
            return v
        if k == SCHEMER:
            if any(self.under[q[i]] >= 0 for i in nb):
                return -ACT[SCHEMER] * self.left
            return float(self.g.rules.schemer_gain)
        if k == FANATIC:
            alone = not any(c != actor and self.up[c] and self.ctrl[c] == me for c in q)
            return 2.0 if alone else 1.0
        if k == INFORMANT:
            collect = sum(self.ip[q[i]] for i in nb if not self.up[q[i]] and self.ctrl[q[i]] != me)
            return max(float(collect), 0.8 if self.g.hands[me] and self.left else 0.0)
        if k == DIPLOMAT:
            return max(1.0, float(self.ip[actor]) - ACT[DIPLOMAT] * self.left)
        if k == JUDGE:
            condemn = [i for i, c in enumerate(q) if self.g.verdict[c]]
            v = self.best_elim(condemn, actor, k) if condemn else -99.0
            return max(1.3, v)
        if k == EMPRESS:
            return 2.0
        if k == QUEEN:
            return 2.0
        if k in (PRINCE, TWIN):
            return 1.0
        if k == BRIBERY:
            return self.best_bribe()[0]
        if k == PLOT:
            return self.plot_value(self.ip[actor])
        if k == INSURRECTION:
            return self.ip[actor] - 1 + sum((self.elim_value(i, actor, k) for i in nb), 0.0)
        if k in BAIT:
            return 1.0
        if k == CONSPIRACY:
            return 2.0 * self.ip[actor]
        if k == ROYAL_DECREE:
            return 1.0
        if k == INFILTRATION:
            return (
                0.5
                + sum(1 for c in q if self.ctrl[c] == me and not self.up[c] and c != actor)
                + 2.0 * min(self.left, 2)
            )
        if k == AGREEMENT:
            return self.ip[actor] * (self.left + 1.0)
        if k >= OFFICIAL_KINDS:
            # A designer's kind: what its hints (or the defaults) say it is worth.
            return ACT[k] if IS_CHARACTER[k] else ONCE[k]
        return 0.0

    def best_bribe(self) -> tuple[float, int]:
        """(value, position) of the best revealed opponent character to bribe."""
        best = (-99.0, -1)
        me = self.me
        for j, c in enumerate(self.q):
            x = self.ctrl[c]
            if x == me or not self.up[c] or self.under[c] >= 0 or not IS_CHARACTER[self.kind[c]]:
                continue
            acts = self.acts(j)
            k = self.kind[c]
            v = (self.char_act(k, j, me) + self.w[x] * self.char_act(k, j, x)) * acts
            if v > best[0]:
                best = (v, j)
        return best

    def plot_value(self, ip: int) -> float:
        me = self.me
        best = -99.0
        for j, c in enumerate(self.q):
            if self.up[c] and self.ctrl[c] == me and IS_CHARACTER[self.kind[c]]:
                best = max(best, self.ability_value(self.kind[c], j, c))
        if best <= -99.0:
            return float(ip)
        return best + ip * max(best, 1.0)

    # ------------------------------------------------------------ placement

    def outer_new(self) -> float:
        """Probability that a card placed now at an end gets another card beyond it this round."""
        g = self.g
        later = len(g.order) - g.turn - 1
        return 1.0 - 0.5**later if later > 0 else 0.0

    def threat_at(self, nb: list[int], end: bool) -> float:
        """Chance that a card of mine with these neighbour positions is eliminated by an opponent."""
        q = self.q
        me = self.me
        t = 0.0
        for i in nb:
            c = q[i]
            x = self.ctrl[c]
            if x == me:
                continue
            if self.up[c]:
                k = self.kind[c]
                if k in NEIGHBOUR_KILLERS:
                    t += 0.6
                elif k == SHAPESHIFTER:
                    t += 0.2
            else:
                t += 0.08
        if end and self.archers:
            t += 0.4
        return min(t, 0.95)

    @property
    def archers(self) -> bool:
        """Does an opponent have a revealed Archer (so that both ends are dangerous)?"""
        a = self._archers
        if a is None:
            me = self.me
            up = self.up
            kind = self.kind
            ctrl = self.ctrl
            a = False
            for c in self.q:
                if up[c] and kind[c] == ARCHER and ctrl[c] != me:
                    a = True
                    break
            self._archers = a
        return a


def best(opts: tuple[int, ...], value: Callable[[int], float], rng: random.Random) -> int:
    """The option of highest value; a tiny seeded noise breaks ties."""
    best = opts[0]
    best_v = -1e9
    for a in opts:
        v = value(a) + rng.random() * 1e-3
        if v > best_v:
            best_v = v
            best = a
    return best
