"""Regenerate the Maharani golden playthroughs in ``tests/games/maharani/golden/``.

Usage (from the repository root)::

    PYTHONPATH=. python tests/games/maharani/maharani_golden.py          # rewrite every file
    PYTHONPATH=. python tests/games/maharani/maharani_golden.py --check  # report differences

A transcript is one whole game: before each action the state (``str(game)``: the turntable,
the palace drawn as text, every seat's gold, markers and reserve), the legal actions (numbers)
and the chosen action with its label, then the referee's events of that action; at the end the
final state, scores, parts, ranks and winners. ``test_maharani_golden.py`` replays the same
games and diffs. The files change whenever the rules kernels, the strategies, the seed
derivation, the display text or the component data change: after an intended change,
regenerate and review the diff.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

GOLDEN_DIR = Path(__file__).resolve().parent / "golden"

# name -> (master seed, game id, strategies: one per seat, rule options)
GAMES = {
    "2p_random": (1, 0, ("random",) * 2, {}),
    "3p_random": (2, 4, ("random",) * 3, {}),
    "4p_random": (3, 7, ("random",) * 4, {}),
    "4p_strategies": (4, 2, ("greedy", "balanced", "mcts:iterations=40", "thrifty"), {}),
    "2p_strategies_target_marker": (5, 1, ("artisans", "zones"), {"target_marker": True}),
}


def transcript(seed: int, game_id: int, strategies: tuple[str, ...],
               options: dict[str, bool]) -> str:
    """The transcript text of one game (deterministic)."""
    from tajsim.games.maharani.engine.game import Game, play_game

    n = len(strategies)
    shown = "random" if set(strategies) == {"random"} else ",".join(strategies)
    lines = [
        f"# tajsim golden playthrough: maharani players={n} seed={seed} game_id={game_id} "
        f"strategies={shown} options={sorted(k for k, v in options.items() if v)}",
        "# regenerate: PYTHONPATH=. python tests/games/maharani/maharani_golden.py",
    ]
    game0 = Game(n, seed=seed, game_id=game_id, options=options)
    lines.append(f"# components: {game0.components.digest()}")
    step = 0
    pending: dict[str, object] = {}

    def on_action(game, player, action):
        nonlocal step
        if pending:
            lines.extend("  * " + e for e in game.events(pending["before"], pending["action"],
                                                          game.state))
        legal = game.legal_actions()
        lines.append("")
        lines.append(f"## step {step}")
        lines.append(str(game))
        lines.append(f"legal ({len(legal)}): {' '.join(map(str, legal))}")
        forced = " (only legal action)" if len(legal) == 1 else ""
        lines.append(f"-> P{player}: {action} {game.action_label(action)}{forced}")
        pending["before"] = game.state.copy()
        pending["action"] = action
        step += 1

    game = play_game(list(strategies), seed=seed, game_id=game_id, options=options,
                     on_action=on_action)
    lines.extend("  * " + e for e in game.events(pending["before"], pending["action"],
                                                  game.state))
    lines.append("")
    lines.append("## final")
    lines.append(str(game))
    lines.append(f"returns: {game.scores()}")
    for p in range(n):
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
