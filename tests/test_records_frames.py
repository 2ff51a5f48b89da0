"""The frames ``tajsim.simulate`` returns, and those read back from a stored run, are the frames
of the code before issue 42's chunk-file changes (the Parquet encoding, the NumPy gather of the
record-field columns, the games' own columns built a block at a time), bit for bit: every
registered game, ``random`` at the smallest and largest table, a heuristic line-up, a mixed
field, and Taj Mahal's other edition. ``tests/golden/records_frames.json`` holds each frame's
SHA-256 (column names and types, category labels and codes, values), recorded by the tree named
in its ``made_by`` with ``frame_digest`` below; the trajectory columns (``score_r<k>``,
Maharaja's ``turn_r<k>`` and ``draft_pos``, ``arc_rounds``) are among the hashed columns."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import tajsim
from tajsim.games.registry import GAMES

GOLDEN = json.loads((Path(__file__).parent / "golden" / "records_frames.json").read_text())
FRAMES: dict[str, dict] = GOLDEN["frames"]


def frame_digest(frame: pd.DataFrame) -> str:
    """SHA-256 of a results frame: its columns and their types, then each column's values
    (a category's labels and codes)."""
    h = hashlib.sha256()
    h.update(json.dumps([[c, str(frame[c].dtype)] for c in frame.columns]).encode())
    for c in frame.columns:
        col = frame[c]
        if isinstance(col.dtype, pd.CategoricalDtype):
            h.update(json.dumps([str(x) for x in col.cat.categories]).encode())
            h.update(np.ascontiguousarray(col.cat.codes.to_numpy()).tobytes())
        else:
            h.update(np.ascontiguousarray(col.to_numpy()).tobytes())
    return h.hexdigest()


def test_every_game_has_golden_frames():
    assert {case["simulate"]["game"] for case in FRAMES.values()} == set(GAMES)


@pytest.mark.parametrize("key", sorted(FRAMES))
def test_simulate_returns_the_old_frame(key):
    case = FRAMES[key]
    frame = tajsim.simulate(**case["simulate"], workers=1, progress=False)
    assert frame.shape == (case["rows"], case["columns"])
    if case["simulate"]["game"] != "nothanks":
        assert "score_r1" in frame.columns and "arc_rounds" in frame.columns
    if case["simulate"]["game"] == "maharaja":
        assert "turn_r1" in frame.columns and "draft_pos" in frame.columns
    assert frame_digest(frame) == case["sha256"]


@pytest.mark.parametrize("key", ["maharaja-random-5", "maharani-heuristics", "tajmahal-mixed"])
def test_a_stored_run_reads_back_the_old_frame(key, tmp_path):
    from tajsim.running.run_reading import load_results

    case = FRAMES[key]
    tajsim.simulate(**case["simulate"], workers=1, progress=False, out=tmp_path / "run")
    frame = load_results(tmp_path / "run")
    assert frame_digest(frame) == case["sha256"]
