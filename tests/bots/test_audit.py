"""Bot audits (bots.audit, `oriflamme audit`): a policy's choices reviewed by a search, summed by decision and card."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from oriflamme import Game, build_position, parse_action
from oriflamme.bots import make_bot
from oriflamme.bots.audit import audit_bot, subject
from oriflamme.bots.review import review_position
from oriflamme.cli.app import app
from oriflamme.engine.cards import SLUGS
from oriflamme.engine.seeds import derive_seed

runner = CliRunner()


def test_rows_cover_every_reviewed_position_once_worst_first() -> None:
    rows = audit_bot("heuristic", "alliance", positions=10, level="easy", seed=3)
    assert sum(r.positions for r in rows) == 10
    assert [r.cost for r in rows] == sorted((r.cost for r in rows), reverse=True)
    for r in rows:
        assert 0 <= r.disagreements <= r.positions
        assert 0 <= r.mistakes <= r.disagreements  # a choice that was the search's costs nothing
        assert r.cost >= 0.0
        assert r.decision in ("place", "keep_or_reveal", "eliminate", "target", "mode", "swap", "gift")
    assert len({(r.decision, r.card) for r in rows}) == len(rows)


def test_an_audit_is_reproducible_from_its_seed() -> None:
    first = audit_bot("heuristic", "base", positions=6, level="easy", seed=11)
    again = audit_bot("heuristic", "base", positions=6, level="easy", seed=11)
    other = audit_bot("heuristic", "base", positions=6, level="easy", seed=12)
    assert first == again
    assert first != other


def test_a_one_position_audit_is_the_review_of_the_first_choice_of_the_first_game() -> None:
    """share=1 reviews the first decision with a choice; its row holds exactly that review's figures."""
    rows = audit_bot("heuristic", "base", positions=1, level="easy", share=1.0, seed=9)
    g = Game.new(players=4, deck="base", seed=derive_seed("audit-game", 9, 0))
    bots = [make_bot("heuristic", derive_seed("audit-bot", 9, 0, s)) for s in range(4)]
    while len(g.options) < 2:
        g.apply(bots[g.current_player()].choose(g.view(g.current_player())))
    played = bots[g.current_player()].choose(g.view(g.current_player()))
    review = review_position(g, played, "easy", derive_seed("audit-review", 9, 0))
    assert len(rows) == 1
    (row,) = rows
    assert (row.decision, row.card) == (review.decision, subject(g, played))
    assert row.positions == 1
    assert row.disagreements == int(review.played != review.best)
    assert row.cost == pytest.approx(review.cost)
    assert row.mistakes == int(review.cost >= 10.0)


def test_the_subject_is_the_card_placed_or_the_card_that_asks() -> None:
    g = Game.new(players=3, deck="alliance", seed=2)
    assert g.decision() == "place"
    seat = g.current_player()
    for card in g.hands[seat]:
        first = next(a for a in g.legal_actions() if a & 0xFFFF == card)
        assert subject(g, first) == SLUGS[g.kind[card]]
    deck = "soldier,queen,cutthroat,apothecary,felon,schemer,impersonation,plot,trap,bribery"
    g = build_position(3, deck, "p2:queen p1:~soldier p1:queen", pointer=1, scores=[4, 5, 0], round=6)
    assert g.decision() == "keep_or_reveal"
    assert subject(g, parse_action(g, "reveal")) == "soldier"
    g.apply(parse_action(g, "reveal"))
    assert g.decision() == "eliminate"
    assert subject(g, parse_action(g, "target 1")) == "soldier"


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="at least one position"):
        audit_bot(positions=0)
    with pytest.raises(ValueError, match="share"):
        audit_bot(positions=1, share=0.0)


def test_the_command_prints_rows_as_json_and_refuses_a_bad_level() -> None:
    result = runner.invoke(app, ["audit", "-n", "4", "--level", "easy", "--deck", "base", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["positions"] == 4 and data["bot"] == "heuristic" and data["deck"] == "base"
    assert sum(r["positions"] for r in data["rows"]) == 4
    assert data["cost"] == pytest.approx(sum(r["cost"] for r in data["rows"]), abs=0.01)
    table = runner.invoke(app, ["audit", "-n", "3", "--level", "easy"], terminal_width=120)
    assert table.exit_code == 0 and "judged by ismcts:easy" in table.stdout
    bad = runner.invoke(app, ["audit", "--level", "bogus"])
    assert bad.exit_code == 2 and "--level" in bad.output
    deck = runner.invoke(app, ["audit", "--deck", "nope", "-n", "1", "--level", "easy"])
    assert deck.exit_code == 2 and "unknown deck" in deck.output
    bot = runner.invoke(app, ["audit", "--bot", "bogus", "-n", "1", "--level", "easy"])
    assert bot.exit_code == 2 and "unknown bot" in bot.output
