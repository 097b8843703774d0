"""Hand-written play: the choices a sensible casual player would make, for every card and decision.

The policy scores each legal action with a few rules of thumb in
IP-equivalents ("this Soldier will kill a Lord worth 4 more IP to its owner",
"this Conspiracy has 3 IP on it: cash it before someone kills it") and picks
the best. It reads a full :class:`~oriflamme.engine.game.Game`, but only what the
deciding seat may know: the identity of a card is looked at only when it is
face up, owned by that seat, or exposed (an Insurrection turned back down,
which everybody saw). Face-down opponent cards are valued by
expectation over the owner's *unseen kinds* (family minus every card seen
so far), which is card counting, not peeking.

Two users:

* :class:`HeuristicBot` gets a :class:`~oriflamme.engine.view.SeatView`, deals the
  unknown cards arbitrarily with :func:`~oriflamme.engine.sampler.sample_game` (the
  policy never looks at them) and applies the policy;
* the ISMCTS bot calls :func:`heuristic_action` directly on determinized
  games as its playout and opponent model, which is why the policy works on
  a ``Game`` and is written for speed (one decision costs tens of
  microseconds, a placement a little more).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ..engine.actions import (
    ARG_MASK,
    FETCH,
    FROM_DISCARD,
    GAIN_ACTION,
    KEEP_ACTION,
    MODE_CASHOUT,
    MODE_COLLECT,
    MODE_CONDEMN,
    MODE_EXCHANGE,
    MODE_GIFT,
    MODE_VERDICT,
    PLACE_FIRST,
    PLACE_LAST,
    PLACE_ON,
    REVEAL_ACTION,
    SHIFT,
)
from ..engine.cards import (
    AGREEMENT,
    AMBUSH,
    APOTHECARY,
    ARCHER,
    ASSASSINATION,
    BRIBERY,
    CONSPIRACY,
    CUTTHROAT,
    DESERTER,
    DIPLOMAT,
    EMPRESS,
    EXTORTION,
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
    NUM_KINDS,
    PLOT,
    PRINCE,
    QUEEN,
    ROYAL_DECREE,
    SCHEMER,
    SHAPESHIFTER,
    SOLDIER,
    SPY,
    TRAP,
    TWIN,
)
from ..engine.game import Game
from ..engine.registry import (
    D_COPY,
    D_DECREE_DEST,
    D_DECREE_PICK,
    D_FETCH,
    D_KEEP_OR_REVEAL,
    D_MODE,
    D_PLACE,
    D_PLOT_CHAR,
    D_PLOT_IP,
    D_SPY,
    D_SWAP,
    D_TARGET_ELIMINATE,
    D_TARGET_OTHER,
    D_TWIN,
)
from ..engine.sampler import sample_game
from ..engine.view import SeatView
from ..engine.zones import PLACE, TOP

__all__ = ["KEEP_LIKELIHOOD", "HeuristicBot", "heuristic_action"]

#: IP-equivalents a revealed character earns its controller per activation
#: (Lord, Heir, Spy and Fanatic are refined by their neighbourhood below).
ACT: list[float] = [0.0] * NUM_KINDS
for _k, _v in (
    (ARCHER, 1.5), (SOLDIER, 1.5), (SPY, 1.3), (HEIR, 2.0), (SHAPESHIFTER, 1.2), (LORD, 1.5),
    (PRINCE, 1.0), (TWIN, 1.0), (QUEEN, 2.0), (CUTTHROAT, 1.2), (APOTHECARY, 1.3), (FELON, 0.3),
    (SCHEMER, 1.0), (EMPRESS, 2.0), (FANATIC, 1.5), (INFORMANT, 1.0), (DIPLOMAT, 1.0),
    (DESERTER, 1.8), (JUDGE, 1.2),
):  # fmt: skip
    ACT[_k] = _v

#: What an intrigue is worth to its owner when it resolves, besides the IP on it.
ONCE: list[float] = [0.0] * NUM_KINDS
for _k, _v in (
    (ASSASSINATION, 2.5), (ROYAL_DECREE, 1.0), (AMBUSH, 1.0), (CONSPIRACY, 2.0), (PLOT, 1.5),
    (TRAP, 1.0), (BRIBERY, 2.5), (IMPERSONATION, 2.0), (INSURRECTION, 1.5), (EXTORTION, 1.0),
    (INFILTRATION, 2.0), (AGREEMENT, 2.0),
):  # fmt: skip
    ONCE[_k] = _v

#: Characters whose ability eliminates a neighbour.
NEIGHBOUR_KILLERS = frozenset((SOLDIER, CUTTHROAT, DESERTER))
#: Bait: intrigues that pay their owner when an opponent eliminates them.
BAIT = frozenset((AMBUSH, TRAP, EXTORTION))
#: Intrigues that pay only when revealed late with many IP on them.
SAVINGS = frozenset((CONSPIRACY, AGREEMENT))


#: How likely a casual player is to keep a card of each kind hidden when it
#: resolves (and so let IP pile up on it): bait and savings stay down,
#: characters are mostly revealed at once. A card with m IP on it is weighted
#: by ``KEEP_LIKELIHOOD[kind] ** m`` (capped at 3).
KEEP_LIKELIHOOD: list[float] = [0.2 if IS_CHARACTER[k] else 0.6 for k in range(NUM_KINDS)]
for _k, _v in (
    (HEIR, 0.35), (SOLDIER, 0.3), (ARCHER, 0.3), (CUTTHROAT, 0.3), (DESERTER, 0.3), (SCHEMER, 0.3),
    (CONSPIRACY, 1.0), (AGREEMENT, 1.0), (AMBUSH, 1.0), (TRAP, 1.0), (EXTORTION, 1.0),
    (INSURRECTION, 1.0), (PLOT, 0.8), (ASSASSINATION, 0.5), (BRIBERY, 0.5), (IMPERSONATION, 0.5),
    (INFILTRATION, 0.15),
):  # fmt: skip
    KEEP_LIKELIHOOD[_k] = _v

_UNSEEN: dict[int, list[tuple[float, float, float, float, float, float]]] = {}


def _unseen_table(left: int) -> list[tuple[float, float, float, float, float, float]]:
    """Per kind: (is Ambush, is Trap, is Extortion, is character, worth a, IP multiplier b), by rounds left."""
    table = _UNSEEN.get(left)
    if table is None:
        acts = left + 0.5
        table = []
        for k in range(NUM_KINDS):
            a = b = 0.0
            if IS_CHARACTER[k]:
                a, b = ACT[k] * acts, 1.0
            elif k == CONSPIRACY:
                a, b = (2.0 if left else 0.0), 2.0
            elif k in BAIT:
                a = 0.5
            elif k == AGREEMENT:
                b = left + 1.0
            else:
                a, b = ONCE[k], 1.0
            table.append(
                (float(k == AMBUSH), float(k == TRAP), float(k == EXTORTION), float(IS_CHARACTER[k]), a, b)
            )
        _UNSEEN[left] = table
    return table


class _Ctx:
    """What the deciding seat knows, with the derived numbers every rule needs, computed once."""

    __slots__ = (
        "g", "me", "q", "kind", "ctrl", "up", "ip", "owner", "under", "left", "placing", "ptr",
        "w", "_pools", "_unseen", "infiltrations", "n", "_archers",
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
        score = g.score
        players = g.players
        # Hurting an opponent helps relative to that opponent only: the leader matters most.
        if players == 2:
            self.w = [0.0 if s == me else 1.0 for s in range(2)]
        else:
            best = max(score[s] for s in range(players) if s != me)
            self.w = [0.0 if s == me else (1.0 if score[s] >= best else 0.6) for s in range(players)]
        kept = g.kept[me]
        self.infiltrations = sum(1 for c in kept if g.kind[c] == INFILTRATION) if kept else 0
        self._pools: dict[int, tuple[float, float, float, float, float, float]] | None = None
        self._unseen: list[list[int]] | None = None
        self._archers: bool | None = None

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
            me = self.me
            up = self.up
            kind = self.kind
            unseen = self._unseen = [[] for _ in range(self.g.players)]
            exposed = self.g.exposed
            for c, x in enumerate(self.owner):
                if x != me and not up[c] and not exposed[c]:
                    unseen[x].append(kind[c])
        kinds = unseen[o]
        if not kinds:
            out = (0.0, 0.0, 0.0, 0.5, 2.0, 1.0)
        else:
            table = _unseen_table(self.left)
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
            out = (sums[0] / tot, sums[1] / tot, sums[2] / tot, sums[3] / tot, sums[4] / tot, sums[5] / tot)
        cache[key] = out
        return out

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
            me_card = q[j] if j < len(q) else -1
            for c in q:
                if c != me_card and self.up[c] and self.kind[c] == HEIR:
                    return 0.2
            return 2.0
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
            mine_fd = sum(1 for c in self.q if self.ctrl[c] == me and not self.up[c] and self.ip[c])
            cost += pe * (2 * w * (self.positions_of(me) - 1) + mine_fd)
        return cost

    def elim_value(self, j: int, attacker: int, applied: int) -> float:
        """Value to this seat of eliminating the top card at position ``j`` with ``applied``'s ability."""
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
        nb = [i for i in (j - 1, j + 1) if 0 <= i < n]
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
            for c in q:
                if c != actor and self.up[c] and self.kind[c] == self.kind[actor]:
                    return 0.0
            return 2.0
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
            a = self._archers = any(up[c] and kind[c] == ARCHER and ctrl[c] != me for c in self.q)
        return a


