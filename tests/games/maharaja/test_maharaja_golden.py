"""Golden Maharaja playthroughs: whole games replayed and compared line by line with
``tests/games/maharaja/golden/*.txt``.

If a difference is intended (a rules fix, new component data, a new text format), regenerate:

    PYTHONPATH=. python tests/games/maharaja/maharaja_golden.py

and review ``git diff tests/games/maharaja/golden``.
"""

from __future__ import annotations

import difflib

import pytest
from maharaja_golden import GAMES, GOLDEN_DIR, transcript

REGENERATE = "PYTHONPATH=. python tests/games/maharaja/maharaja_golden.py"


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


def test_golden_replays_as_records():
    """Each golden game's action list replays through ``Game.replay`` to the same end."""
    from tajsim.games.maharaja.engine.game import Game, MaharajaRecord, play_game

    for name, (_n, seed, game_id, strategies, options) in sorted(GAMES.items()):
        game = play_game(list(strategies), seed=seed, game_id=game_id, options=options)
        record = MaharajaRecord.from_json(game.record().to_json())
        again = Game.replay(record)
        assert again.state.tobytes() == game.state.tobytes(), name
        assert f"actions: {len(game.actions)}" in (GOLDEN_DIR / f"{name}.txt").read_text()
