"""Restricted play: a restriction that plainly hurts is detected, a null one is not told from
zero, and the analysis, its report section and the experiment-file refusal work end to end."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from tajsim.analysis.registry import run_analyses
from tajsim.analysis.restricted import WIN_RATE, restricted_play, split_restriction
from tajsim.cli.main import cli
from tajsim.errors import UserError
from tajsim.games.tajmahal.analyses.synthetic import make_synthetic_results

HURT, NULL, BASE = "balanced:forbid=goods", "balanced:forbid=crown", "balanced"


def _rotated(restricted: str, strength: float, seed: int, n_games: int = 4000) -> pd.DataFrame:
    """One restricted seat against three unrestricted ones, seats rotated; the restricted seat's
    latent strength is ``strength`` (0: the restriction costs nothing)."""
    frame = make_synthetic_results(
        n_games, strategies=(restricted, BASE),
        lineups=[[restricted if seat == turn else BASE for seat in range(4)] for turn in range(4)],
        strategy_strength={restricted: strength, BASE: 0.0}, seed=seed)
    return frame.assign(seed=seed)


def test_split_restriction():
    assert split_restriction("balanced:temperature=1:forbid=governor") == (
        "balanced:temperature=1", "governor")
    assert split_restriction("balanced:forbid=none") == ("balanced", "")
    assert split_restriction("search:iterations=8") == ("search:iterations=8", "")


def test_a_restriction_that_hurts_is_detected_and_a_null_one_is_not():
    frame = pd.concat([_rotated(HURT, -1.5, seed=71), _rotated(NULL, 0.0, seed=72)],
                      ignore_index=True)
    table = restricted_play(frame).set_index(["restriction", "measure"])
    hurt, null = table.loc[("goods", WIN_RATE)], table.loc[("crown", WIN_RATE)]
    assert hurt["significant"] and hurt["loss"] > 0.1 and hurt["ci_low"] > 0
    assert hurt["paired_ci_low"] > 0
    assert not null["significant"]
    assert null["ci_low"] < 0 < null["ci_high"]
    assert table.loc[("goods", "score"), "loss"] > 0  # a weaker player also scores less
    assert (table["level"] == BASE).all()
    assert (table["n"] == 4000).all()
    assert (table["n_restricted"] == 4000).all() and (table["n_unrestricted"] == 12000).all()
    # the loss is the unrestricted seats' mean minus the restricted seat's
    assert hurt["loss"] == pytest.approx(hurt["unrestricted"] - hurt["restricted"])


def test_refusals():
    plain = make_synthetic_results(200, seed=3)
    with pytest.raises(UserError, match="no restricted strategy"):
        restricted_play(plain)
    with pytest.raises(UserError, match="column 'palaces'"):
        restricted_play(_rotated(HURT, -1.0, seed=4, n_games=40), measures=("palaces",))
    lonely = _rotated(HURT, -1.0, seed=5, n_games=40)
    lonely["strategy"] = lonely["strategy"].astype(str).replace(BASE, "greedy")
    with pytest.raises(UserError, match="never sits at a table"):
        restricted_play(lonely)


def test_registry_passes_the_score_measures():
    frame = _rotated(HURT, -1.0, seed=6, n_games=200)
    out = run_analyses(frame, ["restricted_play"], game="tajmahal")["restricted_play"]
    assert list(out["measure"]) == [WIN_RATE, "score"]  # Taj Mahal's score is points


TINY = """
name = "restricted-tiny"
game = "maharaja"
title = "tiny restricted play"
analyses = ["restricted_play"]

[simulate]
games = 16
players = 4
rotate = true
seed = 5

[[runs]]
name = "governor"
strategies = ["balanced:forbid=governor", "balanced", "balanced", "balanced"]

[[runs]]
name = "outer"
strategies = ["balanced:forbid=outer_palaces", "balanced", "balanced", "balanced"]

[report]
sections = ["overview", "restricted"]
"""


def test_end_to_end_run(tmp_path: Path):
    path = tmp_path / "restricted.toml"
    path.write_text(TINY)
    out = tmp_path / "out"
    res = CliRunner().invoke(cli, ["run", str(path), "--out", str(out), "-w", "1", "-q"])
    assert res.exit_code == 0, res.output
    report = (out / "report.md").read_text()
    assert "## Restricted play" in report
    # the family of restrictions gets one Holm statement, each loss its detectable size, and
    # "costs most" is a tested argmax
    assert "Family-wise:" in report and "The smallest win-rate loss these games detect" in report
    assert "costs most" in report
    assert (out / "fig_restricted_play.png").exists()
    table = pd.read_csv(out / "table_restricted_play.csv")
    assert set(table["restriction"]) == {"governor", "outer_palaces"}
    assert set(table["measure"]) == {WIN_RATE, "palaces", "gold"}  # Maharaja's score_display
    assert (table["n"] == 16).all()
    assert np.isfinite(table["loss"]).all()


REFUSED = """
name = "refused"
game = "nothanks"
analyses = ["restricted_play"]

[simulate]
games = 4
players = 3
strategies = ["random"]
"""


def test_a_game_without_restrictions_refuses_the_experiment(tmp_path: Path):
    path = tmp_path / "refused.toml"
    path.write_text(REFUSED)
    out = tmp_path / "o"
    res = CliRunner().invoke(cli, ["run", str(path), "--out", str(out)])
    assert res.exit_code == 2, res.output
    assert "declares restrictions" in res.stderr and res.stderr.count("\n") == 1
    assert not out.exists()


def test_a_restriction_under_which_the_seat_never_wins_removes_the_game():
    """A seat that (almost) never wins has lost the game, not a feature: flagged, whatever its
    loss, and a restriction that merely hurts is not."""
    frame = pd.concat([_rotated(HURT, -1.5, seed=73), _rotated(NULL, 0.0, seed=74)],
                      ignore_index=True)
    never = frame["strategy"] == HURT
    frame.loc[never, "winner"] = False  # the restricted seat wins no game
    table = restricted_play(frame).set_index(["restriction", "measure"])
    gone = table.loc[("goods", WIN_RATE)]
    assert gone["restricted"] == 0 and gone["restricted_win_high"] < 0.01
    assert table.loc["goods", "removes_game"].all()
    assert not table.loc["crown", "removes_game"].any()
    assert table.loc[("crown", WIN_RATE), "restricted_win_high"] > 0.2
