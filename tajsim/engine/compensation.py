"""Seat compensation: a per-seat amount of a game's own currency given at setup (a VARIANT, not
the rules of any game), declared by a game in its spec (``GameSpec.compensation``).

The amounts travel to every kernel (CPU and GPU) inside the *rules code*, the one integer that
already carries the edition and the rule options (``GameSpec.rules_code``): seat ``k``'s amount
takes the :data:`BITS_PER_SEAT` bits from ``FIRST_BIT + BITS_PER_SEAT * k``. Every amount 0 (the
default) leaves the code, and so every fixed-seed record, exactly as before. A game's setup
kernel reads its seat's amount with :func:`seat_compensation` and adds it where the rules keep
that currency, so every heuristic, search and learned policy sees it in the state as it sees any
other gold or point.

Users give the amounts as the rule option ``compensation`` (:data:`OPTION_KEY`): a list of one
non-negative amount per seat, in whole units or quarters of one (``--compensation 0,1,2.25,3``,
``compensation = [0, 1, 2.25, 3]`` in an experiment's ``[simulate]`` or ``[[runs]]``,
``options={"compensation": [0, 1, 2.25, 3]}`` in the library).

A quarter is the finer lever where one unit of a game's currency moves a seat by more than the
balance study's margin: an amount of ``w + f/4`` gives the seat ``w + 1`` in a share ``f/4`` of
the games and ``w`` in the others, drawn for each game and seat from the game's own chance seed
(:func:`seat_compensation`; a table-top version: a die decides, or the seats alternate), so
the outcome stays a pure function of (master seed, game id, configuration) and no other draw
of the game moves. Whole amounts draw nothing.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from tajsim.engine.rng import derive_seed
from tajsim.engine.targets import kernel
from tajsim.errors import UserError

#: The rule-option key that carries the amounts.
OPTION_KEY = "compensation"
#: The lowest bit of seat 0's amount in the rules code (the options use bits 8 .. 31).
FIRST_BIT = 32
#: Bits of one seat's amount, counted in quarters of a unit: 0 .. 63 quarters (0 .. 15.75
#: units). Five seats use bits 32 .. 61 of the int64 code.
BITS_PER_SEAT = 6
#: Parts of a unit the code counts in (the low two bits of a seat's field are the quarters).
PARTS_PER_UNIT = 4
#: The largest field the code can carry (63 quarters).
CODE_MAX = (1 << BITS_PER_SEAT) - 1
#: The largest amount, in units.
AMOUNT_MAX = CODE_MAX / PARTS_PER_UNIT
#: Salt of the stream that draws a fractional amount (``tajsim.engine.rng.derive_seed``).
SALT_COMPENSATION = 0xC0DE
#: The most seats the code can carry (bit 63 is the sign).
MAX_SEATS = (63 - FIRST_BIT) // BITS_PER_SEAT
#: The bits of the rules code below the amounts: the edition and the rule options.
RULES_MASK = (1 << FIRST_BIT) - 1
#: Every bit of the rules code the amounts may use.
CODE_MASK = ((1 << (BITS_PER_SEAT * MAX_SEATS)) - 1) << FIRST_BIT


@dataclass(frozen=True)
class SeatCompensation:
    """How a game gives a seat compensation.

    Attributes
    ----------
    currency : str
        What the amounts count ("points", "gold").
    part : str
        The score part (``GameSpec.score_parts``) the amounts are counted in.
    max_amount : float
        The largest amount a seat may get, in units (at most :data:`AMOUNT_MAX`).
    why : str
        One line: why this currency (the reports quote it).
    """

    currency: str
    part: str
    max_amount: float = AMOUNT_MAX
    why: str = ""

    def __post_init__(self) -> None:
        if not 0 < self.max_amount <= AMOUNT_MAX:
            raise ValueError(f"max_amount {self.max_amount} must lie in 0.25 .. {AMOUNT_MAX}")


@kernel(inline="always")
def seat_field(rules: int, seat: int) -> int:
    """Seat ``seat``'s field of the rules code ``rules`` (int64): its amount in quarters."""
    return (rules >> (FIRST_BIT + BITS_PER_SEAT * seat)) & CODE_MAX


@kernel(inline="always")
def seat_compensation(rules: int, seat: int, play_seed: int) -> int:
    """Seat ``seat``'s compensation in game of chance seed ``play_seed`` (int64), in whole units:
    the amount's whole part, plus one with the probability of its quarters (drawn from the top
    two bits of a stream of its own: exactly ``f/4``)."""
    field = seat_field(rules, seat)
    whole = field // PARTS_PER_UNIT
    quarters = field % PARTS_PER_UNIT
    if quarters == 0:
        return whole
    draw = np.uint64(derive_seed(play_seed, seat, SALT_COMPENSATION)) >> np.uint64(62)
    return whole + 1 if np.int64(draw) < quarters else whole


