"""``net``'s weights in every game: the float network training fits, its int64 set for the
kernels (:mod:`tajsim.engine.net_nb`), the file.

A weights file is a NumPy ``.npz`` (:meth:`NetFormat.save_net_file` /
:meth:`NetFormat.load_net_file`) with the float arrays ``W1`` (float32[D_IN, H]), ``b1`` (H),
``theta0`` (N_FEATURES), ``U`` (float32[N_FEATURES, H]), ``wv`` (H), ``bv`` (1) and ``meta`` (a
JSON text: the command, the seed, what training measured). A game's dimensions (its inputs
``D_IN``, its candidates' features ``N_FEATURES``, its value prior) make a :class:`NetFormat`;
the kernels play the set :meth:`NetFormat.quantise` makes, and
:meth:`NetFormat.reference_scores` is that set's forward pass in NumPy (a wing's tests check
its kernels equal it, score for score). ``NetAgent.weights`` is a game's ``NetFormat``.
"""

from __future__ import annotations

import json
import math
import os
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from tajsim.engine.net_nb import MAX_HIDDEN, SET_HEADER, SHIFT, THETA_SHIFT, value_prior_fixed
from tajsim.engine.net_switch import remember_set as _remember_set
from tajsim.errors import UserError

__all__ = ["ARRAY_NAMES", "MAX_ABS_WEIGHT", "NetFormat", "NetWeights", "load_wing_net_file",
           "net_file"]

ARRAY_NAMES = ("W1", "b1", "theta0", "U", "wv", "bv")
#: The largest weight magnitude a file may hold (trained ones stay below 10): the hidden units
#: then stay below 2**32 and theta below 2**53 for inputs of a few hundred at most (int64
#: arithmetic wraps beyond that, the same way on every device, so even a hostile file gives the
#: same decisions everywhere).
MAX_ABS_WEIGHT = 64.0


@dataclass
class NetWeights:
    """The float network: ``W1`` float64[D_IN, H], ``b1`` [H], ``theta0`` [N_FEATURES], ``U``
    [N_FEATURES, H], ``wv`` [H], ``bv`` [1]; ``meta``: where it came from."""

    W1: np.ndarray
    b1: np.ndarray
    theta0: np.ndarray
    U: np.ndarray
    wv: np.ndarray
    bv: np.ndarray
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def hidden(self) -> int:
        return int(self.b1.shape[0])

    def arrays(self) -> dict[str, np.ndarray]:
        return {name: getattr(self, name) for name in ARRAY_NAMES}


def _fixed(x: np.ndarray, shift: int) -> np.ndarray:
    """``x * 2**shift`` rounded half away from zero, as int64."""
    scaled = np.asarray(x, np.float64) * float(1 << shift)
    return (np.sign(scaled) * np.floor(np.abs(scaled) + 0.5)).astype(np.int64)


