"""Seat colours stay apart for people with colour blindness, and a mark backs every colour.

Each pair of seat colours is compared in CIELAB after simulating protanopia,
deuteranopia and tritanopia with the matrices of Machado, Oliveira and
Fernandes (2009, severity 1), applied in linear RGB. The page's earlier
palette (red, blue, green, orange, purple) put blue and purple 5.8 apart for
a protanope, well under the 20 required here.
"""

from __future__ import annotations

import itertools
import math
import re
from importlib import resources
from pathlib import Path

import pytest

STATIC = Path(str(resources.files("oriflamme.web") / "static"))

Matrix = tuple[tuple[float, float, float], tuple[float, float, float], tuple[float, float, float]]
SIMULATIONS: dict[str, Matrix | None] = {
    "normal vision": None,
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.303900)),
}  # fmt: skip
#: Smallest CIE76 distance allowed between two seats' colours (about "clearly different" on a swatch).
MIN_DISTANCE = 20.0


def _linear(channel: int) -> float:
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _lab(rgb: list[float]) -> tuple[float, float, float]:
    r, g, b = rgb
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def seen(colour: str, matrix: Matrix | None) -> tuple[float, float, float]:
    rgb = [_linear(int(colour[i : i + 2], 16)) for i in (1, 3, 5)]
    if matrix is not None:
        rgb = [min(1.0, max(0.0, sum(m * c for m, c in zip(row, rgb, strict=True)))) for row in matrix]
    return _lab(rgb)


def closest_pair(colours: list[str], matrix: Matrix | None) -> tuple[float, int, int]:
    labs = [seen(c, matrix) for c in colours]
    return min((math.dist(a, b), i, j) for (i, a), (j, b) in itertools.combinations(enumerate(labs), 2))


def seat_colours() -> list[str]:
    css = (STATIC / "style.css").read_text(encoding="utf-8")
    found = dict(re.findall(r"--fam([0-4]):\s*(#[0-9a-fA-F]{6})", css))
    assert sorted(found) == ["0", "1", "2", "3", "4"]
    return [found[str(i)] for i in range(5)]


@pytest.mark.parametrize("vision", list(SIMULATIONS))
def test_every_pair_of_seat_colours_stays_apart(vision: str) -> None:
    distance, a, b = closest_pair(seat_colours(), SIMULATIONS[vision])
    assert distance >= MIN_DISTANCE, f"seats {a + 1} and {b + 1} are {distance:.1f} apart with {vision}"


def test_the_check_fails_the_old_red_and_green_palette() -> None:
    old = ["#c0392b", "#2f6fd0", "#2e9d57", "#d08c12", "#8e50c6"]
    assert closest_pair(old, SIMULATIONS["protanopia"])[0] < MIN_DISTANCE
    assert closest_pair(old, SIMULATIONS["deuteranopia"])[0] < MIN_DISTANCE


def test_each_seat_has_its_own_mark() -> None:
    """Five distinct shapes, so a seat is known by shape where colours fail (art.js seatMark)."""
    art = (STATIC / "art.js").read_text(encoding="utf-8")
    block = art[art.index("const MARKS") : art.index("];", art.index("const MARKS"))]
    shapes = re.findall(r"'(<[^']+>)'", block)
    assert len(shapes) == 5 and len(set(shapes)) == 5
