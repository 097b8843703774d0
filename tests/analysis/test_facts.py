"""A game's facts, recomputed by replaying its record: they must agree with the game itself."""

from __future__ import annotations

import dataclasses

import pytest

from oriflamme.analysis.facts import GameFacts, facts_of, outcome_facts
from oriflamme.engine import events as ev
from oriflamme.engine.cards import SLUGS
from oriflamme.tournament import TournamentConfig, play_tournament_game
from oriflamme.tournament.games import deal

DECKS = ["base", "ablaze", "alliance", "random"]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("deck", DECKS)
def test_facts_agree_with_the_game_they_replay(players: int, deck: str) -> None:
    """Final round scores are the scores; IP gained minus lost is every seat's gain over its starting 1;
    eliminations match the game's events; every seat's dealt kinds fill its hand."""
    config = TournamentConfig(specs=("heuristic",) * players, deck=deck, games=3, seed=11)
    for index in range(3):
        record = play_tournament_game(config, index)
        f = facts_of(config, record)
        assert f.replayed and f.rounds == 6 and f.decisions == len(record.actions)
        assert len(f.round_scores) == 6
        assert f.round_scores[-1] == f.scores
        assert sum(f.gained.values()) - sum(f.lost.values()) == sum(f.scores) - players
        # Replay once more by hand and count the eliminations the events report.
        game = deal(config, index)
        hand = 16 if players == 2 else 7
        for s in range(players):
            dealt = sum(held[s] for kind, held in f.held.items() if kind != "twin")
            assert dealt == hand
        eliminated: dict[str, int] = {}
        for a in record.actions:
            for e in game.apply(a):
                if e[0] == ev.ELIMINATED:
                    slug = SLUGS[game.kind[e[2]]]
                    eliminated[slug] = eliminated.get(slug, 0) + 1
        assert dict(f.eliminations_suffered) == eliminated
        assert sum(f.eliminations_made.values()) == sum(eliminated.values())
        assert f.specs == ("heuristic",) * players
        assert set(f.recipe) <= set(f.held)


def test_round_scores_are_taken_before_the_next_rounds_agreement_income() -> None:
    """Alliance's Agreement pays at the start of a round: that IP belongs to the next round's row."""
    config = TournamentConfig(specs=("heuristic",) * 4, deck="alliance", games=40, seed=5)
    paid_at_start = 0
    for index in range(40):
        record = play_tournament_game(config, index)
        f = facts_of(config, record)
        game = deal(config, index)
        ended = 0
        for a in record.actions:
            events = game.apply(a)
            codes = [e[0] for e in events]
            if ev.ROUND_ENDED in codes and not game.is_over():
                after = codes.index(ev.ROUND_ENDED)
                income = sum(e[4] for e in events[after:] if e[0] == ev.AGREEMENT_INCOME)
                paid_at_start += income
                row = f.round_scores[ended]
                assert sum(row) == sum(game.score) - income
                ended += 1
    assert paid_at_start > 0, "no game paid Agreement income at a round's start: the test proves nothing"


def test_a_record_whose_actions_do_not_replay_is_refused() -> None:
    config = TournamentConfig(specs=("random", "random", "random"), deck="base", games=1, seed=2)
    record = play_tournament_game(config, 0)
    with pytest.raises(ValueError, match="game 0: action 1"):
        facts_of(config, dataclasses.replace(record, actions=(123_456,) + record.actions[1:]))
    with pytest.raises(ValueError, match="not the one its seed gives"):
        facts_of(config, dataclasses.replace(record, aside=tuple(reversed(record.aside))))
    with pytest.raises(ValueError, match="ends with scores"):
        facts_of(config, dataclasses.replace(record, scores=tuple(s + 1 for s in record.scores)))