@dataclass(frozen=True)
class NetFormat:
    """One game's network dimensions and what follows from them: the weights' shapes, the
    int64 set, the NumPy reference forward pass, the file.

    ``d_in``: the inputs ``x`` (the wing's ``net_inputs``); ``n_features``: the candidates'
    features ``phi``; ``value_prior``: the weight of ``phi[0]`` (the base heuristic's value)
    in every score; ``game``: the name a bad file's message gives.
    """

    d_in: int
    n_features: int
    value_prior: float
    game: str = ""

    @staticmethod
    def remember_set(quantised: np.ndarray) -> int:
        """Keep this set for the kernels (:func:`tajsim.engine.net_switch.remember_set`)."""
        return _remember_set(quantised)

    def initial(self, hidden: int, rng: np.random.Generator) -> NetWeights:
        """A fresh network: small random ``W1`` and ``U`` (He-scaled), ``theta0`` zero (the
        policy then plays the base heuristic's candidates by the value prior x value)."""
        return NetWeights(
            W1=rng.normal(0.0, np.sqrt(2.0 / 64), (self.d_in, hidden)),
            b1=np.zeros(hidden), theta0=np.zeros(self.n_features),
            U=rng.normal(0.0, 0.01, (self.n_features, hidden)), wv=np.zeros(hidden),
            bv=np.array([0.5]))

    def quantise(self, w: NetWeights) -> np.ndarray:
        """The int64 set of ``w`` (:mod:`tajsim.engine.net_nb`'s layout: header, b1, W1
        input-major, theta0, U, wv, bv)."""
        h = w.hidden
        header = np.array([self.d_in, h, self.n_features, SHIFT], np.int64)
        assert len(header) == SET_HEADER
        return np.concatenate([
            header, _fixed(w.b1, SHIFT), _fixed(w.W1, SHIFT).reshape(-1),
            _fixed(w.theta0, THETA_SHIFT), _fixed(w.U, SHIFT).reshape(-1), _fixed(w.wv, SHIFT),
            _fixed(w.bv, 2 * SHIFT)])

    @staticmethod
    def reference_hidden(quantised: np.ndarray, x: np.ndarray) -> np.ndarray:
        """The set's hidden units for inputs ``x`` (int64[D_IN]): int64[H], units 2**-SHIFT."""
        d, h = int(quantised[0]), int(quantised[1])
        b1 = quantised[SET_HEADER:SET_HEADER + h]
        w1 = quantised[SET_HEADER + h:SET_HEADER + h + d * h].reshape(d, h)
        return np.maximum(b1 + np.asarray(x, np.int64) @ w1, 0)

    def reference_scores(self, quantised: np.ndarray, x: np.ndarray, phi: np.ndarray
                         ) -> tuple[np.ndarray, int]:
        """The kernels' candidate scores in NumPy: (int64[n_cand], the value head in units
        2**-2 SHIFT) for inputs ``x`` (int64[D_IN]) and features ``phi`` (int64[n_cand,
        N_FEATURES])."""
        d, h, nf = int(quantised[0]), int(quantised[1]), int(quantised[2])
        hidden = self.reference_hidden(quantised, x)
        at = SET_HEADER + h + d * h
        theta0 = quantised[at:at + nf]
        u = quantised[at + nf:at + nf + nf * h].reshape(nf, h)
        wv_at = at + nf + nf * h
        wv, bv = quantised[wv_at:wv_at + h], int(quantised[wv_at + h])
        theta = theta0 + ((u @ hidden) >> (2 * SHIFT - THETA_SHIFT))
        phi = np.asarray(phi, np.int64)
        scores = value_prior_fixed(self.value_prior) * phi[:, 0] + phi @ theta
        return scores, int(bv + wv @ hidden)

    @staticmethod
    def save_net_file(path: str | Path, w: NetWeights) -> None:
        """Write ``w`` as ``.npz`` (float32 arrays: a few hundred KB at most)."""
        arrays: dict[str, Any] = {name: np.asarray(a, np.float32)
                                  for name, a in w.arrays().items()}
        arrays["meta"] = np.array(json.dumps(w.meta, sort_keys=True))
        with open(path, "wb") as fh:
            np.savez_compressed(fh, **arrays)

    def load_net_file(self, path: str | Path) -> tuple[NetWeights, int]:
        """(the weights, the fingerprint of their set, now known to the kernels) from a
        ``.npz`` file; anything missing or out of shape is a one-line ``UserError``."""
        where = str(path)
        try:
            with np.load(path, allow_pickle=False) as data:
                missing = [n for n in (*ARRAY_NAMES, "meta") if n not in data.files]
                if missing:
                    raise UserError(f"net weights file {where!r} lacks {', '.join(missing)}; "
                                    f"expected the arrays {', '.join(ARRAY_NAMES)} and meta "
                                    "(written by tajsim train --agent net)")
                raw = {n: data[n] for n in ARRAY_NAMES}
                not_real = [n for n, a in raw.items() if a.dtype.kind not in "iuf"]
                if not_real:
                    raise UserError(f"net weights file {where!r}: {', '.join(not_real)} not "
                                    "real numbers; expected float arrays (written by tajsim "
                                    "train --agent net)")
                arrays = {n: np.asarray(a, np.float64) for n, a in raw.items()}
                meta = json.loads(str(data["meta"]))
        except UserError:
            raise  # a ValueError too: already the one line
        except (OSError, ValueError, zipfile.BadZipFile) as exc:
            raise UserError(f"cannot read net weights file {where!r} ({exc}); expected a .npz "
                            "written by tajsim train --agent net") from None
        h = arrays["b1"].shape[0] if arrays["b1"].ndim == 1 else -1
        nf = self.n_features
        shapes = {"W1": (self.d_in, h), "b1": (h,), "theta0": (nf,), "U": (nf, h),
                  "wv": (h,), "bv": (1,)}
        game = f"{self.game}'s " if self.game else ""
        for name, shape in shapes.items():
            if arrays[name].shape != shape:
                raise UserError(f"net weights file {where!r}: {name} has shape "
                                f"{arrays[name].shape}; expected {shape} ({game}D_IN="
                                f"{self.d_in}, {nf} features, H hidden units)")
        if not 1 <= h <= MAX_HIDDEN:
            raise UserError(f"net weights file {where!r} has {h} hidden units; expected 1 to "
                            f"{MAX_HIDDEN}")
        for name, a in arrays.items():
            if not np.all(np.isfinite(a)) or np.max(np.abs(a), initial=0.0) > MAX_ABS_WEIGHT:
                raise UserError(f"net weights file {where!r}: {name} holds a weight that is "
                                f"not finite or above {MAX_ABS_WEIGHT:g} in size; expected "
                                "finite weights within it")
        trained = meta.get("train_cpu_s") if isinstance(meta, dict) else None
        if not isinstance(meta, dict) or not (
                trained is None or (isinstance(trained, (int, float))
                                    and not isinstance(trained, bool) and math.isfinite(trained))):
            raise UserError(f"net weights file {where!r}: meta is not a JSON object with a "
                            "number train_cpu_s; expected the meta tajsim train --agent net "
                            "writes")
        w = NetWeights(meta=meta, **arrays)
        return w, self.remember_set(self.quantise(w))


def net_file(env: str, shipped: Path) -> Path:
    """The weights file a wing's ``net`` plays: the file the environment variable ``env``
    (``TAJSIM_<GAME>_NET``) names when set, else the ``shipped`` file."""
    named = os.environ.get(env, "")
    return Path(named) if named else shipped


def load_wing_net_file(fmt: NetFormat, path: str | Path | None, env: str, shipped: Path
                       ) -> tuple[NetWeights, int] | None:
    """The weights and fingerprint of ``path`` (default :func:`net_file`), or None when that
    is the ``shipped`` file and it does not exist (``net`` is then not registered). A bad file
    is a one-line ``UserError``, prefixed with ``env:`` when the variable named it."""
    net_path = Path(path) if path is not None else net_file(env, shipped)
    if not net_path.is_file() and net_path == shipped:
        return None
    try:
        return fmt.load_net_file(net_path)
    except UserError as exc:
        if os.environ.get(env, "") and Path(os.environ[env]) == net_path:
            raise UserError(f"{env}: {exc}") from None
        raise
