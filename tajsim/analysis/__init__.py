"""Analyses: pandas pipelines over results frames (see docs/analysis.md).

* ``stats`` - intervals and tests (statsmodels and scipy.stats underneath); ``frames`` -
  results-frame helpers (game keys, win values);
* ``winrates``, ``composition``, ``setup_balance``, ``ratings``, ``robustness`` - the analyses
  every game has;
* ``registry`` - analyses by name (the generic ones plus the game's own, from its spec), the
  cache the report shares with the run.
"""
