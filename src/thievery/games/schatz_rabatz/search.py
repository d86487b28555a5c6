"""Schatz-Rabatz's search: the hooks (the determinizer read once per view, an estimate of
the match from ship parts and treasures packed) and the search bot,
:class:`PlacementSearchBot`, a search over placements under a per-drop budget."""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import Any

from thievery.core.protocol import Action, State
from thievery.core.registry import plugin
from thievery.core.rng import Rng
from thievery.core.search import SearchHooks, share
from thievery.core.setup import soft_max
from thievery.games.schatz_rabatz.actions import CLOSE, DROPS, MAX_WIDTH, Drop
from thievery.games.schatz_rabatz.bots import (
    MAX_CLAIM,
    READY_MS,
    SPEEDS,
    PackingBot,
    cheapest_placements,
    claim_chances,
    drop_score,
    hand_wait_ms,
    placement_cost,
    scoring_boards,
)
from thievery.games.schatz_rabatz.pieces import (
    BOARD_CLAIMS,
    DISTINCT,
    N_COLOURS,
    N_TREASURES,
    ORIENTATIONS,
    SHAPE_NAMES,
    SHAPE_OF,
    TREASURE_ID,
    TREASURE_INDEX,
    resting_row,
    settle,
)
from thievery.games.schatz_rabatz.rules import PACKING, SchatzRabatz
from thievery.games.schatz_rabatz.view import Determinizer

JSON = dict[str, Any]
N_SHAPES = len(SHAPE_NAMES)
Candidate = tuple[int, int, int] | None  # (treasure, rotation, column); None: close the lid

# The chance that a later round ends in a tie for the top (every seat takes a part), in
# the match-value model; measured near 0.15 between packers.
TIE = 0.15
JITTER = 0.2  # the packers' delays vary ±20% around their speed (``PackingBot.delay_ms``)


@cache
def match_values(parts: tuple[int, ...], need: int) -> tuple[float, ...]:
    """Each seat's share of the match win once the seats hold ``parts`` ship parts.

    A ship of ``need`` parts wins (seats completing together share). Later rounds are a
    coin flip each: a tie for the top with chance ``TIE`` (every seat takes a part), else
    one seat, each as likely, takes one.
    """
    n = len(parts)
    done = [s for s in range(n) if parts[s] >= need]
    if done:
        return tuple(1 / len(done) if s in done else 0.0 for s in range(n))
    tied = match_values(tuple(p + 1 for p in parts), need)
    values = [TIE * v for v in tied]
    for winner in range(n):
        after = match_values(tuple(p + (s == winner) for s, p in enumerate(parts)), need)
        for s in range(n):
            values[s] += (1 - TIE) / n * after[s]
    return tuple(values)


class Position:
    """What a drop decision needs from the view, in small integers: the pool, each
    chest's skyline and the treasures it will count (below the rim), who is still open,
    the hourglass, the claim chances and, per shape, its colours from safest to riskiest
    (the order a packer takes them in)."""

    __slots__ = (
        "chance",
        "counted",
        "depth",
        "ends_ms",
        "hand_ms",
        "hand_ready",
        "heights",
        "hourglass_ms",
        "in_pool",
        "is_open",
        "need",
        "now_ms",
        "order",
        "parts",
        "players",
        "seat",
        "worth",
    )

    def __init__(self, view: JSON, seat: int) -> None:
        self.seat = seat
        self.players = view["players"]
        self.depth = depth = view["depth"]
        self.now_ms = view["now_ms"]
        glass = view["hourglass"]
        self.ends_ms = glass["ends_ms"] if glass["ends_ms"] is not None else math.inf
        self.hourglass_ms = glass["length_ms"]
        self.hand_ms = view["options"]["hand_ms"]
        pool = {TREASURE_INDEX[t] for t in view["pool"]}
        self.in_pool = [t in pool for t in range(N_TREASURES)]
        chests = view["chests"]
        self.heights = [list(c["heights"]) for c in chests]
        self.is_open = [c["open"] for c in chests]
        self.hand_ready = [c["hand_ready_ms"] for c in chests]
        # A treasure sticking out above the rim is taken out when its lid closes.
        self.counted = [
            [
                TREASURE_INDEX[p["id"]]
                for p in c["treasures"]
                if max(y for _, y in p["cells"]) < depth
            ]
            for c in chests
        ]
        self.chance = claim_chances(view)
        self.order = [
            sorted(range(s * N_COLOURS, (s + 1) * N_COLOURS), key=lambda t: (self.chance[t], t))
            for s in range(N_SHAPES)
        ]
        # Per shape, (treasure, what counting it is worth) from safest to riskiest, the
        # ones Jack more likely claims than not left out (``drop_score`` less the room).
        self.worth = [
            [(t, drop_score(self.chance[t], 0.0)) for t in ts if self.chance[t] <= MAX_CLAIM]
            for ts in self.order
        ]
        self.parts = tuple(len(x) for x in view["ships"])
        self.need = len(view["ship_parts"])


