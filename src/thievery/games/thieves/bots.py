"""Thieves!'s heuristic bot, which scores every legal action by how it changes its lead,
reading only its view and the legal actions."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from thievery.core.protocol import Action
from thievery.core.rng import Rng
from thievery.games.thieves.cards import (
    ALARM,
    CARD_INDEX,
    CARS,
    DIAMOND_RING,
    FINAL_VALUE,
    KIND,
    MONEY,
    MONEY_CARDS,
    POLICE,
    RAID_VALUE,
    ROADBLOCK,
    THIEF,
)

JSON = dict[str, Any]


class _Estimate:
    """What the bot believes about everyone's loot, from its view."""

    def __init__(self, view: JSON, seat: int) -> None:
        self.seat = seat
        self.n = view["players"]
        self.cars: int = view["cars"]
        seen: set[int] = {CARD_INDEX[c] for c in view["hand"]}
        if view["drawn"] is not None:
            seen.add(CARD_INDEX[view["drawn"]])
        for row in view["loot"]:
            seen.update(CARD_INDEX[s["card"]] for s in row if s["card"] is not None)
        unseen = [c for c in MONEY_CARDS if c not in seen] or list(MONEY_CARDS)
        self.unknown_final = sum(FINAL_VALUE[c] for c in unseen) / len(unseen)
        self.unknown_raid = sum(RAID_VALUE[c] for c in unseen) / len(unseen)
        self.rows: list[list[int]] = [
            [CARD_INDEX[s["card"]] if s["card"] is not None else -1 for s in row]
            for row in view["loot"]
        ]
        self.final = [sum(self.final_of(c) for c in row) for row in self.rows]
        self.raid = [sum(self.raid_of(c) for c in row) for row in self.rows]

    def final_of(self, card: int) -> float:
        return self.unknown_final if card < 0 else FINAL_VALUE[card]

    def raid_of(self, card: int) -> float:
        return self.unknown_raid if card < 0 else RAID_VALUE[card]

    def leader(self) -> int:
        """The richest rival (at the end of the game)."""
        rivals = [t for t in range(self.n) if t != self.seat]
        return max(rivals, key=lambda t: self.final[t])

    def margin(self, final: list[float]) -> float:
        """My lead over the richest rival."""
        return final[self.seat] - max(v for t, v in enumerate(final) if t != self.seat)

    def raid_outcome(self) -> float:
        """How a raid now changes my margin (busting the police's richest targets)."""
        top = max(self.raid)
        if top <= 0:
            return 0.0
        after = [
            0.0 if abs(v - top) < 0.25 else f for v, f in zip(self.raid, self.final, strict=True)
        ]
        return self.margin(after) - self.margin(self.final)

    def is_raid_target(self) -> bool:
        return self.raid[self.seat] > 0 and self.raid[self.seat] >= max(self.raid) - 0.25


class HeuristicBot:
    """A sensible Thieves! player.

    It estimates every seat's loot (known cards at their value, unknown face-down cards at
    the average of the money it has not seen) both as the police count it and as it counts
    at the end, and scores each legal action by how it changes its lead over the richest
    rival: money goes face down to itself (the Horseshoe above all), zeros and the Diamond
    Ring are dumped face up on the leader; police are called when a raid would bust a rich
    rival and held back when it would bust itself; a Roadblock is kept for raids aimed at
    itself; the Thief takes the best card from the leader, and declines (``pass``, worth
    0) when every move hurts: one that helps a rival, or one that makes it the police's
    target with the raid risk of keeping money.
    """

    name = "heuristic"

    def __init__(self, game: str, seat: int, rng: Rng) -> None:
        self.seat = seat
        self.rng = rng

    def act(self, view: JSON, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        est = _Estimate(view, self.seat)
        scored = [(self._score(view, est, a), self.rng.random(), a) for a in legal]
        return max(scored, key=lambda t: (t[0], t[1]))[2]

    def _score(self, view: JSON, est: _Estimate, action: Action) -> float:
        me = self.seat
        pressure = min(1.0, est.cars / 4)
        if action.type == "remove":
            return float(CARS[CARD_INDEX[action.card]])  # type: ignore[attr-defined]
        if action.type == "move":
            return self._move_score(est, action)
        if action.type == "pass":
            return 0.0  # the Thief moves nothing: my lead stays as it is
        card = CARD_INDEX[action.card]  # type: ignore[attr-defined]
        kind = KIND[card]
        if kind == MONEY:
            to: int = action.to  # type: ignore[attr-defined]
            final = est.final[:]
            final[to] += FINAL_VALUE[card]
            score = est.margin(final) - est.margin(est.final)
            leader = est.leader()
            if to == me:
                if est.raid[me] + RAID_VALUE[card] >= max(est.raid):
                    score -= pressure * 0.4 * (est.final[me] + FINAL_VALUE[card])
            elif to == leader:
                score += 0.5 + pressure * 0.3 * RAID_VALUE[card]
                if card == DIAMOND_RING:
                    score += 1.5
            return score
        if kind == POLICE:
            if est.cars + CARS[card] >= 4:
                return 1.5 * est.raid_outcome()
            return -0.8 if est.is_raid_target() else 0.3
        if kind == ROADBLOCK:
            if not view["police"]:
                return -0.2
            if est.is_raid_target():
                return 0.5 + pressure * est.final[me]
            return -0.4
        if kind == THIEF:
            moves = self._moves(est)
            if not moves:
                return 0.8 * -0.2  # nothing to move: the card is wasted
            # The move may be declined, so the Thief is worth at least nothing.
            return 0.8 * max(0.0, max(self._move_score(est, m) for m in moves))
        if kind == ALARM:
            mine = sum(CARS[CARD_INDEX[c]] for c in view["hand"] if KIND[CARD_INDEX[c]] == POLICE)
            if est.cars + mine + 1 >= 4:
                return 1.2 * est.raid_outcome()
            return 0.0
        return 1.2  # Double Loot: two more plays

    def _moves(self, est: _Estimate) -> list[tuple[int, int, int]]:
        return [
            (f, slot, t)
            for f, row in enumerate(est.rows)
            for slot in range(len(row))
            for t in range(est.n)
            if t != f
        ]

    def _move_score(self, est: _Estimate, move: Action | tuple[int, int, int]) -> float:
        if isinstance(move, tuple):
            f, slot, t = move
        else:
            f, slot, t = move.source, move.slot, move.to  # type: ignore[attr-defined]
        card = est.rows[f][slot]
        value = est.final_of(card)
        final = est.final[:]
        final[f] -= value
        final[t] += value
        score = est.margin(final) - est.margin(est.final)
        if t == self.seat:
            # Taking a card is keeping it: the same raid risk as money kept face down.
            raid = est.raid[:]
            raid[f] -= est.raid_of(card)
            raid[t] += est.raid_of(card)
            if raid[t] >= max(raid) - 1e-9:
                score -= min(1.0, est.cars / 4) * 0.4 * final[t]
        return score
