"""Where every Thieves Den component lies, place by place: every card and tile, and every
treasure and thief token numbered per type (``State.locations``, which the conformance
suite's component accounting and the tests read). Nothing here changes the state; what a
seat may see is ``view.py``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from thievery.games.thieves_den.cards import TREASURES

if TYPE_CHECKING:  # rules.py imports this module for State.locations
    from thievery.games.thieves_den.rules import ThievesDen


def locations_of(state: ThievesDen) -> dict[str, list[Any]]:
    """Where every card, tile and token is (tokens numbered per type, place by place)."""
    cs = state.cs
    places: dict[str, list[Any]] = {}
    lid, fid, pid = cs.loc_id, cs.fence_id, cs.power_id
    places["location_deck"] = [lid[c] for c in state.loc_deck]
    places["neutral"] = [lid[c] for c in state.neutral]
    places["fence_deck"] = [fid[f] for f in state.fence_deck]
    places["fence_row"] = [fid[f] for f in state.fence_row if f >= 0]
    for i, stack in enumerate(state.power_stacks):
        places[f"power_stack{i}"] = [pid[p] for p in stack]
    places["power_gone"] = [pid[p] for p in state.power_gone]
    places["power_box"] = [pid[p] for p in state.power_box]
    places["scheme_box"] = [cs.scheme_id[k] for k in state.scheme_box]
    for s in range(state.players):
        places[f"hand{s}"] = [lid[c] for c in state.hands[s]]
        places[f"pick{s}"] = [lid[state.pick[s]]] if state.pick[s] >= 0 else []
        places[f"up{s}"] = [lid[c] for c in state.up[s]]
        places[f"collected{s}"] = [lid[c] for c in state.collected[s]]
        places[f"fences{s}"] = [fid[f] for f in state.fences[s]]
        places[f"fences_collected{s}"] = [fid[f] for f in state.fences_collected[s]]
        places[f"scheme{s}"] = [cs.scheme_id[state.scheme[s]]]
    # Tokens: (place, count) per type, numbered in this fixed order.
    counts: dict[str, list[tuple[str, int]]] = {t: [] for t in (*TREASURES, "thief")}
    for t in range(5):
        name = TREASURES[t]
        counts[name].append(("supply", state.supply[t]))
        counts[name].append(("witch", state.witch[t]))
        counts[name].append(("recruit", state.recruit[t]))
        counts[name].append(("powers", sum(1 for p in state.power_paid if p == t)))
        for s in range(state.players):
            counts[name].append((f"board{s}", state.treasure[s][t]))
        for f in range(len(fid)):
            if state.fence_uses[f]:
                counts[name].append((f"on_{fid[f]}", state.fence_uses[f] * cs.fence_desire[f][t]))
    thief = counts["thief"]
    thief.append(("supply", state.supply_thieves))
    thief.append(("burgle", state.burgle))
    for s in range(state.players):
        thief.append((f"board{s}", state.thieves[s]))
    for c in range(len(lid)):
        if state.on_loc[c]:
            thief.append((f"on_{lid[c]}", state.on_loc[c]))
    for f in range(len(fid)):
        if state.fence_uses[f]:
            thief.append((f"on_{fid[f]}", state.fence_uses[f]))
    for name, spots in counts.items():
        k = 0
        for place, count in spots:
            if count:
                places.setdefault(f"tokens:{place}", []).extend(
                    f"{name}#{i}" for i in range(k, k + count)
                )
                k += count
    return places