def pack_choice(
    heights: list[int], depth: int, in_pool: list[bool], position: Position
) -> Candidate:
    """The packer's drop (``PackingBot.act``) for a chest and pool, or ``None`` to close:
    per shape its safest colour still in the pool at its cheapest placement, the best
    by ``drop_score``; a shape whose safest colour is likely claimed is left alone."""
    best: Candidate = None
    best_score = 0.0
    for place, worth in zip(cheapest_placements(heights, depth), position.worth, strict=True):
        if place is None:
            continue
        for t, value in worth:
            if in_pool[t]:
                score = value - place[0]
                if best is None or score > best_score:
                    best, best_score = (t, place[1], place[2]), score
                break
    return best


def candidate_drops(position: Position, per_treasure: int = 3) -> list[tuple[float, int, int, int]]:
    """Every drop below the rim as (packer score, treasure, rotation, column), best first;
    of the colours of a shape with the same chance only the one a packer takes first, and
    at most ``per_treasure`` placements per treasure."""
    heights = position.heights[position.seat]
    depth = position.depth
    chance = position.chance
    scored: list[tuple[float, int, int, int]] = []
    for shape in range(N_SHAPES):
        seen: set[float] = set()
        placements: list[tuple[float, int, int]] = []
        for r in DISTINCT[shape]:
            o = ORIENTATIONS[shape][r]
            for c in range(len(heights) - o.width + 1):
                cost = placement_cost(heights, depth, o, c)
                if cost != math.inf:
                    placements.append((cost, r, c))
        if not placements:
            continue
        placements.sort()
        for t in position.order[shape]:
            if not position.in_pool[t] or chance[t] in seen:
                continue
            seen.add(chance[t])
            for cost, r, c in placements[:per_treasure]:
                scored.append((drop_score(chance[t], cost), t, r, c))
    scored.sort(key=lambda x: (-x[0], x[1], x[2], x[3]))
    return scored


def round_value(
    position: Position, counted: list[list[int]], boards: Sequence[frozenset[int]]
) -> float:
    """The seat's share of the match win once the round is scored, on average over
    ``boards`` (the claims of the Jack-boards that may score it, each as likely)."""
    total = 0.0
    for claims in boards:
        counts = [sum(1 for t in kept if t not in claims) for kept in counted]
        top = max(counts)
        parts = tuple(p + (counts[s] == top) for s, p in enumerate(position.parts))
        total += match_values(parts, position.need)[position.seat]
    return total / len(boards)


