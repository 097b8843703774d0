"""Every base card of docs/rules.md §6, one scenario per clause or ruling.

The rulebooks' own worked examples live in test_base_examples.py; these tests
cover the rest of each card's text (targets, no-target cases, edge rulings).
"""

from __future__ import annotations

from support.base import B, G, R, event_names, options, pile, play, table, waiting_for

from oriflamme.notation.position import queue_string

# ------------------------------------------------------------------- Archer


def test_archer_targets_only_first_and_last() -> None:
    """§6 Archer: the first or the last card of the queue, never one in the middle."""
    g = table("p2:~heir p3:~lord p1:archer p2:~spy", scores=[0, 0, 0], pointer=2)
    assert waiting_for(g) == ("eliminate", R, 2)
    assert options(g) == ["target 1", "target 4"]


def test_archer_may_eliminate_itself_when_last() -> None:
    """§6 Archer: itself included; the card after it (none) ends the round."""
    g = table("p2:~heir p1:archer", scores=[0, 0, 0], pointer=1)
    assert options(g) == ["target 1", "target 2"]
    play(g, "target 2")
    assert g.score == [1, 0, 0]
    assert pile(g, R) == ["archer"]
    assert g.is_over()


def test_archer_hits_face_down_intrigue() -> None:
    """§6/§4 (seed 004 overruled: any card): the Archer may eliminate a face-down Conspiracy; no doubling."""
    g = table("p1:archer p2:~conspiracy+2", scores=[0, 0, 0])
    play(g, "target 2")
    assert g.score == [1, 0, 0]
    assert pile(g, B) == ["conspiracy"]
    assert queue_string(g) == "p1:archer"


# ------------------------------------------------------------------ Soldier


def test_soldier_chooses_either_neighbour() -> None:
    """§6 Soldier (seed 002): both neighbours are legal, its own family's included."""
    g = table("p1:~heir p1:soldier p2:~lord", scores=[0, 0, 0], pointer=1)
    assert waiting_for(g) == ("eliminate", R, 1)
    assert options(g) == ["target 1", "target 3"]


def test_soldier_alone_does_nothing() -> None:
    """§3: an ability with no legal target has no effect."""
    g = table("p1:soldier", scores=[0, 0, 0])
    assert g.is_over()
    assert g.score == [0, 0, 0]
    assert "no_effect" in event_names(g.events)
    assert queue_string(g) == "p1:soldier"


def test_soldier_ignores_covered_cards() -> None:
    """§5: the Soldier eliminates the top of an adjacent stack only."""
    g = table("p1:soldier p2:~heir+1/p2:~lord+2", scores=[0, 0, 0])
    assert pile(g, B) == ["lord"]
    assert queue_string(g) == "p1:soldier p2:~heir+1"
    assert waiting_for(g) == ("keep_or_reveal", B, 1)


# ---------------------------------------------------------------------- Spy


def test_spy_steals_from_supply_not_from_card() -> None:
    """§6 Spy (seed 002): one IP from the neighbour's controller's supply; the card keeps its IP."""
    g = table("p2:~heir+2 p1:spy", scores=[0, 1, 0], pointer=1)
    assert g.score == [1, 0, 0]
    assert queue_string(g) == "p2:~heir+2 p1:spy"


def test_spy_with_two_opponent_neighbours_controller_chooses() -> None:
    """§6 ruling: with two opponent neighbours the Spy's controller picks the victim."""
    g = table("p2:~heir p1:spy p3:~lord", scores=[0, 2, 2], pointer=1)
    assert waiting_for(g) == ("spy", R, 1)
    assert options(g) == ["steal p2", "steal p3"]
    play(g, "steal p3")
    assert g.score == [1, 2, 1]


def test_spy_with_own_and_opponent_neighbour_steals_from_opponent() -> None:
    """§6 Spy: an own neighbour is no victim; the one opponent is robbed without a question."""
    g = table("p1:~heir p1:spy p3:~lord", scores=[0, 2, 2], pointer=1)
    assert g.score == [1, 2, 1]
    assert waiting_for(g) == ("keep_or_reveal", G, 2)


def test_spy_with_only_own_neighbours_does_nothing() -> None:
    """§6 Spy: if only own cards are adjacent, nothing happens."""
    g = table("p1:~heir p1:spy p1:~lord", scores=[1, 1, 1], pointer=1)
    assert g.score == [1, 1, 1]
    assert waiting_for(g) == ("keep_or_reveal", R, 2)


def test_spy_victim_with_zero_ip_loses_nothing() -> None:
    """§6 ruling: a victim with 0 IP loses nothing, and the Spy gains nothing."""
    g = table("p2:~heir p1:spy", scores=[0, 0, 3], pointer=1)
    assert g.score == [0, 0, 3]
    assert "stolen" not in event_names(g.events)


