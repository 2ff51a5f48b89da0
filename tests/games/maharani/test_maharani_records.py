"""The spec, the results-frame helpers, the setup features and the pictures."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from maharani_helpers import MCOMP, MCOMPONENTS

from tajsim.engine.spec import RESULT_LEAD, SETUP_LEAD
from tajsim.errors import UserError
from tajsim.games.maharani.engine import enums as E
from tajsim.games.maharani.play.nb import play_batch_nb
from tajsim.games.maharani.play.records import (
    frame_columns,
    setup_feature_columns,
    setup_features,
)
from tajsim.games.maharani.report import board_plot
from tajsim.games.maharani.spec import SPEC
from tajsim.games.maharani.strategies.ids import N_PARAMS


@pytest.fixture(scope="module")
def batch():
    n, G = 3, 60
    ids = np.arange(G, dtype=np.int64)
    res = np.zeros(G * n, E.RESULT_DTYPE)
    setups = np.zeros(G, E.SETUP_DTYPE)
    play_batch_nb(MCOMP, n, 0, 8, ids, ids, np.zeros((G, n), np.int64), np.zeros(1, np.int64),
                  np.zeros((1, N_PARAMS)), res, setups, None, None)
    return n, res, setups


def test_spec_is_complete():
    SPEC.check_layout()
    assert SPEC.name == "maharani" and SPEC.max_players == 4
    assert SPEC.result_dtype.names[:6] == RESULT_LEAD
    assert SPEC.setup_dtype.names[:2] == SETUP_LEAD
    assert SPEC.part_columns == ("pts_zones", "pts_groups", "pts_quarters", "pts_second")
    assert SPEC.check_players(3) == 3
    with pytest.raises(UserError, match="expected 2 to 4"):
        SPEC.check_players(5)
    assert SPEC.rules_code() == 0
    assert SPEC.rules_code(None, {"target_marker": True}) == E.OPT_TARGET_MARKER
    assert SPEC.rules_code(None, {"free_refresh": True}) == E.OPT_FREE_REFRESH
    assert all(p.exists() for p in SPEC.source_folders)
    assert SPEC.golden_dir.exists()
    assert SPEC.components.default().digest() == MCOMPONENTS.digest()
    assert SPEC.components.validate(MCOMPONENTS.board_path, MCOMPONENTS.components_path) == []
    state = np.zeros(E.STATE_SIZE, np.int64)
    SPEC.kernels.start_game(MCOMP, 2, 0, 1, 0, 0, state, np.zeros(4, np.int64))
    assert SPEC.current_player(state) == 0 and SPEC.phase_of(state) == E.PHASE_FIRST
    SPEC.check_state(state, MCOMP, "spec")
    view = SPEC.view(state, MCOMP, 1, MCOMPONENTS)
    assert view.player == 1 and len(view.bag) == 56


def test_frame_columns(batch):
    n, res, setups = batch
    cols = frame_columns(MCOMPONENTS.frame_meta(), res, setups)
    rows = res.shape[0]
    assert all(len(v) == rows for v in cols.values())
    assert isinstance(cols["end_reason"], pd.Categorical)
    assert set(cols["end_reason"].astype(str)) == {"complete"}
    kinds = np.array([MCOMPONENTS.tile_kind(t) for t in range(60)])
    central = (kinds[setups["opening"].astype(int)] == 0).sum(axis=1)
    assert np.array_equal(cols["opening_central"], central.repeat(n))
    completed = sum(cols[f"completed_q{q}"].astype(int) for q in range(1, 5))
    assert np.array_equal(completed, res["quarters_completed"])
    assert np.array_equal(cols["bag_seed"], setups["bag_seed"].repeat(n))


def test_setup_features(batch):
    n, res, setups = batch
    feats = setup_features(MCOMPONENTS.frame_meta(), setups)
    assert [f.name for f in feats] == ["opening_central", "opening_pair"]
    assert [f.codes for f in setup_features(MCOMPONENTS.frame_meta(), None)] == [None, None]
    for f in feats:
        assert f.codes.shape == (setups.shape[0],)
        assert f.codes.min() >= 0 and f.codes.max() < len(f.labels)
    assert setup_feature_columns(["score", "opening_pair", "x"]) == ["opening_pair"]


def test_pictures(batch, tmp_path):
    from tajsim.play.mixed import play_game

    _, _, setups = batch
    game = play_game(["balanced", "random"], seed=2, game="maharani")
    fig = board_plot.draw_palace(MCOMPONENTS, game.state, title="final")
    assert fig.axes[0].patches or fig.axes[0].collections  # the tiles are drawn
    fig.savefig(tmp_path / "final.png")
    assert (tmp_path / "final.png").stat().st_size > 1000
    fig = board_plot.gold_heatmap(MCOMPONENTS, setups)
    fig.savefig(tmp_path / "heat.png")
    means = board_plot.space_gold_means(MCOMPONENTS, setups)
    assert means.shape == (56,) and np.all(means >= 1)
    assert (tmp_path / "heat.png").stat().st_size > 1000
    with pytest.raises(ValueError, match="expected \\(56,\\)"):
        board_plot.draw_space_values(MCOMPONENTS, np.zeros(3))


def test_the_frame_keeps_the_games_own_columns_over_the_raw_codes():
    from tajsim.running.simulate import simulate

    frame = simulate(game="maharani", games=3, players=2, workers=1, progress=False)
    assert isinstance(frame["end_reason"].dtype, pd.CategoricalDtype)
    assert set(frame["end_reason"].astype(str)) <= {"complete", "stuck", "stalled"}
