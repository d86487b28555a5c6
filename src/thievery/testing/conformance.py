"""The protocol's promises, checked on any game: the conformance suite as functions.

Each ``check_*`` function takes a game (its registered name, its
:class:`~thievery.core.plugin.GamePlugin` or its :class:`~thievery.core.protocol.GameSpec`)
and raises ``AssertionError`` saying what broke and where (game, players, seed, step);
it returns nothing when the game keeps the promise. :func:`check_game` runs them all.
"""

from __future__ import annotations

import json
import re
import tempfile
from collections import Counter
from collections.abc import Iterable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from thievery.core.errors import (
    IllegalAction,
    InvalidOption,
    MalformedAction,
    ThieveryError,
    UnknownGame,
)
from thievery.core.protocol import Action, ClockedState, Event, GameSpec, State
from thievery.core.record import GameRecord, replay
from thievery.core.registry import game as registered_game
from thievery.core.rng import KEYED, Rng
from thievery.core.search import SearchHooks
from thievery.testing._support import (
    MAX_STEPS,
    GameLike,
    all_views,
    components,
    expect,
    json_copy,
    player_counts,
    plugin_of,
    refused,
    snapshot,
    spec_of,
    tick,
    where,
)
from thievery.testing.legality import check_is_legal_matches_legal_actions

PLAYOUT_SEEDS = range(15)  # random playouts per player count
CHECKED_SEEDS = 3  # of which the first this many check every step


def random_playout(
    game: GameLike,
    players: int,
    seed: int,
    *,
    check: bool = False,
    accounting: bool | None = None,
    round_trips: bool | None = None,
) -> State:
    """A game from ``spec.new(players, seed)`` played to the end by a seeded random policy
    (``Rng(seed + 99)``: real-time games' clocks move too), its end checked. With
    ``check``, every step is checked as well: legal actions exactly for the seats to act,
    components neither made nor lost (``accounting``), actions, events and views through
    JSON and back (``round_trips``), events in words; each of the two can be turned off."""
    spec = spec_of(game)
    accounting = check if accounting is None else accounting
    round_trips = check if round_trips is None else round_trips
    state = spec.new(players, seed)
    rng = Rng(seed + 99)
    start = components(state)
    duplicated = [c for c, k in start.items() if k != 1]
    expect(
        not duplicated,
        f"{where(spec, players, seed)}: {duplicated[:3]} in two places at the start",
    )
    for step in range(MAX_STEPS):
        tick(state, rng)
        to_act = state.to_act
        if not to_act:
            break
        if check or round_trips:
            _check_legal_actions(spec, state, seed, step, round_trips=round_trips)
        seat = rng.choice(to_act)
        action = rng.choice(state.legal_actions(seat))
        events = state.apply(seat, action)
        if accounting and components(state) != start:
            raise AssertionError(
                f"{where(spec, players, seed, step)}: {action.to_json()} by seat {seat} "
                f"created, lost or duplicated components: {_component_change(start, state)}"
            )
        if check or round_trips:
            _check_events(spec, state, events, seat, seed, step, round_trips=round_trips)
    else:
        raise AssertionError(f"{where(spec, players, seed)}: no end within {MAX_STEPS} steps")
    _check_result(spec, state, seed)
    return state


def _component_change(start: Counter[Any], state: State) -> str:
    now = components(state)
    return f"gained {dict(now - start)}, lost {dict(start - now)}"


def _check_legal_actions(
    spec: GameSpec, state: State, seed: int, step: int, *, round_trips: bool
) -> None:
    to_act = state.to_act
    for seat in range(state.players):
        legal = state.legal_actions(seat)
        if bool(legal) != (seat in to_act):
            raise AssertionError(
                f"{where(spec, state.players, seed, step)}: seat {seat} has "
                f"{len(legal)} legal actions but is {'' if seat in to_act else 'not '}to act "
                f"(to act: {list(to_act)})"
            )
        if not round_trips:
            continue
        for action in legal:
            data = action.to_json()
            again = spec.parse_action(json.loads(json.dumps(data)))
            if again != action:
                raise AssertionError(
                    f"{where(spec, state.players, seed, step)}: {data} parses back as "
                    f"{again!r}, not {action!r}"
                )


