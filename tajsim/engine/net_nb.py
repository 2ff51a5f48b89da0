"""The ``net`` strategy's game-independent kernels: the forward pass of one weights set in
integer arithmetic (issue 41, section 3; docs/net.md).

Every game's network has the same shape (:mod:`tajsim.engine.net_agent`): one hidden layer
``h = relu(W1 x + b1)`` over the seat's integer inputs ``x`` (the wing's ``net_inputs``), the
feature weights of this position ``theta(h) = theta0 + U h``, a candidate's score
``value_prior x phi[0] + theta(h) . phi`` (``phi`` its integer features, ``phi[0]`` the base
heuristic's value, both in the wing's units) and the value head ``v = wv . h + bv``. A wing
supplies the inputs and its candidates with their ``phi``; these kernels do the rest.

**Integer arithmetic.** The weights are ``int64`` fixed point: ``W1``, ``b1``, ``U`` and
``wv`` in units of ``2**-SHIFT``, ``theta0`` in ``2**-THETA_SHIFT``, ``bv`` in
``2**-(2 SHIFT)``. The inputs are integers, so the hidden units are exact integers (units
``2**-SHIFT``), ``theta`` is ``theta0 + (U h >> (2 SHIFT - THETA_SHIFT))`` and every score an
exact integer: the same decision on every device and thread, with no exp, log or rounding
(docs/architecture.md, "GPU-safe kernel code"). Training is in floating point and quantised
once (:mod:`tajsim.engine.net_weights`).

**The weights array** (the ``net`` kernel switch, :func:`tajsim.engine.net_switch.net_switch`):
``net[0]`` sets, then ``(fingerprint, offset)`` per set, then each set at its offset:
``D_IN, H, N_FEATURES, SHIFT`` (``SET_HEADER`` slots) and ``b1[H]``, ``W1[D_IN, H]``
(input-major: a decision touches only the rows of its non-zero inputs), ``theta0[N_FEATURES]``,
``U[N_FEATURES, H]``, ``wv[H]``, ``bv``. A ``net`` seat names its set by the fingerprint in
its parameter vector (:func:`fingerprint_at`). Every kernel here reads a set's dimensions from
its header, so one compiled kernel serves every game.
"""

from __future__ import annotations

import numpy as np

from tajsim.engine.targets import kernel

__all__ = ["FINGERPRINT_LIMIT", "MAX_HIDDEN", "SET_HEADER", "SHIFT", "THETA_SHIFT",
           "best_candidate", "candidate_score", "fingerprint_at", "net_forward", "net_hidden",
           "net_set_offset", "net_set_offset_checked", "net_theta", "net_value_of",
           "value_prior_fixed"]

#: Fixed point of W1, b1, U and wv (units of 2**-SHIFT) and of theta (2**-THETA_SHIFT).
SHIFT = 12
THETA_SHIFT = 20
#: A set's header: D_IN, H, N_FEATURES, SHIFT.
SET_HEADER = 4
#: The largest hidden layer a set may have (the size of a wing's hidden-unit scratch).
MAX_HIDDEN = 128
#: Fingerprints are below 2**48 (exact in float64: a parameter slot holds one).
FINGERPRINT_LIMIT = 1 << 48


def value_prior_fixed(value_prior: float) -> int:
    """A game's value prior (the weight of ``phi[0]``) in theta's units, as the kernels and
    :func:`tajsim.engine.net_weights.NetFormat.reference_scores` use it."""
    return int(value_prior * (1 << THETA_SHIFT))


@kernel
def net_set_offset(net, fingerprint):
    """Where the set of ``fingerprint`` starts in ``net`` (int64[...]), or -1."""
    for k in range(net[0]):
        if net[1 + 2 * k] == fingerprint:
            return net[2 + 2 * k]
    return np.int64(-1)


