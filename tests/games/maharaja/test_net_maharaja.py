"""Maharaja's ``net`` strategy (issue 41, section 3): its observation offsets are
``tajsim.interop.encoding``'s; its inputs and candidates ignore what the seat cannot see (the
conformance redraw); the candidates are hoarder's best with ``learned``'s features; the compiled
forward pass equals the NumPy reference score for score; its decisions are legal; the CUDA
simulator makes the same decisions as the CPU; the network-guided turnsearch rolls out with it;
a bad weights file is one line."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import net_checks
import numpy as np
import pytest
from maharaja_helpers import COMP

from tajsim.engine.net_switch import net_switch
from tajsim.errors import UserError
from tajsim.games.maharaja.engine import enums as E
from tajsim.games.maharaja.spec import SPEC, net_anchor
from tajsim.games.maharaja.strategies.ids import (
    N_LEARNED_FEATURES,
    NET_FP_SLOT,
    STRATEGY_NET,
    STRATEGY_TURNSEARCH,
    WORK_SIZE,
)
from tajsim.games.maharaja.strategies.learned import learned_features_nb
from tajsim.games.maharaja.strategies.net import (
    D_IN,
    F_KIND,
    F_RANK,
    N_CANDIDATES,
    N_FEATURES,
    NB_CAND,
    NB_SCORES,
    OBS_OFFSETS,
    OBS_SIZE,
    VALUE_GAP_CAP,
    X_OWN_PICK,
    X_REVEALED,
    net_features_nb,
    net_scores,
    net_value_nb,
)
from tajsim.games.maharaja.strategies.net_weights import FORMAT
from tajsim.games.maharaja.strategies.registry import (
    LEARNED_BASE,
    build_registry,
    expert_with_net_rollout,
)
from tajsim.interop.encoding import layout
from tajsim.play import conformance as C


def random_net(path: Path, seed: int = 3, hidden: int = 16) -> Path:
    """A weights file whose policy departs from hoarder's order (theta0 and U not 0)."""
    return net_checks.random_net(FORMAT, path, seed, hidden)


@pytest.fixture(scope="module")
def net_spec(tmp_path_factory):
    """SPEC with a registry whose ``net`` plays a random test network."""
    path = random_net(tmp_path_factory.mktemp("net") / "net.npz")
    return dataclasses.replace(SPEC, strategies=build_registry(net_path=path)), path


@pytest.fixture(scope="module")
def points():
    """Decision points of every phase with a choice, 2 and 4 players."""
    return C.decision_states(SPEC, 2, 28, seed=4) + C.decision_states(SPEC, 4, 14, seed=5)


def features(state, player, params, legal):
    x = np.empty(D_IN, np.int64)
    phi = np.zeros((N_CANDIDATES, N_FEATURES), np.int64)
    cand = np.empty(N_CANDIDATES, np.int64)
    n = net_features_nb(state, COMP, player, params, legal, len(legal), x, phi, cand)
    return x, phi[:n], cand[:n]


def test_observation_offsets_are_the_interop_layout():
    lay = layout("maharaja")
    assert OBS_SIZE == lay.size
    assert OBS_OFFSETS == tuple(f.offset for f in lay.fields)


def test_candidates_are_hoarders_best_with_learneds_features(points):
    """Candidate 0 is hoarder's own choice, the values fall, the value is the distance below
    candidate 0's (capped), the next 13 features are ``learned``'s (in thousandths, floored), a
    step's kind is one-hot and a pick has none."""
    hoarder, params = SPEC.strategies.parse(LEARNED_BASE)
    switches = SPEC.strategies.kernel_switches([hoarder.strategy_id], [params])
    phases = set()
    for state, prng, player, legal in points:
        x, phi, cand = features(state, player, params, legal)
        n = len(cand)
        assert n == min(N_CANDIDATES, len(legal)) and len(set(cand.tolist())) == n
        action = SPEC.kernels.choose_action(hoarder.strategy_id, state, COMP, player, params,
                                            prng.copy(), legal, len(legal), *switches)
        assert legal[cand[0]] == action
        assert phi[0, 0] == 0 and np.all(np.diff(phi[:, 0]) <= 0)
        assert np.array_equal(phi[:, F_RANK], 1000 * np.arange(n))
        learned = np.zeros((len(legal), N_LEARNED_FEATURES))
        learned_features_nb(state, COMP, player, params, legal, len(legal), learned)
        gap = np.minimum(1000 * (learned[cand[0], 0] - learned[cand, 0]), 1000 * VALUE_GAP_CAP)
        assert np.all(np.abs(phi[:, 0] + gap) <= 1.0)
        pick = state[E.S_PHASE] == E.PHASE_PICK
        assert np.array_equal(phi[:, 1], np.zeros(n) if pick else phi[:, 0])
        assert np.all(np.abs(phi[:, 2:N_LEARNED_FEATURES] - 1000 * learned[cand, 2:]) <= 1.0)
        assert np.array_equal(phi[:, F_KIND:F_KIND + 9].sum(axis=1),
                              np.full(n, 0 if pick else 1000))
        phases.add(int(state[E.S_PHASE]))
    assert {E.PHASE_DRAFT, E.PHASE_SETUP_HOUSE, E.PHASE_PICK, E.PHASE_TURN} <= phases


