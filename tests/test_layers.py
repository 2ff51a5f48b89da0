"""The one-way layers (docs/architecture.md), checked by import-linter's contracts in
pyproject.toml: the tree keeps them, and an upward import breaks them."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LINT = shutil.which("lint-imports", path=str(Path(sys.executable).parent)) or shutil.which(
    "lint-imports")


def _lint(package_parent: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(package_parent))
    return subprocess.run([LINT, "--config", str(ROOT / "pyproject.toml"), "--no-cache"],
                          cwd=package_parent, env=env, capture_output=True, text=True,
                          timeout=300)


pytestmark = pytest.mark.skipif(LINT is None, reason="import-linter is not installed")


def test_the_tree_keeps_every_contract():
    out = _lint(ROOT)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-2000:]
    assert "0 broken" in out.stdout


@pytest.mark.parametrize("module,line,broken", [
    # the engine reaching up into the report
    ("tajsim/engine/spec.py", "import tajsim.reporting.report", "Generic layers"),
    # a game's rules reaching into the runner
    ("tajsim/games/tajmahal/engine/nb.py", "import tajsim.running.store",
     "use only the generic engine"),
    # the runner naming a game instead of asking the registry
    ("tajsim/running/chunk.py", "import tajsim.games.tajmahal.engine.enums",
     "only through the registry"),
    # one game's analyses borrowing another game's code
    ("tajsim/games/maharani/analyses/__init__.py",
     "import tajsim.games.tajmahal.analyses.commodities", "independent of each other"),
])
def test_an_upward_import_breaks_a_contract(tmp_path, module, line, broken):
    copy = tmp_path / "tree"
    shutil.copytree(ROOT / "tajsim", copy / "tajsim",
                    ignore=shutil.ignore_patterns("__pycache__"))
    target = copy / module
    target.write_text(target.read_text() + f"\n{line}  # an upward import\n")
    out = _lint(copy)
    assert out.returncode != 0, out.stdout[-2000:]
    assert "BROKEN" in out.stdout and broken in out.stdout.replace("\n", " ")