def test_spy_revealed_takes_ip_then_steals() -> None:
    """§3/§6: revealing the Spy pays its IP, then it steals."""
    g = table("p1:~spy+2 p2:~heir", scores=[0, 3, 0])
    play(g, "reveal")
    assert g.score == [3, 2, 0]


# --------------------------------------------------------------------- Heir


def test_heir_alone_gains_two() -> None:
    """§6 Heir: no other revealed Heir in the queue: +2."""
    g = table("p1:heir p2:~lord", scores=[0, 0, 0])
    assert g.score == [2, 0, 0]


def test_heir_blocked_by_opponents_revealed_heir() -> None:
    """§6 Heir: another revealed Heir of any family blocks the gain, wherever it is."""
    g = table("p1:heir p2:~lord p3:~spy p2:heir", scores=[0, 0, 0])
    assert g.score == [0, 0, 0]


def test_heir_face_down_heir_does_not_block() -> None:
    """§6 Heir: only revealed Heirs count."""
    g = table("p1:heir p2:~lord p3:~heir+1", scores=[0, 0, 0])
    assert g.score == [2, 0, 0]


def test_heir_covered_heir_does_not_block() -> None:
    """§6 Heir: a covered Heir is not an uncovered card and does not count."""
    g = table("p1:heir p2:heir/p2:~lord", scores=[0, 0, 0])
    assert g.score == [2, 0, 0]


# ------------------------------------------------------------- Shapeshifter


def test_shapeshifter_offers_each_adjacent_revealed_character() -> None:
    """§6 Shapeshifter: it copies one adjacent revealed character of its controller's choice."""
    g = table("p2:spy p1:shapeshifter p3:lord", scores=[1, 1, 1], pointer=1)
    assert waiting_for(g) == ("copy", R, 1)
    assert options(g) == ["copy spy", "copy lord"]


def test_shapeshifter_copies_lord_at_its_own_position() -> None:
    """§6 Shapeshifter: the copied Lord counts the Shapeshifter's neighbours for its controller."""
    g = table("p1:~heir p1:shapeshifter p3:lord", scores=[0, 0, 0], pointer=1)
    assert g.score == [2, 0, 1]  # copy forced (one model): 1 + 1 for R's face-down Heir; then G's Lord


def test_shapeshifter_copies_spy() -> None:
    """§6 Shapeshifter: a copied Spy steals for the Shapeshifter's controller from its neighbours."""
    g = table("p2:spy p1:shapeshifter p3:lord", scores=[1, 1, 1], pointer=1)
    play(g, "copy spy")
    assert options(g) == ["steal p2", "steal p3"]
    play(g, "steal p2")
    assert g.score[:2] == [2, 0]


def test_shapeshifter_copies_archer() -> None:
    """§6 Shapeshifter: a copied Archer shoots the first or last card; "this card" is the Shapeshifter."""
    g = table("p2:archer p1:shapeshifter", scores=[0, 0, 0], pointer=1)
    assert options(g) == ["target 1", "target 2"]
    play(g, "target 2")
    assert pile(g, R) == ["shapeshifter"]
    assert g.score == [1, 0, 0]


def test_shapeshifter_without_revealed_neighbour_does_nothing() -> None:
    """§6 Shapeshifter (seed 002): face-down neighbours, even on top of a face-up card, give nothing."""
    g = table("p2:~heir p1:shapeshifter p3:soldier/p3:~lord", scores=[0, 0, 0], pointer=1)
    assert g.score == [0, 0, 0]
    assert "no_effect" in event_names(g.events)
    assert waiting_for(g) == ("keep_or_reveal", G, 2)


def test_shapeshifter_revealed_copies_at_once() -> None:
    """§3/§6: revealed by its owner, the Shapeshifter pays its IP and copies immediately."""
    g = table("p1:~shapeshifter+1 p2:heir", scores=[0, 0, 0])
    play(g, "reveal")
    assert g.score == [3, 2, 0]


# --------------------------------------------------------------------- Lord


def test_lord_alone_gains_one() -> None:
    """§6 Lord: +1 with no own neighbour."""
    g = table("p2:~heir p1:lord p3:~spy", scores=[0, 0, 0], pointer=1)
    assert g.score == [1, 0, 0]


def test_lord_counts_face_down_own_neighbours() -> None:
    """§6 Lord: +1 per adjacent own card, face up or face down."""
    g = table("p1:~heir p1:lord p1:spy", scores=[0, 0, 0], pointer=1)
    assert g.score == [3, 0, 0]


def test_lord_ignores_opponent_stack() -> None:
    """§5/§6: a neighbouring stack topped by an opponent counts nothing."""
    g = table("p2:~spy/p2:~heir p1:lord", scores=[0, 0, 0], pointer=1)
    assert g.score == [1, 0, 0]


