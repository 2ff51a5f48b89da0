"""Games on the GPU (issue 15): the batch kernels give the CPU's records, state for state.

Without a GPU the device kernels run in numba-cuda's simulator (``NUMBA_ENABLE_CUDASIM=1``, in
a subprocess: it must be switched on before ``numba.cuda`` is imported), which runs the same
device-function sources as Python: it checks the batch kernel, the scratch passing, the seeds,
the records and the runner, not the GPU's arithmetic. What only a GPU's compiler can change is
checked on its output: the PTX of every batch kernel (made without a GPU when the CUDA
toolkit's libNVVM is installed) has no fused multiply-add. ``benchmarks/bench_gpu.py`` compares
records on a real GPU.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tajsim.games.registry import GAMES, get_game

ROOT = Path(__file__).resolve().parents[1]
SIM_ENV = {**os.environ, "NUMBA_ENABLE_CUDASIM": "1", "PYTHONPATH": str(ROOT)}


def simulate_cases(cases: list[dict]) -> list[dict]:
    """Run ``tests/gpu_sim_check.py`` on ``cases`` in the simulator; one report per case."""
    proc = subprocess.run([sys.executable, str(ROOT / "tests" / "gpu_sim_check.py"),
                           json.dumps(cases)], env=SIM_ENV, capture_output=True, text=True,
                          timeout=600, check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    reports = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    assert len(reports) == len(cases), proc.stdout[-2000:]
    return reports


def gpu_strategies(game: str) -> list[str]:
    """Every registered strategy the GPU plays (all but the search strategies and those tagged
    cpu_only)."""
    return [s.name for s in get_game(game).strategies.all()
            if "search" not in s.tags and "cpu_only" not in s.tags]


def cases_for(game: str) -> list[dict]:
    """A few games of every strategy the GPU plays, at the smallest and largest table, in every
    edition; heuristic line-ups mixed so each game asks several presets."""
    spec = get_game(game)
    names = [s for s in gpu_strategies(game) if s != "random"]
    cases = []
    for i, edition in enumerate(spec.editions):
        low, high = spec.players[edition]
        cases.append({"game": game, "players": low, "edition": edition, "games": 2,
                      "strategies": ["random"], "seed": 3 + i})
        cases.append({"game": game, "players": high, "edition": edition, "games": 2,
                      "strategies": ["random"], "seed": 5 + i})
    for k in range(0, len(names), 4):
        group = names[k:k + 4]
        players = max(spec.players[spec.editions[0]][0], min(len(group), 4))
        cases.append({"game": game, "players": players, "edition": spec.editions[k // 4 %
                                                                                 len(spec.editions)],
                      "games": 1, "strategies": group + ["random"] * (players - len(group)),
                      "seed": 11 + k})
    low = spec.players[spec.editions[0]][0]
    cases.append({"game": game, "players": low, "edition": spec.editions[0], "games": 1,
                  "strategies": ([names[0], "random"] + ["random"] * low)[:low], "seed": 19})
    return cases


GPU_GAMES = [name for name, spec in GAMES.items() if spec.kernels.gpu is not None]


@pytest.mark.parametrize("game", GPU_GAMES)
def test_gpu_records_and_states_equal_cpu(game):
    """Every record field and every final state slot of the simulated GPU kernel equals the
    CPU's, for every strategy the GPU plays."""
    cases = cases_for(game)
    covered = {s for c in cases for s in c["strategies"]}
    assert covered == set(gpu_strategies(game))
    for case, report in zip(cases, simulate_cases(cases), strict=True):
        assert report["differences"] == [], (case, report["differences"])


def test_every_game_has_gpu_kernels():
    assert set(GPU_GAMES) == set(GAMES), "games without GpuKernels in their spec"


