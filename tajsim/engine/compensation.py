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
non-negative integer per seat (``--compensation 0,1,2,3``, ``compensation = [0, 1, 2, 3]`` in an
experiment's ``[simulate]`` or ``[[runs]]``, ``options={"compensation": [0, 1, 2, 3]}`` in the
library).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tajsim.engine.targets import kernel
from tajsim.errors import UserError

#: The rule-option key that carries the amounts.
OPTION_KEY = "compensation"
#: The lowest bit of seat 0's amount in the rules code (the options use bits 8 .. 31).
FIRST_BIT = 32
#: Bits of one seat's amount: 0 .. 63. Five seats use bits 32 .. 61 of the int64 code.
BITS_PER_SEAT = 6
#: The largest amount the code can carry.
CODE_MAX = (1 << BITS_PER_SEAT) - 1
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
    max_amount : int
        The largest amount a seat may get (at most :data:`CODE_MAX`).
    why : str
        One line: why this currency (the reports quote it).
    """

    currency: str
    part: str
    max_amount: int = CODE_MAX
    why: str = ""

    def __post_init__(self) -> None:
        if not 0 < self.max_amount <= CODE_MAX:
            raise ValueError(f"max_amount {self.max_amount} must lie in 1 .. {CODE_MAX}")


@kernel(inline="always")
def seat_compensation(rules: int, seat: int) -> int:
    """Seat ``seat``'s compensation carried by the rules code ``rules`` (int64): 0 .. 63."""
    return (rules >> (FIRST_BIT + BITS_PER_SEAT * seat)) & CODE_MAX


def pack(amounts: Sequence[int]) -> int:
    """The rules-code bits of ``amounts`` (checked amounts, one a seat)."""
    code = 0
    for seat, amount in enumerate(amounts):
        code |= int(amount) << (FIRST_BIT + BITS_PER_SEAT * seat)
    return code


def unpack(rules: int, n_players: int) -> tuple[int, ...]:
    """The amounts of seats ``0 .. n_players - 1`` carried by ``rules``."""
    return tuple((int(rules) >> (FIRST_BIT + BITS_PER_SEAT * s)) & CODE_MAX
                 for s in range(n_players))


def strip(rules: int) -> int:
    """``rules`` without its compensation bits (the edition and the rule options)."""
    return int(rules) & RULES_MASK


def parse_amounts(text: str) -> list[int]:
    """``"0,1,2,3"`` as a list of ints; one-line ``UserError`` naming a bad entry."""
    parts = [p.strip() for p in str(text).split(",")]
    out = []
    for p in parts:
        try:
            out.append(int(p))
        except ValueError:
            raise UserError(f"compensation {text!r}: {p!r} is not a whole number; expected "
                            "comma-separated amounts, one a seat (0,1,2,3)") from None
    return out


def check_amounts(title: str, declared: SeatCompensation | None, amounts: Any,
                  n_players: int | None = None, max_players: int = MAX_SEATS) -> list[int]:
    """``amounts`` as a list of ints if ``declared`` allows them, else a one-line ``UserError``.

    ``n_players`` given: the list must have one amount a seat; otherwise at most
    ``max_players``."""
    if declared is None:
        raise UserError(f"compensation {amounts!r}: {title} declares no seat compensation; "
                        "expected no compensation for this game")
    if isinstance(amounts, str):
        amounts = parse_amounts(amounts)
    if not isinstance(amounts, (list, tuple)) or any(
            isinstance(a, bool) or not isinstance(a, int) for a in amounts):
        raise UserError(f"compensation {amounts!r}; expected a list of whole numbers, one a "
                        "seat")
    amounts = [int(a) for a in amounts]
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


def options_amounts(options: Any) -> list[int] | None:
    """The compensation in a rule-options table (None when it has none or all zero)."""
    if not options or OPTION_KEY not in options:
        return None
    amounts = options[OPTION_KEY]
    if isinstance(amounts, (list, tuple)) and not any(amounts):
        return None
    return list(amounts)
