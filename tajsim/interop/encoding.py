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

__all__ = ["PAD", "ObservationField", "ObservationLayout", "ScaledLayout", "layout", "observe",
           "scaled_layout"]

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

    def encode_many(self, views: list[Any], out: np.ndarray | None = None) -> np.ndarray:
        """Many views flattened at once: int64[len(views), size], row ``i`` equal to
        ``encode(views[i])``. A field whose values convert to one rectangular array in one
        numpy call (the same length in every view, no ``None``) is written for all views at
        once; any other falls back to the per-view fill."""
        n = len(views)
        if out is None:
            out = np.empty((n, self.size), np.int64)
        for f in self.fields:
            values = [getattr(v, f.name) for v in views]
            if f.vocabulary:
                out[:, f.offset] = [f.vocabulary.index(v) for v in values]
                continue
            if not f.shape:
                out[:, f.offset] = [PAD if v is None else int(v) for v in values]
                continue
            block = np.full((n, *f.shape), PAD, np.int64)
            values = [tuple(v.values()) if isinstance(v, Mapping) else v for v in values]
            try:
                dense = np.array(values, np.int64) if None not in values else None
            except (ValueError, TypeError):  # ragged, or a None inside
                dense = None
            if dense is not None and dense.ndim == 1 + len(f.shape) \
                    and all(d <= s for d, s in zip(dense.shape[1:], f.shape)):
                block[(slice(None), *(slice(0, d) for d in dense.shape[1:]))] = dense
            else:
                for i, value in enumerate(values):
                    if value is not None:
                        _fill(value, block[i], f)
            out[:, f.offset:f.offset + f.size] = block.reshape(n, f.size)
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


# -- the normalised encoding ------------------------------------------------------------------
#: Games played to estimate each field's scale: this many with the game's reference preset in
#: every seat and as many with ``random`` (at the edition's largest table), every
#: ``_SCALE_STRIDE``-th state and the final one seen by every seat.
_SCALE_GAMES = 8
_SCALE_STRIDE = 7


@dataclass(frozen=True)
class ScaledLayout:
    """A float32 encoding in [-1, 1] of a game's raw observation (``int64[raw.size]``), for
    learners that want normalised inputs.

    * A text field (a phase, an edition) becomes a one-hot block of ``len(vocabulary)`` slots
      (all 0 for PAD).
    * Every other slot is divided by its field's scale and clipped to [-1, 1]: the bounds of
      the observation space are true (the clip), the scales are estimated, each the largest
      magnitude the field took in sampled games (:func:`scaled_layout`), so a value is only
      clipped beyond anything seen there. PAD (-1) becomes ``-1 / scale``.

    ``numeric_src``/``numeric_dst`` (int64[k]): raw slot -> scaled slot of the numeric slots;
    ``divisor`` (float64[k]) their scales; ``onehot``: (raw offset, scaled offset, vocabulary
    size) of each text field."""

    raw: ObservationLayout
    size: int
    numeric_src: np.ndarray
    numeric_dst: np.ndarray
    divisor: np.ndarray
    onehot: tuple[tuple[int, int, int], ...]
    scales: Mapping[str, float]

    def encode_raw(self, raw: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
        """Scale raw observations: ``int64[..., raw.size]`` -> ``float32[..., size]`` (one
        observation or a batch)."""
        if out is None:
            out = np.empty((*raw.shape[:-1], self.size), np.float32)
        values = raw[..., self.numeric_src] / self.divisor
        out[..., self.numeric_dst] = np.clip(values, -1.0, 1.0)
        for src, dst, n in self.onehot:
            block = out[..., dst:dst + n]
            block[...] = 0.0
            index = raw[..., src]
            np.put_along_axis(block, np.clip(index, 0, n - 1)[..., None],
                              ((index >= 0) & (index < n)).astype(np.float32)[..., None],
                              axis=-1)
        return out

    def encode(self, view: Any) -> np.ndarray:
        """A view (``spec.view``) as float32[size]."""
        return self.encode_raw(self.raw.encode(view))


def _sampled_magnitudes(spec: GameSpec, lay: ObservationLayout) -> np.ndarray:
    """float64[lay.size]: the largest |value| of each slot over the sampled games' states."""
    edition = spec.default_edition
    n = spec.players[edition][1]
    comp = spec.components.default().packed()
    components = spec.components.default()
    k = spec.kernels
    legal = np.empty(spec.n_actions, np.int64)
    biggest = np.zeros(lay.size, np.float64)
    out = np.empty(lay.size, np.int64)
    rng = np.random.default_rng(0)
    preset, params = spec.strategies.parse(spec.reference_preset)
    switches = spec.strategies.kernel_switches([preset.strategy_id], [params])
    rules = spec.rules_code(edition)

    def see(state: np.ndarray) -> None:
        for p in range(n):
            lay.encode(spec.view(state, comp, p, components), out)
            np.maximum(biggest, np.abs(out), out=biggest)

    for g in range(2 * _SCALE_GAMES):
        state = np.zeros(spec.state_size, np.int64)
        prng = np.zeros(spec.max_players, np.int64)
        k.start_game(comp, n, rules, 0, g, g, state, prng)
        step = 0
        while (p := spec.current_player(state)) >= 0:
            count = int(k.legal_actions(state, comp, legal))
            if step % _SCALE_STRIDE == 0:
                see(state)
            if g < _SCALE_GAMES:
                action = int(k.choose_action(preset.strategy_id, state, comp, p, params, prng,
                                             legal, count, *switches))
            else:
                action = int(legal[rng.integers(count)])
            k.apply_action(state, comp, action)
            step += 1
        see(state)
    return biggest


@cache
def _scaled_layout(name: str) -> ScaledLayout:
    spec = get_game(name)
    lay = _layout(name)
    biggest = _sampled_magnitudes(spec, lay)
    src: list[np.ndarray] = []
    dst: list[np.ndarray] = []
    div: list[np.ndarray] = []
    onehot: list[tuple[int, int, int]] = []
    scales: dict[str, float] = {}
    at = 0
    for f in lay.fields:
        if f.vocabulary:
            onehot.append((f.offset, at, len(f.vocabulary)))
            at += len(f.vocabulary)
            continue
        scale = max(1.0, float(biggest[f.offset:f.offset + f.size].max()))
        scales[f.name] = scale
        src.append(np.arange(f.offset, f.offset + f.size))
        dst.append(np.arange(at, at + f.size))
        div.append(np.full(f.size, scale))
        at += f.size
    return ScaledLayout(lay, at, np.concatenate(src), np.concatenate(dst), np.concatenate(div),
                        tuple(onehot), scales)


def scaled_layout(game: str | GameSpec) -> ScaledLayout:
    """The normalised encoding of ``game`` (computed once per process: the scales come from
    sampled games, about a second; see :class:`ScaledLayout`)."""
    return _scaled_layout(get_game(game).name)
