"""Decision data for offline learning: every decision of simulated games as Parquet rows
(``thievery simulate GAME --bots ... --export FILE.parquet``; needs ``pyarrow``).

One row per decision of a seat (the clock's ticks are not decisions), in play order:

========================  ==================  ==============================================
column                    type                meaning
========================  ==================  ==============================================
``game``                  string              the game's name
``game_index``            int32               the game's number in the run
``game_seed``             int64               its seed (only with ``seeds=True``, see below)
``players``               int8                seats
``decision``              int32               the decision's number in its game (from 0)
``seat``                  int8                who decided
``bot``                   string              the bot in that seat
``now_ms``                int64 (nullable)    game time, real-time games only
``view``                  string              the seat's view then, JSON
``legal``                 list<string>        its legal actions, JSON each
``legal_indices``         list<int32>         their indices in :func:`thievery.rl.action_table`
``action``                string              the action taken, JSON
``action_index``          int32               its index in the action table
``scores``                list<double>        the final scores, by seat
``winners``               list<int8>          the winning seats
``reward``                double              the seat's share of the win (winners share 1)
========================  ==================  ==============================================

The seed rebuilds the whole deal (``spec.new(players, seed, options)``): every hand and
every face-down card. So it is left out unless asked for (``seeds=True``, the CLI's
``--export-seeds``), to reproduce games; never give it to a learner.

The observation vector of a row is ``spaces(game, players, options)[1].encode(
json.loads(row["view"]), row["seat"])`` (docs/rl.md), so the file stays small. The
options are the file's own: its schema's metadata holds ``thievery.game``,
``thievery.version`` (the rules version), ``thievery.components`` (JSON: a digest of each
data set that can change without a version, e.g. ``{"cards": "e82e8592f8ea"}``, see
``GameSpec.component_digests``) and ``thievery.options`` (JSON, a card file's set read
in), so a file decodes alone.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from thievery.bots import make_bot
from thievery.core.protocol import CLOCK, ClockedState, State
from thievery.core.record import GameRecord, replay
from thievery.core.registry import plugin
from thievery.core.search import share
from thievery.rl.match import spaces

SEED_COLUMN = "game_seed"
ALL_COLUMNS = (
    "game",
    "game_index",
    SEED_COLUMN,
    "players",
    "decision",
    "seat",
    "bot",
    "now_ms",
    "view",
    "legal",
    "legal_indices",
    "action",
    "action_index",
    "scores",
    "winners",
    "reward",
)
COLUMNS = tuple(c for c in ALL_COLUMNS if c != SEED_COLUMN)  # the default: no seeds


def play(game: str, seating: Sequence[str], seed: int, options: Mapping[str, Any]) -> State:
    """Play one game between bots as ``thievery simulate`` does (the same seeds, so the
    same game) and return the finished state."""
    spec = plugin(game).spec
    state = spec.new(len(seating), seed, options)
    bots = [make_bot(name, game, seat, seed) for seat, name in enumerate(seating)]
    if isinstance(state, ClockedState):
        from thievery.bots.realtime import clock_rng, play_simulated

        play_simulated(state, dict(enumerate(bots)), clock_rng(seed))
    while state.to_act:
        seat = state.to_act[0]
        state.apply(seat, bots[seat].act(state.view(seat), state.legal_actions(seat)))
    return state


def rows(
    game: str,
    seating: Sequence[str],
    seed: int,
    options: Mapping[str, Any],
    index: int,
    seeds: bool = False,
    history: Iterable[Any] | None = None,
) -> Iterator[dict[str, Any]]:
    """Every decision of one game, replayed from the finished game's history (with the
    game's seed only if ``seeds``: it rebuilds every hidden card). ``history``, the
    game's actions as a run kept them (:class:`~thievery.sim.runner.GameOutcome`), spares
    playing it again with its bots."""
    spec = plugin(game).spec
    if history is None:
        finished = play(game, seating, seed, options)
    else:
        # (the game a run played, from its record: its actions, the clock's ticks too)
        version = plugin(game).spec.version
        kept = GameRecord(game, version, len(seating), seed, dict(options), list(history))
        finished = replay(kept)
    result = finished.result()
    assert result is not None
    rewards = share(finished)
    codec, _ = spaces(game, len(seating), options)
    state = spec.new(len(seating), seed, options)
    clocked = isinstance(state, ClockedState)
    n = 0
    for seat, action in finished.history():
        if seat == CLOCK:
            state.apply(seat, action)
            continue
        legal = state.legal_actions(seat)
        row = {
            "game": game,
            "game_index": index,
            "game_seed": seed,
            "players": len(seating),
            "decision": n,
            "seat": seat,
            "bot": seating[seat],
            "now_ms": state.now_ms if clocked else None,  # type: ignore[attr-defined]
            "view": json.dumps(state.view(seat), separators=(",", ":")),
            "legal": [json.dumps(a.to_json(), separators=(",", ":")) for a in legal],
            "legal_indices": [codec.index[a] for a in legal],  # (legal's order)
            "action": json.dumps(action.to_json(), separators=(",", ":")),
            "action_index": codec.index[action],
            "scores": [float(x) for x in result["scores"]],
            "winners": list(result["winners"]),
            "reward": rewards[seat],
        }
        if not seeds:
            del row[SEED_COLUMN]
        yield row
        state.apply(seat, action)
        n += 1


def schema(seeds: bool = False) -> Any:
    """The Parquet schema (pyarrow), with the seed column only if ``seeds``."""
    import pyarrow as pa  # type: ignore[import-untyped, unused-ignore]

    fields = [
        ("game", pa.string()),
        ("game_index", pa.int32()),
        ("game_seed", pa.int64()),
        ("players", pa.int8()),
        ("decision", pa.int32()),
        ("seat", pa.int8()),
        ("bot", pa.string()),
        ("now_ms", pa.int64()),
        ("view", pa.string()),
        ("legal", pa.list_(pa.string())),
        ("legal_indices", pa.list_(pa.int32())),
        ("action", pa.string()),
        ("action_index", pa.int32()),
        ("scores", pa.list_(pa.float64())),
        ("winners", pa.list_(pa.int8())),
        ("reward", pa.float64()),
    ]
    return pa.schema([f for f in fields if seeds or f[0] != SEED_COLUMN])


def export_parquet(
    path: Path,
    game: str,
    games: Iterable[tuple[int, Sequence[str], int] | Any],
    options: Mapping[str, Any] | None = None,
    seeds: bool = False,
) -> int:
    """Write every decision of ``games`` to ``path``, one row group per game (the seeds
    as a column only if ``seeds``); returns the rows written. A game is (index, seating,
    seed), played again with its bots, or a run's
    :class:`~thievery.sim.runner.GameOutcome` with its actions (``history=True``),
    replayed without them."""
    import pyarrow as pa  # type: ignore[import-untyped, unused-ignore]
    import pyarrow.parquet as pq  # type: ignore[import-untyped, unused-ignore]

    # A card file is read in once: every game is of that set, and the file says which
    # (its action table and spaces depend on it), whatever becomes of the card file.
    options = plugin(game).inline_options(options or {})
    schema_ = schema(seeds).with_metadata(
        {
            "thievery.game": game,
            "thievery.version": str(plugin(game).spec.version),
            "thievery.components": json.dumps(
                plugin(game).spec.component_digests(options), sort_keys=True
            ),
            "thievery.options": json.dumps(options, sort_keys=True, separators=(",", ":")),
        }
    )
    written = 0
    with pq.ParquetWriter(str(path), schema_) as writer:
        for one in games:
            if isinstance(one, tuple):
                index, seating, seed = one
                kept = None
            else:  # a run's outcome
                index, seating, seed, kept = one.index, one.seating, one.seed, one.history
            batch = list(rows(game, seating, seed, options, index, seeds, kept))
            if batch:
                writer.write_table(pa.Table.from_pylist(batch, schema=schema_))
                written += len(batch)
    return written
