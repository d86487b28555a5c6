"""Reading a Thieves Den state: a seat's view and the places of every component.

Kept apart from the rules: nothing here changes the state.
"""

from __future__ import annotations

from typing import Any

from thievery.core.protocol import JSON
from thievery.games.thieves_den.cards import TREASURES
from thievery.games.thieves_den.effects import OP_NAMES
from thievery.games.thieves_den.rules import OVER, PHASE_NAMES, STACKS, THIEVE, ThievesDen


def view_of(self: ThievesDen, seat: int | None) -> JSON:
    """Exactly what ``seat`` may know (``None``: a spectator), JSON-ready."""
    cs = self.cs
    n = self.players
    lid, fid = cs.loc_id, cs.fence_id

    def treasures(counts: list[int]) -> dict[str, int]:
        return {TREASURES[t]: counts[t] for t in range(5)}

    seats = []
    for s in range(n):
        seats.append(
            {
                "prestige": self.prestige[s],
                "treasures": treasures(self.treasure[s]),
                "thieves": self.thieves[s],
                "locations": [{"card": lid[c], "thieves": self.on_loc[c]} for c in self.up[s]],
                "collected": [lid[c] for c in self.collected[s]],
                "fences": [{"card": fid[f], "uses": self.fence_uses[f]} for f in self.fences[s]],
                "fences_collected": [fid[f] for f in self.fences_collected[s]],
                "passed": self.passed[s],
                "hand_size": len(self.hands[s]),
                "picked": self.pick[s] >= 0,
                "scheme": (
                    cs.scheme_id[self.scheme[s]] if s == seat or self.phase == OVER else None
                ),
            }
        )
    deck = self.loc_deck
    top = [lid[c] for c in deck[len(deck) - self.known_top :][::-1]] if self.known_top else []
    return {
        "game": "thieves-den",
        "players": n,
        "seat": seat,
        "options": self.spec.public_options(self.options),
        "card_set": cs.name,
        "unofficial": cs.unofficial,
        "catalogue": cs.catalogue,  # the card set in words, the same for everyone
        "round": self.round,
        "phase": PHASE_NAMES[self.phase],
        "direction": "clockwise" if self.direction > 0 else "counterclockwise",
        "holder": self.holder,
        "current": self.current if self.phase == THIEVE else None,
        "to_act": list(self._to_act),
        "decider": self._decider if self._decider >= 0 else None,
        "decision": self.decision_text(),
        "supply": {"treasures": treasures(self.supply), "thieves": self.supply_thieves},
        "location_deck": len(deck),
        "location_deck_top": top,
        "fence_deck": len(self.fence_deck),
        "fence_row": [fid[f] if f >= 0 else None for f in self.fence_row],
        "powers": [
            {
                "tile": cs.power_id[st[-1]] if st else None,
                "paid": TREASURES[self.power_paid[i]] if self.power_paid[i] >= 0 else None,
                "below": max(0, len(st) - 1),
            }
            for i, st in enumerate(self.power_stacks)
        ],
        "powers_gone": [cs.power_id[p] for p in self.power_gone],
        "witch": {TREASURES[t]: bool(self.witch[t]) for t in range(5)},
        "burgle": self.burgle,
        "recruit": treasures(self.recruit),
        "neutral": [{"card": lid[c], "thieves": self.on_loc[c]} for c in self.neutral],
        "seats": seats,
        "hand": [lid[c] for c in self.hands[seat]] if seat is not None else [],
        "my_pick": (lid[self.pick[seat]] if seat is not None and self.pick[seat] >= 0 else None),
        "stack": [[OP_NAMES[st[0]], *st[1:]] for st in self.queue],
        "tied": self.tied[:],
        "final": self.final,
        "result": self.result(),
    }


def locations_of(self: ThievesDen) -> dict[str, list[Any]]:
    """Where every card, tile and token is (tokens numbered per type, place by place)."""
    cs = self.cs
    places: dict[str, list[Any]] = {}
    lid, fid, pid = cs.loc_id, cs.fence_id, cs.power_id
    places["location_deck"] = [lid[c] for c in self.loc_deck]
    places["neutral"] = [lid[c] for c in self.neutral]
    places["fence_deck"] = [fid[f] for f in self.fence_deck]
    places["fence_row"] = [fid[f] for f in self.fence_row if f >= 0]
    for i in range(STACKS):
        places[f"power_stack{i}"] = [pid[p] for p in self.power_stacks[i]]
    places["power_gone"] = [pid[p] for p in self.power_gone]
    places["power_box"] = [pid[p] for p in self.power_box]
    places["scheme_box"] = [cs.scheme_id[k] for k in self.scheme_box]
    for s in range(self.players):
        places[f"hand{s}"] = [lid[c] for c in self.hands[s]]
        places[f"pick{s}"] = [lid[self.pick[s]]] if self.pick[s] >= 0 else []
        places[f"up{s}"] = [lid[c] for c in self.up[s]]
        places[f"collected{s}"] = [lid[c] for c in self.collected[s]]
        places[f"fences{s}"] = [fid[f] for f in self.fences[s]]
        places[f"fences_collected{s}"] = [fid[f] for f in self.fences_collected[s]]
        places[f"scheme{s}"] = [cs.scheme_id[self.scheme[s]]]
    # Tokens: (place, count) per type, numbered in this fixed order.
    counts: dict[str, list[tuple[str, int]]] = {t: [] for t in (*TREASURES, "thief")}
    for t in range(5):
        name = TREASURES[t]
        counts[name].append(("supply", self.supply[t]))
        counts[name].append(("witch", self.witch[t]))
        counts[name].append(("recruit", self.recruit[t]))
        counts[name].append(("powers", sum(1 for p in self.power_paid if p == t)))
        for s in range(self.players):
            counts[name].append((f"board{s}", self.treasure[s][t]))
        for f in range(len(fid)):
            if self.fence_uses[f]:
                counts[name].append((f"on_{fid[f]}", self.fence_uses[f] * cs.fence_desire[f][t]))
    thief = counts["thief"]
    thief.append(("supply", self.supply_thieves))
    thief.append(("burgle", self.burgle))
    for s in range(self.players):
        thief.append((f"board{s}", self.thieves[s]))
    for c in range(len(lid)):
        if self.on_loc[c]:
            thief.append((f"on_{lid[c]}", self.on_loc[c]))
    for f in range(len(fid)):
        if self.fence_uses[f]:
            thief.append((f"on_{fid[f]}", self.fence_uses[f]))
    for name, spots in counts.items():
        k = 0
        for place, count in spots:
            if count:
                places.setdefault(f"tokens:{place}", []).extend(
                    f"{name}#{i}" for i in range(k, k + count)
                )
                k += count
    return places