@kernel
def net_set_offset_checked(net, fingerprint, d_in, n_features):
    """Where the set of ``fingerprint`` starts in ``net``, or -1: none, or a set whose
    dimensions are not ``d_in`` inputs, ``n_features`` features and 1..``MAX_HIDDEN`` hidden
    units (another game's set: the wing's scratch and inputs would be misread, and
    :func:`net_theta` would write past its ``theta``). Every wing looks its set up by this."""
    base = net_set_offset(net, fingerprint)
    if base < 0 or net[base] != d_in or net[base + 2] != n_features \
            or not 1 <= net[base + 1] <= MAX_HIDDEN:
        return np.int64(-1)
    return base


@kernel
def fingerprint_at(params, slot):
    """The set a ``net`` seat plays: ``params[slot]`` (float64; an integer below 2**48, exact in
    float64; the registry puts it there), or -1 for NaN or out of range."""
    fp = params[slot]
    if not fp >= 0.0 or fp >= 281474976710656.0:  # NaN or out of range: no set
        return np.int64(-1)
    return np.int64(fp)


@kernel
def net_hidden(net, base, x, h):
    """``h[:H] = relu(W1 x + b1)`` (int64, units 2**-SHIFT) of the set at ``base`` for the
    inputs ``x`` (int64[D_IN]); returns H. Only the rows of the non-zero inputs are read."""
    d = net[base]
    n_hidden = net[base + 1]
    b1 = base + SET_HEADER
    w1 = b1 + n_hidden
    for j in range(n_hidden):
        h[j] = net[b1 + j]
    for i in range(d):
        xi = x[i]
        if xi != 0:
            row = w1 + i * n_hidden
            for j in range(n_hidden):
                h[j] += xi * net[row + j]
    for j in range(n_hidden):
        if h[j] < 0:
            h[j] = 0
    return n_hidden


@kernel
def net_theta(net, base, h, theta):
    """``theta[:N_FEATURES] = theta0 + (U h >> (2 SHIFT - THETA_SHIFT))`` (int64, units
    2**-THETA_SHIFT) of the set at ``base``, from its hidden units ``h`` (int64[>= H])."""
    d = net[base]
    n_hidden = net[base + 1]
    n_features = net[base + 2]
    theta0 = base + SET_HEADER + n_hidden + d * n_hidden
    u = theta0 + n_features
    for f in range(n_features):
        acc = np.int64(0)
        for j in range(n_hidden):
            acc += net[u + f * n_hidden + j] * h[j]
        theta[f] = net[theta0 + f] + (acc >> (2 * SHIFT - THETA_SHIFT))


@kernel
def net_forward(net, base, x, h, theta):
    """The hidden units ``h`` and the position's feature weights ``theta`` of the set at
    ``base`` for the inputs ``x`` (all int64; ``h`` [>= H], ``theta`` [>= N_FEATURES])."""
    net_hidden(net, base, x, h)
    net_theta(net, base, h, theta)


@kernel
def net_value_of(net, base, h):
    """The value head ``wv . h + bv`` (int64, units 2**-2 SHIFT) of the set at ``base``."""
    d = net[base]
    n_hidden = net[base + 1]
    n_features = net[base + 2]
    wv = base + SET_HEADER + n_hidden + d * n_hidden + n_features + n_features * n_hidden
    acc = net[wv + n_hidden]
    for j in range(n_hidden):
        acc += net[wv + j] * h[j]
    return acc


@kernel(inline="always")
def candidate_score(theta, f, n_features, prior_fixed):
    """``prior x f[0] + theta . f`` (int64, units 2**-THETA_SHIFT of ``f``'s units) of one
    candidate's features ``f`` (int64[>= n_features], or a tuple), ``prior_fixed`` the value
    prior in theta's units (:func:`value_prior_fixed`)."""
    score = prior_fixed * f[0]
    for j in range(n_features):
        score += theta[j] * f[j]
    return score


@kernel
def best_candidate(scores, offset, n_cand):
    """Index ``k < n_cand`` of the best of ``scores[offset:offset + n_cand]`` (int64), a tie
    going to the earlier (the wing lists its candidates best by value first)."""
    best = 0
    for k in range(1, n_cand):
        if scores[offset + k] > scores[offset + best]:
            best = k
    return best