LAUNCH_CHECK = """
import numpy as np
import tajsim.engine.gpu as gpu
from tajsim.games.registry import get_game

built = gpu.batch_kernel


class Launches:  # the kernel as play_batch_gpu launches it, its arguments looked at first
    def __init__(self, kernel):
        self.kernel = kernel

    def __getitem__(self, config):
        def launch(*args):
            print("LAUNCH", [type(a).__name__ for a in args])
            return self.kernel[config](*args)
        return launch


gpu.batch_kernel = lambda *args: Launches(built(*args))
spec = get_game("maharani")  # a game whose heuristic family can be left out
comp = np.asarray(spec.components.default().packed(), np.int64)
for label in ("random", "greedy"):
    ids = np.array([spec.strategies.get(label).strategy_id], np.int64)
    g = np.arange(2, dtype=np.int64)
    gpu.play_batch_gpu(spec, comp, 3, 0, 1, g, g, np.zeros((2, 3), np.int64), ids,
                       np.zeros((1, spec.n_params)), np.zeros(6, spec.result_dtype),
                       np.zeros(2, spec.setup_dtype), gpu.heuristics_on(spec, ids))
"""


def test_a_launch_passes_only_arrays_and_numbers():
    """A real GPU's launch cannot pass ``None``: numba-cuda raises ``NotImplementedError: (none,
    None)`` while preparing the arguments, where the simulator, which runs Python, takes it.
    Found on an H200 (2026-11-28): every line-up without the heuristic family failed to launch,
    because the kernel took ``None`` for "family off". The family is now a constant of the
    kernel; both kernels' launches, and the signature the PTX is compiled for, hold arrays and
    numbers only."""
    from numba.core import types as nb

    from tajsim.engine.gpu import kernel_signature

    proc = subprocess.run([sys.executable, "-c", LAUNCH_CHECK], env=SIM_ENV, capture_output=True,
                          text=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    launches = [line for line in proc.stdout.splitlines() if line.startswith("LAUNCH")]
    assert len(launches) == 2 and all("NoneType" not in line for line in launches), launches
    for game in GPU_GAMES:
        assert all(isinstance(t, (nb.Array, nb.Integer))
                   for t in kernel_signature(get_game(game))), game


def _actions(spec, comp, weights, seed=7, n=2):
    """The action sequence of one game: the heuristic with ``weights`` against random."""
    ids = np.array([spec.strategies.get("balanced").strategy_id,
                    spec.strategies.get("random").strategy_id], np.int64)
    params = np.zeros((2, spec.n_params))
    params[0] = weights
    state = np.zeros(spec.state_size, np.int64)
    prng = np.zeros(spec.max_players, np.int64)
    legal = np.empty(spec.n_actions, np.int64)
    actions = np.zeros(4096, np.int64)
    spec.kernels.start_game(comp, n, 0, seed, 0, 0, state, prng)
    k = spec.kernels.play_out(comp, state, ids, params, prng, legal, actions,
                              *spec.strategies.kernel_switches(ids))
    return actions[:k].copy()


def test_a_single_flipped_decision_is_caught():
    """The smallest change of one weight that flips one decision (two adjacent float64 values:
    the game's actions agree up to one decision, then diverge) makes the GPU's records differ
    from the CPU's; with the same weight on both sides they agree."""
    spec = get_game("tajmahal")
    comp = np.asarray(spec.components.default().packed(), np.int64)
    _, base = spec.strategies.parse("balanced")
    base = np.asarray(base, np.float64)
    slot = spec.strategies.get("balanced").param_names.index("caution")
    reference = _actions(spec, comp, base)
    lo, hi = base[slot], base[slot]
    for factor in (1.01, 1.1, 1.5, 2.0, 4.0):
        w = base.copy()
        w[slot] = lo * factor
        if not np.array_equal(_actions(spec, comp, w), reference):
            hi = w[slot]
            break
    assert hi != lo, "no weight change flipped a decision"
    while np.nextafter(lo, hi) != hi:  # bisect down to adjacent floats
        mid = lo + (hi - lo) / 2
        w = base.copy()
        w[slot] = mid
        if np.array_equal(_actions(spec, comp, w), reference):
            lo = mid
        else:
            hi = mid
    w_lo, w_hi = base.copy(), base.copy()
    w_lo[slot], w_hi[slot] = lo, hi
    a_lo, a_hi = _actions(spec, comp, w_lo), _actions(spec, comp, w_hi)
    m = min(len(a_lo), len(a_hi))
    assert not np.array_equal(a_lo, a_hi)
    first = int(np.flatnonzero(a_lo[:m] != a_hi[:m])[0]) if (a_lo[:m] != a_hi[:m]).any() else m
    # the games share their first decisions and part at one before either ends
    assert 0 < first < m
    case = {"game": "tajmahal", "players": 2, "edition": "2018", "games": 1,
            "strategies": ["balanced", "random"], "seed": 7,
            "params": {"balanced": w_hi.tolist()}}
    flipped, same = simulate_cases([{**case, "cpu_params": {"balanced": w_lo.tolist()}}, case])
    assert flipped["differences"], "a flipped decision went unnoticed"
    assert same["differences"] == []


def _run(args: list[str], env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tajsim", *args], env=env or SIM_ENV,
                          capture_output=True, text=True, timeout=600, check=False)


def _tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and p.name != ".lock"}


