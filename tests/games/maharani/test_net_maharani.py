"""Maharani's ``net`` strategy (issue 41, section 3): the compiled forward pass equals the NumPy
reference score for score; its decisions are legal and ignore what the seat cannot see (the
conformance redraw); its observation offsets are ``tajsim.interop.encoding``'s; the CUDA
simulator makes the same decisions as the CPU; a bad weights file is one line."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import net_checks
import numpy as np
import pytest
from maharani_helpers import MCOMP

from tajsim.engine.net_switch import net_switch
from tajsim.errors import UserError
from tajsim.games.maharani.spec import SPEC
from tajsim.games.maharani.strategies.learned import N_CANDIDATES, N_FEATURES
from tajsim.games.maharani.strategies.net import (
    D_IN,
    NET_FP_SLOT,
    OBS_OFFSETS,
    OBS_SIZE,
    S_CAND,
    S_SCORES,
    SCRATCH_SIZE,
    net_features_nb,
    net_policy_nb,
    net_scores,
    net_value_nb,
)
from tajsim.games.maharani.strategies.net_weights import (
    FORMAT,
    initial,
    load_net_file,
    quantise,
    reference_scores,
    save_net_file,
)
from tajsim.games.maharani.strategies.registry import build_registry
from tajsim.interop.encoding import layout
from tajsim.play import conformance as C


def random_net(path: Path, seed: int = 3, hidden: int = 16) -> Path:
    """A weights file whose policy departs from ``balanced``'s order (theta0 and U not 0)."""
    return net_checks.random_net(FORMAT, path, seed, hidden)


@pytest.fixture(scope="module")
def net_spec(tmp_path_factory):
    """SPEC with a registry whose ``net`` plays a random test network."""
    path = random_net(tmp_path_factory.mktemp("net") / "net.npz")
    return dataclasses.replace(SPEC, strategies=build_registry(net_path=path)), path


def test_observation_offsets_are_the_interop_layout():
    lay = layout("maharani")
    assert OBS_SIZE == lay.size
    assert OBS_OFFSETS == tuple(f.offset for f in lay.fields)


def test_compiled_scores_equal_the_numpy_reference(net_spec):
    spec, path = net_spec
    _, params = spec.strategies.parse("net")
    weights, _ = load_net_file(path)
    quantised = quantise(weights)
    net = net_switch([params])
    x = np.empty(D_IN, np.int64)
    phi = np.empty((N_CANDIDATES, N_FEATURES), np.int64)
    cand = np.empty(N_CANDIDATES, np.int64)
    scratch = np.empty(SCRATCH_SIZE, np.int64)
    states = C.decision_states(spec, 2, 24, seed=4) + C.decision_states(spec, 4, 12, seed=5)
    assert len(states) >= 24
    differs = 0
    for state, _prng, player, legal in states:
        n = net_features_nb(state, MCOMP, player, params, legal, len(legal), x, phi, cand)
        got = net_scores(state, MCOMP, player, params, legal, len(legal), net, scratch)
        assert got == n >= 1
        expected, value = reference_scores(quantised, x, phi[:n])
        assert np.array_equal(scratch[S_SCORES:S_SCORES + n], expected)
        assert np.array_equal(scratch[S_CAND:S_CAND + n], cand[:n])
        assert net_value_nb(state, MCOMP, player, params, net) == value / 2.0 ** 24
        differs += int(np.argmax(expected)) != 0  # not always the best by value
        net_checks.check_float_network_agrees(FORMAT, weights, quantised, x, phi[:n])
        assert x.min() >= -200 and x.max() <= 200  # the inputs MAX_ABS_WEIGHT is sized for
    assert differs > 0


def test_net_plays_legal_moves_and_ignores_hidden_information(net_spec):
    spec, _ = net_spec
    C.check_strategy_legality(spec, "net", n_games=2, n_players=2)
    assert C.check_hidden_information(spec, "net", n_players=2, n_states=10) > 0
    assert C.check_hidden_information(spec, "net:temperature=2", n_players=3, n_states=6) > 0