# ----------------------------------------------------------------- policy


def heuristic_action(g: Game, rng: random.Random) -> int:
    """The heuristic choice for the seat deciding in ``g`` (reads only what that seat may know)."""
    opts = g.options
    if len(opts) == 1:
        return opts[0]
    p = g.pending
    assert p is not None
    d = p[0]
    ctx = _Ctx(g, p[1])
    if d == D_KEEP_OR_REVEAL:
        return REVEAL_ACTION if _should_reveal(ctx, p[2]) else KEEP_ACTION
    if d == D_PLACE:
        return _place(ctx, opts, rng)
    if d == D_TARGET_ELIMINATE:
        # Never one's own card while an opponent's is on offer (seed 004's advice).
        q = g.queue
        me = p[1]
        theirs = tuple(a for a in opts if g.ctrl[q[a & ARG_MASK]] != me)
        return _best(theirs or opts, lambda a: ctx.elim_value(a & ARG_MASK, p[2], p[4]), rng)
    if d == D_TARGET_OTHER:
        return _best(opts, lambda a: _other_target_value(ctx, p[4], a & ARG_MASK), rng)
    if d == D_SPY:
        return _best(
            opts,
            lambda a: ctx.w[a & ARG_MASK] * min(1, g.score[a & ARG_MASK]) + 0.01 * g.score[a & ARG_MASK],
            rng,
        )
    if d == D_COPY:
        j = g.queue.index(p[2])
        return _best(
            opts,
            lambda a: ctx.ability_value(a & ARG_MASK, j, p[2]) if a & ARG_MASK != SHAPESHIFTER else -1.0,
            rng,
        )
    if d == D_MODE:
        return _mode(ctx, p, opts, rng)
    if d == D_PLOT_CHAR:
        return _best(opts, lambda a: _use_value(ctx, a & ARG_MASK), rng)
    if d == D_PLOT_IP:
        return _best(opts, lambda a: 1.0 if a == GAIN_ACTION else _use_value(ctx, a & ARG_MASK), rng)
    if d == D_DECREE_PICK:
        return _decree_pick(ctx, opts, rng)
    if d == D_DECREE_DEST:
        j = p[4]
        return _best(opts, lambda a: _decree_move_value(ctx, j, a & ARG_MASK), rng)
    if d == D_TWIN:
        return _twin(ctx, opts, rng)
    if d == D_SWAP:
        return _best(opts, lambda a: _swap_value(ctx, a & ARG_MASK, p[2]), rng)
    if d == D_FETCH:
        # Both sources bring the same character; the discard pile is public, so
        # taking from it tells the table nothing about the set-aside cards.
        return FETCH << SHIFT | FROM_DISCARD if FETCH << SHIFT | FROM_DISCARD in opts else opts[0]
    return opts[int(rng.random() * len(opts))]


