"""Computer opponents: legal play everywhere, no peeking at hidden cards, reproducible choices.

The search bot runs here with a tiny iteration budget (a test-only
:class:`SearchLevel`); its strength is measured by
``oriflamme tournament`` (see the README), never in tests.
"""

from __future__ import annotations

import gc
import pickle
import random
from collections.abc import Callable

import pytest

from oriflamme import Game
from oriflamme.bots import Bot, is_timed, make_bot, parse_bot_spec, play_game, search_processes
from oriflamme.bots.heuristic import HeuristicBot, heuristic_action
from oriflamme.bots.ismcts import LEVELS, IsmctsBot, SearchLevel
from oriflamme.bots.random_bot import RandomBot
from oriflamme.engine.action_text import action_text, parse_action
from oriflamme.engine.actions import ARG_MASK, KEEP_ACTION, REVEAL_ACTION
from oriflamme.engine.errors import SetupError
from oriflamme.engine.sampler import sample_game
from oriflamme.engine.view import SeatView
from oriflamme.notation.position import build_position

#: A search small enough for tests; the real levels are measured, not tested.
TINY = SearchLevel(iterations=8, max_seconds=5.0)

DECKS = ["base", "ablaze", "alliance", "random"]


def tiny_ismcts(seed: int) -> IsmctsBot:
    return IsmctsBot(TINY, seed)


def play_checked(game: Game, bots: list[Bot]) -> Game:
    """Play to the end, checking that every choice is one of the view's legal actions."""
    while not game.is_over():
        seat = game.current_player()
        view = game.view(seat)
        action = bots[seat].choose(view)
        assert action in view.legal_actions, (bots[seat].spec, game.decision(), action)
        game.apply(action)
    return game


def decide(bot: Bot, g: Game) -> str:
    """Ask ``bot`` for the pending decision through its seat's view; return the action's text."""
    view = g.view(g.current_player())
    action = bot.choose(view)
    assert action in view.legal_actions
    return action_text(g, action)


# ------------------------------------------------------------ legal play


@pytest.mark.parametrize("deck", DECKS)
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_bot_plays_only_legal_actions(deck: str, players: int) -> None:
    """Mixed tables of search, heuristic and random bots finish games choosing only offered actions."""
    for seed in range(2):
        kinds: list[Callable[[int], Bot]] = [tiny_ismcts, HeuristicBot, RandomBot, HeuristicBot, RandomBot]
        rot = seed % players
        bots = [kinds[(i + rot) % players](seed * 10 + i) for i in range(players)]
        g = play_checked(Game.new(players=players, deck=deck, seed=seed), bots)
        assert g.winners


@pytest.mark.parametrize("deck", DECKS)
def test_heuristic_bots_beat_random_ones_at_every_player_count(deck: str) -> None:
    """Tables of 2 to 5 seats, heuristic and random bots alternating: legal play only, and the
    heuristic bots win nearly every game (93 of 96 over the four decks when this was written)."""
    heuristic_wins = 0.0
    games = 0
    for players in (2, 3, 4, 5):
        for seed in range(6):
            bots: list[Bot] = [
                HeuristicBot(seed * 7 + i) if (i + seed) % 2 == 0 else RandomBot(seed * 7 + i)
                for i in range(players)
            ]
            g = play_checked(Game.new(players=players, deck=deck, seed=100 + seed), bots)
            heuristic_wins += sum(isinstance(bots[s], HeuristicBot) for s in g.winners) / len(g.winners)
            games += 1
    assert heuristic_wins >= 0.8 * games, (heuristic_wins, games)


def test_search_runs_its_whole_iteration_budget_on_a_real_choice() -> None:
    """A decision with several options is searched with exactly the level's iterations."""
    g = build_position(4, "base", "p1:~heir p2:~spy")
    bot = IsmctsBot(TINY, 1)
    assert bot.choose(g.view(0)) in (KEEP_ACTION, REVEAL_ACTION)
    assert bot.last_iterations == TINY.iterations


