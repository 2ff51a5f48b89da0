"""Integer arithmetic shared by the searches' fixed-point UCB (Maharaja ``search``, Maharani
``mcts``): results are exact integers, so every device takes the same decisions."""

from __future__ import annotations

import math

import numpy as np
from numba import njit

#: ``isqrt`` is exact for 0 <= n < ISQRT_LIMIT: above it (x + 1) ** 2 could overflow an int64.
ISQRT_LIMIT = 1 << 62


@njit(cache=True)
def isqrt(n):
    """floor(sqrt(n)) of an integer 0 <= n < ``ISQRT_LIMIT`` (0 for n < 0).

    The float square root lands within one of the answer (n converts exactly below 2**53 and
    the root is correctly rounded; above, the conversion is off by less than one part in
    2**52); the two integer corrections make it exact. A twentieth of the cost of Newton's
    iteration on integers, whose divisions were most of a UCB score."""
    if n < 2:
        return max(n, 0)
    x = np.int64(math.sqrt(n))
    while x * x > n:
        x -= 1
    while (x + 1) * (x + 1) <= n:
        x += 1
    return x