def _best(opts: tuple[int, ...], value: Callable[[int], float], rng: random.Random) -> int:
    """The option of highest value; a tiny seeded noise breaks ties."""
    best = opts[0]
    best_v = -1e9
    for a in opts:
        v = value(a) + rng.random() * 1e-3
        if v > best_v:
            best_v = v
            best = a
    return best


def _use_value(ctx: _Ctx, j: int) -> float:
    c = ctx.q[j]
    return ctx.ability_value(ctx.kind[c], j, c)


# ------------------------------------------------------------ keep or reveal


def _should_reveal(ctx: _Ctx, c: int) -> bool:
    """Turn my face-down card at the pointer up now?"""
    k = ctx.kind[c]
    ip = ctx.ip[c]
    j = ctx.ptr
    last = ctx.left == 0
    if IS_CHARACTER[k]:
        now = ctx.ability_value(k, j, c)
        if last:
            return ip + now >= 0.0
        if k == HEIR and now <= 0.0:
            return False  # another Heir is showing: wait with IP piling up
        if k == SCHEMER and now < 0:
            return False
        return now >= -0.3
    if k in BAIT:
        # Keep the bait hidden while someone may still spring it; cash the 1 at the very end.
        if not last:
            return False
        return ctx.threat_at([i for i in (j - 1, j + 1) if 0 <= i < ctx.n], j in (0, ctx.n - 1)) < 0.15
    if k == CONSPIRACY:
        if last:
            return ip >= 1
        danger = ctx.threat_at([i for i in (j - 1, j + 1) if 0 <= i < ctx.n], j in (0, ctx.n - 1))
        return ip >= 3 or (ip >= 2 and (danger >= 0.3 or ctx.left <= 1))
    if k == AGREEMENT:
        return ip >= 1 and (ip >= ctx.left or last)
    if k == INSURRECTION:
        return ip >= 1 and ctx.ability_value(k, j, c) >= (0.0 if last else 1.5)
    if k == INFILTRATION:
        return True
    if k == PLOT:
        v = ctx.plot_value(ip)
        return last or (v >= 3.0 and ip >= 1) or v >= 4.0
    if k == ROYAL_DECREE:
        return last or _decree_worthwhile(ctx)
    now = ctx.ability_value(k, j, c)
    if last:
        return ip + now >= 0.0
    return now >= 2.0 or (now >= 1.0 and ip >= 2)


