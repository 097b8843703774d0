"""Save files: every decision point round-trips, and a bad file is refused with a precise error.

The schema is documented in :mod:`oriflamme.notation.savefile`. The properties checked
here: ``dumps -> loads -> dumps`` gives the same text, the loaded game goes on
exactly like the original, built positions (no seed) save their state alone,
and no input at all makes the reader raise anything but ``SaveFormatError``.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from oriflamme import Game, SaveFormatError, action_text, parse_action
from oriflamme.engine.cards import SLUGS
from oriflamme.engine.options import RuleOptions
from oriflamme.engine.recipes import parse_recipe
from oriflamme.engine.registry import DECISION_NAMES
from oriflamme.engine.setup import Setup
from oriflamme.engine.state import SLOTS
from oriflamme.engine.zones import PHASE_NAMES, ZONE_NAMES
from oriflamme.notation.position import build_position, queue_string
from oriflamme.notation.replay import replay as replay_actions
from oriflamme.notation.savefile import (
    FORMAT,
    SLOTS_DERIVED,
    SLOTS_IN_SETUP,
    SLOTS_TRANSIENT,
    STATE_KEYS,
    VERSION,
    dumps,
    from_dict,
    loads,
    read,
    replay,
    to_dict,
)

DECKS = ("base", "ablaze", "alliance", "random")
FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def play_random(g: Game, rng: random.Random, steps: int) -> None:
    """Apply up to ``steps`` random legal actions."""
    for _ in range(steps):
        if g.is_over():
            return
        g.apply(rng.choice(g.legal_actions()))


def assert_same_future(a: Game, b: Game, seed: int) -> None:
    """Play the same random actions on both games to the end: every event and the final save agree."""
    rng = random.Random(seed)
    while not a.is_over():
        assert b.legal_actions() == a.legal_actions()
        action = rng.choice(a.legal_actions())
        assert b.apply(action) == a.apply(action)
    assert b.is_over()
    assert to_dict(b) == to_dict(a)


# ------------------------------------------------------------- round trips


@FAST
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(2, 5),
    deck=st.sampled_from(DECKS),
    steps=st.integers(0, 200),
)
def test_round_trip_at_random_decision_point(seed: int, players: int, deck: str, steps: int) -> None:
    """Saving at any decision point and loading gives the same file and the same game from then on."""
    g = Game.new(players, deck, seed=seed)
    play_random(g, random.Random(seed), steps)
    text = dumps(g)
    loaded = loads(text)
    assert dumps(loaded) == text
    assert loaded.decision() == g.decision()
    assert loaded.current_player() == g.current_player()
    assert queue_string(loaded) == queue_string(g)
    assert_same_future(g, loaded, seed + 1)


def test_every_decision_kind_round_trips() -> None:
    """Mid-ability decisions (decree, plot, swap, twin, ...) save and resume like placements."""
    wanted = set(DECISION_NAMES) - {"fetch"}  # rare in random play: see the next test
    reached: set[str] = set()
    for seed in range(2000):
        g = Game.new(2 + seed % 4, DECKS[seed % 4], seed=seed)
        rng = random.Random(seed)
        while not g.is_over():
            name = g.decision()
            assert name is not None
            if name not in reached:
                reached.add(name)
                loaded = loads(dumps(g))
                assert loaded.decision() == name
                assert_same_future(g.clone(), loaded, seed)
            g.apply(rng.choice(g.legal_actions()))
        if reached >= wanted:
            break
    assert reached >= wanted


def test_impersonation_fetch_decision_round_trips() -> None:
    """Saved while Impersonation asks where its Queen comes from, the game resumes at that choice."""
    g = build_position(
        2,
        "ablaze",
        queue="p1:~impersonation p2:queen",
        hands={0: "felon", 1: "felon"},
        discards={0: "queen"},
        round=6,
    )
    g.apply(parse_action(g, "reveal"))
    assert g.decision() == "fetch"
    assert sorted(action_text(g, a) for a in g.legal_actions()) == ["fetch aside", "fetch discard"]
    loaded = loads(dumps(g))
    assert loaded.decision() == "fetch"
    assert_same_future(g, loaded, 0)


def test_finished_game_round_trips() -> None:
    """A finished game saves with its winners, no pending decision, and all its actions."""
    g = Game.new(4, "base", seed=5)
    play_random(g, random.Random(5), 10_000)
    d = to_dict(g)
    assert d["state"]["phase"] == "over"
    assert d["state"]["pending"] is None
    assert d["state"]["winners"] == list(g.winners)
    assert len(d["actions"]) == len(g.history)
    loaded = from_dict(json.loads(json.dumps(d)))
    assert loaded.is_over() and loaded.winners == g.winners and loaded.score == g.score


def test_setup_records_how_the_first_player_was_chosen() -> None:
    """first_player is null when the seed drew it, the seat when it was given (they deal differently)."""
    drawn = Game.new(4, "alliance", seed=11)
    assert to_dict(drawn)["setup"]["first_player"] is None
    for seat in range(4):
        g = Game.new(4, "alliance", seed=11, first_player=seat)
        play_random(g, random.Random(seat), 40)
        d = to_dict(g)
        assert d["setup"]["first_player"] == seat
        assert d["setup"]["seed"] == 11
        assert to_dict(replay(d["setup"], d["actions"])) == d


def test_random_recipe_is_saved_as_its_cards() -> None:
    """A random deck is stored as the 10 slugs it drew, so the file does not depend on the drawing."""
    g = Game.new(3, "random", seed=99)
    d = to_dict(g)
    assert d["setup"]["recipe"] == [SLUGS[k] for k in g.recipe]
    assert len(d["setup"]["recipe"]) == 10


def test_rule_options_are_saved() -> None:
    """Non-default rule options travel in the setup and are replayed with the actions."""
    from oriflamme import RuleOptions

    g = Game.new(
        2, "ablaze", seed=3, rules=RuleOptions(schemer_gain=2, two_player_cards_per_round=3, rounds=5)
    )
    play_random(g, random.Random(3), 30)
    d = to_dict(g)
    assert d["setup"]["rules"] == {"schemer_gain": 2, "two_player_cards_per_round": 3, "rounds": 5}
    loaded = loads(dumps(g))
    assert loaded.rules == g.rules
    assert_same_future(g, loaded, 3)


def test_edited_seeded_game_saves_its_state_alone() -> None:
    """A seeded game changed by hand no longer replays: it is saved with null actions and loads as stored."""
    g = Game.new(3, "base", seed=8)
    play_random(g, random.Random(8), 12)
    g.score[0] += 3
    d = to_dict(g)
    assert d["actions"] is None
    assert d["setup"]["first_player"] == (g.first - g.round + 1) % 3
    loaded = loads(dumps(g))
    assert loaded.score == g.score
    assert dumps(loaded) == dumps(g)


BUILT: list[dict[str, Any]] = [
    # stacks, a bribed card, IP on cards, round 2 so stacking is offered later
    dict(
        players=3,
        deck="ablaze",
        queue="p1:~queen+2 p2:cutthroat@p1 p3:~trap/p3:~plot+1 p2:prince",
        hands={0: "felon schemer", 1: "schemer apothecary", 2: "cutthroat queen"},
        discards={0: "bribery"},
        round=2,
        first=1,
    ),
    # verdicts, kept cards, Diplomat holding IP
    dict(
        players=3,
        deck="alliance",
        queue="p1:~judge+1! p2:diplomat+2 p3:~agreement+2 p1:deserter!",
        kept={0: "infiltration", 1: "agreement"},
        hands={0: "empress", 1: "fanatic", 2: "informant"},
        round=3,
        first=2,
    ),
    # placement phase in the two-player variant
    dict(
        players=2,
        deck="base",
        queue="p1:soldier p2:~heir+1 p1:~spy/p1:~assassination",
        hands={0: "archer lord heir", 1: "ambush conspiracy royal-decree"},
        phase="place",
        turn=1,
        round=4,
        first=0,
    ),
    # the last round, so the game ends after this resolution
    dict(
        players=4,
        deck="base",
        queue="p1:archer p2:~soldier p3:shapeshifter p4:~lord+3",
        round=6,
        first=3,
    ),
]


@pytest.mark.parametrize("spec", BUILT, ids=[f"built{i}" for i in range(len(BUILT))])
def test_built_position_round_trips(spec: dict[str, Any]) -> None:
    """A built position (no seed, no actions) saves its state and goes on identically after loading."""
    g = build_position(**spec)
    d = to_dict(g)
    assert d["setup"]["seed"] is None and d["actions"] is None
    text = dumps(g)
    loaded = loads(text)
    assert dumps(loaded) == text
    assert queue_string(loaded) == queue_string(g)
    assert_same_future(g, loaded, 17)


def test_every_game_slot_is_saved() -> None:
    """Each slot of Game is in the state, in the setup, derived, or transient: none is forgotten."""
    accounted = set(STATE_KEYS) | set(SLOTS_IN_SETUP) | set(SLOTS_DERIVED) | set(SLOTS_TRANSIENT)
    assert set(SLOTS) == accounted
    assert len(STATE_KEYS) == len(set(STATE_KEYS))


def test_dumps_is_compact_and_ordered() -> None:
    """The text has no spaces and the top-level keys in schema order."""
    text = dumps(Game.new(3, "base", seed=1))
    assert " " not in text
    assert list(json.loads(text)) == ["format", "version", "setup", "actions", "seats", "state"]
    assert list(json.loads(text)["state"]) == list(STATE_KEYS)


# ---------------------------------------------------------- refused files


@cache
def _seeded_doc() -> str:
    g = Game.new(4, "ablaze", seed=21)
    play_random(g, random.Random(21), 37)
    return json.dumps(to_dict(g))


@cache
def _built_doc() -> str:
    """A position with a stack, a bribe and a verdict, mid-resolution: only its structure can be checked."""
    g = build_position(
        3,
        "shapeshifter,soldier,spy,queen,judge,bribery,prince,assassination,ambush,agreement",
        queue="p1:~queen+1 p2:soldier@p1 p3:~spy/p3:judge! p2:~assassination+2",
        hands={0: "shapeshifter", 1: "spy", 2: "soldier"},
        discards={1: "ambush"},
        kept={2: "agreement"},
        round=2,
        first=1,
    )
    return json.dumps(to_dict(g))


@cache
def _archer_doc() -> str:
    """The face-up Archer is choosing which end of the queue to eliminate."""
    g = build_position(3, "base", queue="p1:archer p2:~heir p3:~spy", hands={0: "soldier"}, round=2)
    assert g.decision() == "eliminate"
    return json.dumps(to_dict(g))


@cache
def _placing_doc() -> str:
    return json.dumps(to_dict(build_position(**BUILT[2])))


def archer() -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(_archer_doc())
    return doc


def placing() -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(_placing_doc())
    return doc


def seeded() -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(_seeded_doc())
    return doc


def built() -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(_built_doc())
    return doc


def seeded_with_discards() -> dict[str, Any]:
    """A built position whose players have discard piles."""
    g = build_position(3, "base", "p1:~spy p2:lord", discards={0: "archer", 1: "soldier"}, round=3)
    doc: dict[str, Any] = json.loads(dumps(g))
    return doc


def _covered(doc: dict[str, Any]) -> tuple[int, int]:
    """(top, covered card) of the built document's stack."""
    s = doc["state"]
    for top in s["queue"]:
        if s["under"][top] >= 0:
            return top, s["under"][top]
    raise AssertionError("no stack")