def test_play_game_helper_runs_registered_bots() -> None:
    """`play_game` seats registered specs and returns the finished game."""
    bots = [make_bot("heuristic", 1), make_bot("random", 2), make_bot("heuristic", 3)]
    g = play_game(Game.new(players=3, deck="alliance", seed=4), bots)
    assert g.is_over() and g.winners
    # The bots' choices are the game: its history replays from the deal to the same end.
    again = Game.new(players=3, deck="alliance", seed=4)
    for action in g.history:
        again.apply(action)
    assert again.score == g.score and again.winners == g.winners == again.outcome().winners
    with pytest.raises(ValueError, match="3 players need 3 bots, got 2"):
        play_game(Game.new(players=3, deck="alliance", seed=4), bots[:2])


# One built position per decision kind, so that rare ones (fetch, swap) are covered too.
DECISION_POSITIONS: dict[str, Callable[[], Game]] = {
    "place": lambda: Game.new(players=4, deck="base", seed=1),
    "keep_or_reveal": lambda: build_position(4, "base", "p1:~heir p2:~spy"),
    "eliminate": lambda: build_position(4, "base", "p2:~heir p1:soldier p1:~lord", pointer=1),
    "decree_pick": lambda: _after(build_position(4, "base", "p1:~royal-decree p2:soldier p1:heir"), "reveal"),
    "decree_dest": lambda: _after(
        build_position(4, "base", "p1:~royal-decree p2:soldier p1:heir"), "reveal", "target 2"
    ),
    "spy": lambda: build_position(4, "base", "p2:~heir p1:spy p3:~heir", pointer=1, scores=[1, 3, 2, 0]),
    "copy": lambda: build_position(4, "base", "p2:heir p1:shapeshifter p3:lord", pointer=1),
    "twin": lambda: _after(build_position(4, "ablaze", "p1:~prince p2:~queen"), "reveal"),
    "fetch": lambda: _after(
        build_position(
            2, "ablaze", "p1:~impersonation p2:queen", discards=[["queen"], []], aside=[["queen"], []]
        ),
        "reveal",
    ),
    "plot_character": lambda: _after(
        build_position(4, "ablaze", "p1:queen p1:~plot+1 p1:schemer", pointer=1), "reveal"
    ),
    "plot_ip": lambda: _after(
        build_position(4, "ablaze", "p1:queen p1:~plot+1 p1:schemer", pointer=1), "reveal", "use 1"
    ),
    "mode": lambda: build_position(4, "alliance", "p1:diplomat+2 p2:~judge"),
    "swap": lambda: _after(
        build_position(4, "alliance", "p1:informant p2:~empress+1", hands=[["fanatic", "judge"], [], [], []]),
        "exchange",
    ),
    "target": lambda: build_position(4, "alliance", "p1:empress p2:~fanatic p3:~judge"),
}


def _after(g: Game, *actions: str) -> Game:
    for text in actions:
        g.apply(parse_action(g, text))
    return g


@pytest.mark.parametrize("decision", sorted(DECISION_POSITIONS))
def test_every_bot_answers_every_decision_kind(decision: str) -> None:
    """Each decision kind of the engine gets a legal answer from every bot kind."""
    g = DECISION_POSITIONS[decision]()
    assert g.decision() == decision
    assert len(g.legal_actions()) > 1
    for bot in (HeuristicBot(1), tiny_ismcts(1), RandomBot(1)):
        decide(bot, g)


# ------------------------------------------------------ sensible choices


def test_heuristic_soldier_eliminates_an_opponent_not_its_own_card() -> None:
    """docs/rules.md §4: own cards are legal targets, but a sensible player takes the opponent's."""
    g = build_position(4, "base", "p2:~heir p1:soldier p1:~lord", pointer=1)
    assert decide(HeuristicBot(0), g) == "target 1"


def test_heuristic_never_eliminates_its_own_card_while_an_opponents_is_available() -> None:
    """Over many random positions, an eliminate decision never picks an own card if another is offered."""
    checked = 0
    for seed in range(120):
        g = Game.new(players=4, deck=("base", "ablaze", "alliance")[seed % 3], seed=seed)
        rng = random.Random(seed)
        while not g.is_over():
            p = g.pending
            assert p is not None
            if g.decision() == "eliminate":
                mine = {a for a in g.legal_actions() if g.ctrl[g.queue[a & ARG_MASK]] == p[1]}
                if len(mine) < len(g.legal_actions()):
                    assert heuristic_action(g, random.Random(0)) not in mine
                    checked += 1
            g.apply(rng.choice(g.legal_actions()))
    assert checked > 50