def test_a_line_up_with_two_weights_sets_plays_each_its_own(net_spec, tmp_path):
    spec, path = net_spec
    other = random_net(tmp_path / "other.npz", seed=9)
    reg2 = build_registry(net_path=other)
    _, p1 = spec.strategies.parse("net")
    _, p2 = reg2.parse("net")
    net = net_switch([p1, p2, p1])
    assert net[0] == 2  # each set once
    scratch = np.empty(SCRATCH_SIZE, np.int64)
    state, _prng, player, legal = C.decision_states(spec, 2, 4, seed=1)[0]
    net_scores(state, MCOMP, player, p1, legal, len(legal), net, scratch)
    s1 = scratch[S_SCORES:S_SCORES + 3].copy()
    net_scores(state, MCOMP, player, p2, legal, len(legal), net, scratch)
    assert not np.array_equal(s1, scratch[S_SCORES:S_SCORES + 3])
    unknown = p1.copy()
    unknown[16] = 12345.0
    assert net_scores(state, MCOMP, player, unknown, legal, len(legal), net, scratch) == -1
    with pytest.raises(ValueError, match="not loaded"):
        net_switch([unknown])


def test_a_set_of_another_games_dimensions_is_refused(net_spec):
    # a set of other dimensions (another game's) falls back as a missing set does
    spec, _ = net_spec
    _, p1 = spec.strategies.parse("net")
    scratch = np.empty(SCRATCH_SIZE, np.int64)
    state, prng, player, legal = C.decision_states(spec, 2, 4, seed=1)[0]
    for alien, net in net_checks.alien_sets(FORMAT, p1, NET_FP_SLOT):
        assert net_scores(state, MCOMP, player, alien, legal, len(legal), net, scratch) == -1
        assert np.isnan(net_value_nb(state, MCOMP, player, alien, net))
        assert net_policy_nb(state, MCOMP, player, alien, prng.copy(), legal, len(legal),
                             net) == legal[0]


def test_bad_weights_files_are_one_line(tmp_path):
    net_checks.check_bad_files_are_one_line(FORMAT, tmp_path)
    with pytest.raises(UserError, match=r"expected \(522, 8\) \(maharani's D_IN=522"):
        w = initial(8, np.random.default_rng(0))
        w.W1 = w.W1[:-1]
        save_net_file(tmp_path / "short.npz", w)
        load_net_file(tmp_path / "short.npz")


def test_cuda_simulator_decides_as_the_cpu(net_spec):
    scratch = (SCRATCH_SIZE, "int64", 0, -7)  # garbage on the GPU: written before it is read
    net_checks.check_simulator_decides_as_the_cpu("maharani", net_spec[1], 8, [scratch])


def test_the_network_guided_search_rolls_out_with_net(net_spec):
    """mcts with ``rollout`` = ROLLOUT_NET gets the set through ``kernel_switches`` and plays
    whole games; without the switch it refuses (one line, not a silent other rollout)."""
    from tajsim.games.maharani.strategies.ids import STRATEGY_MCTS
    from tajsim.games.maharani.strategies.registry import expert_with_net_rollout

    net_checks.check_guided_search_rolls_out(net_spec[0], MCOMP, STRATEGY_MCTS, "mcts:iterations=6",
                                             expert_with_net_rollout)


def test_the_environment_variable_names_the_weights_file(net_spec, monkeypatch, tmp_path):
    _, path = net_spec
    monkeypatch.setenv("TAJSIM_MAHARANI_NET", str(path))
    reg = build_registry()
    assert reg.get("net").params[16] == load_net_file(path)[1]
    monkeypatch.setenv("TAJSIM_MAHARANI_NET", str(tmp_path / "none.npz"))
    with pytest.raises(UserError, match="^TAJSIM_MAHARANI_NET: cannot read net weights file"):
        build_registry()


def test_inputs_and_candidates_ignore_hidden_information():
    """The conformance redraw changes neither the inputs nor the candidates and their features
    (a leak fails here even where the random network's decision would not change)."""
    _, params = SPEC.strategies.parse("balanced")
    points = C.decision_states(SPEC, 2, 16, seed=4, comp=MCOMP) \
        + C.decision_states(SPEC, 4, 12, seed=5, comp=MCOMP)
    net_checks.check_features_ignore_redraw(SPEC, MCOMP, net_features_nb, params, points, D_IN,
                                            N_CANDIDATES, N_FEATURES)


def test_the_cost_is_the_measured_multiple_of_balanced(net_spec):
    """``net``'s StrategySpec cost is what ``tajsim bench`` measured (docs/net.md: 4.9 x
    ``balanced``'s CPU a game), not a guess (the 12 first registered was 1.7 x)."""
    spec, _ = net_spec
    ratio = spec.strategies.get("net").relative_cost() / spec.strategies.get(
        "balanced").relative_cost()
    assert ratio == pytest.approx(4.9, rel=0.05)
