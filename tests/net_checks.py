"""Checks every wing's ``net`` tests share (issue 41, section 3): a random weights file whose
policy departs from the base heuristic's order, the one-line refusals of a bad file, and a
script run under numba's CUDA simulator in a subprocess (the simulator is chosen at import)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

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


def run_in_cuda_simulator(script: str, tmp_path: Path, *args: str) -> str:
    """Run ``script`` (Python source) with ``NUMBA_ENABLE_CUDASIM=1`` in a subprocess; returns
    its stdout (the test fails with the end of its stderr when it fails)."""
    path = tmp_path / "sim.py"
    path.write_text(script)
    env = dict(os.environ, NUMBA_ENABLE_CUDASIM="1")
    done = subprocess.run([sys.executable, str(path), *args], env=env, capture_output=True,
                          text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout
