"""numba's IR inliner without its defensive copies (tajsim.engine.numba_inline): installed for
this numba, the same compiled code as numba's own inliner, the fresh blocks inlined themselves,
and no copy hook left on a block."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numba
import pytest

from tajsim.engine import numba_inline, targets  # noqa: F401  (targets installs the wrapper)

pytestmark = pytest.mark.skipif(bool(os.environ.get("NUMBA_DISABLE_JIT")),
                                reason="the inliner runs only when numba compiles")

# A helper inlined at two sites of a helper that is itself inlined at two sites (numba runs the
# untyped pipeline, and so the inner inlining, once per site), with loops and a branch.
CHAIN = '''
import numpy as np
from numba import njit

@njit(inline="always")
def leaf(a, n):
    s = 0
    for k in range(n):
        s += a[k] * (k + 1)
    return s

@njit(inline="always")
def middle(a, i):
    if i % 2 == 0:
        return leaf(a, i) - leaf(a, i + 1)
    return leaf(a, i + 2)

@njit
def top(a):
    t = 0
    for i in range(4):
        t += middle(a, i)
    if t > 5:
        t += middle(a, 1)
    return t
'''

PROBE = '''
import sys
import numpy as np
sys.path.insert(0, sys.argv[1])
import tajsim.engine.targets  # installs the wrapper unless TAJSIM_NUMBA_INLINE_COPIES=1
from tajsim.engine.numba_inline import installed
import chain_module
print(installed())
print(chain_module.top(np.arange(12, dtype=np.int64)))
sig = chain_module.top.signatures[0]
print(chain_module.top.inspect_llvm(sig))
'''


def test_installed_for_the_checked_numba_versions():
    low, high = numba_inline.CHECKED_VERSIONS
    expected = (low <= numba_inline._version(numba.__version__) < high
                and os.environ.get(numba_inline.KEEP_COPIES_ENV, "") in ("", "0"))
    assert numba_inline.installed() == expected
    assert numba_inline.install() == expected  # idempotent


def test_version_parsing():
    assert numba_inline._version("0.68.1") == (0, 68)
    assert numba_inline._version("0.70.0rc1") == (0, 70)
    assert numba_inline._version("1.0") == (1, 0)


def _probe(tmp_path: Path, keep_copies: bool) -> list[str]:
    (tmp_path / "chain_module.py").write_text(CHAIN)
    env = dict(os.environ)
    env.pop("NUMBA_CACHE_DIR", None)
    env[numba_inline.KEEP_COPIES_ENV] = "1" if keep_copies else "0"
    out = subprocess.run([sys.executable, "-c", textwrap.dedent(PROBE), str(tmp_path)],
                         env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout.split("\n", 2)


@pytest.mark.skipif(not numba_inline.installed(), reason="the wrapper is not installed here")
def test_same_code_as_numbas_own_inliner(tmp_path):
    wrapped, value, llvm = _probe(tmp_path, keep_copies=False)
    plain, plain_value, plain_llvm = _probe(tmp_path, keep_copies=True)
    assert (wrapped, plain) == ("True", "False")
    # middle(a, i) for a = 0..11: leaf(a, n) = sum k (k+1), k < n.
    leaf = [sum(k * (k + 1) for k in range(n)) for n in range(8)]
    middle = [leaf[0] - leaf[1], leaf[3], leaf[2] - leaf[3], leaf[5]]
    total = sum(middle)
    assert int(value) == (total + middle[1] if total > 5 else total)
    assert value == plain_value
    assert llvm == plain_llvm


@pytest.mark.skipif(not numba_inline.installed(), reason="the wrapper is not installed here")
def test_fresh_blocks_inlined_uncopied_and_unhooked(monkeypatch):
    """The callee's fresh blocks themselves reach the caller (a wrapper that let numba copy
    them fails), and none keeps the copy hook (a later copy of the caller must copy them)."""
    from numba import njit
    from numba.core import inline_closurecall

    worker = inline_closurecall.InlineWorker
    fresh: set[int] = set()
    kept: list = []  # the fresh blocks stay alive, so no other block can take their ids
    merged: list = []
    run_untyped_passes, inline_ir = worker.run_untyped_passes, worker.inline_ir

    def fresh_ir(self, *args, **kwargs):
        ir = run_untyped_passes(self, *args, **kwargs)
        fresh.update(id(block) for block in ir.blocks.values())
        kept.extend(ir.blocks.values())
        return ir

    def inline_spy(self, *args, **kwargs):
        result = inline_ir(self, *args, **kwargs)
        # new_blocks: the caller's block split off after the call, then the callee's blocks
        merged.extend(block for _, block in result[3][1:])
        return result

    monkeypatch.setattr(worker, "run_untyped_passes", fresh_ir)
    monkeypatch.setattr(worker, "inline_ir", inline_spy)
    namespace: dict = {"njit": njit}
    exec(compile(CHAIN.replace("import numpy as np\nfrom numba import njit\n", ""),
                 "<chain>", "exec"), namespace)
    import numpy as np

    namespace["top"](np.arange(12, dtype=np.int64))
    assert len(merged) > 10  # both levels were inlined through the wrapper
    assert [id(block) in fresh for block in merged] == [True] * len(merged)
    assert not [block for block in merged if "__deepcopy__" in vars(block)]


def test_into_play_loop_inlines_only_into_the_loop():
    """A kernel made with ``inline=targets.into_play_loop`` is inlined into the play loop's
    functions and called out of line from anything else (its symbol is called there only)."""
    import numpy as np
    from numba import njit

    @njit(inline=targets.into_play_loop)
    def per_action(a, i):
        a[i] += 1
        return a[i] * 3

    @njit
    def play_to_end_nb(a):
        return per_action(a, 0) + per_action(a, 1)

    @njit
    def search(a):
        return per_action(a, 0) + per_action(a, 1)

    a = np.zeros(2, np.int64)
    assert play_to_end_nb(a) == 6 and search(a) == 12

    def calls(dispatcher) -> bool:
        """Whether the typed numba IR still holds a call of ``per_action`` (LLVM may inline a
        function this small on its own, so the LLVM cannot tell)."""
        text = io.StringIO()
        dispatcher.inspect_types(file=text)
        lines = text.getvalue().splitlines()
        names = {line.split("=")[0].strip(" #") for line in lines if "(per_action:" in line}
        return any(f"call {name}(" in line for line in lines for name in names)

    assert not calls(play_to_end_nb)
    assert calls(search)