def _hand_card(doc: dict[str, Any]) -> int:
    card: int = doc["state"]["hands"][0][0]
    return card


def _mut(fn: Callable[[dict[str, Any]], None]) -> Callable[[dict[str, Any]], dict[str, Any]]:
    def apply(doc: dict[str, Any]) -> dict[str, Any]:
        fn(doc)
        return doc

    return apply


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def fn(doc: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        node: Any = doc
        for key in parents:
            node = node[int(key)] if isinstance(node, list) else node[key]
        if isinstance(node, list):
            node[int(last)] = value
        else:
            node[last] = value

    return fn


def _delete(path: str) -> Callable[[dict[str, Any]], None]:
    def fn(doc: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        node: Any = doc
        for key in parents:
            node = node[key]
        del node[last]

    return fn


def _cycle(doc: dict[str, Any]) -> None:
    top, below = _covered(doc)
    doc["state"]["under"][below] = top


def _uncovered_marked_top(doc: dict[str, Any]) -> None:
    _, below = _covered(doc)
    doc["state"]["zone"][below] = "top"


def _card_in_two_piles(doc: dict[str, Any]) -> None:
    doc["state"]["discards"][0].append(_hand_card(doc))


def _card_in_no_pile(doc: dict[str, Any]) -> None:
    doc["state"]["hands"][0].remove(_hand_card(doc))


def _zone_disagrees_with_pile(doc: dict[str, Any]) -> None:
    doc["state"]["zone"][_hand_card(doc)] = "discard"


def _kinds_swapped(doc: dict[str, Any]) -> None:
    k = doc["state"]["kind"]
    k[0], k[1] = k[1], k[0]


def _lost_verdict(doc: dict[str, Any]) -> None:
    doc["state"]["verdict"] = [False] * len(doc["state"]["verdict"])


def _extra_queue_card(doc: dict[str, Any]) -> None:
    doc["state"]["queue"].append(_hand_card(doc))


def _wrong_player_card(doc: dict[str, Any]) -> None:
    # p1's hand card moved into p2's hand
    s = doc["state"]
    c = s["hands"][0].pop(0)
    s["hands"][1].append(c)


def _covered_card_twice(doc: dict[str, Any]) -> None:
    top, below = _covered(doc)
    other = next(c for c in doc["state"]["queue"] if c != top)
    doc["state"]["under"][other] = below


def _seat_zero(doc: dict[str, Any]) -> None:
    doc["state"]["pending"][1] = doc["state"]["pending"][3] = 0


def _stale_action(doc: dict[str, Any]) -> None:
    doc["actions"][5] = "target 99"


def _fewer_actions(doc: dict[str, Any]) -> None:
    doc["actions"].pop()


def _ip_not_replayed(doc: dict[str, Any]) -> None:
    # Consistent in itself (the ledger agrees with the score), but not what the actions give.
    doc["state"]["score"][0] += 1
    doc["state"]["ledger"][0]["position"] = doc["state"]["ledger"][0].get("position", 0) + 1


def _ledger_off(doc: dict[str, Any]) -> None:
    row = doc["state"]["ledger"][0]
    row["start"] = row.get("start", 0) + 1


def _ip_on_pile(pile: str) -> Callable[[dict[str, Any]], None]:
    """Put 1 IP on the first card of p1's ``pile`` (a card out of play: it cannot hold IP)."""

    def fn(doc: dict[str, Any]) -> None:
        state = doc["state"]
        card = state[pile][0][0]
        state["ip"][card] = 1

    return fn


MALFORMED: list[tuple[str, Callable[[], dict[str, Any]], Callable[[dict[str, Any]], Any], str]] = [
    # No IP on a card out of play, zone by zone.
    ("ip_on_hand_card", built, _mut(_ip_on_pile("hands")), "IP on a card in zone 'hand'"),
    ("ip_on_aside_card", built, _mut(_ip_on_pile("aside")), "IP on a card in zone 'aside'"),
    ("ip_on_waiting_twin", built, _mut(_ip_on_pile("twins")), "IP on a card in zone 'twin_aside'"),
    (
        "ip_on_discarded_card",
        seeded_with_discards,
        _mut(_ip_on_pile("discards")),
        "IP on a card in zone 'discard'",
    ),
    ("seats_count", built, _mut(_set("seats", ["you", "you"])), "seats"),
    ("seats_not_text", built, _mut(_set("seats", ["you", 3, "random"])), "seats[1]"),
    ("seats_empty_name", built, _mut(_set("seats", ["you", "", "random"])), "seats[1]"),
    ("seats_control_character", built, _mut(_set("seats", ["you", "bot\x00", "random"])), "seats[1]"),
    ("seats_name_too_long", built, _mut(_set("seats", ["you", "x" * 65, "random"])), "seats[1]"),
    ("seats_in_version_2", built, _mut(lambda d: d.update(version=2)), "seats"),
    ("format", built, _mut(_set("format", "chess-save")), "format"),
    ("version_too_new", built, _mut(_set("version", VERSION + 1)), "version"),
    ("version_bool", built, _mut(_set("version", True)), "version"),
    ("missing_state", built, _mut(_delete("state")), "'state'"),
    ("extra_key", built, _mut(_set("comment", "hi")), "comment"),
    ("players_range", built, _mut(_set("setup.players", 6)), "setup.players"),
    ("players_bool", built, _mut(_set("setup.players", True)), "setup.players"),
    ("players_text", built, _mut(_set("setup.players", "3")), "setup.players"),
    ("recipe_unknown", built, _mut(_set("setup.recipe.3", "dragon")), "setup.recipe[3]"),
    ("recipe_repeat", built, _mut(_set("setup.recipe.3", "spy")), "setup.recipe"),
    ("recipe_type", built, _mut(_set("setup.recipe", "base")), "setup.recipe"),
    ("rules_value", built, _mut(_set("setup.rules.schemer_gain", 3)), "setup.rules"),
    ("rules_missing", built, _mut(_delete("setup.rules.rounds")), "'rounds'"),
    ("rules_extra", built, _mut(_set("setup.rules.jokers", 1)), "jokers"),
    ("rules_float", built, _mut(_set("setup.rules.rounds", 6.0)), "setup.rules.rounds"),
    ("seed_float", seeded, _mut(_set("setup.seed", 21.5)), "setup.seed"),
    ("first_player_range", built, _mut(_set("setup.first_player", 3)), "setup.first_player"),
    ("first_player_null_unseeded", built, _mut(_set("setup.first_player", None)), "setup.first_player"),
    ("first_disagrees", built, _mut(_set("state.first", 2)), "state.first"),
    ("actions_without_seed", built, _mut(_set("actions", [])), "actions"),
    ("action_not_text", seeded, _mut(_set("actions.0", 65536)), "actions[0]"),
    ("action_not_legal", seeded, _mut(_stale_action), "actions[5]"),
    ("actions_short", seeded, _mut(_fewer_actions), "actions"),
    ("state_not_replayed", seeded, _mut(_ip_not_replayed), "state.score[0]: stored"),
    ("ledger_not_summing", built, _mut(_ledger_off), "state.ledger[0]: the causes add up to"),
    ("ledger_unknown_cause", built, _mut(_set("state.ledger.0.luck", 0)), "state.ledger[0] key"),
    ("kind_order", built, _mut(_kinds_swapped), "state.kind[0]"),
    ("owner_wrong", built, _mut(_set("state.owner.0", 1)), "state.owner[0]"),
    ("card_arrays_short", built, lambda d: (d["state"]["ip"].pop(), d)[1], "state.ip"),
    ("up_is_int", built, _mut(_set("state.up.0", 0)), "state.up[0]"),
    ("ip_negative", built, _mut(_set("state.ip.0", -1)), "state.ip[0]"),
    ("ip_huge", built, _mut(_set("state.ip.0", 10**40)), "state.ip[0]"),
    ("ctrl_range", built, _mut(_set("state.ctrl.0", 3)), "state.ctrl[0]"),
    ("under_range", built, _mut(_set("state.under.0", 999)), "state.under[0]"),
    ("zone_unknown", built, _mut(_set("state.zone.0", "pocket")), "state.zone[0]"),
    ("card_in_two_piles", built, _mut(_card_in_two_piles), "state.discards[0]"),
    ("card_in_no_pile", built, _mut(_card_in_no_pile), "state.zone["),
    ("zone_vs_pile", built, _mut(_zone_disagrees_with_pile), "state.hands[0][0]"),
    ("queue_card_from_hand", built, _mut(_extra_queue_card), "queue position"),
    ("card_in_wrong_hand", built, _mut(_wrong_player_card), "state.hands[1]"),
    ("under_cycle", built, _mut(_cycle), "state.under"),
    ("covered_card_on_top", built, _mut(_uncovered_marked_top), "state.zone"),
    ("covered_card_twice", built, _mut(_covered_card_twice), "state.under"),
    ("verdict_count", built, _mut(_lost_verdict), "state.verdict_pool"),
    ("verdict_pool_type", built, _mut(_set("state.verdict_pool", "4")), "state.verdict_pool"),
    ("score_negative", built, _mut(_set("state.score.1", -2)), "state.score[1]"),
    ("score_count", built, _mut(_set("state.score", [1, 1])), "state.score"),
    ("phase_unknown", built, _mut(_set("state.phase", "setup")), "state.phase"),
    ("phase_int", built, _mut(_set("state.phase", 1)), "state.phase"),
    ("round_range", built, _mut(_set("state.round", 7)), "state.round"),
    ("order_wrong", built, _mut(_set("state.order", [0, 1, 2])), "state.order"),
    ("turn_in_resolution", built, _mut(_set("state.turn", 0)), "state.turn"),
    ("ptr_range", built, _mut(_set("state.ptr", 9)), "state.ptr"),
    ("pending_missing", built, _mut(_set("state.pending", None)), "state.pending"),
    ("pending_short", built, _mut(_set("state.pending", [1, 0])), "state.pending"),
    ("pending_seat", built, _mut(_set("state.pending.1", 7)), "state.pending[1]"),
    ("pending_kind", built, _mut(_set("state.pending.0", 99)), "state.pending[0]"),
    ("options_empty", built, _mut(_set("state.options", [])), "state.options"),
    ("options_foreign", built, _mut(_set("state.options", [65536 * 6, 65536 * 6 + 1])), "state.options"),
    ("target_off_queue", archer, _mut(_set("state.options.1", 6 * 65536 + 7)), "state.options[1]"),
    ("target_decider_not_in_queue", archer, _mut(_set("state.pending.2", 1)), "state.pending[2]"),
    ("target_decider_not_controller", archer, _mut(_set("state.pending.3", 2)), "controller"),
    ("placement_option_dropped", placing, lambda d: (d["state"]["options"].pop(), d)[1], "placements"),
    ("placement_by_wrong_seat", placing, _mut(_seat_zero), "state.pending[1]"),
    ("stack_frame_unknown", built, _mut(_set("state.stack", [[42, 0]])), "state.stack[0]"),
    ("stack_frame_short", built, _mut(_set("state.stack", [[0]])), "state.stack[0]"),
    ("winners_in_progress", built, _mut(_set("state.winners", [0])), "state.winners"),
    ("history_type", built, _mut(_set("state.history", [None])), "state.history[0]"),
    ("state_not_object", built, _mut(_set("state", [])), "state"),
    ("top_not_object", built, lambda d: [d], "save file"),
]


@pytest.mark.parametrize(
    ("make", "mutate", "where"),
    [(m[1], m[2], m[3]) for m in MALFORMED],
    ids=[m[0] for m in MALFORMED],
)
def test_malformed_document_is_refused(
    make: Callable[[], dict[str, Any]], mutate: Callable[[dict[str, Any]], Any], where: str
) -> None:
    """Each broken document is refused with SaveFormatError naming the offending key."""
    base = make()
    from_dict(copy.deepcopy(base))  # the unbroken document loads
    with pytest.raises(SaveFormatError) as info:
        from_dict(mutate(base))
    assert where in str(info.value)


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("", "not valid JSON"),
        ("{", "not valid JSON"),
        ('{"format": "oriflamme-save", "format": "x"}', "twice"),
        ('{"format": NaN}', "NaN"),
        ("[" * 100_000 + "]" * 100_000, "nested"),
        ("1" * 5000, "not valid JSON"),
        ("[1, 2, 3]", "save file"),
    ],
    ids=["empty", "truncated", "duplicate_key", "nan", "deep", "huge_int", "list"],
)
def test_unreadable_text_is_refused(text: str, where: str) -> None:
    """Text that is not a JSON object, or abuses JSON, is refused before any game is built."""
    with pytest.raises(SaveFormatError) as info:
        loads(text)
    assert where in str(info.value)


