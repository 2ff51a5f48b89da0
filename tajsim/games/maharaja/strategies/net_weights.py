"""Maharaja's ``net`` weights: the game-independent format (:mod:`tajsim.engine.net_weights`)
at Maharaja's dimensions (``net.D_IN`` inputs, ``net.N_FEATURES`` candidate features, its
``VALUE_PRIOR``). The spec's ``NetAgent.weights`` is :data:`FORMAT`.
"""

from __future__ import annotations

from tajsim.engine.net_weights import NetFormat
from tajsim.games.maharaja.strategies.net import D_IN, N_FEATURES, VALUE_PRIOR

__all__ = ["FORMAT"]

#: Maharaja's network format: the observation's inputs, the candidates' features (``learned``'s
#: 15, the step's kind, the card, a centre palace, the rank), the value prior.
FORMAT = NetFormat(d_in=D_IN, n_features=N_FEATURES, value_prior=VALUE_PRIOR, game="maharaja")
