"""Where the statistics come from (docs/analysis.md): every statistic that now comes from a
library gives that library's numbers on the same data, and every one we keep (speed over many
cells, a method the libraries lack, fractional outcomes) agrees with the library on data both can
handle. Fixed seeds, explicit tolerances."""

from __future__ import annotations

import warnings

import cma
import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps
from statsmodels.discrete.conditional_models import ConditionalLogit
from statsmodels.genmod.families import Binomial
from statsmodels.genmod.generalized_linear_model import GLM
from statsmodels.regression.linear_model import OLS
from statsmodels.regression.mixed_linear_model import MixedLM
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import (
    confint_proportions_2indep,
    proportion_confint,
    proportions_ztest,
)
from statsmodels.stats.sandwich_covariance import cov_cluster
from statsmodels.stats.weightstats import CompareMeans, DescrStatsW
from statsmodels.tools.numdiff import approx_fprime

from tajsim.analysis.frames import game_index, win_value
from tajsim.analysis.ratings import _pairs, bradley_terry
from tajsim.analysis.setup_balance import _ols_slope
from tajsim.analysis.stats import (
    benjamini_hochberg,
    chi_square_equal_shares,
    cluster_robust_covariance,
    difference_of_means,
    fisher_z_interval,
    holm,
    icc_oneway,
    mean_ci,
    newcombe_difference,
    summarize_mean,
    two_proportion_test,
    wilson_interval,
    within_group_ols,
)
from tajsim.analysis.winrates import (
    _equal_rates_wald,
    _lineup_codes,
    _standardised_seat_rates,
    seat_advantage_test,
)
from tajsim.games.tajmahal.analyses.commodities import conditional_logit, goods_value
from tajsim.games.tajmahal.analyses.connections import province_order_effects
from tajsim.games.tajmahal.analyses.synthetic import make_synthetic_results
from tajsim.play.tuning import cma_es, cma_options
from tajsim.running import aggregates

RTOL = 1e-10  # same formula, same library: only rounding may differ


@pytest.fixture(scope="module")
def counts():
    rng = np.random.default_rng(101)
    n = rng.integers(1, 400, 60).astype(np.float64)
    # Fractional successes, as shared wins give, including 0 and n.
    x = np.round(rng.uniform(0, 1, 60) * n * 4) / 4
    x[:3], n[:3] = [0.0, 7.0, 2.5], [9.0, 7.0, 3.0]
    return x, n


# ---------------------------------------------------------------------------
# From the libraries: our wrappers give the library's numbers
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("confidence", [0.95, 0.99])
def test_wilson_interval_is_statsmodels_proportion_confint(counts, confidence):
    x, n = counts
    low, high = wilson_interval(x, n, confidence)
    ref_low, ref_high = proportion_confint(x, n, alpha=1 - confidence, method="wilson")
    np.testing.assert_allclose(low, ref_low, rtol=RTOL, atol=1e-15)
    np.testing.assert_allclose(high, ref_high, rtol=RTOL, atol=1e-15)
    # The runner's copy (it cannot import the analysis layer) is the same library call.
    run_low, run_high = aggregates.wilson_interval(x, n, confidence)
    np.testing.assert_allclose(run_low, ref_low, rtol=RTOL, atol=1e-15)
    np.testing.assert_allclose(run_high, ref_high, rtol=RTOL, atol=1e-15)
    for lo, hi in (wilson_interval([1.0, 0.0], [0.0, 0.0]),
                   aggregates.wilson_interval([1.0, 0.0], [0.0, 0.0])):
        assert np.isnan(lo).all() and np.isnan(hi).all()


def test_runner_summary_intervals_are_the_libraries():
    # The summary is built from int64 sums (wins in 60ths); its intervals are statsmodels'
    # Wilson interval and the normal interval of the mean score.
    rng = np.random.default_rng(115)
    scores = [rng.normal(60, 12, n).round() for n in (150, 400, 1)]
    shares = [rng.choice([0, 20, 30, 60], s.size) for s in scores]  # 60ths of a win
    rows = [("strategy", f"s{i}", -1, s.size,
             np.array([float((w == 60).sum()), float(w.sum()), s.sum()]),
             np.array([float((w == 60).sum()), float((w**2).sum()), (s**2).sum()]))
            for i, (s, w) in enumerate(zip(scores, shares))]
    table = aggregates._summary_frame(rows, 0.95, ("win", "win_share", "score"), ())
    for i, (s, w) in enumerate(zip(scores, shares)):
        wins = w.sum() / aggregates.WIN_SHARE_SCALE
        ref = proportion_confint(wins, s.size, alpha=0.05, method="wilson")
        assert tuple(table.loc[i, ["win_ci_low", "win_ci_high"]]) == pytest.approx(ref, rel=1e-12)
        if s.size > 1:
            ref = DescrStatsW(s).zconfint_mean(alpha=0.05)
            assert tuple(table.loc[i, ["score_ci_low", "score_ci_high"]]) == pytest.approx(
                ref, rel=1e-12)