def rollout(position: Position, first: Candidate, rng: random.Random) -> list[list[int]]:
    """Play the rest of the round from ``position``: the seat makes ``first`` now, then
    every open chest is packed by the packer policy on simulated time. Returns what each
    chest holds below the rim when every lid is closed (before the Jack-board claims)."""
    n = position.players
    me = position.seat
    depth = position.depth
    in_pool = position.in_pool[:]
    heights = [h[:] for h in position.heights]
    counted = [c[:] for c in position.counted]
    is_open = position.is_open[:]
    now = float(position.now_ms)
    ends = position.ends_ms
    step = SPEEDS["adult"]
    low, spread = step * (1 - JITTER), step * 2 * JITTER
    rand = rng.random
    hand = position.hand_ms
    # When each seat acts next: the seat after its own delay, the others some time
    # within one delay (the seat cannot see when they will act), none before its hand
    # is ready.
    due = [max(now + rand() * step, position.hand_ready[s]) for s in range(n)]
    if first is None:
        is_open[me] = False
        if ends == math.inf:  # Little Pirates: the first lid turns the hourglass
            ends = now + position.hourglass_ms
    else:
        t, r, c = first
        o = ORIENTATIONS[SHAPE_OF[t]][r]
        settle(heights[me], o, c, resting_row(heights[me], o, c))
        in_pool[t] = False
        counted[me].append(t)
        due[me] = now + max(low + spread * rand(), hand)
    while True:
        seat = -1
        when = math.inf
        for s in range(n):
            if is_open[s] and due[s] < when:
                seat, when = s, due[s]
        if seat < 0 or when >= ends:
            break
        choice = pack_choice(heights[seat], depth, in_pool, position)
        if choice is None:
            is_open[seat] = False
            if ends == math.inf:
                ends = when + position.hourglass_ms
            continue
        t, r, c = choice
        o = ORIENTATIONS[SHAPE_OF[t]][r]
        settle(heights[seat], o, c, resting_row(heights[seat], o, c))
        in_pool[t] = False
        counted[seat].append(t)
        due[seat] = when + max(low + spread * rand(), hand)
    return counted


