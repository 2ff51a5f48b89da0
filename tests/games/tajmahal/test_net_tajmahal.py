"""Taj Mahal's ``net`` strategy (issue 41, section 3): the compiled forward pass equals the NumPy
reference score for score; its decisions are legal and ignore what the seat cannot see (the
conformance redraw); its observation offsets are ``tajsim.interop.encoding``'s; the CUDA
simulator makes the same decisions as the CPU; a bad weights file is one line; the
network-guided ismcts rolls out with it."""

from __future__ import annotations

import dataclasses

import net_checks
import numpy as np
import pytest

from tajsim.engine.net_switch import net_switch
from tajsim.errors import UserError
from tajsim.games.tajmahal.spec import SPEC
from tajsim.games.tajmahal.strategies.heuristic import HEURISTIC_WORK_SIZE
from tajsim.games.tajmahal.strategies.ids import STRATEGY_ISMCTS, STRATEGY_NET
from tajsim.games.tajmahal.strategies.learned import N_FEATURES, learned_features_nb
from tajsim.games.tajmahal.strategies.net import (
    D_IN,
    N_CANDIDATES,
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
from tajsim.games.tajmahal.strategies.net_weights import FORMAT, load_net_file, quantise
from tajsim.games.tajmahal.strategies.registry import (
    expert_with_net_rollout,
    load_net_spec,
    registry_with_net,
)
from tajsim.interop.encoding import layout
from tajsim.play import conformance as C

COMP = SPEC.components.default().packed()


@pytest.fixture(scope="module")
def net_spec(tmp_path_factory):
    """SPEC with a registry whose ``net`` plays a random test network."""
    path = net_checks.random_net(FORMAT, tmp_path_factory.mktemp("net") / "net.npz")
    return dataclasses.replace(SPEC, strategies=registry_with_net(path)), path


def test_observation_offsets_are_the_interop_layout():
    lay = layout("tajmahal")
    assert OBS_SIZE == lay.size
    assert OBS_OFFSETS == tuple(f.offset for f in lay.fields)


def test_compiled_scores_equal_the_numpy_reference(net_spec):
    spec, path = net_spec
    _, params = spec.strategies.parse("net")
    weights, _ = load_net_file(path)
    quantised = quantise(weights)
    net = net_switch([params], NET_FP_SLOT)
    x = np.empty(D_IN, np.int64)
    phi = np.empty((N_CANDIDATES, N_FEATURES), np.int64)
    cand = np.empty(N_CANDIDATES, np.int64)
    scratch = np.full(SCRATCH_SIZE, -7, np.int64)
    work = np.full(HEURISTIC_WORK_SIZE, np.nan)  # written before it is read
    states = C.decision_states(spec, 2, 24, seed=4) + C.decision_states(spec, 4, 12, seed=5)
    assert len(states) >= 24
    differs = 0
    for state, _prng, player, legal in states:
        n_legal = len(legal)
        n = net_features_nb(state, COMP, player, params, legal, n_legal, x, phi, cand)
        got = net_scores(state, COMP, player, params, legal, n_legal, net, scratch, work)
        assert got == n == min(N_CANDIDATES, n_legal)
        expected, value = FORMAT.reference_scores(quantised, x, phi[:n])
        assert np.array_equal(scratch[S_SCORES:S_SCORES + n], expected)
        assert np.array_equal(scratch[S_CAND:S_CAND + n], cand[:n])
        assert net_value_nb(state, COMP, player, params, net) == value / 2.0 ** 24
        # the candidates are the base heuristic's best by value, with learned's features
        all_phi = np.zeros((max(n_legal, 1), 16))
        learned_features_nb(state, COMP, player, params, legal, n_legal, all_phi)
        values = all_phi[:n_legal, 0]
        order = sorted(range(n_legal), key=lambda i: (-values[i], i))[:n]
        assert list(cand[:n]) == order
        assert np.array_equal(phi[:n], np.floor(all_phi[cand[:n], :N_FEATURES] * 1000.0))
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
    spec, _ = net_spec
    other = net_checks.random_net(FORMAT, tmp_path / "other.npz", seed=9)
    _, p1 = spec.strategies.parse("net")
    _, p2 = registry_with_net(other).parse("net")
    switches = spec.strategies.kernel_switches([STRATEGY_NET] * 3, [p1, p2, p1])
    net = switches[3]
    assert net[0] == 2 and switches[1] is True  # each set once; the heuristic family kept
    scratch = np.empty(SCRATCH_SIZE, np.int64)
    work = np.zeros(HEURISTIC_WORK_SIZE)
    state, _prng, player, legal = C.decision_states(spec, 2, 4, seed=1)[0]
    n = net_scores(state, COMP, player, p1, legal, len(legal), net, scratch, work)
    s1 = scratch[S_SCORES:S_SCORES + n].copy()
    net_scores(state, COMP, player, p2, legal, len(legal), net, scratch, work)
    assert not np.array_equal(s1, scratch[S_SCORES:S_SCORES + n])
    unknown = p1.copy()
    unknown[NET_FP_SLOT] = 12345.0
    assert net_scores(state, COMP, player, unknown, legal, len(legal), net, scratch, work) == -1
    with pytest.raises(ValueError, match="not loaded"):
        net_switch([unknown], NET_FP_SLOT)


def test_a_set_of_another_games_dimensions_is_refused(net_spec):
    # a set of other dimensions (another game's) falls back as a missing set does
    spec, _ = net_spec
    _, p1 = spec.strategies.parse("net")
    scratch = np.empty(SCRATCH_SIZE, np.int64)
    work = np.zeros(HEURISTIC_WORK_SIZE)
    state, prng, player, legal = C.decision_states(spec, 2, 4, seed=1)[0]
    for alien, net in net_checks.alien_sets(FORMAT, p1, NET_FP_SLOT):
        assert net_scores(state, COMP, player, alien, legal, len(legal), net, scratch,
                          work) == -1
        assert np.isnan(net_value_nb(state, COMP, player, alien, net))
        assert net_policy_nb(state, COMP, player, alien, prng.copy(), legal, len(legal), net,
                             work) == legal[0]


def test_bad_weights_files_are_one_line(tmp_path):
    net_checks.check_bad_files_are_one_line(FORMAT, tmp_path)


def test_cuda_simulator_decides_as_the_cpu(net_spec):
    scratch = (SCRATCH_SIZE, "int64", 0, -7)  # garbage on the GPU: written before it is read
    work = (HEURISTIC_WORK_SIZE, "float64", 0.0, float("nan"))
    net_checks.check_simulator_decides_as_the_cpu("tajmahal", net_spec[1], 6, [scratch, work])


def test_the_network_guided_search_rolls_out_with_net(net_spec):
    """ismcts with ``rollout`` = ROLLOUT_NET gets the set through ``kernel_switches`` and plays
    whole games; without the switch it refuses (one line, not a silent other rollout)."""
    net_checks.check_guided_search_rolls_out(net_spec[0], COMP, STRATEGY_ISMCTS,
                                             "ismcts:iterations=6", expert_with_net_rollout)


def test_the_environment_variable_names_the_weights_file(net_spec, monkeypatch, tmp_path):
    _, path = net_spec
    monkeypatch.setenv("TAJSIM_TAJMAHAL_NET", str(path))
    spec = load_net_spec()
    assert spec is not None and spec.params[NET_FP_SLOT] == load_net_file(path)[1]
    monkeypatch.setenv("TAJSIM_TAJMAHAL_NET", str(tmp_path / "none.npz"))
    with pytest.raises(UserError, match="^TAJSIM_TAJMAHAL_NET: cannot read net weights file"):
        load_net_spec()


def test_a_net_seat_plays_whole_games_in_the_batch_loop(net_spec):
    """The generated loop takes the ``net`` switch: a ``net`` line-up plays to the end."""
    spec, _ = net_spec
    _, params = spec.strategies.parse("net")
    _, tuned = spec.strategies.parse("tuned")
    ids = np.array([STRATEGY_NET, spec.strategies.get("tuned").strategy_id], np.int64)
    rows = np.stack([params, tuned])
    switches = spec.strategies.kernel_switches(ids, rows)
    game = spec.game_class(2, spec.default_edition, 7, 1, 1)
    n = spec.kernels.play_out(game.comp, game.state, ids, rows, game.prng,
                              np.empty(spec.n_actions, np.int64), np.zeros(0, np.int64),
                              *switches)
    assert n > 20 and spec.current_player(game.state) < 0


def test_inputs_and_candidates_ignore_hidden_information():
    """The conformance redraw (the others' hidden hands, the deck's order) changes neither the
    inputs nor the candidates and their features: a leak fails here even where the random
    network's decision would not change."""
    _, params = SPEC.strategies.parse("tuned")
    points = C.decision_states(SPEC, 2, 16, seed=4) + C.decision_states(SPEC, 4, 12, seed=5)
    net_checks.check_features_ignore_redraw(SPEC, COMP, net_features_nb, params, points, D_IN,
                                            N_CANDIDATES, N_FEATURES)


def test_the_cost_is_the_measured_multiple_of_tuned(net_spec):
    """``net``'s StrategySpec cost is what ``tajsim bench`` measured (docs/net.md, "Cost": 7.3 x
    ``tuned``'s CPU a game), not a guess (the 14 first registered was 2 x)."""
    spec, _ = net_spec
    ratio = spec.strategies.get("net").relative_cost() / spec.strategies.get(
        "tuned").relative_cost()
    assert ratio == pytest.approx(7.3, rel=0.05)
