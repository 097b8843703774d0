"""``oriflamme tournament --record``: a run stopped anywhere and resumed gives the uninterrupted run's results."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from support.tournament import interrupt_at, without_run
from typer.testing import CliRunner

import oriflamme.tournament.runner as tournament
from oriflamme.cli.app import app
from oriflamme.engine.errors import SetupError
from oriflamme.tournament import (
    Batches,
    GameRecord,
    TournamentConfig,
    play_tournament_game,
    run_tournament,
)
from oriflamme.tournament.record import (
    RECORD_SCHEMA,
    RecordFile,
    record_from_json,
    record_to_json,
)

runner = CliRunner()
THREE = "random,random,random"
CONFIG = TournamentConfig(specs=("random", "random", "random"), deck="random", games=8, seed=3)


def invoke(*args: str) -> Any:
    return runner.invoke(app, ["tournament", "--bots", THREE, "--seed", "3", "-w", "1", *args])


def as_json(*args: str) -> dict[str, Any]:
    result = invoke(*args, "--json")
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_a_run_stopped_by_ctrl_c_and_resumed_gives_the_uninterrupted_results(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Stopped at game 3 of 8, then rerun with the same file: 3 games read back, 5 played, standings identical."""
    path = tmp_path / "games.jsonl"
    with monkeypatch.context() as patch:
        interrupt_at(3, patch)
        stopped = invoke("-n", "8", "--record", str(path), "--json")
    assert stopped.exit_code == 130, stopped.output
    written = lines(path)
    assert written[0]["schema"] == RECORD_SCHEMA
    assert [g["game"] for g in written[1:]] == [0, 1, 2]

    resumed = invoke("-n", "8", "--record", str(path), "--json")
    assert resumed.exit_code == 0, resumed.output
    assert "resuming: 3 of 8 games already in" in resumed.stderr
    data = json.loads(resumed.stdout)
    assert data["run"]["resumed_games"] == 3
    assert without_run(data) == without_run(as_json("-n", "8"))
    assert [g["game"] for g in lines(path)[1:]] == list(range(8))


