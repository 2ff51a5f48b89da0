"""Array helpers for the compiled kernels."""

from __future__ import annotations

from numba import njit


@njit(cache=True, inline="always")
def copy_into(dst, src):
    """``dst[i] = src[i]`` for every ``i < src.shape[0]`` (1-D arrays, ``dst`` at least as long).

    Not ``dst[:] = src``: a slice assignment makes numba compile its shape-mismatch error, whose
    message formats the shapes into a string, 3-4 s of a cold compile at every such line
    (``docs/architecture.md``, "Compile time")."""
    for i in range(src.shape[0]):
        dst[i] = src[i]
