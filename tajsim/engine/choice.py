"""Generic strategy options inside the kernels: temperature (stochastic play) and restrictions.

Every game whose registry takes the generic strategy options
(``StrategyRegistry(..., generic_options=True)``, see :mod:`tajsim.strategies.spec`) receives
them in the **last two slots** of a strategy's ``float64[n_params]`` vector:

* ``params[n_params - 2]``: the temperature, a number >= 0 (:func:`temperature_units`);
* ``params[n_params - 1]``: the restriction mask, the sum of ``1 << bit`` over the forbidden
  families the game declares (``GameSpec.restrictions``; :func:`forbid_mask`).

Counting from the end is what lets a search hand ``params[k:]`` to its rollout policy: the
slice still ends with the same two slots, so the rollouts play at the searcher's temperature.

**Temperature.** At 0 a strategy takes its best-valued action (the first of equal values), as
it always has, and draws nothing. Above 0 it draws action ``i`` with probability proportional
to ``exp(-(best - value_i) / (T * scale))``, where ``scale`` is the game's value units per unit
of temperature (Maharaja: 1,024 fixed-point units = one gold). The draw is integer arithmetic
only, so a CPU and a GPU decide identically: the gap is turned into fixed point
(``EXP_STEPS`` steps per unit of ``T``, rounded down), the weight read from ``EXP_TABLE``
(``round(EXP_ONE * exp(-z / EXP_STEPS))``, integer constants computed once in Python), and the
action drawn with :func:`tajsim.engine.rng.below` from the seat's own stream. The resolution is
therefore ``1 / EXP_STEPS`` of a temperature unit in the gap, and an action more than
``EXP_LEN / EXP_STEPS`` (16) temperatures below the best is never drawn (weight 0).
"""

from __future__ import annotations

import math

import numpy as np

from tajsim.engine.arrays import borrowed
from tajsim.engine.rng import below
from tajsim.engine.targets import kernel

__all__ = ["EXP_LEN", "EXP_ONE", "EXP_STEPS", "EXP_TABLE", "GENERIC_SLOTS",
           "forbid_mask", "softmax_index", "softmax_weight",
           "temperature_units"]

#: Slots the generic options take at the end of the parameter vector (temperature, forbid).
GENERIC_SLOTS = 2
EXP_STEPS = 256  # fixed-point steps of the gap per unit of temperature
EXP_ONE = 1 << 22  # weight of the best action; 229 actions x 2**22 stays below 2**31 (`below`)
EXP_LEN = 16 * EXP_STEPS  # exp(-16) * 2**22 rounds to 0: longer gaps weigh nothing
#: EXP_TABLE[z] = round(EXP_ONE * exp(-z / EXP_STEPS)), int64[EXP_LEN]: the same integers on
#: every device (no exp is evaluated in a kernel).
EXP_TABLE = np.array([round(EXP_ONE * math.exp(-z / EXP_STEPS)) for z in range(EXP_LEN)],
                     np.int64)


@kernel
def temperature_units(params, scale):
    """The temperature in the game's value units, rounded down: ``int64(T * scale)``.

    ``params``: float64[n_params] (or a slice of it that ends with the generic slots);
    ``scale``: int, value units per unit of temperature (a power of two keeps it exact).
    0 means "take the best action" (also a temperature below one value unit).
    """
    t = params[params.shape[0] - 2]
    if t <= 0.0:
        return np.int64(0)
    return np.int64(t * scale)


@kernel
def forbid_mask(params):
    """The restriction mask (int64): bit ``b`` set = family ``b`` of the game is forbidden."""
    return np.int64(params[params.shape[0] - 1])


@kernel
def softmax_weight(gap, t_units):
    """Integer weight of an action ``gap`` value units below the best at temperature
    ``t_units`` (> 0): ``EXP_TABLE[gap * EXP_STEPS // t_units]``, 0 past the table."""
    if gap <= 0:
        return np.int64(EXP_ONE)
    if gap // t_units >= EXP_LEN // EXP_STEPS:  # also keeps gap * EXP_STEPS from overflowing
        return np.int64(0)
    z = gap * EXP_STEPS // t_units
    if z >= EXP_LEN:
        return np.int64(0)
    return EXP_TABLE[z]


@kernel
def softmax_index(values, offset, n, t_units, prng, player, shift):
    """Index ``i < n`` drawn with weight ``softmax_weight(best - values[offset + i], t_units)
    >> shift``.

    Parameters
    ----------
    values : int64 array, or float64 holding integers (read as int64, exact below 2**53); the
        candidates' values are ``values[offset:offset + n]``
    n : int >= 1
    t_units : int64 > 0, from :func:`temperature_units`
    prng : int64[MAX_PLAYERS]; only ``prng[player]`` advances (one draw)
    shift : int >= 0, keeps the weights' sum below 2**31 (:func:`tajsim.engine.rng.below`):
        0 for up to ``2**31 // EXP_ONE - 1`` (511) candidates, 3 for up to 4,095
    """
    values = borrowed(values)
    prng = borrowed(prng)
    best = np.int64(values[offset])
    for i in range(1, n):
        v = np.int64(values[offset + i])
        if v > best:
            best = v
    total = np.int64(0)
    for i in range(n):
        total += softmax_weight(best - np.int64(values[offset + i]), t_units) >> shift
    r = below(prng, player, total)
    for i in range(n):
        r -= softmax_weight(best - np.int64(values[offset + i]), t_units) >> shift
        if r < 0:
            return i
    return n - 1  # not reached: r < total