def test_a_complete_file_is_summarized_without_playing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every game recorded: the rerun plays none (the game function is never called) and prints the table."""
    path = tmp_path / "games.jsonl"
    assert invoke("-n", "4", "--record", str(path)).exit_code == 0
    before = path.read_bytes()

    def must_not_play(config: TournamentConfig, index: int) -> GameRecord:
        raise AssertionError(f"game {index} was played again")

    monkeypatch.setattr(tournament, "play_tournament_game", must_not_play)
    again = invoke("-n", "4", "--record", str(path))
    assert again.exit_code == 0, again.output
    assert "4 games, 3 players" in again.stdout
    assert "4 games from the record file, 0 played" in again.stdout
    assert path.read_bytes() == before


def test_more_games_extend_the_file_and_fewer_count_only_the_first(tmp_path: Path) -> None:
    """A record of 4 games serves a run of 6 (2 more played) and a run of 2 (games 0-1 counted, the rest kept)."""
    path = tmp_path / "games.jsonl"
    assert invoke("-n", "4", "--record", str(path)).exit_code == 0
    six = as_json("-n", "6", "--record", str(path))
    assert six["run"]["resumed_games"] == 4 and six["games"] == 6
    assert without_run(six) == without_run(as_json("-n", "6"))
    two = as_json("-n", "2", "--record", str(path))
    assert two["run"]["resumed_games"] == 2
    assert without_run(two) == without_run(as_json("-n", "2"))
    assert len(lines(path)) == 1 + 6


def test_worker_processes_resume_the_missing_games_only(tmp_path: Path) -> None:
    """The process pool plays just the games the file lacks, and the standings match one in-process run."""
    config = TournamentConfig(specs=CONFIG.specs, deck=CONFIG.deck, games=8, seed=3)
    path = tmp_path / "games.jsonl"
    with RecordFile(path, config) as log:
        for g in (0, 5, 6):
            log.append(play_tournament_game(config, g))
    played: list[int] = []
    with RecordFile(path, config) as log:
        assert sorted(r.index for r in log.previous) == [0, 5, 6]

        def on_game(record: GameRecord) -> None:
            played.append(record.index)
            log.append(record)

        result = run_tournament(config, workers=2, previous=log.previous, on_game=on_game)
    assert sorted(played) == [1, 2, 3, 4, 7]
    assert result.resumed == 3 and result.games_played == 5
    assert without_run(result.to_dict()) == without_run(run_tournament(config, workers=1).to_dict())
    with RecordFile(path, config) as log:
        assert sorted(log.games) == list(range(8))


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_real_games_pass_the_checks_and_survive_the_round_trip_bit_for_bit(players: int) -> None:
    """Every deck kind and seating: what was played reads back equal (scores, shares, ranks, each time)."""
    for deck in ("random", "base", "ablaze", "alliance", "random:base+ablaze"):
        for scheme in ("rotate", "permute"):
            specs = ("random",) * (players - 1) + ("heuristic",)
            config = TournamentConfig(specs=specs, deck=deck, games=9, seed=players, seating=scheme)
            for g in (0, 4, 7):
                record = play_tournament_game(config, g)
                text = json.dumps(record_to_json(record))
                assert record_from_json(json.loads(text), config) == record


def test_a_line_cut_short_by_a_crash_is_dropped_and_that_game_played_again(tmp_path: Path) -> None:
    """A last line with no newline that is not JSON holds no finished game: it is replaced, the rest is kept."""
    path = tmp_path / "games.jsonl"
    assert invoke("-n", "3", "--record", str(path)).exit_code == 0
    whole = path.read_bytes()
    last_line_start = whole.rstrip(b"\n").rfind(b"\n") + 1
    path.write_bytes(whole[: last_line_start + 40])  # game 2's line, cut mid-write
    with RecordFile(path, CONFIG) as log:
        assert log.dropped_partial_line
        assert sorted(r.index for r in log.previous) == [0, 1]
    data = as_json("-n", "3", "--record", str(path))
    assert data["run"]["resumed_games"] == 2
    # The same three games (timings aside: game 2 was played again).
    replayed = lines(path)
    for line in replayed:
        line.pop("decision_seconds", None)
    original = [json.loads(line) for line in whole.decode().splitlines()]
    for line in original:
        line.pop("decision_seconds", None)
    assert replayed == original


def test_a_last_line_missing_only_its_newline_is_kept(tmp_path: Path) -> None:
    """A complete last game without its newline (an edited file) counts, and the next game starts a new line."""
    path = tmp_path / "games.jsonl"
    assert invoke("-n", "2", "--record", str(path)).exit_code == 0
    path.write_bytes(path.read_bytes().rstrip(b"\n"))
    data = as_json("-n", "3", "--record", str(path))
    assert data["run"]["resumed_games"] == 2
    assert [g["game"] for g in lines(path)[1:]] == [0, 1, 2]


def _replace_game(index: int, change: Callable[[dict[str, Any]], None]) -> Callable[[list[str]], list[str]]:
    def edit(text: list[str]) -> list[str]:
        data = json.loads(text[index + 1])
        change(data)
        text[index + 1] = json.dumps(data)
        return text

    return edit


def _set(key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    return lambda data: data.__setitem__(key, value)


CORRUPTIONS: list[tuple[str, Callable[[list[str]], list[str]], str]] = [
    (
        "other bots",
        lambda t: [t[0].replace('"random"]', '"heuristic"]'), *t[1:]],
        "records another tournament",
    ),
    ("other seed", lambda t: [t[0].replace('"seed":3', '"seed":4'), *t[1:]], "seed 4 (this run: 3)"),
    ("other seating", lambda t: [t[0].replace('"rotate"', '"permute"'), *t[1:]], "seating 'permute'"),
    ("other schema", lambda t: [t[0].replace(RECORD_SCHEMA, "x/9"), *t[1:]], "not a tournament record file"),
    (
        "record of 0.1",
        lambda t: [t[0].replace(RECORD_SCHEMA, "oriflamme.tournament-games/1"), *t[1:]],
        "record of an earlier version: its games were played by oriflamme 0.1",
    ),
    ("not JSON", lambda t: [t[0], "{oops", *t[2:]], "line 2 is not JSON"),
    ("blank header", lambda t: ["", *t[1:]], "line 1 must be the tournament header"),
    ("game twice", lambda t: [*t, t[1]], "game 0 is recorded twice"),
    ("wrong seats", _replace_game(1, _set("seats", [0, 1, 2])), "not the rotate seating's seats for game 1"),
    ("missing key", _replace_game(0, lambda d: d.pop("ranks")), "missing ['ranks']"),
    ("two winners", _replace_game(0, _set("shares", [1, 1, 0])), "not 1/k for the k entrants ranked first"),
    ("bad rank", _replace_game(0, _set("ranks", [1, 2, 7])), "numbers from 0 to 3, got 7"),
    ("text score", _replace_game(0, _set("scores", ["5", 1, 2])), "whole numbers"),
    ("negative time", _replace_game(0, _set("decision_seconds", [[-1.0], [], []])), "times from 0 to"),
    ("unknown card", _replace_game(0, _set("recipe", ["dragon"])), "not the recipe this tournament deals"),
    ("list in recipe", _replace_game(0, _set("recipe", [["heir"]])), "not the recipe this tournament deals"),
    ("another game's recipe", _replace_game(0, lambda d: d["recipe"].reverse()), "not the recipe"),
    ("negative game", _replace_game(0, _set("game", -1)), "game number"),
    ("huge score", _replace_game(0, _set("scores", [10**400, 1, 2])), "whole numbers from 0 to"),
    ("huge time", _replace_game(0, _set("decision_seconds", [[10**400], [], []])), "times from 0 to"),
    ("negative score", _replace_game(0, _set("scores", [-7, 1, 2])), "whole numbers from 0 to"),
    ("not places", _replace_game(0, _set("ranks", [1, 1, 1])), "not places 1 to 3"),
    ("last place wins", _replace_game(0, _set("shares", [0, 0, 0])), "ranked first"),
    ("deep nesting", lambda t: [t[0], "[" * 100_000 + "]" * 100_000, *t[2:]], "line 2 is not JSON"),
    ("no actions", _replace_game(0, lambda d: d.pop("actions")), "missing ['actions']"),
    ("another deal", _replace_game(0, lambda d: d["aside"].reverse()), "is not the deal of game 0"),
    ("text action", _replace_game(0, lambda d: d["actions"].__setitem__(0, "keep")), "action codes must be"),
    ("illegal action", _replace_game(0, lambda d: d["actions"].__setitem__(0, 999_999)), "action 1 of"),
    ("actions cut short", _replace_game(0, lambda d: d["actions"].pop()), "is not over after its"),
    ("one action too many", _replace_game(0, lambda d: d["actions"].append(0)), "the game is over after"),
    ("scores edited with ranks", _replace_game(0, lambda d: _inflate_winner(d)), "replayed, the game ends"),
]


def _inflate_winner(data: dict[str, Any]) -> None:
    """A winner's score raised by 10: ranks and shares still agree, only the replay can tell."""
    best = data["ranks"].index(min(data["ranks"]))
    data["scores"][best] += 10


