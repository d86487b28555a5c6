"""Thieves Den's heuristic bot: it reads only its view (and the public card set).

Everything is valued in Prestige. A treasure is worth a base (less in the last round,
when unsold treasures only break ties) plus how much it helps sell to a Fence in the row
or to a free Witch spot; a thief is worth about one Prestige. Scouting picks weigh a
Location's ability, its Owner Bonus and the bot's hidden Scheme. In the thieving phase
the bot takes the action with the best immediate value, passing when nothing is worth
its cost; inside abilities it takes the most useful treasure, returns the least useful,
and targets the opponent with the most Prestige.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from thievery.core.protocol import Action
from thievery.core.rng import Rng
from thievery.games.thieves_den.cards import (
    FENCE_TYPES,
    LOCATION_TYPES,
    TREASURES,
    CardSet,
    load_card_set,
)
from thievery.games.thieves_den.effects import (
    ACTION,
    ANY,
    COMPULSORY_BIT,
    DESTROY,
    DRAW_LOCATION,
    GAIN,
    MOVE,
    PAY,
    PRESTIGE,
    RECALL,
    REFRESH,
    SWAP,
    TAKE,
    THIEF,
    WILD,
)

JSON = dict[str, Any]
THIEF_VALUE = 1.0


class Values:
    """What the heuristic's judges share: treasures (``treasure``, ``best_gain``, ``need``,
    ``have``, ``held``, ``supply``, ``base``) and thieves held (``thieves``) give the value
    of an ability step by step. :class:`Judge` reads them from a view, the search's
    ``FastJudge`` from a sampled state."""

    __slots__ = ()
    base: float
    cs: CardSet
    have: list[int]
    held: int
    need: list[float]
    supply: list[int]
    thieves: int

    def treasure(self, t: int) -> float:
        raise NotImplementedError

    def best_gain(self) -> int:
        raise NotImplementedError

    def scheme_gain(self, card: int) -> float:
        raise NotImplementedError

    def swap_value(self, c: int, on: int) -> float:
        """What face-up Location ``c`` with ``on`` thieves is worth in a Switcheroo: its
        Scheme type, the thieves on it (they go to its owner at Cleanup; the other side
        loses them, half as much to us) and, with its Action Spot free, a chance at its
        Owner Bonus. The tile is worth the best card to take less the cheapest to give."""
        bonus = 0.4 * self.steps(self.cs.loc_bonus[c]) if on == 0 else 0.0
        return self.scheme_gain(c) + 1.5 * THIEF_VALUE * on + bonus

    def least_useful(self, among: Sequence[int]) -> int:
        """The held treasure type that hurts least to give up."""
        return min(among, key=lambda t: (self.need[t], -self.have[t], t))

    def steps(self, steps: Sequence[tuple[int, int, int, int]]) -> float:
        """An ability's value to this seat (rough, immediate)."""
        room = 8 - self.held
        thief_room = 6 - self.thieves
        value = 0.0
        for op, a, b, _ in steps:
            if op == GAIN and a == THIEF:
                value += THIEF_VALUE * min(b, max(0, thief_room + 1))
            elif op == GAIN:
                k = min(b, self.supply[a])
                useful = min(k, max(0, room))
                value += useful * self.treasure(a) + (k - useful) * 0.2
                room -= k
            elif op == WILD:
                useful = min(b, max(0, room))
                value += useful * self.treasure(self.best_gain()) + 0.2 * (b - useful)
                room -= b
            elif op == PRESTIGE:
                value += b
            elif op == TAKE:
                value += (THIEF_VALUE if b == THIEF else self.treasure(self.best_gain())) + 0.4
            elif op == DESTROY:
                value += 0.8
            elif op == PAY:
                if a == THIEF:
                    value -= b * THIEF_VALUE
                elif a == ANY:
                    cheap = sorted(self.treasure(t) for t in range(5) if self.have[t])
                    value -= sum(cheap[:b]) if len(cheap) >= b else b * self.base
                    room += b
                else:
                    value -= b * self.treasure(a)
                    room += b
            elif op == DRAW_LOCATION:
                value += 2.5 * b
            elif op in (ACTION, RECALL, MOVE):
                value += 2.0
            elif op == REFRESH:
                value += 0.5
            elif op == SWAP:
                value += 0.8
        return value