# ------------------------------------------------------------ other targets


def _other_target_value(ctx: _Ctx, applied: int, j: int) -> float:
    c = ctx.q[j]
    x = ctx.ctrl[c]
    me = ctx.me
    if applied == BRIBERY:
        acts = ctx.acts(j)
        k = ctx.kind[c]
        return (ctx.char_act(k, j, me) + ctx.w[x] * ctx.char_act(k, j, x)) * acts
    if applied == EMPRESS:
        # The IP goes to an opponent's face-down card: best on one that is likely bait or doomed.
        pa, pt, pe = ctx.pool(ctx.owner[c], ctx.ip[c])[:3]
        return (pa + pt + pe) * 2 - ctx.w[x] + _my_reach(ctx, j)
    if applied == JUDGE:
        if x == me:
            return -5.0 - ctx.worth(c, j)
        return ctx.elim_value(j, -1, JUDGE)
    if applied == DIPLOMAT:
        return 2.0 if x == me else -2.0 * ctx.w[x]
    return 0.0


def _my_reach(ctx: _Ctx, j: int) -> float:
    """Will one of my revealed attackers reach position ``j`` (so IP put there come back)?"""
    q = ctx.q
    me = ctx.me
    for i in (j - 1, j + 1):
        if 0 <= i < ctx.n:
            c = q[i]
            if ctx.ctrl[c] == me and ctx.up[c] and ctx.kind[c] in NEIGHBOUR_KILLERS:
                return 1.0
    return 0.0


# ------------------------------------------------------------------ modes