@pytest.mark.parametrize(("what", "corrupt", "message"), CORRUPTIONS, ids=[c[0] for c in CORRUPTIONS])
def test_a_bad_record_file_is_refused_with_its_line_and_left_unchanged(
    tmp_path: Path, what: str, corrupt: Callable[[list[str]], list[str]], message: str
) -> None:
    """Another tournament's file or a malformed line: exit 2, one line saying where and what, file untouched."""
    path = tmp_path / "games.jsonl"
    assert invoke("-n", "3", "--record", str(path)).exit_code == 0
    path.write_text("\n".join(corrupt(path.read_text().splitlines())) + "\n")
    before = path.read_bytes()
    result = invoke("-n", "5", "--record", str(path))
    assert result.exit_code == 2, result.output
    assert message in result.stderr
    assert str(path) in result.stderr
    assert "Traceback" not in result.output
    assert path.read_bytes() == before


def test_an_unwritable_record_path_is_a_clear_error(tmp_path: Path) -> None:
    """A directory, or a file in a folder that does not exist: exit 2 before any game is played."""
    for path in (tmp_path, tmp_path / "missing" / "games.jsonl"):
        result = invoke("-n", "2", "--record", str(path))
        assert result.exit_code == 2, result.output
        assert str(path) in result.stderr


def test_the_library_refuses_another_tournaments_file(tmp_path: Path) -> None:
    """`RecordFile` raises SetupError on opening, before anything is written."""
    path = tmp_path / "games.jsonl"
    with RecordFile(path, CONFIG) as log:
        log.append(play_tournament_game(CONFIG, 0))
    before = path.read_bytes()
    other = TournamentConfig(specs=CONFIG.specs, deck="base", games=8, seed=3)
    with pytest.raises(SetupError, match="deck 'random' \\(this run: 'base'\\)"), RecordFile(path, other):
        pass
    assert path.read_bytes() == before


