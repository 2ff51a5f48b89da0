"""Taj Mahal's ``learned`` strategy (issue 20, part 4): a linear policy over per-action features
whose first feature is ``tuned``'s own value of the action.

* theta = e_value plays exactly like ``tuned`` (fixed-seed frames equal);
* the features kernel fills ``n_legal x n_features``, finite, its first column ``tuned``'s
  per-action values, and reads nothing a seat cannot see (``redraw_hidden``);
* the policy's one-row-at-a-time choice is the shared ``linear_choice`` over the whole matrix,
  at temperature 0 and above;
* the registry lists it with its ranges; ismcts plays learned rollouts (``rollout=3``, the
  spec's ``expert_with_rollout``).

The GPU's equality with the CPU is in ``tests/test_gpu.py``.
"""

from __future__ import annotations

import numpy as np
import pytest
from pandas.testing import assert_frame_equal

import tajsim
from tajsim.engine.learned import linear_choice
from tajsim.games.tajmahal.engine import enums as E
from tajsim.games.tajmahal.engine import nb
from tajsim.games.tajmahal.engine.invariants import redraw_hidden
from tajsim.games.tajmahal.play.nb import start_game_nb
from tajsim.games.tajmahal.spec import SPEC
from tajsim.games.tajmahal.strategies.heuristic import (
    HEURISTIC_WORK_SIZE,
    WORK_VALUES,
    weighted_policy_nb,
)
from tajsim.games.tajmahal.strategies.ids import LEARNED_OFFSET, N_PARAMS, VALUE_ONE
from tajsim.games.tajmahal.strategies.learned import (
    FEATURE_NAMES,
    N_FEATURES,
    learned_features_nb,
    learned_policy_nb,
)
from tajsim.games.tajmahal.strategies.nb import choose_action_nb
from tajsim.games.tajmahal.strategies.registry import REGISTRY, WEIGHT_NAMES, load_learned

#: theta = e_value on tuned's weights, whatever the shipped file holds.
TUNED = REGISTRY.get("tuned")
AS_TUNED = "learned:" + ":".join(
    [f"{n}={v!r}" for n, v in zip(WEIGHT_NAMES, TUNED.params)]
    + [f"w_{f}={1.0 if i == 0 else 0.0}" for i, f in enumerate(FEATURE_NAMES)])
#: A theta far from e_value: every feature counts.
SOME_THETA = np.array([1.0, 0.7, -1.5, 0.4, -0.3, 0.6, -0.8, 0.9, 0.5, -0.4, 0.3, -0.2, 1.1,
                       0.25, -0.35])


def _decisions(comp, n_players, seed, n_states):
    """Decision points (state, prng, player, legal) of ``tuned`` games with some random moves."""
    rng = np.random.default_rng(seed)
    legal = np.empty(E.N_ACTIONS, np.int64)
    _, params = REGISTRY.parse("tuned")
    out = []
    game = 0
    while len(out) < n_states:
        state = np.zeros(E.STATE_SIZE, np.int64)
        prng = np.zeros(E.MAX_PLAYERS, np.int64)
        start_game_nb(comp, n_players, E.EDITION_2018, seed, game, game, state, prng)
        while state[E.S_PHASE] != E.PHASE_GAME_OVER and len(out) < n_states:
            n = nb.legal_actions_nb(state, comp, legal)
            p = int(state[E.S_CUR])
            if n > 1 and rng.random() < 0.15:
                out.append((state.copy(), prng.copy(), p, legal[:n].copy()))
            sid = 2 if rng.random() < 0.8 else 0
            action = legal[0] if n == 1 else choose_action_nb(sid, state, comp, p, params, prng,
                                                              legal, n)
            nb.apply_action_nb(state, comp, action)
        game += 1
    return out


@pytest.fixture(scope="module")
def decisions(comp):
    return _decisions(comp, 3, 5, 60) + _decisions(comp, 2, 6, 40)


def _learned_vec(theta):
    _, vec = REGISTRY.parse(AS_TUNED)
    vec[LEARNED_OFFSET:LEARNED_OFFSET + N_FEATURES] = theta
    return vec


def test_theta_e_value_plays_exactly_like_tuned():
    """Fixed-seed frames of learned (theta = e_value) and tuned are equal, seat for seat."""
    kw = dict(game="tajmahal", games=24, players=3, seed=41, workers=1, progress=False)
    a = tajsim.simulate(strategies=["tuned", "balanced", "random"], **kw)
    b = tajsim.simulate(strategies=[AS_TUNED, "balanced", "random"], **kw)
    cols = [c for c in a.columns if c not in ("strategy", "strategy_id")]
    assert_frame_equal(a[cols], b[cols])
    two = dict(kw, players=2, games=16)
    a = tajsim.simulate(strategies=["tuned", "commodity"], **two)
    b = tajsim.simulate(strategies=[AS_TUNED, "commodity"], **two)
    assert_frame_equal(a[cols], b[cols])