def test_runner_gpu_run_is_byte_identical_and_resumes_across_devices(tmp_path):
    """``simulate --device gpu`` writes the same files as the CPU; a run interrupted on one
    device finishes on the other with the same bytes."""
    base = ["simulate", "-n", "6", "-p", "3", "-s", "greedy,random", "--chunk-size", "2",
            "-w", "1", "-q", "--seed", "4"]
    assert _run([*base, "--out", str(tmp_path / "cpu")]).returncode == 0
    verbose = [a for a in base if a != "-q"] + ["-v"]
    gpu = _run([*verbose, "--out", str(tmp_path / "gpu"), "--device", "gpu"])
    assert gpu.returncode == 0, gpu.stderr
    assert "device: gpu (numba-cuda, simulated)" in gpu.stderr
    assert _tree(tmp_path / "cpu") == _tree(tmp_path / "gpu")
    # half on the GPU, the rest on the CPU (and the other way round): a copy of each finished
    # run loses a chunk, as if interrupted, and the other device finishes it
    for first, second, name in (("gpu", "cpu", "mixed1"), ("cpu", "gpu", "mixed2")):
        out = tmp_path / name
        shutil.copytree(tmp_path / first, out)
        (out / "chunks" / "chunk-000001.parquet").unlink()
        for p in (out / "aggregates").glob("chunk-000001.*"):
            p.unlink()
        again = _run([*base, "--out", str(out), "--device", second])
        assert again.returncode == 0, again.stderr
        assert _tree(out) == _tree(tmp_path / "cpu")


