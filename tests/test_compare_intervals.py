"""Issue 39, section 3: ``tajsim compare``'s win-share intervals stay inside [0, 100] and are never
degenerate at small n or at the extremes (Wilson over games, the score test), checked against
statsmodels and by a seeded coverage simulation; the verdict says when n is too small."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner
from statsmodels.stats.proportion import proportion_confint, proportions_ztest

from tajsim.analysis.compare import (
    VERDICT_MIN_GAMES,
    compare_strategies,
    share_difference,
    share_interval,
    verdict_status,
)
from tajsim.cli.compare import games_for_width
from tajsim.cli.main import cli


@pytest.mark.parametrize("x,n", [(0, 20), (20, 20), (19, 20), (7, 13), (1, 1), (500, 1000)])
def test_share_interval_is_statsmodels_wilson(x, n):
    shares = np.r_[np.ones(x), np.zeros(n - x)]
    mean, low, high = share_interval(shares)
    ref = proportion_confint(x, n, alpha=0.05, method="wilson")
    assert mean == pytest.approx(x / n)
    assert (low, high) == pytest.approx(ref, abs=1e-12)
    assert 0.0 <= low < high <= 1.0  # inside [0, 1] and never a point


@pytest.mark.parametrize("wins_a,n", [(0, 20), (20, 20), (19, 20), (10, 20), (3, 7)])
def test_share_difference_maps_wilson_and_its_score_test(wins_a, n):
    a = np.r_[np.ones(wins_a), np.zeros(n - wins_a)]  # two players: B wins the rest
    diff, low, high, p, games = share_difference(a, 1.0 - a)
    ref_low, ref_high = proportion_confint(wins_a, n, alpha=0.05, method="wilson")
    assert games == n and diff == pytest.approx(2 * wins_a / n - 1)
    assert (low, high) == pytest.approx((2 * ref_low - 1, 2 * ref_high - 1), abs=1e-12)
    assert -1.0 <= low < high <= 1.0
    _, ref_p = proportions_ztest(wins_a, n, value=0.5, prop_var=0.5)
    assert p == pytest.approx(ref_p, rel=1e-9)
    assert p > 1e-10  # 0 of 20 is p = 7.7e-06, not "p < 1e-300"
    # the score test is the test the interval inverts: it excludes 0 exactly when p < 0.05
    assert (low > 0 or high < 0) == (p < 0.05)


def test_the_difference_interval_covers_with_a_field_seeded():
    # A wins 20%, B 35%, the field the rest (d = 0): the interval over 30 games covers the
    # true difference at least 95% of the time (conservative: the field's games have d = 0)
    rng = np.random.default_rng(39)
    true, covered, reps = -0.15, 0, 2000
    for _ in range(reps):
        winner = rng.choice(3, size=30, p=[0.20, 0.35, 0.45])
        _, low, high, _, _ = share_difference((winner == 0) * 1.0, (winner == 1) * 1.0)
        covered += low <= true <= high
    assert covered / reps >= 0.95


def _frame(a_wins: int, n: int) -> pd.DataFrame:
    rows = []
    for g in range(n):
        a_won = g < a_wins
        first, second = ("A", "B") if g % 2 == 0 else ("B", "A")  # seats rotated
        for seat, name in enumerate((first, second)):
            won = (name == "A") == a_won
            rows.append((g, seat, name, won, 10 + 5 * won + (g % 3) + seat))
    frame = pd.DataFrame(rows, columns=["game_id", "seat", "strategy", "winner", "score"])
    frame["n_players"] = 2
    return frame


@pytest.mark.parametrize("a_wins", [0, 1, 19, 20])
def test_compare_strategies_win_rows_stay_inside_and_are_not_points(a_wins):
    win = compare_strategies(_frame(a_wins, 20), a="A", b="B").set_index("measure").loc["win"]
    assert win.n == 20 and win.interval == "wilson" and win.test == "score"
    for low, high in ((win.a_ci_low, win.a_ci_high), (win.b_ci_low, win.b_ci_high)):
        assert 0.0 <= low < high <= 1.0
    assert -1.0 <= win.ci_low < win.ci_high <= 1.0
    assert 1e-10 < win.p_value < 0.05  # 0 of 20: p = 7.7e-6; 1 of 20: p = 5.7e-5


def test_verdict_needs_games_and_a_narrow_interval():
    assert verdict_status(VERDICT_MIN_GAMES - 1, 0.3, 0.9) == "too few"
    assert verdict_status(20, 0.3, 0.9) == "a" and verdict_status(20, -0.9, -0.3) == "b"
    assert verdict_status(20, -0.3, 0.3) == "too few"  # includes 0, 60 points wide
    assert verdict_status(4000, -0.03, 0.03) == "none"
    # the widest case, 50%: 385 games give a 20-point interval of A - B
    n = games_for_width(0.20)
    _, low, high, _, _ = share_difference(np.r_[np.ones(n // 2), np.zeros(n - n // 2)],
                                          np.r_[np.zeros(n // 2), np.ones(n - n // 2)])
    assert n == 385 and high - low <= 0.20


BRACKETS = re.compile(r"(-?\+?[\d.]+)(%| points) \[([+-]?[\d.]+), ([+-]?[\d.]+)\]")


@pytest.mark.parametrize("a,b", [("mcts", "learned"), ("random", "balanced")])
def test_the_issues_two_commands_print_proper_intervals(a, b):
    res = CliRunner().invoke(cli, ["compare", a, b, "--game", "maharani", "-p", "2", "-n", "20",
                                   "-w", "1", "--seed", "39"])
    assert res.exit_code == 0, res.output
    win = next(line for line in res.stdout.splitlines() if line.startswith("win share"))
    found = BRACKETS.findall(win)
    assert len(found) == 3, win  # A, B and A - B
    for value, unit, low, high in found:
        lo, hi, v = float(low), float(high), float(value)
        bound = 100.0
        assert (-bound if unit == " points" else 0.0) <= lo < hi <= bound, win
        assert lo <= v <= hi
    assert "p < 1e-300" not in win and "(score)" in win
    assert "n = 20 games" in res.stdout
    assert "verdict:" in res.stdout


def test_a_measure_without_spread_says_so_instead_of_a_point_interval():
    from tajsim.cli.compare import format_comparison

    frame = _frame(10, 20)
    frame["palaces"] = np.where(frame["strategy"] == "A", 7, 0)  # the same in every game
    table = compare_strategies(frame, a="A", b="B", measures=("win", "palaces"))
    line = next(x for x in format_comparison(table, "A", "B") if x.startswith("palaces"))
    assert "7.00 (the same in every game)" in line and "[7.00, 7.00]" not in line
    assert "+7.00 (the same in every game)" in line and "p = n/a" in line
