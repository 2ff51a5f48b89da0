"""Maharani's ``learned`` strategy (issue 20, part 4): theta = (1, 0, ..., 0) is ``balanced``
record for record; the features kernel fills the matrix the trainer reads, its first column the
heuristic's own values; the features see only public facts; the registry lists it with its
ranges; and mcts rolls out with it (the GPU's equality: tests/test_gpu.py)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from maharani_helpers import MCOMP, collect_decisions

import tajsim
from tajsim.games.maharani.engine import enums as E
from tajsim.games.maharani.engine.invariants import redraw_hidden
from tajsim.games.maharani.spec import SPEC
from tajsim.games.maharani.strategies.heuristic import EMPTY_MEMO, memo_value, weights_of
from tajsim.games.maharani.strategies.ids import LEARNED_OFFSET, N_PARAMS, STRATEGY_LEARNED
from tajsim.games.maharani.strategies.learned import (
    FEATURE_NAMES,
    N_CANDIDATES,
    N_FEATURES,
    learned_features_nb,
)
from tajsim.games.maharani.strategies.mcts import I_ROLLOUT, ROLLOUT_LEARNED
from tajsim.games.maharani.strategies.registry import (
    REGISTRY,
    THETA_NAMES,
    expert_with_learned_rollout,
)

RESULT_COLUMNS = [c for c in E.RESULT_DTYPE.names if c not in ("strategy_id",)]


def play(strategies: str, games: int = 20, players: int = 3, seed: int = 11) -> pd.DataFrame:
    return tajsim.simulate(games, players=players, strategies=strategies, seed=seed,
                           game="maharani", workers=1, progress=False)


def unit_theta(extra: str = "") -> str:
    """``learned`` with theta = e_value (the shipped file may hold trained weights)."""
    return "learned:" + ":".join(f"{name}={1.0 if name == 'w_value' else 0.0}"
                                 for name in THETA_NAMES) + extra


def comparable(frame: pd.DataFrame) -> pd.DataFrame:
    cols = [c for c in frame.columns if c not in ("strategy", "strategy_id", "strategies")]
    return frame[cols].reset_index(drop=True)


@pytest.mark.parametrize("players,extra", [(2, ""), (3, ":forbid=markers"), (4, "")])
def test_unit_theta_plays_exactly_like_balanced(players, extra):
    """theta = (1, 0, ..., 0) takes balanced's decisions, ties drawn from the same stream
    (restricted too): the fixed-seed frames are equal."""
    base = play(",".join(["balanced" + extra] + ["greedy", "zones", "thrifty"][:players - 1]),
                players=players)
    learned = play(",".join([unit_theta(extra)] + ["greedy", "zones", "thrifty"][:players - 1]),
                   players=players)
    pd.testing.assert_frame_equal(comparable(base), comparable(learned))


@pytest.fixture(scope="module")
def states():
    """25 decisions a player count, from balanced games."""
    return {n: collect_decisions(n, 5 + n, 25, keep_share=0.08, balanced_share=1.0)
            for n in (2, 3, 4)}


def features_of(state, player, legal, params):
    out = np.full((len(legal) + 3, N_FEATURES + 2), np.nan)
    learned_features_nb(state, MCOMP, player, params, legal, len(legal), out)
    return out


@pytest.mark.parametrize("n_players", [2, 3, 4])
def test_features_fill_the_matrix_and_start_with_balanced_values(states, n_players):
    _, params = REGISTRY.parse("learned")
    wt = weights_of(params, False)
    assert SPEC.learned is not None and SPEC.learned.feature_names == FEATURE_NAMES
    for state, _prng, p, legal in states[n_players]:
        out = features_of(state, p, legal, params)
        k = len(legal)
        assert np.all(np.isfinite(out[:k, :N_FEATURES]))
        assert np.all(np.isnan(out[k:])) and np.all(np.isnan(out[:, N_FEATURES:]))
        side = int(MCOMP[E.C_SEAT_SIDE + n_players * E.MAX_PLAYERS + p])
        memo = EMPTY_MEMO
        values = []
        for i, action in enumerate(legal):
            v, memo = memo_value(state, MCOMP, p, action, wt, side, memo)
            values.append(v)
            assert out[i, 0] == v / 1000.0
        # the candidates: mcts's, the 6 best values (the earlier action first among equals)
        top = sorted(range(k), key=lambda i: (-values[i], i))[:N_CANDIDATES]
        assert np.flatnonzero(out[:k, 1]).tolist() == sorted(top)


@pytest.mark.parametrize("n_players", [2, 3, 4])
def test_features_see_only_public_facts(states, n_players):
    """Redrawing the hidden bag order, chance stream and seeds changes no feature."""
    _, params = REGISTRY.parse("learned")
    rng = np.random.default_rng(n_players)
    for state, _prng, p, legal in states[n_players]:
        before = features_of(state, p, legal, params)
        other = redraw_hidden(state, MCOMP, p, rng)
        np.testing.assert_array_equal(before, features_of(other, p, legal, params))


def test_registry_lists_learned_with_its_ranges():
    spec = REGISTRY.get("learned")
    assert spec.strategy_id == STRATEGY_LEARNED and spec.tags == ("learned",)
    assert spec.param_names[LEARNED_OFFSET:] == THETA_NAMES
    assert spec.param_names[:11] == REGISTRY.get("balanced").param_names
    _, vec = REGISTRY.parse("learned:w_zone=0.25:zone=2")
    zone = LEARNED_OFFSET + THETA_NAMES.index("w_zone")
    assert vec.shape == (N_PARAMS,) and vec[zone] == 0.25 and vec[0] == 2
    assert SPEC.learned.weight_offset == LEARNED_OFFSET and SPEC.learned.base == "balanced"
    assert SPEC.learned.data_file().is_file()
    markdown = REGISTRY.ranges_markdown()
    assert "`learned`" in markdown and "w_value" in markdown
    with pytest.raises(tajsim.errors.UserError, match="w_zone"):
        REGISTRY.parse("learned:w_zone=2e6")


def test_mcts_rolls_out_with_the_learned_policy():
    _, expert = REGISTRY.parse("mcts:iterations=20")
    _, learned = REGISTRY.parse("learned:w_zone=0.5")
    vec = expert_with_learned_rollout(expert, learned)
    assert vec[I_ROLLOUT] == ROLLOUT_LEARNED and vec[16:32].tolist() == learned[:16].tolist()
    assert vec[32:32 + N_FEATURES].tolist() == learned[16:16 + N_FEATURES].tolist()
    assert vec[:I_ROLLOUT].tolist() == expert[:I_ROLLOUT].tolist()
    frame = play("mcts:iterations=20:rollout=3:r_w_zone=0.5,balanced", games=2, players=2)
    assert len(frame) == 4
    # with theta = e_value the learned rollout is the heuristic rollout: the same records
    unit = "mcts:iterations=20:rollout=3:" + ":".join(
        f"r_{name}={1.0 if name == 'w_value' else 0.0}" for name in THETA_NAMES)
    a = play(f"{unit},balanced", games=2, players=2)
    b = play("mcts:iterations=20,balanced", games=2, players=2)
    pd.testing.assert_frame_equal(comparable(a), comparable(b))
    # and another theta rolls out otherwise: other games
    assert not comparable(frame).equals(comparable(b))
