"""Whole games on a CUDA GPU: one thread plays one game, with the game's own dual-target kernels.

The batch kernel below is generic: it knows a game only through the :class:`GpuKernels` its spec
gives (dual-target kernels made with :func:`tajsim.engine.targets.kernel`) and its sizes. Each
thread derives its game's streams exactly as the CPU's ``start_game`` does (it *is* that source),
plays to the end with the non-search strategy dispatcher, and writes the same result and setup
records as ``play_batch``, so a chunk's records are the same bytes whichever device played it.

Layout on the device (see ``docs/running.md``, "Games on a GPU"):

* the packed components are copied once per block into shared memory (every thread reads them,
  none writes);
* a thread's state, legal list, policy streams and heuristic scratch are ``cuda.local.array``s:
  CUDA interleaves local memory across the threads of a warp, so when the threads of a warp read
  the same slot of their own state the loads coalesce (a struct of arrays across threads without
  any index arithmetic in the rules);
* the line-up table and the game ids are read from global memory; records are written once, at
  the end of each game.

numba-cuda is imported only when a kernel is built (``pip install tajsim[gpu]``).
"""

from __future__ import annotations

import os
import threading
import types
from typing import Any

import numpy as np

from tajsim.engine.spec import GameSpec
from tajsim.engine.targets import cuda_module, device_function, no_fma_contraction, simulated
from tajsim.errors import UserError

#: Threads per block of the batch kernel (``TAJSIM_GPU_BLOCK`` overrides it; the benchmark
#: ``benchmarks/bench_gpu.py`` tries others).
DEFAULT_BLOCK = 128
#: Resident threads per streaming multiprocessor (2,048 on every GPU since Volta): a launch has
#: at most this many per SM; the threads then take further games from a queue.
MAX_THREADS_PER_SM = 2048

# Names the batch kernel's source uses; bound per game when the kernel is built (its globals are
# a copy of this module's with these replaced). numba-cuda treats globals as compile-time
# constants: the sizes fix the local and shared arrays, the functions are device functions.
cuda: Any = None
start_game: Any = None
legal_actions: Any = None
apply_action: Any = None
choose_simple: Any = None
choose_net: Any = None
write_records: Any = None
current_player: Any = None
round_of: Any = None
track_round: Any = None
STATE_SIZE = 1
COMP_SIZE = 1
N_ACTIONS = 1
MAX_PLAYERS = 1
WORK_SIZE = 1
WORK_DTYPE = np.float64
#: Whether the heuristic family is left out of this kernel (one kernel per game and value). A
#: global rather than an argument: a real GPU's launch cannot pass ``None`` (numba-cuda has no
#: way to marshal it), and a constant condition is pruned before typing, so the family's code is
#: not compiled into the kernel that does not play it.
FAMILY_OFF = False
#: Whether the kernel plays ``net`` (``GpuKernels.choose_net``, with the weights sets in ``net``
#: and ``NET_SCRATCH_SIZE`` slots of int64 scratch): a constant like ``FAMILY_OFF``, so a
#: line-up without a ``net`` seat compiles none of the network.
NET_ON = False
NET_SCRATCH_SIZE = 1
#: Whether the game records its rounds (``GameKernels.track_round``): the same scores after
#: every round as the CPU's loop writes into the setup records.
TRACK_ROUNDS = False


