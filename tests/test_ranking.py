"""The generic finish (``tajsim.engine.ranking``): ranks by the game's score direction with its
tie-break, ties sharing the better rank; the spec's ``better_score`` is derived from the same
constant the kernels rank by."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tajsim.engine.ranking import TIE_SPAN, rank_seats, ranking_key
from tajsim.engine.spec import GameSpec
from tajsim.games.registry import game_names, get_game


def _reference_ranks(scores, ties, lower_wins):
    """Rank = 1 + seats strictly better: a better score, or an equal one with a larger tie."""
    n = len(scores)
    sign = -1 if lower_wins else 1
    ranks = []
    for p in range(n):
        better = sum(1 for q in range(n)
                     if sign * scores[q] > sign * scores[p]
                     or (scores[q] == scores[p] and ties[q] > ties[p]))
        ranks.append(better + 1)
    return ranks


def _ranked(scores, ties, lower_wins, with_winners=True):
    n = len(scores)
    state = np.full(40, -7, dtype=np.int64)  # slots around the ranks must stay untouched
    rank_at, winner_at = 10, 20
    for p in range(n):
        state[rank_at + p] = ranking_key(scores[p], ties[p], lower_wins)
    rank_seats(state, n, rank_at, winner_at if with_winners else -1)
    return state, rank_at, winner_at


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 8).flatmap(lambda n: st.tuples(
    st.lists(st.integers(-300, 300), min_size=n, max_size=n),
    st.lists(st.integers(0, 3), min_size=n, max_size=n))), st.booleans())
def test_ranks_equal_the_pairwise_definition(scores_ties, lower_wins):
    scores, ties = scores_ties
    state, rank_at, winner_at = _ranked(scores, ties, lower_wins)
    n = len(scores)
    expected = _reference_ranks(scores, ties, lower_wins)
    assert list(state[rank_at:rank_at + n]) == expected
    assert list(state[winner_at:winner_at + n]) == [int(r == 1) for r in expected]
    untouched = np.ones(40, dtype=bool)
    untouched[rank_at:rank_at + n] = False
    untouched[winner_at:winner_at + n] = False
    assert (state[untouched] == -7).all()


def test_lower_wins_and_shared_ranks_without_winner_slots():
    state, rank_at, winner_at = _ranked([12, 5, 5, 30], [0, 0, 0, 0], True, with_winners=False)
    assert list(state[rank_at:rank_at + 4]) == [3, 1, 1, 4]
    assert (state[winner_at:winner_at + 4] == -7).all()


def test_the_tie_break_only_orders_equal_scores():
    # A larger tie-break never beats a better score, even the largest the key has room for.
    state, rank_at, _ = _ranked([10, 9, 10], [0, TIE_SPAN - 1, 1], False)
    assert list(state[rank_at:rank_at + 3]) == [2, 3, 1]


@pytest.mark.parametrize("name", game_names())
def test_better_score_is_the_constant_the_kernels_rank_by(name):
    spec = get_game(name)
    enums = __import__(f"tajsim.games.{name}.engine.enums", fromlist=["LOWER_SCORE_WINS"])
    assert spec.better_score == ("lower" if enums.LOWER_SCORE_WINS else "higher")


def test_a_spec_declaring_the_other_direction_is_refused():
    with pytest.raises(ValueError, match="contradicts the finish kernels' LOWER_SCORE_WINS"):
        GameSpec.from_wing("tajsim.games.nothanks", better_score="higher")
