"""How the search bots play where the heuristic plays otherwise: counted habits for playouts.

The heuristic, which plays the search's playouts, reveals a face-down
character almost whenever its pointer comes and plays some kinds first by
far (in *Alliance*, the Deserter five times its share in the first rounds),
where the search bots keep characters hidden far more often early on, to
gather IP and stay out of reach, and spread their kinds otherwise
(``tools/fit_habits.py`` counts their decisions in the committed tournament
records). Playouts that play like the heuristic tell the search what happens
among casual players, not among the bots it meets. With
``SearchLevel.reveals = "fitted"``, a playout's keep-or-reveal is drawn at the
counted odds, by the card's kind, the rounds left and the IP on it; with
``SearchLevel.places = "fitted"``, the kind a playout places is drawn in
proportion to how much more (or less) often than its share the bots played
it, by rounds left, and the heuristic picks where; with ``SearchLevel.covers =
"fitted"``, whether the card goes onto one of the seat's own cards is drawn at
the counted odds, by kind and rounds left (the bots cover their own cards two
to three times as often as the heuristic).
"""

from __future__ import annotations

import random

from ...engine.actions import KEEP_ACTION, PLACE_ON, REVEAL_ACTION, SHIFT, placed_card
from ...engine.cards import KIND_BY_SLUG, MAX_KINDS
from ...engine.game import Game
from ...engine.registry import D_KEEP_OR_REVEAL, D_PLACE, P_ACTOR, P_DECISION, P_SEAT
from .context import Context
from .placement import place

__all__ = [
    "CELLS",
    "COVER_ODDS",
    "IP_CELLS",
    "LEFT_CELLS",
    "PLACE_WEIGHTS",
    "REVEAL_ODDS",
    "by_kind",
    "place_cell",
    "place_draw",
    "reveal_cell",
    "reveal_draw",
]

#: Rounds left after the current one, in cells: 0, 1, 2, 3 or more.
LEFT_CELLS = 4
#: IP on a card, in cells: 0, 1, 2, 3 or more.
IP_CELLS = 4
#: Cells per kind of the reveal odds: rounds left major, then IP.
CELLS = LEFT_CELLS * IP_CELLS