def _batch(comp, n_players, rules, master_seed, game_ids, setup_ids, lineups, lineup_ids,
           lineup_params, net, results, setups, states, keep_states, queue):
    """Play the games (the source compiled per game by :func:`batch_kernel`).

    A thread plays game ``cuda.grid(1)`` first, then takes the next unplayed game from
    ``queue[0]`` (an atomic counter starting at the number of threads) until none is left: the
    threads of a warp whose games end early start new ones instead of idling until the warp's
    longest game ends (games differ in length and in phase). Each game is still a pure function
    of its index and is written to its own rows, so the order does not matter.

    With ``FAMILY_OFF`` (line-ups without the heuristic family) that family's code is left out
    and the policy gets no scratch. With ``NET_ON`` the policy is ``choose_net``, with the
    weights sets ``net`` (int64[...], the line-up's ``net`` kernel switch; a dummy int64[1]
    otherwise) and the network's scratch. With ``keep_states`` 1, ``states``
    (int64[G, STATE_SIZE]) gets each game's final state (the tests compare them with the
    CPU's); with 0 it is a dummy int64[1, STATE_SIZE] (no zero-size device arrays).
    """
    shared_comp = cuda.shared.array(COMP_SIZE, np.int64)
    for i in range(cuda.threadIdx.x, COMP_SIZE, cuda.blockDim.x):
        shared_comp[i] = comp[i]
    cuda.syncthreads()
    state = cuda.local.array(STATE_SIZE, np.int64)
    prng = cuda.local.array(MAX_PLAYERS, np.int64)
    legal = cuda.local.array(N_ACTIONS, np.int64)
    seat_ids = cuda.local.array(MAX_PLAYERS, np.int64)
    work = cuda.local.array(WORK_SIZE, WORK_DTYPE)
    net_scratch = cuda.local.array(NET_SCRATCH_SIZE, np.int64)  # written before it is read
    for i in range(WORK_SIZE):  # local memory starts undefined; a policy may keep a memo there
        work[i] = 0
    G = game_ids.shape[0]
    g = cuda.grid(1)
    while g < G:
        for p in range(n_players):
            seat_ids[p] = lineup_ids[lineups[g, p]]
        start_game(shared_comp, n_players, rules, master_seed, game_ids[g], setup_ids[g],
                   state, prng)
        rnd = round_of(state) if TRACK_ROUNDS else 0
        p = current_player(state)
        while p >= 0:
            n = legal_actions(state, shared_comp, legal)
            if n == 1:
                action = legal[0]
            elif FAMILY_OFF:
                action = choose_simple(seat_ids[p], state, shared_comp, p,
                                       lineup_params[lineups[g, p]], prng, legal, n, None)
            elif NET_ON:
                action = choose_net(seat_ids[p], state, shared_comp, p,
                                    lineup_params[lineups[g, p]], prng, legal, n, work, net,
                                    net_scratch)
            else:
                action = choose_simple(seat_ids[p], state, shared_comp, p,
                                       lineup_params[lineups[g, p]], prng, legal, n, work)
            apply_action(state, shared_comp, action)
            if TRACK_ROUNDS:
                rnd = track_round(state, shared_comp, n_players, rnd, setups, g)
            p = current_player(state)
        write_records(state, shared_comp, game_ids[g], setup_ids[g], seat_ids[:n_players],
                      results, g * n_players, setups, g)
        if keep_states == 1:
            for i in range(STATE_SIZE):
                states[g, i] = state[i]
        g = cuda.atomic.add(queue, 0, 1)


_KERNELS: dict[tuple[str, bool, bool], Any] = {}
_LOCK = threading.Lock()


