"""The one-way layers (docs/architecture.md): import-linter's contracts in pyproject.toml (0
upward arrows: the tree keeps them, an upward import breaks them, a new wing is checked with no
edit of the contracts) and no import circle among tajsim's modules (grimp's import graph)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tajsim.games import GAME_PACKAGES

ROOT = Path(__file__).resolve().parents[1]
LINT = shutil.which("lint-imports", path=str(Path(sys.executable).parent)) or shutil.which(
    "lint-imports")


# Strongly connected components of more than one module in grimp's graph of ``tajsim`` (the
# graph import-linter checks), found with Tarjan's algorithm; printed as JSON. Imports under
# ``if TYPE_CHECKING:`` are left out: they serve annotations and never run, so a module may name
# the types of a module that imports it (engine/spec.py names BaseGame) without a circle.
CIRCLES = """
import json, grimp
graph = grimp.build_graph("tajsim", cache_dir=None, exclude_type_checking_imports=True)
imports = {m: sorted(graph.find_modules_directly_imported_by(m)) for m in sorted(graph.modules)}
index, low, stack, on_stack, circles = {}, {}, [], set(), []
for root in imports:
    if root in index:
        continue
    work = [(root, iter(imports[root]))]
    index[root] = low[root] = len(index); stack.append(root); on_stack.add(root)
    while work:
        module, targets = work[-1]
        for target in targets:
            if target not in index:
                index[target] = low[target] = len(index)
                stack.append(target); on_stack.add(target)
                work.append((target, iter(imports[target])))
                break
            if target in on_stack:
                low[module] = min(low[module], index[target])
        else:
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[module])
            if low[module] == index[module]:
                component = []
                while True:
                    member = stack.pop(); on_stack.discard(member); component.append(member)
                    if member == module:
                        break
                if len(component) > 1:
                    circles.append(sorted(component))
print(json.dumps(circles))
"""


def _env(package_parent: Path) -> dict[str, str]:
    # ``tajsim`` from package_parent; tests.import_contracts (a contract type) from the checkout
    return dict(os.environ, PYTHONPATH=os.pathsep.join([str(package_parent), str(ROOT)]))


def _lint(package_parent: Path) -> subprocess.CompletedProcess:
    return subprocess.run([LINT, "--config", str(ROOT / "pyproject.toml"), "--no-cache"],
                          cwd=package_parent, env=_env(package_parent), capture_output=True,
                          text=True, timeout=300)


def _circles(package_parent: Path) -> list[list[str]]:
    out = subprocess.run([sys.executable, "-c", CIRCLES], cwd=package_parent,
                         env=_env(package_parent), capture_output=True, text=True, timeout=300,
                         check=True)
    return json.loads(out.stdout)


def _copy_tree(tmp_path: Path) -> Path:
    copy = tmp_path / "tree"
    shutil.copytree(ROOT / "tajsim", copy / "tajsim",
                    ignore=shutil.ignore_patterns("__pycache__"))
    return copy


def _append(copy: Path, module: str, line: str) -> None:
    target = copy / module
    target.write_text(target.read_text() + f"\n{line}  # an upward import\n")


lint = pytest.mark.skipif(LINT is None, reason="import-linter is not installed")


@lint
def test_the_tree_keeps_every_contract():
    out = _lint(ROOT)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-2000:]
    assert "0 broken" in out.stdout


@lint
@pytest.mark.parametrize("module,line,broken", [
    # the engine reaching up into the report
    ("tajsim/engine/spec.py", "import tajsim.reporting.report", "Layers point one way"),
    # a game's rules reaching into the runner
    ("tajsim/games/tajmahal/engine/nb.py", "import tajsim.running.store", "Layers point one way"),
    # a game's spec (its lower half) importing its own analyses (its upper half)
    ("tajsim/games/maharaja/spec.py", "import tajsim.games.maharaja.analyses",
     "Layers point one way"),
    # the registry importing a wing's report instead of leaving it to the reporting layer
    ("tajsim/games/registry.py", "import tajsim.games.maharani.report", "Layers point one way"),
    # a game's analyses drawing
    ("tajsim/games/maharaja/analyses/__init__.py", "import tajsim.reporting.render",
     "Layers point one way"),
    # the runner naming a game instead of asking the registry
    ("tajsim/running/chunk.py", "import tajsim.games.tajmahal.engine.enums",
     "only through the registry"),
    # one game's analyses borrowing another game's code
    ("tajsim/games/maharani/analyses/__init__.py",
     "import tajsim.games.tajmahal.analyses.commodities", "independent of each other"),
    # one game's report using another game's spec (another half, so no layer forbids it)
    ("tajsim/games/tajmahal/report/__init__.py", "import tajsim.games.nothanks.spec",
     "independent of each other"),
])
def test_an_upward_import_breaks_a_contract(tmp_path, module, line, broken):
    copy = _copy_tree(tmp_path)
    _append(copy, module, line)
    out = _lint(copy)
    assert out.returncode != 0, out.stdout[-2000:]
    assert "BROKEN" in out.stdout and broken in out.stdout.replace("\n", " ")


@lint
def test_a_new_wing_is_checked_with_no_edit_of_the_contracts(tmp_path):
    """A copy of No Thanks! under a new name keeps every contract, and an upward import in it or
    an import of another game breaks one: the contracts name no game."""
    copy = _copy_tree(tmp_path)
    wing = copy / "tajsim" / "games" / "newgame"
    shutil.copytree(copy / "tajsim" / "games" / "nothanks", wing)
    for source in wing.rglob("*.py"):
        source.write_text(source.read_text().replace("tajsim.games.nothanks",
                                                     "tajsim.games.newgame"))
    out = _lint(copy)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-2000:]
    _append(copy, "tajsim/games/newgame/strategies/nb.py", "import tajsim.play.arena")
    out = _lint(copy)
    assert "BROKEN" in out.stdout and "Layers point one way" in out.stdout.replace("\n", " ")
    assert "tajsim.games.newgame.strategies" in out.stdout


def test_no_import_circle():
    circles = _circles(ROOT)
    assert not circles, f"import circles among tajsim's modules: {circles}"


def test_an_import_circle_is_found(tmp_path):
    copy = _copy_tree(tmp_path)
    # tajsim.analysis.winrates imports tajsim.analysis.stats: importing it back closes a circle
    _append(copy, "tajsim/analysis/stats/__init__.py", "import tajsim.analysis.winrates")
    assert any({"tajsim.analysis.stats", "tajsim.analysis.winrates"} <= set(c)
               for c in _circles(copy))


def test_no_test_imports_a_conftest_by_name():
    """pytest imports every ``conftest.py`` as a module named ``conftest``, so ``from conftest
    import ...`` would find whichever was collected first. A folder's ``conftest.py`` holds
    fixtures only; helpers shared inside a game's tests live in
    ``tests/games/<game>/<game>_helpers.py``, imported by that name. The root ``conftest.py``
    is generic: it names no game."""
    importing = [p for p in (ROOT / "tests").rglob("*.py")
                 if re.search(r"^\s*(from conftest import|import conftest)", p.read_text(),
                              re.M)]
    assert importing == []
    root = (ROOT / "tests" / "conftest.py").read_text()
    assert not [name for name in GAME_PACKAGES if name in root]