def _mode(ctx: _Ctx, p: tuple[int, ...], opts: tuple[int, ...], rng: random.Random) -> int:
    actor = p[2]
    q = ctx.q
    j = q.index(actor) if ctx.g.zone[actor] == TOP else ctx.ptr
    me = ctx.me
    values: dict[int, float] = {}
    for a in opts:
        m = a & ARG_MASK
        if m == MODE_COLLECT:
            values[a] = float(
                sum(
                    ctx.ip[q[i]]
                    for i in (j - 1, j + 1)
                    if 0 <= i < ctx.n and not ctx.up[q[i]] and ctx.ctrl[q[i]] != me
                )
            )
        elif m == MODE_EXCHANGE:
            hand = ctx.g.hands[me]
            values[a] = 0.8 if ctx.left and hand else -1.0
        elif m == MODE_GIFT:
            values[a] = 1.0
        elif m == MODE_CASHOUT:
            ip = ctx.ip[actor]
            values[a] = ip - ACT[DIPLOMAT] * ctx.left - (0.0 if ctx.left else 1.0)
        elif m == MODE_VERDICT:
            values[a] = 1.3
        elif m == MODE_CONDEMN:
            condemn = [i for i, c in enumerate(q) if ctx.g.verdict[c]]
            values[a] = ctx.best_elim(condemn, actor, JUDGE)
        else:
            values[a] = 0.0
    return _best(opts, values.__getitem__, rng)


def _swap_value(ctx: _Ctx, c: int, informant: int) -> float:
    """Informant's exchange: which hand card to slip into the queue in its place."""
    k = ctx.kind[c]
    q = ctx.q
    j = q.index(informant) if informant in q else ctx.ptr
    nb = [i for i in (j - 1, j + 1) if 0 <= i < ctx.n]
    if k in BAIT:
        return 1.0 + 4.0 * ctx.threat_at(nb, False)
    if k == CONSPIRACY:
        return 2.0 * ctx.left
    if k == AGREEMENT:
        return 1.0 * ctx.left
    if IS_CHARACTER[k]:
        return ACT[k] * ctx.left + (ctx.ability_value(k, j, informant) if k in NEIGHBOUR_KILLERS else 0.0)
    return ONCE[k]


# -------------------------------------------------------------- the Decree


def _move(q: list[int], under: list[int], j: int, t: int) -> list[int]:
    """The queue after moving the top card at ``j`` into gap ``t`` (``t`` counted before the move)."""
    out = list(q)
    c = out[j]
    if under[c] >= 0:
        out[j] = under[c]
    else:
        del out[j]
    out.insert(t if t <= len(out) else len(out), c)
    return out


def _decree_move_value(ctx: _Ctx, j: int, t: int) -> float:
    """Value of moving the card at ``j`` to gap ``t``: re-evaluate the queue around it."""
    q = ctx.q
    c = q[j]
    decree = q[ctx.ptr] if ctx.ptr < ctx.n else -1
    after = _move(q, ctx.under, j, t)
    # Resolution continues at the Decree's place once it is discarded.
    new_ptr = after.index(decree) if decree in after else ctx.ptr
    before_v = _queue_value(ctx, [d for d in q if d != decree], ctx.ptr, c)
    after_q = [d for d in after if d != decree]
    return _queue_value(ctx, after_q, new_ptr, c) - before_v


def _queue_value(ctx: _Ctx, q: list[int], ptr: int, moved: int) -> float:
    """My local evaluation of a queue after a Decree: the moved card's activity and neighbours' risk.

    Only this round's activity is counted (that is all a Decree changes):
    which revealed characters still act and what the attackers around the
    moved card will do.
    """
    me = ctx.me
    v = 0.0
    n = len(q)
    if moved not in q:
        return 0.0
    m = q.index(moved)
    lo = max(0, m - 2)
    hi = min(n, m + 3)
    for i in range(lo, hi):
        c = q[i]
        x = ctx.ctrl[c]
        sign = 1.0 if x == me else -ctx.w[x]
        if not ctx.up[c] or not IS_CHARACTER[ctx.kind[c]]:
            continue
        k = ctx.kind[c]
        acts_now = 1 if i >= ptr else 0
        if not acts_now:
            continue
        if k in NEIGHBOUR_KILLERS:
            # What would it kill: a neighbour not its own, preferably.
            best = -9.0
            for t in (i - 1, i + 1):
                if 0 <= t < n:
                    d = q[t]
                    y = ctx.ctrl[d]
                    if y == x:
                        gain = 1.0 - 2.0
                    else:
                        gain = 1.0 + 1.5
                        if y == me:
                            v -= 0.5 * 2.0  # my card at risk
                    best = max(best, gain)
            v += sign * max(best, 0.0)
        elif k == LORD:
            own = sum(1 for t in (i - 1, i + 1) if 0 <= t < n and ctx.ctrl[q[t]] == x)
            v += sign * (1.0 + own)
        else:
            v += sign * ACT[k]
    return v


