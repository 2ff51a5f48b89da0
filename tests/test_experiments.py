"""Experiment files: the shipped ones are valid, bad ones fail in one line, ``tajsim run`` ends
in a report and resumes."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from tajsim.cli.main import cli
from tajsim.errors import UserError
from tajsim.reporting.experiments import check_names, run_experiment
from tajsim.running.experiments import check_experiment, load_experiment, read_experiment
from tajsim.running.records import concat_results
from tajsim.running.simulate import simulate

EXPERIMENTS = Path(__file__).resolve().parent.parent / "experiments"
# kind = "compensation" files are seat-compensation studies, run by tajsim balance
SHIPPED = sorted(p for p in EXPERIMENTS.glob("*.toml")
                 if 'kind = "compensation"' not in p.read_text())
NEEDED = {"default", "seat_advantage", "score_composition", "commodity_value", "connections",
          "setup_balance", "tournament", "robustness"}


def test_the_needed_experiments_are_shipped():
    assert NEEDED <= {p.stem for p in SHIPPED}


@pytest.mark.parametrize("path", SHIPPED, ids=[p.stem for p in SHIPPED])
def test_shipped_experiment_is_valid(path):
    exp = load_experiment(path)
    assert exp.name == path.stem
    check_experiment(exp)
    check_names(exp)
    assert exp.analyses and exp.runs


def test_default_is_small():
    exp = load_experiment(EXPERIMENTS / "default.toml")
    assert 1000 <= exp.total_games <= 10_000


def test_matrix_and_runs_expand(tmp_path):
    exp = load_experiment(write(tmp_path, (
        "[simulate]\ngames = 10\nseed = 1\n[matrix]\nplayers = [2, 3]\n"
        "[[runs]]\nname = 'mirror'\nstrategies = ['balanced']\n"
        "[[runs]]\nname = 'field'\nstrategies = ['balanced', 'greedy']\nrotate = true\n")))
    names = [r.name for r in exp.runs]
    assert names == ["mirror-players=2", "mirror-players=3", "field-players=2",
                     "field-players=3"]
    assert exp.runs[3].params["players"] == 3 and exp.runs[3].params["strategies"] == [
        "balanced", "greedy"]
    rob = load_experiment(EXPERIMENTS / "robustness.toml")
    assert [r.variant for r in rob.runs][:2] == ["default", "alt-1"]
    assert rob.runs[2].simulate_kwargs()["components"] == {"alternative": 2}


def _seating_frame(runs) -> pd.DataFrame:
    """The seats the runner gives each game of ``runs`` (no games played; winners arbitrary)."""
    from tajsim.running.config import RunConfig, lineup_codes

    frames = []
    for run in runs:
        config = RunConfig.make(**run.simulate_kwargs())
        games = np.arange(config.games)
        codes = lineup_codes(config.seating, config.seat_entries, config.players, games)
        P = config.players
        frames.append(pd.DataFrame({
            "run_id": run.name, "game_id": np.repeat(games, P), "n_players": P,
            "seat": np.tile(np.arange(P), config.games),
            "strategy": np.asarray(config.labels)[codes.reshape(-1)],
            "winner": np.tile(np.arange(P) == 0, config.games),
        }))
    return pd.concat(frames, ignore_index=True)


def test_seat_advantage_design_shows_every_seat_the_same_line_ups(tmp_path):
    from tajsim.analysis.winrates import seat_lineup_balance

    exp = load_experiment(EXPERIMENTS / "seat_advantage.toml")
    balance = seat_lineup_balance(_seating_frame(exp.runs))
    assert balance["n_players"].tolist() == [2, 3, 4, 5]
    assert not balance["confounded"].any()
    assert (balance["imbalance"] == 0).all() and (balance["support_share"] == 1).all()
    # Two names rotated over the seats: the runner plays every cyclic fill in all its seat
    # rotations, so this is balanced at every player count too (games: whole 2 x 3 x 5 cycles).
    two_names = load_experiment(write(tmp_path, (
        "[simulate]\ngames = 990\nseed = 1\nstrategies = ['balanced', 'greedy']\n"
        "rotate = true\n[matrix]\nplayers = [2, 3, 4, 5]\n"))).runs
    balance = seat_lineup_balance(_seating_frame(two_names))
    assert not balance["confounded"].any() and (balance["imbalance"] == 0).all()
    # Shifting the fill by one seat per game (how runs were seated before) ties line-ups to
    # seats at odd player counts: the check must see that.
    shifted = _seating_frame(two_names)
    shifted["strategy"] = np.where((shifted["seat"] + shifted["game_id"]) % 2 == 0, "balanced",
                                   "greedy")
    flagged = seat_lineup_balance(shifted).set_index("n_players")["confounded"]
    assert flagged.to_dict() == {2: False, 3: True, 4: False, 5: True}


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "exp.toml"
    path.write_text(text)
    return path


@pytest.mark.parametrize("text,needle", [
    ("[simulate]\ngames = 10\nplayerz = 4\n", "simulate.playerz"),
    ("[simulate]\ngames = 'ten'\n", "simulate.games: 'ten', expected a value of type int"),
    # no [[runs]] written: the message names [simulate], not a runs[0] the user never wrote
    ("[simulate]\nplayers = 4\n", "no 'games' setting; expected games = N in [simulate]"),
    ("[simulate]\nplayers = 4\n[[runs]]\nname = 'a'\n",
     "runs[0]: {'players': 4}, expected a 'games' setting"),
    ("[simulate\ngames = 10\n", "not valid TOML"),
    ("colour = 'red'\n[simulate]\ngames = 10\n", "colour"),
    ("analyses = ['no_such_analysis']\n[simulate]\ngames = 10\n", "no_such_analysis"),
    ("[simulate]\ngames = 10\n[[runs]]\nname = 'a'\n[[runs]]\nname = 'a'\n", "distinct name"),
    ("[simulate]\ngames = 10\n[matrix]\nplayers = 4\n", "a non-empty list of values"),
    ("[simulate]\ngames = 10\n[matrix]\nkeep = [true, false]\n", "matrix.keep"),
    ("[simulate]\ngames = 10\nkeep = 'yes'\n",
     "simulate.keep: 'yes', expected a value of type bool"),
    ("[simulate]\ngames = 10\n[report]\nsections = ['nope']\n", "report.sections"),
    ("[simulate]\ngames = 10\n[report]\nequivalence_margin = 2\n",
     "report.equivalence_margin: 2, expected a win-rate margin between 0 and 1"),
])
def test_malformed_experiment_is_one_line(tmp_path, text, needle):
    with pytest.raises(UserError, match=None) as info:
        check_names(load_experiment(write(tmp_path, text)))
    assert needle in str(info.value) and "\n" not in str(info.value)


@pytest.mark.parametrize("text,needle", [
    ("[simulate]\ngames = 10\nstrategies = ['nope']\n", "strategy 'nope'"),
    ("[simulate]\ngames = 10\nplayers = 9\n", "player count 9"),
    ("[simulate]\ngames = 10\nboard = 'missing.toml'\n", "board file 'missing.toml'"),
])
def test_bad_run_settings_fail_before_anything_is_written(tmp_path, text, needle):
    out = tmp_path / "out"
    res = CliRunner().invoke(cli, ["run", str(write(tmp_path, text)), "--out", str(out)])
    assert res.exit_code == 2, res.output
    assert needle in res.stderr and res.stderr.count("\n") == 1
    assert not out.exists()


def test_missing_experiment_file(tmp_path):
    res = CliRunner().invoke(cli, ["run", str(tmp_path / "none.toml")])
    assert res.exit_code == 2 and "not found" in res.stderr


def test_run_default_experiment_ends_in_a_report(tmp_path):
    out = tmp_path / "default"
    res = CliRunner().invoke(cli, ["run", str(EXPERIMENTS / "default.toml"), "--out", str(out),
                                   "--scale", "0.05", "-q"], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    assert (out / "report.md").exists() and (out / "report.html").exists()
    assert (out / "experiment.toml").read_text() == (EXPERIMENTS / "default.toml").read_text()
    assert (out / "analyses" / "win_rates_by_strategy.csv").exists()
    summary = pd.read_csv(out / "summary.csv")
    assert summary.loc[summary["group"] == "all", "n"].item() == 200 * 4
    # the same command again resumes: nothing is simulated twice
    runs = out / "runs" / "main"
    stamp = {p: p.stat().st_mtime_ns for p in (runs / "chunks").iterdir()}
    again = CliRunner().invoke(cli, ["run", str(EXPERIMENTS / "default.toml"), "--out", str(out),
                                     "--scale", "0.05", "-q"], catch_exceptions=False)
    assert again.exit_code == 0
    assert stamp == {p: p.stat().st_mtime_ns for p in (runs / "chunks").iterdir()}
    # --restart plays it again: same games, new files
    fresh = CliRunner().invoke(cli, ["run", str(EXPERIMENTS / "default.toml"), "--out", str(out),
                                     "--scale", "0.05", "-q", "--restart"],
                               catch_exceptions=False)
    assert fresh.exit_code == 0
    assert all(p.stat().st_mtime_ns != t for p, t in stamp.items())
    assert pd.read_csv(out / "summary.csv").equals(summary)
    # other settings: refused as a resume, replaced with --restart
    bigger = ["run", str(EXPERIMENTS / "default.toml"), "--out", str(out), "--scale", "0.1", "-q"]
    res = CliRunner().invoke(cli, bigger)
    assert res.exit_code == 2 and "--restart" in res.output
    res = CliRunner().invoke(cli, [*bigger, "--restart"], catch_exceptions=False)
    assert res.exit_code == 0
    summary = pd.read_csv(out / "summary.csv")
    assert summary.loc[summary["group"] == "all", "n"].item() == 400 * 4


def test_several_runs_with_variants(tmp_path):
    text = """
