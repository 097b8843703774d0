"""``oriflamme tournament``: reproducible seeded runs, seat rotation, sums, errors, Ctrl-C, Ray."""

from __future__ import annotations

import importlib.util
import json
import math
import subprocess
import sys
from typing import Any

import pytest
from support.tournament import interrupt_at, without_run
from typer.testing import CliRunner

from oriflamme.build import build_kind
from oriflamme.cli.app import app
from oriflamme.engine.errors import SetupError
from oriflamme.engine.game import Game
from oriflamme.tournament import (
    TournamentConfig,
    TournamentInterrupted,
    entrant_names,
    parse_entrants,
    play_tournament_game,
    run_tournament,
    seating,
    wilson_interval,
)
from oriflamme.tournament.command import expand_bare_ray

runner = CliRunner()

# Random bots only: other bot kinds may or may not be registered, and these tests must be fast.
THREE = "random,random,random"


def tournament_json(*args: str) -> dict[str, Any]:
    result = runner.invoke(app, ["tournament", *args, "--json"])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


# ------------------------------------------------------------ reproducibility


def test_seeded_tournament_json_is_the_same_twice_and_for_one_or_two_workers() -> None:
    """Game g depends only on (seed, g) and results are summed in game order, so workers do not matter."""
    args = ("--bots", THREE, "--games", "12", "--seed", "7")
    once = tournament_json(*args, "--workers", "1")
    twice = tournament_json(*args, "--workers", "1")
    parallel = tournament_json(*args, "--workers", "2")
    assert without_run(once) == without_run(twice) == without_run(parallel)
    assert once["run"]["backend"] == "in-process"
    assert parallel["run"]["backend"] == "processes"
    assert parallel["run"]["workers"] == 2
    # The run records the build (a decision time holds only for the build that measured it).
    assert once["run"]["build"] == build_kind() in ("pure Python", "compiled (mypyc)", "mixed")
    # And the seed matters: another seed plays other games.
    other = tournament_json("--bots", THREE, "--games", "12", "--seed", "8", "--workers", "1")
    assert without_run(other)["entrants"] != without_run(once)["entrants"]


def test_a_game_is_a_pure_function_of_config_and_index() -> None:
    """Replaying game 5 alone gives the record it had inside the run (timings aside)."""
    config = TournamentConfig(specs=("random", "random"), deck="random", games=6, seed=3)
    result = run_tournament(config, workers=1)
    again = play_tournament_game(config, 5)
    kept = result.records[5]
    assert (kept.index, kept.recipe, kept.seats, kept.scores, kept.ranks) == (
        again.index,
        again.recipe,
        again.seats,
        again.scores,
        again.ranks,
    )
    assert [len(t) for t in kept.decision_seconds] == [len(t) for t in again.decision_seconds]


def test_random_deck_draws_a_recipe_per_game_and_a_preset_keeps_one() -> None:
    """`--deck random` (the default) draws per game from the seed; `--deck base` plays one recipe."""
    assert tournament_json("--bots", "random,random", "-n", "6", "-w", "1")["recipes"] > 1
    assert tournament_json("--bots", "random,random", "-n", "6", "-w", "1", "--deck", "base")["recipes"] == 1


# ------------------------------------------------------------------ fairness


def test_seating_puts_entrant_i_at_seat_i_plus_g() -> None:
    """Game g seats entrant i at seat (i + g) % n; every game's seating is a permutation."""
    assert seating(4, 0) == (0, 1, 2, 3)
    assert seating(4, 1) == (3, 0, 1, 2)  # entrant 0 now at seat 1
    for g in range(10):
        at_seat = seating(3, g)
        assert sorted(at_seat) == [0, 1, 2]
        for seat, entrant in enumerate(at_seat):
            assert seat == (entrant + g) % 3


def test_rotation_gives_every_entrant_every_seat_equally_over_n_times_k_games() -> None:
    """Over 3 x 2 games of a 3-player tournament each entrant plays each seat (and starts) twice."""
    data = tournament_json("--bots", THREE, "-n", "6", "-w", "1")
    for entrant in data["entrants"]:
        assert entrant["seat_games"] == [2, 2, 2]
    assert data["specs"][0]["seat_games"] == [6, 6, 6]


