"""One source, two targets: rules and policy kernels compiled for the CPU and for a CUDA GPU.

A kernel is written once, as a plain Python function over flat arrays and scalars, and decorated
with :func:`kernel`. The decorator returns numba's CPU dispatcher (``njit(cache=True)``), so the
CPU path is exactly what it always was, and it remembers the Python source. On request,
:func:`device_function` compiles that same source with ``numba.cuda.jit(device=True)``: every
kernel the function calls is resolved to *its* device function (the callee's source compiled for
the GPU, recursively), never to the CPU dispatcher. Nothing is forked.

Rules for a dual-target kernel (the GPU has no heap and no exceptions in device code):

* no allocation: scratch arrays are passed in (the CPU entry points allocate them once per batch
  or per call, the GPU batch kernels pass ``cuda.local.array`` scratch);
* no ``raise``, no lists, dicts or strings; module-level numpy arrays are frozen as constants;
* floating point limited to IEEE operations that round the same on both targets (``+ - * /``,
  comparisons, ``min``/``max``, ``floor``, int <-> float conversions): no ``exp``/``log`` (libm
  and libdevice differ in the last bits) and no fused multiply-add (``numba.cuda`` contracts
  ``a * b + c`` into one FMA by default; :func:`no_fma_contraction` turns that off).

A kernel whose uncompiled behaviour must differ from its compiled one (numpy scalars refuse
some casts that compiled code does silently) names the Python variant with ``python=``: it is
what runs under ``NUMBA_DISABLE_JIT=1`` and in numba-cuda's simulator (``NUMBA_ENABLE_CUDASIM=1``,
which runs device functions as Python).

numba-cuda is optional (``pip install tajsim[gpu]``): only :func:`device_function`,
:func:`cuda_module` and their callers import it.
"""

from __future__ import annotations

import importlib
import threading
import types
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from numba import njit
from numba.core import config as numba_config

from tajsim.engine import numba_inline
from tajsim.errors import UserError

# Before any kernel compiles: numba's IR inliner without its copies (compile time only).
numba_inline.install()


@dataclass
class _Source:
    """What :func:`kernel` remembers of one kernel."""

    py_func: Callable[..., Any]
    python: Callable[..., Any] | None
    gpu: Callable[..., Any] | None = None
    device: Any = None


# id(compiled object) -> (compiled object, source); the object is kept so its id stays unique.
_SOURCES: dict[int, tuple[Any, _Source]] = {}
_BUILD_LOCK = threading.RLock()


def kernel(func: Callable[..., Any] | None = None, *,
           python: Callable[..., Any] | None = None, gpu: Callable[..., Any] | None = None,
           inline: str | Callable[..., bool] = "never") -> Any:
    """Compile ``func`` for the CPU (``numba.njit(cache=True)``) and register its source for the
    GPU (:func:`device_function`).

    Parameters
    ----------
    func : callable
        The kernel's Python source (use as ``@kernel`` or ``@kernel(python=...)``).
    python : callable, optional
        The variant to run uncompiled (``NUMBA_DISABLE_JIT=1`` and the CUDA simulator) where it
        must differ from ``func``.
    gpu : callable, optional
        The variant to compile for the GPU where it must differ from ``func`` (code for the
        CPU's runtime, such as its reference counts, that has no GPU counterpart); the
        simulator runs ``python`` if given, else this.
    inline : "never", "always" or a cost model such as :func:`into_play_loop`
        numba's IR inlining on the CPU (``njit(inline=...)``), for thin dispatchers: see
        ``docs/architecture.md``, "Compile time".

    Returns
    -------
    The CPU dispatcher (under ``NUMBA_DISABLE_JIT=1``: the Python function itself).
    """

    def wrap(f: Callable[..., Any]) -> Any:
        compiled = (python or f) if numba_config.DISABLE_JIT else \
            njit(cache=True, inline=inline)(f)
        _SOURCES[id(compiled)] = (compiled, _Source(f, python, gpu))
        return compiled

    return wrap if func is None else wrap(func)


#: The generated batch loop's functions (``tajsim/play/batch_loop.py.tmpl``): a kernel made
#: with ``inline=into_play_loop`` is inlined into these, and so into whatever inlines
#: ``play_to_end_nb`` (``play_batch_nb``, ``play_out_nb``), and nowhere else.
PLAY_LOOP_FUNCTIONS = ("play_to_end_nb", "play_batch_nb")


def into_play_loop(expr: Any, caller_ir: Any, callee_ir: Any) -> bool:
    """numba's ``inline=`` cost model for an engine's per-action kernels (``legal_actions_nb``,
    ``apply_action_nb``): inlined (numba IR) into the generated play loop, where they run once
    an action (4-5 % of a random game is their call), and called out of line by everything
    else, the searches above all, whose every inlined copy would be optimised again (compile
    time). ``play_to_end_nb`` is itself inlined into ``play_batch_nb`` and ``play_out_nb``, so
    the kernel is inlined there too. A cost model costs numba a parse of the kernel's source
    at each other call site it decides on (10-20 ms each)."""
    return caller_ir.func_id.func_name in PLAY_LOOP_FUNCTIONS


