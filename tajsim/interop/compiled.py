"""Compiled observations: a seat's ``int64`` observation array (``tajsim.interop.encoding``)
written straight from the state vector by the game's own kernel, one call for a whole batch,
without building the Python view (``spec.view``) that the encoding otherwise flattens.

A wing offers it in a module ``interop_nb`` beside its ``engine`` and ``strategies`` packages
(``tajsim/games/<game>/interop_nb.py``), found by that name from the package of the game's view
function, holding:

* ``FIELDS``: the names of the encoded view fields, in the layout's order;
* ``encode_observation(state, comp, player, offsets, out)``: a compiled kernel writing field
  ``FIELDS[i]`` at ``out[offsets[i]:]`` (``out`` int64[layout size], every slot written, PAD
  included).

The result must equal ``layout(spec).encode(spec.view(state, comp, player))`` exactly (the
tests check it on sampled states of every game, compiled and under ``NUMBA_DISABLE_JIT=1``). A
game without the module keeps the Python path (:func:`observation_kernel` returns None).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np
from numba import njit

from tajsim.engine.spec import GameSpec
from tajsim.games.registry import get_game
from tajsim.interop.encoding import layout

__all__ = ["ObservationKernel", "observation_kernel", "observe_rows"]

#: The module name a wing's compiled observation lives under.
MODULE = "interop_nb"


@dataclass(frozen=True)
class ObservationKernel:
    """A game's compiled observation: ``encode(state, comp, player, offsets, out)`` and the
    layout's field ``offsets`` (int64[n_fields]) it is called with."""

    game: str
    encode: Any
    offsets: np.ndarray
    size: int

    def observe(self, state: np.ndarray, comp: np.ndarray, player: int,
                out: np.ndarray | None = None) -> np.ndarray:
        """Seat ``player``'s observation of ``state`` (int64[state_size]): int64[size]."""
        if out is None:
            out = np.empty(self.size, np.int64)
        self.encode(state, comp, player, self.offsets, out)
        return out

    def observe_rows(self, states: np.ndarray, comp: np.ndarray, players: np.ndarray,
                     out: np.ndarray | None = None) -> np.ndarray:
        """Row ``i``'s observation by seat ``players[i]``: states int64[N, state_size],
        players int64[N] -> int64[N, size], in one compiled call."""
        if out is None:
            out = np.empty((states.shape[0], self.size), np.int64)
        observe_rows(self.encode, states, comp, players, self.offsets, out)
        return out


@njit
def observe_rows(encode, states, comp, players, offsets, out):
    """``encode`` (a wing's ``encode_observation``) row by row: ``out[i]`` is seat
    ``players[i]``'s observation of ``states[i]``."""
    for row in range(states.shape[0]):
        encode(states[row], comp, players[row], offsets, out[row])


def _wing_module(spec: GameSpec) -> Any:
    """The wing's ``interop_nb`` module, searched from the package of its view function up
    (None if the wing has none)."""
    parts = spec.view.__module__.split(".")
    for end in range(len(parts) - 1, 0, -1):
        name = ".".join([*parts[:end], MODULE])
        try:
            return importlib.import_module(name)
        except ModuleNotFoundError as error:
            if error.name != name:  # the module exists and fails to import: say so
                raise
    return None


@cache
def _kernel(name: str) -> ObservationKernel | None:
    spec = get_game(name)
    module = _wing_module(spec)
    if module is None:
        return None
    lay = layout(spec)
    names = tuple(f.name for f in lay.fields)
    if tuple(module.FIELDS) != names:
        raise ValueError(f"{name}: {module.__name__}.FIELDS {tuple(module.FIELDS)} differ from "
                         f"the observation layout's fields {names}")
    offsets = np.array([f.offset for f in lay.fields], np.int64)
    return ObservationKernel(name, module.encode_observation, offsets, lay.size)


def observation_kernel(game: str | GameSpec) -> ObservationKernel | None:
    """The compiled observation of ``game`` (a name or a spec), or None where its wing has no
    ``interop_nb`` module (see the module docstring)."""
    return _kernel(get_game(game).name)
