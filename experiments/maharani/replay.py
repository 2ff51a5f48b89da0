"""Print a Maharani game the way a referee follows it (what ``tajsim replay --game maharani``
will print once wired): each action with its events, the palace drawn as text at the start and
at each quarter scoring, the final ranks.

Usage: PYTHONPATH=. python experiments/maharani/replay.py [--players 3] [--seed 1] [--game-id 0]
           [--strategies random,random,random] [--option target_marker]
"""

from __future__ import annotations

import argparse
import sys

from tajsim.games.maharani.engine import enums as E
from tajsim.games.maharani.engine.game import Game, play_game


def replay_text(players: int, seed: int, game_id: int, strategies: list[str],
                options: dict[str, bool]) -> str:
    lines: list[str] = []
    pending: dict = {}
    game0 = Game(players, seed=seed, game_id=game_id, options=options)
    lines += [f"Maharani, {players} players, seed {seed}, game {game_id}, strategies "
              f"{', '.join(strategies)}, options {sorted(options) or 'none'}",
              f"components {game0.components.digest()}", "", game0.turntable_text(),
              game0.palace_text(), ""]

    def flush(game: Game) -> None:
        if not pending:
            return
        before, action = pending["before"], pending["action"]
        for e in game.events(before, action, game.state):
            lines.append(f"    {e}")
        if game.quarters_scored(before, game.state):
            lines.append(game.palace_text())
        lines.append("")

    def on_action(game: Game, player: int, action: int) -> None:
        flush(game)
        if (int(game.state[E.S_PHASE]) == E.PHASE_FIRST
                and int(game.state[E.S_TILES_THIS_TURN]) == 0):  # a turn starts
            lines.append(f"Turn {int(game.state[E.S_TURN]) + 1}: {game.seat_name(player)} — "
                         + game.turntable_text())
        lines.append(f"  P{player}: {game.action_label(action)}")
        pending["before"] = game.state.copy()
        pending["action"] = action

    game = play_game(strategies, seed=seed, game_id=game_id, options=options,
                     on_action=on_action)
    flush(game)
    lines.append(f"Final gold {game.scores()}, ranks {game.ranks()}, winners "
                 f"{', '.join(f'P{p}' for p in game.winners())}")
    for p in range(players):
        parts = ", ".join(f"{k} {v}" for k, v in game.score_parts(p).items())
        lines.append(f"  P{p}: {parts}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game-id", type=int, default=0)
    parser.add_argument("--strategies", default=None)
    parser.add_argument("--option", action="append", default=[])
    args = parser.parse_args(argv)
    strategies = (args.strategies.split(",") if args.strategies
                  else ["random"] * args.players)
    if len(strategies) != args.players:
        parser.error(f"{len(strategies)} strategies for {args.players} players")
    sys.stdout.write(replay_text(args.players, args.seed, args.game_id, strategies,
                                 {o: True for o in args.option}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