def test_refusals_are_one_line():
    search = _run(["simulate", "-n", "2", "-s", "ismcts,random", "--device", "gpu"])
    assert search.returncode == 2
    assert search.stderr.strip().count("\n") == 0 and "search strategy" in search.stderr
    scheduler = _run(["simulate", "-n", "2", "--device", "gpu", "--scheduler", "tcp://h:1"])
    assert scheduler.returncode == 2 and "--device gpu and --scheduler" in scheduler.stderr
    no_gpu = _run(["simulate", "-n", "2", "--device", "gpu"],
                  env={**SIM_ENV, "NUMBA_ENABLE_CUDASIM": "0", "CUDA_VISIBLE_DEVICES": ""})
    assert no_gpu.returncode == 2 and no_gpu.stderr.count("\n") == 1, no_gpu.stderr
    assert "no CUDA GPU" in no_gpu.stderr
    # numba-cuda next to a numpy it does not run with: its array module fails to load as it
    # did next to numpy 2.5 on a GPU machine (np.row_stack is gone)
    code = ("import sys, importlib.abc\n"
            "class Numpy25(importlib.abc.MetaPathFinder):\n"
            "    def find_spec(self, name, path, target=None):\n"
            "        if name == 'numba.cuda.np.arrayobj':\n"
            "            raise AttributeError(\"module 'numpy' has no attribute 'row_stack'\")\n"
            "sys.meta_path.insert(0, Numpy25())\n"
            "from tajsim.cli.main import cli\n"
            "sys.argv = ['tajsim', 'simulate', '-n', '2', '--device', 'gpu']\n"
            "cli()\n")
    numpy_25 = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              env={**SIM_ENV, "NUMBA_ENABLE_CUDASIM": "0"}, timeout=300,
                              check=False)
    assert numpy_25.returncode == 2 and numpy_25.stderr.count("\n") == 1, numpy_25.stderr
    assert "does not run with numpy" in numpy_25.stderr and "row_stack" in numpy_25.stderr
    # without numba-cuda installed
    code = ("import sys, importlib.abc\n"
            "class Block(importlib.abc.MetaPathFinder):\n"
            "    def find_spec(self, name, path, target=None):\n"
            "        if name == 'numba.cuda' or name.startswith('numba.cuda.'):\n"
            "            raise ImportError('No module named ' + repr(name))\n"
            "sys.meta_path.insert(0, Block())\n"
            "from tajsim.cli.main import cli\n"
            "sys.argv = ['tajsim', 'simulate', '-n', '2', '--device', 'gpu']\n"
            "cli()\n")
    missing = subprocess.run([sys.executable, "-c", code], env=SIM_ENV, capture_output=True,
                             text=True, timeout=300, check=False)
    assert missing.returncode == 2 and "tajsim[gpu]" in missing.stderr, missing.stderr
    assert missing.stderr.count("\n") == 1


NET_GAMES = [name for name in GPU_GAMES if get_game(name).kernels.gpu.choose_net is not None]


@pytest.mark.parametrize(("game", "heuristics", "net"),
                         [(g, False, False) for g in GPU_GAMES]
                         + [(g, True, g in NET_GAMES) for g in GPU_GAMES])
def test_ptx_has_no_fused_multiply_add(game, heuristics, net):
    """libNVVM contracts a * b + c into one FMA unless told not to; the rounding then differs
    from the CPU's and near-ties go the other way. The batch kernels are compiled without it.

    The PTX is the one a launch loads (``compile_ptx`` follows the batch kernel's own options):
    issue 42's kernels were linked with LTO, where nvJitLink generates the code with FMA on
    whatever libNVVM was told, while this test looked at libNVVM's PTX alone. Every f64 (and
    f32) add, sub and mul must carry an explicit rounding modifier, which ptxas never fuses
    (an unrounded ``mul.f64`` followed by an ``add.f64`` it may fuse when it makes machine
    code).

    Every game's device code is compiled: the kernel without the heuristic family is typed
    with its switches as None, which the simulator never types (a switch that a kernel
    borrowed before its ``is None`` test once broke it), and the one with the family and, in
    a game that has it, ``net``: the simulator runs the network as Python, so this is where
    its device code is compiled at all. The family's kernel without ``net`` is that kernel's
    code less the network (``choose_net`` None, the same device functions under the same
    options, which alone decide contraction), so it is not compiled a second time: each of
    these compiles takes about a minute of the suite's CPU."""
    from tajsim.engine.gpu import compile_ptx

    # libNVVM from the test extra's CUDA toolkit
    ptx = compile_ptx(get_game(game), heuristics, net=net)
    assert ".entry" in ptx
    # libdevice's exp and log (inlined, so unnamed in the PTX) evaluate polynomials with
    # explicit FMAs: this also finds them (Taj Mahal's heuristic had 702 before it stopped
    # calling exp and log1p).
    assert re.findall(r"\b(?:fma|mad)\.[a-z.]*f(?:32|64)\b", ptx) == []
    unrounded = re.findall(r"\b(?:add|sub|mul)(?:\.ftz)?(?:\.sat)?\.f(?:32|64)\b", ptx)
    assert unrounded == [], f"{len(unrounded)} add/sub/mul without .rn: ptxas may fuse them"


