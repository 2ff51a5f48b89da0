"""The re-audit's faults (issue 43, section 3), each as a user meets it: the command, its exit
status, its one line, and nothing already computed lost.

Ctrl-C is sent the way a terminal sends it, SIGINT to the process, by a hook at a known point
of the command (no timing race): ``signal.raise_signal`` where the command has something in
hand, or inside a finalizer where Python prints the ``KeyboardInterrupt`` as "Exception
ignored" and drops it (what happened to a Ctrl-C pressed while numba compiled: ``tajsim bench``
went on and exited 0).
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_no_overwrite import MINI  # the same small experiment

from tajsim.cli.main import cli

ROOT = Path(__file__).resolve().parents[1]

#: Runs ``tajsim ARGS`` after the hook (Python source, argument 1): SIGINT gets Python's own
#: handler first, as in a terminal, whatever disposition the test runner passes on.
RUNNER = """
import signal, sys
signal.signal(signal.SIGINT, signal.default_int_handler)

def ctrl_c():
    signal.raise_signal(signal.SIGINT)

class LostCtrlC:  # Ctrl-C raised where Python drops it (a finalizer)
    def __del__(self):
        signal.raise_signal(signal.SIGINT)

exec(sys.argv.pop(1))
from tajsim.cli.main import cli
sys.argv[0] = "tajsim"
cli()
"""


def tajsim_with(hook: str, *args: str, timeout: float = 240) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p))
    return subprocess.run([sys.executable, "-c", RUNNER, textwrap.dedent(hook), *args],
                          env=env, capture_output=True, text=True, timeout=timeout, cwd=ROOT)


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def last_line(text: str) -> str:
    return text.strip().splitlines()[-1]


# ---------------------------------------------------------------- Ctrl-C, one way everywhere


def test_ctrl_c_in_train_is_one_line_exit_130_and_writes_nothing(tmp_path):
    out = tmp_path / "w.toml"
    hook = """
    import tajsim.play.learning as learning
    def ctrl_c_at_once(*a, **k):
        ctrl_c()
    learning.collect_decisions = ctrl_c_at_once  # Ctrl-C as the first expert games start
    """
    proc = tajsim_with(hook, "train", "--game", "maharani", "--games", "5", "--rounds", "1",
                       "--eval-games", "2", "--final-games", "2", "--output", str(out))
    assert proc.returncode == 130, proc.stderr
    assert last_line(proc.stderr) == (f"interrupted: no weights written ('{out}' unchanged: "
                                      "train writes them at the end)")
    assert "Traceback" not in proc.stderr and "Aborted" not in proc.stderr
    assert not out.exists()


def test_ctrl_c_in_report_keeps_whole_files_and_says_so(tmp_path):
    run, out = tmp_path / "run", tmp_path / "rep"
    assert invoke("simulate", "-n", "40", "-p", "3", "--out", str(run), "-q").exit_code == 0
    hook = """
    import tajsim.reporting.report as report
    build = report.build_report
    def build_then_ctrl_c(*a, progress=None, **k):
        def say(line):
            progress(line)
            ctrl_c()  # after the first section
        return build(*a, progress=say, **k)
    report.build_report = build_then_ctrl_c
    """
    proc = tajsim_with(hook, "report", str(run), "--out", str(out), "--section", "overview",
                       "--section", "win_rates")
    assert proc.returncode == 130, proc.stderr
    assert last_line(proc.stderr) == (f"interrupted: the report in {out} is not finished "
                                      "(every file written there is whole); run the same "
                                      "command again")
    assert "Traceback" not in proc.stderr
    # the same command then writes the whole report into its own folder
    res = invoke("report", str(run), "--out", str(out), "-q", "--section", "overview",
                 "--section", "win_rates")
    assert res.exit_code == 0 and (out / "report.md").is_file()


def test_ctrl_c_in_ladder_is_one_line_exit_130(tmp_path):
    doc = tmp_path / "ladder.md"
    hook = """
    import tajsim.reporting.ladder as ladder
    def ctrl_c_at_once(*a, **k):
        ctrl_c()
    ladder.run_ladder = ctrl_c_at_once
    """
    proc = tajsim_with(hook, "ladder", "--game", "nothanks", "-p", "3", "--output", str(doc))
    assert proc.returncode == 130, proc.stderr
    assert last_line(proc.stderr) == (f"interrupted: nothing written ({doc} and its .json are "
                                      "written once every table has played)")
    assert "Aborted" not in proc.stderr and not doc.exists()


def test_ctrl_c_lost_while_bench_compiles_still_stops_it():
    """Pressed while numba compiles, the KeyboardInterrupt is dropped (here: in a finalizer
    run by a compilation); the command stops after the compilation all the same."""
    hook = """
    import numba
    from numba.core import event
    import tajsim.running.benchmarking as benchmarking

    class CtrlCWhileCompiling(event.Listener):
        fired = False
        def on_start(self, ev):
            if not self.fired:
                self.fired = True
                LostCtrlC()  # collected at once: the KeyboardInterrupt is lost
        def on_end(self, ev):
            pass

    estimate = benchmarking.estimate_game_seconds
    def compile_then_estimate(*a, **k):
        event.register("numba:compile", CtrlCWhileCompiling())
        numba.njit(lambda x: x + 1)(1)  # a compilation that Ctrl-C interrupts
        return estimate(*a, **k)
    benchmarking.estimate_game_seconds = compile_then_estimate
    """
    proc = tajsim_with(hook, "bench", "--game", "nothanks", "-p", "3", "--repeat", "1",
                       "--warmup", "0", "--seconds", "0.1")
    assert proc.returncode == 130, proc.stderr + proc.stdout
    assert last_line(proc.stderr) == "interrupted: stopped before the end; nothing was written"
    assert "games per run" not in proc.stdout  # stopped before any timed run


def test_ctrl_c_in_compare_and_simulate_say_the_same_as_before():
    """simulate and compare keep their own lines, now printed by the shared handler."""
    proc = tajsim_with("""
    import tajsim.running.simulate as simulate
    def ctrl_c_at_once(*a, **k):
        ctrl_c()
    simulate.run_simulation = ctrl_c_at_once
    """, "compare", "random", "greedy", "-n", "10", "-p", "2")
    assert proc.returncode == 130, proc.stderr
    assert last_line(proc.stderr) == "interrupted: nothing is kept (compare stores no games)"


# ---------------------------------------------------------------- train --output and --l2

TRAIN_SMALL = ("train", "--game", "maharani", "--games", "5", "--rounds", "1", "--eval-games",
               "2", "--final-games", "2", "-q")


def test_train_never_replaces_an_existing_output_without_force(tmp_path):
    mine = tmp_path / "components.toml"
    mine.write_text("# a file of mine\n")
    res = invoke(*TRAIN_SMALL, "--output", str(mine))
    assert res.exit_code == 2
    assert res.stderr.strip() == (f"error: --output '{mine}' exists; expected a new file "
                                  "name, or --force to replace it")
    assert mine.read_text() == "# a file of mine\n"


def test_train_force_replaces_the_output(tmp_path):
    mine = tmp_path / "w.toml"
    mine.write_text("# old weights\n")
    res = invoke(*TRAIN_SMALL, "--output", str(mine), "--force")
    assert res.exit_code == 0, res.stderr
    assert "[learned]" in mine.read_text()


@pytest.mark.parametrize("value", ["nan", "inf", "-inf"])
def test_train_refuses_a_penalty_that_is_not_a_finite_number(tmp_path, value):
    out = tmp_path / "w.toml"
    res = invoke(*TRAIN_SMALL, "--output", str(out), "--l2", value)
    assert res.exit_code == 2
    line = res.stderr.strip()
    assert "\n" not in line and line.startswith("error: ") and "--l2" in line and value in line
    assert not out.exists()


# ---------------------------------------------------------------- one label per strategy


def test_two_strategies_never_print_under_one_label():
    a, b = "balanced:forbid=goods+crown", "balanced:forbid=goods+connections"
    res = invoke("simulate", "-n", "4", "-p", "2", "-s", f"{a},{b}")
    assert res.exit_code == 0, res.stderr
    rows = res.output.split("by strategy:")[1].split("by seat:")[0].strip().splitlines()[1:]
    assert [row.split()[0] for row in rows] == [a, b]


def test_labels_too_long_for_the_column_keep_their_distinguishing_tails():
    from tajsim.running.aggregates import short_labels

    names = [f"balanced:palace={p}:connection=2:commodity=1:special=1:bonus=0.5:x={x}"
             for p in (1, 2) for x in (1, 2)]
    labels = short_labels(names, 22)
    assert len(set(labels.values())) == len(names)
    assert all(len(label) <= 22 or label == name for name, label in labels.items())
    assert labels[names[1]].startswith("balanced:") and labels[names[1]].endswith("x=2")


# ---------------------------------------------------------------- OpenSpiel bot specs

def _needs_openspiel():
    pytest.importorskip("pyspiel")


@pytest.mark.parametrize(("bot", "line"), [
    ("ismcts:seconds=nan", "error: seconds=nan in 'openspiel:ismcts:seconds=nan' is not "
     "allowed; expected a number > 0 (leave seconds out to count iterations)"),
    ("ismcts:seconds=-1", "error: seconds=-1 in 'openspiel:ismcts:seconds=-1' is not "
     "allowed; expected a number > 0 (leave seconds out to count iterations)"),
    ("mcts:uct_c=inf", "error: uct_c=inf in 'openspiel:mcts:uct_c=inf' is not allowed; "
     "expected a number >= 0"),
    ("ismcts:iterations=5:iterations=50", "error: iterations given twice in "
     "'openspiel:ismcts:iterations=5:iterations=50'; expected each key at most once"),
    ("ismcts:iterations=2.5", "error: iterations=2.5 in 'openspiel:ismcts:iterations=2.5' is "
     "not allowed; expected a whole number >= 1"),
])
def test_a_bad_openspiel_seat_is_refused_before_the_game(bot, line):
    _needs_openspiel()
    res = invoke("replay", "--game", "maharani", "-p", "2", "-s", f"openspiel:{bot},random")
    assert res.exit_code == 2
    assert res.stderr.strip() == line and res.stdout == ""  # no game played


LADDER_OS = ("ladder", "--game", "maharani", "--openspiel-only", "-p", "2",
             "--openspiel-players", "2")


def test_ladder_refuses_a_bot_setting_it_sets_itself(tmp_path):
    _needs_openspiel()
    res = invoke(*LADDER_OS, "--openspiel", "ismcts:iterations=50", "--output",
                 str(tmp_path / "l.md"))
    assert res.exit_code == 2
    assert res.stderr.strip() == (
        "error: --openspiel 'ismcts:iterations=50' sets iterations, which the ladder sets "
        "itself (--openspiel-iterations 20, the same for both sides, at equal iterations); "
        "expected the bot's other settings only (uct_c, rollouts, seed)")


@pytest.mark.parametrize(("hook", "bot", "line"), [
    ("sys.modules['open_spiel'] = None  # not installed", "ismcts",
     "error: OpenSpiel's bots needs the open_spiel package, which is not installed; install "
     "it with: pip install 'tajsim[interop]'"),
    ("", "cfr", "error: unknown OpenSpiel bot 'cfr' in 'openspiel:cfr'; expected one of: "
     "ismcts, mcts"),
])
def test_ladder_says_a_missing_openspiel_or_unknown_bot_before_compiling(tmp_path, hook, bot,
                                                                         line):
    if not hook:
        _needs_openspiel()
    proc = tajsim_with(hook, *LADDER_OS, "--openspiel", bot, "--output", str(tmp_path / "l.md"))
    assert proc.returncode == 2
    assert proc.stderr.strip() == line  # no compilation notice, no table heading first
    assert proc.stdout == ""


def test_ladder_says_how_many_games_an_openspiel_table_plays(tmp_path, monkeypatch):
    _needs_openspiel()
    import tajsim.cli.ladder as ladder_cli
    from tajsim.reporting.ladder import LadderConfig

    played = []
    monkeypatch.setattr(ladder_cli, "openspiel_tables", lambda cfg, log=None: played.append(
        cfg.openspiel_table_games()) or [])
    monkeypatch.setattr(ladder_cli, "render_openspiel", lambda rows, game: [])
    res = invoke(*LADDER_OS, "--openspiel", "ismcts", "--openspiel-games", "2", "--output",
                 str(tmp_path / "l.md"))
    assert res.exit_code == 0, res.stderr
    assert res.stderr.strip() == ("note: --openspiel-games 2: each OpenSpiel table plays 4 "
                                  "games (whole seat rotations: a multiple of 4 at 2 players)")
    assert played == [4]
    cfg = LadderConfig(game="maharani", openspiel_games=2, openspiel_players=2)
    assert cfg.openspiel_table_games() == 4
    assert LadderConfig(game="maharani", openspiel_games=42,
                        openspiel_players=2).openspiel_table_games() == 40


# ---------------------------------------------------------------- a quick look, not the report



def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file()}


@pytest.fixture
def fresh_checkout(tmp_path, monkeypatch):
    """A copy of experiments/default.toml and of its shipped report folder (no runs/, as a
    fresh checkout has), the working directory at its root."""
    import shutil

    (tmp_path / "experiments").mkdir()
    shutil.copy(ROOT / "experiments" / "default.toml", tmp_path / "experiments")
    shutil.copytree(ROOT / "reports" / "default", tmp_path / "reports" / "default",
                    ignore=shutil.ignore_patterns("runs"))
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_quick_look_never_replaces_the_shipped_report(fresh_checkout):
    before = snapshot(fresh_checkout / "reports")
    res = invoke("run", "experiments/default.toml", "--scale", "0.01")
    assert res.exit_code == 2
    assert res.stderr.strip() == (
        "error: 'reports/default' (the default --out) holds the full report of experiment "
        "'default'; a run at --scale 0.01 would replace it: expected --out DIR for a quick "
        "look (or --force to replace it)")
    assert snapshot(fresh_checkout / "reports") == before


def test_an_edited_experiment_never_replaces_the_shipped_report(fresh_checkout):
    before = snapshot(fresh_checkout / "reports")
    path = fresh_checkout / "experiments" / "default.toml"
    path.write_text(path.read_text().replace("games = 4000", "games = 40"))
    res = invoke("run", "experiments/default.toml")
    assert res.exit_code == 2
    assert res.stderr.strip() == (
        "error: 'reports/default' (the default --out) holds the report of another version of "
        "experiments/default.toml (its experiment.toml there has other settings); expected "
        "--out DIR for this one (or --force to replace that report)")
    assert snapshot(fresh_checkout / "reports") == before


def test_a_quick_look_goes_elsewhere_and_the_full_run_replaces_it(tmp_path):
    from tajsim.reporting.outputs import Owner, read_owner

    mini = tmp_path / "mini.toml"
    mini.write_text(MINI)
    out = tmp_path / "out"
    assert invoke("run", str(mini), "--out", str(out), "--scale", "0.5", "-w", "1",
                  "-q").exit_code == 0
    assert read_owner(out) == Owner("run", "mini", "tajmahal", 0.5)
    # the same quick look again resumes in place; another scale is refused
    assert invoke("run", str(mini), "--out", str(out), "--scale", "0.5", "-w", "1",
                  "-q").exit_code == 0
    res = invoke("run", str(mini), "--out", str(out), "--scale", "0.25", "-w", "1")
    assert res.exit_code == 2 and "experiment 'mini' at --scale 0.5; a run at --scale 0.25" in \
        res.stderr
    # the experiment's own run replaces its quick look (its runs played again: --restart)
    res = invoke("run", str(mini), "--out", str(out), "-w", "1", "-q", "--restart")
    assert res.exit_code == 0, res.stderr
    assert read_owner(out) == Owner("run", "mini", "tajmahal")


# ---------------------------------------------------------------- report in place


def test_an_experiments_report_rewritten_in_place_keeps_its_sections_and_title(tmp_path):
    mini = tmp_path / "mini.toml"
    mini.write_text(MINI.replace('[report]', '[report]\ntitle = "A mini experiment"'))
    out = tmp_path / "mini"
    assert invoke("run", str(mini), "--out", str(out), "-w", "1", "-q").exit_code == 0

    def headings() -> list[str]:
        return [line for line in (out / "report.md").read_text().splitlines()
                if line.startswith(("# ", "## "))]

    first = headings()
    res = invoke("report", str(out), "--out", str(out))
    assert res.exit_code == 0, res.stderr
    assert res.stdout.strip() == f"wrote {out / 'report.md'} and {out / 'report.html'}"
    assert headings() == first and first[0] == "# A mini experiment"



def test_a_report_of_several_runs_rewritten_in_place_is_the_one_the_run_wrote(tmp_path):
    # two runs with the same seed reuse game ids: read back as one frame they must stay
    # apart (run_id / variant), as `tajsim run` keeps them, not end in a traceback
    mini = tmp_path / "two.toml"
    mini.write_text(MINI.replace('name = "mini"', 'name = "two"').replace(
        "[report]", '[[runs]]\nname = "three"\nvariant = "3p"\n'
                    '[[runs]]\nname = "four"\nvariant = "4p"\nplayers = 4\n[report]'))
    out = tmp_path / "two"
    assert invoke("run", str(mini), "--out", str(out), "-w", "1", "-q").exit_code == 0
    written = (out / "report.md").read_text()
    tables = {f.name: f.read_bytes() for f in sorted(out.glob("table_*.csv"))}
    res = invoke("report", str(out), "--out", str(out), "--force")
    assert res.exit_code == 0, res.output
    assert "Traceback" not in res.output
    again = (out / "report.md").read_text()
    # the same report but for the experiment file it names (the stored copy)
    assert again.replace(str(out / "experiment.toml"), str(mini)) == written
    assert {f.name: f.read_bytes() for f in sorted(out.glob("table_*.csv"))} == tables


# ---------------------------------------------------------------- minor


def test_list_sections_of_a_missing_path_is_an_error():
    res = invoke("report", "/nonexistent", "--list-sections")
    assert res.exit_code == 2
    assert res.stderr.strip() == ("error: RESULTS '/nonexistent' does not exist; expected a "
                                  "Parquet file, a directory of Parquet files or a CSV file")
    assert res.stdout == ""


def test_a_player_count_as_text_is_said_to_be_no_integer():
    import tajsim
    from tajsim.errors import UserError

    with pytest.raises(UserError) as caught:
        tajsim.game("maharani", "3")
    assert str(caught.value) == ("player count '3' is not an integer; expected a whole number "
                                 "from 2 to 4 (Maharani)")


def test_replay_record_takes_the_readmes_json_record():
    import tajsim
    from tajsim.errors import UserError

    game = tajsim.Game(n_players=3, edition="2018", seed=7)     # the README's lines
    game.apply(game.legal_actions()[1])
    record = game.record().to_json()
    assert tajsim.replay_record(record).actions == game.actions
    with pytest.raises(UserError, match=r"GameRecord.from_json\(text\)"):
        tajsim.replay_record(record[:-2])


def test_train_prints_progress_lines_in_a_log():
    """In a log or a pipe train prints a line now and then, as simulate does: none in the
    first 10 s, one at each further tenth (5 s apart), and at least every 30 s even between
    counted games; the last state at the end."""
    import time

    from tajsim.cli.train import LineProgress

    now, lines = [0.0], []
    progress = LineProgress(write=lines.append, clock=lambda: now[0], beat_s=0.005)
    tick = progress.counter(100, "expert games")
    for _ in range(5):
        tick()
    assert lines == []  # quiet at first
    now[0] = 12.0
    for _ in range(10):
        tick()
    assert lines == ["training: 10 of 100 expert games, 12 s"]
    now[0] = 45.0  # no game for 33 s: the heartbeat says where it is
    deadline = time.monotonic() + 5
    while len(lines) < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert lines[1:] == ["training: 15 of 100 expert games, 45 s"]
    tick()
    progress.close()
    assert lines[2:] == ["training: 16 of 100 expert games, 45 s"]


# ---------------------------------------------------------------- long search games


def test_a_budget_that_makes_a_game_take_hours_is_said_before_it_starts(monkeypatch):
    import tajsim.running.simulate as simulate

    def ctrl_c_at_once(*a, **k):
        raise KeyboardInterrupt
        yield  # a generator, as the real one

    monkeypatch.setattr(simulate, "_play_missing", ctrl_c_at_once)
    res = invoke("simulate", "-n", "1", "-p", "4", "-s", "ismcts:ms=60000")
    assert res.exit_code == 130
    assert res.stderr.splitlines()[0] == (
        "note: one game of Taj Mahal with ismcts:ms=60000 at 4 players takes about 4.0 hours "
        "of one core: a smaller time budget (ms=) or fewer iterations for a quicker run")
    assert res.stderr.splitlines()[-1] == "interrupted: the finished chunks are lost (no --out)"
    quick = invoke("simulate", "-n", "2", "-p", "2", "-s", "ismcts:iterations=2")
    assert "note:" not in quick.stderr


@pytest.mark.parametrize("workers", ["1", "2"])
def test_ctrl_c_stops_a_long_search_game_within_seconds(workers):
    """`tajsim simulate -n 1 -p 2 -s ismcts:ms=2000` (minutes a game), Ctrl-C a second into
    the game: the search ends at once (tajsim.engine.stop), the run stops, nothing is kept.
    With -w 1 the game runs in the main thread itself, where Python's handler cannot run."""
    warm = invoke("simulate", "-n", "1", "-p", "2", "-s", "ismcts:iterations=2", "-q")
    assert warm.exit_code == 0  # the kernels compiled: the Ctrl-C comes during the game
    hook = """
    import atexit, os, signal, sys, threading, time
    import tajsim.running.executors as executors
    run_chunk = executors.run_chunk
    sent = []
    def ctrl_c_soon():
        time.sleep(1.0)
        sent.append(time.monotonic())
        os.kill(os.getpid(), signal.SIGINT)
    def run_chunk_then_ctrl_c(*a, **k):
        if not sent:
            threading.Thread(target=ctrl_c_soon, daemon=True).start()
        return run_chunk(*a, **k)
    executors.run_chunk = run_chunk_then_ctrl_c
    atexit.register(lambda: print(f"stopped after {time.monotonic() - sent[0]:.1f} s",
                                  file=sys.stderr) if sent else None)
    """
    proc = tajsim_with(hook, "simulate", "-n", "1", "-p", "2", "-s", "ismcts:ms=2000",
                       "-w", workers)
    assert proc.returncode == 130, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert lines[-2] == "interrupted: the finished chunks are lost (no --out)"
    seconds = float(lines[-1].split()[2])
    assert seconds < 15, lines  # a game takes minutes; about 1-4 s on a busy 2-core machine
