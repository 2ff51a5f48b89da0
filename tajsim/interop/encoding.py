"""Fixed-shape integer observations of what one seat sees, for every registered game.

A game's ``spec.view(state, comp, player)`` is a frozen dataclass holding exactly what seat
``player`` may see (the conformance suite checks that redrawing the hidden facts leaves it
equal). Its fields vary in length (a hand, the bag, one entry per seat), so the game declares,
in ``spec.observation``, the padded shape of each such field; this module flattens
the view into one ``int64[size]`` array with a layout computed from those declarations and the
view's type alone (no game is named here).

The declarations (plain data, a mapping from view field name to):

* ``None`` - the field is left out (not an integer fact: e.g. a components object);
* a tuple of ints, e.g. ``(MAX_PLAYERS, N_CARDS)`` - the field is a (nested) tuple, or a dict
  (its values in order), padded to that shape;
* a tuple of strings - the field is text, encoded as its index in that vocabulary.

A field the mapping does not name must be annotated ``int`` or ``bool`` (one slot).

Layout. The fields follow in the view's own order; field ``f`` occupies
``array[f.offset:f.offset + f.size]``, its entries in C order of ``f.shape`` (``[i, j]`` at
``f.offset + i * shape[1] + j``). ``bool`` is 0/1 and :data:`PAD` (-1) marks every slot the
view leaves empty: past the end of a shorter tuple (the seats beyond ``n_players``, the cards
beyond the hand's size) and a ``None`` value (a choice not yet revealed, no turn in progress).
Several games also use -1 themselves for "none". ``ObservationLayout.describe()`` lists the
layout of a game.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from itertools import chain
from typing import Any

import numpy as np

from tajsim.engine.spec import GameSpec
from tajsim.games.registry import get_game

__all__ = ["PAD", "ObservationField", "ObservationLayout", "layout", "observe"]

#: The value of a slot the view leaves empty (and of a ``None`` value).
PAD = -1


@dataclass(frozen=True)
class ObservationField:
    """One view field's place in the observation array.

    ``shape`` is ``()`` for a scalar; ``vocabulary`` is set for a text field (its value's index
    is stored).
    """

    name: str
    offset: int
    shape: tuple[int, ...]
    vocabulary: tuple[str, ...] = ()

    @property
    def size(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64)) if self.shape else 1


@dataclass(frozen=True)
class ObservationLayout:
    """Where each field of a game's view lies in its observation array (``int64[size]``)."""

    game: str
    fields: tuple[ObservationField, ...]
    size: int

    def encode(self, view: Any, out: np.ndarray | None = None) -> np.ndarray:
        """The view flattened into ``out`` (or a new array): int64[size]."""
        if out is None:
            out = np.empty(self.size, np.int64)
        out.fill(PAD)
        for f in self.fields:
            value = getattr(view, f.name)
            if f.vocabulary:
                out[f.offset] = f.vocabulary.index(value)
            elif not f.shape:
                out[f.offset] = PAD if value is None else int(value)
            elif value is not None:
                _fill(value, out[f.offset:f.offset + f.size].reshape(f.shape), f)
        return out

    def describe(self) -> list[tuple[str, int, tuple[int, ...], str]]:
        """``(field, offset, shape, encoding)`` for every field, in order."""
        return [(f.name, f.offset, f.shape,
                 f"index in {f.vocabulary}" if f.vocabulary
                 else "padded with -1" if f.shape else "integer")
                for f in self.fields]


def _fill(value: Any, out: np.ndarray, f: ObservationField) -> None:
    """Write a (nested) tuple or dict ``value`` into ``out`` (a block of the declared shape,
    already PAD); raise ``ValueError`` if it does not fit the declaration."""
    if isinstance(value, Mapping):
        value = tuple(value.values())
    if len(value) > out.shape[0]:
        raise ValueError(f"observation field {f.name!r} has {len(value)} entries where its "
                         f"declared shape {f.shape} allows {out.shape[0]}")
    if not value:
        return
    if out.ndim == 1:
        try:  # numpy converts a tuple of ints (or bools) in one go
            out[:len(value)] = value
        except TypeError:  # a None among them: PAD
            out[:len(value)] = [PAD if v is None else int(v) for v in value]
        return
    width = len(value[0]) if isinstance(value[0], tuple) else -1
    if out.ndim == 2 and 0 < width <= out.shape[1] \
            and all(isinstance(row, tuple) and len(row) == width for row in value):
        # a rectangular table (a card table, palaces by city and seat) in one conversion;
        # the per-row path below costs a numpy call per row
        try:
            block = np.fromiter(chain.from_iterable(value), np.int64, len(value) * width)
        except TypeError:
            block = None
        if block is not None:
            out[:len(value), :width] = block.reshape(len(value), width)
            return
    for i, item in enumerate(value):
        if item is not None:
            _fill(item, out[i], f)


@cache
def _layout(name: str) -> ObservationLayout:
    spec = get_game(name)
    declared: Mapping[str, Any] = spec.observation
    view_type = typing.get_type_hints(spec.view)["return"]
    hints = typing.get_type_hints(view_type)
    names = [f.name for f in dataclasses.fields(view_type)]
    unknown = sorted(set(declared) - set(names))
    if unknown:
        raise ValueError(f"{name}: observation declares {unknown}, not fields of "
                         f"{view_type.__name__}")
    fields: list[ObservationField] = []
    offset = 0
    for field_name in names:
        if field_name in declared:
            decl = declared[field_name]
            if decl is None:
                continue
            decl = tuple(decl)
            if decl and all(isinstance(d, str) for d in decl):
                item = ObservationField(field_name, offset, (), decl)
            elif decl and all(isinstance(d, int) and d > 0 for d in decl):
                item = ObservationField(field_name, offset, decl)
            else:
                raise ValueError(f"{name}: observation field {field_name!r} is declared "
                                 f"{decl!r}; expected None, a shape or a vocabulary")
        elif hints[field_name] in (int, bool):
            item = ObservationField(field_name, offset, ())
        else:
            raise ValueError(f"{name}: view field {field_name!r} ({hints[field_name]}) needs "
                             "a shape in spec.observation")
        fields.append(item)
        offset += item.size
    return ObservationLayout(name, tuple(fields), offset)


def layout(game: str | GameSpec) -> ObservationLayout:
    """The observation layout of ``game`` (a name or a spec; computed once)."""
    return _layout(get_game(game).name)


def observe(spec: GameSpec, state: np.ndarray, comp: np.ndarray, player: int,
            out: np.ndarray | None = None) -> np.ndarray:
    """What seat ``player`` sees in ``state`` (int64[state_size]) as int64[layout.size]."""
    return layout(spec).encode(spec.view(state, comp, player), out)