def _kernel_source(spec: GameSpec, heuristics: bool, net: bool = False) -> Any:
    """``_batch`` in globals bound to ``spec``'s device functions and sizes, with the heuristic
    family in or out, and ``net`` in or out (in only with the family: the network scores the
    heuristic's candidates)."""
    rules, gpu = spec.kernels, spec.kernels.gpu
    if gpu is None:
        raise UserError(f"{spec.title} has no GPU kernels; expected --device cpu")
    if net and (gpu.choose_net is None or not heuristics):
        raise UserError(f"{spec.title}'s GPU kernels do not play net"
                        + ("" if gpu.choose_net is None else " without the heuristic family")
                        + "; expected --device cpu")
    cuda_mod = cuda_module()
    no_fma_contraction()
    env = dict(_batch.__globals__)
    env.update(
        cuda=cuda_mod,
        start_game=device_function(rules.start_game),
        legal_actions=device_function(rules.legal_actions),
        apply_action=device_function(rules.apply_action),
        choose_simple=device_function(gpu.choose_simple),
        choose_net=device_function(gpu.choose_net) if net else None,
        NET_ON=bool(net), NET_SCRATCH_SIZE=max(1, gpu.net_scratch_size) if net else 1,
        write_records=device_function(rules.write_records),
        current_player=device_function(rules.current_player),
        TRACK_ROUNDS=rules.track_round is not None,
        round_of=None if rules.round_of is None else device_function(rules.round_of),
        track_round=(None if rules.track_round is None
                     else device_function(rules.track_round)),
        STATE_SIZE=spec.state_size, COMP_SIZE=spec.comp_size, N_ACTIONS=spec.n_actions,
        MAX_PLAYERS=spec.max_players, WORK_SIZE=max(1, gpu.work_size),
        WORK_DTYPE=gpu.work_dtype, FAMILY_OFF=not heuristics,
    )
    return types.FunctionType(_batch.__code__, env,
                              f"{spec.name}_batch" + ("_heuristics" if heuristics else "")
                              + ("_net" if net else ""))


def jit_options() -> dict[str, Any]:
    """The options every batch kernel is compiled with: ``lto=False`` on a real GPU.

    numba-cuda links a kernel with link-time optimisation whenever nvJitLink is installed (the
    CUDA 12 wheels of ``tajsim[gpu]`` install it): libNVVM then makes LTO-IR, not PTX, and
    nvJitLink generates the code at the first launch with its own options, whose ``fma``
    defaults to on and which numba-cuda does not set. libNVVM's ``-fma=0``
    (:func:`~tajsim.engine.targets.no_fma_contraction`) does not reach that step: the linked
    PTX of Taj Mahal's heuristic kernel held 113 ``fma.rn.f64`` and 706 unrounded
    ``add.f64``/``mul.f64`` (which ptxas may fuse too), where libNVVM's own PTX held none. Its
    near-ties of one or two ulps then went the other way on an H200 in about 1 game in 2,000
    (issue 42). Without LTO the launch loads libNVVM's PTX, every ``add``/``sub``/``mul`` with
    an explicit ``.rn`` that ptxas never fuses. nvJitLink's ``fma`` option cannot be passed
    instead: numba-cuda's linker takes none (and cuda-core 1.2 spells it ``-fma=false``, which
    nvJitLink refuses). The simulator's ``jit`` takes no ``lto``."""
    return {} if simulated() else {"lto": False}


def batch_kernel(spec: GameSpec, heuristics: bool, net: bool = False) -> Any:
    """The CUDA batch kernel of ``spec`` with the heuristic family in or out and ``net`` in or
    out (built once per process; compiled at its first launch, with :func:`jit_options`)."""
    key = (spec.name, bool(heuristics), bool(net))
    with _LOCK:
        built = _KERNELS.get(key)
        if built is None:
            built = cuda_module().jit(_kernel_source(spec, heuristics, net), **jit_options())
            _KERNELS[key] = built
    return built


def aligned(dtype: np.dtype) -> np.dtype:
    """``dtype`` with its fields at aligned offsets: the GPU refuses unaligned record fields, so
    the device writes this layout and the host copies it into the packed one field by field
    (numpy assigns structured arrays by field position; the values are the same)."""
    return np.dtype(dtype.descr, align=True)


def kernel_signature(spec: GameSpec) -> tuple[Any, ...]:
    """The argument types of the batch kernel (as ``play_batch_gpu`` launches it): arrays and
    integers only, which a real GPU's launch can pass."""
    from numba import types as nb
    from numba.np.numpy_support import from_dtype

    i64 = nb.int64
    vec, mat = nb.Array(i64, 1, "C"), nb.Array(i64, 2, "C")
    return (vec, i64, i64, i64, vec, vec, mat, vec, nb.Array(nb.float64, 2, "C"), vec,
            nb.Array(from_dtype(aligned(spec.result_dtype)), 1, "C"),
            nb.Array(from_dtype(aligned(spec.setup_dtype)), 1, "C"), mat, i64, vec)


