"""A game's ``learned`` strategy: a linear policy over per-action features, fitted to imitate a
search (expert iteration, Anthony, Tian and Barber, NeurIPS 2017).

The policy scores each legal action ``a`` as ``theta . phi(state, a)`` and takes the best (the
first of equal scores), or draws by the softmax of the scores at a temperature. ``phi`` is the
game's compiled feature kernel (:attr:`LearnedPolicy.features`); it usually starts with the
value the game's best heuristic gives the action, so ``theta = (1, 0, ..., 0)`` *is* that
heuristic, and the other weights correct it where the search decides otherwise.

:class:`LearnedPolicy` is what a game's spec declares (``GameSpec.learned``) for ``tajsim
train`` (:mod:`tajsim.play.learning`) and its ``learned`` strategy; :func:`linear_choice` is the
choice itself, shared by every game's kernel (CPU and GPU: dual-target).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from tajsim.engine.arrays import borrowed
from tajsim.engine.choice import softmax_index, temperature_units
from tajsim.engine.targets import kernel

__all__ = ["SCORE_LIMIT", "LearnedPolicy", "linear_choice", "linear_score"]


@dataclass(frozen=True)
class LearnedPolicy:
    """A game's learned policy, as its spec declares it (``GameSpec.learned``).

    Attributes
    ----------
    feature_names : tuple of str
        The features ``phi`` in order (``n_features = len(feature_names)``).
    features : compiled ``(state, comp, player, params, legal, n_legal, out) -> None``
        Writes ``phi(state, legal[i])`` into ``out[i, :n_features]`` (float64[>= n_legal,
        >= n_features]) for ``i < n_legal``, reading only what ``player`` may see.
        ``params`` is the ``learned`` strategy's parameter vector (the base heuristic's
        weights a feature may use sit there).
    strategy : str
        The registered name of the compiled policy (``"learned"``).
    weight_offset : int
        Where ``theta`` sits in that strategy's parameter vector:
        ``params[weight_offset:weight_offset + n_features]``.
    base : str
        The registered strategy whose parameters fill the rest of the vector (the base
        heuristic of the value feature); also the opponent ``tajsim train`` measures against
        (the game's best hand-written preset).
    expert : str
        The search ``tajsim train`` imitates in its first round (a registered strategy text,
        e.g. ``"ismcts:iterations=200"``).
    expert_with_rollout : ``(expert_params, learned_params) -> expert_params``, optional
        The expert's parameter vector with the learned policy (``learned_params``) as its
        rollout policy: expert iteration's later rounds. None: every round uses ``expert``.
    data_file : ``() -> Path``
        The shipped weights (TOML; :mod:`tajsim.play.learning` reads and writes it).
    value_scale : int
        Fixed-point units per unit of score for the temperature draw (one unit of
        temperature = one unit of ``theta . phi``).
    """

    feature_names: tuple[str, ...]
    features: Callable[..., None]
    strategy: str
    weight_offset: int
    base: str
    expert: str
    data_file: Callable[[], Path]
    expert_with_rollout: Callable[[np.ndarray, np.ndarray], np.ndarray] | None = None
    value_scale: int = 1024

    @property
    def n_features(self) -> int:
        return len(self.feature_names)


#: Fixed-point scores are clamped to +-2**50 (a gap of two still fits an int64).
SCORE_LIMIT = float(1 << 50)


def learned_switch(strategy_ids: list[int], params, learned_id: int, search_id: int,
                   rollout_slot: int, rollout_learned: int) -> bool | None:
    """The ``learned`` kernel switch of a line-up (each game's ``kernel_switches``): True when a
    seat plays ``learned_id``, or a ``search_id`` seat's ``params`` row holds ``rollout_learned``
    or more in ``rollout_slot`` (the search then rolls out with the learned policy: each game's
    search reads both its own code for it and the strategy id, which is larger); with
    ``params`` None, for any search seat. Else None (the kernels leave the policy out)."""
    if learned_id in strategy_ids:
        return True
    if search_id not in strategy_ids:
        return None
    if params is None or any(sid == search_id and int(row[rollout_slot]) >= rollout_learned
                             for sid, row in zip(strategy_ids, params, strict=True)):
        return True
    return None


@kernel
def linear_score(feats, i, n_features, params, offset):
    """``theta . feats[i, :n_features]`` with ``theta = params[offset:offset + n_features]``."""
    s = 0.0
    for j in range(n_features):
        s += params[offset + j] * feats[i, j]
    return s


@kernel
def linear_choice(feats, n_legal, n_features, params, offset, prng, player, scores, scale):
    """Index (< n_legal) of the action a linear policy takes.

    Parameters
    ----------
    feats : float64[>= n_legal, >= n_features], the actions' features
    params : float64[n_params], ``theta = params[offset:offset + n_features]``; its last two
        slots are the generic options (the temperature is read there)
    prng : int64[MAX_PLAYERS]; only ``prng[player]`` advances, and only at a temperature
    scores : float64[>= n_legal] scratch
    scale : int, fixed-point units per unit of score (the temperature's unit)

    At temperature 0 the best score wins (the first of equal scores) and nothing is drawn.
    """
    feats = borrowed(feats)
    params = borrowed(params)
    prng = borrowed(prng)
    scores = borrowed(scores)
    t_units = temperature_units(params, scale)
    if t_units == 0:
        best = 0
        best_score = linear_score(feats, 0, n_features, params, offset)
        for i in range(1, n_legal):
            s = linear_score(feats, i, n_features, params, offset)
            if s > best_score:
                best_score = s
                best = i
        return best
    for i in range(n_legal):
        # math.floor, not np.floor: numba-cuda has no np.floor ufunc in device code; clamped
        # to +-2**50 so the integer fits an int64 (far beyond any score)
        x = linear_score(feats, i, n_features, params, offset) * scale
        if x > SCORE_LIMIT:
            x = SCORE_LIMIT
        elif x < -SCORE_LIMIT:
            x = -SCORE_LIMIT
        scores[i] = math.floor(x)
    shift = 0 if n_legal <= 511 else 3
    return softmax_index(scores, 0, n_legal, t_units, prng, player, shift)
