"""Thieves Den's bots (seeded, view-only, the heuristic clearly better) and the terminal."""

from __future__ import annotations

from rich.console import Console

from thievery.bots import bot_names, make_bot
from thievery.cli.render import renderer
from thievery.core import Event, Rng
from thievery.core.i18n import use_language
from thievery.games.thieves_den.cards import load_card_set
from thievery.games.thieves_den.render import decision_words
from thievery.sim import simulate, standings

from .helpers import SPEC, arrange, new


def test_bots_are_registered() -> None:
    assert {"heuristic", "random"} <= set(bot_names("thieves-den"))


def test_the_heuristic_decides_from_the_view_alone() -> None:
    rng = Rng(4)
    state = SPEC.new(4, seed=4)
    for _ in range(150):
        if not state.to_act:
            break
        seat = state.to_act[0]
        view = state.view(seat)
        other = SPEC.determinize(view, rng)  # everything hidden re-sampled
        a = make_bot("heuristic", "thieves-den", seat, 9).act(view, state.legal_actions(seat))
        b = make_bot("heuristic", "thieves-den", seat, 9).act(
            other.view(seat), other.legal_actions(seat)
        )
        assert a == b
        state.apply(seat, a)


def test_the_heuristic_beats_random_clearly() -> None:
    outcomes = list(simulate("thieves-den", ["heuristic", "random", "random"], games=45, seed=3))
    table = {s.bot: s for s in standings(outcomes)}
    assert table["heuristic"].low > 1 / 3
    assert table["heuristic"].mean_score > 2 * table["random"].mean_score


def test_the_heuristic_sells_to_a_fence_it_can_afford() -> None:
    state = arrange(
        new(3), fence_row=["noble-countess-a"], treasures={0: {"jewel": 2}}, up={1: ["tavern-a"]}
    )
    bot = make_bot("heuristic", "thieves-den", 0, 1)
    choice = bot.act(state.view(0), state.legal_actions(0))
    assert choice.to_json() == {"type": "fence", "card": "noble-countess-a"}


def render(view: dict[str, object], width: int = 160) -> str:
    console = Console(record=True, width=width)
    console.print(renderer("thieves-den").table(view))
    return console.export_text()


def test_no_column_is_squeezed_to_a_letter_in_an_80_column_terminal() -> None:
    """Late in a game the "collected" column grows; the Locations column beside it (empty
    between rounds) once shrank to one letter, its heading folded a letter a line."""
    state = new(2, seed=5)
    bots = [make_bot("heuristic", "thieves-den", seat, 5) for seat in range(2)]
    widest = 0
    while state.result() is None:
        seat = state.to_act[0]
        state.apply(seat, bots[seat].act(state.view(seat), state.legal_actions(seat)))
        lines = render(state.view(0), width=80).splitlines()
        words = [line.strip("│ ") for line in lines]
        assert not [w for w in words if len(w) == 1 and w.isalpha()], "\n".join(lines)
        widest = max(widest, len(lines))
    assert widest < 80  # (it was hundreds of lines at the end)


def test_the_terminal_shows_the_board_your_scheme_and_hand() -> None:
    state = new(3)
    text = render(state.view(0))
    assert "Thieves Den" in text and "UNOFFICIAL" in text and "Fences" in text
    assert "Scheme:" in text and "Hand:" in text and "Witch" in text
    assert "Scheme:" not in render(state.view(None))


def test_every_menu_line_says_what_the_action_does() -> None:
    rng = Rng(2)
    state = SPEC.new(3, seed=2)
    menu = renderer("thieves-den").action
    seen: set[str] = set()
    while state.to_act:
        seat = rng.choice(state.to_act)
        view = state.view(seat)
        legal = state.legal_actions(seat)
        for action in legal:
            line = menu(action.to_json(), view)
            assert line and not line.startswith("{")
            seen.add(action.type)
        if rng.below(10) == 0:
            render(view)
        non_pass = [a for a in legal if a.type != "pass"]
        state.apply(seat, rng.choice(non_pass if non_pass and rng.below(8) else legal))
    assert {"pick", "steal", "witch", "burgle", "recruit", "pass", "power"} <= seen
    assert "Game over" in render(state.view(0))


def test_menu_lines_for_a_steal_name_the_owner_and_the_bonus() -> None:
    state = arrange(new(3), up={1: ["market-a"]})
    line = renderer("thieves-den").action({"type": "steal", "card": "market-a"}, state.view(0))
    # (seat index 1, counted from 1 on the screen)
    assert line == "Steal at Seat 2's Market: Take 2 Jewels (Seat 2 gets 2 Thieves)"


def test_events_read_as_sentences_for_each_reader() -> None:
    state = arrange(new(3), up={1: ["market-a"]})
    events = state.apply(0, {"type": "steal", "card": "market-a"})
    steal = next(e for e in events if e.type == "steal")
    assert SPEC.describe(steal, 0) == "You steal at seat 1's Market"
    assert SPEC.describe(steal, 1) == "Seat 0 steals at your Market"
    gains = [SPEC.describe(e, 2) for e in events if e.type == "gain"]
    assert gains == ["Seat 0 takes 2 jewels", "Seat 1 takes 2 thieves"]


def test_an_artifact_not_a_artifact() -> None:
    burgle = Event("burgle", {"seat": 1, "treasure": "artifact"})
    assert SPEC.describe(burgle, 0) == "Seat 1 burgles an artifact with 2 Thieves"
    recruit = Event("recruit", {"seat": 0, "pay": ["jewel", "artifact"]})
    assert SPEC.describe(recruit, 0) == "You recruit a Thief with a jewel and an artifact"
    witch = Event("witch", {"seat": 0, "treasure": "tome", "prestige": 4})
    assert SPEC.describe(witch, None) == "Seat 0 delivers a tome to the Witch for 4 Prestige"


