"""What the JSON API answers, as schemas for its OpenAPI document (``/openapi.json``).

The routes build their answers as plain JSON (the table's own ``summary()``, the lobby's
entries, a replay's pages): these models describe them for the documentation, and the
tests check real answers against them (``extra="forbid"``: a key the code adds and the
schema lacks fails there). The routes do not validate their answers through them: the
answers are built once, by the code the tests check.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema

JSON = dict[str, Any]


class _Answer(BaseModel):
    model_config = ConfigDict(extra="forbid")


class EventWords(BaseModel):
    """An event as a seat (or a spectator) sees it, with its words; besides these keys,
    the event's own data (the game's: cards, seats, amounts)."""

    model_config = ConfigDict(extra="allow")

    type: str
    audience: int | None = Field(description="the one seat it is for, or null: everyone's")
    text: str = Field(description="the event in words, seats by name")


def ref(model: type[BaseModel]) -> WithJsonSchema:
    """A field's schema as ``model``'s, for a field a route fills with plain JSON, which is
    not validated again (the models it uses are among the API's documented schemas)."""
    schema = model.model_json_schema(ref_template="#/components/schemas/{model}")
    schema.pop("$defs", None)
    return WithJsonSchema(schema)


class GameOption(_Answer):
    """One option a new table may set."""

    name: str
    default: Any
    help: str
    choices: list[Any] | None = Field(description="the values it takes, if a list")
    minimum: float | None
    maximum: float | None
    local: bool = Field(description="a file on the server's machine (the terminal's only)")


class GameInfo(_Answer):
    """A game: its spec and the bots that play it."""

    name: str
    title: str
    version: int = Field(description="the rules' version (records say which they follow)")
    min_players: int
    max_players: int
    options: list[GameOption]
    bots: list[str]


class TableSeat(_Answer):
    """A seat as anyone may see it."""

    seat: int
    kind: Literal["human", "bot"]
    name: str
    bot: str | None = Field(description="the bot playing it (a bot seat, or a human's handed over)")
    connected: int = Field(description="how many connections it has now")
    reinvited: int = Field(description="how many times the host made its invite anew")
    invited: bool = Field(description="its invite waits to be used: nobody has taken it yet")


class TableSummary(_Answer):
    """A table in memory, for listings."""

    id: str
    game: str
    title: str
    players: int
    options: JSON = Field(description="its public options")
    commitment: str | None = Field(description="SHA-256 commitment to the deal (fair deals)")
    scenario: bool = Field(description="its creator chose the deal")
    seats: list[TableSeat]
    to_act: list[int]
    actions: int = Field(description="while it runs: the changes a spectator has seen")
    over: bool
    closed: bool
    result: Any = Field(description="the game's result once over (its own form), else null")
    turn_seconds: float | None
    spectators: int
    created_at: float
    prev_id: str | None = Field(description="the table this one plays again")
    next_id: str | None = Field(description="the table that played this one again")
    scenario_seed: int | None = Field(None, description="scenario tables only")
    scenario_options: JSON | None = Field(None, description="scenario tables only")


class StoredSeat(_Answer):
    """A seat of a table read from storage."""

    seat: int
    kind: Literal["human", "bot"]
    name: str
    bot: str | None
    invited: bool = Field(description="its invite waits to be used: nobody has taken it yet")


class StoredTable(_Answer):
    """A table read from storage: finished, or not in memory yet."""

    id: str
    game: str
    title: str
    players: int
    seats: list[StoredSeat]
    over: bool
    loaded: Literal[False]
    result: Any
    actions: int | None = Field(description="stored once the game ends")
    created_at: float
    finished_at: float | None
    next_id: str | None


class TableList(_Answer):
    """Running tables (newest first) and the latest finished ones."""

    live: list[TableSummary | StoredTable]
    finished: list[StoredTable]
    next: dict[str, str]  # of the tables named in ``mine``, those played again: next ids


class OpenSeat(_Answer):
    """A seat of a listed table; ``free`` ones may be claimed."""

    seat: int
    kind: Literal["human", "bot"]
    name: str
    bot: str | None
    free: bool


class OpenTable(_Answer):
    """A listed table with a free seat."""

    id: str
    game: str
    title: str
    players: int
    seats: list[OpenSeat]
    free: list[int]
    created_at: float
    age_seconds: float
    scenario: bool
    turn_seconds: float | None


class StateFrame(_Answer):
    """Everything a seat (or a spectator) may know now: the table websocket's welcome."""

    type: Literal["welcome"]
    table: str
    seat: int | None = Field(description="null: a spectator")
    version: int
    events: list[EventWords]
    clock_ms: float | None = Field(description="real-time games: the game's time")
    legal: list[JSON] = Field(description="the seat's legal actions, in their JSON form")
    view: JSON = Field(description="the game's view for this seat (the game's own form)")
    to_act: list[int]
    result: Any
    static: list[str] = Field(description="view keys that never change (later frames omit them)")
    log: list[EventWords] = Field(description="the latest events this seat may see")
    summary: TableSummary


class RecordedAction(_Answer):
    seat: int
    action: JSON


class RecordJSON(_Answer):
    """A game record: replays exactly (``thievery replay FILE``, ``POST /api/replay``)."""

    game: str
    version: int
    players: int
    seed: int
    options: JSON
    actions: list[RecordedAction]
    result: Any
    names: list[str] | None = None
    salt: str | None = None
    commitment: str | None = None
    scenario: bool | None = None
    components: dict[str, str] | None = Field(
        default=None,
        description="a digest of each component the game was played with (a card set), by "
        "name; a record with other ones than the server's does not replay there",
    )


class ReplayDeal(_Answer):
    commitment: str | None
    scenario: bool
    result_matches: bool = Field(description="the record's stated result is the replayed one")


class ReplayPage(_Answer):
    start: int
    limit: int | None
    total: int
    next: int | None = Field(description="the next page's start, if any")


class ReplayStep(_Answer):
    """One step: what the perspective saw change."""

    n: int = Field(description="how many of the record's actions are applied")
    actions: list[RecordedAction] = Field(description="the actions it saw since the last step")
    events: list[EventWords]
    view: JSON = Field(description="its view after them (the game's own form)")
    views: list[JSON] | None = Field(None, description="perspective 'all': every seat's view")


class Replay(_Answer):
    """A game step by step as one perspective saw it (a step where its view changed or it
    saw something happen)."""

    game: str
    players: int
    perspective: int | Literal["all"] | None = Field(description="a seat; null: a spectator")
    names: list[str] | None = Field(description="the seats' names, if the record has them")
    result: Any
    deal: ReplayDeal
    static: list[str]
    steps: list[ReplayStep]
    page: ReplayPage