def _check_events(
    spec: GameSpec,
    state: State,
    events: list[Event],
    seat: int,
    seed: int,
    step: int,
    *,
    round_trips: bool,
) -> None:
    for event in events:
        if round_trips:
            json.dumps(event.to_json())
        words = spec.describe(event, seat)
        if not isinstance(words, str):
            at = where(spec, state.players, seed, step)
            raise AssertionError(f"{at}: describe({event}) gave {words!r}, not words")
    if round_trips:
        viewers = [None, *range(state.players)]
        if state.views(viewers) != [state.view(v) for v in viewers]:
            at = where(spec, state.players, seed, step)
            raise AssertionError(f"{at}: views() differs from view() for each seat")
        for viewer, view in zip(viewers, all_views(state), strict=True):
            if json_copy(view) != view:
                at = where(spec, state.players, seed, step)
                raise AssertionError(
                    f"{at}: the view of seat {viewer} changes through JSON and back"
                )


def _check_result(spec: GameSpec, state: State, seed: int) -> None:
    at = where(spec, state.players, seed)
    result = state.result()
    if result is None:
        raise AssertionError(f"{at}: nobody is to act but result() is None")
    expect(
        len(result["scores"]) == state.players,
        f"{at}: {len(result['scores'])} scores for {state.players} players",
    )
    winners = result["winners"]
    expect(
        winners and all(0 <= w < state.players for w in winners),
        f"{at}: the winners {winners} are not a non-empty list of seats",
    )


def check_random_playouts(
    game: GameLike,
    players: int,
    *,
    seeds: Iterable[int] = PLAYOUT_SEEDS,
    checked: int = CHECKED_SEEDS,
) -> None:
    """Random games end cleanly (a result with a score per seat and winners among the
    seats) on every seed; the first ``checked`` seeds check every step on the way (see
    :func:`random_playout`)."""
    for i, seed in enumerate(seeds):
        random_playout(game, players, seed, check=i < checked)


def check_components(game: GameLike, players: int, *, seeds: Iterable[int] = (0, 1, 2)) -> None:
    """Component accounting: every component in exactly one place at the start, and no
    action makes, loses or duplicates one (``state.locations()``)."""
    for seed in seeds:
        random_playout(game, players, seed, accounting=True)


def check_json_round_trips(
    game: GameLike, players: int, *, seeds: Iterable[int] = (0, 1, 2)
) -> None:
    """Every legal action, event and view goes through JSON and back unchanged (actions
    through ``spec.parse_action``)."""
    for seed in seeds:
        random_playout(game, players, seed, round_trips=True)


def check_determinism(game: GameLike, players: int, seed: int) -> None:
    """The same seed and actions give the same game: a record through JSON replays to
    the same result, views and places, and the same seed deals the same start."""
    spec = spec_of(game)
    first = random_playout(spec, players, seed)
    record = GameRecord.from_json(json_copy(GameRecord.of(first).to_json()))
    at = where(spec, players, seed)
    try:
        again = _replay(spec, record)
    except ThieveryError as e:
        raise AssertionError(f"{at}: the game's record differs when replayed: {e}") from e
    expect(again.result() == first.result(), f"{at}: the replayed record's result differs")
    expect(all_views(again) == all_views(first), f"{at}: the replayed record's views differ")
    expect(again.locations() == first.locations(), f"{at}: the replayed record's places differ")
    expect(
        all_views(spec.new(players, seed)) == all_views(spec.new(players, seed)),
        f"{at}: two games of the same seed start differently",
    )


