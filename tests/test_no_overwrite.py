"""Never overwrite, never mislead (issue 23): ``tajsim run`` and ``tajsim report`` write only into
an empty folder or their own earlier output (marked), ``report`` refuses a --game its runs do not
record, and a full disk leaves no half-written file. Each test is the command as a user types
it: its exit status, its one line, and every file it must not touch compared byte for byte."""

from __future__ import annotations

import errno
import json
import os
import shutil
from pathlib import Path

import matplotlib.image
import pytest
from click.testing import CliRunner

from tajsim.cli.main import cli
from tajsim.reporting.experiments import default_report_dir
from tajsim.reporting.outputs import MARK, Owner, check_output_folder, read_owner
from tajsim.running.experiments import load_experiment

ROOT = Path(__file__).resolve().parent.parent
EXPERIMENTS = ROOT / "experiments"

#: A small experiment: 2 runs of a few games, played in a second once compiled.
MINI = """
name = "mini"
analyses = ["win_rates_by_strategy"]
[simulate]
games = 24
players = 3
strategies = ["greedy", "random"]
seed = 3
[report]
sections = ["overview", "win_rates"]
"""


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args))


def one_line_error(res, *needles: str) -> str:
    """The one error line on stderr (a report's progress lines may come before it)."""
    assert res.exit_code == 2, res.output
    lines = [line for line in res.stderr.splitlines() if not line.startswith("report: section")]
    assert len(lines) == 1 and lines[0].startswith("error: "), res.stderr
    assert "Traceback" not in res.output
    for needle in needles:
        assert needle in lines[0], res.stderr
    return lines[0] + "\n"


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file()}


@pytest.fixture
def users_folder(tmp_path) -> Path:
    """A folder of the user's own: a report.md and a summary.csv tajsim did not write."""
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "report.md").write_text("# My own notes\n")
    (folder / "summary.csv").write_text("mine,1\n")
    return folder


@pytest.fixture
def mini(tmp_path) -> Path:
    path = tmp_path / "mini.toml"
    path.write_text(MINI)
    return path


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory) -> Path:
    """A finished Taj Mahal run directory."""
    out = tmp_path_factory.mktemp("run") / "run"
    res = invoke("simulate", "-n", "40", "-p", "3", "-s", "greedy,random", "--seed", "2",
                 "--out", str(out), "-w", "1", "-q")
    assert res.exit_code == 0, res.output
    return out


# -- tajsim run -----------------------------------------------------------------------------------
def test_run_refuses_a_folder_of_the_users_own_files(users_folder):
    before = snapshot(users_folder)
    one_line_error(invoke("run", str(EXPERIMENTS / "default.toml"), "--out", str(users_folder)),
                   f"--out {str(users_folder)!r} holds other files (report.md, summary.csv)",
                   "--force")
    assert snapshot(users_folder) == before


def test_run_refuses_another_shipped_reports_folder(tmp_path):
    """`--out reports/seat_advantage` overwrote more than 10 tracked files of that report."""
    other = tmp_path / "seat_advantage"
    shutil.copytree(ROOT / "reports" / "seat_advantage", other)
    before = snapshot(other)
    one_line_error(invoke("run", str(EXPERIMENTS / "default.toml"), "--out", str(other)),
                   "holds the output of tajsim run of experiment 'seat_advantage' (tajmahal), "
                   "not of tajsim run of experiment 'default' (tajmahal)")
    assert snapshot(other) == before


def test_every_shipped_report_folder_is_its_own_experiments(tmp_path):
    """`make report` (and `tajsim run experiments/X.toml`) rewrites reports/X in place: each
    shipped folder carries the mark of the experiment that writes it, and no other's."""
    # kind = "compensation" files are tajsim balance's, whose folders carry its own mark
    # component files (a [provenance] table: Taj Mahal's variants) are runs' inputs, no reports
    experiments = sorted(p for p in EXPERIMENTS.rglob("*.toml")
                         if 'kind = "compensation"' not in p.read_text()
                         and "\n[provenance]" not in p.read_text())
    assert experiments
    for path in experiments:
        exp = load_experiment(path)
        folder = ROOT / default_report_dir(exp)
        assert read_owner(folder) == Owner("run", exp.name, exp.game), folder
        check_output_folder(folder, Owner("run", exp.name, exp.game))  # no UserError
    # every folder a run wrote is an experiment's (a command's own output, such as `tajsim
    # profile`'s, carries its command's mark instead)
    runs = [m for m in sorted((ROOT / "reports").rglob(MARK))
            if (owner := read_owner(m.parent)) is not None and owner.command == "run"]
    assert len(runs) == len(experiments)