def compile_ptx(spec: GameSpec, heuristics: bool, cc: tuple[int, int] = (9, 0),
                net: bool = False) -> str:
    """The PTX that a launch of ``spec``'s batch kernel loads on a GPU of compute capability
    ``cc``, made without a GPU (numba-cuda, the CUDA toolkit's libNVVM and, where the kernel is
    linked with LTO, nvJitLink: ``pip install tajsim[gpu]``); the tests look for fused
    multiply-adds in it, the benchmark reports how long it takes.

    It follows the launch, not a path of its own: the options come from the dispatcher that
    :func:`batch_kernel` builds, and with LTO on (``lto`` in its ``targetoptions``) the LTO-IR
    is linked to PTX by numba-cuda's own linker, as at a first launch. A PTX made by libNVVM
    alone while the launch went through nvJitLink is how issue 42's contraction hid from this
    check."""
    cuda_mod = cuda_module()
    from numba.cuda import dispatcher

    lto = bool(batch_kernel(spec, heuristics, net).targetoptions.get("lto"))

    class _Device:  # device functions ask the current device for its compute capability
        compute_capability = cc

    asked = dispatcher.get_current_device
    with _LOCK:
        dispatcher.get_current_device = _Device
        try:
            code, _ = cuda_mod.compile(_kernel_source(spec, heuristics, net),
                                       kernel_signature(spec),
                                       device=False, abi="numba", cc=cc,
                                       output="ltoir" if lto else "ptx")
        finally:
            dispatcher.get_current_device = asked
    if not lto:
        return str(code)
    from numba.cuda.cudadrv.driver import _Linker  # what a launch links with

    arch_cc = (cc[0], cc[1], "a" if cc >= (9, 0) else "")  # as numba-cuda's _ensure_cc
    linker = _Linker(cc=arch_cc, lto=True, additional_flags=["-ptx"])
    linker.add_ltoir(code, f"{spec.name}_batch.ltoir")
    return str(linker.get_linked_ptx().decode())


def check_device() -> None:
    """A one-line ``UserError`` unless numba-cuda is installed and sees a CUDA GPU."""
    cuda_mod = cuda_module()
    try:
        available = bool(cuda_mod.is_available())
    except Exception as exc:  # noqa: BLE001 - the driver's own errors vary
        raise UserError(f"--device gpu: no usable CUDA GPU ({exc}); expected a CUDA GPU and "
                        "its driver, or --device cpu") from None
    if not available:
        raise UserError("--device gpu: numba-cuda finds no CUDA GPU (no device or no driver); "
                        "expected a CUDA GPU and its driver, or --device cpu")


def block_size() -> int:
    """Threads per block: ``TAJSIM_GPU_BLOCK`` or :data:`DEFAULT_BLOCK`."""
    text = os.environ.get("TAJSIM_GPU_BLOCK", "")
    if not text:
        return DEFAULT_BLOCK
    if not text.isdigit() or not 1 <= int(text) <= 1024:
        raise UserError(f"TAJSIM_GPU_BLOCK={text!r}; expected a whole number from 1 to 1024")
    return int(text)


def line_up_switches(spec: GameSpec, strategy_ids: Any,
                     params: Any = None) -> tuple[bool, np.ndarray | None]:
    """The ``heuristics`` and ``net`` arguments of :func:`play_batch_gpu` for a line-up
    (``strategy_ids``, their ``params`` rows), from one call of the game's ``kernel_switches``:
    whether the heuristic family (its second switch) is in, a game with no families to switch
    off (``()``) always passing its scratch; and the weights sets its ``net`` seats name (its
    fourth, int64[...]), or None when it has none (or the game no ``net``)."""
    switches = spec.strategies.kernel_switches(strategy_ids, params)
    heuristics = len(switches) < 2 or switches[1] is not None
    return heuristics, (switches[3] if len(switches) > 3 else None)