class Judge(Values):
    """Values of treasures, thieves and abilities for one seat, from one view."""

    def __init__(self, cs: CardSet, view: JSON, seat: int) -> None:
        self.cs = cs
        self.view = view
        self.me = view["seats"][seat]
        self.seat = seat
        self.have = [self.me["treasures"][t] for t in TREASURES]
        self.held = sum(self.have)
        self.thieves = self.me["thieves"]
        self.supply = [view["supply"]["treasures"][t] for t in TREASURES]
        last = view["round"] >= 3
        self.base = 0.6 if last else 1.4
        self.need = self._needs()

    def _needs(self) -> list[float]:
        cs, have = self.cs, self.have
        need = [0.0] * 5
        for fid in self.view["fence_row"]:
            if fid is None:
                continue
            f = cs.fence_index[fid]
            desire = cs.fence_desire[f]
            short = [max(0, desire[t] - have[t]) for t in range(5)]
            missing = sum(short)
            if missing > 3:
                continue
            weight = cs.fence_prestige[f] / sum(desire) / (1 + missing)
            for t in range(5):
                if short[t]:
                    need[t] += weight
        for t, name in enumerate(TREASURES):
            if not self.view["witch"][name]:
                need[t] += max(0.0, cs.witch[t] - 2.0) * 0.4
        return [min(2.5, x) for x in need]

    def treasure(self, t: int) -> float:
        """What one more treasure of type ``t`` is worth."""
        return self.base + self.need[t]

    def best_gain(self) -> int:
        """The most useful treasure type still in the supply."""
        options = [t for t in range(5) if self.supply[t]] or list(range(5))
        return max(options, key=lambda t: (self.treasure(t), -t))

    def fence(self, f: int) -> float:
        """Selling to Fence card ``f``: its Prestige, a majority hope, less the goods."""
        cs = self.cs
        desire = cs.fence_desire[f]
        spent = sum(desire[t] * (self.base + 0.5 * self.need[t]) for t in range(5))
        kind = cs.fence_type[f]
        mine = sum(1 for x in self._my_fences() if cs.fence_type[x] == kind)
        best_other = max(
            (
                sum(1 for x in self._fences_of(s) if cs.fence_type[x] == kind)
                for s in range(len(self.view["seats"]))
                if s != self.seat
            ),
            default=0,
        )
        majority = cs.majority[kind] * (0.6 if mine + 1 > best_other else 0.2)
        return cs.fence_prestige[f] + majority - spent * 0.6 - THIEF_VALUE * 0.5

    def _fences_of(self, s: int) -> list[int]:
        x = self.view["seats"][s]
        ids = [y["card"] for y in x["fences"]] + x["fences_collected"]
        return [self.cs.fence_index[i] for i in ids]

    def _my_fences(self) -> list[int]:
        return self._fences_of(self.seat)

    def scheme_gain(self, card: int) -> float:
        """How much collecting Location ``card`` helps this seat's Scheme."""
        scheme = self.me["scheme"]
        if scheme is None:
            return 0.0
        k = self.cs.scheme_index[scheme]
        a, b = self.cs.scheme_types[k]
        prestige = self.cs.scheme_prestige[k]
        counts = [0] * len(LOCATION_TYPES)
        ids = self.me["collected"] + [y["card"] for y in self.me["locations"]]
        for c in ids:
            counts[self.cs.loc_type[self.cs.loc_index[c]]] += 1
        t = self.cs.loc_type[card]
        if t not in (a, b):
            return 0.0
        before = min(counts[a], counts[b])
        counts[t] += 1
        after = min(counts[a], counts[b])
        return prestige * (0.9 if after > before else 0.45)


def is_forced(cs: CardSet, tile: int, options: JSON) -> bool:
    """Whether Power tile ``tile``'s follow-up actions must be taken when they can be."""
    return options.get("follow_ups") != "optional" and any(
        op == ACTION and b & COMPULSORY_BIT for op, _, b, _ in cs.power_ability[tile]
    )


def _seat(action: Action) -> int:
    seat: int = getattr(action, "seat")  # noqa: B009
    return seat


