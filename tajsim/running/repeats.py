"""Runs that replay their own games: a deterministic line-up on a game whose only chance is its
setup.

When every strategy of a line-up draws no chance (``StrategySpec.is_deterministic``: a
deterministic strategy at temperature 0) and the game declares that its setup is its only chance
(``GameSpec.chance_only_in_setup``) and how many setups it has
(``GameSpec.enumerated_setups``), a game is a function of its setup and its seating. A run with
more games than distinct setups x seatings then plays some games several times: its intervals
look tighter than the information behind them. :func:`repeat_note` says so in one line (the
CLI prints it, the report's overview states it), pointing to ``setups = "enumerated"`` or a
temperature. Taj Mahal and Maharani draw chance during play, so they never get the line.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pandas as pd

from tajsim.engine.spec import GameSpec
from tajsim.running.config import RunConfig, lineup_codes

__all__ = ["deterministic_lineup", "repeat_note", "repeat_note_for_config",
           "repeat_note_for_results"]


def deterministic_lineup(spec: GameSpec, labels: Iterable[str]) -> bool:
    """Whether ``spec``'s games between the strategies ``labels`` (``name:key=value`` texts)
    are a function of the setup and the seating: the setup is the game's only chance and no
    strategy draws any. Labels the registry cannot parse (Python seats) count as drawing."""
    if not spec.chance_only_in_setup:
        return False
    for label in labels:
        try:
            strategy, vec = spec.strategies.parse(str(label))
        except Exception:  # noqa: BLE001 - a label that does not parse is no compiled strategy
            return False
        if not strategy.is_deterministic(vec):
            return False
    return True


def repeat_note(spec: GameSpec, labels: Iterable[str], games: int, seatings: int,
                games_per_setup: int = 1) -> str | None:
    """One line saying that a run replays games, or None when it does not.

    ``labels``: the run's strategies; ``games``: how many it plays; ``seatings``: how many
    distinct seat assignments of them it plays; ``games_per_setup``: consecutive games that
    share a setup."""
    labels = list(labels)
    if spec.enumerated_setups is None or not deterministic_lineup(spec, labels):
        return None
    setups = int(np.asarray(spec.enumerated_setups()).size)
    distinct = setups * max(1, int(seatings))
    repeats_within_setup = int(games_per_setup) > max(1, int(seatings))
    if games <= distinct and not repeats_within_setup:
        return None
    per_game = max(games / distinct, games_per_setup / max(1, seatings))
    example = f"{labels[0].split(':')[0]}:temperature=1"
    return (f"Repeated games: these strategies draw no chance and {spec.title}'s only chance is "
            f"its setup, so its {games:,} games hold at most {distinct:,} distinct ones "
            f"({setups:,} setups x {seatings:,} seating{'s' if seatings != 1 else ''}; each "
            f"played about {per_game:.1f} times) and the intervals look tighter than the "
            f"information behind them; play each setup once (setups = \"enumerated\", at most "
            f"{distinct:,} games) or give the strategies a temperature ({example}).")


def repeat_note_for_config(config: RunConfig, spec: GameSpec) -> str | None:
    """:func:`repeat_note` of a run configuration (its seatings counted from its line-ups)."""
    ids = np.arange(min(config.games, 1 << 16), dtype=np.int64)
    codes = lineup_codes(config.seating, config.seat_entries, config.players, ids)
    seatings = len({tuple(row) for row in codes.tolist()})
    return repeat_note(spec, config.labels, config.games, seatings, config.games_per_setup)


def repeat_note_for_results(spec: GameSpec, results: pd.DataFrame) -> str | None:
    """:func:`repeat_note` of a results frame (one row per player per game): the games, the
    seatings they show and the most games sharing a ``setup_id``, counted per run (seed, player
    count, edition, variant); the first note found."""
    keys = [c for c in ("seed", "n_players", "edition", "variant", "run_id")
            if c in results.columns]
    groups = results.groupby(keys, sort=False, observed=True) if keys else [((), results)]
    for _key, part in groups:
        by_game = part.sort_values("seat").groupby("game_id", sort=False)["strategy"]
        seatings = by_game.agg(lambda s: tuple(s.astype(str))).nunique()
        per_setup = part.drop_duplicates("game_id").groupby("setup_id").size().max() \
            if "setup_id" in part.columns else 1
        note = repeat_note(spec, part["strategy"].astype(str).unique(), by_game.ngroups,
                           int(seatings), int(per_setup))
        if note is not None:
            return note
    return None