def check_keyed_deals(game: GameLike, players: int | None = None) -> None:
    """A server deals from a keyed seed (``deal_seed``: at least 2**64): the game must
    draw from ``make_rng(seed)``, not ``Rng(seed)``, which keeps only the seed's low 64
    bits. Two keyed seeds that share those bits must deal two games (if seeds change the
    start at all), one keyed seed the same game twice, and a game cloned at every step
    (as a server plays it) the same game as one played in place."""
    spec = spec_of(game)
    n = spec.max_players if players is None else players
    at = f"{spec.name}, {n} players"
    low = 0x5EED
    starts = [all_views(spec.new(n, KEYED * k + low)) for k in (3, 5, 7)]
    if all_views(spec.new(n, 1)) != all_views(spec.new(n, 2)):  # (a seed changes the start)
        expect(
            starts[0] != starts[1] or starts[0] != starts[2],
            f"{at}: keyed seeds that share their low 64 bits deal the same game: new() "
            "seeds Rng(seed), not make_rng(seed)",
        )
    expect(
        all_views(spec.new(n, KEYED * 3 + low)) == starts[0],
        f"{at}: two games of the same keyed seed start differently",
    )
    # A server applies every action to a clone: a keyed game's clone must draw on as the
    # game would (``self.rng.copy()``), not from ``Rng(self.rng.state)``, a SplitMix64 of
    # the draw count, which makes every later card public.
    policy = Rng(low)
    kept, cloned = spec.new(n, KEYED * 3 + low), spec.new(n, KEYED * 3 + low)
    for step in range(MAX_STEPS):
        clocked = isinstance(kept, ClockedState) and isinstance(cloned, ClockedState)
        if clocked and not policy.below(3):
            assert isinstance(kept, ClockedState)
            now = kept.now_ms + policy.below(3000)
            kept.advance(now)
            cloned = cloned.clone()
            assert isinstance(cloned, ClockedState)
            cloned.advance(now)
        if not kept.to_act:
            break
        seat = policy.choice(kept.to_act)
        action = policy.choice(kept.legal_actions(seat))
        kept.apply(seat, action)
        cloned = cloned.clone()
        cloned.apply(seat, action)
        expect(
            all_views(cloned) == all_views(kept),
            f"{at}, step {step}: played on clones (as a server plays), a game dealt from a "
            "keyed seed shows other views than played in place: does clone() copy the "
            "generator (self.rng.copy()), not make Rng(self.rng.state)? (or copy all the "
            "state, in the same order)",
        )


def _replay(spec: GameSpec, record: GameRecord) -> State:
    """A record replayed through the registry when the game is registered (the way
    ``thievery replay`` reads it), else through the spec itself."""
    if _is_registered(spec):
        return replay(record)
    state = spec.new(record.players, record.seed, record.options)
    for seat, action in record.actions:
        state.apply(seat, action)
    return state


def _is_registered(spec: GameSpec) -> bool:
    try:
        return type(registered_game(spec.name)) is type(spec)
    except UnknownGame:
        return False


def check_record_replay(game: GameLike, players: int | None = None, seed: int = 7) -> None:
    """A finished game saved to a file and loaded again replays step by step: one step
    per action, the same result, the same final views (default: the fewest players)."""
    spec = spec_of(game)
    n = spec.min_players if players is None else players
    state = random_playout(spec, n, seed)
    at = where(spec, n, seed)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.json"
        GameRecord.of(state).save(path)
        loaded = GameRecord.load(path)
    expect(loaded.result == state.result(), f"{at}: the loaded record's result differs")
    try:
        steps = _steps(spec, loaded)
    except ThieveryError as e:
        raise AssertionError(f"{at}: the saved record does not replay: {e}") from e
    expect(
        len(steps) == len(state.history()),
        f"{at}: the record replays in {len(steps)} steps, the game had {len(state.history())}",
    )
    expect(
        all_views(steps[-1] if steps else spec.new(n, seed)) == all_views(state),
        f"{at}: the replayed game's final views differ",
    )


def _steps(spec: GameSpec, record: GameRecord) -> list[State]:
    """The state after each action of a record (one state object, stepped on)."""
    if _is_registered(spec):
        return [step[0] for step in record.steps()]
    state = spec.new(record.players, record.seed, record.options)
    steps = []
    for seat, action in record.actions:
        state.apply(seat, action)
        steps.append(state)
    return steps


def _interference(
    spec: GameSpec, state: State, rng: Rng, at: str, hooks: SearchHooks | None = None
) -> int:
    """Re-sample what each seat cannot see; its view and legal actions stay. Returns how
    many samples differed from the true state (hidden parts really re-sampled). With
    ``hooks`` (a plug-in's search hooks), a draw of their ``sampler``, which the search
    bots use, is held to the same promise."""
    differed = 0
    start = components(state)
    places = state.locations()
    for seat in range(state.players):
        view = state.view(seat)
        legal = state.legal_actions(seat)
        draws: list[tuple[str, State]] = [
            ("determinized", spec.determinize(json_copy(view), rng)) for _ in range(2)
        ]
        if hooks is not None:
            draws.append(("drawn by the search sampler", hooks.sampler(json_copy(view))(rng)))
        for how, sample in draws:
            expect(
                sample.view(seat) == view,
                f"{at}: a state {how} from seat {seat}'s view shows the seat another "
                f"view: the view depends on something the seat cannot see",
            )
            expect(
                sample.legal_actions(seat) == legal,
                f"{at}: a state {how} from seat {seat}'s view gives the seat other legal actions",
            )
            if how != "determinized":
                continue  # search-mode samples may stop at a horizon or drop what is done
            expect(
                components(sample) == start,
                f"{at}: a state determinized from seat {seat}'s view has other components",
            )
            differed += sample.locations() != places
    return differed