def test_newcombe_difference_is_statsmodels_newcomb(counts):
    x, n = counts
    x2, n2 = x[::-1].copy(), n[::-1].copy()
    diff, low, high = newcombe_difference(x, n, x2, n2, 0.9)
    ref_low, ref_high = confint_proportions_2indep(x, n, x2, n2, compare="diff",
                                                   method="newcomb", alpha=0.1)
    np.testing.assert_allclose(diff, x / n - x2 / n2, rtol=RTOL, atol=1e-15)
    np.testing.assert_allclose(low, ref_low, rtol=RTOL, atol=1e-15)
    np.testing.assert_allclose(high, ref_high, rtol=RTOL, atol=1e-15)


def test_two_proportion_test_is_statsmodels_pooled_z_test():
    rng = np.random.default_rng(102)
    n1, n2 = rng.integers(20, 300, 25), rng.integers(20, 300, 25)
    x1, x2 = rng.binomial(n1, 0.4), rng.binomial(n2, 0.5)
    table = two_proportion_test(x1, n1, x2, n2)
    for i in range(25):  # proportions_ztest takes one pair at a time
        z, p = proportions_ztest([x1[i], x2[i]], [n1[i], n2[i]])
        assert table["z"].iloc[i] == pytest.approx(z, rel=1e-9)
        assert table["p_value"].iloc[i] == pytest.approx(p, rel=1e-9)
    nothing = two_proportion_test([0, 5], [10, 5], [0, 8], [12, 8])  # no variation
    assert nothing["z"].tolist() == [0.0, 0.0] and nothing["p_value"].tolist() == [1.0, 1.0]


def test_corrections_are_statsmodels_multipletests_and_keep_nans():
    rng = np.random.default_rng(103)
    p = rng.uniform(0, 0.2, 40) ** 2
    p[[3, 17, 30]] = np.nan
    ok = ~np.isnan(p)
    for ours, method in ((holm(p), "holm"), (benjamini_hochberg(p), "fdr_bh")):
        assert np.isnan(ours[~ok]).all()
        np.testing.assert_allclose(ours[ok], multipletests(p[ok], method=method)[1], rtol=RTOL)
    assert np.isnan(holm([np.nan, np.nan])).all()
    # holm computes statsmodels' values itself (statsmodels' Holm calls gc.collect()): the same
    # bits, ties included
    tied = np.round(p[ok], 2)
    np.testing.assert_array_equal(holm(tied), multipletests(tied, method="holm")[1])


def test_chi_square_equal_shares_is_scipy_chisquare():
    counts = np.array([40.5, 25.0, 20.0, 14.5])
    chi2, dof, p_value, _ = chi_square_equal_shares(counts)
    ref = sps.chisquare(counts)
    assert (chi2, dof, p_value) == (pytest.approx(ref.statistic, rel=RTOL), 3,
                                    pytest.approx(ref.pvalue, rel=RTOL))


def test_mean_intervals_match_statsmodels_descrstats():
    rng = np.random.default_rng(104)
    frame = pd.DataFrame({"g": rng.integers(0, 5, 400), "x": rng.gamma(2.0, 3.0, 400)})
    frame.loc[frame.index[:1], "g"] = 9  # a group of one: no interval
    table = summarize_mean(frame, ["g"], "x").set_index("g")
    for g, grp in frame.groupby("g"):
        if len(grp) < 2:
            assert np.isnan(table.loc[g, "ci_low"]) and np.isnan(table.loc[g, "ci_high"])
            continue
        ref = DescrStatsW(grp["x"].to_numpy()).tconfint_mean(alpha=0.05)
        assert (table.loc[g, "ci_low"], table.loc[g, "ci_high"]) == pytest.approx(ref, rel=1e-12)
    x = frame["x"].to_numpy()
    _, low, high, _, _ = mean_ci(x, 0.9, method="normal")
    assert (low, high) == pytest.approx(DescrStatsW(x).zconfint_mean(alpha=0.1), rel=1e-12)
    constant = summarize_mean(pd.DataFrame({"x": [2.0, 2.0, 2.0]}), [], "x")
    assert constant[["ci_low", "ci_high"]].iloc[0].tolist() == [2.0, 2.0]


