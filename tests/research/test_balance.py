"""The Thieves Den balance report (research/thieves_den_balance.py)."""

from research import thieves_den_balance as balance


def test_the_balance_report_counts_every_game() -> None:
    stats = balance.run(3, 4, seed=2, options={})
    assert stats.games == 4 and sum(t.count for t in stats.seat) == 12
    assert abs(sum(t.wins for t in stats.seat) - 4) < 1e-9
    assert sum(t.count for t in stats.drafted.values()) == 4 * 3 * 9  # 9 picks each
    text = balance.report([stats], 2, None)
    assert "## Win rate by seat" in text and "market" in text