def test_loads_refuses_non_text() -> None:
    """Only text (str or bytes) is a save file."""
    with pytest.raises(SaveFormatError):
        loads(None)  # type: ignore[arg-type]


def test_replay_refuses_a_bad_setup() -> None:
    """replay() checks its setup like a save file's."""
    setup = seeded()["setup"]
    setup["players"] = 1
    with pytest.raises(SaveFormatError, match=r"setup\.players"):
        replay(setup, [])


# --------------------------------------------------------------- fuzzing

json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(-2, 60),
    st.sampled_from([2**31, 2**63, 10**30, -(2**70)]),
    st.floats(allow_nan=True),
    st.text(max_size=12),
    st.sampled_from(ZONE_NAMES + PHASE_NAMES + tuple(SLUGS) + (FORMAT, "keep", "reveal", "target 1")),
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=6),
        st.dictionaries(st.sampled_from(("format", "version", "setup", "state", "actions", "x")), inner),
        st.dictionaries(st.text(max_size=8), inner, max_size=4),
    ),
    max_leaves=30,
)


@FAST
@given(
    value=st.one_of(
        json_values,
        st.fixed_dictionaries(
            {
                "format": st.just(FORMAT),
                "version": st.just(VERSION),
                "setup": json_values,
                "actions": json_values,
                "state": json_values,
            }
        ),
    )
)
def test_arbitrary_json_raises_only_save_format_error(value: Any) -> None:
    """Garbage of any shape is refused with SaveFormatError, never another exception."""
    with pytest.raises(SaveFormatError):
        from_dict(value)


