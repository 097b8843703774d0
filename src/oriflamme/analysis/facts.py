"""What one game tells a balance study: its facts, recomputed by replaying its deal and actions.

Every figure of ``oriflamme analyze`` is a sum over :class:`GameFacts`, and
the facts of a game are a function of its record alone (the tournament's
configuration, the deal, the actions): a study read back from record files
gives the same facts as the run that played them. Playing and analysing are
separate on purpose, so that a new metric is one more field here, computed
for old records by replaying them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from ..engine import events as ev
from ..engine.cards import AGREEMENT, SLUGS
from ..engine.causes import NUM_CAUSES, REVEALED_IP, cause_name
from ..tournament.config import TournamentConfig
from ..tournament.games import GameRecord, check_outcome, deal
from ..tournament.seating import seating

#: The eliminating "card" of an elimination no card made (none today; kept apart if one appears).
BY_RULE = "rule"


@dataclass(frozen=True, slots=True)
class GameFacts:
    """One game's facts; per-seat tuples are indexed by seat (seat 0 starts round 1)."""

    players: int
    deck: str
    index: int
    #: The kinds of the recipe, as slugs.
    recipe: tuple[str, ...]
    #: The bot spec at each seat.
    specs: tuple[str, ...]
    scores: tuple[int, ...]
    #: Win share: 1 for a sole winner, 1/k for each of k tied winners.
    shares: tuple[float, ...]
    ranks: tuple[float, ...]
    #: Whether the game was replayed; records of schema 2 keep outcomes only, and every field
    #: below is then empty.
    replayed: bool = True
    rounds: int = 0
    #: Actions in the game: every decision of every player.
    decisions: int = 0
    #: Each seat's score at the end of each round (the last round's is the final score).
    round_scores: tuple[tuple[int, ...], ...] = ()
    #: Per kind, how many copies of it each seat was dealt into its hand (not set aside).
    held: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    #: IP gained and lost by cause (a kind's slug, or a rule's name), summed over seats.
    gained: Mapping[str, int] = field(default_factory=dict)
    lost: Mapping[str, int] = field(default_factory=dict)
    #: Per kind, IP its revealing owners took from it (the IP left on it while it was hidden).
    revealed_ip: Mapping[str, int] = field(default_factory=dict)
    #: Eliminations per kind of the eliminating card, and per kind of the eliminated card.
    eliminations_made: Mapping[str, int] = field(default_factory=dict)
    eliminations_suffered: Mapping[str, int] = field(default_factory=dict)

    @property
    def first_player_share(self) -> float:
        return self.shares[0]

    def leaders(self, round_index: int) -> frozenset[int]:
        """Seats with the highest score at the end of round ``round_index`` (0-based)."""
        scores = self.round_scores[round_index]
        best = max(scores)
        return frozenset(s for s, v in enumerate(scores) if v == best)

    @property
    def lead_changes(self) -> int:
        """Rounds after the first whose leaders are all new: nobody who led before leads now."""
        return sum(1 for r in range(1, len(self.round_scores)) if not self.leaders(r) & self.leaders(r - 1))

    @property
    def late_leader_lost(self) -> bool | None:
        """Whether the sole leader after the second-to-last round failed to win (``None``: no sole leader).

        With six rounds this is the leader after round 5, the "drama" figure.
        """
        if len(self.round_scores) < 2:
            return None
        leaders = self.leaders(len(self.round_scores) - 2)
        if len(leaders) != 1:
            return None
        (leader,) = leaders
        return self.shares[leader] == 0.0


def outcome_facts(config: TournamentConfig, record: GameRecord) -> GameFacts:
    """The facts a record without actions still gives: recipe, seats, scores, shares, ranks."""
    n = config.players
    at_seat = seating(n, record.index, config.seating)
    entrant_at = [0] * n
    for e, s in enumerate(record.seats):
        entrant_at[s] = e
    return GameFacts(
        players=n,
        deck=config.deck,
        index=record.index,
        recipe=record.recipe,
        specs=tuple(config.specs[e] for e in at_seat),
        scores=tuple(record.scores[entrant_at[s]] for s in range(n)),
        shares=tuple(record.shares[entrant_at[s]] for s in range(n)),
        ranks=tuple(record.ranks[entrant_at[s]] for s in range(n)),
        replayed=False,
    )