@kernel(inline="always")
def compensation_low(rules: int, seat: int) -> int:
    """The least a seat's compensation can be in a game: its whole part."""
    return seat_field(rules, seat) // PARTS_PER_UNIT


@kernel(inline="always")
def compensation_high(rules: int, seat: int) -> int:
    """The most a seat's compensation can be in a game: its amount rounded up."""
    return (seat_field(rules, seat) + PARTS_PER_UNIT - 1) // PARTS_PER_UNIT


def pack(amounts: Sequence[float]) -> int:
    """The rules-code bits of ``amounts`` (checked amounts, one a seat, in units)."""
    code = 0
    for seat, amount in enumerate(amounts):
        code |= int(round(float(amount) * PARTS_PER_UNIT)) << (FIRST_BIT + BITS_PER_SEAT * seat)
    return code


def unpack(rules: int, n_players: int) -> tuple[float, ...]:
    """The amounts (units) of seats ``0 .. n_players - 1`` carried by ``rules``."""
    return tuple(((int(rules) >> (FIRST_BIT + BITS_PER_SEAT * s)) & CODE_MAX) / PARTS_PER_UNIT
                 for s in range(n_players))


def drawn_range(rules: int, seat: int) -> tuple[int, int]:
    """The least and the most seat ``seat``'s compensation can be in one game (whole units):
    what an invariant checks without the game's chance seed."""
    amount = ((int(rules) >> (FIRST_BIT + BITS_PER_SEAT * seat)) & CODE_MAX) / PARTS_PER_UNIT
    return math.floor(amount), math.ceil(amount)


def amount_text(amount: float) -> str:
    """An amount as users write it: ``2``, ``2.25``."""
    return f"{amount:g}"


def strip(rules: int) -> int:
    """``rules`` without its compensation bits (the edition and the rule options)."""
    return int(rules) & RULES_MASK


def _as_amount(value: Any) -> float | None:
    """``value`` as an amount in units if it is a whole number of quarters, else None."""
    if isinstance(value, bool):
        return None
    try:
        amount = float(value)
    except (TypeError, ValueError):
        return None
    quarters = amount * PARTS_PER_UNIT
    if not np.isfinite(quarters) or quarters != round(quarters):
        return None
    return amount


def parse_amounts(text: str) -> list[float]:
    """``"0,1,2.25,3"`` as a list of amounts; one-line ``UserError`` naming a bad entry."""
    parts = [p.strip() for p in str(text).split(",")]
    out = []
    for p in parts:
        amount = _as_amount(p)
        if amount is None:
            raise UserError(f"compensation {text!r}: {p!r} is not a whole number of quarters; "
                            "expected comma-separated amounts, one a seat (0,1,2.25,3)")
        out.append(amount)
    return out


def _normal(amount: float) -> float:
    """A whole amount as an int (so that ``[0, 1]`` reads back as written), else the float."""
    return int(amount) if amount == int(amount) else amount


def check_amounts(title: str, declared: SeatCompensation | None, amounts: Any,
                  n_players: int | None = None, max_players: int = MAX_SEATS) -> list[float]:
    """``amounts`` (units: whole numbers or quarters) if ``declared`` allows them, else a
    one-line ``UserError``.

    ``n_players`` given: the list must have one amount a seat; otherwise at most
    ``max_players``."""
    if declared is None:
        raise UserError(f"compensation {amounts!r}: {title} declares no seat compensation; "
                        "expected no compensation for this game")
    if isinstance(amounts, str):
        amounts = parse_amounts(amounts)
    if not isinstance(amounts, (list, tuple)) or any(
            not isinstance(a, (int, float)) or _as_amount(a) is None for a in amounts):
        raise UserError(f"compensation {amounts!r}; expected a list of amounts in whole units "
                        "or quarters (0, 1, 2.25), one a seat")
    amounts = [_normal(float(a)) for a in amounts]
    if n_players is not None and len(amounts) != n_players:
        raise UserError(f"compensation {amounts} has {len(amounts)} amounts for {n_players} "
                        f"players; expected one a seat ({n_players})")
    if not 1 <= len(amounts) <= max_players:
        raise UserError(f"compensation {amounts} has {len(amounts)} amounts; expected 1 to "
                        f"{max_players} (one a seat)")
    for seat, a in enumerate(amounts):
        if not 0 <= a <= declared.max_amount:
            raise UserError(f"compensation {amounts}: seat {seat} gets {a}; expected 0 to "
                            f"{declared.max_amount} {declared.currency} a seat ({title})")
    return amounts


def options_amounts(options: Any) -> list[float] | None:
    """The compensation in a rule-options table (None when it has none or all zero)."""
    if not options or OPTION_KEY not in options:
        return None
    amounts = options[OPTION_KEY]
    if isinstance(amounts, (list, tuple)) and not any(amounts):
        return None
    return list(amounts)
