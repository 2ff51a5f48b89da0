"""Setups of Maharaja: the governor order, the game's only chance (7! = 5,040 orders).

Two ways to choose a game's order, both through the setup id the runner passes:

* **random** (any setup id below :data:`ENUM_SETUP_BASE`): the order is drawn from the setup
  stream derived from (master seed, setup id), as every tajsim game does; each of the 5,040
  orders has probability 1/5040. The drawn order's index is recorded (``order_index``).
* **enumerated** (setup id ``ENUM_SETUP_BASE + k``, ``0 <= k < 5040``): order number ``k`` of
  the Lehmer code, so a run over :func:`enumerated_setup_ids` plays every order exactly once
  and a setup-balance analysis is exact over orders rather than a sample.

Both kinds record the same ``order_index``, so their results can be pooled or compared. An order
is a tuple of 7 city indices: ``order[k]`` is the city whose governor stands in start box
``k + 1`` (box 1 is the bottom: its city is visited in round 1).
"""

from __future__ import annotations

import math

import numpy as np

from tajsim.errors import UserError
from tajsim.games.maharaja.engine.enums import ENUM_SETUP_BASE, N_GOVERNORS, N_ORDERS

__all__ = ["ENUM_SETUP_BASE", "N_ORDERS", "enumerated_setup_ids", "order_index_of",
           "order_of_index", "order_index_of_setup", "setup_id_of_order"]


def order_of_index(index: int) -> tuple[int, ...]:
    """The governor order with Lehmer index ``index`` (0..5039); the same decoding as the
    kernel's ``decode_order``."""
    if not isinstance(index, (int, np.integer)) or not 0 <= int(index) < N_ORDERS:
        raise UserError(f"governor order index {index!r}; expected a whole number from 0 to "
                        f"{N_ORDERS - 1}")
    rest = int(index)
    free = list(range(N_GOVERNORS))
    out = []
    for k in range(N_GOVERNORS):
        fact = math.factorial(N_GOVERNORS - 1 - k)
        digit, rest = divmod(rest, fact)
        out.append(free.pop(digit))
    return tuple(out)


def order_index_of(order) -> int:
    """The Lehmer index of a governor order (a permutation of 0..6)."""
    order = [int(c) for c in order]
    if sorted(order) != list(range(N_GOVERNORS)):
        raise UserError(f"governor order {order!r}; expected a permutation of the cities "
                        f"0..{N_GOVERNORS - 1}")
    free = list(range(N_GOVERNORS))
    index = 0
    for k, city in enumerate(order):
        digit = free.index(city)
        free.pop(digit)
        index += digit * math.factorial(N_GOVERNORS - 1 - k)
    return index


def setup_id_of_order(index: int) -> int:
    """The setup id that names governor order ``index`` exactly."""
    order_of_index(index)  # validates
    return ENUM_SETUP_BASE + int(index)


def enumerated_setup_ids() -> np.ndarray:
    """int64[5040]: the setup ids of every governor order, in Lehmer order."""
    return ENUM_SETUP_BASE + np.arange(N_ORDERS, dtype=np.int64)


def order_index_of_setup(setup_id: int) -> int:
    """The order index a setup id names, or -1 if it is a random setup (drawn in the kernel)."""
    k = int(setup_id) - ENUM_SETUP_BASE
    return k if 0 <= k < N_ORDERS else -1
