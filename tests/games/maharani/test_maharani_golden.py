"""Golden playthroughs: whole Maharani games replayed and compared line by line with
``tests/games/maharani/golden/*.txt`` (random seats, and the compiled strategies side by side,
which pins their decisions too).

If a difference is intended (a rules fix, new component data, a new text format), regenerate:

    PYTHONPATH=. python tests/games/maharani/maharani_golden.py

and review ``git diff tests/games/maharani/golden``.
"""

from __future__ import annotations

import difflib

import pytest
from maharani_golden import GAMES, GOLDEN_DIR, transcript

REGENERATE = "PYTHONPATH=. python tests/games/maharani/maharani_golden.py"


@pytest.mark.parametrize("name", sorted(GAMES))
def test_golden_playthrough(name):
    path = GOLDEN_DIR / f"{name}.txt"
    assert path.exists(), f"{path} is missing; create it with: {REGENERATE}"
    want = path.read_text()
    got = transcript(*GAMES[name])
    if got == want:
        return
    diff = list(difflib.unified_diff(want.splitlines(), got.splitlines(), f"golden/{name}.txt",
                                     "this run", n=2, lineterm=""))
    shown = "\n".join(diff[:120]) + ("\n..." if len(diff) > 120 else "")
    pytest.fail(f"playthrough {name} differs from its golden file.\nIf the change is intended, "
                f"regenerate with: {REGENERATE}\n{shown}", pytrace=False)


def test_golden_files_cover_scorings_and_every_phase():
    text = "".join((GOLDEN_DIR / f"{name}.txt").read_text() for name in GAMES)
    for phrase in ("is scored:", "pays 2 gold for the second tile", "turns the action marker",
                   "puts a new", "moves its", "chooses:", "game over (complete)", "refill:",
                   "leaves play", "refreshes"):
        assert phrase in text, phrase
