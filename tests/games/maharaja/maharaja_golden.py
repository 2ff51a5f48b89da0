"""Regenerate the golden Maharaja playthroughs in ``tests/games/maharaja/golden/``.

Usage (from the repository root)::

    PYTHONPATH=. python tests/games/maharaja/maharaja_golden.py          # rewrite every file
    PYTHONPATH=. python tests/games/maharaja/maharaja_golden.py --check  # report differences

A transcript is one whole game: the components' digest and the governor order; at every
decision a compact state line (round, phase, seat, Maharaja, then per seat gold, palaces,
pool, architect, card), the legal actions (numbers), the chosen action with its label and the
referee's events; the full board (``str(game)``) at the start of every round; at the end the
final state, scores, parts, ranks and winners. ``test_maharaja_golden.py`` replays the same
games and diffs against the files.

The files change whenever the rules kernels, the strategies, the seed derivation, the text of
``Game.__str__`` / ``action_label`` / ``events`` or the component data change. After such an
intended change, regenerate them with this script and review the diff.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

GOLDEN_DIR = Path(__file__).resolve().parent / "golden"

# name -> (players, master seed, game id, strategies, rule options)
GAMES = {
    "2p_random": (2, 1, 0, ("random",) * 2, {}),
    "4p_random": (4, 2, 5, ("random",) * 4, {}),
    "5p_random_options": (5, 3, 7, ("random",) * 5,
                          {"penalty_per_turn": True, "static_order": True,
                           "free_palace_site": True}),
    "4p_strategies": (4, 4, 3, ("greedy", "balanced", "search:iterations=16:candidates=3",
                                "tollroad"), {}),
    "3p_presets": (3, 5, 1, ("rusher", "hoarder", "character"), {}),
}


def compact(game) -> str:
    from tajsim.games.maharaja.engine import enums as E

    s = game.state
    seats = " ".join(
        f"P{p}[g{int(s[E.S_GOLD + p])} pal{int(s[E.S_PALACES + p])} "
        f"pool{int(s[E.S_POOL + p])} @{int(s[E.S_ARCH + p])} c{int(s[E.S_CARD_OF + p])}]"
        for p in range(game.n_players))
    return (f"r{game.round} {game.phase} P{game.current_player} "
            f"M{int(s[E.S_MAHARAJA])} | {seats}")


def transcript(n_players, seed, game_id, strategies, options) -> str:
    """The transcript text of one game (deterministic)."""
    from tajsim.games.maharaja.engine import enums as E
    from tajsim.games.maharaja.engine.game import Game, play_game

    shown = "random" if set(strategies) == {"random"} else ",".join(strategies)
    game0 = Game(n_players, seed=seed, game_id=game_id, options=options)
    names = game0.components.city_names
    lines = [
        f"# tajsim Maharaja golden playthrough: players={n_players} seed={seed} "
        f"game_id={game_id} strategies={shown} options={sorted(options.items())}",
        "# regenerate: PYTHONPATH=. python tests/games/maharaja/maharaja_golden.py",
        f"# components: {game0.components.digest()}",
        "# governor order (bottom first): "
        + ", ".join(names[int(c)] for c in game0.state[E.S_GOV_ORDER0:E.S_GOV_ORDER0 + 7]),
    ]
    step = 0
    last_round = -1

    def on_action(game, player, action):
        nonlocal step, last_round
        if game.round != last_round:
            last_round = game.round
            lines.append("")
            when = f"round {game.round}" if game.round else "the setup"
            lines.append(f"### board before the first decision of {when}")
            lines.append(str(game))
        legal = game.legal_actions()
        lines.append(f"## step {step}: {compact(game)}")
        lines.append(f"legal ({len(legal)}): {' '.join(map(str, legal))}")
        forced = " (only legal action)" if len(legal) == 1 else ""
        lines.append(f"-> P{player}: {action} {game.action_label(action)}{forced}")
        step += 1

    def after(game, before, action):
        lines.extend(f"   {e}" for e in game.events(before, action, game.state))

    game = play_game(list(strategies), seed=seed, game_id=game_id, options=options,
                     on_action=on_action, after_action=after)
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
