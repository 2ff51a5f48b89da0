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
every registered game and diffs it. Each game declares the games played into them
(``GameSpec.golden_cases``, in ``tajsim/games/<name>/golden.py``): adding a game or a case needs
no edit here.

The files change whenever a game's rules kernels, its strategies, the seed derivation, the text
of its ``Game.__str__`` / ``action_label`` or its component data change. After such an intended
change, regenerate them with this script and review the diff.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tajsim.engine.golden_case import GoldenCase

GOLDEN_ROOT = Path(__file__).resolve().parent / "golden"
REGENERATE = "PYTHONPATH=. python tests/make_golden.py"



def golden_cases() -> dict[str, dict[str, GoldenCase]]:
    """game -> case name -> :class:`GoldenCase`: what each registered game declares
    (``GameSpec.golden_cases``, in ``tajsim/games/<name>/golden.py``)."""
    from tajsim.games.registry import GAMES

    return {name: {case.name: case for case in spec.golden_cases} for name, spec in GAMES.items()}


def golden_path(game: str, name: str) -> Path:
    """The transcript file of case ``name``: in the game's ``golden_dir`` (``tests/golden/<game>``
    when it declares none)."""
    from tajsim.games.registry import get_game

    folder = get_game(game).golden_dir or GOLDEN_ROOT / game
    return Path(folder) / f"{name}.txt"


def case_transcript(game: str, case: GoldenCase) -> str:
    """The transcript text of a declared case (deterministic)."""
    return transcript(game, case.players, case.edition, case.seed, case.game_id,
                      tuple(case.strategies), dict(case.options) or None)


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
    for game, cases in golden_cases().items():
        if args.game and game != args.game:
            continue
        for name, case in cases.items():
            path = golden_path(game, name)
            path.parent.mkdir(parents=True, exist_ok=True)
            text = case_transcript(game, case)
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