# ------------------------------------------------------------ Assassination


def test_assassination_targets_any_top_card_anywhere() -> None:
    """§6 Assassination: any card in the queue, itself included, face up or down, any family."""
    g = table("p2:heir p3:~lord p1:~assassination p2:~spy p3:archer", scores=[0, 0, 0], pointer=2)
    play(g, "reveal")
    assert options(g) == ["target 1", "target 2", "target 3", "target 4", "target 5"]
    play(g, "target 5")
    assert pile(g, G) == ["archer"]
    assert pile(g, R) == ["assassination"]
    assert queue_string(g) == "p2:heir p3:~lord p2:~spy"


def test_assassination_on_an_ambush_is_discarded_once() -> None:
    """§6 Ambush: a sprung Assassination is discarded anyway; it lands in the pile once."""
    g = table("p1:~assassination p2:~ambush+2 p3:~lord", scores=[0, 0, 0])
    play(g, "reveal", "target 2")
    assert g.score == [1, 4, 0]
    assert pile(g, R) == ["assassination"]
    assert pile(g, B) == ["ambush"]
    assert queue_string(g) == "p3:~lord"
    assert waiting_for(g) == ("keep_or_reveal", G, 0)


# ------------------------------------------------------------- Royal Decree


def test_royal_decree_cannot_move_itself() -> None:
    """§6 Royal Decree: any *other* active card."""
    g = table("p2:~heir p1:~royal-decree p3:lord", scores=[0, 0, 0], pointer=1)
    play(g, "reveal")
    assert options(g) == ["target 1", "target 3"]


def test_royal_decree_moves_between_cards_ip_travel() -> None:
    """§6 Royal Decree: the card may go between two cards; its IP go with it; moving is not eliminating."""
    g = table("p1:~royal-decree p2:~heir+3 p3:~lord p2:~spy", scores=[0, 0, 0])
    play(g, "reveal", "target 2")
    assert options(g) == ["to 1", "to 3", "to 4"]
    play(g, "to 3")
    assert queue_string(g) == "p3:~lord p2:~heir+3 p2:~spy"
    assert g.score == [0, 0, 0]
    assert "eliminated" not in event_names(g.events)


def test_royal_decree_alone_does_nothing_and_is_discarded() -> None:
    """§3/§6: with no other card there is nothing to move; the Decree is still discarded."""
    g = table("p1:~royal-decree+1", scores=[0, 0, 0])
    play(g, "reveal")
    assert g.score == [1, 0, 0]
    assert queue_string(g) == ""
    assert pile(g, R) == ["royal-decree"]


def test_royal_decree_moved_card_keeps_face_down() -> None:
    """§6 Royal Decree: a face-down card moves face down; it is not revealed."""
    g = table("p1:~royal-decree p3:~lord p2:~heir+1", scores=[0, 0, 0])
    play(g, "reveal", "target 3", "to 1")
    assert queue_string(g) == "p2:~heir+1 p3:~lord"
    assert waiting_for(g) == ("keep_or_reveal", G, 1)


# ------------------------------------------------------------------- Ambush


def test_ambush_sprung_by_opponent_archer_discards_it() -> None:
    """§6 Ambush: the opponent's Archer gains 1, the owner 4, the Archer is discarded."""
    g = table("p1:archer p2:~heir p3:~ambush", scores=[0, 0, 0])
    play(g, "target 3")
    assert g.score == [1, 0, 4]
    assert pile(g, R) == ["archer"]
    assert queue_string(g) == "p2:~heir"
    assert waiting_for(g) == ("keep_or_reveal", B, 0)


def test_ambush_revealed_with_no_ip() -> None:
    """§6 Ambush: revealed by its owner with nothing on it, it still gives 1."""
    g = table("p1:~ambush p2:~lord", scores=[0, 0, 0])
    play(g, "reveal")
    assert g.score == [1, 0, 0]


# --------------------------------------------------------------- Conspiracy


def test_conspiracy_with_no_ip_gains_nothing() -> None:
    """§6 Conspiracy: twice zero is zero; it is still discarded."""
    g = table("p1:~conspiracy p2:~lord", scores=[1, 0, 0])
    play(g, "reveal")
    assert g.score == [1, 0, 0]
    assert pile(g, R) == ["conspiracy"]


def test_conspiracy_covered_ip_kept_then_doubled() -> None:
    """§5/§6: IP kept under a stack count when the Conspiracy is revealed later."""
    g = table("p1:~conspiracy+2/p1:~assassination p2:~lord", scores=[0, 0, 0])
    play(g, "reveal", "target 2", "reveal")
    assert g.score == [1 + 4, 0, 0]