@pytest.mark.parametrize(
    "content",
    [
        b"my notes, no final newline",
        b"\x00\x01\xff binary",
        b'{"schema":"oriflamme.tournament-games/1","pla'
        b'yers":3,"bots":["random","random","random"],"deck":"random","seed":3,"rules":{}} trailing words',
    ],
    ids=["text", "binary", "header with junk"],
)
def test_a_file_of_one_unreadable_line_is_refused_not_overwritten(tmp_path: Path, content: bytes) -> None:
    """Only a line that begins like one of ours counts as cut short; anything else is not ours to drop."""
    path = tmp_path / "notes.txt"
    path.write_bytes(content)
    result = invoke("-n", "2", "--record", str(path))
    assert result.exit_code == 2, result.output
    assert "line 1" in result.stderr
    assert path.read_bytes() == content


def test_a_header_cut_short_is_rewritten(tmp_path: Path) -> None:
    """A crash while the header was being written leaves a prefix of it: the file starts over."""
    path = tmp_path / "games.jsonl"
    assert invoke("-n", "1", "--record", str(path)).exit_code == 0
    header = path.read_bytes().split(b"\n")[0]
    path.write_bytes(header[:25])
    data = as_json("-n", "2", "--record", str(path))
    assert data["run"]["resumed_games"] == 0
    assert [g.get("game") for g in lines(path)] == [None, 0, 1]


def test_a_second_writer_is_refused_while_the_file_is_open(tmp_path: Path) -> None:
    """Two runs appending to one file would interleave bytes: the second is told the file is busy."""
    path = tmp_path / "games.jsonl"
    with RecordFile(path, CONFIG) as first:
        first.append(play_tournament_game(CONFIG, 0))
        result = invoke("-n", "8", "--record", str(path))
        assert result.exit_code == 2, result.output
        assert "is being written by another run" in result.stderr
        first.append(play_tournament_game(CONFIG, 1))
    with RecordFile(path, CONFIG) as again:
        assert sorted(again.games) == [0, 1]


def test_a_record_file_opened_twice_in_turn_keeps_every_game(tmp_path: Path) -> None:
    """Entering the same RecordFile object again re-reads the file rather than cutting it back."""
    path = tmp_path / "games.jsonl"
    log = RecordFile(path, CONFIG)
    with log:
        log.append(play_tournament_game(CONFIG, 0))
    with log:
        assert sorted(log.games) == [0]
        log.append(play_tournament_game(CONFIG, 1))
    with log:
        assert sorted(log.games) == [0, 1]


def test_a_file_from_before_seating_schemes_resumes_as_rotate(tmp_path: Path) -> None:
    """Headers written before the seating field existed meant rotation; they still resume."""
    path = tmp_path / "games.jsonl"
    assert invoke("-n", "2", "--record", str(path)).exit_code == 0
    path.write_text(path.read_text().replace(',"seating":"rotate"', "", 1))
    assert as_json("-n", "3", "--record", str(path))["run"]["resumed_games"] == 2
    refused = invoke("-n", "3", "--seating", "permute", "--record", str(path))
    assert refused.exit_code == 2 and "seating 'rotate' (this run: 'permute')" in refused.stderr


def test_deck_spellings_of_one_deck_share_a_record(tmp_path: Path) -> None:
    """`--deck Base` resumes a file written with `--deck base`: the same games, one name."""
    path = tmp_path / "games.jsonl"
    assert invoke("-n", "2", "--deck", "base", "--record", str(path)).exit_code == 0
    assert as_json("-n", "2", "--deck", " Base ", "--record", str(path))["run"]["resumed_games"] == 2


def test_batches_grow_for_fast_games_and_stay_single_for_slow_ones() -> None:
    """One game first; then about a second of play per batch, within the caps: Ctrl-C loses little."""
    fast = Batches(range(10_000), workers=2, largest=16)
    assert fast.next() == [0]
    fast.timed(1, 0.001)
    assert fast.next() == list(range(1, 17))  # capped at largest
    slow = Batches(range(400), workers=2, largest=16)
    slow.next()
    slow.timed(1, 20.0)
    assert slow.next() == [1]
    few = Batches(range(40), workers=2, largest=16)
    few.timed(10, 0.01)
    assert few.size() == 1  # 40 games over 2 workers: a sixteenth of a share rounds down to 1
    taken = [few.next() for _ in range(41)]
    assert [g for batch in taken if batch for g in batch] == list(range(40))
    assert taken[-1] is None