def test_a_record_without_actions_gives_outcome_facts_by_seat() -> None:
    """Schema-2 games: scores, shares and ranks moved from entrant order to seat order, nothing else."""
    config = TournamentConfig(specs=("heuristic", "random", "random"), deck="base", games=2, seed=4)
    record = play_tournament_game(config, 1)  # rotated: entrant 0 (heuristic) sits at seat 1
    old = dataclasses.replace(record, aside=(), actions=())
    f = facts_of(config, old)
    assert f == outcome_facts(config, old)
    assert not f.replayed and f.round_scores == () and f.held == {}
    assert f.specs[record.seats[0]] == "heuristic"
    assert f.scores[record.seats[0]] == record.scores[0]
    assert f.shares[record.seats[0]] == record.shares[0]


def _facts(round_scores: list[tuple[int, ...]], shares: tuple[float, ...]) -> GameFacts:
    n = len(shares)
    return GameFacts(
        players=n,
        deck="base",
        index=0,
        recipe=(),
        specs=("random",) * n,
        scores=round_scores[-1],
        shares=shares,
        ranks=(1.0,) * n,
        round_scores=tuple(round_scores),
    )


def test_lead_changes_count_rounds_whose_leaders_are_all_new() -> None:
    f = _facts([(3, 1, 1), (3, 4, 1), (5, 4, 1), (5, 5, 1), (5, 5, 9), (6, 5, 9)], (0.0, 0.0, 1.0))
    # p1 leads, p2 takes over, p1 again, p1 and p2 tie (p1 still leads: no change), p3, p3.
    assert f.lead_changes == 3
    assert f.late_leader_lost is False  # p3 led after round 5 and won


def test_the_late_leader_who_loses_is_drama_and_a_shared_lead_is_no_leader() -> None:
    lost = _facts([(1, 1), (2, 1), (3, 1), (4, 1), (9, 1), (9, 12)], (0.0, 1.0))
    assert lost.late_leader_lost is True
    shared = _facts([(1, 1), (2, 1), (3, 1), (4, 1), (5, 5), (9, 12)], (0.0, 1.0))
    assert shared.late_leader_lost is None


def test_a_steal_counts_as_ip_gained_and_lost_through_the_stealing_card() -> None:
    """The Spy only steals: what it gains someone loses, to the point. Seed 11 has an action in which
    two Spies steal from each other, which leaves no trace in the ledger."""
    config = TournamentConfig(specs=("heuristic",) * 4, deck="base", games=3, seed=11)
    mutual = 0
    spy_gained = spy_lost = 0
    for index in range(3):
        record = play_tournament_game(config, index)
        f = facts_of(config, record)
        spy_gained += f.gained.get("spy", 0)
        spy_lost += f.lost.get("spy", 0)
        game = deal(config, index)
        for a in record.actions:
            steals = [e for e in game.apply(a) if e[0] == ev.STOLEN]
            mutual += any(x[1] == y[5] and x[5] == y[1] for x in steals for y in steals)
    assert mutual >= 1
    assert spy_gained == spy_lost > 0


def test_hundreds_of_random_recipes_replay_into_consistent_facts() -> None:
    """Every kind of every box comes up: each game's IP by cause adds up to its scores."""
    for players in (2, 3, 4, 5):
        config = TournamentConfig(specs=("random",) * players, deck="random", games=60, seed=21)
        for index in range(60):
            f = facts_of(config, play_tournament_game(config, index))
            assert sum(f.gained.values()) - sum(f.lost.values()) == sum(f.scores) - players
            assert f.round_scores[-1] == f.scores


def test_ip_taken_from_cards_is_counted_under_the_card_that_took_it() -> None:
    """Revealing takes a card's IP; the Insurrection takes them by its own rule (a gain under the same
    cause). Both count under the card: the per-kind sums add up to the cause's total."""
    config = TournamentConfig(specs=("heuristic",) * 4, deck="alliance", games=40, seed=2)
    insurrection = 0
    for index in range(40):
        f = facts_of(config, play_tournament_game(config, index))
        assert sum(f.revealed_ip.values()) == f.gained.get("revealed-ip", 0)
        insurrection += f.revealed_ip.get("insurrection", 0)
    assert insurrection > 0