def check_non_interference(game: GameLike, players: int, *, seeds: Iterable[int] = (0, 1)) -> None:
    """Non-interference: every third step of random games, each seat's view re-sampled
    twice by ``spec.determinize`` (and once by the search hooks' ``sampler``) gives a
    state with the same view and legal actions for that seat (determinized: the same
    components too); the hidden parts are really re-sampled (some sample differs from
    the true state); and every 30th step a sample plays on to the end."""
    spec = spec_of(game)
    found = plugin_of(game)
    hooks = found.hooks if found is not None else None
    rng = Rng(players)
    differed = 0
    for seed in seeds:
        state = spec.new(players, seed)
        step = 0
        while state.to_act:
            if step % 3 == 0:
                at = where(spec, players, seed, step)
                differed += _interference(spec, state, rng, at, hooks)
                if step % 30 == 0:
                    sample = spec.determinize(state.view(state.to_act[0]), rng)
                    for _ in range(MAX_STEPS):
                        if not sample.to_act:
                            break
                        s = rng.choice(sample.to_act)
                        sample.apply(s, rng.choice(sample.legal_actions(s)))
                    expect(
                        not sample.to_act,
                        f"{where(spec, players, seed, step)}: a determinized sample did not "
                        f"end within {MAX_STEPS} steps",
                    )
            tick(state, rng)
            if not state.to_act:
                break
            seat = rng.choice(state.to_act)
            state.apply(seat, rng.choice(state.legal_actions(seat)))
            step += 1
    expect(differed > 0, f"{spec.name}, {players} players: the determinizer never re-sampled")


def check_refusals(game: GameLike, players: int | None = None, seed: int = 3) -> None:
    """Illegal and malformed actions are refused and change nothing, all through a random
    game (default: the most players): another seat's legal action offered by a seat that
    is not to act, actions of no type or an unknown one, a bare string, a seat that does
    not exist; and once the game is over, every action is refused as "over"."""
    spec = spec_of(game)
    n = spec.max_players if players is None else players
    rng = Rng(seed)
    state = spec.new(n, seed)
    refusals = 0
    last: tuple[int, Action] | None = None
    step = 0
    while state.to_act:
        at = where(spec, n, seed, step)
        before = snapshot(state)
        waiting = [s for s in range(state.players) if s not in state.to_act]
        acting = rng.choice(state.to_act)
        for seat in waiting[:2]:
            offered = rng.choice(state.legal_actions(acting))
            refused(
                partial(state.apply, seat, offered),
                IllegalAction,
                f"{at}: seat {seat}, not to act, offering {offered.to_json()}",
            )
            refusals += 1
        for bad in ({"type": "no-such-action"}, {"card": "x"}, {"type": 3}, "play"):
            refused(
                partial(state.apply, acting, bad),  # type: ignore[arg-type]
                MalformedAction,
                f"{at}: the malformed action {bad!r} by seat {acting}",
            )
        offered = rng.choice(state.legal_actions(acting))
        refused(
            partial(state.apply, state.players, offered),
            IllegalAction,
            f"{at}: seat {state.players}, which does not exist",
        )
        expect(snapshot(state) == before, f"{at}: a refused action changed the game")
        last = (acting, rng.choice(state.legal_actions(acting)))
        state.apply(*last)
        step += 1
    if last is None or refusals == 0:
        raise AssertionError(f"{where(spec, n, seed)}: no seat ever waited: nothing was refused")
    refused(
        partial(state.apply, *last),
        IllegalAction,
        f"{where(spec, n, seed)}: an action after the end",
        match="over",
    )


def check_clone_independence(
    game: GameLike, players: int | None = None, seed: int = 11, steps: int = 40
) -> None:
    """A clone is independent: acting on the original changes neither the clone's views
    nor its history (default: the fewest players, the first ``steps`` steps)."""
    spec = spec_of(game)
    n = spec.min_players if players is None else players
    rng = Rng(seed)
    state = spec.new(n, seed)
    for step in range(steps):
        if not state.to_act:
            break
        copy = state.clone()
        before = all_views(copy)
        seat = rng.choice(state.to_act)
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        at = where(spec, n, seed, step)
        expect(all_views(copy) == before, f"{at}: acting on a state changed its clone's views")
        expect(
            copy.history() == state.history()[:-1],
            f"{at}: acting on a state changed its clone's history",
        )


