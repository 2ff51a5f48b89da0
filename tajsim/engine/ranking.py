"""The generic finish: seats ranked by their final score in the direction of the game's
``better_score``, ties broken by the game's own tie-break, every seat of rank 1 a winner.

A wing's finish kernel scores the game, writes each seat's :func:`ranking_key` where its ranks
go, and calls :func:`rank_seats`, which turns the keys into ranks in place. The score direction
is the wing's ``LOWER_SCORE_WINS`` (``engine/enums.py``, default False), the same constant
from which :meth:`GameSpec.from_wing` derives ``GameSpec.better_score``: the kernels and the
analyses cannot disagree on who won.

A rank is 1 + the number of seats with a strictly better key, so tied seats share the better
rank (and, at rank 1, the win), as each game's rules say of a tie the tie-break does not settle.
"""

from __future__ import annotations

from tajsim.engine.targets import kernel

__all__ = ["TIE_SPAN", "ranking_key", "rank_seats"]

#: Room below the score in a ranking key for the game's tie-break (0 .. TIE_SPAN - 1).
TIE_SPAN = 1 << 16
#: Low bits of a key that :func:`rank_seats` borrows to hold a seat's count of better seats
#: (at most MAX_PLAYERS - 1 < 8) while the other seats' keys are still needed.
_COUNT_BITS = 3


@kernel(inline="always")
def ranking_key(score: int, tie_break: int, lower_score_wins: bool) -> int:
    """One seat's ranking key (int64; larger is better).

    Parameters
    ----------
    score : int
        The seat's final score.
    tie_break : int
        The game's tie-break among seats of equal score, in ``0 .. TIE_SPAN - 1``, larger
        better (0 for every seat: equal scores tie).
    lower_score_wins : bool
        The wing's ``LOWER_SCORE_WINS`` (``GameSpec.better_score == "lower"``).
    """
    oriented = -score if lower_score_wins else score
    return oriented * TIE_SPAN + tie_break


@kernel(inline="always")
def rank_seats(state, n: int, rank_at: int, winner_at: int) -> None:
    """Replace the :func:`ranking_key` of each seat ``p < n`` at ``state[rank_at + p]`` by its rank
    (1 + the number of seats with a larger key) and, where ``winner_at >= 0``, set its winner
    flag at ``state[winner_at + p]`` (1 for rank 1, else 0).

    ``state`` is the game's int64 state vector; nothing is allocated (a GPU device function too):
    each key is shifted up by ``_COUNT_BITS`` and its seat's count of better seats kept in the
    freed low bits until every seat is counted (an arithmetic shift gives the key back, sign
    included)."""
    for p in range(n):
        state[rank_at + p] = state[rank_at + p] << _COUNT_BITS
    for p in range(n):
        mine = state[rank_at + p] >> _COUNT_BITS
        better = 0
        for q in range(n):
            if (state[rank_at + q] >> _COUNT_BITS) > mine:
                better += 1
        state[rank_at + p] = state[rank_at + p] | better
    low = (1 << _COUNT_BITS) - 1
    for p in range(n):
        rank = (state[rank_at + p] & low) + 1
        state[rank_at + p] = rank
        if winner_at >= 0:
            state[winner_at + p] = 1 if rank == 1 else 0