def _decree_worthwhile(ctx: _Ctx) -> bool:
    """A quick look for a good Decree: one of my characters could act again, or a threat be moved away."""
    q = ctx.q
    me = ctx.me
    ptr = ctx.ptr
    for j, c in enumerate(q):
        if not ctx.up[c] or not IS_CHARACTER[ctx.kind[c]]:
            continue
        if ctx.ctrl[c] == me:
            if j < ptr and ACT[ctx.kind[c]] >= 1.5:
                return True
        elif (
            j > ptr
            and ctx.kind[c] in NEIGHBOUR_KILLERS
            and any(0 <= t < ctx.n and ctx.ctrl[q[t]] == me for t in (j - 1, j + 1))
        ):
            return True
    return False


def _decree_best(ctx: _Ctx, picks: list[int], decree: int) -> tuple[float, int]:
    best = (-99.0, -1)
    n = ctx.n
    me = ctx.me
    # Candidate gaps: the ends, just after the Decree (acts next), and beside my cards.
    near = {0, n - 1, n, ctx.ptr, ctx.ptr + 1}
    for i, c in enumerate(ctx.q):
        if ctx.ctrl[c] == me:
            near.update((i, i + 1))
    for j in picks:
        if ctx.q[j] == decree:
            continue
        stacked = ctx.under[ctx.q[j]] >= 0
        dests = [t for t in near if 0 <= t <= (n if stacked else n - 1) and (stacked or t != j)]
        for t in dests:
            v = _decree_move_value(ctx, j, t)
            if v > best[0]:
                best = (v, j)
    return best


def _decree_pick(ctx: _Ctx, opts: tuple[int, ...], rng: random.Random) -> int:
    # Only revealed characters change what happens this round when moved (see _queue_value).
    q = ctx.q
    picks = [
        a & ARG_MASK for a in opts if ctx.up[q[a & ARG_MASK]] and IS_CHARACTER[ctx.kind[q[a & ARG_MASK]]]
    ]
    _, j = _decree_best(ctx, picks, q[ctx.ptr] if ctx.ptr < ctx.n else -1)
    for a in opts:
        if a & ARG_MASK == j:
            return a
    return opts[int(rng.random() * len(opts))]


# -------------------------------------------------------------- placement


def _twin(ctx: _Ctx, opts: tuple[int, ...], rng: random.Random) -> int:
    """Place the Twin (face up): somewhere safe, not over a useful card of mine."""

    def value(a: int) -> float:
        verb = a >> SHIFT
        n = ctx.n
        if verb == PLACE_FIRST:
            return -ctx.threat_at([0] if n else [], True) * 3
        if verb == PLACE_LAST:
            return -ctx.threat_at([n - 1] if n else [], True) * 3
        i = a & 255
        return -ctx.threat_at([t for t in (i - 1, i + 1) if 0 <= t < n], i in (0, n - 1)) * 3 - _cover_cost(
            ctx, i
        )

    return _best(opts, value, rng)


def _cover_cost(ctx: _Ctx, i: int) -> float:
    """What covering my card at position ``i`` costs (it cannot act until uncovered)."""
    c = ctx.q[i]
    k = ctx.kind[c]
    if ctx.up[c]:
        if IS_CHARACTER[k]:
            return ctx.char_act(k, i, ctx.me) * ctx.acts(i) * 0.8
        return 0.3
    if k in BAIT:
        return 1.5
    if k in SAVINGS:
        return 1.0 + ctx.ip[c] * 0.5
    return 1.0 + ctx.ip[c] * 0.3