def test_the_end_is_told_in_words_not_data() -> None:
    """The English end words showed a Python list ("Scores: [17, 65, 72]") and a Scheme by
    its id ("village-city ×0"); the German ones never did."""
    names = ["Ann", "Bo", "Cy"]
    over = Event("game_over", {"winners": [2], "scores": [17, 65, 72]})
    told = SPEC.describe(over, 0, names)
    assert told == "The game is over. Winner: Cy. Scores: you 17, Bo 65, Cy 72"
    schemes = [{"scheme": "village-city", "sets": 0, "prestige": 0}] * 2
    final = Event("final", {"majorities": {"noble": 1, "agent": None}, "schemes": schemes})
    told = SPEC.describe(final, None, names)
    assert "Ann: Scheme Village + City ×0 (+0)" in told and "village-city" not in told
    assert told.startswith("Final scoring — majorities: Noble → Bo;")


def test_events_name_the_seats_given_their_names() -> None:
    names = ["Ann", "Bo", "cy"]
    state = arrange(new(3), up={1: ["market-a"]})
    events = state.apply(0, {"type": "steal", "card": "market-a"})
    steal = next(e for e in events if e.type == "steal")
    assert SPEC.describe(steal, 0, names) == "You steal at Bo's Market"
    assert SPEC.describe(steal, 1, names) == "Ann steals at your Market"
    assert SPEC.describe(steal, None, names) == "Ann steals at Bo's Market"
    assert SPEC.describe(steal, None) == "Seat 0 steals at seat 1's Market"
    gains = [SPEC.describe(e, 2, names) for e in events if e.type == "gain"]
    assert gains == ["Ann takes 2 jewels", "Bo takes 2 thieves"]
    # A name is shown as given, even where it starts a sentence.
    assert SPEC.describe(Event("picked", {"seat": 2}), 0, names) == "cy picked a card"
    assert SPEC.describe(Event("picked", {"seat": 2}), 0) == "Seat 2 picked a card"


def test_the_heuristic_uses_switcheroo_when_the_swap_pays() -> None:
    state = arrange(
        new(3),
        powers=["switcheroo", "hire-out", "new-buyers"],
        up={0: ["farmstead-a"], 1: ["market-a"]},
        treasures={0: {"potion": 1}},
        thieves={0: 0},
    )
    market = state.cs.loc_index["market-a"]
    state.supply_thieves -= 2  # two thieves sit on seat 1's Market: theirs at Cleanup
    state.on_loc[market] = 2
    state._start_turn(0)
    bot = make_bot("heuristic", "thieves-den", 0, 1)
    choice = bot.act(state.view(0), state.legal_actions(0))
    assert choice.to_json() == {"type": "power", "tile": "switcheroo", "pay": "potion"}
    state.apply(0, choice)  # one card each: the swap needs no more choices
    assert state.loc_owner[market] == 0 and state.on_loc[market] == 2


def test_the_decision_asked_names_seats_as_the_screen_counts_them() -> None:
    # The engine words a decision by seat index ("seat 1" is the second seat); the screen
    # counts seats from 1, so it reads "seat 2" there, in either language.
    cs = load_card_set()
    text = "choose a treasure of seat 1 to take"
    assert decision_words(cs, text) == "choose a treasure of seat 2 to take"
    with use_language("de"):
        assert decision_words(cs, text) == "wähl einen Schatz von Platz 2 zum Nehmen"


def test_the_board_names_tiles_and_hand_cards_and_the_menu_says_what_they_do() -> None:
    """A Power tile's and a hand card's text once took a line or two each on the board,
    and the hand repeated the menu's "Keep" lines: the board names them, the menu says
    what they do."""
    state = new(3, seed=4)
    view = state.view(0)
    assert view["hand"] and all(p["tile"] for p in view["powers"])
    cs = load_card_set()
    text = " ".join(render(view, width=100).split())
    for p in view["powers"]:
        k = cs.power_index[p["tile"]]
        assert cs.power_name[k] in text and cs.power_text[k] not in text
    menu = renderer("thieves-den").action
    for card in view["hand"]:
        c = cs.loc_index[card]
        assert cs.loc_name[c] in text and cs.loc_text[c] not in text
        assert cs.loc_text[c] in menu({"type": "pick", "card": card}, view)


def test_an_opponents_menu_line_counts_one_treasure_and_one_thief_in_the_singular() -> None:
    state = new(3)
    state.treasure[1], state.thieves[1] = [1, 0, 0, 0, 0], 1
    state.treasure[2], state.thieves[2] = [0, 2, 0, 0, 0], 0
    view = state.view(0)
    menu = renderer("thieves-den").action
    lines = [menu({"type": "opponent", "seat": s}, view) for s in (1, 2)]
    assert lines == [
        "Target Seat 2: 0 Prestige, 1 treasure, 1 thief",
        "Target Seat 3: 0 Prestige, 2 treasures, 0 thieves",
    ]
    with use_language("de"):
        lines = [menu({"type": "opponent", "seat": s}, view) for s in (1, 2)]
    assert lines == [
        "Platz 2 wählen: 0 Prestige, 1 Schatz, 1 Dieb",
        "Platz 3 wählen: 0 Prestige, 2 Schätze, 0 Diebe",
    ]
