"""Der Schattendieb's spec: its name, players and options, and the words around the rules:
parsing actions, determinizing a view (delegated to ``view.py``) and events in words."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from thievery.core.errors import MalformedAction
from thievery.core.protocol import (
    JSON,
    Action,
    Event,
    GameSpec,
    Option,
    State,
    content_digest,
    parse_fields,
    seat_name,
)
from thievery.core.rng import Rng
from thievery.games.schattendieb.actions import ADDS, DONE, PLAYS, STEALS, Add, Play, Steal
from thievery.games.schattendieb.cards import (
    CARD_ID,
    CARD_INDEX,
    CATEGORY,
    CLOSE_VALUES,
    JEWEL,
    KIND,
    KINDS,
    describe_card,
)
from thievery.games.schattendieb.rules import Schattendieb, check_setup
from thievery.games.schattendieb.view import Determinizer


class SchattendiebSpec(GameSpec):
    """Der Schattendieb (Amigo 2001, Jürgen Grunau), 3 to 7 players."""

    name: ClassVar[str] = "schattendieb"
    title: ClassVar[str] = "Der Schattendieb"
    # Version 2: step 4 asks every seat whose jewellery is still in front, and only
    # jewellery may be added (version 1 asked only seats holding a card of their kind
    # and let a Thief of that kind be added; its records replay with ``v1_add_step``).
    version: ClassVar[int] = 2
    min_players: ClassVar[int] = 3
    max_players: ClassVar[int] = 7
    options: ClassVar[tuple[Option, ...]] = (
        Option("games", 3, "games in the match; scores add up", minimum=1, maximum=99),
        Option(
            "all_close_rule",
            "revealed",
            "when everyone still in reveals a Close Safe card: the game ends if they all "
            "'revealed' one, or only if all of them 'would_succeed'",
            choices=("revealed", "would_succeed"),
        ),
        Option(
            "v1_add_step",
            False,
            "only for replaying records of rules version 1; not for new tables: step 4 "
            "asks only the seats that hold a card of their kind (which shows who holds "
            "one) and lets a Thief of that kind be added",
            legacy=True,
        ),
        Option("hands", None, "stacked deal: 4 card ids per seat (first game)", secret=True),
        Option(
            "pile_top",
            None,
            "stacked deal: ids on top of the draw pile, top first (first game)",
            secret=True,
        ),
    )

    def component_digests(self, options: Mapping[str, Any] | None = None) -> dict[str, str]:
        """``data/components.toml`` as read: the Close Safe cards' values in deck order (our
        unverified reading; a seed's deal depends on them), which may change without a
        rules version."""
        return {"components": content_digest({"close_safe": [v for v, _ in CLOSE_VALUES]})}

    def record_options(self, version: int, options: Mapping[str, Any]) -> JSON:
        """Records of rules version 1 replay under its step 4 (``v1_add_step``)."""
        if version == 1:
            return {**options, "v1_add_step": True}
        return super().record_options(version, options)

    def new(
        self, players: int, seed: int = 0, options: Mapping[str, Any] | None = None
    ) -> Schattendieb:
        resolved = self.check_new(players, seed, options)
        check_setup(players, resolved)
        return Schattendieb.start(players, seed, resolved)

    def parse_action(self, data: Mapping[str, Any]) -> Action:
        kind = data.get("type")
        if kind == "done":
            parse_fields(data, [], kind="done")
            return DONE
        tables: dict[Any, list[Play] | list[Steal] | list[Add]] = {
            "play": PLAYS,
            "steal": STEALS,
            "add": ADDS,
        }
        table = tables.get(kind) if isinstance(kind, str) else None
        if table is None:
            raise MalformedAction(f"unknown action type {kind!r} (types: play, steal, add, done)")
        (card,) = parse_fields(data, ["card"], kind=str(kind))
        if not isinstance(card, str) or card not in CARD_INDEX:
            raise MalformedAction(f"there is no card {card!r}")
        return table[CARD_INDEX[card]]

    # ------------------------------------------------------------ determinizer

    def determinize(self, view: Mapping[str, Any], rng: Rng) -> State:
        """Rebuild a full state from a seat's view; every hidden card is re-sampled.

        Hidden: other hands (and their sealed choices and additions), the draw pile's
        order and contents, and the face-down discards. Nothing is inferred from step 4:
        every seat whose jewellery is still in front is asked, whatever it holds.
        """
        return Determinizer(self, view).sample(rng)

    # ------------------------------------------------------------ words

    def describe(
        self, event: Event, seat: int | None = None, names: Sequence[str] | None = None
    ) -> str:
        d = event.data

        def who(t: int, capital: bool = False) -> str:
            return seat_name(t, seat, names, capital=capital)

        def card(c: str) -> str:
            return describe_card(CARD_INDEX[c])

        def cards(cs: list[str]) -> str:
            return ", ".join(card(c) for c in cs)

        t = event.type
        if t == "chose":
            return f"{who(d['seat'], True)} chose a card"
        if t == "reveal":
            parts = [f"{who(s)}: {card(c)}" for s, c in d["cards"].items()]
            return "Revealed — " + "; ".join(parts) if parts else "Nobody could play a card"
        if t == "tie":
            return f"Tie! {cards(d['cards'])} go to the discard pile"
        if t == "steal":
            thief = card(d["thief"])
            if d["card"] is None:
                return f"{who(d['seat'], True)} played the {thief}, who finds nothing"
            return (
                f"{who(d['seat'], True)} played the {thief} and took "
                f"{card(d['card'])} from {who(d['from'])}"
            )
        if t == "adding":
            # Every seat with jewellery in front is asked, whether or not it can add.
            return "May add jewellery of their kind: " + ", ".join(who(s) for s in d["seats"])
        if t == "added":
            return f"You add {card(d['card'])}"
        if t == "done":
            return f"{who(d['seat'], True)} finished adding"
        if t == "add":
            parts = [
                f"{who(s, i == 0)} added {cards(cs)}"
                for i, (s, cs) in enumerate(d["cards"].items())
            ]
            return "; ".join(parts)
        if t == "close":
            return (
                f"{who(d['seat'], True)} closed the safe with {card(d['card'])} "
                f"and put {d['under_pile']} cards under the pile"
            )
        if t == "close_failed":
            return f"{who(d['seat'], True)} could not close with {card(d['card'])}: it is discarded"
        if t == "drew":
            return f"You drew {card(d['card'])}"
        if t == "draw":
            parts = [f"{who(s)} {k}" for s, k in d["counts"].items()]
            return "Cards drawn — " + ", ".join(parts) if parts else "Nobody drew"
        if t == "pile_discarded":
            return f"The pile could not fill every hand: {d['count']} cards discarded"
        if t == "game_over":
            reasons = {
                "no_cards": "the pile is empty and a player has no cards",
                "all_close": "everyone still in wanted to close",
                "one_open": "only one safe is still open",
            }
            scores = ", ".join(f"{who(s)} {v}" for s, v in enumerate(d["scores"]))
            # A closed safe holds at least one jewel, so a 0 is an open safe's score.
            zero = [s for s, v in enumerate(d["scores"]) if v == 0]
            why = ""
            if zero == [seat]:
                why = " — you score 0: your safe was still open"
            elif zero:
                verb, safes = (
                    ("scores", "the safe was") if len(zero) == 1 else ("score", "the safes were")
                )
                why = f" — {' and '.join(who(s) for s in zero)} {verb} 0: {safes} still open"
            return f"Game {d['game']} over ({reasons[d['reason']]}). Scores: {scores}{why}"
        if t == "dealt":
            return f"You were dealt {cards(d['cards'])}"
        if t == "new_game":
            deals = "you deal" if d["dealer"] == seat else f"{who(d['dealer'])} deals"
            return f"Game {d['game']} begins; {deals}"
        if t == "match_over":
            winners = " and ".join(who(s) for s in d["winners"])
            return f"The match is over. Winner: {winners}"
        return f"{t}: {d}"


def jewel_kind(card: str) -> str | None:
    """The kind of a jewellery card id, or ``None`` for other cards."""
    c = CARD_INDEX[card]
    return KINDS[KIND[c]] if CATEGORY[c] == JEWEL else None


__all__ = ["CARD_ID", "SchattendiebSpec", "jewel_kind"]
