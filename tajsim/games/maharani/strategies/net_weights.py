"""Maharani's ``net`` weights: the game-independent format (:mod:`tajsim.engine.net_weights`)
at Maharani's dimensions (``net.D_IN`` inputs, ``learned``'s ``N_FEATURES`` features, its
``VALUE_PRIOR``). The spec's ``NetAgent.weights`` is :data:`FORMAT`; the module-level names are
its methods (the registry, the benchmarks and the tests read them here).
"""

from __future__ import annotations

from tajsim.engine.net_weights import ARRAY_NAMES, NetFormat, NetWeights
from tajsim.games.maharani.strategies.learned import N_FEATURES, VALUE_PRIOR
from tajsim.games.maharani.strategies.net import D_IN

__all__ = ["ARRAY_NAMES", "FORMAT", "NetWeights", "initial", "load_net_file", "quantise",
           "reference_hidden", "reference_scores", "save_net_file"]

#: Maharani's network format: 522 inputs, 15 candidate features, balanced's value prior.
FORMAT = NetFormat(d_in=D_IN, n_features=N_FEATURES, value_prior=VALUE_PRIOR, game="maharani")

initial = FORMAT.initial
quantise = FORMAT.quantise
reference_hidden = FORMAT.reference_hidden
reference_scores = FORMAT.reference_scores
save_net_file = FORMAT.save_net_file
load_net_file = FORMAT.load_net_file
remember_set = FORMAT.remember_set