def facts_of(config: TournamentConfig, record: GameRecord) -> GameFacts:
    """Replay a recorded game and collect its facts; :class:`ValueError` if the record does not replay.

    Scores by round come from the score at each round's end; IP by cause from
    the events, and for a steal (whose event does not name its card) from the
    engine's ledger, compared before and after the action.
    """
    base = outcome_facts(config, record)
    if not record.has_actions:
        return base
    n = config.players
    game = deal(config, record.index)
    if [list(a) for a in record.aside] != game.aside:
        raise ValueError(f"game {record.index}: its recorded deal is not the one its seed gives")
    kind = game.kind
    held: dict[str, list[int]] = {}
    for s in range(n):
        for c in game.hands[s]:
            held.setdefault(SLUGS[kind[c]], [0] * n)[s] += 1
    for k in game.recipe:
        held.setdefault(SLUGS[k], [0] * n)
    for s in range(n):
        for c in game.twins[s]:  # the Twin waits beside the table rather than in the hand
            held.setdefault(SLUGS[kind[c]], [0] * n)[s] += 1
    gained = [0] * NUM_CAUSES
    lost = [0] * NUM_CAUSES
    revealed_ip: dict[str, int] = {}
    made: dict[str, int] = {}
    suffered: dict[str, int] = {}
    round_scores: list[tuple[int, ...]] = []
    acting = -1  # the kind whose ability applies last (an ability may span several actions)
    for number, action in enumerate(record.actions, start=1):
        if game.is_over():
            raise ValueError(f"game {record.index}: the game is over before action {number}")
        before = game.ledger[:]  # for a steal, whose event does not name its cause
        try:
            events = game.apply(action)
        except ValueError as exc:
            raise ValueError(f"game {record.index}: action {number}: {exc}") from None
        stolen = False
        acting_at_start = acting
        for i, e in enumerate(events):
            code = e[0]
            if code == ev.GAINED:
                gained[e[5]] += e[4]
                if e[5] == REVEALED_IP and acting >= 0:
                    # IP taken from a card by a card's own rule (the Insurrection's), not by revealing it.
                    slug = SLUGS[acting]
                    revealed_ip[slug] = revealed_ip.get(slug, 0) + e[4]
            elif code == ev.LOST:
                lost[e[5]] += e[4]
            elif code == ev.AGREEMENT_INCOME:
                gained[AGREEMENT] += e[4]
            elif code == ev.REVEALED:
                acting = kind[e[2]]
                if e[4]:
                    gained[REVEALED_IP] += e[4]
                    slug = SLUGS[acting]
                    revealed_ip[slug] = revealed_ip.get(slug, 0) + e[4]
            elif code == ev.ABILITY:
                acting = e[4]
            elif code == ev.STOLEN:
                stolen = True
            elif code == ev.ELIMINATED:
                victim = SLUGS[kind[e[2]]]
                attacker = SLUGS[kind[e[5]]] if e[5] >= 0 else BY_RULE
                made[attacker] = made.get(attacker, 0) + 1
                suffered[victim] = suffered.get(victim, 0) + 1
            elif code == ev.ROUND_ENDED and not game.is_over():
                round_scores.append(_score_at(game.score, events[i + 1 :]))
        if stolen:
            _count_steals(events, before, game.ledger, kind, acting_at_start, gained, lost)
    if not game.is_over():
        raise ValueError(f"game {record.index}: the game is not over after its {len(record.actions)} actions")
    round_scores.append(tuple(game.score))
    try:
        check_outcome(record, game)
    except ValueError as exc:
        raise ValueError(f"game {record.index}: {exc}") from None
    return GameFacts(
        players=n,
        deck=base.deck,
        index=base.index,
        recipe=base.recipe,
        specs=base.specs,
        scores=base.scores,
        shares=base.shares,
        ranks=base.ranks,
        rounds=game.round,
        decisions=len(record.actions),
        round_scores=tuple(round_scores),
        held={k: tuple(v) for k, v in held.items()},
        gained={cause_name(c): v for c, v in enumerate(gained) if v},
        lost={cause_name(c): v for c, v in enumerate(lost) if v},
        revealed_ip=revealed_ip,
        eliminations_made=made,
        eliminations_suffered=suffered,
    )


def _count_steals(
    events: Sequence[ev.Event],
    before: Sequence[int],
    after: Sequence[int],
    kind: Sequence[int],
    acting: int,
    gained: list[int],
    lost: list[int],
) -> None:
    """Add an action's steals to ``gained`` and ``lost`` under their causes.

    A steal's event names thief, victim and amount but not the card. The
    ledger does: what moved in it beyond the other events' IP is the steals'
    (the thief up, the victim down, under the same cause). Two steals that
    cancel out in the ledger (each of two players stealing from the other
    with the same kind) leave no trace there; those are put down to the kind
    whose ability was applying (``acting`` when the action began: an ability
    that asks a question spans several actions).
    """
    residual = [a - b for a, b in zip(after, before, strict=True)]
    for e in events:
        code = e[0]
        if code == ev.GAINED:
            residual[e[1] * NUM_CAUSES + e[5]] -= e[4]
        elif code == ev.LOST:
            residual[e[1] * NUM_CAUSES + e[5]] += e[4]
        elif code == ev.AGREEMENT_INCOME:
            residual[e[1] * NUM_CAUSES + AGREEMENT] -= e[4]
        elif code == ev.REVEALED:
            residual[e[1] * NUM_CAUSES + REVEALED_IP] -= e[4]
    for e in events:
        code = e[0]
        if code == ev.REVEALED:
            acting = kind[e[2]]
        elif code == ev.ABILITY:
            acting = e[4]
        elif code == ev.STOLEN:
            thief, victim, m = e[1], e[5], e[4]
            cause = next(
                (
                    c
                    for c in range(NUM_CAUSES)
                    if residual[thief * NUM_CAUSES + c] > 0 and residual[victim * NUM_CAUSES + c] < 0
                ),
                acting,
            )
            if cause < 0:
                raise ValueError(f"a steal of {m} by p{thief + 1} from p{victim + 1} that no card made")
            gained[cause] += m
            lost[cause] += m
            residual[thief * NUM_CAUSES + cause] -= m
            residual[victim * NUM_CAUSES + cause] += m


def _score_at(score: Sequence[int], later: Sequence[ev.Event]) -> tuple[int, ...]:
    """The scores before ``later`` events (those after a round ended, in the same action) moved them."""
    before = list(score)
    for e in later:
        code = e[0]
        if code == ev.GAINED or code == ev.AGREEMENT_INCOME:
            before[e[1]] -= e[4]
        elif code == ev.LOST:
            before[e[1]] += e[4]
        elif code == ev.STOLEN:
            before[e[1]] -= e[4]
            before[e[5]] += e[4]
    return tuple(before)


__all__ = ["BY_RULE", "GameFacts", "facts_of", "outcome_facts"]