def test_heuristic_cashes_a_conspiracy_carrying_three_ip() -> None:
    """docs/rules.md §6 Conspiracy: with 3 IP on it, revealing pays 6; waiting risks losing them."""
    g = build_position(4, "base", "p1:~conspiracy+3 p2:~soldier", round=3)
    assert decide(HeuristicBot(0), g) == "reveal"


def test_heuristic_keeps_an_ambush_hidden_before_the_last_round() -> None:
    """docs/rules.md §6 Ambush: it pays 4 only while hidden, so it stays down in round 3."""
    g = build_position(4, "base", "p2:soldier p1:~ambush+2", round=3, pointer=1)
    assert decide(HeuristicBot(0), g) == "keep"


def test_heuristic_waits_with_its_heir_while_another_heir_is_revealed() -> None:
    """docs/rules.md §6 Heir: another revealed Heir makes it gain nothing, so it stays hidden."""
    g = build_position(4, "base", "p2:heir p1:~heir", round=2, pointer=1)
    assert decide(HeuristicBot(0), g) == "keep"


def test_heuristic_reveals_a_lone_heir() -> None:
    """docs/rules.md §6 Heir: no other revealed Heir, so revealing gains 2 now and every round."""
    g = build_position(4, "base", "p2:~spy p1:~heir", round=2, pointer=1)
    assert decide(HeuristicBot(0), g) == "reveal"


def test_heuristic_assassinates_an_opponents_lord_rather_than_its_own_heir() -> None:
    """docs/rules.md §6 Assassination: any card may be hit; a revealed enemy Lord is the best target."""
    g = build_position(4, "base", "p1:~assassination p1:heir p2:~spy/p2:lord p3:~spy", round=3)
    assert decide(HeuristicBot(0), g) == "reveal"
    g.apply(REVEAL_ACTION)
    assert decide(HeuristicBot(0), g) == "target 3"


def test_heuristic_spy_steals_from_the_leader() -> None:
    """docs/rules.md §6 Spy: with two opponents adjacent, take the IP from the one ahead."""
    g = build_position(4, "base", "p2:~heir p1:spy p3:~heir", pointer=1, scores=[1, 6, 2, 0])
    assert decide(HeuristicBot(0), g) == "steal p2"


def test_heuristic_places_a_soldier_next_to_an_opponent() -> None:
    """Placement (docs/rules.md §3): the last player of the round puts its Soldier beside an opponent's card."""
    g = build_position(
        4,
        "base",
        "p1:~heir p2:~lord p3:~spy",
        hands=[[], [], [], ["soldier"]],
        phase="place",
        turn=3,
        first=0,
        round=1,
    )
    # p4 places last: "first" puts the Soldier next to p1, "last" next to p3; both are opponents.
    # Make the choice sharper: p1's card is p4's own family nowhere, so just check it avoids own cards below.
    assert decide(HeuristicBot(0), g) in ("place soldier first", "place soldier last")
    g = build_position(
        4, "base", "p4:~heir p2:~lord", hands=[[], [], [], ["soldier"]], phase="place", turn=3, first=0
    )
    assert decide(HeuristicBot(0), g) == "place soldier last"


def test_heuristic_keeps_a_fresh_heir_away_from_an_enemy_soldier() -> None:
    """Placement: a revealed enemy Soldier will eliminate a neighbour, so the Heir goes to the other end."""
    g = build_position(
        4, "base", "p2:soldier p3:~spy", hands=[[], [], [], ["heir"]], phase="place", turn=3, first=0
    )
    assert decide(HeuristicBot(0), g) == "place heir last"


def test_heuristic_puts_its_lord_next_to_its_own_cards() -> None:
    """docs/rules.md §6 Lord: +1 per adjacent own card, so it goes beside the family."""
    g = build_position(
        4, "base", "p2:~spy p4:~heir", hands=[[], [], [], ["lord"]], phase="place", turn=3, first=0, round=2
    )
    assert decide(HeuristicBot(0), g) == "place lord last"