def test_permute_seating_balances_seats_and_neighbours_over_players_factorial_games() -> None:
    """4 players, 24 games: every entrant plays every seat 6 times and is followed by each other entrant 8 times."""
    seat_count = {(e, s): 0 for e in range(4) for s in range(4)}
    follows = {(e, f): 0 for e in range(4) for f in range(4) if e != f}
    for g in range(24):
        at_seat = seating(4, g, "permute")
        assert sorted(at_seat) == [0, 1, 2, 3]
        for s, e in enumerate(at_seat):
            seat_count[(e, s)] += 1
            follows[(e, at_seat[(s + 1) % 4])] += 1
    assert set(seat_count.values()) == {6}
    assert set(follows.values()) == {8}
    # Rotation alone keeps the neighbours: entrant 1 always follows entrant 0.
    assert all(seating(4, g)[(seating(4, g).index(0) + 1) % 4] == 1 for g in range(24))
    # The two schemes agree on the first block of games, so short runs compare.
    assert [seating(4, g, "permute") for g in range(4)] == [seating(4, g) for g in range(4)]


def test_permute_seating_reaches_the_games_and_the_json() -> None:
    """With --seating permute the seats played follow the scheme, and the JSON names it."""
    data = tournament_json("--bots", "random,random,random", "-n", "6", "-w", "1", "--seating", "permute")
    assert data["seating_scheme"] == "permute"
    assert all(e["seat_games"] == [2, 2, 2] for e in data["entrants"])
    config = TournamentConfig(specs=("random",) * 3, games=6, seating="permute")
    assert play_tournament_game(config, 3).seats == (0, 2, 1)  # order 0, 2, 1 around the table
    assert tournament_json("--bots", "random,random", "-n", "2", "-w", "1")["seating_scheme"] == "rotate"


def test_identical_specs_are_distinct_entrants_and_also_summed_per_spec() -> None:
    """`random,random` gives entrants random#1 and random#2, and one spec row with twice the games."""
    assert entrant_names(("heuristic", "random", "heuristic")) == ("heuristic#1", "random", "heuristic#2")
    data = tournament_json("--bots", "random,RANDOM", "-n", "4", "-w", "1")
    assert [e["name"] for e in data["entrants"]] == ["random#1", "random#2"]
    assert [e["spec"] for e in data["entrants"]] == ["random", "random"]
    (spec,) = data["specs"]
    assert spec["spec"] == "random"
    assert spec["games"] == 8
    assert "rating" not in spec
    assert all(set(e["rating"]) == {"mu", "sigma", "ordinal"} for e in data["entrants"])


# ----------------------------------------------------------------- the sums


def test_win_counts_sum_to_the_number_of_games_and_ranks_to_a_full_podium() -> None:
    """One win per game, shared wins split; mean ranks of n entrants add up to 1 + 2 + ... + n."""
    data = tournament_json("--bots", "random,random,random,random", "-n", "10", "-w", "1", "--seed", "2")
    assert data["games"] == 10
    assert sum(e["wins"] for e in data["entrants"]) == pytest.approx(10)
    assert sum(e["mean_rank"] for e in data["entrants"]) == pytest.approx(1 + 2 + 3 + 4)
    assert data["specs"][0]["wins"] == pytest.approx(10)
    for e in data["entrants"]:
        assert e["games"] == 10
        assert e["win_rate"] == pytest.approx(e["wins"] / 10)
        lo, hi = e["win_rate_ci95"]
        assert 0 <= lo <= e["win_rate"] <= hi <= 1
        assert 1 <= e["mean_rank"] <= 4
    timing = data["run"]["decision_time"]
    assert set(timing) == {"random#1", "random#2", "random#3", "random#4"}
    assert all(t["decisions"] > 0 and 0 <= t["median_ms"] <= t["p95_ms"] for t in timing.values())
    assert data["run"]["games_per_second"] > 0


def test_final_ranks_follow_the_winner_rule_with_ties_averaged() -> None:
    """Ranks order by IP, then positions controlled; a full tie shares the places it spans."""
    record = play_tournament_game(TournamentConfig(specs=("random",) * 5, games=1, seed=11), 0)
    assert sum(record.ranks) == pytest.approx(1 + 2 + 3 + 4 + 5)
    winners = [e for e in range(5) if record.shares[e] > 0]
    best = min(record.ranks)
    assert all(record.ranks[e] == best for e in winners)
    assert best == 1 + (len(winners) - 1) / 2
    # A game the tie-break cannot split: two seats level on IP and positions (none yet).
    g = Game.new(players=3, deck="base", seed=0, first_player=0)
    g.score = [5, 5, 2]
    assert list(g.outcome().ranks) == [1.5, 1.5, 3.0]


