"""The ``oriflamme`` command line: simulate and bench, their JSON, and their error handling."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest
from typer.testing import CliRunner

from oriflamme import __version__
from oriflamme.bench.bots import run_bot_bench
from oriflamme.cli.app import app
from oriflamme.engine.cards import SLUGS
from oriflamme.engine.errors import SetupError
from oriflamme.engine.recipes import PRESETS

runner = CliRunner()


def run_json(*args: str) -> dict[str, Any]:
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def test_simulate_json_counts_five_games_with_sane_numbers() -> None:
    """`simulate -n 5 --json` reports 5 games, positive rates, and one win shared out per game."""
    data = run_json("simulate", "--players", "4", "--games", "5")
    assert data["games"] == 5
    assert data["players"] == 4
    assert data["deck"] == "base"
    assert data["recipes"] == [[SLUGS[k] for k in PRESETS["base"]]]
    # A 4-player game has at least the 6 rounds x 4 placements as decisions.
    assert data["decisions"] >= 5 * 24
    assert data["seconds"] > 0
    assert data["games_per_second"] > 0
    assert data["decisions_per_second"] > 0
    assert len(data["wins"]) == 4
    assert len(data["mean_score"]) == 4
    assert sum(data["wins"]) == pytest.approx(5)
    assert all(w >= 0 for w in data["wins"])
    # Nobody can end below 0 IP, and someone gains something over six rounds.
    assert all(s >= 0 for s in data["mean_score"])
    assert max(data["mean_score"]) > 1


def test_simulate_same_seed_gives_same_wins_and_scores() -> None:
    """Game i is dealt and played with seed + i, so a run is reproducible."""
    first = run_json("simulate", "-p", "3", "-d", "alliance", "-n", "5", "--seed", "42")
    second = run_json("simulate", "-p", "3", "-d", "alliance", "-n", "5", "--seed", "42")
    assert first["wins"] == second["wins"]
    assert first["mean_score"] == second["mean_score"]
    assert first["decisions"] == second["decisions"]
    # ... and the numbers are those of the games the contract describes, played here independently.
    import random

    from oriflamme import Game

    wins, totals, decisions = [0.0] * 3, [0] * 3, 0
    for i in range(5):
        g = Game.new(players=3, deck="alliance", seed=42 + i)
        rnd = random.Random(42 + i).random
        while a := g.legal_actions():
            g.apply(a[int(rnd() * len(a))])
            decisions += 1
        for s, r in enumerate(g.outcome().returns()):
            wins[s] += r
            totals[s] += g.score[s]
    assert first["wins"] == pytest.approx(wins)
    assert first["mean_score"] == pytest.approx([t / 5 for t in totals])
    assert first["decisions"] == decisions


def test_simulate_random_deck_records_each_recipe() -> None:
    """`--deck random` draws a recipe per game; every recipe listed has 10 known cards."""
    data = run_json("simulate", "-p", "2", "-d", "random", "-n", "3")
    assert 1 <= len(data["recipes"]) <= 3
    for recipe in data["recipes"]:
        assert len(recipe) == 10
        assert set(recipe) <= set(SLUGS)


def assert_usage_error(args: list[str], fragment: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    text = result.output.strip()
    assert fragment in text
    assert "\n" not in text, f"expected one line, got: {text!r}"
    assert "Traceback" not in text
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_simulate_with_seven_players_is_a_one_line_usage_error() -> None:
    """docs/rules.md §2 and §9: 2 to 5 players; anything else exits 2 with the allowed range."""
    assert_usage_error(["simulate", "--players", "7"], "2 to 5 players")


def test_simulate_with_unknown_deck_is_a_one_line_usage_error() -> None:
    """docs/rules.md §1: a deck is a preset, random, or 10 card slugs; a typo exits 2 naming the presets."""
    assert_usage_error(["simulate", "--deck", "bsae"], "unknown deck 'bsae'")


def test_simulate_with_zero_games_is_a_one_line_usage_error() -> None:
    """`--games 0` has nothing to report: exit 2 rather than divide by zero."""
    assert_usage_error(["simulate", "--games", "0"], "at least 1")


def test_bench_with_bad_player_count_fails_before_measuring() -> None:
    """Every player count is checked before any cell is timed."""
    assert_usage_error(["bench", "-d", "base", "-p", "4", "-p", "6", "-s", "0.05"], "2 to 5 players")


def test_bench_one_cell_json_has_its_keys() -> None:
    """`bench --json` for one deck and player count reports rates, clone time and the targets."""
    data = run_json("bench", "--deck", "base", "--players", "4", "--seconds", "0.05")
    assert {"machine", "seconds_per_cell", "targets", "cells"} <= data.keys()
    assert data["targets"] == {"decisions_per_second": 300_000, "base_4p_games_per_second": 3_000}
    (cell,) = data["cells"]
    assert {
        "deck",
        "players",
        "games",
        "decisions",
        "seconds",
        "games_per_second",
        "decisions_per_second",
        "decisions_per_game",
        "clone_us",
        "clones",
    } <= cell.keys()
    assert (cell["deck"], cell["players"]) == ("base", 4)
    assert cell["games"] >= 1
    assert cell["games_per_second"] > 0
    assert cell["decisions_per_second"] > 0
    assert cell["clone_us"] > 0
    assert cell["clones"] > 0


def test_bench_table_states_the_targets() -> None:
    """Without --json, bench prints a table and the one-core targets."""
    result = runner.invoke(app, ["bench", "-d", "ablaze", "-p", "3", "-s", "0.05"])
    assert result.exit_code == 0, result.output
    assert "ablaze" in result.stdout
    assert "300,000 decisions/s" in result.stdout
    assert "3,000 four-player base games/s" in result.stdout


def test_python_dash_m_runs_the_same_app() -> None:
    """`python -m oriflamme --version` goes through the same entry point as the script."""
    out = subprocess.run(
        [sys.executable, "-m", "oriflamme", "--version"], capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == f"oriflamme {__version__}"


def test_bench_engine_is_the_bare_bench_with_the_same_report() -> None:
    """`bench engine` and `bench` (the 0.1 spelling) measure the same cells and report the same keys."""
    bare = run_json("bench", "--deck", "base", "--players", "3", "--seconds", "0.05")
    sub = run_json("bench", "engine", "--deck", "base", "--players", "3", "--seconds", "0.05")
    assert bare.keys() == sub.keys()
    assert [(c["deck"], c["players"]) for c in bare["cells"]] == [
        (c["deck"], c["players"]) for c in sub["cells"]
    ]
    assert bare["targets"] == sub["targets"]


def test_bench_engine_says_whether_its_games_kept_their_event_log() -> None:
    """By default the games record their log, as a client's do; --no-events plays them as playouts do."""
    told = run_json("bench", "engine", "--deck", "alliance", "--players", "4", "--seconds", "0.05")
    quiet = run_json(
        "bench", "engine", "--deck", "alliance", "--players", "4", "--seconds", "0.05", "--no-events"
    )
    assert told["record_events"] is True
    assert quiet["record_events"] is False
    (cell,) = quiet["cells"]
    assert cell["games"] >= 1 and cell["decisions"] > 0
    table = runner.invoke(app, ["bench", "engine", "-d", "base", "-p", "3", "-s", "0.05", "--no-events"])
    assert table.exit_code == 0, table.output
    assert "without their event log" in table.stdout


