"""Seat compensation (issue 40, section 1): a per-seat amount of a game's currency given at setup,
a rule option carried in the rules code's high bits (tajsim.engine.compensation).

Off (or all 0) it changes nothing; on, the setup state holds the amounts, the final scores move
by them where nothing else changes, and it reaches every entry point (library, CLI, experiment
files, the stored run's identity, the GPU kernels)."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

import tajsim
from tajsim.cli.main import cli
from tajsim.engine import compensation as C
from tajsim.errors import UserError
from tajsim.games.registry import get_game
from tajsim.running.config import RunConfig
from tajsim.running.store import RunStore

GAMES = ("tajmahal", "maharaja", "maharani")
ROOT = Path(__file__).resolve().parents[1]


def test_packing_round_trips_and_zero_is_no_code():
    amounts = [0, 15.75, 5, 2.25, 1]
    code = C.pack(amounts)
    assert C.unpack(code | 0x3 | 1 << 9, 5) == tuple(amounts)
    assert C.strip(code | 0x3 | 1 << 9) == 0x3 | 1 << 9
    assert C.pack([0, 0, 0]) == 0
    # whole amounts draw nothing: every game gets them
    for seed in (0, 1, -5, 2**62):
        for s in (0, 2, 4):
            assert int(C.seat_compensation(np.int64(code), s, np.int64(seed))) == amounts[s]
    assert code < 2**63 and code & C.RULES_MASK == 0


def test_a_fractional_amount_is_drawn_per_game_with_its_probability():
    """``w + f/4`` gives ``w + 1`` in a share ``f/4`` of the games (the top two bits of a
    stream of its own), ``w`` in the others; seats draw apart."""
    code = np.int64(C.pack([2.25, 0.5, 7.75, 3]))
    seeds = np.arange(-20_000, 20_000, dtype=np.int64)
    for seat, (whole, quarters) in enumerate([(2, 1), (0, 2), (7, 3), (3, 0)]):
        got = np.array([int(C.seat_compensation(code, seat, x)) for x in seeds])
        assert set(np.unique(got)) <= {whole, whole + 1}
        assert C.drawn_range(int(code), seat) == (whole, whole + (quarters > 0))
        share = float(np.mean(got == whole + 1))
        # 40,000 draws: five standard errors of a proportion at most 0.0125
        assert abs(share - quarters / 4) < 0.0125, (seat, share)
    first = np.array([int(C.seat_compensation(code, 0, x)) for x in seeds[:4000]])
    second = np.array([int(C.seat_compensation(code, 1, x)) for x in seeds[:4000]])
    assert abs(np.corrcoef(first, second)[0, 1]) < 0.1


@pytest.mark.parametrize("game", GAMES)
def test_rules_code_unchanged_off_and_all_zero(game):
    spec = get_game(game)
    assert spec.compensation is not None and spec.compensation.part in spec.score_parts
    plain = spec.rules_code()
    assert spec.rules_code(None, {"compensation": [0, 0, 0]}) == plain
    assert spec.rules_code(None, {"compensation": [1, 2]}) == plain | C.pack([1, 2])
    config = RunConfig.make(games=4, players=2, game=game, options={"compensation": [0, 0]})
    assert config.identity() == RunConfig.make(games=4, players=2, game=game).identity()
    on = RunConfig.make(games=4, players=2, game=game, compensation="3,0")
    assert on.options["compensation"] == [3, 0] and on.rules == plain | C.pack([3, 0])
    assert on.identity()["options"]["compensation"] == [3, 0]


@pytest.mark.parametrize("game", GAMES)
def test_all_zero_compensation_leaves_records_identical(game):
    kw = dict(games=6, players=3, strategies="random", seed=11, game=game, progress=False)
    base = tajsim.simulate(**kw)
    zero = tajsim.simulate(**kw, options={"compensation": [0, 0, 0]})
    pd.testing.assert_frame_equal(base, zero)


def _random_actions(game, n, seed):
    rng = np.random.default_rng(seed)
    actions = []
    while not game.is_over:
        legal = game.legal_actions()
        a = int(legal[rng.integers(len(legal))])
        actions.append(a)
        game.apply(a)
    return actions


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("n", [2, 4])
def test_setup_holds_the_amounts_and_scores_move_by_them(game, n):
    """The same actions replayed with compensation: every one stays legal (more gold or points
    never forbids an action), every state keeps the invariants, and each final score is the
    uncompensated one plus the seat's amount, in the declared part."""
    spec = get_game(game)
    amounts = [3 * s + 1 for s in range(n)]
    part = spec.compensation.part
    plain = spec.game_class(n, seed=5, game_id=2)
    start_plain = [plain.score_parts(p)[part] for p in range(n)]
    actions = _random_actions(plain, n, seed=7)
    comp = spec.game_class(n, seed=5, game_id=2, options={"compensation": amounts})
    assert [comp.score_parts(p)[part] - start_plain[p] for p in range(n)] == amounts
    assert [comp.scores()[p] - s for p, s in enumerate(
        spec.game_class(n, seed=5, game_id=2).scores())] == amounts
    for i, a in enumerate(actions):
        assert a in comp.legal_actions()
        comp.apply(a)
        if i % 25 == 0:
            spec.check_state(comp.state, comp.comp, f"{game} step {i}")
    assert comp.is_over
    spec.check_state(comp.state, comp.comp, f"{game} end")
    assert [c - p for c, p in zip(comp.scores(), plain.scores(), strict=True)] == amounts
    # the record of the game says what it played, and replays
    record = comp.record()
    assert record.options["compensation"] == amounts
    again = spec.game_class.replay(type(record).from_json(record.to_json()))
    assert again.scores() == comp.scores()


