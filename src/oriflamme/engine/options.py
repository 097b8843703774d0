"""Rule options: the rulings of docs/rules.md §10 that are choices, with their defaults."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

from .errors import SetupError


@dataclass(frozen=True, slots=True)
class RuleOptions:
    """Named rule options. Everything not here is fixed by docs/rules.md."""

    #: IP the Schemer gains when no stack is adjacent (rulebooks say 1, a later printing 2).
    schemer_gain: int = 1
    #: Cards each player places per round in the 2-player variant.
    two_player_cards_per_round: int = 2
    #: Number of rounds in a game.
    rounds: int = 6

    def __post_init__(self) -> None:
        if self.schemer_gain not in (1, 2):
            raise SetupError(f"schemer_gain must be 1 or 2, got {self.schemer_gain!r}")
        if not 1 <= self.two_player_cards_per_round <= 3:
            raise SetupError(
                f"two_player_cards_per_round must be 1 to 3, got {self.two_player_cards_per_round!r}"
            )
        if not 1 <= self.rounds <= 7:
            raise SetupError(f"rounds must be 1 to 7, got {self.rounds!r}")

    def to_dict(self) -> dict[str, int]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RuleOptions:
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise SetupError(f"unknown rule option(s): {', '.join(sorted(unknown))}")
        for key, value in data.items():
            if type(value) is not int:
                raise SetupError(f"rule option {key} must be an integer, got {value!r}")
        return cls(**data)
