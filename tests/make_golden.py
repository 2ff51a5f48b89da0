"""Regenerate the golden playthrough transcripts in ``tests/golden/``.

Usage (from the repository root)::

    PYTHONPATH=. python tests/make_golden.py          # rewrite every file
    PYTHONPATH=. python tests/make_golden.py --check  # only report which files differ

A transcript (like OpenSpiel's ``integration_tests/playthroughs``) is one whole game, with the
``random`` strategy in every seat or (``4p_2018_strategies``) the compiled policies side by side,
which pins their decisions too: before each action the state (``str(game)``), the legal actions
(numbers) and the chosen action with its label; at the end the final state, scores (returns),
ranks and winners. ``tests/test_golden.py`` replays the same games and diffs against the files.

The files change whenever the rules kernels, the strategies, the seed derivation, the
text of ``Game.__str__`` / ``action_label`` or the component data (``tajsim/engine/data``) change.
After such an intended change, regenerate them with this script and review the diff.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

GOLDEN_DIR = Path(__file__).resolve().parent / "golden"

# name -> (players, edition, master seed, game id, strategies: one per seat)
GAMES = {
    "2p_2018": (2, "2018", 1, 0, ("random",) * 2),
    "4p_2018": (4, "2018", 2, 5, ("random",) * 4),
    "5p_2000": (5, "2000", 3, 7, ("random",) * 5),
    "4p_2018_strategies": (4, "2018", 4, 3, ("greedy", "balanced", "ismcts:iterations=60",
                                             "network")),
}


def transcript(n_players: int, edition: str, seed: int, game_id: int,
               strategies: tuple[str, ...]) -> str:
    """The transcript text of one game (deterministic)."""
    from tajsim.games.tajmahal.engine.game import Game, play_game

    shown = "random" if set(strategies) == {"random"} else ",".join(strategies)
    lines = [
        f"# tajsim golden playthrough: players={n_players} edition={edition} seed={seed} "
        f"game_id={game_id} strategies={shown}",
        "# regenerate: PYTHONPATH=. python tests/make_golden.py",
    ]
    game0 = Game(n_players, edition, seed=seed, game_id=game_id)
    lines.append(f"# components: {game0.components.digest()}")
    lines.append(f"# province order: {', '.join(game0.province_order())}")
    step = 0

    def on_action(game, player, action):
        nonlocal step
        legal = game.legal_actions()
        lines.append("")
        lines.append(f"## step {step}")
        lines.append(str(game))
        lines.append(f"legal ({len(legal)}): {' '.join(map(str, legal))}")
        forced = " (only legal action)" if len(legal) == 1 else ""
        lines.append(f"-> P{player}: {action} {game.action_label(action)}{forced}")
        step += 1

    game = play_game(list(strategies), edition, seed=seed, game_id=game_id,
                     on_action=on_action)
    lines.append("")
    lines.append("## final")
    lines.append(str(game))
    lines.append(f"returns: {game.scores()}")
    for p in range(n_players):
        parts = " ".join(f"{k}={v}" for k, v in game.score_parts(p).items())
        lines.append(f"P{p} parts: {parts}")
    lines.append(f"ranks: {game.ranks()}")
    lines.append(f"winners: {game.winners()}")
    lines.append(f"actions: {len(game.actions)}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="report differences, write nothing")
    args = parser.parse_args(argv)
    GOLDEN_DIR.mkdir(exist_ok=True)
    differ = 0
    for name, spec in GAMES.items():
        path = GOLDEN_DIR / f"{name}.txt"
        text = transcript(*spec)
        old = path.read_text() if path.exists() else None
        if old == text:
            print(f"{path.name}: unchanged")
            continue
        differ += 1
        if args.check:
            print(f"{path.name}: DIFFERS")
        else:
            path.write_text(text)
            print(f"{path.name}: written ({len(text.splitlines())} lines)")
    return 1 if (args.check and differ) else 0


if __name__ == "__main__":
    sys.exit(main())