def test_features_fill_the_matrix_with_tuned_values_first(comp, decisions):
    vec = _learned_vec(SOME_THETA)
    work = np.empty(HEURISTIC_WORK_SIZE)
    phases = set()
    for state, _, player, legal in decisions:
        n = len(legal)
        out = np.full((n + 2, N_FEATURES + 1), np.nan)
        learned_features_nb(state, comp, player, vec, legal, n, out)
        assert np.all(np.isfinite(out[:n, :N_FEATURES]))
        assert np.all(np.isnan(out[n:])) and np.all(np.isnan(out[:, N_FEATURES]))
        weighted_policy_nb(state, comp, player, vec, legal, n, work)
        np.testing.assert_array_equal(out[:n, 0], work[WORK_VALUES:WORK_VALUES + n])
        phases.add(int(state[E.S_PHASE]))
        if state[E.S_PHASE] == E.PHASE_BID and n > 2:
            assert np.any(out[:n, 1:10] != 0)
    assert {E.PHASE_BID, E.PHASE_PALACE, E.PHASE_DISPLAY} <= phases


def test_features_ignore_hidden_cards(comp, decisions):
    """Every feature reads only public facts and the seat's own hand: redealing the cards the
    seat cannot see (``redraw_hidden``) changes none."""
    vec = _learned_vec(SOME_THETA)
    rng = np.random.default_rng(9)
    for state, _, player, legal in decisions:
        n = len(legal)
        a = np.empty((n, N_FEATURES))
        b = np.empty((n, N_FEATURES))
        learned_features_nb(state, comp, player, vec, legal, n, a)
        for _ in range(2):
            learned_features_nb(redraw_hidden(state, comp, player, rng), comp, player, vec,
                                legal, n, b)
            np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("temperature", [0.0, 0.7])
def test_policy_is_linear_choice_over_the_features(comp, decisions, temperature):
    """The policy (features one row at a time, scores in the heuristic's scratch) takes the
    action of the shared ``linear_choice`` over the whole matrix, and draws the same stream."""
    vec = _learned_vec(SOME_THETA)
    vec[-2] = temperature
    scores = np.empty(E.N_ACTIONS)
    for state, prng, player, legal in decisions:
        n = len(legal)
        feats = np.empty((n, N_FEATURES))
        learned_features_nb(state, comp, player, vec, legal, n, feats)
        p1, p2 = prng.copy(), prng.copy()
        i = linear_choice(feats, n, N_FEATURES, vec, LEARNED_OFFSET, p1, player, scores,
                          VALUE_ONE)
        assert learned_policy_nb(state, comp, player, vec, p2, legal, n) == legal[i]
        np.testing.assert_array_equal(p1, p2)
        assert choose_action_nb(4, state, comp, player, vec, prng.copy(), legal, n) == legal[i]


def test_registry_lists_learned_with_its_ranges():
    spec = REGISTRY.get("learned")
    assert spec.tags == ("learned",) and spec.is_deterministic()
    assert spec.param_names == WEIGHT_NAMES + tuple(f"w_{f}" for f in FEATURE_NAMES)
    assert len(spec.param_ranges) == len(spec.param_names)
    learned = load_learned()
    _, vec = REGISTRY.parse("learned")
    assert vec.shape == (N_PARAMS,)
    np.testing.assert_array_equal(vec[LEARNED_OFFSET:LEARNED_OFFSET + N_FEATURES], learned.theta)
    np.testing.assert_array_equal(vec[:LEARNED_OFFSET], learned.base_params[:LEARNED_OFFSET])
    assert "w_value" in REGISTRY.ranges_markdown()
    assert SPEC.learned is not None and SPEC.learned.feature_names == FEATURE_NAMES
    assert SPEC.learned.base == learned.base == "tuned"


def test_ismcts_plays_learned_rollouts():
    """``expert_with_rollout`` gives ismcts rollout 3 with the learned vector's weights, and
    that search plays."""
    policy = SPEC.learned
    _, expert = REGISTRY.parse(policy.expert)
    vec = _learned_vec(SOME_THETA)
    mixed = policy.expert_with_rollout(expert, vec)
    spec = REGISTRY.get("ismcts")
    names = spec.param_names
    assert mixed[names.index("rollout")] == 3
    assert mixed[names.index("r_palace")] == vec[0]
    for i, f in enumerate(FEATURE_NAMES):
        assert mixed[names.index(f"r_w_{f}")] == SOME_THETA[i]
    text = "ismcts:iterations=12:rollout=3:" + ":".join(
        f"r_w_{f}={float(t)!r}" for f, t in zip(FEATURE_NAMES, SOME_THETA))
    df = tajsim.simulate(game="tajmahal", games=2, players=2, strategies=[text, "tuned"],
                         seed=2, workers=1, progress=False)
    assert len(df) == 4 and df["score"].notna().all()
    # the heuristic rollout (2) plays other games: the learned weights are used
    plain = tajsim.simulate(game="tajmahal", games=2, players=2,
                            strategies=["ismcts:iterations=12:rollout=2", "tuned"], seed=2,
                            workers=1, progress=False)
    parts = [c for c in df.columns if c == "score" or c.startswith("pts_")]
    assert not np.array_equal(df[parts].to_numpy(), plain[parts].to_numpy())