def _priority(ctx: _Ctx, k: int) -> float:
    """What playing a card of kind ``k`` this round (rather than later, or never) is worth."""
    left = ctx.left
    if IS_CHARACTER[k]:
        if k == HEIR:
            for c in ctx.q:
                if ctx.up[c] and ctx.kind[c] == HEIR:
                    return 0.3
            return 2.0 + (0.5 if left >= 2 else 0.0)
        if k in (LORD, SPY, FELON):
            return 0.8
        if k in NEIGHBOUR_KILLERS or k in (ARCHER, APOTHECARY):
            return 0.5  # depends on the spot: see _spot_value
        if k == PRINCE:
            return 1.6
        if k == INFORMANT:
            return 0.8
        if k == SCHEMER:
            return 1.0
        return ACT[k]
    if k == CONSPIRACY:
        return 2.2 if left >= 2 else (1.0 if left == 1 else -1.0)
    if k == AGREEMENT:
        return 0.8 * left if left >= 1 else -1.0
    if k == INFILTRATION:
        return 1.5 + 0.3 * left
    if k in BAIT:
        return 0.4 + (0.6 if left == 0 else 0.0)
    if k == ASSASSINATION:
        return ctx.best_elim(range(ctx.n), -1, ASSASSINATION) - 1.5 if ctx.n else -1.0
    if k == ROYAL_DECREE:
        return 0.6
    if k == PLOT:
        return 0.3 + (ctx.plot_value(0) * 0.5 if left else ctx.plot_value(0))
    if k == BRIBERY:
        return ctx.best_bribe()[0] - 1.5
    if k == INSURRECTION:
        return 0.5 if left >= 1 else -1.0
    if k == IMPERSONATION:
        return 0.3
    return 0.0


class _Spot:
    """One place a card can go this turn, with everything about it that does not depend on the card."""

    __slots__ = (
        "nb",
        "at_end",
        "threat",
        "around",
        "cover",
        "own",
        "opp_w",
        "fd_ip",
        "stack_near",
        "_kill",
        "_insur",
    )

    def __init__(
        self, ctx: _Ctx, nb: list[int], at_end: bool, end: bool, cover_at: int, outer: float
    ) -> None:
        q = ctx.q
        me = ctx.me
        ctrl = ctx.ctrl
        up = ctx.up
        kind = ctx.kind
        self.nb = nb
        self.at_end = at_end
        # Whether the spot is still an end at resolution: later players may place beyond it.
        end_p = (1.0 - outer) if at_end else (1.0 if end else 0.0)
        threat = ctx.threat_at(nb, False) + (0.4 * end_p if ctx.archers else 0.0)
        if at_end:
            threat += 0.1 * outer  # a card placed beyond it may be an attacker
        self.threat = min(threat, 0.95)
        self.cover = _cover_cost(ctx, cover_at) if cover_at >= 0 else 0.0
        own = 0
        opp_w = 0.0
        fd_ip = 0
        around = 0.0
        stack_near = False
        acts = ctx.left + 1
        for i in nb:
            d = q[i]
            x = ctrl[d]
            if ctx.under[d] >= 0:
                stack_near = True
            if x == me:
                own += 1
                if kind[d] == LORD:
                    around += ctx.acts(i) * 0.9 if up[d] else 0.5 * acts
                elif (
                    up[d]
                    and kind[d] in NEIGHBOUR_KILLERS
                    and not any(0 <= t < ctx.n and ctrl[q[t]] != me for t in (i - 1, i + 1))
                ):
                    around -= 1.0  # my own attacker might be forced onto the new card
                continue
            opp_w += ctx.w[x]
            if not up[d]:
                fd_ip += ctx.ip[d]
                continue
            kd = kind[d]
            if kd == FELON:
                around -= ctx.acts(i) * 0.7
            elif kd == SPY:
                around -= 0.3 * ctx.acts(i)
            elif kd == SCHEMER and cover_at >= 0:
                around += 0.5 * ctx.w[x] * ctx.acts(i)  # a new stack beside it discards it
        self.own = own
        self.opp_w = opp_w
        self.fd_ip = fd_ip
        self.around = around
        self.stack_near = stack_near
        self._kill: float | None = None
        self._insur: float | None = None

    def kill(self, ctx: _Ctx, outer: float) -> float:
        """Best elimination a neighbour-killer placed here will have."""
        v = self._kill
        if v is None:
            v = -3.0
            for i in self.nb:
                v = max(v, ctx.elim_value(i, -1, SOLDIER))
            if self.at_end and outer:
                v = max(v, outer * 2.0)
            self._kill = v
        return v

    def insurrection(self, ctx: _Ctx) -> float:
        v = self._insur
        if v is None:
            v = self._insur = sum((ctx.elim_value(i, -1, INSURRECTION) for i in self.nb), 0.0)
        return v


