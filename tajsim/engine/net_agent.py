"""A game's ``net`` strategy as its spec declares it (``GameSpec.net``): what ``tajsim train
--agent net`` (:mod:`tajsim.play.net_training`) needs to collect a search's decisions, fit the
network and hand the weights to the game's compiled policy.

The network is the same shape in every game (one ReLU layer ``h`` over the seat's ``n_inputs``
integer inputs; the policy scores at most ``max_candidates`` candidate actions by
``value_prior x phi[0] + (theta0 + U h) . phi``, ``phi`` the candidates' ``n_features``
integer features in thousandths; the value head ``wv . h + bv``), so the trainer is generic and a
game brings its inputs, its candidates and its weights file.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from tajsim.engine.net_weights import NetFormat

__all__ = ["NetAgent"]


@dataclass(frozen=True)
class NetAgent:
    """A game's policy-and-value network.

    Attributes
    ----------
    n_inputs, n_features, max_candidates : int
        The inputs ``x``, the candidates' features ``phi`` and how many candidates at most.
    features : compiled ``(state, comp, player, params, legal, n_legal, x_out, phi_out,
        cand_out) -> n_cand``
        One decision's data, reading only what ``player`` may see: ``x_out`` int64[n_inputs],
        ``phi_out`` int64[max_candidates, n_features] (thousandths), ``cand_out``
        int64[max_candidates] the candidates' indices into ``legal``; the policy's own.
    value_prior : float
        The weight of ``phi[0]`` (the base heuristic's value) added to every score.
    strategy, base, expert : str
        The registered network strategy (``"net"``), the preset whose parameters its vector
        starts with (the candidates' values), the search imitated (``"mcts"``).
    strategy_id : int
        The network strategy's compiled id (registered only once a weights file exists, so
        the trainer does not look it up by name).
    weights : :class:`tajsim.engine.net_weights.NetFormat` (``save_net_file``, ``load_net_file``,
        ``quantise``, ``remember_set``)
        The game's dimensions, its weights file and its int64 set.
    params_of : ``(fingerprint) -> float64[n_params]``
        The network strategy's vector playing the set of ``fingerprint``.
    data_file : ``() -> Path``
        The shipped weights (``--install`` writes it).
    anchor : ``() -> float64[n_features]``
        The linear policy the final weights are blended with (``theta0`` with ``U = 0``): the
        game's ``learned`` weights, or zeros (the base heuristic's order).
    outcome : ``(state, n_players) -> list of float``
        Each seat's result in the finished game ``state`` (1.0 a winner, else 0.0): the value
        head's target.
    """

    n_inputs: int
    n_features: int
    max_candidates: int
    features: Callable[..., Any]
    value_prior: float
    strategy: str
    strategy_id: int
    base: str
    expert: str
    weights: NetFormat
    params_of: Callable[[int], np.ndarray]
    data_file: Callable[[], Path]
    outcome: Callable[[np.ndarray, int], list[float]]
    anchor: Callable[[], np.ndarray]
