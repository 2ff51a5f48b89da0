"""numba's IR inliner without its two defensive copies of every inlined callee (compile time).

A kernel helper marked ``inline="always"`` is inlined into each caller in numba IR.
``InlineWorker.inline_function`` builds a fresh IR of the callee for every call site, by running
the untyped pipeline on its source. It then hands that IR to ``inline_ir``, which deep-copies
every block twice: once to have a copy to mutate, once to return an unmutated copy. The caller
here, ``InlineInlinables``, throws the unmutated copy away.

``copy.deepcopy`` of a block copies the function's whole variable scope with it, so the copies
cost the blocks times the variables of the callee, at every site. In Taj Mahal's heuristic the
inlining pass took about 12 of the heuristic's 27 s of cold compile, most of it these copies;
the bid decision alone, inlined once with about 300 blocks and 2,700 variables, took 9 s to
inline. numba/numba#8989 (open) reports the copies; numba-cuda has a related change under review
(NVIDIA/numba-cuda#689) that drops the second copy.

:func:`install` wraps ``inline_function`` so that ``inline_ir``'s copies of the fresh IR return
its blocks themselves: each block gets an instance ``__deepcopy__`` that returns the block, and
loses it again when the inlining is done. Nothing else holds that IR, so mutating it in place
is what the copy would have allowed anyway. The first value ``inline_ir`` returns, meant as an
unmutated copy of the callee, then shares the mutated blocks; ``InlineInlinables``, the only
caller of ``inline_function`` in numba, discards it. The compiled code does not change: the LLVM
IR and machine code of the 59 kernels a Taj Mahal ``ismcts`` line-up compiles are the same with
and without the wrapper, up to the numbers numba puts in record types' mangled names
(``tests/test_numba_inline.py`` compares a nested inline chain's LLVM IR).

The wrapper is installed when :mod:`tajsim.engine.targets` (which every game's kernels import)
is imported, for numba 0.68, whose inliner it was checked against. Under another numba, where
the inliner may differ, or where its methods have changed shape, numba is left as it is (the
compile is slower, nothing else changes). So is it under ``TAJSIM_NUMBA_INLINE_COPIES=1``.
"""

from __future__ import annotations

import os
from typing import Any

import numba

#: numba versions the wrapper is installed for (>=, <): those whose inliner was read for it.
CHECKED_VERSIONS = ((0, 68), (0, 69))
#: The environment variable that keeps numba's copies.
KEEP_COPIES_ENV = "TAJSIM_NUMBA_INLINE_COPIES"


def _version(text: str) -> tuple[int, int]:
    major, minor = text.split(".")[:2]
    return int(major), int("".join(ch for ch in minor if ch.isdigit()) or 0)


def install() -> bool:
    """Wrap ``InlineWorker.inline_function`` (idempotent). Returns whether the wrapper is in place:
    False for a numba version outside :data:`CHECKED_VERSIONS`, for a worker that lacks the
    methods it relies on, and under ``TAJSIM_NUMBA_INLINE_COPIES=1``."""
    if os.environ.get(KEEP_COPIES_ENV, "") not in ("", "0"):
        return False
    low, high = CHECKED_VERSIONS
    if not low <= _version(numba.__version__) < high:
        return False
    from numba.core import inline_closurecall

    worker = inline_closurecall.InlineWorker
    if not all(hasattr(worker, name)
               for name in ("inline_function", "run_untyped_passes", "inline_ir")):
        return False
    if installed():
        return True

    def inline_function(self: Any, caller_ir: Any, block: Any, i: int, function: Any,
                        arg_typs: Any = None) -> Any:
        callee_ir = self.run_untyped_passes(function)
        fresh = list(callee_ir.blocks.values())
        for fresh_block in fresh:
            fresh_block.__deepcopy__ = _itself(fresh_block)
        try:
            return self.inline_ir(caller_ir, block, i, callee_ir,
                                  function.__code__.co_freevars, arg_typs=arg_typs)
        finally:  # the blocks now live in the caller: later copies of it must copy them
            for fresh_block in fresh:
                fresh_block.__dict__.pop("__deepcopy__", None)

    inline_function._tajsim_no_copies = True  # type: ignore[attr-defined]
    inline_function.__doc__ = worker.inline_function.__doc__
    worker.inline_function = inline_function
    return True


def installed() -> bool:
    """Whether :func:`install` has wrapped numba's inliner in this process."""
    from numba.core import inline_closurecall

    return bool(getattr(inline_closurecall.InlineWorker.inline_function,
                        "_tajsim_no_copies", False))


def _itself(block: Any) -> Any:
    def deepcopy(memo: Any) -> Any:
        return block

    return deepcopy