def is_kernel(obj: Any) -> bool:
    """Whether ``obj`` was made by :func:`kernel`."""
    entry = _SOURCES.get(id(obj))
    return entry is not None and entry[0] is obj


def cuda_module() -> Any:
    """``numba.cuda`` (real or simulated), or a one-line ``UserError`` saying how to get it."""
    try:
        from numba import cuda
    except ImportError as exc:  # pragma: no cover - depends on the installation
        raise UserError(f"--device gpu needs numba-cuda ({exc}); expected it installed: "
                        "pip install 'tajsim[gpu]'") from None
    if not simulated():
        _check_compiler()
    return cuda


def _check_compiler() -> None:
    """A one-line ``UserError`` if numba-cuda's compiler cannot load next to this numpy.

    ``import numba.cuda`` succeeds, but the typing registries load at the first compile, and
    numba-cuda 0.30.4's array module fails next to numpy 2.5 (``np.row_stack`` is gone; seen on
    a GPU machine's own image): loaded here, the user gets one line instead of a traceback from
    inside numba-cuda's compiler."""
    try:
        importlib.import_module("numba.cuda.np.arrayobj")
    except (AttributeError, ImportError) as exc:
        from importlib.metadata import version

        import numpy

        raise UserError(f"--device gpu: numba-cuda {version('numba-cuda')} does not run with "
                        f"numpy {numpy.__version__} ({exc}); expected numpy<2.5: "
                        "pip install 'tajsim[gpu]'") from None


def simulated() -> bool:
    """Whether numba-cuda runs in its simulator (``NUMBA_ENABLE_CUDASIM=1``)."""
    return bool(numba_config.ENABLE_CUDASIM)


def _referenced_names(code: types.CodeType) -> set[str]:
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _referenced_names(const)
    return names


def device_function(compiled: Any) -> Any:
    """The GPU device function of a kernel made by :func:`kernel` (built once, then cached).

    The kernel's Python source is compiled with ``numba.cuda.jit(device=True)`` in a copy of its
    module's globals where every kernel it names is replaced by that kernel's device function.
    """
    entry = _SOURCES.get(id(compiled))
    if entry is None or entry[0] is not compiled:
        raise TypeError(f"{compiled!r} is not a dual-target kernel (@kernel)")
    source = entry[1]
    with _BUILD_LOCK:
        if source.device is None:
            cuda = cuda_module()
            if simulated() and source.python is not None:
                base = source.python
            else:
                base = source.gpu or source.py_func
            env = dict(base.__globals__)
            for name in _referenced_names(base.__code__):
                value = env.get(name)
                if is_kernel(value):
                    env[name] = device_function(value)
            clone = types.FunctionType(base.__code__, env, base.__name__, base.__defaults__,
                                       base.__closure__)
            clone.__qualname__ = base.__qualname__
            clone.__module__ = base.__module__
            clone.__doc__ = base.__doc__
            source.device = cuda.jit(device=True)(clone)
        return source.device


def no_fma_contraction() -> None:
    """Make libNVVM compile without fused multiply-add contraction (idempotent, process-wide).

    libNVVM contracts ``a * b + c`` into one FMA (one rounding instead of two) unless it is given
    ``-fma=0``; numba-cuda 0.30 passes no such option (only ``fastmath``, which turns FMA *on*),
    so this wraps its ``compile_ir``, which numba-cuda calls whenever it makes PTX or LTO-IR (at a
    kernel's first launch). It does not reach link-time optimisation: with nvJitLink installed
    numba-cuda links LTO-IR there, and nvJitLink contracts FMAs by default (numba-cuda's linker
    takes no option against it), so the batch kernels are also built with ``lto=False``
    (:func:`tajsim.engine.gpu.jit_options`). The CPU never contracts (numba emits no
    ``contract`` flags), so both targets then round every operation alike.
    ``tests/test_gpu.py`` checks the PTX a launch loads for ``fma`` instructions and for adds
    and multiplies without ``.rn``.
    """
    cuda_module()
    if simulated():  # the simulator runs Python: nothing is contracted
        return
    from numba.cuda.cudadrv import nvvm

    with _BUILD_LOCK:
        if getattr(nvvm.compile_ir, "_tajsim_no_fma", False):
            return
        original = nvvm.compile_ir

        def compile_ir(llvmir: Any, **options: Any) -> Any:
            if options.get("fastmath"):
                raise ValueError("fastmath contracts FMAs; the kernels need IEEE rounding")
            options["fma"] = False
            return original(llvmir, **options)

        compile_ir._tajsim_no_fma = True  # type: ignore[attr-defined]
        nvvm.compile_ir = compile_ir