def test_a_record_keeps_each_games_deal_and_actions_and_replays_to_its_scores(tmp_path: Path) -> None:
    """Schema 3: a game line holds the deal (set-aside ids per seat) and every action; replaying them
    from the seed's deal ends the game with the recorded scores."""
    from oriflamme.tournament.games import replay

    path = tmp_path / "games.jsonl"
    assert invoke("-n", "3", "--record", str(path)).exit_code == 0
    written = lines(path)
    assert written[0]["schema"] == "oriflamme.tournament-games/3"
    for data in written[1:]:
        record = record_from_json(data, CONFIG)
        assert record.has_actions and len(record.actions) > 20
        game = replay(CONFIG, record)
        assert game.is_over()
        assert [game.score[s] for s in record.seats] == data["scores"]


def _as_schema_2(path: Path) -> None:
    """Rewrite a record file as version 2 wrote it: no deal and no actions."""
    rows = lines(path)
    rows[0]["schema"] = "oriflamme.tournament-games/2"
    for row in rows[1:]:
        del row["aside"], row["actions"]
    path.write_text("".join(json.dumps(r, separators=(",", ":")) + "\n" for r in rows))


def test_a_record_of_schema_2_is_upgraded_and_resumed_and_says_what_its_games_lack(tmp_path: Path) -> None:
    """A version-2 file counts its games and is rewritten in version 3: the old games keep their
    outcomes only, the new ones their deals and actions; the standings are those of one run."""
    path = tmp_path / "games.jsonl"
    assert invoke("-n", "2", "--record", str(path)).exit_code == 0
    _as_schema_2(path)
    resumed = invoke("-n", "4", "--record", str(path), "--json")
    assert resumed.exit_code == 0, resumed.output
    assert "was a record of an earlier version (oriflamme.tournament-games/2)" in resumed.stderr
    assert "its 2 earlier games keep their outcomes only" in resumed.stderr
    assert json.loads(resumed.stdout)["run"]["resumed_games"] == 2
    assert without_run(json.loads(resumed.stdout)) == without_run(as_json("-n", "4"))
    rows = lines(path)
    assert rows[0]["schema"] == RECORD_SCHEMA
    assert [r["game"] for r in rows[1:]] == [0, 1, 2, 3]
    assert ["actions" in r for r in rows[1:]] == [False, False, True, True]
    assert not list(tmp_path.glob("*.upgrading"))
    # Opened again, the file is of the current version: nothing to upgrade, nothing to say.
    again = invoke("-n", "4", "--record", str(path))
    assert again.exit_code == 0 and "earlier version" not in again.stderr


def test_read_record_takes_the_tournament_from_the_header(tmp_path: Path) -> None:
    """A file read on its own: bots, deck, seed and rules from line 1, games in order, replayed."""
    from oriflamme.tournament.record import read_record

    path = tmp_path / "games.jsonl"
    assert invoke("-n", "3", "--deck", "base", "--record", str(path)).exit_code == 0
    recorded = read_record(path)
    assert recorded.config.specs == ("random", "random", "random")
    assert recorded.config.deck == "base" and recorded.config.seed == 3
    assert [r.index for r in recorded.games] == [0, 1, 2]
    assert recorded.without_actions == 0
    _as_schema_2(path)
    old = read_record(path)
    assert old.without_actions == 3 and not any(r.has_actions for r in old.games)