#: Per kind: the chance of a reveal in each cell. ``tools/fit_habits.py`` on the committed
#: ``master`` records of the three boxes (all four seats' decisions).
# fmt: off
REVEAL_ODDS: dict[str, tuple[float, ...]] = {
    "agreement": (
        0.349, 0.663, 0.52, 0.662,
        0.204, 0.472, 0.808, 0.926,
        0.165, 0.291, 0.658, 0.87,
        0.003, 0.118, 0.668, 0.902,
    ),
    "ambush": (
        0.698, 0.597, 0.603, 0.418,
        0.204, 0.097, 0.104, 0.093,
        0.02, 0.025, 0.039, 0.028,
        0.027, 0.031, 0.011, 0.229,
    ),
    "apothecary": (
        0.789, 0.933, 0.945, 0.963,
        0.59, 0.574, 0.63, 0.632,
        0.376, 0.268, 0.293, 0.368,
        0.225, 0.158, 0.263, 0.451,
    ),
    "archer": (
        0.938, 0.93, 0.896, 0.942,
        0.606, 0.529, 0.479, 0.763,
        0.47, 0.449, 0.419, 0.501,
        0.222, 0.085, 0.092, 0.413,
    ),
    "assassination": (
        0.949, 0.96, 0.943, 0.911,
        0.711, 0.566, 0.656, 0.621,
        0.529, 0.356, 0.21, 0.419,
        0.12, 0.126, 0.177, 0.509,
    ),
    "bribery": (
        0.85, 0.917, 0.904, 0.96,
        0.626, 0.551, 0.568, 0.686,
        0.315, 0.169, 0.173, 0.091,
        0.029, 0.039, 0.043, 0.417,
    ),
    "conspiracy": (
        0.174, 0.689, 0.897, 0.973,
        0.038, 0.123, 0.332, 0.602,
        0.038, 0.068, 0.063, 0.263,
        0.003, 0.001, 0.031, 0.183,
    ),
    "cutthroat": (
        0.721, 0.879, 0.941, 0.968,
        0.398, 0.36, 0.376, 0.483,
        0.202, 0.189, 0.203, 0.32,
        0.098, 0.068, 0.125, 0.398,
    ),
    "deserter": (
        0.876, 0.893, 0.855, 0.926,
        0.782, 0.636, 0.732, 0.647,
        0.706, 0.651, 0.81, 0.834,
        0.42, 0.447, 0.522, 0.669,
    ),
    "diplomat": (
        0.825, 0.848, 0.882, 0.856,
        0.494, 0.37, 0.492, 0.614,
        0.36, 0.367, 0.371, 0.434,
        0.198, 0.338, 0.553, 0.663,
    ),
    "empress": (
        0.868, 0.803, 0.86, 0.929,
        0.76, 0.67, 0.763, 0.86,
        0.71, 0.676, 0.716, 0.735,
        0.332, 0.551, 0.63, 0.747,
    ),
    "extortion": (
        0.732, 0.669, 0.482, 0.351,
        0.222, 0.212, 0.391, 0.194,
        0.289, 0.185, 0.256, 0.189,
        0.091, 0.085, 0.18, 0.377,
    ),
    "fanatic": (
        0.821, 0.73, 0.72, 0.838,
        0.729, 0.752, 0.788, 0.575,
        0.79, 0.775, 0.746, 0.756,
        0.436, 0.652, 0.874, 0.825,
    ),
    "felon": (
        0.577, 0.825, 0.914, 0.942,
        0.191, 0.283, 0.257, 0.378,
        0.22, 0.211, 0.174, 0.219,
        0.093, 0.094, 0.066, 0.295,
    ),
    "heir": (
        0.654, 0.874, 0.902, 0.839,
        0.71, 0.615, 0.605, 0.724,
        0.556, 0.492, 0.525, 0.602,
        0.15, 0.089, 0.084, 0.418,
    ),
    "impersonation": (
        0.938, 0.946, 0.944, 0.972,
        0.537, 0.347, 0.417, 0.529,
        0.326, 0.169, 0.25, 0.159,
        0.165, 0.093, 0.142, 0.409,
    ),
    "infiltration": (
        0.893, 0.884, 0.897, 0.822,
        0.705, 0.712, 0.684, 0.679,
        0.76, 0.718, 0.536, 0.703,
        0.709, 0.621, 0.847, 0.725,
    ),
    "informant": (
        0.644, 0.869, 0.833, 0.786,
        0.588, 0.528, 0.461, 0.543,
        0.523, 0.569, 0.589, 0.476,
        0.316, 0.472, 0.778, 0.534,
    ),
    "insurrection": (
        0.7, 0.864, 0.922, 0.917,
        0.7, 0.578, 0.557, 0.629,
        0.7, 0.573, 0.564, 0.635,
        0.7, 0.718, 0.777, 0.725,
    ),
    "judge": (
        0.843, 0.903, 0.893, 0.883,
        0.579, 0.568, 0.614, 0.553,
        0.552, 0.587, 0.573, 0.83,
        0.361, 0.421, 0.735, 0.794,
    ),
    "lord": (
        0.933, 0.924, 0.865, 0.714,
        0.788, 0.843, 0.932, 0.848,
        0.512, 0.557, 0.615, 0.643,
        0.154, 0.143, 0.143, 0.513,
    ),
    "plot": (
        0.875, 0.926, 0.903, 0.974,
        0.325, 0.291, 0.403, 0.588,
        0.081, 0.069, 0.191, 0.464,
        0.011, 0.033, 0.134, 0.28,
    ),
    "prince": (
        0.797, 0.906, 0.901, 0.968,
        0.451, 0.667, 0.708, 0.719,
        0.307, 0.321, 0.296, 0.317,
        0.08, 0.052, 0.111, 0.268,
    ),
    "queen": (
        0.965, 0.908, 0.929, 0.933,
        0.734, 0.759, 0.765, 0.745,
        0.54, 0.466, 0.601, 0.429,
        0.389, 0.376, 0.318, 0.572,
    ),
    "royal-decree": (
        0.85, 0.861, 0.81, 0.95,
        0.366, 0.313, 0.416, 0.421,
        0.039, 0.085, 0.036, 0.199,
        0.027, 0.011, 0.03, 0.346,
    ),
    "schemer": (
        0.873, 0.954, 0.934, 0.968,
        0.516, 0.522, 0.494, 0.526,
        0.186, 0.246, 0.102, 0.217,
        0.099, 0.038, 0.111, 0.398,
    ),
    "shapeshifter": (
        0.842, 0.921, 0.86, 0.908,
        0.565, 0.546, 0.603, 0.605,
        0.299, 0.337, 0.482, 0.414,
        0.039, 0.061, 0.059, 0.391,
    ),
    "soldier": (
        0.849, 0.831, 0.886, 0.884,
        0.709, 0.58, 0.621, 0.666,
        0.609, 0.437, 0.406, 0.518,
        0.181, 0.092, 0.103, 0.382,
    ),
    "spy": (
        0.903, 0.963, 0.887, 0.908,
        0.674, 0.673, 0.572, 0.738,
        0.333, 0.349, 0.282, 0.31,
        0.156, 0.074, 0.129, 0.518,
    ),
    "trap": (
        0.878, 0.842, 0.693, 0.789,
        0.348, 0.173, 0.13, 0.162,
        0.169, 0.054, 0.101, 0.11,
        0.168, 0.064, 0.094, 0.373,
    ),
}
# fmt: on

