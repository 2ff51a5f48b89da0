"""Golden playthroughs: whole games replayed and compared line by line with tests/golden/*.txt.

If a difference is intended (a rules fix, new component data, a new text format), regenerate:

    PYTHONPATH=. python tests/make_golden.py

and review ``git diff tests/golden``.
"""

from __future__ import annotations

import difflib

import pytest
from make_golden import GAMES, GOLDEN_DIR, transcript

REGENERATE = "PYTHONPATH=. python tests/make_golden.py"


@pytest.mark.parametrize("name", sorted(GAMES))
def test_golden_playthrough(name):
    path = GOLDEN_DIR / f"{name}.txt"
    assert path.exists(), f"{path} is missing; create it with: {REGENERATE}"
    want = path.read_text()
    got = transcript(*GAMES[name])
    if got == want:
        return
    head_want, head_got = want.splitlines()[:3], got.splitlines()[:3]
    note = ""
    if head_want[2:3] != head_got[2:3]:
        note = (f"\nThe component data changed ({head_want[2:3]} -> {head_got[2:3]}): golden "
                f"files follow tajsim/engine/data.")
    diff = list(difflib.unified_diff(want.splitlines(), got.splitlines(), f"golden/{name}.txt",
                                     "this run", n=2, lineterm=""))
    shown = "\n".join(diff[:120]) + ("\n..." if len(diff) > 120 else "")
    pytest.fail(f"playthrough {name} differs from its golden file.{note}\nIf the change is "
                f"intended, regenerate with: {REGENERATE}\n{shown}", pytrace=False)