def test_heuristic_judge_condemns_an_opponents_card_bearing_a_verdict() -> None:
    """docs/rules.md §8 Judge: a verdict on an enemy Empress makes condemning it worth more than 1 IP."""
    g = build_position(4, "alliance", "p1:judge p2:empress!", round=2)
    assert decide(HeuristicBot(0), g) == "condemn"


def test_heuristic_diplomat_cashes_out_in_the_last_round() -> None:
    """docs/rules.md §8 Diplomat: in round 6 the IP on it are worth more than the 1 of a gift."""
    g = build_position(4, "alliance", "p1:diplomat+3 p2:~judge", round=6)
    assert decide(HeuristicBot(0), g) == "cashout"


# ---------------------------------------------------- hidden information


def _mid_game(deck: str, players: int, seed: int, steps: int) -> Game:
    """A random game after ``steps`` actions, or just before its last one."""
    g = Game.new(players=players, deck=deck, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        nxt = g.clone()
        nxt.apply(rng.choice(g.legal_actions()))
        if nxt.is_over():
            break
        g = nxt
    return g


def _reachable(root: object) -> list[object]:
    """Every object reachable from ``root`` through containers and instances (types and modules skipped)."""
    seen: set[int] = set()
    out: list[object] = []
    todo = [root]
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, type) or type(obj).__name__ == "module":
            continue
        seen.add(id(obj))
        out.append(obj)
        todo.extend(gc.get_referents(obj))
    return out


def test_a_view_holds_no_reference_to_the_game() -> None:
    """A bot given a SeatView cannot reach the Game: nothing reachable from the view is one."""
    g = _mid_game("ablaze", 4, 3, 45)
    view = g.view(g.current_player())
    objs = _reachable(view)
    assert not any(isinstance(o, Game) for o in objs)
    assert not any(o is g.kind or o is g.hands or o is g.queue for o in objs)


def test_a_view_pickles_without_the_game_and_unpickles_alone() -> None:
    """The pickled view names no engine class but the view's own, and comes back equal."""
    g = _mid_game("alliance", 5, 8, 60)
    view = g.view(g.current_player())
    data = pickle.dumps(view)
    assert (
        b"oriflamme.engine.game" not in data and b"oriflamme.engine.state" not in data and b"Game" not in data
    )
    assert pickle.loads(data) == view


@pytest.mark.parametrize("deck", ["base", "ablaze", "alliance"])
def test_heuristic_choice_does_not_depend_on_the_true_hidden_cards(deck: str) -> None:
    """Re-dealing every card the seat cannot see never changes the heuristic's choice."""
    for seed in range(25):
        g = _mid_game(deck, 4, seed, seed * 3 % 90)
        view = g.view(g.current_player())
        choices = {heuristic_action(sample_game(view, random.Random(i)), random.Random(5)) for i in range(6)}
        choices.add(heuristic_action(g, random.Random(5)))
        assert len(choices) == 1


def _same_view_other_truth(view: SeatView, rng: random.Random) -> SeatView:
    """The deciding seat's view of a *different* true game: hidden cards re-dealt, the rest kept."""
    other = sample_game(view, rng)
    seat = view.seat
    assert seat is not None
    return other.view(seat)


@pytest.mark.parametrize("make", [HeuristicBot, tiny_ismcts, RandomBot])
def test_bot_choice_is_the_same_whatever_the_hidden_cards_are(make: Callable[[int], Bot]) -> None:
    """Two true games that one seat cannot tell apart get the same choice from that seat's bot."""
    for seed in range(8):
        g = _mid_game(DECKS[seed % 4], 3 + seed % 3, seed, 20 + 9 * seed)
        view = g.view(g.current_player())
        first = make(42).choose(view)
        for i in range(3):
            other = _same_view_other_truth(view, random.Random(i))
            # Identical apart from the action counter, which the re-dealt game restarts.
            assert (
                other.queue == view.queue
                and other.hand == view.hand
                and other.legal_actions == view.legal_actions
            )
            assert make(42).choose(other) == first


# ------------------------------------------------------------- determinism


def _recorded_views(deck: str, players: int, seed: int) -> list[SeatView]:
    g = Game.new(players=players, deck=deck, seed=seed)
    views = []
    bots = [HeuristicBot(seed + s) for s in range(players)]
    while not g.is_over():
        seat = g.current_player()
        view = g.view(seat)
        views.append(view)
        g.apply(bots[seat].choose(view))
    return views