class PlacementSearchBot:
    """The search over placements: ``samples`` determinizations per drop (or a time
    budget of ``budget_ms``), ``candidates`` drops compared on each.

    A drop in Schatz-Rabatz is one of a few hundred (treasure, rotation, column) choices, made
    against the clock while every rival packs from the same pool. The generic ISMCTS spreads
    a few hundred random rollouts over that raw action space and learns little. This bot
    searches where the packer (``bots.py``) already looks:

    * **Candidates.** Every drop that stays below the rim is scored with the packer's own
      scoring (``drop_score``: the treasure's chance to count against the room it takes);
      the packer's own choice and the best few others (at most a few placements per
      treasure) are the candidates. Colours that look the same to the packer (same shape,
      same chance to be claimed) are one candidate: the one a rival packer would take first.
    * **Samples.** Each sample is a determinization of the seat's view (the hooks'
      sampler, ``view.Determinizer``: the face-down Jack-boards re-shuffled, so the
      board that will score this round is one the seat cannot rule out) plus the timing
      the seat cannot see (when each rival acts next, and every later delay, on the
      adult speed's ±20% jitter). With ``every_board`` a sample's round is scored
      against every board the seat cannot rule out, each as likely, instead of the
      sampled one: the packers' choices depend only on what they see, so the chests come
      out the same under every board and only the count differs.
    * **Rollouts.** On each sample every candidate is played out to the end of the round
      with the same draws (common random numbers): the seat drops the candidate now, then
      every open chest, the seat's included, is packed by the packer policy on simulated
      time until the lids close or the hourglass runs out. The round is scored with the
      sampled board and the ship parts it hands out are turned into each seat's chance of
      winning the match (a race to a full ship, later rounds as coin flips with ties).
    * **Decision.** The candidate with the best mean wins, but the packer's choice is kept
      unless the winner beats it by more than ``confidence`` standard errors of the paired
      difference (the same samples for both): noise falls back on the packer, and a larger
      budget overrules it more often and more surely.

    The bot reads only its view and the states sampled from it, never the true state. It
    acts at the adult speed (its game-time delay is the packer's), so on simulated time a
    ladder compares decisions, not reflexes; the search itself costs no game time.

    On a live clock (a server table, the terminal's live mode) its thinking comes on top
    of its reaction time, so there it is given a ``deadline`` (a ``time.perf_counter()``
    time; ``math.inf``, the default: none) before each action and stops sampling then,
    however few samples it has: with fewer than two it plays the packer's choice. Nothing
    on simulated time sets one (see :mod:`thievery.bots.realtime`), so simulations spend
    the whole budget and a seeded one plays the same games on any machine. The deadline
    is looked at between rollouts, so it is passed by one rollout at most (a sample it
    cuts short is left out).
    """

    def __init__(
        self,
        game: str,
        seat: int,
        rng: Rng,
        *,
        samples: int | None = 24,
        budget_ms: float | None = None,
        candidates: int = 6,
        confidence: float = 1.0,
        every_board: bool = False,
        name: str = "ismcts",
        speed: str = "adult",
    ) -> None:
        if samples is None and budget_ms is None:
            raise ValueError("a search needs a budget: samples, budget_ms or both")
        found = plugin(game)
        self.spec = found.spec
        self.hooks = found.hooks
        self.seat = seat
        self.rng = rng
        self.samples = samples
        self.budget_ms = budget_ms
        self.candidates = candidates
        self.confidence = confidence
        self.every_board = every_board
        self.name = name
        self.guide = PackingBot(game, seat, Rng(0), speed="instant")
        self.action_ms = SPEEDS[speed]
        self.last_samples = 0
        self.last_rollouts = 0
        # When to answer by at the latest (time.perf_counter(); inf: when the budget is
        # spent): set where the clock is live, never on simulated time.
        self.deadline = math.inf

    def delay_ms(self, view: JSON) -> int:
        """Game time per action: the packer's at the same speed (jittered ±20%), never
        less than the wait for its hand."""
        if self.action_ms == 0:
            return hand_wait_ms(view)
        base = READY_MS if view["phase"] == "scored" else self.action_ms
        return max(int(base * (1 - JITTER + 2 * JITTER * self.rng.random())), hand_wait_ms(view))

    def act(self, view: JSON, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        guided = self.guide.act(view, legal)
        position = Position(view, self.seat)
        options = self.options(position, guided)
        if len(options) < 2:
            return guided
        pick = self.choose(view, position, options)
        if pick is None:
            return CLOSE
        t, r, c = pick
        action = DROPS[t][r * MAX_WIDTH + c] if c < MAX_WIDTH else Drop(TREASURE_ID[t], r, c)
        return action if action in legal else guided

    def options(self, position: Position, guided: Action) -> list[Candidate]:
        """The candidates: the packer's choice first, then the best others by its
        scoring (closing the lid too in Little Pirates, where a lid starts the clock)."""
        first: Candidate = None
        if isinstance(guided, Drop):
            t = TREASURE_INDEX[guided.treasure]
            first = (t, guided.rotation, guided.column)
        out: list[Candidate] = [first]
        for _, t, r, c in candidate_drops(position):
            if len(out) > self.candidates:
                break
            if (t, r, c) != first:
                out.append((t, r, c))
        if first is not None and position.ends_ms == math.inf:
            out.append(None)
        return out

    def choose(self, view: JSON, position: Position, options: list[Candidate]) -> Candidate:
        """Compare the options over samples of what the seat cannot know."""
        sample = self.hooks.sampler(view)
        k = len(options)
        totals = [0.0] * k
        diffs = [0.0] * k  # paired against the packer's choice (option 0)
        squares = [0.0] * k
        limit = self.samples if self.samples is not None else 10**9
        deadline = (
            time.perf_counter() + self.budget_ms / 1000 if self.budget_ms is not None else math.inf
        )
        deadline = min(deadline, self.deadline)
        every_board = [BOARD_CLAIMS[b] for b in scoring_boards(view)] if self.every_board else None
        boards = every_board or []
        done = 0
        while done < limit and time.perf_counter() < deadline:
            state = sample(self.rng)
            assert isinstance(state, SchatzRabatz)
            if every_board is None:  # the board that scores this round in the sample
                boards = [BOARD_CLAIMS[state.board if state.board >= 0 else state.stack[0]]]
            seed = self.rng.next64()
            rewards: list[float] = []
            for option in options:
                if rewards and time.perf_counter() >= deadline:
                    break  # (a live clock's deadline: a rollout late at most, not a sample)
                counted = rollout(position, option, random.Random(seed))
                rewards.append(round_value(position, counted, boards))
            if len(rewards) < k:
                break  # (that sample is left out: its options would not be paired)
            for i, reward in enumerate(rewards):
                totals[i] += reward
                d = reward - rewards[0]
                diffs[i] += d
                squares[i] += d * d
            done += 1
        self.last_samples = done
        self.last_rollouts = done * k
        if done < 2:
            return options[0]
        best = max(range(k), key=lambda i: (totals[i], -i))
        if best == 0:
            return options[0]
        mean = diffs[best] / done
        var = max(0.0, (squares[best] - done * mean * mean) / (done - 1))
        if mean > self.confidence * math.sqrt(var / done):
            return options[best]
        return options[0]


class SchatzRabatzSearch(SearchHooks):
    """The search hooks of Schatz-Rabatz: the determinizer read once per view, and an
    estimate of the match from ship parts and treasures packed."""

    def sampler(self, view: Mapping[str, Any]) -> Callable[[Rng], State]:
        """Read the view once (``view.Determinizer``); each call draws a new
        determinization, exactly as ``spec.determinize`` does."""
        return Determinizer(self.spec, view).sample

    def evaluate(self, state: State) -> list[float]:
        """Finished, the winners share 1; else a soft-max over ship parts held plus a
        little for each treasure packed this round."""
        if state.result() is not None or not isinstance(state, SchatzRabatz):
            return share(state)
        estimates = [len(state.ships[s]) + 0.2 * len(state.chests[s]) for s in range(state.players)]
        return soft_max(estimates, 0.8)


def packing_positions(
    players: int, count: int, seed: int, every: int
) -> list[tuple[SchatzRabatz, int]]:
    """``count`` packing positions with a real choice, met in matches of heuristic
    packers (seeds from ``seed`` on): those whose bot is due at a game time that is a
    multiple of ``every`` ms; each with the seat to decide. For benchmarks."""
    from thievery.bots.base import make_bot
    from thievery.bots.realtime import BotClock

    spec = plugin("schatz-rabatz").spec
    found: list[tuple[SchatzRabatz, int]] = []
    game = 0
    while len(found) < count:
        state = spec.new(players, seed + game)
        assert isinstance(state, SchatzRabatz)
        bots = {s: make_bot("heuristic", spec.name, s, seed + game) for s in range(players)}
        clock = BotClock(bots, Rng(seed + game))
        while not state.is_over and len(found) < count:
            due = clock.next_due(state)
            assert due is not None
            real = state.phase == PACKING and len(state.legal_actions(due[1])) > 1
            if real and due[0] % every == 0:
                found.append((state.clone(), due[1]))
            clock.step(state, *due)
        game += 1
    return found


def bench(players: int = 2, positions: int = 30, seed: int = 1) -> JSON:
    """Search speed on packing positions met in matches of packers: rollouts (drops
    evaluated to the end of the round) per second, and the time per decision of the
    registered budgets. One JSON line with::

        .venv/bin/python -c "import json; from thievery.games.schatz_rabatz.search
        import bench; print(json.dumps(bench(2)))"
    """
    from thievery.bots.base import make_bot

    spec = plugin("schatz-rabatz").spec
    found = packing_positions(players, positions, seed, every=3)
    out: JSON = {"bench": "schatz-rabatz-search", "players": players, "positions": positions}
    for name in ("ismcts", "ismcts-strong"):
        rollouts = samples = 0
        elapsed = 0.0
        for i, (state, seat) in enumerate(found):
            bot = make_bot(name, spec.name, seat, seed + i)
            assert isinstance(bot, PlacementSearchBot)
            t0 = time.perf_counter()
            bot.act(state.view(seat), state.legal_actions(seat))
            elapsed += time.perf_counter() - t0
            rollouts += bot.last_rollouts
            samples += bot.last_samples
        out[name] = {
            "ms_per_decision": round(1000 * elapsed / positions, 1),
            "samples_per_s": round(samples / elapsed),
            "rollouts_per_s": round(rollouts / elapsed),
        }
    return out