def test_welch_difference_matches_statsmodels_comparemeans():
    rng = np.random.default_rng(105)
    a, b = rng.normal(1.0, 1.0, 35), rng.normal(0.4, 2.5, 23)
    diff, low, high, p_value = difference_of_means(a, b, 0.9)
    compare = CompareMeans(DescrStatsW(a), DescrStatsW(b))
    assert (low, high) == pytest.approx(compare.tconfint_diff(alpha=0.1, usevar="unequal"),
                                        rel=1e-10)
    assert p_value == pytest.approx(compare.ttest_ind(usevar="unequal")[1], rel=1e-10)
    assert diff == pytest.approx(a.mean() - b.mean())


def test_slope_matches_statsmodels_ols():
    rng = np.random.default_rng(106)
    x = rng.integers(1, 13, 80).astype(np.float64)
    y = 0.02 * x + rng.normal(0, 0.1, 80)
    slope, low, high, p_value = _ols_slope(x, y, 0.95)
    fit = OLS(y, np.column_stack([np.ones_like(x), x])).fit()
    assert slope == pytest.approx(fit.params[1], rel=1e-10)
    assert (low, high) == pytest.approx(tuple(fit.conf_int(0.05)[1]), rel=1e-10)
    assert p_value == pytest.approx(fit.pvalues[1], rel=1e-9)


def _ols_design(seed: int):
    rng = np.random.default_rng(seed)
    G, P = 300, 4
    game = np.repeat(np.arange(G), P)
    X = np.column_stack([np.ones(G * P), rng.normal(size=(G * P, 3))])
    y = X @ [0.2, 0.5, -0.3, 0.0] + np.repeat(rng.normal(size=G), P) + rng.normal(size=G * P)
    return X, y, game


def test_cluster_robust_covariance_is_statsmodels_cluster_fit():
    X, y, game = _ols_design(107)
    fit = OLS(y, X).fit()
    bread, scores = np.linalg.inv(X.T @ X), X * fit.resid[:, None]
    clustered = OLS(y, X).fit(cov_type="cluster", cov_kwds={"groups": game})
    np.testing.assert_allclose(cluster_robust_covariance(bread, scores, game),
                               clustered.cov_params(), rtol=1e-10)
    np.testing.assert_allclose(cluster_robust_covariance(bread, scores, None),
                               OLS(y, X).fit(cov_type="HC1").cov_params(), rtol=1e-10)
    # Cluster labels need not be integers.
    labels = np.array([f"g{g}" for g in game])
    np.testing.assert_allclose(cluster_robust_covariance(bread, scores, labels),
                               clustered.cov_params(), rtol=1e-10)


@pytest.fixture(scope="module")
def planted_goods():
    return make_synthetic_results(
        1500, good_value={"rice": 0.1, "tea": 0.0, "spices": 0.2, "jewels": 0.35},
        seat_effect=[0.2, 0, 0, -0.1], strategy_strength={"alpha": 0.4, "delta": -0.2},
        tie_probability=0.02, seed=108)


def test_linear_probability_model_is_statsmodels_ols_clustered(planted_goods):
    table = goods_value(planted_goods, model="lpm").set_index("term")
    data = planted_goods
    regressors = ["goods_rice", "goods_tea", "goods_spices", "goods_jewels", "n_province_tiles"]
    design = pd.concat(
        [pd.Series(1.0, index=data.index, name="const"), data[regressors].astype(float),
         pd.get_dummies(data["seat"], prefix="seat", drop_first=True, dtype=float),
         pd.get_dummies(data["strategy"].astype(str), prefix="strategy", drop_first=True,
                        dtype=float)], axis=1)
    fit = OLS(win_value(data).to_numpy(), design).fit(
        cov_type="cluster", cov_kwds={"groups": game_index(data)})
    for term in regressors:
        assert table.loc[term, "coef"] == pytest.approx(fit.params[term], rel=1e-9)
        assert table.loc[term, "se"] == pytest.approx(fit.bse[term], rel=1e-9)
        assert table.loc[term, "p_value"] == pytest.approx(fit.pvalues[term], rel=1e-7)


