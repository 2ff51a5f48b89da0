#!/usr/bin/env bash
# What only a GPU machine can measure, in one prepared run (a lent machine's time is short):
#
# 1. the software stack there: a tiny kernel compiled and launched. If the machine's numba-cuda
#    does not run (numba-cuda 0.30.4 does not import next to numpy 2.5: seen on an H200 image,
#    2026-11-28), the pinned wheels carried in .whl/ (numba-cuda 0.30.4, numpy 2.4.6; see
#    benchmarks/README.md, "On a GPU machine") are installed under /tmp/site and tried instead;
# 2. ("gpu" in $STEPS) bench_gpu.py for every game at 4 players, the three games started
#    together so that their kernels compile on separate cores, then measured one at a time
#    (--lock): GPU games/s against issue 15's targets and against one core, and records
#    compared with the CPU's for every strategy the GPU plays (--coverage);
# 3. ("scaling" in $STEPS) bench_scaling.py on every core (issue 13's table), its kernels
#    compiled in the background during step 2;
# 4. ("records" in $STEPS, issue 42 section 3) the records' cost on every core: bench_scaling.py
#    --alternate in both local modes (threads, processes: records off and on, each against the
#    machine's own rate measured in the same round) for `random` and the heuristic line-up
#    (scaling_records.csv); then the GPU run through the CLI with records, `tajsim simulate
#    --device gpu -n 1000000 -p 4 -s random -w $CORES --out DIR`, timed end to end (compile
#    included), and bench_gpu_records.py: the same run in one process after a first small run
#    has compiled the kernels (numba-cuda keeps no cache), with and without records, so that its
#    games/s is after the compile (gpu_records.csv).
#
# Usage, from the repository root:
#   OUT=DIR [STEPS="gpu records"] bash benchmarks/device_session.sh
# Budget (16 cores, an H200; at most 8 minutes of a lent machine in all): the probe about 20 s;
# step 2 about 4 min 30 s (compiles about 2 min; each bench_gpu under `timeout 300`); step 4
# about 2 min 30 s (the alternated runs under `timeout 120`, about 70 s; the CLI run under
# `timeout 60`, about 37 s; the runs after the compile under `timeout 100`, about 40 s): about
# 7 min 20 s in all. Step 3 (issue 13's table with --check, `--lineups random heuristic`, under
# `timeout 100`) is no longer in the default steps: step 4 measures the same thread-mode
# figures and more; add it (STEPS="gpu scaling records") only with a minute and a half to
# spare. A session short of time runs STEPS="records" alone (about 3 min with the probe and
# the background compile). Each step writes its CSVs under $OUT (<game>/gpu.csv, scaling.csv,
# scaling_records.csv, gpu_records.csv) and the whole output to $OUT/log.txt; a step that
# fails or runs out of time leaves the others' files.
set -u
OUT=${OUT:-/tmp/tajsim-device}
STEPS=${STEPS:-gpu records}
CORES=$(nproc)
PY=${PYTHON:-python3}
mkdir -p "$OUT"
exec > >(tee -a "$OUT/log.txt") 2>&1
export PYTHONUNBUFFERED=1 NUMBA_CACHE_DIR=/tmp/tajsim-numba-cache
export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"
start=$(date +%s)
stamp() { echo "== $(( $(date +%s) - start )) s: $*"; }

probe() {  # importing numba.cuda is not enough: its typing registries load at the first compile
    "$PY" - <<'EOF'
import os, sys
from importlib.metadata import version
import numpy as np, numba
from numba import cuda

@cuda.jit
def add_one(a):
    a[cuda.grid(1)] += 1

a = cuda.to_device(np.zeros(32, np.int64))
add_one[1, 32](a)
assert a.copy_to_host().sum() == 32
device = cuda.get_current_device()
print("python", sys.version.split()[0], "numpy", np.__version__, "numba", numba.__version__,
      "numba-cuda", version("numba-cuda"), "cores", os.cpu_count(), "GPU", device.name,
      "SMs", device.MULTIPROCESSOR_COUNT)
EOF
}