def test_batch_kernels_are_built_without_lto():
    """numba-cuda links a kernel with LTO wherever nvJitLink is installed, and nvJitLink then
    contracts FMAs whatever libNVVM was told (issue 42: Taj Mahal's near-ties of an ulp or two
    went the other way on an H200 in 21 of 36,864 games). The batch kernels are built with
    ``lto=False``; ``compile_ptx`` reads the same option, so the PTX test checks the code a
    launch loads. No compile here: the option alone, for every game and family."""
    from tajsim.engine.gpu import batch_kernel, jit_options

    assert jit_options() == {"lto": False}
    for game in GPU_GAMES:
        for heuristics, net in ((True, False), (False, False), (True, True)):
            if net and game not in NET_GAMES:
                continue
            options = batch_kernel(get_game(game), heuristics, net).targetoptions
            assert options["lto"] is False, (game, heuristics, net)


def test_gpu_kernels_read_no_local_memory_before_writing_it():
    """A GPU's local memory is not cleared, while the simulator's local arrays are ``np.empty``
    (often zeros): with every ``cuda.local.array`` filled with poison (NaN, garbage words) the
    simulated kernel still equals the CPU, record for record and state for state. Taj Mahal's
    game 2938 of greedy x4 is one of issue 42's near-ties of an ulp, where any disturbed value
    shows; Maharani's heuristics keep their workspace in the same scratch. (A Maharaja
    heuristic game takes about 90 s in the simulator.) Without ``init_state_nb``'s clearing of
    the state, the poisoned Taj Mahal case fails."""
    cases = [{"game": "tajmahal", "players": 4, "edition": "2018", "games": 1, "first": 2938,
              "seed": 0, "strategies": ["greedy"], "poison": True},
             {"game": "maharani", "players": 3, "edition": "2012", "games": 1, "seed": 7,
              "strategies": ["balanced", "greedy", "learned"], "poison": True}]
    for case, report in zip(cases, simulate_cases(cases), strict=True):
        assert report["differences"] == [], (case, report["differences"])


EXPERIMENT = """
name = "gpu_check"
[simulate]
seed = 9
device = "{device}"
[[runs]]
name = "a"
games = 4
players = 3
strategies = ["greedy", "random"]
"""


