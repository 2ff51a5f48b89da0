"""Issue 39, section 3: the head-to-head structure a transitive rating hides. The Nash averaging
solver on games with known equilibria, cycle detection on synthetic matrices, and the verdicts
(only edges whose interval excludes 50% count)."""

from __future__ import annotations

import numpy as np
import pytest

from tajsim.analysis.ratings import (
    PairMatrix,
    find_cycles,
    head_to_head_structure,
    nash_averaging,
    nash_equilibrium,
)
from tajsim.analysis.stats import wilson_interval

RPS = np.array([[0.0, -1.0, 1.0], [1.0, 0.0, -1.0], [-1.0, 1.0, 0.0]])


def test_rock_paper_scissors_is_uniform():
    assert nash_equilibrium(RPS) == pytest.approx(np.full(3, 1 / 3), abs=1e-6)
    # weighted RPS (a win of 2 against one, 1 against the other): the known (1/4, 1/2, 1/4)...
    weighted = np.array([[0.0, -1.0, 2.0], [1.0, 0.0, -1.0], [-2.0, 1.0, 0.0]])
    p = nash_equilibrium(weighted)
    assert p == pytest.approx([0.25, 0.5, 0.25], abs=1e-6)
    assert np.all(weighted.T @ p >= -1e-6)  # ...from which no strategy gains


def test_a_dominant_strategy_is_a_pure_equilibrium():
    payoff = RPS.copy()
    dominant = np.array([0.0, 1.0, 1.0, 1.0])  # beats rock, paper and scissors
    game = np.zeros((4, 4))
    game[1:, 1:] = RPS
    game[0, :] = dominant
    game[:, 0] = -dominant
    assert nash_equilibrium(game) == pytest.approx([1, 0, 0, 0], abs=1e-9)
    assert nash_equilibrium(payoff[:1, :1]) == pytest.approx([1.0])


def test_two_copies_of_the_best_share_the_maximum_entropy_equilibrium():
    # every mixture of the two copies is an equilibrium: the maximum-entropy one splits evenly
    game = np.array([[0.0, 0.0, 1.0], [0.0, 0.0, 1.0], [-1.0, -1.0, 0.0]])
    assert nash_equilibrium(game) == pytest.approx([0.5, 0.5, 0.0], abs=1e-5)


def test_random_games_give_equilibria_seeded():
    rng = np.random.default_rng(39)
    for _ in range(20):
        k = int(rng.integers(2, 8))
        m = rng.normal(size=(k, k))
        game = m - m.T
        p = nash_equilibrium(game)
        assert p.sum() == pytest.approx(1.0) and np.all(p >= 0)
        assert np.all(game.T @ p >= -1e-7)  # value 0: nothing gains against p


def _pairs(shares: dict[tuple[str, str], float], n: int = 1000) -> PairMatrix:
    a, b = zip(*shares)
    share = np.array(list(shares.values()))
    low, high = wilson_interval(share * n, np.full(share.size, float(n)))
    return PairMatrix.from_pairs(a, b, share, low, high, np.full(share.size, n))


def test_cycle_detection_on_a_synthetic_matrix():
    beats = np.zeros((5, 5), dtype=bool)
    for i, j in [(0, 1), (1, 2), (2, 0), (3, 4), (0, 3), (3, 1)]:
        beats[i, j] = True
    # 0 > 1 > 2 > 0 and 0 > 3 > 1 > 2 > 0; 3 > 4 is no cycle
    assert find_cycles(beats) == [(0, 1, 2), (0, 3, 1, 2)]
    assert find_cycles(np.triu(np.ones((4, 4), dtype=bool), 1)) == []


def test_only_edges_whose_interval_excludes_half_count():
    # greedy > balanced > hoarder > greedy, as in Maharaja's ladder; and a fourth strategy
    # that every one beats
    shares = {("greedy", "balanced"): 0.525, ("balanced", "hoarder"): 0.542,
              ("hoarder", "greedy"): 0.724, ("greedy", "weak"): 0.9,
              ("balanced", "weak"): 0.9, ("hoarder", "weak"): 0.9}
    structure = head_to_head_structure(_pairs(shares, n=4000))
    assert structure.cycles == [("greedy", "balanced", "hoarder")]
    assert structure.cycle_holm == [True]
    text = structure.cycle_text(structure.cycles[0])
    assert text.startswith("`greedy` > `balanced` (52.5% [")
    assert text.endswith("> `greedy` (72.4% [71.0, 73.8] of the wins)")
    assert structure.verdict.startswith("no single best strategy: the equilibrium mixes")
    assert "`weak`" not in structure.verdict
    # at 100 games the 52.5% edge's interval includes 50%: no edge, so no cycle
    few = head_to_head_structure(_pairs(shares, n=100))
    assert few.cycles == []


def test_the_best_strategy_verdicts():
    dominant = {("best", "b"): 0.7, ("best", "c"): 0.8, ("b", "c"): 0.6}
    s = head_to_head_structure(_pairs(dominant))
    assert s.verdict.startswith("`best` is the best: the equilibrium is pure")
    close = {("best", "b"): 0.51, ("best", "c"): 0.8, ("b", "c"): 0.6}
    s = head_to_head_structure(_pairs(close, n=400))
    assert s.verdict == ("`best` is first (a pure equilibrium) but not separated from `b` "
                         "(interval includes 50%)")
    table = nash_averaging(_pairs(dominant))
    assert list(table["strategy"]) == ["best", "b", "c"]
    assert table["nash_weight"].tolist() == pytest.approx([1, 0, 0], abs=1e-9)
    assert table["nash_payoff"].tolist() == pytest.approx([0.5, 0.3, 0.2])
    assert table["n"].tolist() == [2000, 2000, 2000]