stamp "stack"
nvidia-smi -L || true
if ! probe 2>"$OUT/probe.txt"; then
    tail -n 1 "$OUT/probe.txt"
    stamp "the machine's numba-cuda does not run; installing .whl/*.whl under /tmp/site"
    "$PY" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
        --target /tmp/site .whl/*.whl || exit 1
    export PYTHONPATH="$PYTHONPATH:/tmp/site"
    probe || exit 1
fi
rm -f "$OUT/probe.txt"

if [[ " $STEPS " == *" scaling "* || " $STEPS " == *" records "* ]]; then
    stamp "scaling kernels (compiled in the background)"
    "$PY" - >/tmp/tajsim-scaling-warm.txt 2>&1 <<'EOF' &
import sys
import tempfile
from pathlib import Path
from tajsim.running.benchmarking import make_batch
from tajsim.running.simulate import run_simulation
sys.path.insert(0, "benchmarks")
from bench_scaling import LINEUPS
with tempfile.TemporaryDirectory() as tmp:
    for strategies, players, _ in LINEUPS.values():
        make_batch(8, players, strategies, seed=0, game="tajmahal").run(1)  # the lone processes
        for records in (False, True):
            run_simulation(8, players, strategies, seed=0, game="tajmahal", workers=2,
                           out=Path(tmp) / f"w{records}{len(strategies)}" if records else None,
                           records=records, load_records=False, progress=False)
print("scaling kernels ready")
EOF
    warm=$!
fi

if [[ " $STEPS " == *" gpu "* ]]; then
    stamp "bench_gpu, three games"
    pids=()
    for game in tajmahal maharaja maharani; do
        timeout 300 "$PY" benchmarks/bench_gpu.py --game "$game" --players 4 --repeat 1 \
            --blocks 64,256 --cpu-seconds 1 --cpu-threads 1 --coverage --check \
            --lock /tmp/tajsim-gpu.lock --results "$OUT/$game" >"/tmp/tajsim-$game.txt" 2>&1 &
        pids+=($!)
    done
    for i in 0 1 2; do
        wait "${pids[$i]}"; echo "bench_gpu ${i}: exit $?"
    done
    for game in tajmahal maharaja maharani; do
        echo "--- $game"; grep -v -e "Warning" -e "warn(" "/tmp/tajsim-$game.txt"
    done
fi

if [[ " $STEPS " == *" scaling "* || " $STEPS " == *" records "* ]]; then
    wait "$warm"; echo "scaling warm-up: exit $?"; cat /tmp/tajsim-scaling-warm.txt
fi
if [[ " $STEPS " == *" scaling "* ]]; then
    stamp "bench_scaling"
    timeout 100 "$PY" benchmarks/bench_scaling.py --quick --repeat 1 --check \
        --lineups random heuristic --results "$OUT"
    echo "bench_scaling: exit $?"
fi

if [[ " $STEPS " == *" records "* ]]; then
    stamp "records on every core: threads and processes, records off and on, alternated"
    timeout 120 "$PY" benchmarks/bench_scaling.py --quick --alternate 1 \
        --modes threads processes --lineups random heuristic --results "$OUT"
    echo "bench_scaling --alternate: exit $?"
    stamp "GPU run with records through the CLI (compile included)"
    rm -rf /tmp/tajsim-gpu-cli
    t0=$(date +%s%N)
    timeout 60 "$PY" -m tajsim simulate --device gpu -n 1000000 -p 4 -s random \
        -w "$CORES" --out /tmp/tajsim-gpu-cli -q
    cli_rc=$?
    cli_s=$("$PY" -c "print(($(date +%s%N) - $t0) / 1e9)")
    echo "tajsim simulate --device gpu: exit $cli_rc, $cli_s s"
    stamp "GPU runs with and without records after the compile"
    CLI_S=$cli_s CLI_RC=$cli_rc timeout 100 "$PY" benchmarks/bench_gpu_records.py "$OUT" "$CORES"
    echo "bench_gpu_records: exit $?"
fi
stamp "done"