def _loss(ctx: _Ctx, k: int) -> float:
    """What losing a card of kind ``k`` right after placing it costs."""
    if IS_CHARACTER[k]:
        return ACT[k] * (ctx.left + 1)
    return ctx.hidden_worth(k, 0) + (1.0 if k in SAVINGS else 0.0)


def _place(ctx: _Ctx, opts: tuple[int, ...], rng: random.Random) -> int:
    """Choose the card and the spot together: card priority plus what the spot does for it."""
    q = ctx.q
    n = ctx.n
    me = ctx.me
    kind = ctx.kind
    acts = ctx.left + 1
    outer = ctx.outer_new()
    prio: dict[int, float] = {}
    loss: dict[int, float] = {}
    spots: dict[int, _Spot] = {}
    archer_v: float | None = None
    best = opts[0]
    best_v = -1e9
    random_ = rng.random
    for a in opts:
        verb = a >> SHIFT
        if verb == PLACE_ON:
            c = (a & ARG_MASK) >> 8
            key = a & 255
        else:
            c = a & ARG_MASK
            key = -1 if verb == PLACE_FIRST else -2
        k = kind[c]
        sp = spots.get(key)
        if sp is None:
            if key == -1:
                sp = _Spot(ctx, [0] if n else [], True, True, -1, outer)
            elif key == -2:
                sp = _Spot(ctx, [n - 1] if n else [], True, True, -1, outer)
            else:
                sp = _Spot(
                    ctx, [t for t in (key - 1, key + 1) if 0 <= t < n], False, key in (0, n - 1), key, outer
                )
            spots[key] = sp
        pv = prio.get(k)
        if pv is None:
            pv = prio[k] = _priority(ctx, k)
            loss[k] = _loss(ctx, k)
        v = pv + sp.around - sp.cover
        if k in BAIT:
            v += sp.threat * 4.0
        else:
            v -= sp.threat * loss[k]
        if k in NEIGHBOUR_KILLERS or k == IMPERSONATION:
            v += sp.kill(ctx, outer)
        elif k == ARCHER:
            if archer_v is None:
                archer_v = (
                    max((ctx.elim_value(i, -1, ARCHER) for i in {0, n - 1}), default=-1.0) if n else -1.0
                )
            if sp.at_end:
                v += max(archer_v, outer * 2.0) if outer else min(archer_v, 0.0) + 0.5
            else:
                v += archer_v
        elif k == LORD:
            v += sp.own * acts * 0.8
        elif k == SPY:
            v += (0.6 if sp.opp_w or (sp.at_end and outer) else -0.5) * acts * 0.5
        elif k == FELON:
            v += (sp.opp_w - sp.own) * acts * 0.5
        elif k == SCHEMER:
            if sp.stack_near or not sp.at_end:
                v -= 0.75 * acts
        elif k == INFORMANT:
            v += sp.fd_ip * 0.5
        elif k == INSURRECTION:
            v += sp.insurrection(ctx) * 0.5
        elif k == APOTHECARY:
            v += 0.5 if any(ctx.ctrl[d] == me for d in q) else 0.0
        v += random_() * 1e-3
        if v > best_v:
            best_v = v
            best = a
    return best


# -------------------------------------------------------------------- bot


class HeuristicBot:
    """Plays :func:`heuristic_action` from its seat's view; deterministic given its seed."""

    def __init__(self, seed: int | None = None) -> None:
        self.spec = "heuristic"
        self.rng = random.Random(seed)

    def choose(self, view: SeatView) -> int:
        actions = view.legal_actions
        if len(actions) == 1:
            return actions[0]
        # The dealt unknown cards are never read by the policy; a fixed generator
        # keeps them (and so nothing at all) from depending on the bot's stream.
        g = sample_game(view, random.Random(0))
        return heuristic_action(g, self.rng)