def test_bradley_terry_is_a_clustered_binomial_glm():
    results = make_synthetic_results(1200, strategies=list("abcde"),
                                     strategy_strength={"a": 0.6, "b": 0.3, "d": -0.3, "e": -0.6},
                                     tie_probability=0.05, seed=109)
    table = bradley_terry(results).set_index("strategy")
    pairs = _pairs(results)
    pairs = pairs[pairs["a"] < pairs["b"]]
    K = 5
    D = np.zeros((len(pairs), K))
    D[np.arange(len(pairs)), pairs["a"]] += 1.0
    D[np.arange(len(pairs)), pairs["b"]] -= 1.0
    # Ties are half a win each way: a fractional binomial outcome.
    assert set(pairs["score"]) == {0.0, 0.5, 1.0}
    glm = GLM(pairs["score"].to_numpy(), D[:, 1:], family=Binomial()).fit(
        cov_type="cluster", cov_kwds={"groups": pairs["game"].to_numpy()})
    centre = np.eye(K) - 1.0 / K
    vcov = np.zeros((K, K))
    vcov[1:, 1:] = glm.cov_params()
    strength = centre @ np.r_[0.0, glm.params]
    se = np.sqrt(np.diag(centre @ vcov @ centre.T))
    names = pairs.attrs["names"]
    np.testing.assert_allclose(table.loc[names, "strength"], strength, rtol=1e-8, atol=1e-10)
    np.testing.assert_allclose(table.loc[names, "se"], se, rtol=1e-8)


def test_province_correlations_are_scipy_pearsonr():
    results = make_synthetic_results(800, n_setups=160,
                                     province_chain_rate={"delhi": 0.3}, seed=110)
    table = province_order_effects(results).set_index("feature")
    per_setup = results.groupby("setup_id").agg(
        y=("pts_connection", "mean"), x=("visit_delhi", "first"))
    ref = sps.pearsonr(per_setup["x"], per_setup["y"])
    row = table.loc["visit_delhi"]
    assert row["correlation"] == pytest.approx(ref.statistic, rel=1e-10)
    assert row["p_value"] == pytest.approx(ref.pvalue, rel=1e-8)
    assert (row["ci_low"], row["ci_high"]) == pytest.approx(tuple(ref.confidence_interval()),
                                                            rel=1e-10)
    assert row["slope"] == pytest.approx(np.polyfit(per_setup["x"], per_setup["y"], 1)[0],
                                         rel=1e-8)


# ---------------------------------------------------------------------------
# Ours, checked against the library on the same data
# ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def clogit_data():
    """Tie-free wins (ConditionalLogit takes only 0/1 outcomes), 3 and 4 players mixed."""
    rng = np.random.default_rng(111)
    sizes = rng.choice([3, 4], 500)
    game = np.repeat(np.arange(sizes.size), sizes)
    X = rng.normal(size=(game.size, 3))
    u = X @ np.array([0.8, -0.5, 0.0]) + rng.gumbel(size=game.size)
    best = pd.Series(u).groupby(game).transform("max").to_numpy()
    return X, game, (u == best).astype(np.float64)


def test_conditional_logit_matches_statsmodels_conditionallogit(clogit_data):
    X, game, y = clogit_data
    model = ConditionalLogit(y, X, groups=game)
    lib = model.fit(method="newton", maxiter=100)  # its fit passes no tolerance to BFGS
    model_fit = conditional_logit(X, game, y, cov="model")
    np.testing.assert_allclose(model_fit["coef"], lib.params, rtol=1e-9, atol=1e-12)
    # statsmodels' covariance is the inverse of its numerical Hessian (finite differences of
    # the score): agreement to about 1e-5 of the entries.
    np.testing.assert_allclose(model_fit["cov"], lib.cov_params(), rtol=1e-4, atol=1e-8)
    assert float(model_fit["loglik"]) == pytest.approx(model.loglike(lib.params), rel=1e-9)
    # Clustered by game: the sandwich of the library's per-game scores and Hessian, with the
    # CR1 factor for N player-rows and k coefficients.
    robust = conditional_logit(X, game, y, cov="robust")
    score_games = np.array([model.score_grp(g, lib.params) for g in range(model._n_groups)])
    G, (N, k) = score_games.shape[0], X.shape
    ref = cov_cluster((score_games, lib.cov_params()), np.arange(G), use_correction=False)
    ref *= G / (G - 1) * (N - 1) / (N - k)
    np.testing.assert_allclose(robust["cov"], ref, rtol=1e-4, atol=1e-8)


