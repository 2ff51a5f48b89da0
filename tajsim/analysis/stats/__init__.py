"""Statistics used by every analysis (the results-frame helpers are in ``frames``): proportions,
means, correlation, multiple tests and regression, one module each, all re-exported here, and
``verdicts`` (equivalence, tested orders, families, minimum detectable effects: what a stated
conclusion may say), imported from its module.

Conventions shared by the analysis modules:

* Every table carries ``n`` (the sample size of its main estimate, in the unit the function
  documents: player-games, games or setups) and ``ci_low`` / ``ci_high`` for its main estimate.
  Secondary estimates in the same table carry ``<name>_ci_low`` / ``<name>_ci_high``.
* Intervals are two-sided at ``confidence`` (0.95 unless told).
* Functions accept scalars or NumPy arrays and broadcast; they never mutate their inputs.

Win values and ties
-------------------
``win_value(results, share_ties=True)`` gives each player-game a number in [0, 1]: 1 for a sole
winner, ``1/k`` for each of ``k`` tied winners, 0 otherwise. The win values of one game then sum
to 1, so the expected win rate of a seat or strategy under "everyone equal" is exactly
``1 / n_players``. With ``share_ties=False`` every tied winner counts 1 (the ``winner`` column as
is); win values of a game then sum to ``k`` and the equal-players baseline is ``E[k] / n_players``,
slightly above ``1 / n_players``. Wilson intervals accept fractional success counts (the usual
approximation; ties are rare in Taj Mahal after the tie-break).

Where the numbers come from
---------------------------
The intervals, tests and corrections are the libraries' (statsmodels, ``scipy.stats``), wrapped
only to keep this module's conventions (array broadcasting, ``n == 0`` gives NaN, NaN p-values
stay NaN): see each function's docstring and docs/analysis.md ("Where the statistics come
from"). :func:`icc_oneway` and :func:`fisher_z_interval` are ours (no library has the
unbalanced one-way ICC with its F interval, or the Fisher interval from ``r`` and ``n`` alone);
tests/test_stats_sources.py checks them against statsmodels and scipy on the same data.
"""

from __future__ import annotations

from tajsim.analysis.stats.correlation import (
    fisher_z_interval,
    icc_oneway,
)
from tajsim.analysis.stats.means import (
    difference_of_means,
    mean_ci,
    paired_difference,
    summarize_mean,
)
from tajsim.analysis.stats.multiple_tests import (
    benjamini_hochberg,
    holm,
)
from tajsim.analysis.stats.proportions import (
    chi_square_equal_shares,
    newcombe_difference,
    normal_quantile,
    proportion_table,
    two_proportion_test,
    wilson_interval,
)
from tajsim.analysis.stats.regression import (
    cluster_robust_covariance,
    within_group_ols,
)

__all__ = [
    "benjamini_hochberg",
    "chi_square_equal_shares",
    "cluster_robust_covariance",
    "difference_of_means",
    "fisher_z_interval",
    "holm",
    "icc_oneway",
    "mean_ci",
    "newcombe_difference",
    "normal_quantile",
    "paired_difference",
    "proportion_table",
    "summarize_mean",
    "two_proportion_test",
    "wilson_interval",
    "within_group_ols",
]