def test_inputs_and_candidates_ignore_hidden_information(points):
    """The conformance redraw (the others' unrevealed picks) changes neither the inputs nor the
    candidates and their features; the own pick is an input, the others' hidden ones are not."""
    _, params = SPEC.strategies.parse(LEARNED_BASE)
    rng = np.random.default_rng(11)
    changed = 0
    own_pick_seen = 0
    for state, _prng, player, legal in points:
        other = SPEC.redraw_hidden(state, COMP, player, rng)
        changed += not np.array_equal(other, state)
        a = features(state, player, params, legal)
        b = features(other, player, params, legal)
        for u, v in zip(a, b, strict=True):
            assert np.array_equal(u, v)
        own_pick_seen += int(a[0][X_OWN_PICK:X_REVEALED].sum() > 0)
        assert a[0].min() >= -32768 and a[0].max() < 32768  # the trainer stores int16
        assert np.abs(a[1]).max(initial=0) < 2 ** 31  # and int32 features
    assert changed > 0 and own_pick_seen > 0


def test_compiled_scores_equal_the_numpy_reference(net_spec, points):
    spec, path = net_spec
    _, params = spec.strategies.parse("net")
    weights, _ = FORMAT.load_net_file(path)
    quantised = FORMAT.quantise(weights)
    net = net_switch([params], NET_FP_SLOT)
    work = np.zeros(WORK_SIZE, np.int64)
    differs = 0
    for state, _prng, player, legal in points:
        x, phi, cand = features(state, player, params, legal)
        got = net_scores(state, COMP, player, params, legal, len(legal), net, work)
        assert got == len(cand) >= 1
        expected, value = FORMAT.reference_scores(quantised, x, phi)
        assert np.array_equal(work[NB_SCORES:NB_SCORES + got], expected)
        assert np.array_equal(work[NB_CAND:NB_CAND + got], cand)
        assert net_value_nb(state, COMP, player, params, net) == value / 2.0 ** 24
        differs += int(np.argmax(expected)) != 0  # not always the best by value
        net_checks.check_float_network_agrees(FORMAT, weights, quantised, x, phi)
    assert differs > 0


def test_the_anchor_scores_as_learned(points):
    """At ``theta0 = net_anchor()`` and ``U = 0`` (the blend's share 0) the candidates' scores
    differ as ``learned``'s do (up to the features' thousandths), where their values are within
    the cap of the best."""
    rng = np.random.default_rng(0)
    w = FORMAT.initial(4, rng)
    w.U[:] = 0.0
    w.theta0 = net_anchor()
    quantised = FORMAT.quantise(w)
    _, params = SPEC.strategies.parse("learned")
    theta = params[16:16 + N_LEARNED_FEATURES]
    for state, _prng, player, legal in points[::3]:
        x, phi, cand = features(state, player, params, legal)
        scores, _ = FORMAT.reference_scores(quantised, x, phi)
        learned = np.zeros((len(legal), N_LEARNED_FEATURES))
        learned_features_nb(state, COMP, player, params, legal, len(legal), learned)
        near = 1000 * (learned[cand[0], 0] - learned[cand, 0]) < 1000 * VALUE_GAP_CAP - 1
        mine = (scores - scores[0]) / 2.0 ** 20 / 1000
        theirs = (learned[cand] - learned[cand[0]]) @ theta
        assert np.allclose(mine[near], theirs[near], rtol=1e-4, atol=0.05)


def test_net_plays_legal_moves_and_ignores_hidden_information(net_spec):
    spec, _ = net_spec
    C.check_strategy_legality(spec, "net", n_games=2, n_players=2)
    C.check_strategy_legality(spec, "net:temperature=1", n_games=1, n_players=4)
    assert C.check_hidden_information(spec, "net", n_players=2, n_states=10) > 0
    assert C.check_hidden_information(spec, "net:temperature=2", n_players=3, n_states=7) > 0


def test_a_line_up_with_two_weights_sets_plays_each_its_own(net_spec, tmp_path, points):
    spec, _ = net_spec
    other = random_net(tmp_path / "other.npz", seed=9)
    _, p1 = spec.strategies.parse("net")
    _, p2 = build_registry(net_path=other).parse("net")
    net = spec.strategies.kernel_switches([STRATEGY_NET, STRATEGY_NET, 0], [p1, p2, p1])[3]
    assert net[0] == 2  # each set once
    work = np.zeros(WORK_SIZE, np.int64)
    state, _prng, player, legal = next(pt for pt in points if len(pt[3]) >= 3)
    net_scores(state, COMP, player, p1, legal, len(legal), net, work)
    s1 = work[NB_SCORES:NB_SCORES + 3].copy()
    net_scores(state, COMP, player, p2, legal, len(legal), net, work)
    assert not np.array_equal(s1, work[NB_SCORES:NB_SCORES + 3])
    unknown = p1.copy()
    unknown[NET_FP_SLOT] = 12345.0
    assert net_scores(state, COMP, player, unknown, legal, len(legal), net, work) == -1
    with pytest.raises(ValueError, match="not loaded"):
        net_switch([unknown], NET_FP_SLOT)
    # a set of other dimensions (another game's) is never read as Maharaja's
    alien = FORMAT.quantise(FORMAT.initial(4, np.random.default_rng(1)))
    alien[0] = D_IN - 1
    fp = FORMAT.remember_set(alien)
    alien_params = p1.copy()
    alien_params[NET_FP_SLOT] = float(fp)
    alien_net = net_switch([alien_params], NET_FP_SLOT)
    assert net_scores(state, COMP, player, alien_params, legal, len(legal), alien_net,
                      work) == -1


def test_bad_weights_files_are_one_line(tmp_path):
    net_checks.check_bad_files_are_one_line(FORMAT, tmp_path)
    w = FORMAT.initial(8, np.random.default_rng(0))
    w.W1 = w.W1[:-1]
    FORMAT.save_net_file(tmp_path / "short.npz", w)
    with pytest.raises(UserError, match=rf"W1 has shape \({D_IN - 1}, 8\); expected "
                                        rf"\({D_IN}, 8\) \(maharaja's"):
        build_registry(net_path=tmp_path / "short.npz")


def test_the_environment_variable_names_the_weights_file(net_spec, monkeypatch, tmp_path):
    _, path = net_spec
    monkeypatch.setenv("TAJSIM_MAHARAJA_NET", str(path))
    reg = build_registry()
    assert reg.get("net").params[NET_FP_SLOT] == FORMAT.load_net_file(path)[1]
    monkeypatch.setenv("TAJSIM_MAHARAJA_NET", str(tmp_path / "none.npz"))
    with pytest.raises(UserError, match="^TAJSIM_MAHARAJA_NET: cannot read net weights file"):
        build_registry()


def test_the_network_guided_turnsearch_rolls_out_with_net(net_spec):
    """turnsearch with ``rollout`` = STRATEGY_NET gets the set through ``kernel_switches`` and
    plays whole games; without the switch it refuses (one line, not a silent other rollout)."""
    spec, _ = net_spec
    _, net_vec = spec.strategies.parse("net")
    _, search_vec = spec.strategies.parse("turnsearch:iterations=2:step_candidates=2")
    guided = expert_with_net_rollout(search_vec, net_vec)
    switches = spec.strategies.kernel_switches([STRATEGY_TURNSEARCH], [guided])
    assert len(switches) == 4 and switches[3][0] == 1
    assert len(spec.strategies.kernel_switches([STRATEGY_TURNSEARCH], [search_vec])) == 3
    k = spec.kernels
    game = spec.game_class(2, spec.default_edition, 5, 0, 0)
    n = k.play_out(game.comp, game.state, np.array([STRATEGY_TURNSEARCH, 0], np.int64),
                   np.stack([guided, np.zeros_like(guided)]), game.prng,
                   np.empty(spec.n_actions, np.int64), np.zeros(0, np.int64), *switches)
    assert n > 20 and spec.current_player(game.state) < 0
    state, prng, player, legal = C.decision_states(spec, 2, 7, seed=3)[-1]
    assert len(legal) > 1
    with pytest.raises(ValueError, match="kernel has net=None"):
        k.choose_action(STRATEGY_TURNSEARCH, state, COMP, player, guided, prng, legal,
                        len(legal), *switches[:3])


def test_cuda_simulator_decides_as_the_cpu(net_spec):
    work = (WORK_SIZE, "int64", 0, 0)  # zeroed, as the GPU batch kernel zeroes its scratch
    net_checks.check_simulator_decides_as_the_cpu("maharaja", net_spec[1], 7, [work])
