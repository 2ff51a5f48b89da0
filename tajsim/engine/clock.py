"""The clock of the searches' time budgets (``ms=`` of Maharani's ``mcts``, Taj Mahal's
``ismcts`` and Maharaja's ``search``): this thread's CPU time in nanoseconds, readable inside
compiled code. CPU only: no GPU kernel searches.

Thread CPU time rather than wall time: a search on a shared machine then gets the same work
whatever the other processes do (what the strength-per-second curve needs). Compiled code calls
``clock_gettime(CLOCK_THREAD_CPUTIME_ID)`` by its symbol (an address would defeat numba's
cache); uncompiled code (``NUMBA_DISABLE_JIT=1``) calls :func:`time.thread_time_ns`.
"""

from __future__ import annotations

import time

from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.core import config as numba_config
from numba.extending import intrinsic

CLOCK_THREAD_CPUTIME_ID = 3  # Linux <time.h>
NS_PER_S = 1_000_000_000


@intrinsic
def _clock_gettime_ns(typingctx, clock_id):
    """int64 nanoseconds of POSIX clock ``clock_id`` (a ``struct timespec`` of two int64)."""
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        timespec = ir.LiteralStructType([i64, i64])
        fnty = ir.FunctionType(ir.IntType(32), [ir.IntType(32), timespec.as_pointer()])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "clock_gettime")
        ts = cgutils.alloca_once(builder, timespec)
        builder.call(fn, [builder.trunc(args[0], ir.IntType(32)), ts])
        sec = builder.load(cgutils.gep_inbounds(builder, ts, 0, 0))
        nsec = builder.load(cgutils.gep_inbounds(builder, ts, 0, 1))
        return builder.add(builder.mul(sec, ir.Constant(i64, NS_PER_S)), nsec)

    return sig, codegen


if numba_config.DISABLE_JIT:
    def thread_time_ns() -> int:
        """This thread's CPU time in nanoseconds."""
        return time.thread_time_ns()
else:
    @njit(cache=True, inline="always")
    def thread_time_ns() -> int:
        """This thread's CPU time in nanoseconds."""
        return _clock_gettime_ns(CLOCK_THREAD_CPUTIME_ID)