def test_wilson_interval_matches_the_textbook_values() -> None:
    """50/100 -> [0.404, 0.596]; 0/10 starts at 0 and 10/10 ends at 1; more games, narrower interval."""
    lo, hi = wilson_interval(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4)
    assert hi == pytest.approx(0.5962, abs=1e-4)
    lo, hi = wilson_interval(0, 10)
    assert lo == 0 and hi == pytest.approx(0.2775, abs=1e-4)
    lo, hi = wilson_interval(10, 10)
    assert hi == 1 and lo == pytest.approx(0.7225, abs=1e-4)
    assert wilson_interval(2.5, 10)[0] < 0.25 < wilson_interval(2.5, 10)[1]  # shared wins are fractional
    narrow = wilson_interval(250, 1000)
    wide = wilson_interval(25, 100)
    assert narrow[1] - narrow[0] < wide[1] - wide[0]
    assert wilson_interval(0, 0) == (0.0, 1.0)


# ------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("bots", "message"),
    [
        ("random,robot", "unknown bot 'robot'"),
        ("random,random:hard", "unknown level 'hard' for bot 'random'"),
        ("random,random,random,random,random,random", "2 to 5 bots"),
        ("random", "2 to 5 bots"),
        ("random,,random", "empty bot spec"),
    ],
)
def test_bad_bot_specs_exit_2_with_a_clear_message(bots: str, message: str) -> None:
    """A spec the registry does not know, or a seat count outside 2-5, is a usage error (exit 2)."""
    result = runner.invoke(app, ["tournament", "--bots", bots, "-n", "1"])
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("error: ")
    assert message in result.stderr
    assert "Traceback" not in result.output
    with pytest.raises(SetupError):
        parse_entrants(bots)


@pytest.mark.parametrize(
    "args",
    [
        ("--games", "0"),
        ("--deck", "nonsense"),
        ("--workers", "0"),
        ("--schemer-gain", "3"),
        ("--seating", "zigzag"),
    ],
)
def test_bad_options_exit_2(args: tuple[str, ...]) -> None:
    """Zero games, an unknown deck or seating, zero workers or an impossible rule option: exit 2, one line."""
    result = runner.invoke(app, ["tournament", "--bots", "random,random", *args])
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("error: ")