@FAST
@given(text=st.text(max_size=200))
def test_arbitrary_text_raises_only_save_format_error(text: str) -> None:
    """Random text is refused with SaveFormatError."""
    with pytest.raises(SaveFormatError):
        loads(text)


@cache
def _base_docs() -> tuple[str, ...]:
    docs = [_seeded_doc(), _built_doc()]
    for spec in BUILT:
        docs.append(json.dumps(to_dict(build_position(**spec))))
    g = Game.new(2, "alliance", seed=4)
    play_random(g, random.Random(4), 300)  # a finished game
    docs.append(json.dumps(to_dict(g)))
    return tuple(docs)


@st.composite
def mutated_documents(draw: st.DrawFn) -> dict[str, Any]:
    """A valid save document with one thing changed: a value replaced, a key or an entry removed or added."""
    doc: dict[str, Any] = json.loads(draw(st.sampled_from(_base_docs())))
    node: Any = doc
    # Walk down to a random container, then change one of its entries.
    while True:
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        if not keys:
            break
        key = draw(st.sampled_from(keys))
        child = node[key]
        if isinstance(child, (dict, list)) and child and draw(st.integers(0, 3)) > 0:
            node = child
            continue
        how = draw(st.sampled_from(("replace", "replace", "nudge", "delete", "add")))
        if how == "replace":
            node[key] = draw(json_values)
        elif how == "nudge" and type(child) is int:
            node[key] = child + draw(st.sampled_from((-1, 1, 2, -(2**40), 2**40)))
        elif how == "nudge" and type(child) is bool:
            node[key] = not child
        elif how == "delete":
            del node[key]
        elif isinstance(node, list):
            node.append(draw(json_values))
        else:
            node[draw(st.text(max_size=5))] = draw(json_values)
        break
    return doc