def test_a_gzipped_record_reads_as_its_plain_file_and_a_damaged_one_is_refused(tmp_path: Path) -> None:
    """Records are committed gzipped (docs/measurements): read on their own they need no unpacking."""
    import gzip

    from oriflamme.tournament.record import read_record

    path = tmp_path / "games.jsonl"
    assert invoke("-n", "3", "--deck", "base", "--record", str(path)).exit_code == 0
    packed = tmp_path / "games.jsonl.gz"
    packed.write_bytes(gzip.compress(path.read_bytes()))
    plain, unpacked = read_record(path), read_record(packed)
    assert unpacked.games == plain.games and unpacked.config == plain.config
    fake = tmp_path / "fake.jsonl.gz"
    fake.write_bytes(path.read_bytes())
    with pytest.raises(
        SetupError, match=r"cannot read the record file .*fake\.jsonl\.gz: not a whole gzip file"
    ):
        read_record(fake)
    data = packed.read_bytes()
    damaged = {
        # Cut in the header and cut among the games (for flipped bytes, see the test below).
        "header-cut": data[:30],
        "games-cut": data[: len(data) // 2],
    }
    for name, content in damaged.items():
        bad = tmp_path / f"{name}.jsonl.gz"
        bad.write_bytes(content)
        with pytest.raises(SetupError, match=rf"cannot read the record file .*{name}\.jsonl\.gz: "):
            read_record(bad)


#: The bytes of a gzip file's header that describe the packing, not the content: the time stamp
#: (4-7), the extra flags (8) and the operating system (9). No checksum covers them, and changed
#: they unpack to the same content: a record with one of them flipped is the same record.
GZIP_HEADER_NOTES = range(4, 10)


def test_every_flipped_byte_of_a_gzipped_record_is_refused(tmp_path: Path) -> None:
    """Each byte of a small gzipped record flipped in turn: the file is refused as damaged, never read as
    (or refused for a fault in) the lines a damaged byte can still unpack to; only a flipped note of the
    header reads back, as the same record. The record and its packing are fixed (times set, gzip's time
    stamp 0), so every run checks the same bytes: the test cannot pass by luck."""
    import dataclasses
    import gzip

    from oriflamme.tournament import header_of
    from oriflamme.tournament.record import read_record

    config = TournamentConfig(specs=("random", "random", "random"), deck="base", games=2, seed=3)
    records = [play_tournament_game(config, g) for g in range(config.games)]
    records = [
        dataclasses.replace(r, decision_seconds=tuple((0.001,) * len(t) for t in r.decision_seconds))
        for r in records
    ]
    rows = [header_of(config), *(record_to_json(r) for r in records)]
    plain = "".join(json.dumps(row, separators=(",", ":")) + "\n" for row in rows).encode()
    data = gzip.compress(plain, mtime=0)
    path = tmp_path / "flipped.jsonl.gz"
    path.write_bytes(data)
    assert read_record(path).games == tuple(records)
    for at in range(len(data)):
        path.write_bytes(data[:at] + bytes([data[at] ^ 0xFF]) + data[at + 1 :])
        if at in GZIP_HEADER_NOTES:
            assert read_record(path).games == tuple(records), f"byte {at}"
            continue
        with pytest.raises(SetupError, match=r"cannot read the record file .*flipped\.jsonl\.gz: "):
            read_record(path)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "line 1 must be the tournament header, found nothing"),
        (b'{"schema":"oriflamme.tournament-games/3"}\n', "lacks the header field 'bots'"),
        (
            b'{"schema":"oriflamme.tournament-games/3","players":3,"bots":["random","dragon"],'
            b'"deck":"base","seed":0,"rules":{}}\n',
            "unknown bot",
        ),
        (
            b'{"schema":"oriflamme.tournament-games/3","players":3,"bots":["random","random"],'
            b'"deck":"base","seed":0,"rules":{}}\n',
            "'players' is 3 but 'bots' names 2",
        ),
        (
            b'{"schema":"oriflamme.tournament-games/3","players":2,"bots":["random","random"],'
            b'"deck":"base","seed":"x","rules":{}}\n',
            "'seed' must be a whole number",
        ),
    ],
)
def test_read_record_refuses_a_bad_header_with_its_reason(
    tmp_path: Path, content: bytes, message: str
) -> None:
    from oriflamme.tournament.record import read_record

    path = tmp_path / "games.jsonl"
    path.write_bytes(content)
    with pytest.raises(SetupError, match=message.replace("(", r"\(").replace(")", r"\)")):
        read_record(path)


def test_a_record_that_names_the_wrong_winner_of_a_tie_is_refused(tmp_path: Path) -> None:
    """Scores tied at the top: ranks and shares follow the tie-break, which only the replay knows. Naming the
    other tied player the winner keeps ranks and shares consistent with scores, and is still refused."""
    config = TournamentConfig(specs=("random", "random", "random"), deck="base", games=400, seed=3)
    for index in range(400):
        record = play_tournament_game(config, index)
        best = max(record.scores)
        tied = [e for e, s in enumerate(record.scores) if s == best]
        if len(tied) > 1 and len(set(record.shares)) > 1:
            break
    else:
        pytest.fail("no game with a tie broken by positions in 400: the test proves nothing")
    data = record_to_json(record)
    winner, other = (e for e in tied if record.shares[e]), (e for e in tied if not record.shares[e])
    w, o = next(winner), next(other)
    data["ranks"][w], data["ranks"][o] = data["ranks"][o], data["ranks"][w]
    data["shares"][w], data["shares"][o] = data["shares"][o], data["shares"][w]
    with pytest.raises(ValueError, match="replayed, the game ends with ranks"):
        record_from_json(data, config)