@pytest.mark.parametrize("make", [HeuristicBot, tiny_ismcts, RandomBot])
def test_same_seed_and_same_views_give_the_same_choices(make: Callable[[int], Bot]) -> None:
    """A bot is a function of its seed and the views it was shown, in order."""
    views = _recorded_views("ablaze", 3, 11)[:40]
    a, b = make(9), make(9)
    assert [a.choose(v) for v in views] == [b.choose(v) for v in views]


def test_the_seed_is_what_a_random_bot_plays_by() -> None:
    """Same seed, same choices (above); another seed, other choices, all of them legal."""
    views = [v for v in _recorded_views("ablaze", 3, 11) if len(v.legal_actions) > 1][:40]
    first = [RandomBot(9).choose(v) for v in views]
    other = [RandomBot(10).choose(v) for v in views]
    assert first != other
    assert all(
        a in v.legal_actions and b in v.legal_actions for a, b, v in zip(first, other, views, strict=True)
    )


def test_registered_search_levels_are_reproducible() -> None:
    """`ismcts:easy` from the registry replays its choices given the same seed."""
    views = [v for v in _recorded_views("base", 4, 2) if len(v.legal_actions) > 1][:3]
    a, b = make_bot("ismcts:easy", 5), make_bot("ismcts:easy", 5)
    assert [a.choose(v) for v in views] == [b.choose(v) for v in views]


# ------------------------------------------------------------- registry


def test_registry_knows_the_heuristic_and_the_search_levels() -> None:
    """`heuristic` and `ismcts[:easy|normal|hard|expert|master]` build bots; `ismcts` defaults to normal."""
    assert parse_bot_spec("heuristic") == ("heuristic", None)
    assert parse_bot_spec("ismcts") == ("ismcts", "normal")
    assert make_bot("ismcts").spec == "ismcts:normal"
    assert make_bot("ismcts:hard", 1).spec == "ismcts:hard"
    assert (
        LEVELS["easy"].iterations
        < LEVELS["normal"].iterations
        < LEVELS["hard"].iterations
        < LEVELS["expert"].iterations
        < LEVELS["master"].iterations * LEVELS["master"].workers
    )
    assert (LEVELS["expert"].workers, LEVELS["master"].workers) == (1, 2)
    assert search_processes("ismcts", "master") == 2 and search_processes("ismcts", "expert") == 1
    assert search_processes("ismcts", "hard@3") == 3 and search_processes("heuristic", None) == 1
    with pytest.raises(SetupError, match="levels: easy, normal, hard, expert, master"):
        parse_bot_spec("ismcts:extreme")


def test_custom_search_budgets_by_iterations_or_time() -> None:
    """`ismcts:N` searches N iterations (reproducibly); `ismcts:Xs` thinks X seconds; spellings normalize."""
    assert parse_bot_spec(" ISMCTS:0100 ", custom=True) == ("ismcts", "100")
    assert parse_bot_spec("ismcts:1.50S", custom=True) == ("ismcts", "1.5s")
    assert parse_bot_spec("ismcts:normal", custom=True) == ("ismcts", "normal")
    g = build_position(4, "base", "p1:~heir p2:~spy")
    counted = make_bot("ismcts:12", 4)
    assert isinstance(counted, IsmctsBot) and counted.spec == "ismcts:12"
    first = counted.choose(g.view(0))
    assert counted.last_iterations == 12
    assert make_bot("ismcts:12", 4).choose(g.view(0)) == first
    assert not is_timed("ismcts:12") and not is_timed("ismcts:hard") and not is_timed("heuristic")
    timed = make_bot("ismcts:0.05s", 4)
    assert isinstance(timed, IsmctsBot) and timed.level.timed and timed.level.max_seconds == 0.05
    assert is_timed("ismcts:0.05s")
    assert timed.choose(g.view(0)) in (KEEP_ACTION, REVEAL_ACTION)
    assert 1 <= timed.last_iterations < timed.level.iterations