def test_bench_server_and_its_old_alias_take_the_same_options() -> None:
    new = runner.invoke(app, ["bench", "server", "--help"])
    old = runner.invoke(app, ["bench-server", "--help"])
    assert new.exit_code == old.exit_code == 0
    for option in ("--tables", "--players", "--seconds", "--think-min", "--url", "--json"):
        assert option in new.stdout and option in old.stdout


def test_bench_bots_times_each_bot_on_its_own_games() -> None:
    data = run_json(
        "bench", "bots", "--bot", "random", "--bot", "ismcts:3", "--seconds", "0.1", "--players", "3",
        "--deck", "base", "--deck", "alliance",
    )  # fmt: skip
    assert data["build"] in ("pure Python", "compiled (mypyc)", "mixed")
    assert [(b["spec"], b["deck"]) for b in data["bots"]] == [
        ("random", "base"), ("random", "alliance"), ("ismcts:3", "base"), ("ismcts:3", "alliance")
    ]  # fmt: skip
    for b in data["bots"]:
        assert b["games"] >= 1 and b["decisions"] >= 1
        assert 0 < b["median_ms"] <= b["p95_ms"] <= b["max_ms"]
        assert b["players"] == 3
    # Search bots report their iterations per second of search; other bots do not search.
    assert [b["iterations_per_s"] is None for b in data["bots"]] == [True, True, False, False]
    assert all(b["iterations_per_s"] > 0 for b in data["bots"][2:])