class HeuristicBot:
    """A sensible Thieves Den player."""

    name = "heuristic"

    def __init__(self, game: str, seat: int, rng: Rng) -> None:
        self.seat = seat
        self.rng = rng

    def act(self, view: JSON, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        cs = load_card_set(view["options"].get("cards"))
        judge = Judge(cs, view, self.seat)
        kind = legal[0].type
        if kind == "pick":
            return self._best(legal, lambda a: self._pick_value(judge, a))
        if kind == "treasure":
            return self._treasure(judge, view, legal)
        if kind == "opponent":
            return max(legal, key=lambda a: (view["seats"][_seat(a)]["prestige"], -_seat(a)))
        if kind == "give":
            seats = [_seat(a) for a in legal]
            keep = self.seat if self.seat in seats else seats[0]
            return legal[seats.index(keep)]
        if kind == "location":
            return self._best(legal, lambda a: self._location_value(judge, view, a))
        if kind == "return_fence":
            return self._best(legal, lambda a: -judge.fence(cs.fence_index[getattr(a, "card")]))  # noqa: B009
        return self._best(legal, lambda a: self._action_value(judge, view, a))

    def _best(self, legal: Sequence[Action], value: Any) -> Action:
        scored = [(value(a), self.rng.random(), a) for a in legal]
        return max(scored, key=lambda t: (t[0], t[1]))[2]

    # ------------------------------------------------------------------ scouting

    def _pick_value(self, judge: Judge, action: Action) -> float:
        cs = judge.cs
        c = cs.loc_index[action.card]  # type: ignore[attr-defined]
        value = judge.steps(cs.loc_ability[c])
        if not cs.loc_instant[c]:
            value = 0.6 * value + 0.7 * judge.steps(cs.loc_bonus[c])
        return value + judge.scheme_gain(c)

    # ------------------------------------------------------------------ thieving

    def _action_value(self, judge: Judge, view: JSON, action: Action) -> float:
        cs = judge.cs
        kind = action.type
        if kind in ("pass", "skip"):
            return 0.0
        if kind == "steal":
            c = cs.loc_index[action.card]  # type: ignore[attr-defined]
            value = judge.steps(cs.loc_ability[c]) - THIEF_VALUE
            owner = self._owner(view, action.card)  # type: ignore[attr-defined]
            if owner == self.seat:
                value += 0.7 * THIEF_VALUE  # the thief comes back at cleanup
            elif owner is not None:
                value -= 0.3 * judge.steps(cs.loc_bonus[c])
            return value
        if kind == "fence":
            return judge.fence(cs.fence_index[action.card])  # type: ignore[attr-defined]
        if kind == "witch":
            t = TREASURES.index(action.treasure)  # type: ignore[attr-defined]
            return cs.witch[t] - judge.treasure(t) * 0.8
        if kind == "burgle":
            t = TREASURES.index(action.treasure)  # type: ignore[attr-defined]
            return judge.treasure(t) - 2 * THIEF_VALUE
        if kind == "recruit":
            a = TREASURES.index(action.first)  # type: ignore[attr-defined]
            b = TREASURES.index(action.second)  # type: ignore[attr-defined]
            if view["seats"][self.seat]["thieves"] > 0 or not view["supply"]["thieves"]:
                return -1.0
            return 1.5 * THIEF_VALUE - judge.treasure(a) * 0.5 - judge.treasure(b) * 0.5
        if kind == "power":
            tile = cs.power_index[action.tile]  # type: ignore[attr-defined]
            t = TREASURES.index(action.pay)  # type: ignore[attr-defined]
            return self._power_value(judge, view, action.tile, tile) - judge.treasure(t)  # type: ignore[attr-defined]
        return 0.0

    def _follow_ups(
        self, judge: Judge, view: JSON, occupied: bool, forced: bool = False
    ) -> list[float]:
        """Values of the Steal and Fence actions a follow-up could take now, best first,
        with 0 for skipping it (``forced``: only when there is nothing to take)."""
        cs = judge.cs
        if view["seats"][self.seat]["thieves"] < 1:
            return [0.0]
        values = []
        spots = [y for x in view["seats"] for y in x["locations"]] + view["neutral"]
        for y in spots:
            if (y["thieves"] > 0) is occupied:
                c = cs.loc_index[y["card"]]
                if not any(cs.loc_cost[c]):
                    values.append(judge.steps(cs.loc_ability[c]) - THIEF_VALUE)
        fences = (
            [y["card"] for x in view["seats"] for y in x["fences"]]
            if occupied
            else [f for f in view["fence_row"] if f is not None]
        )
        for fid in fences:
            f = cs.fence_index[fid]
            if all(judge.have[t] >= cs.fence_desire[f][t] for t in range(5)):
                values.append(judge.fence(f))
        if not (forced and values):
            values.append(0.0)
        return sorted(values, reverse=True)

    def _power_value(self, judge: Judge, view: JSON, name: str, tile: int) -> float:
        forced = is_forced(judge.cs, tile, view["options"])
        follow = self._follow_ups(judge, view, False, forced)
        thieved = any(y["thieves"] for x in view["seats"] for y in x["locations"])
        if name == "busy-night":
            return follow[0] + (follow[1] if len(follow) > 1 else 0.0) * 0.8
        if name == "scout-ahead":
            return 2.0 + follow[0] * 0.7
        if name == "new-buyers":
            return 1.2 + follow[0] * 0.6
        if name == "inside-job":
            return follow[0] + 1.0
        if name == "double-up":
            return THIEF_VALUE + self._follow_ups(judge, view, True, forced)[0]
        if name == "recall":
            return 1.8 if thieved else 0.0
        if name == "sleight":
            return THIEF_VALUE + follow[0] if thieved else 0.0
        if name == "switcheroo":
            return self._switcheroo(judge, view)
        return judge.steps(judge.cs.power_ability[tile])

    def _switcheroo(self, judge: Judge, view: JSON) -> float:
        """The best swap now (:meth:`Values.swap_value`); 0 when there is none."""
        index = judge.cs.loc_index
        seats = view["seats"]
        mine = [
            judge.swap_value(index[y["card"]], y["thieves"]) for y in seats[self.seat]["locations"]
        ]
        theirs = [
            judge.swap_value(index[y["card"]], y["thieves"])
            for s, x in enumerate(seats)
            if s != self.seat and not x["passed"]
            for y in x["locations"]
        ]
        return max(theirs) - min(mine) if mine and theirs else 0.0

    def _owner(self, view: JSON, card: str) -> int | None:
        for s, x in enumerate(view["seats"]):
            if any(y["card"] == card for y in x["locations"]):
                return s
        return None

    def _location_value(self, judge: Judge, view: JSON, action: Action) -> float:
        cs = judge.cs
        card = action.card  # type: ignore[attr-defined]
        c = cs.loc_index[card]
        top: list[Any] = view["stack"][-1] if view["stack"] else ["", 0, -1, 0, 0]
        owner = self._owner(view, card)
        if top[0] == "move_thief" and top[2] >= 0:  # where to move the thief
            return judge.steps(cs.loc_ability[c])
        if top[0] == "swap_location":
            on = next(
                y["thieves"] for x in view["seats"] for y in x["locations"] if y["card"] == card
            )
            value = judge.swap_value(c, on)
            return -value if top[2] < 0 else value  # give away the least, take the most
        # Recall or a thief to move: hurt the leader, never ourselves.
        if owner is None:
            return 0.5
        if owner == self.seat:
            return -1.0
        return 1.0 + float(view["seats"][owner]["prestige"]) / 10

    def _treasure(self, judge: Judge, view: JSON, legal: Sequence[Action]) -> Action:
        top = view["stack"][-1] if view["stack"] else ["", 0, -1, 0, 0]
        legal = [a for a in legal if a.type == "treasure"]  # never skip an "up to" gain
        types = [TREASURES.index(a.treasure) for a in legal]  # type: ignore[attr-defined]
        op = top[0]
        if op in ("limit", "pay"):
            t = judge.least_useful(types)
        elif op == "destroy":
            theirs = view["seats"][top[2]]["treasures"]
            t = max(types, key=lambda k: (theirs[TREASURES[k]], -k))
        else:
            t = max(types, key=lambda k: (judge.treasure(k), -k))
        return legal[types.index(t)]


__all__ = ["FENCE_TYPES", "HeuristicBot", "Judge"]