#: Per kind, by rounds left (3 or more, 2, 1, 0: ``LEFT_CELLS`` cells, most first): how many
#: times its share the bots placed it, where a share is one over the kinds in hand. The same
#: records and tool.
# fmt: off
PLACE_WEIGHTS: dict[str, tuple[float, ...]] = {
    "agreement": (3.209, 0.827, 0.491, 0.296),
    "ambush": (0.914, 0.403, 0.635, 1.689),
    "apothecary": (0.804, 1.832, 1.384, 0.785),
    "archer": (1.177, 1.255, 1.278, 0.995),
    "assassination": (0.657, 1.074, 1.5, 1.29),
    "bribery": (0.707, 0.542, 1.467, 1.035),
    "conspiracy": (3.649, 0.784, 0.756, 0.283),
    "cutthroat": (0.633, 1.161, 1.197, 1.209),
    "deserter": (0.656, 1.354, 1.479, 1.789),
    "diplomat": (0.316, 0.577, 0.709, 0.804),
    "empress": (0.684, 1.188, 1.468, 1.677),
    "extortion": (0.329, 0.579, 0.894, 1.367),
    "fanatic": (1.401, 1.704, 1.221, 1.213),
    "felon": (0.483, 0.166, 0.25, 0.282),
    "heir": (1.078, 2.456, 1.265, 0.827),
    "impersonation": (1.062, 0.851, 1.229, 1.609),
    "infiltration": (1.254, 1.002, 1.113, 0.863),
    "informant": (0.528, 0.749, 0.675, 0.518),
    "insurrection": (2.879, 1.838, 1.109, 0.356),
    "judge": (0.626, 1.169, 1.123, 1.088),
    "lord": (0.832, 1.446, 1.51, 1.275),
    "plot": (1.788, 1.094, 1.3, 1.294),
    "prince": (3.418, 1.56, 1.326, 1.25),
    "queen": (0.964, 2.109, 1.192, 1.572),
    "royal-decree": (0.411, 0.22, 0.513, 0.561),
    "schemer": (0.636, 1.071, 1.018, 0.743),
    "shapeshifter": (0.66, 0.672, 0.822, 0.693),
    "soldier": (1.513, 1.598, 1.354, 1.106),
    "spy": (0.465, 0.77, 1.028, 1.072),
    "trap": (0.792, 0.489, 0.635, 1.539),
}
# fmt: on

#: Per kind, by rounds left (as ``PLACE_WEIGHTS``): the chance that the bots placed it onto one of
#: their own cards, where they could. The same records and tool.
# fmt: off
COVER_ODDS: dict[str, tuple[float, ...]] = {
    "agreement": (0.046, 0.479, 0.208, 0.18),
    "ambush": (0.055, 0.056, 0.261, 0.275),
    "apothecary": (0.211, 0.201, 0.174, 0.134),
    "archer": (0.244, 0.182, 0.148, 0.231),
    "assassination": (0.587, 0.734, 0.727, 0.671),
    "bribery": (0.527, 0.546, 0.603, 0.659),
    "conspiracy": (0.167, 0.13, 0.384, 0.075),
    "cutthroat": (0.148, 0.082, 0.166, 0.324),
    "deserter": (0.339, 0.295, 0.248, 0.175),
    "diplomat": (0.074, 0.057, 0.12, 0.164),
    "empress": (0.051, 0.094, 0.11, 0.106),
    "extortion": (0.187, 0.608, 0.502, 0.59),
    "fanatic": (0.049, 0.105, 0.105, 0.135),
    "felon": (0.061, 0.106, 0.182, 0.32),
    "heir": (0.22, 0.165, 0.103, 0.071),
    "impersonation": (0.385, 0.378, 0.521, 0.66),
    "infiltration": (0.433, 0.482, 0.524, 0.482),
    "informant": (0.205, 0.379, 0.386, 0.375),
    "insurrection": (0.018, 0.063, 0.1, 0.098),
    "judge": (0.044, 0.121, 0.102, 0.157),
    "lord": (0.108, 0.098, 0.119, 0.152),
    "plot": (0.061, 0.127, 0.479, 0.72),
    "prince": (0.195, 0.052, 0.127, 0.128),
    "queen": (0.657, 0.398, 0.329, 0.242),
    "royal-decree": (0.056, 0.201, 0.524, 0.637),
    "schemer": (0.171, 0.116, 0.174, 0.249),
    "shapeshifter": (0.084, 0.08, 0.158, 0.209),
    "soldier": (0.307, 0.209, 0.222, 0.21),
    "spy": (0.304, 0.216, 0.12, 0.139),
    "trap": (0.041, 0.208, 0.548, 0.644),
}
# fmt: on