def test_bradley_terry_from_pairs_recovers_consistent_strengths():
    from scipy.special import expit

    from tajsim.analysis.ratings import bradley_terry_pairs

    theta = {"a": 0.5, "b": 0.0, "c": -0.5}
    shares = {(x, y): float(expit(theta[x] - theta[y])) for x, y in [("a", "b"), ("a", "c"),
                                                                      ("b", "c")]}
    shares[("loser", "c")] = 0.0  # lost every game: no finite strength, left out of the fit
    table = bradley_terry_pairs(_pairs(shares))
    assert list(table["strategy"]) == ["a", "b", "c", "loser"]
    assert table["strength"].iloc[:3].tolist() == pytest.approx([0.5, 0.0, -0.5], abs=1e-6)
    assert table["separated"].tolist() == ["", "", "", "below all"]
    assert (table["ci_low"].iloc[:3] < table["strength"].iloc[:3]).all()


def test_the_tournament_report_states_nash_averaging_and_cycles(tmp_path):
    from tajsim.games.tajmahal.analyses.synthetic import make_synthetic_results
    from tajsim.reporting.report import build_report

    frame = make_synthetic_results(300, strategies=("alpha", "beta", "gamma"),
                                   strategy_strength={"alpha": 1.0}, seed=39)
    build_report(frame, tmp_path, sections=["ratings"])
    md = (tmp_path / "report.md").read_text()
    assert "Nash averaging (the maximum-entropy Nash equilibrium" in md
    assert "cycle" in md
    nash = (tmp_path / "table_nash_averaging.csv").read_text()
    assert "nash_weight" in nash and "alpha" in nash


def test_the_ladder_document_shows_the_structure_from_saved_numbers():
    from tajsim.reporting.ladder import REPO, load_json, render_markdown

    text = render_markdown(load_json(REPO / "docs" / "games" / "maharaja" / "strategies.json"))
    assert "### Head-to-head structure" in text
    assert "* `greedy` > `balanced` (53.2% [51.7, 54.8] of the wins) > `hoarder`" in text
    assert ("By Nash averaging: `learned` is first (a pure equilibrium) but not separated from "
            "`net`") in text


def test_a_mixed_equilibrium_says_why():
    # a cycle whose edges are all significant, and one whose edges are not
    cycle = {("a", "b"): 0.6, ("b", "c"): 0.6, ("c", "a"): 0.6}
    s = head_to_head_structure(_pairs(cycle))
    assert s.verdict.endswith("(a cycle among them)")
    assert s.nash["nash_weight"].tolist() == pytest.approx([1 / 3] * 3, abs=1e-5)
    faint = {("a", "b"): 0.51, ("b", "c"): 0.51, ("c", "a"): 0.51}
    s = head_to_head_structure(_pairs(faint, n=100))
    assert s.cycles == []
    assert s.verdict.endswith("(no cycle among them: some of their pairs are not separated)")


def test_a_strategy_that_loses_a_little_to_the_best_is_not_in_the_support():
    """The tournament's case: collector beats commodity by 0.3 points. The LPs' slack once left
    commodity a weight of 3.6e-7, and the verdict read 'the equilibrium mixes collector 100%,
    commodity 0%'."""
    from tajsim.analysis.ratings import nash_equilibrium

    payoff = np.array([[0.0, 0.0028, 0.023], [-0.0028, 0.0, 0.02], [-0.023, -0.02, 0.0]])
    assert nash_equilibrium(payoff).tolist() == [1.0, 0.0, 0.0]


def test_the_bradley_terry_verdict_is_a_tested_order_not_an_interval_overlap():
    """The best strategy by Bradley-Terry is a claim about the first two strengths' difference:
    a Wald test with the centred strengths' covariance, Holm over the pairs, stated with its
    p (not read off whether two intervals overlap)."""
    from tajsim.analysis.ratings import (
        bradley_terry_order,
        bradley_terry_pairs,
        bradley_terry_verdict,
    )

    def table(share_ab: float):
        shares = {("a", "b"): share_ab, ("a", "c"): 0.6, ("b", "c"): 0.6, ("a", "d"): 0.6,
                  ("b", "d"): 0.6, ("c", "d"): 0.5}
        return bradley_terry_pairs(_pairs(shares, n=2000))

    clear, close = table(0.55), table(0.52)
    assert clear.attrs["cov"].shape == (4, 4)
    order = bradley_terry_order(clear)
    assert order is not None and order.tiers[0] == ("a",) and len(order.pairwise) == 6
    verdict = bradley_terry_verdict(clear)
    assert verdict.startswith("`a` is the strongest (Wald tests of the strengths' differences "
                              "with their covariance, Holm over 6 pairs; `a` against `b`: p = ")
    p_ab = order.pairwise.query("a == 'a' and b == 'b'")["p_holm"].iloc[0]
    assert p_ab < 0.05 and f"p = {p_ab:.2g})" in verdict
    assert bradley_terry_verdict(close).startswith("`a` and `b` are first, not told apart (")
    # the difference's variance uses the covariance: centred strengths are correlated
    cov = clear.attrs["cov"]
    se_ab = float(order.pairwise.query("a == 'a' and b == 'b'")["se"].iloc[0])
    assert se_ab == pytest.approx(np.sqrt(cov[0, 0] + cov[1, 1] - 2 * cov[0, 1]))
    assert abs(cov[0, 1]) > 1e-6
    single = bradley_terry_pairs(_pairs({("a", "b"): 1.0}))  # separated: nothing finite to test
    assert bradley_terry_verdict(single) == "no two finite strengths to compare"
