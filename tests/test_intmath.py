"""The searches' integer square root: exact (math.isqrt) over its whole range."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st

from tajsim.engine.intmath import ISQRT_LIMIT, isqrt


@given(st.integers(min_value=0, max_value=ISQRT_LIMIT - 1))
def test_isqrt_is_the_floor_of_the_square_root(n):
    assert isqrt(n) == math.isqrt(n)


def test_isqrt_at_squares_and_the_ends():
    for r in (1, 2, 3, 1 << 20, (1 << 26) + 1, 94906265, 94906266, (1 << 31) - 1):
        for n in (r * r - 1, r * r, r * r + 1):
            if 0 <= n < ISQRT_LIMIT:
                assert isqrt(n) == math.isqrt(n), n
    for n in (0, 1, 2, 3, 4, (1 << 53) - 1, 1 << 53, (1 << 53) + 1, ISQRT_LIMIT - 1):
        assert isqrt(n) == math.isqrt(n), n
    assert isqrt(-5) == 0
