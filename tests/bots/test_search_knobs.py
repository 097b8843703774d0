"""Search knobs in a bot spec (``ismcts:expert+widening=2``): read, checked, and really used by the search."""

from __future__ import annotations

import dataclasses
import json
import random
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from oriflamme.bots import make_bot, parse_bot_spec
from oriflamme.bots.ismcts import IsmctsBot
from oriflamme.bots.search_levels import KNOBS, LEVELS, SearchLevel, parse_level
from oriflamme.cli.app import app
from oriflamme.engine.errors import SetupError
from oriflamme.engine.game import Game
from oriflamme.engine.view import SeatView


def test_knobs_change_only_what_they_name_and_have_one_spelling() -> None:
    """Knobs follow any budget; the canonical text lists them in a fixed order with plain values."""
    name, level = parse_level("Expert+Widening=2.0")
    assert name == "expert+widening=2"
    assert level == dataclasses.replace(LEVELS["expert"], widening=2.0)
    name, level = parse_level("normal+horizon=1+epsilon=0")
    assert name == "normal+epsilon=0+horizon=1"
    assert (level.horizon, level.epsilon, level.iterations) == (1, 0.0, LEVELS["normal"].iterations)
    name, level = parse_level("hard+reuse=no+widening=.5@2")
    assert name == "hard+widening=0.5+reuse=off@2"
    assert (level.workers, level.reuse, level.widening) == (2, False, 0.5)
    name, level = parse_level("2000+playout=random+infer=off")
    assert name == "2000+playout=random+infer=off" and level.playout == "random" and not level.infer
    assert level.iterations == 2000 and level.max_seconds == parse_level("2000")[1].max_seconds
    name, level = parse_level("1.5s+prior_first=false")
    assert name == "1.5s+prior_first=off" and level.timed and not level.prior_first
    # Every knob is a field of SearchLevel; the budget's own fields are not knobs.
    fields = {f.name for f in dataclasses.fields(SearchLevel)}
    assert set(KNOBS) < fields
    assert not {"iterations", "max_seconds", "timed", "workers"} & set(KNOBS)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("expert+", "write search knobs as \\+name=value"),
        ("expert+horizon", "write search knobs as \\+name=value"),
        ("expert+=3", "write search knobs as \\+name=value"),
        (
            "expert+depth=3",
            "unknown search knob 'depth'.*knobs: exploration, opponent_exploration, margin_weight",
        ),
        ("expert+iterations=9", "unknown search knob 'iterations'"),
        ("expert+horizon=1+horizon=2", "'horizon' is set twice"),
        ("expert+horizon=x", "horizon .* must be a number of rounds from 0 to 99"),
        ("expert+horizon=100", "horizon .* must be a number of rounds from 0 to 99"),
        ("expert+epsilon=2", "epsilon .* must be a number from 0 to 1, got '2'"),
        ("expert+widening=nan", "widening .* must be a number from 0 to 100"),
        ("expert+exploration=inf", "exploration .* must be a number from 0 to 10"),
        ("expert+exploration=-1", "exploration .* must be a number from 0 to 10"),
        ("expert+opponent_exploration=11", "opponent_exploration .* must be a number from 0 to 10"),
        ("expert+reuse=maybe", "reuse .* must be on or off"),
        ("expert+share_scale=21", "share_scale .* must be a number from 0 to 20"),
        ("expert+survival=1.5", "survival .* must be a number from 0 to 1"),
        ("expert+leaf_mix=1.5", "leaf_mix .* must be a number from 0 to 1"),
        ("expert+infer_strength=11", "infer_strength .* must be a number from 0 to 10"),
        ("expert+playout=smart", "playout .* must be one of heuristic, random"),
        ("expert+keeps=mine", "keeps .* must be one of guess, fitted"),
        ("expert+opponents=oracle", "opponents .* must be one of search, heuristic"),
        ("expert+self_deal=1", "self_deal .* must be a number from 0 to 0.9"),
        ("expert+prior=oracle", "prior .* must be one of heuristic, net"),
        ("expert+settled_credit=maybe", "settled_credit .* must be on or off"),
        ("hard@2+horizon=1", "search knobs go before it: hard\\+widening=2@2"),
        ("fast+horizon=1", "unknown ISMCTS level 'fast'"),
    ],
)
def test_bad_knobs_are_refused_saying_what_was_wrong(spec: str, message: str) -> None:
    with pytest.raises(SetupError, match=message):
        parse_bot_spec(f"ismcts:{spec}", custom=True)


def test_a_shared_server_offers_no_knobs() -> None:
    """Without ``custom`` (the browser's seats) a knob is refused like any custom budget."""
    with pytest.raises(SetupError, match="levels: easy, normal, hard, expert"):
        parse_bot_spec("ismcts:normal+horizon=0")
    assert parse_bot_spec("ismcts:normal+horizon=0", custom=True) == ("ismcts", "normal+horizon=0")