def test_run_writes_again_into_its_own_folder_and_force_writes_into_others(mini, tmp_path,
                                                                          users_folder):
    out = tmp_path / "out"
    assert invoke("run", str(mini), "--out", str(out), "-w", "1", "-q").exit_code == 0
    assert read_owner(out) == Owner("run", "mini", "tajmahal")
    report = (out / "report.md").read_bytes()
    res = invoke("run", str(mini), "--out", str(out), "-w", "1", "-q")
    assert res.exit_code == 0, res.output
    assert (out / "report.md").read_bytes() == report
    # --force writes into the user's folder; their other files stay
    (users_folder / "notes.txt").write_text("keep me")
    res = invoke("run", str(mini), "--out", str(users_folder), "-w", "1", "-q", "--force")
    assert res.exit_code == 0, res.output
    assert (users_folder / "notes.txt").read_text() == "keep me"
    assert read_owner(users_folder) == Owner("run", "mini", "tajmahal")


def test_a_bad_experiment_marks_nothing(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text(MINI.replace('"random"]', '"nosuch"]'))
    out = tmp_path / "out"
    one_line_error(invoke("run", str(bad), "--out", str(out)), "nosuch")
    assert not out.exists()


# -- tajsim report --------------------------------------------------------------------------------
def test_report_refuses_a_report_it_did_not_write(run_dir, users_folder):
    before = snapshot(users_folder)
    one_line_error(invoke("report", str(run_dir), "--out", str(users_folder)),
                   "holds other files (report.md, summary.csv)", "--force")
    assert snapshot(users_folder) == before


def test_report_writes_again_into_its_own_folder_not_another_reports(run_dir, tmp_path):
    out = tmp_path / "report"
    assert invoke("report", str(run_dir), "--out", str(out), "-q").exit_code == 0
    assert read_owner(out) == Owner("report", str(run_dir.resolve()), "tajmahal")
    first = snapshot(out)
    assert invoke("report", str(run_dir), "--out", str(out), "-q").exit_code == 0
    assert snapshot(out) == first  # the same bytes: written again in place
    # another run's report into it is refused (and allowed with --force)
    other = tmp_path / "other-run"
    shutil.copytree(run_dir, other)
    one_line_error(invoke("report", str(other), "--out", str(out)),
                   f"holds the output of tajsim report of results {str(run_dir.resolve())!r}")
    assert snapshot(out) == first
    assert invoke("report", str(other), "--out", str(out), "-q", "--force").exit_code == 0


def test_report_refuses_a_run_directory_as_its_output(run_dir):
    before = snapshot(run_dir)
    one_line_error(invoke("report", str(run_dir), "--out", str(run_dir)),
                   "holds other files (aggregates, chunks, manifest.json and 1 more)")
    assert snapshot(run_dir) == before


def test_report_of_an_experiment_folder_into_itself_is_allowed(mini, tmp_path):
    out = tmp_path / "mini"
    assert invoke("run", str(mini), "--out", str(out), "-w", "1", "-q").exit_code == 0
    res = invoke("report", str(out), "--out", str(out), "-q")
    assert res.exit_code == 0, res.output
    assert read_owner(out) == Owner("run", "mini", "tajmahal")  # still the experiment's


def test_report_game_other_than_the_runs_is_refused(run_dir, tmp_path):
    """`report RUN --game maharaja` on a Taj Mahal run exited 0 without the Taj Mahal
    sections."""
    out = tmp_path / "report"
    one_line_error(invoke("report", str(run_dir), "--out", str(out), "--game", "maharaja"),
                   "--game maharaja does not match RESULTS",
                   "records Taj Mahal games (game tajmahal); expected --game tajmahal")
    assert not out.exists()
    assert invoke("report", str(run_dir), "--out", str(out), "--game", "tajmahal",
                  "-q").exit_code == 0


def test_report_of_an_experiment_folder_reports_its_runs_game(tmp_path):
    """An experiment folder has no manifest of its own: the game comes from its runs."""
    folder = tmp_path / "exp"
    (folder / "runs" / "a").mkdir(parents=True)
    (folder / "runs" / "a" / "manifest.json").write_text(json.dumps({"game": "maharani"}))
    one_line_error(invoke("report", str(folder), "--out", str(tmp_path / "r"), "-g",
                          "tajmahal"), "records Maharani games (game maharani)")


# -- a full disk ----------------------------------------------------------------------------------
def test_report_onto_a_full_disk_is_one_line_and_leaves_no_half_written_file(run_dir, tmp_path,
                                                                            monkeypatch):
    """The disk fills in the middle of the first file written: one line, exit 2; every file in the
    folder is the old one or a whole new one, and no temporary is left."""
    out = tmp_path / "report"
    assert invoke("report", str(run_dir), "--out", str(out), "-q").exit_code == 0
    before = snapshot(out)
    (out / "fig_win_rate_by_strategy.png").unlink()  # so the figure would be a new file
    import tajsim.running.run_files as run_files

    real_fdopen = os.fdopen

    class FullDisk:
        """A file that takes half of what is written, then runs out of space."""

        def __init__(self, fh):
            self.fh = fh

        def write(self, data):
            self.fh.write(data[: len(data) // 2])
            raise OSError(errno.ENOSPC, "No space left on device")

        def __getattr__(self, name):
            return getattr(self.fh, name)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.fh.close()

    def fdopen(fd, mode="r", *args, **kwargs):
        fh = real_fdopen(fd, mode, *args, **kwargs)
        return FullDisk(fh) if "w" in mode else fh

    monkeypatch.setattr(run_files.os, "fdopen", fdopen)
    one_line_error(invoke("report", str(run_dir), "--out", str(out)),
                   f"cannot write the report into {str(out)!r} (No space left on device)",
                   "run the same command again")
    monkeypatch.undo()
    after = snapshot(out)
    assert not [name for name in after if Path(name).name.startswith(".") and
                Path(name).name != MARK]  # no temporary left
    assert "fig_win_rate_by_strategy.png" not in after  # not half written: not written
    assert {k: v for k, v in before.items() if k != "fig_win_rate_by_strategy.png"} == after
    for png in out.glob("*.png"):
        matplotlib.image.imread(png)  # each one whole
    assert invoke("report", str(run_dir), "--out", str(out), "-q").exit_code == 0
    assert snapshot(out) == before


# -- ladder and tune write only where the user points ----------------------------------------------
def test_ladder_without_output_writes_nothing_in_the_checkout():
    """`tajsim ladder` without -o rewrote docs/strategies.md of the checkout."""
    docs = [ROOT / "docs" / "strategies.md", ROOT / "docs" / "strategies.json"]
    before = [p.read_bytes() for p in docs]
    one_line_error(invoke("ladder", "-s", "balanced,greedy", "--search", "", "--random-games",
                          "4"), "--output is missing", "docs/strategies.md")
    one_line_error(invoke("ladder", "--render-only", str(docs[1])), "--output is missing")
    assert [p.read_bytes() for p in docs] == before


def test_ladder_records_its_output_in_the_command_it_prints(tmp_path):
    out = tmp_path / "ladder.md"
    res = invoke("ladder", "-s", "balanced,greedy", "--search", "", "--random-games", "4",
                 "--field-games", "4", "--h2h-games", "4", "--python-games", "2", "--output",
                 str(out), "-q")
    assert res.exit_code == 0, res.output
    assert f"tajsim ladder --game tajmahal --output {out} --seed 2024" in out.read_text()
    assert json.loads(out.with_suffix(".json").read_text())["config"]["command"].startswith(
        f"tajsim ladder --game tajmahal --output {out} ")


def test_shipped_ladder_commands_name_their_output():
    """The regenerating command each strategies document shows writes that document."""
    for md in [ROOT / "docs" / "strategies.md", *sorted((ROOT / "docs" / "games").rglob(
            "*.md"))]:
        for line in md.read_text().splitlines():
            if line.startswith("tajsim ladder "):
                assert f"--output {md.relative_to(ROOT)} " in line, (md, line)


def test_tune_writes_its_preset_only_where_write_points(tmp_path):
    """`tune --write` wrote into the package's presets file."""
    from tajsim.games.registry import get_game

    package = get_game("tajmahal").tuning.presets_path()
    before = package.read_bytes()
    out = tmp_path / "my-presets.toml"
    res = invoke("tune", "--field", "random", "--generations", "1", "--popsize", "4",
                 "--games", "4", "--heldout", "8", "--write", str(out), "--name", "mine", "-q")
    assert res.exit_code == 0, res.output
    assert package.read_bytes() == before
    text = out.read_text()
    assert text.count("[presets.mine]") == 1 and "[presets.balanced]" in text
    get_game("tajmahal").tuning.check_presets(out)  # a valid presets file
    # again into the same file: the new preset is added, the others kept
    res = invoke("tune", "--field", "random", "--generations", "1", "--popsize", "4",
                 "--games", "4", "--heldout", "8", "--write", str(out), "--name", "other", "-q")
    assert res.exit_code == 0, res.output
    text = out.read_text()
    assert text.count("[presets.mine]") == 1 and text.count("[presets.other]") == 1
    # a file that is not a presets file is refused before any game
    bad = tmp_path / "bad.toml"
    bad.write_text("not = = toml")
    one_line_error(invoke("tune", "--write", str(bad)), str(bad))
    assert bad.read_text() == "not = = toml"