@pytest.mark.parametrize("bad, words", [
    ([1, 2, 3], "3 amounts for 2 players"), ([0, -1], "seat 1 gets -1"),
    ([0, 64], "seat 1 gets 64"), ([0, 16], "seat 1 gets 16"),
    ("0,x", "'x' is not a whole number of quarters"), ("0,1.3", "'1.3' is not a whole number"),
    ([0.3, 1], "amounts in whole units or quarters")])
def test_bad_amounts_are_one_line_errors(bad, words):
    with pytest.raises(UserError, match=words.replace("(", r"\(")) as err:
        RunConfig.make(games=2, players=2, game="maharani", compensation=bad)
    assert "\n" not in str(err.value)
    with pytest.raises(UserError, match="declares no seat compensation"):
        RunConfig.make(games=2, players=3, game="nothanks", compensation=[0, 1, 2])
    with pytest.raises(UserError, match="contradicts"):
        RunConfig.make(games=2, players=2, game="maharani", compensation=[0, 1],
                       options={"compensation": [0, 2]})


@pytest.mark.parametrize("args, words", [
    (["--game", "maharani", "-p", "2", "--compensation", "0,1,2"], "3 amounts for 2 players"),
    (["--game", "maharaja", "-p", "2", "--compensation", "0,-3"], "seat 1 gets -3"),
    (["--game", "tajmahal", "-p", "3", "--compensation", "0,1,99"], "seat 2 gets 99"),
    (["--game", "nothanks", "-p", "3", "--compensation", "0,1,2"], "no seat compensation"),
])
def test_cli_refuses_bad_compensation_with_exit_2(args, words):
    res = CliRunner().invoke(cli, ["simulate", "-n", "2", "-s", "random", *args])
    assert res.exit_code == 2, res.output
    lines = [ln for ln in res.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and words in lines[0], res.output


def test_cli_simulate_and_compare_play_it_and_the_run_says_so(tmp_path):
    out = tmp_path / "run"
    res = CliRunner().invoke(cli, ["simulate", "--game", "maharani", "-n", "40", "-p", "2",
                                   "-s", "random", "--compensation", "0,9", "--out", str(out),
                                   "-q", "-w", "1"])
    assert res.exit_code == 0, res.output
    manifest = RunStore(out).manifest()
    assert manifest["config"]["options"]["compensation"] == [0, 9]
    stored = RunStore(out).read_records()
    plain = tajsim.simulate(40, 2, "random", seed=0, game="maharani", progress=False)
    comp = tajsim.simulate(40, 2, "random", seed=0, game="maharani", progress=False,
                           options={"compensation": [0, 9]})
    # random play in Maharani never reads the score: the games are the same, the gold moves
    assert (comp.score - plain.score).tolist() == [0, 9] * 40
    assert sorted(stored.score.tolist()) == sorted(comp.score.tolist())
    res = CliRunner().invoke(cli, ["compare", "random", "greedy", "--game", "maharani", "-n",
                                   "4", "-p", "2", "--compensation", "0,1.5", "--option",
                                   "round_end=on", "-w", "1"])
    assert res.exit_code == 0, res.output
    header = res.output.splitlines()[0]
    assert header.endswith("seed 0; options: round_end on, compensation 0,1.5"), header
    plain = CliRunner().invoke(cli, ["compare", "random", "greedy", "--game", "maharani", "-n",
                                     "4", "-p", "2", "-w", "1"])
    assert plain.exit_code == 0 and "options" not in plain.output.splitlines()[0]


def test_a_fractional_amount_through_the_library_and_the_cli(tmp_path):
    """``2.5`` gold: each game gives the seat 2 or 3 (drawn from the game's chance seed: the same
    games whatever the workers), about half of each; the record says 2.5."""
    kw = dict(games=400, players=2, strategies="random", seed=4, game="maharani",
              progress=False)
    plain = tajsim.simulate(**kw)
    comp = tajsim.simulate(**kw, options={"compensation": [0, 2.5]}, workers=1)
    again = tajsim.simulate(**kw, options={"compensation": [0, 2.5]}, workers=2, chunk_size=64)
    pd.testing.assert_frame_equal(comp, again)
    moved = (comp.score - plain.score).to_numpy().reshape(-1, 2)
    assert set(moved[:, 0]) == {0} and set(moved[:, 1]) == {2, 3}
    assert abs(float(np.mean(moved[:, 1] == 3)) - 0.5) < 0.1  # 400 games: 4 standard errors
    out = tmp_path / "run"
    res = CliRunner().invoke(cli, ["simulate", "--game", "maharani", "-n", "20", "-p", "2",
                                   "-s", "random", "--compensation", "0,2.5", "--out", str(out),
                                   "-q", "-w", "1"])
    assert res.exit_code == 0, res.output
    assert RunStore(out).manifest()["config"]["options"]["compensation"] == [0, 2.5]


def test_experiment_file_takes_compensation(tmp_path):
    from tajsim.running.experiments import check_experiment, load_experiment

    path = tmp_path / "c.toml"
    path.write_text('name = "c"\ngame = "maharani"\n[simulate]\ngames = 4\nplayers = 2\n'
                    'strategies = "random"\n\n[[runs]]\nname = "plain"\n\n[[runs]]\n'
                    'name = "comp"\ncompensation = [0, 5]\n')
    exp = load_experiment(path)
    check_experiment(exp)
    kwargs = [r.simulate_kwargs() for r in exp.runs]
    assert "compensation" not in (kwargs[0].get("options") or {})
    assert kwargs[1]["options"] == {"compensation": [0, 5]}
    bad = tmp_path / "b.toml"
    bad.write_text(path.read_text().replace("[0, 5]", "[0, 5, 1]"))
    with pytest.raises(UserError, match="3 amounts for 2 players"):
        check_experiment(load_experiment(bad))


def test_gpu_simulator_equals_cpu_with_compensation():
    """The CUDA simulator's batch kernel gives the CPU's records and final states with the
    option on, for every game (a heuristic that reads the score in each)."""
    cases = []
    for i, game in enumerate(GAMES):
        spec = get_game(game)
        presets = [s.name for s in spec.strategies.with_tag("preset")]
        for n in (2, 4):
            cases.append({"game": game, "players": n, "edition": spec.editions[0],
                          "options": {"compensation": [2, 9.25, 15.5, 3.75][:n]},
                          "games": 2, "strategies": [presets[0]] + ["random"] * (n - 1),
                          "seed": 3 + i})
    env = {**__import__("os").environ, "NUMBA_ENABLE_CUDASIM": "1", "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, str(ROOT / "tests" / "gpu_sim_check.py"),
                           json.dumps(cases)], env=env, capture_output=True, text=True,
                          timeout=900, check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    reports = [json.loads(ln) for ln in proc.stdout.splitlines() if ln.startswith("{")]
    assert len(reports) == len(cases)
    for case, report in zip(cases, reports, strict=True):
        assert report["differences"] == [], (case, report["differences"])


def test_search_finds_the_exact_answer_where_play_ignores_the_gold():
    """Random play in Maharani never reads the gold, so on common random numbers a seat's
    share under any amounts follows from the uncompensated scores: the search must reach the
    best deviation an exhaustive look over the lattice finds."""
    from tajsim.analysis.compensation import search_compensation

    games, seed = 400, 5  # seat 0 wins 56.4% of these games uncompensated
    plain = tajsim.simulate(games, 2, "random", seed=seed, game="maharani", rotate=False,
                            progress=False).sort_values(["game_id", "seat"])
    diff = plain.score.to_numpy().reshape(-1, 2) @ np.array([1, -1])  # seat 0 - seat 1

    def deviation(a0, a1):
        d = diff + a0 - a1
        share0 = np.mean(d > 0) + 0.5 * np.mean(d == 0)
        return abs(share0 - 0.5)

    exact = min(min(deviation(0, k), deviation(k, 0)) for k in range(0, 40))
    result = search_compensation("maharani", 2, "random", games=games, seed=seed,
                                 max_candidates=12, margin=0.0, finest=1)
    best = result.best
    assert best.deviation == pytest.approx(exact, abs=1e-12)
    assert best.deviation == pytest.approx(deviation(*best.amounts), abs=1e-12)
    assert min(best.amounts) == 0 and deviation(0, 0) > exact
    # refined: the best few played again on more games of another seed, the best there chosen
    refined = search_compensation("maharani", 2, "random", games=games, seed=seed,
                                  max_candidates=12, margin=0.0, refine_games=800,
                                  refine_top=3, finest=1)
    near = 3 * np.sqrt(0.25 / games)  # the search's noise: three standard errors at parity
    ranked = [c.amounts for c in sorted(
        refined.candidates, key=lambda c: (round(c.deviation, 12), sum(c.amounts)))
        if c.deviation <= refined.best.deviation + near][:3]
    # then the search goes on around the refined best on the refining games (winner's curse)
    assert [c.amounts for c in refined.refined][:len(ranked)] == ranked
    assert refined.chosen in refined.refined and refined.refine_seed == seed + 1
    assert all(c.games == 800 for c in refined.refined)
    assert set(refined.trace().stage) == {"search", "refine"}
    # every candidate was played on the same games: a candidate's shares are reproduced
    again = search_compensation("maharani", 2, "random", games=games, seed=seed,
                                max_candidates=1)
    assert again.candidates[0] == result.candidates[0]


def test_quarter_steps_go_below_the_best_whole_amounts():
    """Where whole units overshoot, the search goes on in halves and quarters on the same games:
    its best is no worse than the whole-unit search's, and here strictly better with a
    fractional amount."""
    from tajsim.analysis.compensation import search_compensation

    whole = search_compensation("maharani", 2, "random", games=400, seed=5, max_candidates=12,
                                margin=0.0, finest=1)
    fine = search_compensation("maharani", 2, "random", games=400, seed=5, max_candidates=24,
                               margin=0.0, finest=0.25)
    assert fine.candidates[:len(whole.candidates)] == whole.candidates
    assert fine.best.deviation < whole.best.deviation
    assert any(float(a) != int(a) for a in fine.best.amounts)
    assert all(float(a) * 4 == int(float(a) * 4) for c in fine.candidates for a in c.amounts)
    with pytest.raises(UserError, match="finest 0.3"):
        search_compensation("maharani", 2, "random", games=400, finest=0.3)


def test_verification_reports_intervals_and_verdicts():
    from tajsim.analysis.compensation import verify_compensation

    frame = verify_compensation("maharani", 2, "random", [0, 2], games=300, seed=9)
    assert list(frame.compensated) == [False, False, True, True]
    assert (frame.ci_low <= frame.share).all() and (frame.share <= frame.ci_high).all()
    assert np.allclose(frame.groupby("compensated").share.sum(), 1.0)
    assert set(frame.verdict) <= {"equivalent", "differs", "inconclusive"}
    assert (frame.n == 300).all()
    # 300 games cannot show ±1 point: a 90% interval is about ±4.7 points wide
    assert frame.attrs["all_equivalent"] == {False: False, True: False}


def _balance(tmp_path: Path, settings: str) -> tuple[Path, Path]:
    """A Maharani compensation study of ``settings`` (its [compensation] lines) written to a file
    and run by the CLI into a report folder: (the file, the folder)."""
    path = tmp_path / "c.toml"
    path.write_text('name = "c"\nkind = "compensation"\ngame = "maharani"\n'
                    '[compensation]\n' + settings)
    out = tmp_path / "rep"
    res = CliRunner().invoke(cli, ["balance", str(path), "-o", str(out), "-q", "-w", "1"])
    assert res.exit_code == 0, res.output
    return path, out


def test_balance_cli_and_its_experiment_file(tmp_path):
    path, out = _balance(tmp_path, 'players = [2]\nstrategy = "random"\n'
                                   'other_strategy = "greedy"\nsearch_games = 200\n'
                                   'max_candidates = 3\nverify_games = 300\nother_games = 100\n')
    table = pd.read_csv(out / "table_compensation.csv")
    assert list(table.players) == [2] and (out / "report.html").exists()
    seats = pd.read_csv(out / "table_seats.csv")
    assert len(seats) == 4 and {"95% CI", "verdict"} <= set(seats.columns)
    assert (out / "table_other_level.csv").exists() and (out / "fig_compensation.png").exists()
    for args, words in [
        (["--game", "nothanks", "-s", "random"], "declares no seat compensation"),
        (["--game", "maharani", "-p", "7", "-s", "random"], "player count 7"),
        (["--game", "maharani", "-p", "2"], "no strategy"),
        (["--game", "maharani", "-p", "2", "-s", "random", "--seed", "5", "--verify-seed",
          "5"], "fresh games"),
    ]:
        res = CliRunner().invoke(cli, ["balance", *args, "-o", str(tmp_path / "x")])
        lines = [ln for ln in res.output.splitlines() if ln.strip()]
        assert res.exit_code == 2 and len(lines) == 1 and words in lines[0], res.output
    # its folder is marked as its own; a folder holding someone else's files is refused
    assert json.loads((out / ".tajsim-output.json").read_text())["command"] == "balance"
    users = tmp_path / "users"
    users.mkdir()
    (users / "notes.txt").write_text("mine")
    res = CliRunner().invoke(cli, ["balance", str(path), "-o", str(users), "-q"])
    assert res.exit_code == 2 and (users / "notes.txt").read_text() == "mine"
    assert not (users / "report.md").exists()
    res = CliRunner().invoke(cli, ["run", str(path), "-o", str(tmp_path / "z")])
    assert res.exit_code == 2 and "expected tajsim balance" in res.output
    bad = tmp_path / "bad.toml"
    bad.write_text(path.read_text().replace("search_games = 200", "search_games = \"x\""))
    res = CliRunner().invoke(cli, ["balance", str(bad), "-o", str(tmp_path / "y")])
    assert res.exit_code == 2 and "compensation.search_games" in res.output


def test_a_later_look_tests_at_its_share_of_the_level(tmp_path):
    from tajsim.analysis.compensation import verify_compensation

    plain = verify_compensation("maharani", 2, "random", [0, 1], games=400, seed=9)
    third = verify_compensation("maharani", 2, "random", [0, 1], games=400, seed=9,
                                alpha=0.05 / 3)
    assert np.allclose(plain.p_tost, third.p_tost) and (third.alpha == 0.05 / 3).all()
    # the stricter level widens the interval TOST decides on
    assert ((third.tost_high - third.tost_low) > (plain.tost_high - plain.tost_low)).all()


def test_a_player_count_overrides_the_study_settings(tmp_path):
    path, out = _balance(tmp_path, 'players = [2, 3]\nstrategy = "random"\nsearch_games = 100\n'
                                   'max_candidates = 2\nverify_games = 200\nlooks = 2\n'
                                   '[compensation.at.3]\nverify_games = 300\nverify_seed = 77\n'
                                   'looks = 3\n')
    seats = pd.read_csv(out / "table_seats.csv")
    assert dict(seats.groupby("players").n.first()) == {2: 200, 3: 300}
    assert np.allclose(seats.groupby("players").alpha.first(), [0.05 / 2, 0.05 / 3])
    settings = pd.read_csv(out / "table_settings.csv")
    assert list(settings.verify_seed) == [20260, 77] and list(settings.looks) == [2, 3]
    # the 3-player verification is its own seed's games: the same as played alone
    from tajsim.analysis.compensation import verify_compensation

    table = pd.read_csv(out / "table_compensation.csv")
    amounts = [float(x) for x in table[table.players == 3]["compensation by seat"].iloc[0]
               .split(",")]
    alone = verify_compensation("maharani", 3, "random", amounts, games=300, seed=77,
                                alpha=0.05 / 3)
    after = seats[(seats.players == 3) & (seats.compensation == "with")]
    assert np.allclose(after["win share %"].to_numpy(), 100 * alone[alone.compensated].share)
    # a flag given beside the file overrides its per-count settings too
    from tajsim.cli.balance import at_count, resolve

    settings = resolve(path, "tajmahal", None, {"verify_games": 100})[2]
    assert at_count(settings, 3)["verify_games"] == 100 and at_count(settings, 3)["looks"] == 3
    for text, words in [
        ("[compensation.at.4]\nlooks = 2\n", "4 players is not studied"),
        ("[compensation.at.3]\nstrategy = \"greedy\"\n", "compensation.at.3.strategy"),
        ("[compensation.at.3]\nlooks = 0\n", "looks = 0 (at 3 players)"),
        ("[compensation.at.3]\nverify_seed = 1\n", "fresh games"),
        ("[compensation.at.3]\nverify_games = \"x\"\n", "compensation.at.3.verify_games"),
    ]:
        bad = tmp_path / "bad.toml"
        bad.write_text(path.read_text().split("[compensation.at.3]")[0] + text)
        res = CliRunner().invoke(cli, ["balance", str(bad), "-o", str(tmp_path / "y")])
        lines = [ln for ln in res.output.splitlines() if ln.strip()]
        assert res.exit_code == 2 and len(lines) == 1 and words in lines[0], res.output


@pytest.mark.parametrize("game", ["maharaja", "maharani"])
def test_compiled_invariant_checks_count_the_compensation(game):
    """The compiled twins of the invariants (Maharaja's checks_nb, Maharani's invariants_nb)
    accept every state of a compensated game, and catch an amount the rules code does not
    carry."""
    spec = get_game(game)
    if game == "maharaja":
        from tajsim.games.maharaja.engine.checks_nb import check_state_nb

        def check(state, comp):
            return check_state_nb(state, comp)
    else:
        from tajsim.games.maharani.engine.invariants_nb import SCRATCH_SIZE, check_state_nb

        scratch = np.zeros(SCRATCH_SIZE, np.int64)

        def check(state, comp):
            return check_state_nb(state, comp, scratch)

    g = spec.game_class(3, seed=2, options={"compensation": [0, 4, 9]})
    rng = np.random.default_rng(1)
    step = 0
    while not g.is_over:
        if step % 10 == 0:
            assert check(g.state, g.comp) == 0, step
        legal = g.legal_actions()
        g.apply(int(legal[rng.integers(len(legal))]))
        step += 1
    assert check(g.state, g.comp) == 0
    enums = importlib.import_module(f"tajsim.games.{game}.engine.enums")
    tampered = g.state.copy()
    tampered[enums.S_RULES] = C.strip(int(tampered[enums.S_RULES]))
    assert check(tampered, g.comp) != 0  # the amounts gone from the code, the gold still there