def _early_view() -> SeatView:
    g = Game.new(4, "base", seed=11)
    return g.view(g.current_player())


def test_the_knob_reaches_the_search() -> None:
    """``+horizon=0`` plays every simulation to the end; the default horizon projects them all in round 1.

    A bot built from the spec chooses exactly as one built from the same
    SearchLevel by hand, with the same seed.
    """
    view = _early_view()
    to_the_end = make_bot("ismcts:40+horizon=0", 3)
    assert isinstance(to_the_end, IsmctsBot) and to_the_end.spec == "ismcts:40+horizon=0"
    chosen = to_the_end.choose(view)
    assert to_the_end.last_iterations == 40 and to_the_end.last_projected == 0
    by_hand = IsmctsBot(dataclasses.replace(parse_level("40")[1], horizon=0), 3)
    assert by_hand.choose(view) == chosen
    default = make_bot("ismcts:40", 3)
    assert isinstance(default, IsmctsBot)
    default.choose(view)
    assert default.last_projected == 40  # round 1 of 6: every playout stops at round 3


def test_a_tournament_seats_knobbed_entrants_under_their_canonical_names() -> None:
    """An experiment is a plain tournament: the variant is an entrant named by its canonical spec."""
    result = CliRunner().invoke(
        app,
        ["tournament", "--bots", "ismcts:12+Widening=2.0,ismcts:12", "-n", "2", "-w", "1", "--json"],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["bots"] == ["ismcts:12+widening=2", "ismcts:12"]
    assert sum(e["wins"] for e in data["entrants"]) == pytest.approx(2.0)
    bad = CliRunner().invoke(app, ["tournament", "--bots", "ismcts:12+depth=2,random", "-n", "1"])
    assert bad.exit_code == 2 and "unknown search knob 'depth'" in bad.output


def test_opponents_by_the_heuristic_keep_no_statistics_in_the_tree() -> None:
    """With ``opponents=heuristic`` only the deciding seat's nodes gather UCB statistics.

    Round 1: the first seat places, and another seat next: below each of the
    root's placements lies that seat's placement. By default it picks by UCB1
    there, so the node holds statistics; with ``opponents=heuristic`` it plays
    the heuristic's move, so the node holds none, yet the tree goes on through
    it (its children are that seat's observed moves).
    """
    g = Game.new(4, "base", seed=11)
    view = g.view(g.current_player())
    level = dataclasses.replace(parse_level("200")[1], early_stop=False)
    searched, _ = IsmctsBot(level, 3)._one_search(view)
    fair, _ = IsmctsBot(dataclasses.replace(level, opponents="heuristic"), 3)._one_search(view)
    assert searched.stats and fair.stats
    assert any(child.stats for child in searched.children.values())
    assert not any(child.stats for child in fair.children.values())
    assert any(child.children for child in fair.children.values())
    assert sum(s[0] for s in fair.stats.values()) == 200


def test_the_opponents_exploration_is_a_share_of_the_seats_own() -> None:
    """``opponent_exploration`` scales the other seats' UCB1 constant only: at 1 it is the search
    of before, move for move and figure for figure; lower, the other seats' choices in the tree
    change, and so do the root's figures; with no exploration at all it changes nothing."""
    view = _early_view()
    level = dataclasses.replace(parse_level("200")[1], early_stop=False)

    def figures(lv: SearchLevel) -> list[tuple[int, int, float]]:
        return [(v.action, v.visits, v.value) for v in IsmctsBot(lv, 3).evaluate(view)]

    # Every level keeps the share at 1 (their play is pinned by test_recorded_play).
    assert all(lv.opponent_exploration == 1.0 for lv in LEVELS.values())
    assert figures(level) != figures(dataclasses.replace(level, opponent_exploration=0.25))
    # It scales the seat's own constant: where that is 0, any share leaves the others greedy too.
    greedy = dataclasses.replace(level, exploration=0.0)
    assert figures(greedy) == figures(dataclasses.replace(greedy, opponent_exploration=3.0))
    assert figures(dataclasses.replace(level, exploration=0.35)) != figures(
        dataclasses.replace(level, exploration=0.35, opponent_exploration=2.0)
    )


def test_the_net_prior_is_tried_first_and_is_the_net_bots_move() -> None:
    """``prior=net``: a one-iteration search tries only the prior's move, which is what the ``net``
    bot plays from that view, and at times not the heuristic's, the default prior's."""
    pytest.importorskip("numpy")
    from oriflamme.bots.net.bot import NetBot

    net = NetBot()
    differ = 0
    for seed in range(8):
        g = Game.new(4, "alliance", seed=seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(4, 60)):
            g.apply(g.legal_actions()[int(rng.random() * len(g.legal_actions()))])
        if g.pending is None or len(g.legal_actions()) < 2:
            continue
        view = g.view(g.current_player())
        one = dataclasses.replace(parse_level("1")[1], early_stop=False)
        by_net = IsmctsBot(dataclasses.replace(one, prior="net"), 1).evaluate(view)[0]
        by_heuristic = IsmctsBot(one, 1).evaluate(view)[0]
        assert by_net.visits == by_heuristic.visits == 1
        assert by_net.action == net.choose(view)
        differ += by_net.action != by_heuristic.action
    assert differ >= 1


def test_a_settled_root_parallel_search_is_credited_with_the_budget_it_did_not_run() -> None:
    """``settled_credit``: a worker's search that stopped early reports its move with the iterations
    it skipped added, at the move's mean reward and win share; the other actions as they were. Off
    (the default), or for a search that ran its whole budget, the statistics are the search's own."""
    from oriflamme.bots.ismcts import _root_statistics

    level = dataclasses.replace(parse_level("400")[1], early_stop=True)
    g = Game.new(4, "base", seed=11)
    credited = 0
    for _ in range(30):
        while len(g.legal_actions()) == 1:
            g.apply(g.legal_actions()[0])
        view = g.view(g.current_player())
        plain, plain_wins, ran = _root_statistics((dataclasses.asdict(level), 5, view))
        job = (dataclasses.asdict(dataclasses.replace(level, settled_credit=True)), 5, view)
        stats, wins, ran_again = _root_statistics(job)
        assert ran == ran_again
        move = max(plain, key=lambda a: plain[a])
        if ran < 400:
            credited += 1
            visits, reward = plain[move]
            assert stats[move] == pytest.approx((visits + 400 - ran, reward * (visits + 400 - ran) / visits))
            assert wins[move] == pytest.approx(plain_wins[move] * (visits + 400 - ran) / visits)
            assert {a: s for a, s in stats.items() if a != move} == {
                a: s for a, s in plain.items() if a != move
            }
        else:
            assert stats == plain and wins == plain_wins
        g.apply(move)
    assert credited >= 5
    assert LEVELS["master"].settled_credit is False


def test_no_credit_without_an_early_stop() -> None:
    """A search that ran its whole budget (early stop off), or was cut short by the clock, is not
    credited: only a move settled before the end earns the rest of the budget."""
    from oriflamme.bots.ismcts import _root_statistics

    view = _early_view()
    full = dataclasses.replace(parse_level("300")[1], early_stop=False)
    plain = _root_statistics((dataclasses.asdict(full), 5, view))
    credited = _root_statistics((dataclasses.asdict(dataclasses.replace(full, settled_credit=True)), 5, view))
    assert credited == plain and plain[2] == 300
    # A clock that stops the search at once: a handful of iterations, not settled, not credited.
    rushed = dataclasses.replace(full, early_stop=True, settled_credit=True, max_seconds=0.0)
    stats, _, ran = _root_statistics((dataclasses.asdict(rushed), 5, view))
    assert ran < 300 and sum(v for v, _ in stats.values()) == ran


def test_a_level_built_by_hand_refuses_a_misspelt_choice() -> None:
    for name in ("playout", "keeps", "opponents", "prior", "evaluation"):
        with pytest.raises(ValueError, match=f"{name} must be one of"):
            SearchLevel(iterations=10, max_seconds=1.0, **{name: "misspelt"})  # type: ignore[arg-type]


def test_the_net_prior_without_numpy_is_refused_when_the_bot_is_made(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "numpy" else real(name, *a)
    )
    with pytest.raises(ValueError, match="prior=net needs numpy"):
        IsmctsBot("normal+prior=net")
    IsmctsBot("normal")  # the other priors need nothing


def test_the_knobs_page_lists_every_knob_with_its_default() -> None:
    """docs/search-knobs.md has one table row per knob, no more, each showing its default."""
    page = (Path(__file__).parents[2] / "docs" / "search-knobs.md").read_text()
    rows = dict(re.findall(r"^\| `(\w+)` \| ([^|]+) \|", page, re.MULTILINE))
    assert set(rows) == set(KNOBS)
    default = SearchLevel(iterations=1, max_seconds=1.0)
    for name, values in rows.items():
        value = getattr(default, name)
        shown = (
            ("on" if value else "off")
            if isinstance(value, bool)
            else f"{value:g}"
            if isinstance(value, float)
            else str(value)
        )
        assert f"({shown})" in values or f"(`{shown}`)" in values, (name, values)