@pytest.mark.parametrize(
    ("level", "message"),
    [
        ("0", "out of range"),
        ("1000001", "out of range"),
        ("0s", "out of range"),
        ("nans", "out of range"),
        ("3601s", "out of range"),
        ("-3", "unknown ISMCTS level"),
        ("fast", "unknown ISMCTS level"),
        ("1.5", "unknown ISMCTS level"),
        ("xs", "unknown ISMCTS budget"),
    ],
)
def test_bad_custom_budgets_say_what_is_accepted(level: str, message: str) -> None:
    with pytest.raises(SetupError, match=message) as caught:
        parse_bot_spec(f"ismcts:{level}", custom=True)
    assert "a number of iterations" in str(caught.value)


def test_custom_budgets_are_only_for_those_who_ask() -> None:
    """Without `custom` (a shared server's seats) only the named levels exist: nobody books an hour per move."""
    with pytest.raises(SetupError, match="levels: easy, normal, hard, expert, master"):
        parse_bot_spec("ismcts:1000000")
    with pytest.raises(SetupError, match="levels: none"):
        parse_bot_spec("heuristic:5", custom=True)


def test_search_answers_a_forced_decision_without_searching() -> None:
    """A decision with one legal action is answered at once (no iterations run)."""
    g = build_position(4, "alliance", "p1:~insurrection p2:~judge")
    assert g.legal_actions() == (KEEP_ACTION,)
    bot = IsmctsBot(LEVELS["hard"], 1)
    assert bot.choose(g.view(0)) == KEEP_ACTION
    assert bot.last_iterations == 0


def test_search_cashes_a_loaded_conspiracy_in_the_last_round() -> None:
    """docs/rules.md §3, §6: in round 6 a kept Conspiracy never pays again; revealing gives 2 x 4 IP."""
    g = build_position(4, "base", "p1:~conspiracy+4 p2:~heir p3:~spy", round=6)
    assert decide(IsmctsBot(SearchLevel(iterations=40, max_seconds=30.0), 3), g) == "reveal"


def test_search_soldier_prefers_a_revealed_enemy_lord_to_its_own_heir() -> None:
    """docs/rules.md §4: the search, like the heuristic, spares its own card when an enemy one is in reach."""
    g = build_position(4, "base", "p1:heir p1:soldier p2:lord p3:~spy", round=4, pointer=1)
    assert decide(IsmctsBot(SearchLevel(iterations=60, max_seconds=30.0), 3), g) == "target 3"


def test_root_parallel_levels_add_up_independent_searches_reproducibly() -> None:
    """`ismcts:30@2`: two searches of 30 iterations in two processes; the same seed, the same choice."""
    from oriflamme.bots.ismcts import IsmctsBot, parse_level

    assert parse_level("hard@2")[0] == "hard@2" and parse_level("hard@2")[1].workers == 2
    assert parse_level("1.5s@3")[1].timed
    for bad in ("hard@1", "hard@x", "hard@99", "hard@2@2"):
        with pytest.raises(ValueError):
            parse_level(bad)
    g = build_position(4, "base", "p2:~heir p1:soldier p1:~lord p3:~spy", pointer=1)
    view = g.view(0)
    a, b = make_bot("ismcts:30@2", 9), make_bot("ismcts:30@2", 9)
    assert isinstance(a, IsmctsBot) and isinstance(b, IsmctsBot)
    values = a.evaluate(view)
    assert a.last_iterations == 60
    assert sum(v.visits for v in values) == 60
    # choose() plays what the whole budgets' sum favours when its searches do not stop early
    # (each one that stops does so on its own statistics), and a seed reproduces it either way.
    assert make_bot("ismcts:30+early_stop=off@2", 9).choose(view) == values[0].action
    assert b.choose(view) == make_bot("ismcts:30@2", 9).choose(view)
    # The same as adding up, by hand, the two single searches with the seeds the bot draws.
    seeds_rng = random.Random(9)
    seeds = [seeds_rng.getrandbits(63) for _ in range(2)]
    visits: dict[int, float] = {}
    for seed in seeds:
        one = IsmctsBot(parse_level("30")[1], seed).evaluate(view)
        for v in one:
            visits[v.action] = visits.get(v.action, 0) + v.visits
    assert {v.action: v.visits for v in values} == visits