def by_kind(table: dict[str, tuple[float, ...]], cells: int) -> list[tuple[float, ...] | None]:
    """A table by kind id (None: a kind never counted, left to the heuristic)."""
    out: list[tuple[float, ...] | None] = [None] * MAX_KINDS
    for slug, row in table.items():
        if len(row) != cells:
            raise ValueError(f"{slug}: {len(row)} cells, not {cells}")
        out[KIND_BY_SLUG[slug]] = row
    return out


_REVEALS = by_kind(REVEAL_ODDS, CELLS)
_PLACES = by_kind(PLACE_WEIGHTS, LEFT_CELLS)
_COVERS = by_kind(COVER_ODDS, LEFT_CELLS)


def reveal_cell(g: Game, c: int) -> int:
    """The cell of a row of ``REVEAL_ODDS`` that card ``c`` reads now (rounds left, IP on it)."""
    return min(g.rules.rounds - g.round, LEFT_CELLS - 1) * IP_CELLS + min(g.ip[c], IP_CELLS - 1)


def place_cell(g: Game) -> int:
    """The cell of a row of ``PLACE_WEIGHTS`` or ``COVER_ODDS`` that a placement reads now."""
    return LEFT_CELLS - 1 - min(g.rules.rounds - g.round, LEFT_CELLS - 1)


def reveal_draw(g: Game, rng: random.Random) -> int:
    """Keep or reveal the card the pending decision is about, at the counted odds; -1 where none
    are counted (another decision, a kind with no odds)."""
    p = g.pending
    assert p is not None
    if p[P_DECISION] != D_KEEP_OR_REVEAL:
        return -1
    c = p[P_ACTOR]
    cells = _REVEALS[g.kind[c]]
    if cells is None:
        return -1
    return REVEAL_ACTION if rng.random() < cells[reveal_cell(g, c)] else KEEP_ACTION


def place_draw(g: Game, rng: random.Random, kinds: bool = True, covers: bool = False) -> int:
    """A placement drawn from the counted habits, as asked: its kind at the counted weights
    (``kinds``; else the heuristic's card), then whether it goes onto one of the seat's own cards
    at the counted odds (``covers``); the heuristic picks among what is left. -1 where nothing is
    counted (another decision, a kind with no weights or odds)."""
    p = g.pending
    assert p is not None
    if p[P_DECISION] != D_PLACE:
        return -1
    opts = g.options
    kind = g.kind
    cell = place_cell(g)
    if kinds:
        weights: dict[int, float] = {}
        by_kind: dict[int, list[int]] = {}  # the options placing each kind, in legal order
        for a in opts:
            k = kind[placed_card(a)]
            same = by_kind.get(k)
            if same is None:
                row = _PLACES[k]
                if row is None:
                    return -1
                weights[k] = row[cell]
                by_kind[k] = [a]
            else:
                same.append(a)
        if len(weights) > 1:
            x = rng.random() * sum(weights.values())
            drawn = -1
            for k, w in weights.items():
                drawn = k
                x -= w
                if x < 0.0:
                    break
            opts = tuple(by_kind[drawn])
    ctx = Context(g, p[P_SEAT])
    if covers:
        if not kinds:
            c = placed_card(place(ctx, opts, rng))
            opts = tuple(a for a in opts if placed_card(a) == c)
        odds = _COVERS[kind[placed_card(opts[0])]]  # one kind is left
        if odds is None:
            return -1
        on = tuple(a for a in opts if a >> SHIFT == PLACE_ON)
        if on and len(on) < len(opts):
            opts = on if rng.random() < odds[cell] else tuple(a for a in opts if a >> SHIFT != PLACE_ON)
    return place(ctx, opts, rng)
