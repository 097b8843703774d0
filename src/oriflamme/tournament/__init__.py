"""Tournaments between bots: seating and seeding, playing games on local or Ray workers,
standings with confidence intervals and ratings, and resumable record files.

A library shared by the ``oriflamme tournament`` command (:mod:`.command`) and
by anything else that pits bots against each other. Its modules, in order of
use: :mod:`.config` (what a tournament plays, and per-game seeds),
:mod:`.seating`, :mod:`.games` (one game, batches), :mod:`.runner` (the local
and Ray backends), :mod:`.results` (standings and ratings) and :mod:`.record`
(record files).
"""

from __future__ import annotations

from .._compat import moved_names
from ..stats import Z95, percentile, wilson_interval
from .config import (
    JSON_SCHEMA,
    MAX_ENTRANTS,
    MIN_ENTRANTS,
    RAY_HINT,
    SEATINGS,
    TournamentConfig,
    derive_seed,
    entrant_names,
    normalize_deck,
    normalize_spec,
    parse_entrants,
)
from .games import (
    BATCH_SECONDS,
    Batches,
    GameRecord,
    play_games,
    play_tournament_game,
)
from .record import (
    GAME_LINE_START,
    HEADER_DEFAULTS,
    SYNC_INTERVAL,
    RecordFile,
    header_of,
    parse_record_file,
    sound_length,
)
from .record_lines import (
    MAX_DECISION_SECONDS,
    MAX_GAME_INDEX,
    MAX_SCORE,
    RECORD_SCHEMA,
    record_from_json,
    record_to_json,
    win_shares,
)
from .results import (
    Rating,
    Standing,
    TournamentResult,
    rate_games,
    standing,
    summarize,
)
from .runner import (
    OnGame,
    TournamentInterrupted,
    import_ray,
    resolve_workers,
    run_tournament,
)
from .seating import (
    cyclic_orders,
    seating,
    seating_rule,
)

#: 0.1's ranking helpers: the ranking is the engine's now (``Game.outcome()``).
__getattr__ = moved_names(
    __name__,
    {
        "final_ranks": "oriflamme._compat:final_ranks",
        "tie_averaged_ranks": "oriflamme.engine.outcome:tie_averaged_ranks",
    },
)

__all__ = [
    "BATCH_SECONDS",
    "GAME_LINE_START",
    "HEADER_DEFAULTS",
    "JSON_SCHEMA",
    "MAX_DECISION_SECONDS",
    "MAX_ENTRANTS",
    "MAX_GAME_INDEX",
    "MAX_SCORE",
    "MIN_ENTRANTS",
    "RAY_HINT",
    "RECORD_SCHEMA",
    "SEATINGS",
    "SYNC_INTERVAL",
    "Z95",
    "Batches",
    "GameRecord",
    "OnGame",
    "Rating",
    "RecordFile",
    "Standing",
    "TournamentConfig",
    "TournamentInterrupted",
    "TournamentResult",
    "cyclic_orders",
    "derive_seed",
    "entrant_names",
    "header_of",
    "import_ray",
    "normalize_deck",
    "normalize_spec",
    "parse_entrants",
    "parse_record_file",
    "percentile",
    "play_games",
    "play_tournament_game",
    "rate_games",
    "record_from_json",
    "record_to_json",
    "resolve_workers",
    "run_tournament",
    "seating",
    "seating_rule",
    "sound_length",
    "standing",
    "summarize",
    "wilson_interval",
    "win_shares",
]
