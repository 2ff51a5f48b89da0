"""A game of the results played again step by step, for report pictures of a final state."""

from __future__ import annotations

from typing import Any

from tajsim.engine.base_game import BaseGame
from tajsim.play.mixed import play_game
from tajsim.reporting.render import ReportContext

#: Columns that, with the seat, identify one game's rows in a results frame of several runs.
GAME_KEYS = ("variant", "run_id", "seed", "n_players", "game_id")


def replay_first_game(ctx: ReportContext, components: Any) -> BaseGame | None:
    """The first game of ``ctx.results`` played again with ``components`` (the same game as the
    batch runner's: a pure function of the seed, game id, setup id, strategies and rule
    options), or None when its scores do not match the recorded ones (a custom strategy, other
    rule options or components): a report never draws a state it cannot vouch for.

    The run's rule options (``ctx.config["options"]``) are tried first, then none.
    """
    r = ctx.results
    first = r.iloc[0]
    keys = [c for c in GAME_KEYS if c in r.columns]
    rows = r[(r[keys] == first[keys]).all(axis=1)].sort_values("seat")
    strategies = [str(s) for s in rows["strategy"]]
    recorded = [int(x) for x in rows["score"]]
    edition = str(first["edition"]) if "edition" in r.columns else None
    option_sets: list[Any] = []
    for candidate in (ctx.config.get("options"), None):
        if candidate not in option_sets:
            option_sets.append(candidate)
    for options in option_sets:
        try:
            game = play_game(strategies, edition=edition, seed=int(first["seed"]),
                             game_id=int(first["game_id"]),
                             setup_id=int(first.get("setup_id", first["game_id"])),
                             components=components, game=ctx.spec,
                             options=options if isinstance(options, dict) else None)
        except Exception:  # noqa: BLE001 - a strategy the registry does not know: no picture
            return None
        if game.scores() == recorded:
            return game
    return None
