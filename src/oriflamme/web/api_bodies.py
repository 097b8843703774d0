"""The JSON bodies the HTTP API accepts, validated by pydantic (unknown fields refused)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from .names import MAX_NAME


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SeatBody(_Body):
    kind: Literal["person", "bot"]
    name: Annotated[str, Field(max_length=MAX_NAME)] = ""
    bot: Annotated[str | None, Field(max_length=40)] = None
    lang: Annotated[str, Field(max_length=8)] = "en"
    #: The account offered this person's seat, by name ("": none; the seat's link is sent as ever).
    invite: Annotated[str, Field(max_length=64)] = ""


class CreateTableBody(_Body):
    players: Annotated[int, Field(ge=2, le=5)] = 4
    deck: Annotated[str, Field(min_length=1, max_length=400)] = "base"
    seats: Annotated[list[SeatBody], Field(min_length=2, max_length=5)]
    seed: Annotated[int | None, Field(ge=0, lt=1 << 62)] = None
    first_player: Annotated[int | None, Field(ge=0, le=4)] = None
    rules: dict[str, int] | None = None
    #: Seconds a person has for each decision before a bot plays for them (0: no timer).
    turn_seconds: Annotated[int, Field(ge=0, le=3 * 24 * 3600)] = 0
    #: Listed in the lobby: anyone may take a person seat nobody has joined.
    open: bool = False
    #: Anyone may watch: listed in the lobby's live games.
    watchable: bool = False


class JoinOpenBody(_Body):
    #: The table to sit at (None: the oldest open one).
    table: Annotated[str | None, Field(max_length=64)] = None


class QuickMatchBody(_Body):
    lang: Annotated[str, Field(min_length=2, max_length=8)] = "en"


class LobbyBody(_Body):
    tokens: Annotated[list[Annotated[str, Field(max_length=64)]], Field(max_length=200)]


class RematchBody(_Body):
    token: Annotated[str, Field(min_length=1, max_length=64)]


class HintBody(_Body):
    token: Annotated[str, Field(min_length=1, max_length=64)]
    #: The state the hint is for (a hint for an older position is refused).
    state: Annotated[int, Field(ge=0, le=1_000_000)]