def test_bench_bots_with_games_times_the_same_whole_games_every_run() -> None:
    """--games plays exactly that many whole seeded games: the same decisions on every run."""
    args = ("bench", "bots", "--bot", "heuristic", "--bot", "ismcts:3", "--deck", "ablaze", "--games", "2")
    first, second = run_json(*args), run_json(*args)
    assert first["games_per_bot"] == 2 and first["seconds_per_bot"] is None
    assert [(b["spec"], b["games"]) for b in first["bots"]] == [("heuristic", 2), ("ismcts:3", 2)]
    # The same games, so the same decisions with a choice (only their times differ).
    assert [b["decisions"] for b in first["bots"]] == [b["decisions"] for b in second["bots"]]
    # Two whole games of four seats hold dozens of choices each; one game holds fewer than two.
    one = run_json("bench", "bots", "--bot", "heuristic", "--deck", "ablaze", "--games", "1")
    assert 0 < one["bots"][0]["decisions"] < first["bots"][0]["decisions"]


def test_bench_bots_refuses_a_game_count_below_one() -> None:
    assert_usage_error(
        ["bench", "bots", "--bot", "heuristic", "--games", "0"], "games must be at least 1, got 0"
    )
    with pytest.raises(SetupError, match="games must be at least 1, got 0"):
        run_bot_bench(("heuristic",), ("base",), games=0)


def test_bench_bots_with_an_unknown_bot_is_a_one_line_usage_error() -> None:
    assert_usage_error(["bench", "bots", "--bot", "genius", "-s", "0.05"], "genius")


def test_the_help_says_what_the_program_does_and_shows_flags_as_flags() -> None:
    """No "(more to come)"; flags such as --json, --open and --version show no `<bool>` value."""
    top = runner.invoke(app, ["--help"])
    assert top.exit_code == 0
    assert "more to come" not in top.stdout
    assert "terminal or the browser" in top.stdout
    for args, flag in (
        (["simulate", "--help"], "--json"),
        (["serve", "--help"], "--open"),
        (["--help"], "--version"),
    ):
        out = runner.invoke(app, args, terminal_width=100).stdout
        line = next(line for line in out.splitlines() if flag in line)
        assert "<bool>" not in line, line
    # --help itself, and repeatable options, in every command's help.
    commands = [[], ["simulate"], ["tournament"], ["serve"], ["bench-server"], ["play"], ["replay"], ["review"],
                ["bench"], ["bench", "engine"], ["bench", "bots"], ["bench", "server"]]  # fmt: skip
    for command in commands:
        out = runner.invoke(app, [*command, "--help"], terminal_width=100).stdout
        assert "--help" in out, command
        assert "<bool>" not in out and "<list[" not in out, (command, out)