def test_a_game_of_schema_3_may_not_drop_its_actions(tmp_path: Path) -> None:
    """Only games an upgraded file's header lists as older may lack deal and actions."""
    path = tmp_path / "games.jsonl"
    assert invoke("-n", "2", "--record", str(path)).exit_code == 0
    rows = lines(path)
    del rows[1]["aside"], rows[1]["actions"]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    refused = invoke("-n", "2", "--record", str(path))
    assert refused.exit_code == 2
    assert "line 2: game 0 has no deal and actions; only games recorded before version 3" in refused.stderr


def test_upgrading_keeps_the_files_permissions_its_link_and_says_it_dropped_a_cut_line(
    tmp_path: Path,
) -> None:
    """A version-2 file behind a symbolic link, mode 0600, its last line cut short by a crash."""
    import os
    import stat

    real = tmp_path / "real.jsonl"
    assert invoke("-n", "3", "--record", str(real)).exit_code == 0
    _as_schema_2(real)
    real.write_bytes(real.read_bytes() + b'{"game":3,"reci')
    real.chmod(0o600)
    link = tmp_path / "link.jsonl"
    link.symlink_to(real)
    config = TournamentConfig(specs=("random", "random", "random"), deck="random", games=4, seed=3)
    with RecordFile(link, config) as log:
        assert log.upgraded_from == "oriflamme.tournament-games/2"
        assert log.dropped_partial_line
        assert log.without_actions == 3
    assert link.is_symlink()
    assert stat.S_IMODE(os.stat(real).st_mode) == 0o600
    header = lines(real)[0]
    assert header["schema"] == RECORD_SCHEMA and header["without_actions"] == [0, 1, 2]
    assert not list(tmp_path.glob("*.upgrading"))


def test_a_header_with_a_deck_that_is_not_text_names_the_file(tmp_path: Path) -> None:
    from oriflamme.tournament.record import read_record

    path = tmp_path / "games.jsonl"
    path.write_text(
        '{"schema":"oriflamme.tournament-games/3","players":2,"bots":["random","random"],'
        '"deck":["base"],"seed":0,"rules":{}}\n'
    )
    with pytest.raises(SetupError, match=r"games.jsonl: line 1: 'deck' must be a deck's text"):
        read_record(path)


def test_a_record_whose_network_file_is_gone_still_reads_and_replays_but_does_not_resume(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Reading a record replays its actions and builds no bot: a ``zero:FILE`` moved away since (a
    network replaced, a run's directory cleaned), or an install without numpy, must not lock its
    games away. Playing on needs the network, so resuming with the file gone is still refused,
    naming it."""
    pytest.importorskip("numpy")
    from importlib.resources import files

    import oriflamme.bots.registry as registry
    from oriflamme.tournament.record import read_record

    network = tmp_path / "mine.npz"
    network.write_bytes(files("oriflamme.bots.net").joinpath("zero-v1.npz").read_bytes())
    bots = f"zero:{network},random"
    path = tmp_path / "games.jsonl"
    played = runner.invoke(
        app, ["tournament", "--bots", bots, "-n", "2", "--deck", "base", "-w", "1", "--record", str(path)]
    )
    assert played.exit_code == 0, played.output
    network.unlink()
    recorded = read_record(path)
    assert recorded.config.specs == (f"zero:{network}", "random")
    assert [r.index for r in recorded.games] == [0, 1] and recorded.without_actions == 0
    with monkeypatch.context() as patch:

        def without_numpy() -> None:
            raise SetupError("the zero bot needs the 'rl' extra")

        patch.setitem(registry.REQUIREMENTS, "zero", without_numpy)
        assert [r.scores for r in read_record(path).games] == [r.scores for r in recorded.games]
    before = path.read_bytes()
    resumed = runner.invoke(
        app, ["tournament", "--bots", bots, "-n", "3", "--deck", "base", "-w", "1", "--record", str(path)]
    )
    assert resumed.exit_code != 0 and "not found" in resumed.output and network.name in resumed.output
    assert path.read_bytes() == before
