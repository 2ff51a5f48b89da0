"""Taj Mahal's ``net`` weights: the game-independent format (:mod:`tajsim.engine.net_weights`)
at Taj Mahal's dimensions (``net.D_IN`` inputs, ``learned``'s ``N_FEATURES`` features, the
value prior ``net.VALUE_PRIOR``). The spec's ``NetAgent.weights`` is :data:`FORMAT`; the
module-level names are its methods.
"""

from __future__ import annotations

from tajsim.engine.net_weights import ARRAY_NAMES, NetFormat, NetWeights
from tajsim.games.tajmahal.strategies.learned import N_FEATURES
from tajsim.games.tajmahal.strategies.net import D_IN, VALUE_PRIOR

__all__ = ["ARRAY_NAMES", "FORMAT", "NetWeights", "initial", "load_net_file", "quantise",
           "reference_scores", "save_net_file"]

#: Taj Mahal's network format: the observation's inputs, learned's 15 features, tuned's value.
FORMAT = NetFormat(d_in=D_IN, n_features=N_FEATURES, value_prior=VALUE_PRIOR, game="tajmahal")

initial = FORMAT.initial
quantise = FORMAT.quantise
reference_scores = FORMAT.reference_scores
save_net_file = FORMAT.save_net_file
load_net_file = FORMAT.load_net_file