def test_conditional_logit_marginal_effect_jacobian_is_numerical_derivative(clogit_data):
    X, game, y = clogit_data
    fit = conditional_logit(X, game, y, cov="model")

    def average_marginal_effect(beta):
        eta = X @ beta
        e = np.exp(eta - pd.Series(eta).groupby(game).transform("max").to_numpy())
        p = e / pd.Series(e).groupby(game).transform("sum").to_numpy()
        return beta * (p * (1 - p)).mean()

    jac = approx_fprime(fit["coef"], average_marginal_effect, centered=True)
    np.testing.assert_allclose(fit["ame"], average_marginal_effect(fit["coef"]), rtol=1e-10)
    np.testing.assert_allclose(fit["ame_cov"], jac @ fit["cov"] @ jac.T, rtol=1e-6, atol=1e-12)


def test_standardised_seat_rates_and_wald_test_match_statsmodels_ols():
    # Line-ups not rotated over the seats: "beta | alpha, alpha" occurs only in the last seat,
    # so the standardisation leaves it out; ties make fractional win values.
    lineups = [("alpha", "beta", "beta"), ("beta", "alpha", "beta"), ("beta", "beta", "alpha"),
               ("alpha", "alpha", "beta")]
    results = make_synthetic_results(
        1200, n_players=3, strategies=("alpha", "beta"), strategy_strength={"alpha": 0.5},
        lineups=lineups, seat_effect=[0.25, 0.0, -0.1], tie_probability=0.05, seed=112)
    view_key, _, _ = _lineup_codes(results, "opponents")
    seat = results["seat"].to_numpy(np.int64)
    win = win_value(results).to_numpy()
    game = game_index(results)
    view = pd.factorize(view_key)[0]
    ours = _standardised_seat_rates(seat, view, win, game, 3)

    cells = pd.DataFrame({"seat": seat, "view": view})
    seen = cells.groupby("view")["seat"].nunique()
    support = seen.index[seen == 3]
    used = cells["view"].isin(support).to_numpy()
    assert 0 < used.sum() < len(used)  # the line-up restriction matters here
    cell = pd.Categorical(list(zip(seat[used], view[used])))
    dummies = pd.get_dummies(cell, dtype=float)
    fit = OLS(win[used], dummies.to_numpy()).fit(cov_type="cluster",
                                                 cov_kwds={"groups": game[used]})
    pooled = pd.Series(view[used]).value_counts(normalize=True)
    L = np.zeros((3, dummies.shape[1]))
    for j, (s, v) in enumerate(dummies.columns):
        L[s, j] = pooled[v]
    np.testing.assert_allclose(ours["rates"], L @ fit.params, rtol=1e-12)
    np.testing.assert_allclose(ours["cov"], L @ fit.cov_params() @ L.T, rtol=1e-10)

    contrast = np.array([[-1.0, 1.0, 0.0], [-1.0, 0.0, 1.0]])
    wald = fit.wald_test(contrast @ L, use_f=False, scalar=True)
    chi2, p_value = _equal_rates_wald(ours["rates"], ours["cov"])
    assert chi2 == pytest.approx(float(wald.statistic), rel=1e-9)
    assert p_value == pytest.approx(float(wald.pvalue), rel=1e-8)
    table = seat_advantage_test(results)
    assert table["chi2"].iloc[0] == pytest.approx(chi2, rel=1e-12)
    assert table["n"].iloc[0] == len(np.unique(game[used]))


