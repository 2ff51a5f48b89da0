"""``tajsim.engine.arrays.borrowed``: a view of an argument array that numba does not
reference-count. The same memory, shape and strides; no ``NRT_incref``/``NRT_decref`` left in a
function that borrows its arguments (the test fails for one that does not); and the engine's
per-action kernels and Taj Mahal's heuristic compile without any."""

from __future__ import annotations

import re
import types

import numpy as np
import pytest
from numba import config, njit

from tajsim.engine.arrays import borrowed

COMPILED = not config.DISABLE_JIT
needs_jit = pytest.mark.skipif(not COMPILED, reason="reference counting exists only compiled")


@njit
def _write_through(a, i, value):
    b = borrowed(a)
    rows = b[1:]  # a slice of the view: its memory is still a's
    rows[i - 1, 0] = value
    return b.shape[0], b.shape[1], b.strides[0], b.strides[1], b[i, 0]


def test_borrowed_is_the_same_memory():
    a = np.zeros((4, 3))
    assert _write_through(a, 2, 7.5) == (4, 3, 24, 8, 7.5)
    assert a[2, 0] == 7.5  # written through the view's slice
    cols = np.zeros((5, 6))
    col = cols[:, 2:4]  # not contiguous: strides of the parent's rows
    assert _write_through(col, 1, 1.5) == (5, 2, 48, 8, 1.5)
    assert cols[1, 2] == 1.5


@njit
def _element(x, i):  # out of line: the array crosses a call
    return x[i % x.shape[0]]


@njit(inline="always")
def _pick(a, i):
    if a[0] > i:
        return _element(a, i)
    return _element(a[1:], i + 1)


def _walk(a, n):
    a = borrowed(a)
    total = 0.0
    for i in range(n):
        if a[i] > 3:
            return total
        total += _pick(a, i)
    return total


@njit(inline="always")
def _same(arr):
    return arr


def _unborrowed(func):
    """``func`` with ``borrowed`` a plain identity: the same source, with numba's counts."""
    return types.FunctionType(func.__code__, {**func.__globals__, "borrowed": _same},
                              func.__name__)


def _argument_refcounts(dispatcher, *args) -> int:
    """``NRT_incref``/``NRT_decref`` calls on the arguments' arrays in the LLVM of
    ``dispatcher``'s own function (not the Python wrapper around it), compiled for ``args``."""
    dispatcher(*args)
    tag = f"{len(dispatcher.py_func.__name__)}{dispatcher.py_func.__name__}"
    calls = bodies = 0
    for llvm in dispatcher.inspect_llvm().values():
        for body in re.split(r"\ndefine ", llvm)[1:]:
            first = body.split("\n", 1)[0]
            if tag in first and "cpython" not in first and "cfunc" not in first:
                bodies += 1
                calls += len(re.findall(r"@NRT_(?:incref|decref)\(ptr %arg\.", body))
    assert bodies == 1, f"{bodies} LLVM functions named {tag}: the check would see nothing"
    return calls


@needs_jit
def test_borrowed_arguments_leave_no_reference_counting():
    a = np.arange(8.0)
    plain, lean = njit(_unborrowed(_walk)), njit(_walk)
    assert plain(a, 8) == lean(a, 8) == 14.0
    assert _argument_refcounts(plain, a, 8) > 0  # the check sees the calls where they are
    assert _argument_refcounts(lean, a, 8) == 0


def _game_state(game: str):
    """A new 4-player game's (components, state, legal-action scratch)."""
    import importlib

    from tajsim.games.registry import get_game

    enums = importlib.import_module(f"tajsim.games.{game}.engine.enums")
    play = importlib.import_module(f"tajsim.games.{game}.play.nb")
    comp = get_game(game).components.default().packed()
    state = np.zeros(enums.STATE_SIZE, np.int64)
    play.start_game_nb(comp, 4, 0, 5, 0, 0, state, np.zeros(enums.MAX_PLAYERS, np.int64))
    return comp, state, np.empty(enums.N_ACTIONS, np.int64)


@needs_jit
@pytest.mark.parametrize("game", ["tajmahal", "maharaja", "maharani"])
def test_engine_kernels_count_no_references(game):
    """Each action lists and applies with no reference counting (recompiled here from their
    sources: the cached kernels cannot show their LLVM)."""
    import importlib

    nb = importlib.import_module(f"tajsim.games.{game}.engine.nb")
    comp, state, legal = _game_state(game)
    n = nb.legal_actions_nb(state, comp, legal)
    assert n > 0
    assert _argument_refcounts(njit(nb.legal_actions_nb.py_func), state.copy(), comp, legal) == 0
    assert _argument_refcounts(njit(nb.apply_action_nb.py_func), state.copy(), comp, legal[0]) == 0
    if game == "tajmahal":  # the same source with `borrowed` a plain identity: counts return
        unborrowed = njit(_unborrowed(nb.legal_actions_nb.py_func))
        assert _argument_refcounts(unborrowed, state.copy(), comp, legal) > 0


@needs_jit
def test_tajmahal_heuristic_counts_no_references():
    from tajsim.games.tajmahal.engine.nb import legal_actions_nb
    from tajsim.games.tajmahal.strategies.heuristic import new_workspace, weighted_policy_nb
    from tajsim.games.tajmahal.strategies.registry import REGISTRY

    comp, state, legal = _game_state("tajmahal")
    n = legal_actions_nb(state, comp, legal)
    _, params = REGISTRY.parse("balanced")
    policy = njit(weighted_policy_nb.py_func)
    assert _argument_refcounts(policy, state, comp, 0, params, legal, n, new_workspace()) == 0
