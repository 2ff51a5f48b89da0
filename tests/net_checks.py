"""Checks every wing's ``net`` tests share (issue 41, section 3): a random weights file whose
policy departs from the base heuristic's order, the one-line refusals of a bad file, and the
CUDA simulator's decisions against the CPU's (``net_sim_decisions.py``, in a subprocess)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tajsim.engine.net_nb import MAX_HIDDEN
from tajsim.engine.net_switch import net_switch
from tajsim.engine.net_weights import NetFormat
from tajsim.errors import UserError


def random_net(fmt: NetFormat, path: Path, seed: int = 3, hidden: int = 16) -> Path:
    """Write a weights file of ``fmt``'s shape with random ``W1``, ``b1``, ``theta0``, ``U`` and
    ``wv`` (theta0 and U not 0, so the scores depart from the base heuristic's order)."""
    rng = np.random.default_rng(seed)
    w = fmt.initial(hidden, rng)
    w.W1 = rng.normal(0.0, 0.3, w.W1.shape)
    w.b1 = rng.normal(0.0, 0.5, hidden)
    w.theta0 = rng.normal(0.0, 1.0, fmt.n_features)
    w.U = rng.normal(0.0, 0.2, w.U.shape)
    w.wv = rng.normal(0.0, 0.1, hidden)
    w.meta = {"test": True}
    fmt.save_net_file(path, w)
    return path


def check_float_network_agrees(fmt: NetFormat, weights: Any, quantised: np.ndarray,
                               x: np.ndarray, phi: np.ndarray) -> None:
    """The int64 set's scores and value (``fmt.reference_scores``, which the kernels equal)
    are the float network's that training fits (``net_training._forward`` with the exported
    weights: inputs raw, features in gold) within the error bound of rounding each weight to
    its fixed point (half a unit) and of the kernels' two truncations (theta's shift, the
    value prior); where the float network's best candidate leads by more than twice that
    bound, the set picks it too."""
    from tajsim.engine.net_nb import SHIFT, THETA_SHIFT
    from tajsim.play.net_training import _forward

    p = weights.arrays()
    x = np.asarray(x, np.float64)
    n = len(phi)
    gold = np.asarray(phi, np.float64) / 1000.0
    scores, value, hidden, _ = _forward(p, x[None], gold[None], np.ones((1, n), bool),
                                        fmt.value_prior)
    fixed, fixed_value = fmt.reference_scores(quantised, x.astype(np.int64), phi)
    half, half_theta = 2.0 ** -(SHIFT + 1), 2.0 ** -(THETA_SHIFT + 1)
    h = np.abs(hidden[0])
    dh = half * (1.0 + np.abs(x).sum())  # b1 and W1 rounded; x exact; ReLU 1-Lipschitz
    d_theta = (half_theta + 2.0 ** -THETA_SHIFT
               + np.abs(p["U"]) @ np.full_like(h, dh) + half * (h + dh).sum())
    d_scores = np.abs(gold) @ d_theta + 2.0 ** -THETA_SHIFT * np.abs(gold[:, 0])
    d_value = np.abs(p["wv"]).sum() * dh + half * (h + dh).sum() + 2.0 ** -(2 * SHIFT + 1)
    got = fixed / 2.0 ** THETA_SHIFT / 1000.0
    error = np.abs(got - scores[0])
    assert (error <= d_scores).all(), (error, d_scores)
    assert abs(fixed_value / 2.0 ** (2 * SHIFT) - value[0]) <= d_value
    best = int(np.argmax(scores[0]))
    rest = np.delete(scores[0], best)
    if n == 1 or scores[0][best] - rest.max() > 2.0 * d_scores.max():
        assert int(np.argmax(got)) == best


def alien_sets(fmt: NetFormat, params: np.ndarray, fp_slot: int
               ) -> list[tuple[np.ndarray, np.ndarray]]:
    """Copies of ``params`` naming weights sets of other dimensions than ``fmt``'s (another
    game's: more inputs, more features, or more hidden units than ``MAX_HIDDEN``), each with
    the ``net`` switch holding its set: a wing must refuse them as it does a missing set (read
    as its own, a set of more features would write past the wing's ``theta``)."""
    out = []
    for d_in, n_features, hidden in ((fmt.d_in + 5, fmt.n_features, 8),
                                     (fmt.d_in, fmt.n_features + 3, 8),
                                     (fmt.d_in, fmt.n_features, MAX_HIDDEN + 1)):
        other = NetFormat(d_in=d_in, n_features=n_features, value_prior=fmt.value_prior,
                          game="other")
        fp = other.remember_set(other.quantise(other.initial(hidden, np.random.default_rng(1))))
        alien = np.array(params, np.float64, copy=True)
        alien[fp_slot] = float(fp)
        out.append((alien, net_switch([alien], fp_slot)))
    return out


def check_bad_files_are_one_line(fmt: NetFormat, tmp_path: Path) -> None:
    """A missing file, a ``W1`` one input short and an infinite weight: one ``UserError`` line
    each, naming the bad value and what was expected."""
    with pytest.raises(UserError, match="cannot read net weights file") as exc:
        fmt.load_net_file(tmp_path / "missing.npz")
    assert "\n" not in str(exc.value)
    w = fmt.initial(8, np.random.default_rng(0))
    w.W1 = w.W1[:-1]
    fmt.save_net_file(tmp_path / "short.npz", w)
    short = rf"W1 has shape \({fmt.d_in - 1}, 8\); expected \({fmt.d_in}, 8\)"
    with pytest.raises(UserError, match=short) as exc:
        fmt.load_net_file(tmp_path / "short.npz")
    assert "\n" not in str(exc.value)
    w = fmt.initial(8, np.random.default_rng(0))
    w.theta0[0] = np.inf
    fmt.save_net_file(tmp_path / "inf.npz", w)
    with pytest.raises(UserError, match="theta0 holds a weight that is not finite"):
        fmt.load_net_file(tmp_path / "inf.npz")
    arrays: dict[str, Any] = {name: np.asarray(a, np.float32) for name, a in w.arrays().items()}
    arrays["W1"] = arrays["W1"].astype(np.complex64)
    np.savez(tmp_path / "complex.npz", meta=np.array("{}"), **arrays)
    with pytest.raises(UserError, match="W1 not real numbers") as exc:
        fmt.load_net_file(tmp_path / "complex.npz")
    assert "\n" not in str(exc.value) and "cannot read" not in str(exc.value)
    np.savez(tmp_path / "lacks.npz", meta=np.array("{}"))
    with pytest.raises(UserError, match="lacks W1") as exc:
        fmt.load_net_file(tmp_path / "lacks.npz")
    assert "cannot read" not in str(exc.value)  # not wrapped twice
    for bad_meta in ([1, 2], {"train_cpu_s": "abc"}, {"train_cpu_s": {"a": 1}}):
        w = fmt.initial(8, np.random.default_rng(0))
        w.meta = bad_meta  # type: ignore[assignment]
        fmt.save_net_file(tmp_path / "meta.npz", w)
        with pytest.raises(UserError, match="meta is not a JSON object") as exc:
            fmt.load_net_file(tmp_path / "meta.npz")
        assert "\n" not in str(exc.value)


def check_simulator_decides_as_the_cpu(game: str, weights: Path, n_states: int,
                                       buffers: list[tuple[int, str, float, float]]) -> None:
    """``tests/net_sim_decisions.py`` in a subprocess with ``NUMBA_ENABLE_CUDASIM=1`` (the
    simulator is chosen at import): ``game``'s ``net_choose`` (with the weights file
    ``weights``, named by the wing's ``TAJSIM_<GAME>_NET``) decides on the CPU and in a CUDA
    kernel at ``n_states`` conformance decision points of three line-ups (2 and 4 players, a
    temperature), and the two equal. ``buffers`` are the scratch arrays it takes after ``net``:
    ``(size, dtype, cpu_fill, gpu_fill)`` each."""
    script = Path(__file__).with_name("net_sim_decisions.py")
    env = dict(os.environ, NUMBA_ENABLE_CUDASIM="1")
    env[f"TAJSIM_{game.upper()}_NET"] = str(weights)
    done = subprocess.run([sys.executable, str(script), game, str(n_states), json.dumps(buffers)],
                          env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.count("decisions equal") == 3, done.stdout


def check_features_ignore_redraw(spec: Any, comp: np.ndarray, features: Callable[..., int],
                                 params: np.ndarray, points: list, d_in: int, n_candidates: int,
                                 n_features: int, seed: int = 11) -> None:
    """At each decision point ``(state, prng, player, legal)``, the conformance redraw of what
    the seat cannot see (``spec.redraw_hidden``) changes neither the network's inputs nor its
    candidates and their features (the wing's ``net_features_nb``): a leak fails here even
    where a random network's decision would not change. The redraw must change some state."""
    rng = np.random.default_rng(seed)
    changed = 0

    def run(state: np.ndarray, player: int, legal: np.ndarray) -> tuple[np.ndarray, ...]:
        x = np.empty(d_in, np.int64)
        phi = np.zeros((n_candidates, n_features), np.int64)
        cand = np.empty(n_candidates, np.int64)
        n = features(state, comp, player, params, legal, len(legal), x, phi, cand)
        return x, phi[:n], cand[:n]

    for state, _prng, player, legal in points:
        other = spec.redraw_hidden(state, comp, player, rng)
        changed += not np.array_equal(other, state)
        for u, v in zip(run(state, player, legal), run(other, player, legal), strict=True):
            assert np.array_equal(u, v), "the redraw changed the network's inputs or features"
    assert changed > 0


def check_guided_search_rolls_out(spec: Any, comp: np.ndarray, search_id: int, search: str,
                                  with_net_rollout: Callable[[np.ndarray, np.ndarray],
                                                             np.ndarray]) -> None:
    """A search whose rollout is ``net`` gets the set through ``kernel_switches`` (the fourth
    switch) and plays whole games; without the switch it refuses in one line, not by a silent
    other rollout. ``search`` is the search's strategy string, ``with_net_rollout`` the wing's
    ``expert_with_net_rollout``."""
    from tajsim.play import conformance as C

    _, net_vec = spec.strategies.parse("net")
    _, search_vec = spec.strategies.parse(search)
    guided = with_net_rollout(search_vec, net_vec)
    switches = spec.strategies.kernel_switches([search_id], [guided])
    assert switches[3] is not None and switches[3][0] == 1
    assert spec.strategies.kernel_switches([search_id], [search_vec])[3] is None
    k = spec.kernels
    for g in range(2):
        game = spec.game_class(2, spec.default_edition, 5, g, g)
        n = k.play_out(game.comp, game.state, np.array([search_id, 0], np.int64),
                       np.stack([guided, np.zeros_like(guided)]), game.prng,
                       np.empty(spec.n_actions, np.int64), np.zeros(0, np.int64), *switches)
        assert n > 20 and spec.current_player(game.state) < 0
    state, prng, player, legal = C.decision_states(spec, 2, 2, seed=3)[0]
    with pytest.raises(ValueError, match="kernel has net=None"):
        k.choose_action(search_id, state, comp, player, guided, prng, legal, len(legal),
                        *switches[:3], None)