def test_icc_oneway_matches_scipy_anova_and_statsmodels_mixedlm():
    rng = np.random.default_rng(113)
    # Unbalanced groups: the F-test is scipy's one-way ANOVA.
    sizes = rng.integers(2, 9, 120)
    groups = np.repeat(np.arange(sizes.size), sizes)
    values = rng.normal(0, 0.7, sizes.size)[groups] + rng.normal(size=groups.size)
    result = icc_oneway(values, groups)
    ref = sps.f_oneway(*[values[groups == g] for g in range(sizes.size)])
    assert result["f"] == pytest.approx(ref.statistic, rel=1e-10)
    assert result["p_value"] == pytest.approx(ref.pvalue, rel=1e-8)
    # Balanced groups: the ANOVA variance components are the REML estimates of a random
    # intercept model.
    groups = np.repeat(np.arange(150), 6)
    values = rng.normal(0, 0.8, 150)[groups] + rng.normal(size=groups.size)
    result = icc_oneway(values, groups)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        mixed = MixedLM(values, np.ones((values.size, 1)), groups=groups).fit(reml=True)
    assert result["var_between"] == pytest.approx(float(np.asarray(mixed.cov_re)[0, 0]),
                                                  rel=1e-4)
    assert result["var_within"] == pytest.approx(float(mixed.scale), rel=1e-4)


def test_fisher_z_interval_matches_scipy_pearsonr():
    rng = np.random.default_rng(114)
    for n, rho in ((12, 0.2), (60, -0.5), (400, 0.05)):
        x = rng.normal(size=n)
        y = rho * x + rng.normal(size=n)
        ref = sps.pearsonr(x, y)
        low, high, p_value = fisher_z_interval(float(ref.statistic), n, 0.9)
        assert (low, high) == pytest.approx(tuple(ref.confidence_interval(0.9)), rel=1e-10)
        assert p_value == pytest.approx(ref.pvalue, rel=1e-8)


# ---------------------------------------------------------------------------
# CMA-ES: pycma
# ---------------------------------------------------------------------------
def test_cma_es_is_pycma_ask_tell_with_common_games():
    target = np.array([1.0, -2.0, 0.5, 3.0])
    lower, upper = np.full(4, -2.5), np.full(4, 2.5)  # the last coordinate's optimum is outside
    calls = []

    def objective(X, gen):
        calls.append((gen, X.shape))
        assert ((X >= lower) & (X <= upper)).all()
        return -((X - target) ** 2).sum(axis=1)

    mean, history = cma_es(objective, np.zeros(4), 0.8, 40, 8, np.random.default_rng(5),
                           lower, upper)
    # Each generation's candidates are evaluated together (the same games for all of them).
    assert calls == [(g, (8, 4)) for g in range(40)]
    # The same run driven by pycma directly.
    es = cma.CMAEvolutionStrategy(np.zeros(4), 0.8,
                                  cma_options(8, np.random.default_rng(5), lower, upper))
    for gen in range(40):
        X = es.ask()
        es.tell(X, (-objective(np.array(X), gen)).tolist())
        np.testing.assert_array_equal(history[gen]["mean"], es.result.xfavorite)
        assert history[gen]["sigma"] == es.sigma
    np.testing.assert_allclose(mean, [1.0, -2.0, 0.5, 2.5], atol=0.02)


def test_within_group_ols_equals_the_regression_with_one_dummy_per_game():
    rng = np.random.default_rng(11)
    games, seats = 60, 4
    f = pd.DataFrame({"game_id": np.repeat(np.arange(games), seats),
                      "seat": np.tile(np.arange(seats), games)})
    f["x"] = rng.normal(size=len(f))
    f["z"] = rng.poisson(2, size=len(f)).astype(float)
    f["y"] = (0.5 * f["x"] - 0.2 * f["z"] + rng.normal(size=len(f))
              + np.repeat(rng.normal(size=games), seats))
    ours = within_group_ols(f, "y", ["x", "z"], ["seat"]).set_index("term")
    dummies = pd.get_dummies(f["game_id"], dtype=float).to_numpy()
    seat = pd.get_dummies(f["seat"], dtype=float).to_numpy()[:, 1:]
    X = np.column_stack([f["x"], f["z"], seat, dummies])
    fit = OLS(f["y"].to_numpy(), X).fit(cov_type="cluster",
                                        cov_kwds={"groups": f["game_id"].to_numpy()})
    np.testing.assert_allclose(ours["coef"].to_numpy(), fit.params[:2], rtol=1e-9)
    np.testing.assert_allclose(ours["se"].to_numpy(), fit.bse[:2], rtol=1e-9)
    assert (ours["n"] == len(f)).all() and (ours["n_games"] == games).all()
    # a term constant within every game has no within-game estimate
    assert np.isnan(within_group_ols(f.assign(c=1.0), "y", ["c"]).loc[0, "coef"])
