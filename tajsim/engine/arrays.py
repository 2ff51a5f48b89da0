"""Array helpers for the compiled kernels."""

from __future__ import annotations

from numba import njit
from numba.core import cgutils, types
from numba.core.imputils import impl_ret_borrowed
from numba.extending import intrinsic

from tajsim.engine.targets import kernel


@njit(cache=True, inline="always")
def copy_into(dst, src):
    """``dst[i] = src[i]`` for every ``i < src.shape[0]`` (1-D arrays, ``dst`` at least as long).

    Not ``dst[:] = src``: a slice assignment makes numba compile its shape-mismatch error, whose
    message formats the shapes into a string, 3-4 s of a cold compile at every such line
    (``docs/architecture.md``, "Compile time")."""
    for i in range(src.shape[0]):
        dst[i] = src[i]


@intrinsic
def _borrowed(typingctx, arr):
    """The array ``arr`` with a null ``meminfo`` (the same data, shape, strides and parent);
    any other value (``None`` for a kernel switch, a scalar) as it is."""
    if not isinstance(arr, types.Array):
        def same(context, builder, signature, args):
            return impl_ret_borrowed(context, builder, signature.return_type, args[0])

        return arr(arr), same

    def codegen(context, builder, signature, args):
        src = context.make_array(signature.args[0])(context, builder, args[0])
        out = context.make_array(signature.return_type)(context, builder)
        for name in ("parent", "nitems", "itemsize", "data", "shape", "strides"):
            setattr(out, name, getattr(src, name))
        out.meminfo = cgutils.get_null_value(out.meminfo.type)
        return out._getvalue()

    return arr(arr), codegen


def _itself(arr):
    """``borrowed`` uncompiled and on the GPU (no reference counts there): the array itself."""
    return arr


@kernel(python=_itself, gpu=_itself, inline="always")
def borrowed(arr):
    """A view of the argument array ``arr`` that numba does not reference-count.

    numba counts the references to every array a compiled function holds: each alias, slice or
    reshape of an array, and many a pass of one through an inlined helper, is an
    ``NRT_incref``/``NRT_decref`` pair, an atomic add on the array's ``meminfo``. In the play
    loop, the heuristics and the searches they ran at every decision, many inside loops:
    without them a game runs 1.2-2.6 times faster (``benchmarks/README.md``, "Issue 20:
    borrowed arrays"). With a null ``meminfo`` the pair does nothing, and where LLVM sees the
    null (the view is made in the same function) it removes the pair altogether.

    Use it only on a function's **arguments**, at its top (``state = borrowed(state)``): the
    caller holds its own reference for the whole call, so the memory outlives the view. Never
    on an array the function allocates (numba frees it after its last use, which may come
    before the view's), never to return a view, or anything sliced from one, to the caller,
    and never on a kernel switch that the function tests with ``is None``: numba prunes such a
    test only on the argument itself. An ``inline="always"`` function that borrows is part of
    its caller: what it borrows must live as long there (the batch loop's ``play_to_end_nb``,
    inlined into ``play_batch_nb``, borrows arrays that the batch allocates once and uses in
    every game). A value that is not an array passes through. On the GPU, and uncompiled, it
    is the array itself.
    """
    return _borrowed(arr)
