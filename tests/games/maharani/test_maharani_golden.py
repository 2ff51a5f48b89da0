"""The Maharani golden playthroughs (``tests/golden/maharani/``, made by ``tests/make_golden.py``
and replayed by ``tests/test_conformance.py``) show every kind of event at least once."""

from __future__ import annotations

from pathlib import Path

GOLDEN_DIR = Path(__file__).resolve().parents[2] / "golden" / "maharani"


def test_golden_files_cover_scorings_and_every_phase():
    files = sorted(GOLDEN_DIR.glob("*.txt"))
    assert len(files) >= 5
    text = "".join(f.read_text() for f in files)
    for phrase in ("is scored:", "pays 2 gold for the second tile", "turns the action marker",
                   "puts a new", "moves its", "chooses:", "game over (complete)", "refill:",
                   "leaves play", "refreshes"):
        assert phrase in text, phrase