#: Fields of a card in the queue that a position edited by hand changes.
CARD_EDITS = ("ip", "up", "asleep", "exposed", "ctrl")


@st.composite
def edited_documents(draw: st.DrawFn) -> dict[str, Any]:
    """A valid save document with one card of the queue edited: its IP, face, sleep, exposure or control.

    Almost every change :func:`mutated_documents` makes is refused (one example in a
    hundred loads), so the "loads, then plays on and round-trips" half of the check
    hardly runs on them. Edits like these are what a person changing a save by hand
    makes, and about three in five of them still describe a legal position. A seeded
    game's actions no longer lead to an edited state: they are dropped, as the game
    itself saves an edited seeded game.
    """
    doc: dict[str, Any] = json.loads(draw(st.sampled_from(_base_docs())))
    doc["actions"] = None
    state = doc["state"]
    cards = [c for c, zone in enumerate(state["zone"]) if zone in ("top", "covered")]
    c = draw(st.sampled_from(cards))
    field = draw(st.sampled_from(CARD_EDITS))
    value = state[field][c]
    if field == "ip":
        state[field][c] = value + draw(st.sampled_from((-1, 1, 2)))
    elif field == "ctrl":
        state[field][c] = draw(st.sampled_from([s for s in range(doc["setup"]["players"]) if s != value]))
    else:
        state[field][c] = not value
    return doc


