"""Maharaja's ``learned`` strategy (issue 20): theta = e_value plays exactly like its base preset
(``hoarder``); the features kernel fills the matrix the trainer reads, its first column the
heuristic's own per-action values, and reads nothing hidden; the registry lists it with its
ranges and reads its data file; the search plays it in its rollouts."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from maharaja_helpers import COMP, collect_states

from tajsim.errors import UserError
from tajsim.games.maharaja.engine import enums as E
from tajsim.games.maharaja.engine import nb
from tajsim.games.maharaja.engine.invariants import redraw_hidden
from tajsim.games.maharaja.play.nb import play_out_nb, start_game_nb
from tajsim.games.maharaja.spec import SPEC
from tajsim.games.maharaja.strategies.ids import (
    N_LEARNED_FEATURES,
    N_PARAMS,
    STRATEGY_LEARNED,
    W_VALUES,
    WEIGHT_ONE,
    WORK_SIZE,
    kernel_switches,
)
from tajsim.games.maharaja.strategies.learned import (
    FEATURE_NAMES,
    VALUE_FLOOR,
    WEIGHT_OFFSET,
    expert_with_rollout,
    learned_features_nb,
)
from tajsim.games.maharaja.strategies.nb import choose_action_work_nb
from tajsim.games.maharaja.strategies.registry import (
    LEARNED_FILE,
    REGISTRY,
    load_learned_weights,
)
from tajsim.running.simulate import simulate

E_VALUE = "learned:" + ":".join(f"w_{n}={1 if n == 'value' else 0}" for n in FEATURE_NAMES)


@pytest.fixture(scope="module")
def states():
    """States from hoarder/balanced/random/rusher games, every decision phase represented."""
    return collect_states(["hoarder", "balanced", "random", "rusher"], n_games=5, seed=31,
                             keep_share=0.25, rng_seed=3)


def _features(state, params):
    buf = np.empty(E.N_ACTIONS, np.int64)
    k = nb.legal_actions_nb(state, COMP, buf)
    out = np.full((E.N_ACTIONS, N_LEARNED_FEATURES), np.nan)
    learned_features_nb(state, COMP, int(state[E.S_CUR]), params, buf, k, out)
    return buf[:k].copy(), out[:k]


def _without_names(df):
    return df.drop(columns=["strategy"]).reset_index(drop=True)


@pytest.mark.parametrize("players,others,temperature", [
    (2, ["balanced"], 0), (4, ["balanced", "rusher", "tollroad"], 0),
    (3, ["character", "greedy"], 1.5)])
def test_e_value_plays_like_hoarder(players, others, temperature):
    """theta = (1, 0, ..., 0): the same records as hoarder, frame for frame (every seat
    rotated), at temperature 0 and above (the same integer softmax over the same values)."""
    t = f":temperature={temperature}" if temperature else ""
    base = simulate(12, players, ["hoarder" + t] + others, seed=41, game="maharaja",
                    workers=1, progress=False, rotate=True)
    mine = simulate(12, players, [E_VALUE + t] + others, seed=41, game="maharaja",
                    workers=1, progress=False, rotate=True)
    assert mine["strategy"].str.startswith("learned").sum() == 12
    pd.testing.assert_frame_equal(_without_names(base), _without_names(mine))


def test_features_fill_the_matrix_with_the_heuristics_values(states):
    """n_legal x n_features, finite; the first column is hoarder's own per-action value (the
    values its decision loop leaves in work[W_VALUES:], in gold, floored at VALUE_FLOOR)."""
    _, params = REGISTRY.parse(E_VALUE)
    hoarder = REGISTRY.parse("hoarder")
    assert len(FEATURE_NAMES) == N_LEARNED_FEATURES == SPEC.learned.n_features
    phases = set()
    for state in states:
        legal, feats = _features(state, params)
        assert np.isfinite(feats).all()
        work = np.zeros(WORK_SIZE, np.int64)
        p = int(state[E.S_CUR])
        a = choose_action_work_nb(hoarder[0].strategy_id, state, COMP, p, hoarder[1],
                                  np.zeros(E.MAX_PLAYERS, np.int64), legal.copy(), len(legal),
                                  work)
        values = np.maximum(work[W_VALUES:W_VALUES + len(legal)], VALUE_FLOOR * WEIGHT_ONE)
        np.testing.assert_array_equal(feats[:, 0], values / WEIGHT_ONE)
        assert legal[int(np.argmax(feats[:, 0]))] == a
        pick = state[E.S_PHASE] == E.PHASE_PICK
        assert (feats[:, 1] == 0).all() == pick or (feats[:, 0] == 0).all()
        assert pick or (feats[:, 2:] == 0).all()
        phases.add(int(state[E.S_PHASE]))
    assert {E.PHASE_DRAFT, E.PHASE_SETUP_HOUSE, E.PHASE_PICK, E.PHASE_TURN} <= phases


def test_features_read_nothing_hidden(states):
    """Redrawing what the deciding seat cannot see (the others' unrevealed picks) changes no
    feature."""
    _, params = REGISTRY.parse("learned")
    rng = np.random.default_rng(8)
    redrawn = 0
    for state in states:
        p = int(state[E.S_CUR])
        _, feats = _features(state, params)
        if nb.hidden_pick_count(state, p) > 0:
            redrawn += 1
        for _ in range(2):
            _, other = _features(redraw_hidden(state, COMP, p, rng), params)
            np.testing.assert_array_equal(feats, other)
    assert redrawn > 0


def test_registry_lists_learned_with_its_ranges_and_data_file():
    spec, vec = REGISTRY.parse("learned:w_palaces_built=2.5")
    assert spec.strategy_id == STRATEGY_LEARNED and "learned" in spec.tags
    assert vec.shape == (N_PARAMS,)
    base, theta = load_learned_weights()
    np.testing.assert_array_equal(vec[:WEIGHT_OFFSET], base)
    assert vec[WEIGHT_OFFSET + FEATURE_NAMES.index("palaces_built")] == 2.5
    assert spec.param_names[WEIGHT_OFFSET:] == tuple(f"w_{n}" for n in FEATURE_NAMES)
    assert kernel_switches([STRATEGY_LEARNED]) == (None, True, True)
    assert "| `learned` | `w_value` .. `w_palaces_behind` (15) |" in REGISTRY.ranges_markdown()
    with pytest.raises(UserError, match="out of range"):
        REGISTRY.parse("learned:w_value=1e7")
    assert LEARNED_FILE.name == "learned.toml" and SPEC.learned.data_file() == LEARNED_FILE
    assert SPEC.learned.base == "hoarder" and SPEC.learned.strategy == "learned"


def test_bad_weights_file_is_one_line(tmp_path):
    bad = tmp_path / "w.toml"
    bad.write_text(LEARNED_FILE.read_text().replace('"value", ', '"valu", ', 1))
    with pytest.raises(UserError, match="features") as err:
        load_learned_weights(bad)
    assert "\n" not in str(err.value)


def test_search_with_learned_rollouts_runs():
    """The expert of expert iteration's later rounds: the search whose rollouts play the
    learned policy (rollout = 4); its games finish and its picks differ from the heuristic
    rollouts' somewhere. With a horizon: at the default (0) the rollouts make no pick, and at
    the turn's steps the learned policy plays the heuristic's argmax (its pick features are 0
    there)."""
    _, expert = REGISTRY.parse("search:iterations=8:horizon=1")
    _, learned = REGISTRY.parse("learned:w_palaces_built=40:w_gold_actions=-30")
    vec = expert_with_rollout(expert, learned)
    assert vec[5] == STRATEGY_LEARNED and vec.shape == expert.shape
    search_id = REGISTRY.get("search").strategy_id
    ids = np.array([search_id, REGISTRY.get("hoarder").strategy_id], np.int64)
    actions = []
    for params0 in (expert, vec):
        params = np.stack([params0, REGISTRY.parse("hoarder")[1]])
        state = np.zeros(E.STATE_SIZE, np.int64)
        prng = np.zeros(E.MAX_PLAYERS, np.int64)
        legal = np.empty(E.N_ACTIONS, np.int64)
        out = np.zeros(4096, np.int64)
        start_game_nb(COMP, 2, 0, 5, 0, 0, state, prng)
        k = play_out_nb(COMP, state, ids, params, prng, legal, out, *kernel_switches(ids))
        assert state[E.S_PHASE] == E.PHASE_GAME_OVER
        actions.append(out[:k].tolist())
    assert actions[0] != actions[1]