def check_spec(game: GameLike) -> None:
    """The spec describes itself (``info``) and refuses a bad setup with clear reasons:
    too few or too many players, a seed that is no whole number, an unknown option."""
    spec = spec_of(game)
    info = spec.info()
    expect(
        info["name"] == spec.name and info["min_players"] <= info["max_players"],
        f"{spec.name}: info() names {info['name']!r}, players {info['min_players']} to "
        f"{info['max_players']}",
    )
    lo, hi = spec.min_players, spec.max_players
    what = f"{spec.name}: new"
    refused(lambda: spec.new(lo - 1, 0), InvalidOption, f"{what}({lo - 1})", match=f"{lo} to")
    refused(lambda: spec.new(hi + 1, 0), InvalidOption, f"{what}({hi + 1})", match=f"{hi} players")
    refused(
        lambda: spec.new(lo, "7"),  # type: ignore[arg-type]
        InvalidOption,
        f"{what} with the seed '7'",
        match="seed must be a whole number",
    )
    refused(
        lambda: spec.new(lo, 0, {"nonsense": 1}),
        InvalidOption,
        f"{what} with the option 'nonsense'",
        match="no option 'nonsense'",
    )


def check_event_names(game: GameLike, players: int | None = None, seed: int = 4) -> None:
    """Given names, every reader's words name each other seat by its name wherever they
    said "seat N" without names; "you" stays "you", and nothing else changes (default:
    the most players)."""
    spec = spec_of(game)
    n = spec.max_players if players is None else players
    names = [f"Name-{chr(65 + k)}" for k in range(n)]
    state = spec.new(n, seed)
    rng = Rng(seed)
    events: list[Event] = []
    for _ in range(MAX_STEPS):
        events += tick(state, rng)
        if not state.to_act:
            break
        seat = rng.choice(state.to_act)
        events += state.apply(seat, rng.choice(state.legal_actions(seat)))
    named = 0
    for event in events:
        for reader in [None, *range(n)]:
            if not event.is_visible_to(reader):
                continue
            plain = spec.describe(event, reader)
            expected = re.sub(r"\b[Ss]eat (\d+)", lambda m: names[int(m[1])], plain)
            words = spec.describe(event, reader, names)
            if words != expected:
                raise AssertionError(
                    f"{where(spec, n, seed)}: {event} for seat {reader} with names reads "
                    f"{words!r}, not {expected!r}"
                )
            named += words != plain
    expect(
        named > len(events),
        f"{where(spec, n, seed)}: the names were used {named} times in {len(events)} events",
    )


def check_game(
    game: GameLike,
    players: int | Sequence[int] | None = None,
    *,
    seeds: Iterable[int] = PLAYOUT_SEEDS,
    quick: bool = False,
) -> None:
    """The whole conformance suite on one game, for every allowed player count (or the
    ones given): random playouts over ``seeds`` (the first three check every step:
    legal actions, component accounting, JSON round trips, events in words),
    determinism, record and replay, keyed deals, non-interference, refusals, ``is_legal`` agreeing
    with ``legal_actions``, clones, the spec's refusals and seat names in events.
    Non-interference and ``is_legal`` take the first two seeds, determinism the first
    three. ``quick`` plays fewer games (two seeds, one checked). Raises ``AssertionError``
    at the first broken promise.

    An outside game runs it in one call, e.g. in its own tests::

        from thievery.testing import check_game
        check_game(MyPlugin)
    """
    spec = spec_of(game)
    seed_list = list(seeds)[: 2 if quick else None]
    if not seed_list:
        raise ValueError("check_game needs at least one seed")
    few = seed_list[: 1 if quick else 2]  # non-interference and is_legal: the first seeds
    check_spec(spec)
    for n in player_counts(spec, players):
        check_random_playouts(spec, n, seeds=seed_list, checked=1 if quick else CHECKED_SEEDS)
        for seed in seed_list[:1] if quick else seed_list[:3]:
            check_determinism(spec, n, seed)
        check_non_interference(spec, n, seeds=few)
        check_is_legal_matches_legal_actions(spec, n, seeds=few)
    check_record_replay(spec)
    check_keyed_deals(spec)
    check_refusals(spec)
    check_clone_independence(spec)
    check_event_names(spec)
