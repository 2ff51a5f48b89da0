"""A process-wide stop request that compiled searches read: Ctrl-C ends a long search at once.

A search with a large budget (``ismcts:ms=60000``: about 4 hours a 4-player game) runs inside a
compiled kernel, with the GIL released, for minutes a decision; Python's ``KeyboardInterrupt``
cannot reach it, and a run used to wait for the chunk in hand to end (90 s and more after
Ctrl-C). The searches (Taj Mahal's ``ismcts``, Maharani's ``mcts``, Maharaja's ``search``) call
:func:`stop_requested` after each iteration, beside their time budget, and end the search when
it is set; the command line sets it on Ctrl-C (``tajsim.running.interrupts``), and a game then
ends within moments. Such a game is not a real one: whoever asked for the stop discards what was
played after it (the runner stores no chunk finished after Ctrl-C).

The flag is a C ``int32`` whose address is given to LLVM's linker under a symbol name
(``llvmlite.binding.add_symbol``) before any kernel is compiled or loaded from numba's cache:
compiled code loads it by name (an address in the code would defeat the cache), atomically, so
that the compiler never hoists the load out of a search loop. Uncompiled code
(``NUMBA_DISABLE_JIT=1``) reads it from Python.
"""

from __future__ import annotations

import ctypes

import llvmlite.binding as llvm
from llvmlite import ir
from numba import njit, types
from numba.core import config as numba_config
from numba.extending import intrinsic

__all__ = ["clear_stop", "request_stop", "stop_requested"]

#: The symbol compiled code finds the flag by.
SYMBOL = "tajsim_stop_requested"

_flag = ctypes.c_int32(0)
llvm.add_symbol(SYMBOL, ctypes.addressof(_flag))


def request_stop() -> None:
    """Ask every search running in this process to end after its current iteration (and every
    later one at once, until :func:`clear_stop`)."""
    _flag.value = 1


def clear_stop() -> None:
    """Let searches run their budgets again."""
    _flag.value = 0


@intrinsic
def _load_flag(typingctx):
    """The flag's value (an atomic, unordered load of the symbol ``SYMBOL``)."""
    sig = types.int32()

    def codegen(context, builder, signature, args):
        module = builder.module
        try:
            flag = module.get_global(SYMBOL)
        except KeyError:
            flag = ir.GlobalVariable(module, ir.IntType(32), name=SYMBOL)
            flag.linkage = "external"
        return builder.load_atomic(flag, "monotonic", 4)

    return sig, codegen


if numba_config.DISABLE_JIT:
    def stop_requested() -> bool:
        """Whether a stop was requested (:func:`request_stop`)."""
        return _flag.value != 0
else:
    @njit(cache=True, inline="always")
    def stop_requested() -> bool:
        """Whether a stop was requested (:func:`request_stop`)."""
        return _load_flag() != 0