def refused_or_consistent(doc: dict[str, Any], seed: int) -> dict[str, Any] | None:
    """Check a changed document loads and then round-trips and plays to the end, or raises
    SaveFormatError; return it as it loaded (None: refused)."""
    try:
        g = from_dict(doc)
    except SaveFormatError:
        return None
    text = dumps(g)
    assert dumps(loads(text)) == text
    play_random(g, random.Random(seed), 10_000)
    assert g.is_over()
    loaded: dict[str, Any] = json.loads(text)
    return loaded


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(doc=mutated_documents(), seed=st.integers(0, 1000))
def test_mutated_document_is_refused_or_consistent(doc: dict[str, Any], seed: int) -> None:
    """A changed document either loads (and then plays on and round-trips) or raises SaveFormatError."""
    refused_or_consistent(doc, seed)


@FAST
@given(doc=edited_documents(), seed=st.integers(0, 1000))
def test_edited_position_that_loads_round_trips_and_plays_on(doc: dict[str, Any], seed: int) -> None:
    """A position edited by hand either is refused or is a game: it round-trips and plays to the end."""
    loaded = refused_or_consistent(doc, seed)
    event("refused" if loaded is None else "loaded")
    if loaded is not None:
        assert loaded["state"] == doc["state"], "the edit is kept as it was made"


