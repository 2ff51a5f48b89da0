"""The GPU run with records (issue 42 section 3), after the compile: games/s end to end.

``python benchmarks/bench_gpu_records.py OUT CORES`` (benchmarks/device_session.sh, step
"records"): in one process, a 20,000-game run compiles the GPU kernels (numba-cuda keeps no
cache), then 1,000,000 random Taj Mahal games at 4 players are played with records (written to a
run directory) and without, with CORES threads building the rows; writes OUT/gpu_records.csv,
with a row for the CLI run timed by the caller (``$CLI_S`` seconds, exit status ``$CLI_RC``).
"""
import csv
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tajsim.running.simulate import run_simulation  # noqa: E402

out, cores = Path(sys.argv[1]), int(sys.argv[2])
games = 1_000_000
tmp = Path(tempfile.mkdtemp(prefix="tajsim-gpu-records-"))
t0 = time.perf_counter()
run_simulation(20_000, 4, "random", seed=1, workers=cores, out=tmp / "warm", device="gpu",
               load_records=False, progress=False)
compile_s = time.perf_counter() - t0
rows = []
for records in (True, False):
    t0 = time.perf_counter()
    run_simulation(games, 4, "random", seed=0, workers=cores, device="gpu", records=records,
                   out=tmp / f"run-{records}", load_records=False, progress=False)
    wall = time.perf_counter() - t0
    rows.append({"game": "tajmahal", "strategies": "random", "players": 4, "workers": cores,
                 "games": games, "records": records, "how": "run_simulation after the compile",
                 "seconds": round(wall, 3), "games_per_s": round(games / wall),
                 "first_run_s": round(compile_s, 3), "load_avg": os.getloadavg()[0], "exit": 0})
    print(f"GPU, records={records}: {games / wall:,.0f} games/s end to end after the compile")
cli_s = float(os.environ.get("CLI_S") or "nan")
rows.append({"game": "tajmahal", "strategies": "random", "players": 4, "workers": cores,
             "games": games, "records": True, "how": "tajsim simulate (compile included)",
             "seconds": round(cli_s, 3),
             "games_per_s": round(games / cli_s) if cli_s == cli_s else "",
             "first_run_s": "", "load_avg": os.getloadavg()[0],
             "exit": os.environ.get("CLI_RC", "")})
with open(out / "gpu_records.csv", "w", newline="") as fh:
    w = csv.DictWriter(fh, fieldnames=list(rows[-1]))
    w.writeheader()
    w.writerows(rows)
shutil.rmtree(tmp, ignore_errors=True)