def net_weights(spec: GameSpec, strategy_ids: Any, params: Any) -> np.ndarray | None:
    """The ``net`` argument of :func:`play_batch_gpu` (see :func:`line_up_switches`)."""
    return line_up_switches(spec, strategy_ids, params)[1]


def heuristics_on(spec: GameSpec, strategy_ids: Any) -> bool:
    """The ``heuristics`` argument of :func:`play_batch_gpu` (see :func:`line_up_switches`)."""
    return line_up_switches(spec, strategy_ids)[0]


def play_batch_gpu(spec: GameSpec, comp: np.ndarray, n_players: int, rules: int,
                   master_seed: int, game_ids: np.ndarray, setup_ids: np.ndarray,
                   lineups: np.ndarray, lineup_ids: np.ndarray, lineup_params: np.ndarray,
                   results: np.ndarray, setups: np.ndarray, heuristics: bool,
                   states: np.ndarray | None = None, block: int | None = None,
                   net: np.ndarray | None = None) -> None:
    """Play the games on the GPU and fill ``results`` and ``setups`` as ``play_batch`` does.

    Parameters
    ----------
    spec : GameSpec with ``kernels.gpu``
    comp : int64[comp_size]; n_players, rules, master_seed : int
    game_ids, setup_ids : int64[G]; lineups : int64[G, n_players]
    lineup_ids : int64[L]; lineup_params : float64[L, n_params]
    results : result_dtype[G * n_players] (out); setups : setup_dtype[G] (out)
    heuristics : bool
        Whether the line-up has the heuristic family (else its code is left out).
    states : int64[G, state_size], optional (out)
        Each game's final state.
    block : int, optional
        Threads per block (default :func:`block_size`).
    net : int64[...], optional
        The weights sets of the line-up's ``net`` seats (:func:`net_weights`); None: the
        kernel without the network.
    """
    cuda_mod = cuda_module()
    kern = batch_kernel(spec, heuristics, net is not None)
    G = int(game_ids.shape[0])
    if G == 0:
        return
    threads = block or block_size()
    if simulated():
        # Python threads: one small block, half as many threads as games, so that the queue
        # hands out games (the tests go through it).
        threads, blocks = max(1, min(threads, 32, G // 2)), 1
    else:  # enough threads to fill every SM; the queue hands out the rest
        sms = int(cuda_mod.get_current_device().MULTIPROCESSOR_COUNT)
        blocks = max(1, min(-(-G // threads), sms * max(1, MAX_THREADS_PER_SM // threads)))
    want_states = states if states is not None else np.zeros((1, spec.state_size), np.int64)
    results_dev = np.zeros(results.shape, aligned(results.dtype))
    setups_dev = np.zeros(setups.shape, aligned(setups.dtype))
    d_results = cuda_mod.to_device(results_dev)
    d_setups = cuda_mod.to_device(setups_dev)
    d_states = cuda_mod.to_device(want_states)
    kern[blocks, threads](
        cuda_mod.to_device(np.ascontiguousarray(comp, np.int64)), np.int64(n_players),
        np.int64(rules), np.int64(master_seed),
        cuda_mod.to_device(np.ascontiguousarray(game_ids, np.int64)),
        cuda_mod.to_device(np.ascontiguousarray(setup_ids, np.int64)),
        cuda_mod.to_device(np.ascontiguousarray(lineups, np.int64)),
        cuda_mod.to_device(np.ascontiguousarray(lineup_ids, np.int64)),
        cuda_mod.to_device(np.ascontiguousarray(lineup_params, np.float64)),
        cuda_mod.to_device(np.ascontiguousarray(net if net is not None else np.zeros(1),
                                                np.int64)),
        d_results, d_setups, d_states, np.int64(0 if states is None else 1),
        cuda_mod.to_device(np.array([blocks * threads], np.int64)))
    d_results.copy_to_host(results_dev)
    d_setups.copy_to_host(setups_dev)
    results[...] = results_dev
    setups[...] = setups_dev
    if states is not None:
        d_states.copy_to_host(states)