# ------------------------------------------------------- earlier versions


def _as_version_1(text: str) -> str:
    doc = json.loads(text)
    doc["version"] = 1
    del doc["seats"]
    del doc["state"]["ledger"]
    return json.dumps(doc)


def test_a_version_1_save_with_actions_loads_with_the_ledger_of_its_replay() -> None:
    g = Game.new(4, "ablaze", seed=21)
    play_random(g, random.Random(21), 40)
    loaded = loads(_as_version_1(dumps(g)))
    assert loaded.ledger == g.ledger and loaded.score == g.score
    assert dumps(loaded) == dumps(g)  # and it is saved again as the current version
    assert json.loads(dumps(loaded))["version"] == VERSION


def test_a_version_1_built_position_loads_with_its_scores_as_the_position_cause() -> None:
    g = build_position(3, "base", "p1:lord p2:~heir+2", round=4, scores=[4, 0, 7])
    assert [dict(row) for row in g.outcome().ledger] == [{"position": 4, "lord": 1}, {}, {"position": 7}]
    loaded = loads(_as_version_1(dumps(g)))
    assert loaded.score == g.score == [5, 0, 7]
    # Version 1 did not say where the Lord's IP came from: all of it is the position's.
    assert [dict(row) for row in loaded.outcome().ledger] == [{"position": 5}, {}, {"position": 7}]


