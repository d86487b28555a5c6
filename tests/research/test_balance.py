"""The Thieves Den balance report (research/thieves_den_balance.py)."""

from research import thieves_den_balance as balance
from thievery.core.registry import game as get_game
from thievery.games.thieves_den.cards import load_card_set


def test_the_balance_report_counts_every_game() -> None:
    stats = balance.run(3, 4, seed=2, options={})
    assert stats.games == 4 and sum(t.count for t in stats.seat) == 12
    assert abs(sum(t.wins for t in stats.seat) - 4) < 1e-9
    assert sum(t.count for t in stats.drafted.values()) == 4 * 3 * 9  # 9 picks each
    text = balance.report([stats], 2, None)
    assert "## Win rate by seat" in text and "market" in text
    # Seats and positions counted from 1, as players see them.
    assert "| seat 1 |" in text and "| seat 3 |" in text and "| seat 0 |" not in text
    assert "| position 1 |" in text and "| position 0 |" not in text
    # The set by its content's digest beside the rules version (its name stayed the same
    # through every balance pass).
    spec = get_game("thieves-den")
    digest = spec.component_digests()["cards"]
    assert f"cards `{digest}`" in text and f"rules version {spec.version}." in text


def test_the_report_lists_every_power_tile_and_says_where_data_is_thin() -> None:
    stats = balance.run(2, 3, seed=3, options={})
    assert sum(stats.face_up.values()) == 3 * 9  # 3 stacks face up, 3 rounds a game
    text = balance.report([stats], 3, None)
    section = text.split("## Power tiles used")[1].split("## Where")[0]
    tiles = load_card_set(None).power_id
    assert len(tiles) == 12
    rows = [line for line in section.splitlines() if line.startswith("| ") and "---" not in line]
    assert sorted(r.split(" | ")[0][2:] for r in rows[1:]) == sorted(tiles)
    assert all(r.endswith("| thin |") or r.endswith("| none |") for r in rows[1:])  # 3 games