def test_custom_budgets_enter_tournaments_and_a_timed_one_is_flagged() -> None:
    """`ismcts:20` is an entrant like any other; `ismcts:0.01s` too, with a note that the seed cannot fix its moves."""
    result = runner.invoke(
        app, ["tournament", "--bots", "ismcts:20,ismcts:0.01s", "-n", "1", "-w", "1", "--json"]
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["bots"] == ["ismcts:20", "ismcts:0.01s"]
    assert "ismcts:0.01s thinks for a time" in result.stderr
    assert "ismcts:20 thinks" not in result.stderr


def test_rule_options_reach_the_games() -> None:
    """`--rounds 2` plays 2-round games: each random bot places only 2 cards in a 3-player game."""
    data = tournament_json("--bots", THREE, "-n", "3", "-w", "1", "--rounds", "2", "--schemer-gain", "2")
    assert data["rules"] == {"schemer_gain": 2, "two_player_cards_per_round": 2, "rounds": 2}
    assert all(t["decisions"] >= 3 * 2 for t in data["run"]["decision_time"].values())
    six = tournament_json("--bots", THREE, "-n", "3", "-w", "1")
    assert sum(t["decisions"] for t in data["run"]["decision_time"].values()) < sum(
        t["decisions"] for t in six["run"]["decision_time"].values()
    )


# ------------------------------------------------------------------- Ctrl-C


def test_ctrl_c_keeps_and_prints_the_results_so_far_and_exits_130(monkeypatch: pytest.MonkeyPatch) -> None:
    """Interrupted after 4 of 50 games: JSON of those 4 games, a note on stderr, exit code 130."""
    interrupt_at(4, monkeypatch)
    result = runner.invoke(app, ["tournament", "--bots", THREE, "-n", "50", "-w", "1", "--json"])
    assert result.exit_code == 130, result.output
    assert "Traceback" not in result.output
    data = json.loads(result.stdout)
    assert data["interrupted"] is True
    assert data["games"] == 4
    assert data["games_requested"] == 50
    assert sum(e["wins"] for e in data["entrants"]) == pytest.approx(4)
    assert "interrupted after 4 of 50 games" in result.stderr
    # The partial results are those of the first 4 games of the full run.
    full = tournament_json("--bots", THREE, "-n", "4", "-w", "1")
    assert data["entrants"] == full["entrants"]


def test_ctrl_c_prints_the_table_of_the_games_played(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without --json the standings table of the finished games is printed before exiting 130."""
    interrupt_at(3, monkeypatch)
    result = runner.invoke(app, ["tournament", "--bots", "random,random", "-n", "20", "-w", "1"])
    assert result.exit_code == 130, result.output
    assert "3 games, 2 players" in result.stdout
    assert "random#1" in result.stdout and "random#2" in result.stdout
    assert "interrupted after 3 of 20 games" in result.stderr


def test_library_raises_tournament_interrupted_with_the_partial_result(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`run_tournament` turns Ctrl-C into TournamentInterrupted (still a KeyboardInterrupt) carrying the games so far."""
    interrupt_at(2, monkeypatch)
    with pytest.raises(TournamentInterrupted) as caught:
        run_tournament(TournamentConfig(specs=("random", "random"), games=10), workers=1)
    assert isinstance(caught.value, KeyboardInterrupt)
    assert caught.value.result.interrupted
    assert [r.index for r in caught.value.result.records] == [0, 1]


# ---------------------------------------------------------------------- Ray


def test_bare_ray_flag_means_a_local_instance() -> None:
    """`--ray` alone (last, or before another option) becomes `--ray local`; `--ray ADDRESS` is kept."""
    assert expand_bare_ray(["--ray"]) == ["--ray", "local"]
    assert expand_bare_ray(["--ray", "--json"]) == ["--ray", "local", "--json"]
    assert expand_bare_ray(["--ray", "ray://head:10001", "-n", "3"]) == [
        "--ray",
        "ray://head:10001",
        "-n",
        "3",
    ]
    assert expand_bare_ray(["--", "--ray"]) == ["--", "--ray"]


def test_ray_without_ray_installed_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the optional package, `--ray` exits 2 and says to install oriflamme[cluster]."""
    monkeypatch.setitem(sys.modules, "ray", None)  # makes `import ray` fail
    result = runner.invoke(app, ["tournament", "--bots", "random,random", "-n", "2", "--ray"])
    assert result.exit_code == 2, result.output
    assert "pip install 'oriflamme[cluster]'" in result.stderr


@pytest.mark.skipif(
    importlib.util.find_spec("ray") is None, reason="needs the optional 'cluster' extra (ray)"
)
def test_ray_backend_agrees_with_the_local_backend() -> None:
    """The same seeded run as Ray tasks on a local 2-CPU instance gives the same standings."""
    config = TournamentConfig(specs=("random", "random", "random"), deck="random", games=9, seed=4)
    local = run_tournament(config, workers=1).to_dict()
    remote = run_tournament(config, workers=2, use_ray=True).to_dict()
    assert remote["run"]["backend"] == "ray"
    assert without_run(remote) == without_run(local)
    assert not math.isnan(remote["run"]["games_per_second"])


def test_a_root_parallel_bot_in_worker_processes_lets_the_tournament_end() -> None:
    """`ismcts:easy@2` keeps a pool of searchers in each tournament worker; those workers must
    still exit when the games are done (they once waited for their searchers forever)."""
    command = [sys.executable, "-m", "oriflamme", "tournament", "--bots", "ismcts:easy@2,random,random"]
    command += ["-n", "2", "--workers", "2", "--seed", "1", "--json"]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=240, check=False)
    except subprocess.TimeoutExpired:
        pytest.fail("the tournament did not end: a worker process waits for its root-parallel searchers")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["games_requested"] == 2 and sum(e["games"] for e in result["entrants"]) == 6