def _as_version_2(doc: dict[str, Any], v1_actions: list[str], v1_history: list[int]) -> str:
    """A version 2 file of the same game: no seats, the actions and history as 0.1 wrote them."""
    doc = copy.deepcopy(doc)
    doc["version"] = 2
    del doc["seats"]
    doc["actions"] = v1_actions
    doc["state"]["history"] = v1_history
    return json.dumps(doc)


def _version_1_game(record: dict[str, Any], upto: int) -> tuple[Game, list[str], list[int]]:
    """Replay the first ``upto`` actions of a version 1 golden game; with the version 1 history codes."""
    setup = Setup(record["players"], parse_recipe(record["deck"]), RuleOptions(), record["seed"], None)
    v1 = record["actions"][:upto]
    steps: list[tuple[str, int]] = []
    g = replay_actions(
        setup, v1, lambda g, _e, text, _a: text is None or steps.append((text, g.history[-1])), version=1
    )
    i, codes = 0, []
    for text, code in steps:
        if i < len(v1) and text == v1[i]:
            codes.append(code)
            i += 1
    assert i == len(v1)
    return g, v1, codes


def test_a_version_2_save_loads_with_the_newly_asked_questions_answered() -> None:
    """Save files of 0.1 hold version 1 action lists: they load, and save again as version 3."""
    records = json.loads((Path(__file__).parents[1] / "data" / "golden_games_v1.json").read_text("utf-8"))
    grown = 0
    for record in records:
        for upto in (len(record["actions"]) // 2, len(record["actions"])):
            g, v1, codes = _version_1_game(record, upto)
            loaded = read(_as_version_2(to_dict(g), v1, codes))
            assert loaded.seats is None
            assert dumps(loaded.game) == dumps(g)
            assert len(loaded.game.history) >= len(v1)
            grown += len(loaded.game.history) > len(v1)
            assert json.loads(dumps(loaded.game))["version"] == VERSION
    assert grown >= 3


def test_a_version_2_save_whose_replay_differs_is_refused() -> None:
    """The older file is still checked: a stored score the actions do not give is refused."""
    record = json.loads((Path(__file__).parents[1] / "data" / "golden_games_v1.json").read_text("utf-8"))[0]
    g, v1, codes = _version_1_game(record, 30)
    doc = json.loads(_as_version_2(to_dict(g), v1, codes))
    doc["state"]["score"][0] += 1
    doc["state"]["ledger"][0]["position"] = doc["state"]["ledger"][0].get("position", 0) + 1
    with pytest.raises(SaveFormatError, match=r"state\.score\[0\]"):
        loads(json.dumps(doc))


def test_seats_are_kept_and_read_back() -> None:
    g = Game.new(3, "alliance", seed=5)
    play_random(g, random.Random(5), 12)
    text = dumps(g, seats=["you", "ismcts:normal", "you"])
    saved = read(text)
    assert saved.seats == ("you", "ismcts:normal", "you")
    assert dumps(saved.game, saved.seats) == text
    assert read(dumps(g)).seats is None
    with pytest.raises(ValueError, match="2 seat names for a 3-player game"):
        dumps(g, seats=["you", "you"])
