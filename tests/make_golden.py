"""Regenerate the golden playthrough transcripts in ``tests/golden/<game>/``.

Usage (from the repository root)::

    PYTHONPATH=. python tests/make_golden.py          # rewrite every file of every game
    PYTHONPATH=. python tests/make_golden.py --check  # only report which files differ

A transcript (like OpenSpiel's ``integration_tests/playthroughs``) is one whole game, with the
``random`` strategy in every seat or the compiled policies side by side, which pins their
decisions too: before each action the state (``game.transcript_state()``, by default
``str(game)``), the legal actions (numbers) and
the chosen action with its label, then the referee's events of that action (``Game.events``,
lines starting ``  * ``); at the end the final state, scores (returns), score parts, ranks and
winners. The conformance suite (``tests/test_conformance.py``) replays every file of
every registered game and diffs it; :data:`GOLDEN` lists the games played into them.

The files change whenever a game's rules kernels, its strategies, the seed derivation, the text
of its ``Game.__str__`` / ``action_label`` or its component data change. After such an intended
change, regenerate them with this script and review the diff.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

GOLDEN_ROOT = Path(__file__).resolve().parent / "golden"
REGENERATE = "PYTHONPATH=. python tests/make_golden.py"

# game -> name -> (players, edition, master seed, game id, strategies: one per seat[, rule
# options switched on])
GOLDEN: dict[str, dict[str, tuple]] = {
    "tajmahal": {
        "2p_2018": (2, "2018", 1, 0, ("random",) * 2),
        "4p_2018": (4, "2018", 2, 5, ("random",) * 4),
        "5p_2000": (5, "2000", 3, 7, ("random",) * 5),
        "4p_2018_strategies": (4, "2018", 4, 3, ("greedy", "balanced", "ismcts:iterations=60",
                                                 "network")),
    },
    "maharaja": {
        "2p_random": (2, "basic", 1, 0, ("random",) * 2),
        "4p_random": (4, "basic", 2, 5, ("random",) * 4),
        "5p_random_options": (5, "basic", 3, 7, ("random",) * 5,
                              {"penalty_per_turn": True, "static_order": True,
                               "free_palace_site": True}),
        "4p_strategies": (4, "basic", 4, 3, ("greedy", "balanced",
                                             "search:iterations=16:candidates=3", "tollroad")),
        "3p_presets": (3, "basic", 5, 1, ("rusher", "hoarder", "character")),
    },
    "maharani": {
        "2p_random": (2, "2012", 1, 0, ("random",) * 2),
        "3p_random": (3, "2012", 2, 4, ("random",) * 3),
        "4p_random": (4, "2012", 3, 7, ("random",) * 4),
        "4p_strategies": (4, "2012", 4, 2, ("greedy", "balanced", "mcts:iterations=40",
                                            "thrifty")),
        "2p_strategies_target_marker": (2, "2012", 5, 1, ("artisans", "zones"),
                                        {"target_marker": True}),
    },
    "nothanks": {
        "3p_random": (3, "2004", 1, 0, ("random",) * 3),
        "5p_strategies": (5, "2004", 2, 3, ("greedy", "random", "greedy:threshold=2",
                                            "greedy:threshold=15", "random")),
        "7p_random": (7, "2004", 3, 5, ("random",) * 7),
    },
}


def golden_path(game: str, name: str) -> Path:
    return GOLDEN_ROOT / game / f"{name}.txt"


def transcript(game: str, n_players: int, edition: str, seed: int, game_id: int,
               strategies: tuple[str, ...], options: dict[str, bool] | None = None) -> str:
    """The transcript text of one game (deterministic)."""
    from tajsim.games.registry import get_game
    from tajsim.play.mixed import play_game

    spec = get_game(game)
    shown = "random" if set(strategies) == {"random"} else ",".join(strategies)
    lines = [
        f"# tajsim golden playthrough: players={n_players} edition={edition} seed={seed} "
        f"game_id={game_id} strategies={shown}"
        + (f" options={','.join(sorted(options))}" if options else ""),
        f"# regenerate: {REGENERATE}",
    ]
    lines += spec.game_class(n_players, edition, seed=seed, game_id=game_id,
                             options=options).transcript_header()
    step = 0
    pending: list = []

    def events(played):
        if pending:
            before, action = pending.pop()
            lines.extend(f"  * {e}" for e in played.events(before, action, played.state))

    def on_action(played, player, action):
        nonlocal step
        events(played)
        legal = played.legal_actions()
        lines.append("")
        lines.append(f"## step {step}")
        lines.append(played.transcript_state())
        lines.append(f"legal ({len(legal)}): {' '.join(map(str, legal))}")
        forced = " (only legal action)" if len(legal) == 1 else ""
        lines.append(f"-> P{player}: {action} {played.action_label(action)}{forced}")
        pending.append((played.state.copy(), action))
        step += 1

    played = play_game(list(strategies), edition, seed=seed, game_id=game_id,
                       on_action=on_action, game=game, options=options)
    events(played)
    lines.append("")
    lines.append("## final")
    lines.append(str(played))
    lines.append(f"returns: {played.scores()}")
    for p in range(n_players):
        parts = " ".join(f"{k}={v}" for k, v in played.score_parts(p).items())
        lines.append(f"P{p} parts: {parts}")
    lines.append(f"ranks: {played.ranks()}")
    lines.append(f"winners: {played.winners()}")
    lines.append(f"actions: {len(played.actions)}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="report differences, write nothing")
    parser.add_argument("--game", default=None, help="only this game")
    args = parser.parse_args(argv)
    differ = 0
    for game, files in GOLDEN.items():
        if args.game and game != args.game:
            continue
        for name, config in files.items():
            path = golden_path(game, name)
            path.parent.mkdir(parents=True, exist_ok=True)
            text = transcript(game, *config)
            old = path.read_text() if path.exists() else None
            if old == text:
                print(f"{game}/{path.name}: unchanged")
                continue
            differ += 1
            if args.check:
                print(f"{game}/{path.name}: DIFFERS")
            else:
                path.write_text(text)
                print(f"{game}/{path.name}: written ({len(text.splitlines())} lines)")
    return 1 if (args.check and differ) else 0


if __name__ == "__main__":
    sys.exit(main())