name = "mini"
analyses = ["win_rates_by_strategy"]
[simulate]
games = 24
players = 3
strategies = ["greedy", "random"]
seed = 3
[[runs]]
name = "base"
variant = "default"
[[runs]]
name = "alt"
alternative = 1
variant = "alt-1"
[report]
sections = ["overview", "win_rates", "robustness"]
"""
    report = run_experiment(write(tmp_path, text), tmp_path / "out", workers=1)
    assert report.name == "report.md"
    table = pd.read_csv(tmp_path / "out" / "analyses" / "win_rates_by_strategy.csv")
    assert set(table["strategy"]) == {"greedy", "random"}
    results = read_experiment(load_experiment(tmp_path / "exp.toml"), tmp_path / "out").results
    assert results.groupby("variant", observed=True)["game_id"].nunique().to_dict() == {
        "default": 24, "alt-1": 24}
    # the alternative board is played: another setup, so other games
    base, alt = (results[results["variant"] == v].sort_values(["game_id", "seat"])
                 for v in ("default", "alt-1"))
    assert not np.array_equal(base["score"].to_numpy(), alt["score"].to_numpy())
    robustness = report.read_text().split("## Robustness", 1)[1]
    assert "alt-1" in robustness and "default" in robustness


def test_concat_results_keeps_categories():
    a = simulate(6, 2, ["greedy", "random"], seed=1)
    b = simulate(6, 3, ["random"], seed=1, components="alternative:1")
    both = concat_results([a, b], run_ids=["a", "b"], variants=["default", "alt"])
    assert len(both) == len(a) + len(b)
    assert isinstance(both["strategy"].dtype, pd.CategoricalDtype)
    assert list(both["strategy"].cat.categories) == ["greedy", "random"]
    assert list(both["run_id"].cat.categories) == ["a", "b"]
    assert list(both["variant"].cat.categories) == ["default", "alt"]
    assert both["edition"].dtype == a["edition"].dtype
    # bonus cities that exist on one board only are missing on the other
    only_b = set(b.columns) - set(a.columns)
    for col in only_b:
        assert both.loc[: len(a) - 1, col].isna().all()


def test_documented_example_is_valid(tmp_path):
    text = (Path(__file__).resolve().parent.parent / "docs" / "running.md").read_text()
    block = text.split("```toml\n", 1)[1].split("```", 1)[0]
    exp = load_experiment(write(tmp_path, block))
    assert [r.name for r in exp.runs] == [
        "shipped-players=3", "shipped-players=4", "shipped-players=5",
        "alt1-players=3", "alt1-players=4", "alt1-players=5"]
    check_experiment(exp)


def test_an_experiments_margin_is_accepted(tmp_path):
    from tajsim.running.experiments import MARGIN_KEY

    exp = load_experiment(write(tmp_path, "[simulate]\ngames = 10\n[report]\n"
                                          "equivalence_margin = 0.03\n"))
    assert exp.raw["report"][MARGIN_KEY] == 0.03


KEPT = """
name = "kept"
analyses = ["win_rates_by_strategy"]
[simulate]
games = 12
players = 3
strategies = ["greedy", "random"]
seed = 5
[[runs]]
name = "cheap"
variant = "cheap"
[[runs]]
name = "long"
strategies = ["greedy"]
variant = "long"
keep = true
"""


def _stamps(folder: Path) -> dict[Path, int]:
    return {p: p.stat().st_mtime_ns for p in sorted(folder.rglob("*")) if p.is_file()}


def test_a_kept_run_is_stored_where_git_keeps_it_and_played_alone_with_only(tmp_path):
    """A run of hours (``keep = true``) is played over several sittings: ``--only`` plays it
    alone (no report), into ``games/<run>/``, which .gitignore keeps; the whole file later
    reads it back instead of playing it again, and its results equal a run of the file in one
    go."""
    path = write(tmp_path, KEPT)
    exp = load_experiment(path)
    assert [(r.name, r.keep) for r in exp.runs] == [("cheap", False), ("long", True)]
    out = tmp_path / "out"
    assert exp.runs[1].folder(out) == out / "games" / "long"
    res = CliRunner().invoke(cli, ["run", str(path), "--out", str(out), "--only", "long",
                                   "-w", "1"], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    assert "played long; no report written" in res.output
    assert (out / "games" / "long" / "manifest.json").is_file()
    assert not (out / "runs").exists() and not (out / "report.md").exists()
    kept = _stamps(out / "games" / "long" / "chunks")
    # --status plays and writes nothing: where each run stands
    before = _stamps(out)
    res = CliRunner().invoke(cli, ["run", str(path), "--out", str(out), "--status"])
    assert res.exit_code == 0, res.output
    assert res.output.splitlines() == [
        f"run cheap: not played (12 games) in {out / 'runs' / 'cheap'}",
        f"run long: complete run: 1 of 1 chunks (12 games) in {out / 'games' / 'long'} (kept: "
        "git keeps its games)"]
    assert _stamps(out) == before
    res = CliRunner().invoke(cli, ["run", str(path), "--out", str(out), "-w", "1", "-q"],
                             catch_exceptions=False)
    assert res.exit_code == 0, res.output
    assert (out / "report.md").is_file() and (out / "runs" / "cheap" / "manifest.json").is_file()
    assert _stamps(out / "games" / "long" / "chunks") == kept  # read back, not played again
    both = read_experiment(exp, out).results
    whole = read_experiment(exp, _run_whole(tmp_path, path)).results
    pd.testing.assert_frame_equal(both, whole)
    # `tajsim report` rewrites it in place from both folders
    res = CliRunner().invoke(cli, ["report", str(out), "--out", str(out), "-q"],
                             catch_exceptions=False)
    assert res.exit_code == 0, res.output


def _run_whole(tmp_path: Path, path: Path) -> Path:
    out = tmp_path / "whole"
    run_experiment(path, out, workers=1)
    return out


def test_only_plays_into_the_report_of_an_earlier_version_of_the_file(tmp_path):
    """The folder's report may be of the file before a kept run was added: ``--only`` touches
    neither it nor the other runs; the whole file is refused there (another version)."""
    path = write(tmp_path, KEPT.split("[[runs]]\nname = \"long\"")[0])
    out = tmp_path / "out"
    run_experiment(path, out, workers=1)
    before = _stamps(out)
    path.write_text(KEPT)
    res = CliRunner().invoke(cli, ["run", str(path), "--out", str(out), "--only", "long",
                                   "-w", "1", "-q"], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    assert _stamps(out) == {**before, **_stamps(out / "games")}
    res = CliRunner().invoke(cli, ["run", str(path), "--out", str(out), "-w", "1", "-q"])
    assert res.exit_code == 2 and "another version" in res.stderr


def test_only_names_a_run_of_the_file(tmp_path):
    out = tmp_path / "out"
    res = CliRunner().invoke(cli, ["run", str(write(tmp_path, KEPT)), "--out", str(out),
                                   "--only", "lnog"])
    assert res.exit_code == 2, res.output
    assert "--only 'lnog' is not a run of" in res.stderr and "expected one of cheap, long" \
        in res.stderr and res.stderr.count("\n") == 1
    assert not out.exists()


def test_gitignore_keeps_a_kept_runs_games_and_not_the_others():
    root = EXPERIMENTS.parent
    if not (root / ".git").exists():
        pytest.skip("not a git checkout")
    import subprocess

    def ignored(rel: str) -> bool:
        return subprocess.run(["git", "check-ignore", "-q", "--no-index", rel],
                              cwd=root).returncode == 0

    kept = "reports/maharaja/skill/games/turnsearch-256"
    assert not ignored(f"{kept}/chunks/chunk-000000.parquet")
    assert not ignored(f"{kept}/aggregates/chunk-000000.npz")
    assert not ignored(f"{kept}/manifest.json")
    assert ignored(f"{kept}/.lock")
    assert ignored("reports/maharaja/skill/runs/random/chunks/chunk-000000.parquet")