def test_experiment_files_take_a_device(tmp_path):
    """``device = "gpu"`` in an experiment file plays on the GPU; the runs equal the CPU's; a
    bad device is one line naming it."""
    from tajsim.errors import UserError
    from tajsim.running.experiments import check_experiment, load_experiment

    bad = tmp_path / "bad.toml"
    bad.write_text(EXPERIMENT.format(device="tpu"))
    with pytest.raises(UserError, match="unknown device 'tpu'; expected one of: cpu, gpu"):
        check_experiment(load_experiment(bad))
    for device in ("cpu", "gpu"):
        (tmp_path / f"{device}.toml").write_text(EXPERIMENT.format(device=device))
    code = ("import sys\n"
            "from pathlib import Path\n"
            "from tajsim.running.experiments import load_experiment, simulate_experiment\n"
            "from tajsim.engine import gpu\n"
            "for device in ('cpu', 'gpu'):\n"
            "    exp = load_experiment(Path(sys.argv[1]) / f'{device}.toml')\n"
            "    simulate_experiment(exp, Path(sys.argv[1]) / f'out-{device}', workers=1,\n"
            "                        progress=False)\n"
            "    print(device, sorted(gpu._KERNELS))\n")
    proc = subprocess.run([sys.executable, "-c", code, str(tmp_path)], env=SIM_ENV,
                          capture_output=True, text=True, timeout=600, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
    # the GPU played, with the heuristic family (greedy) in its kernel and no network
    assert proc.stdout.split("\n")[:2] == ["cpu []", "gpu [('tajmahal', True, False)]"]
    assert _tree(tmp_path / "out-cpu") == _tree(tmp_path / "out-gpu")


def test_gpu_equals_cpu_at_a_temperature_and_with_restrictions():
    """Stochastic and restricted play (the generic options, issue 19) decide alike on the GPU:
    the temperature's integer softmax draws from the seat's stream, a restriction filters the
    legal list in the shared dispatcher. Maharaja, three seats: the heuristic above temperature
    0 and restricted, greedy warm, random restricted (the dispatcher's path, not the batch's
    shortcut)."""
    case = {"game": "maharaja", "players": 3, "edition": "basic", "games": 1, "seed": 23,
            "strategies": ["balanced:temperature=2:forbid=governor+outer_palaces",
                           "greedy:temperature=0.5", "random:forbid=village_houses"]}
    (report,) = simulate_cases([case])
    assert report["differences"] == []


def test_maharaja_learned_gpu_equals_cpu():
    """Maharaja's ``learned`` (issue 20) on the GPU: its feature matrix in the float64 view of
    the int64 scratch, the shared linear_choice, at temperature 0 (argmax) and above (the
    integer softmax of its floored scores), theta away from e_value so the extra features
    decide, restricted too."""
    case = {"game": "maharaja", "players": 3, "edition": "basic", "games": 2, "seed": 37,
            "strategies": ["learned:w_palaces_built=3:w_gold_actions=-2:w_palaces_behind=1"
                           ":w_gold_left=0.5",
                           "learned:temperature=1.5:w_houses_built=0.5:w_failed_actions=-4"
                           ":forbid=governor",
                           "hoarder"]}
    (report,) = simulate_cases([case])
    assert report["differences"] == []


def test_maharani_gpu_equals_cpu_at_a_temperature_and_with_restrictions():
    """Maharani's integer softmax (a weighted reservoir draw over the heuristic's values, see
    its heuristic module) and its restriction families decide alike on the GPU: two seats,
    the heuristic above temperature 0 and restricted, greedy warm and restricted (the 2-player
    artisan choice included)."""
    case = {"game": "maharani", "players": 2, "edition": "2012", "games": 1, "seed": 29,
            "strategies": ["balanced:temperature=1.5:forbid=markers+second_tiles",
                           "greedy:temperature=0.25:forbid=artisans+refresh"]}
    (report,) = simulate_cases([case])
    assert report["differences"] == []


def test_maharani_gpu_plays_learned_as_the_cpu():
    """The GPU batch kernel (numba-cuda's simulator) plays ``learned`` with trained-looking
    weights, at temperature 0 and above, as the CPU does."""
    weights = ":w_zone=0.3:w_second=-0.4:w_leaves_one=-0.7:w_late_artisan=-0.5"
    cases = [{"game": "maharani", "players": 2, "edition": "2012", "games": 1, "seed": 41,
              "strategies": ["learned" + weights, "balanced"]},
             {"game": "maharani", "players": 4, "edition": "2012", "games": 1, "seed": 43,
              "strategies": ["learned" + weights + ":temperature=0.5", "learned",
                             "greedy", "balanced"]}]
    for report in simulate_cases(cases):
        assert report["differences"] == []


def test_taj_mahal_gpu_equals_cpu_at_a_temperature_and_with_restrictions():
    """Taj Mahal's generic options on the GPU (issue 19): the heuristic's float values turned
    into fixed point (floor(value * 1024)) and drawn with the integer softmax from the seat's
    stream, the restrictions filtering the GPU's legal list in the shared dispatcher. Four
    seats, both editions: presets and greedy above temperature 0 and restricted, random
    restricted."""
    cases = [{"game": "tajmahal", "players": 4, "edition": "2018", "games": 1, "seed": 29,
              "strategies": ["balanced:temperature=1:forbid=goods+connections",
                             "greedy:temperature=0.5", "random:forbid=crown+blind_withdraw",
                             "commodity:temperature=0.25:forbid=special_cards"]},
             {"game": "tajmahal", "players": 3, "edition": "2000", "games": 1, "seed": 31,
              "strategies": ["network:temperature=2", "balanced:forbid=blind_withdraw",
                             "greedy:forbid=goods+crown"]}]
    for report in simulate_cases(cases):
        assert report["differences"] == []


def test_taj_mahal_learned_gpu_equals_cpu():
    """Taj Mahal's ``learned`` (issue 20) decides alike on the GPU: tuned's values, the
    features one action at a time in the heuristic's scratch, theta . phi; at temperature 0
    and above (the fixed-point softmax), with a theta where every feature counts, beside a
    preset, both editions."""
    theta = ("w_value=1:w_withdraw=0.7:w_withdraw_late=-1.5:w_bid_cost=0.4:w_bid_extra=-0.3:"
             "w_bid_prestige=0.6:w_bid_seat_gain=-0.8:w_bid_leads=0.9:w_bid_rivals=0.5:"
             "w_bid_hand_left=-0.4:w_city_links=0.3:w_city_roads=-0.2:w_city_bonus=1.1:"
             "w_take_white=0.25:w_take_fit=-0.35")
    cases = [{"game": "tajmahal", "players": 2, "edition": "2018", "games": 2, "seed": 37,
              "strategies": [f"learned:{theta}", "learned:temperature=0.5"]},
             {"game": "tajmahal", "players": 3, "edition": "2000", "games": 1, "seed": 41,
              "strategies": [f"learned:{theta}:temperature=1", "tuned", "learned"]}]
    for report in simulate_cases(cases):
        assert report["differences"] == []


def test_every_game_with_a_network_plays_it_on_the_gpu():
    """Every game whose registry has ``net`` gives its GPU a ``choose_net``: ``--device gpu``
    plays the network (no strategy is CPU only but the searches)."""
    for game in GPU_GAMES:
        spec = get_game(game)
        if "net" in spec.strategies.names():
            assert game in NET_GAMES, game
        assert all("cpu_only" not in s.tags for s in spec.strategies.all()), game


def test_net_gpu_equals_cpu_at_a_temperature_and_with_restrictions():
    """Each game's ``net`` (issue 41) on the GPU batch kernel: its weights sets passed to the
    kernel, its scratch a local array, at temperature 0 and above (its integer softmax draws
    from the seat's stream), restricted (the legal list filtered before the network scores
    it), beside a heuristic, at 3 or 4 seats."""
    cases = [{"game": "tajmahal", "players": 3, "edition": "2018", "games": 1, "seed": 53,
              "strategies": ["net:temperature=1:forbid=goods+connections", "net", "tuned"]},
             {"game": "maharani", "players": 4, "edition": "2012", "games": 1, "seed": 59,
              "strategies": ["net:temperature=1.5:forbid=markers+second_tiles", "net",
                             "balanced", "greedy"]},
             {"game": "maharaja", "players": 3, "edition": "basic", "games": 1, "seed": 61,
              "strategies": ["net:temperature=2:forbid=governor", "net", "hoarder"]}]
    for case, report in zip(cases, simulate_cases(cases), strict=True):
        assert report["differences"] == [], (case, report["differences"])


def test_runner_plays_net_on_the_gpu_as_on_the_cpu(tmp_path):
    """``simulate --device gpu`` with a ``net`` seat (the runner derives the line-up's weights
    sets and launches the kernel with the network) writes the CPU's files byte for byte."""
    base = ["simulate", "--game", "maharani", "-n", "2", "-p", "2", "-s", "net,greedy",
            "--chunk-size", "1", "-w", "1", "-q", "--seed", "6"]
    assert _run([*base, "--out", str(tmp_path / "cpu")]).returncode == 0
    gpu = _run([*base, "--out", str(tmp_path / "gpu"), "--device", "gpu"])
    assert gpu.returncode == 0, gpu.stderr
    assert _tree(tmp_path / "cpu") == _tree(tmp_path / "gpu")
