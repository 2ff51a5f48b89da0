"""``tajsim train --agent net``: fit a game's ``net`` strategy by expert iteration from its
search (:mod:`tajsim.play.net_training`)."""

from __future__ import annotations

import math
import shlex
import sys
from pathlib import Path
from typing import Any

from tajsim.cli.options import Echo, check_writable_file, on_interrupt
from tajsim.errors import UserError
from tajsim.games.registry import get_game
from tajsim.play.net_training import NetTrainConfig, net_agent_of, train_net

__all__ = ["run_net_training"]


def run_net_training(*, game: str, output: Path | None, force: bool, install: bool, seed: int,
                     rounds: int, games: int, eval_games: int, players: tuple[int, ...],
                     edition: str | None, expert: str | None, hidden: int, epochs: int,
                     l2: float,
                     checkpoint: Path | None, resume: bool, workers: int, echo: Echo) -> None:
    """Check every argument, train, write the weights (module doc)."""
    if not math.isfinite(l2):
        raise UserError(f"--l2 {l2} is not allowed; expected a finite number >= 0")
    spec = get_game(game)
    agent = net_agent_of(spec)
    if output is None and not install:
        raise UserError("nowhere to write the weights; expected --output FILE (or --install "
                        "to replace the game's shipped net weights)")
    if output is not None and output.is_file() and not force:
        raise UserError(f"--output {str(output)!r} exists; expected a new file name, or "
                        "--force to replace it")
    targets = [p for p in (output, agent.data_file() if install else None) if p is not None]
    for path in targets:
        check_writable_file(path, "--output" if path == output else "--install")
    if checkpoint is not None:
        if checkpoint.is_file() and not (resume or force):
            raise UserError(f"--checkpoint {str(checkpoint)!r} exists; expected --resume to "
                            "continue it, --force to start again over it, or a new file name")
        if resume and not checkpoint.is_file():
            raise UserError(f"--resume: no checkpoint {str(checkpoint)!r}; expected the file "
                            "an earlier run wrote with --checkpoint")
        check_writable_file(checkpoint, "--checkpoint")
    elif resume:
        raise UserError("--resume needs --checkpoint FILE; expected the checkpoint to continue")
    if expert is not None:
        spec.strategies.parse(expert)  # checked before any game
    ed = spec.editions[spec.edition_index(edition if edition is not None
                                          else spec.default_edition)]
    for n in players:
        spec.check_players(n, ed)
    cfg = NetTrainConfig(seed=seed, rounds=rounds, games=games, players=players, edition=ed,
                         expert=expert or agent.expert, hidden=hidden, epochs=epochs, l2=l2,
                         eval_games=eval_games, workers=workers)
    echo.detail(f"validated: train {agent.strategy} for {spec.title} {ed}, {players} players: "
                f"{rounds} rounds x {games} games, expert {cfg.expert}, {hidden} hidden units, "
                f"seed {seed}, {workers} workers")
    on_interrupt("no weights written (the checkpoint, if any, holds the last whole round)")
    result = train_net(spec, cfg, checkpoint=checkpoint, resume=resume, log=echo.say)
    argv = ["tajsim", "train", *sys.argv[2:]] if len(sys.argv) > 1 and sys.argv[1] == "train" \
        else ["tajsim", "train", "--game", spec.name, "--agent", "net", "--seed", str(seed)]
    meta: dict[str, Any] = dict(result.weights.meta)
    meta["command"] = shlex.join(argv)
    result.weights.meta = meta
    for path in targets:
        try:
            agent.weights.save_net_file(path, result.weights)
        except OSError as exc:
            raise UserError(f"cannot write the weights to {str(path)!r} "
                            f"({exc.strerror or exc}); expected a writable file") from None
        echo.say(f"wrote {path}")
