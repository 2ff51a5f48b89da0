"""Per-game fingerprints (tajsim/games/fingerprint.py) and numba's cache keyed by them
(tajsim/games/numba_cache.py): an edit to one game changes that game's fingerprint, cache folder
and code identity only, so the other games neither recompile nor stop their stored runs from
resuming; an edit to the generic sources changes every game's."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from numba import config as numba_config
from numba import njit

from tajsim.errors import UserError
from tajsim.games import GAME_PACKAGES
from tajsim.games import fingerprint as fp
from tajsim.running import config as run_config
from tajsim.running.chunk import CodeMismatchError, run_chunk
from tajsim.running.config import RunConfig
from tajsim.running.store import RunStore

ROOT = Path(__file__).resolve().parents[1]
#: The game whose run must survive an edit of the other one (the issue's example).
RUN_GAME, OTHER_GAME = "maharani", "tajmahal"

#: Prints the fingerprints and cache folders of the tree on PYTHONPATH, as JSON.
_REPORT = """
import json
from pathlib import Path
from tajsim.games import GAME_PACKAGES
from tajsim.games import fingerprint as fp
base = Path("/cache-base")
print(json.dumps({
    "generic": fp.generic_fingerprint(),
    "games": {g: fp.game_fingerprint(g) for g in GAME_PACKAGES},
    "dirs": {g: str(fp.numba_cache_dir(g, base)) for g in (*GAME_PACKAGES, "generic")},
}))
"""

#: Calls a small kernel of the game named in argv[1] and a generic one; prints whose cache
#: folders numba compiled for (numba's "numba:compile" event fires for a real compilation only,
#: never for a kernel loaded from the cache) and the kernels' cache hits.
_COMPILE = """
import json, sys
import numpy as np
from numba.core import event
from tajsim.engine.rng import derive_seed
from tajsim.games.fingerprint import cache_owner
from tajsim.games.registry import get_game
spec = get_game(sys.argv[1])
with event.install_recorder("numba:compile") as rec:
    spec.kernels.phase(np.zeros(spec.state_size, np.int64))
    derive_seed(1, 2, 3)
compiled = sorted({cache_owner(ev.data["dispatcher"].py_func.__code__.co_filename)
                   for _, ev in rec.buffer if ev.is_start})
hits = sum(sum(k.stats.cache_hits.values()) for k in (spec.kernels.phase, derive_seed))
print(json.dumps({"compiled": compiled, "cache_hits": hits}))
"""


def _copy_tree(tmp_path: Path) -> Path:
    """A copy of the tajsim package (as tests/test_layers.py makes one) to edit freely."""
    copy = tmp_path / "tree"
    shutil.copytree(ROOT / "tajsim", copy / "tajsim",
                    ignore=shutil.ignore_patterns("__pycache__"))
    return copy


def _run(tree: Path, script: str, *args: str, env: dict[str, str] | None = None) -> dict:
    """Run ``script`` in a fresh interpreter on the copied tree; its JSON output."""
    child_env = dict(os.environ, PYTHONPATH=str(tree), **(env or {}))
    child_env.pop("NUMBA_DISABLE_JIT", None)
    out = subprocess.run([sys.executable, "-c", script, *args], cwd=tree, env=child_env,
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def _touch(tree: Path, relative: Path) -> None:
    """Edit a source file of the copied tree (a comment: the kernels stay the same)."""
    path = tree / "tajsim" / relative
    path.write_text(path.read_text() + "\n# edited by tests/test_fingerprint.py\n")


def _wing_file(game: str) -> Path:
    """A source file of ``game``'s wing that its fingerprint covers (relative to the package)."""
    return fp.wing_source_files(game)[0].relative_to(fp.ROOT)


def test_an_edit_to_one_wing_changes_that_game_only_and_the_generic_sources_change_all(
        tmp_path):
    tree = _copy_tree(tmp_path)
    before = _run(tree, _REPORT)
    assert set(before["games"]) == set(GAME_PACKAGES)
    assert len(set(before["games"].values())) == len(GAME_PACKAGES)  # one per game
    state = before
    for game in GAME_PACKAGES:
        _touch(tree, _wing_file(game))
        after = _run(tree, _REPORT)
        assert after["games"][game] != state["games"][game]
        assert after["dirs"][game] != state["dirs"][game]
        others = [g for g in GAME_PACKAGES if g != game]
        assert {g: after["games"][g] for g in others} == {g: state["games"][g] for g in others}
        assert {g: after["dirs"][g] for g in [*others, "generic"]} == \
            {g: state["dirs"][g] for g in [*others, "generic"]}
        assert after["generic"] == state["generic"]
        state = after
    _touch(tree, Path("engine/rng.py"))  # a generic source: every game's code
    after = _run(tree, _REPORT)
    assert after["generic"] != state["generic"]
    assert all(after["games"][g] != state["games"][g] for g in GAME_PACKAGES)
    assert all(after["dirs"][g] != state["dirs"][g] for g in (*GAME_PACKAGES, "generic"))
    # a file outside the sources (a game's report) changes nothing
    report = next(p for p in (tree / "tajsim/games").rglob("*.py") if "report" in p.parts)
    _touch(tree, report.relative_to(tree / "tajsim"))
    assert _run(tree, _REPORT) == after


def test_the_cache_folder_of_each_game_is_named_by_its_fingerprint_alone(monkeypatch):
    base = Path("/somewhere")
    folders = {g: fp.numba_cache_dir(g, base) for g in (*GAME_PACKAGES, "generic")}
    assert len(set(folders.values())) == len(folders)
    for game in GAME_PACKAGES:
        assert folders[game] == base / f"numba-{game}-{fp.game_fingerprint(game)}"
    assert folders["generic"] == base / f"numba-generic-{fp.generic_fingerprint()}"
    # A fingerprint change of one game moves that game's folder only.
    real = fp.game_fingerprint
    monkeypatch.setattr(fp, "game_fingerprint",
                        lambda g: "0" * 16 if g == OTHER_GAME else real(g))
    assert fp.numba_cache_dir(OTHER_GAME, base) != folders[OTHER_GAME]
    assert fp.numba_cache_dir(RUN_GAME, base) == folders[RUN_GAME]


def test_the_cache_folders_lie_under_a_user_set_numba_cache_dir(monkeypatch, tmp_path):
    monkeypatch.setattr(numba_config, "CACHE_DIR", str(tmp_path / "mine"))
    assert fp.numba_cache_base() == tmp_path / "mine"
    assert fp.numba_cache_dir(RUN_GAME).parent == tmp_path / "mine"
    monkeypatch.setattr(numba_config, "CACHE_DIR", "")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert fp.numba_cache_base() == tmp_path / "xdg" / "tajsim"


@pytest.mark.skipif(numba_config.DISABLE_JIT, reason="nothing is cached without the JIT")
def test_each_compiled_function_is_cached_in_its_owners_folder(monkeypatch, tmp_path):
    from tajsim.engine.rng import derive_seed
    from tajsim.games.registry import get_game
    from tajsim.running.kernels import accumulate_nb

    assert fp.LOCATORS[0] in os.environ["NUMBA_CACHE_LOCATOR_CLASSES"].split(",")
    base = fp.numba_cache_base()
    for game in GAME_PACKAGES:
        for kernel in (get_game(game).kernels.play_batch, get_game(game).kernels.phase):
            assert Path(kernel._cache.cache_path).parent == fp.numba_cache_dir(game, base)
    for kernel in (derive_seed, accumulate_nb):
        assert Path(kernel._cache.cache_path).parent == fp.numba_cache_dir("generic", base)
    # A function outside the package (a test's, a script's) may call any game's kernels.
    monkeypatch.setattr(numba_config, "CACHE_DIR", str(tmp_path))

    @njit(cache=True)
    def outside(x):
        return derive_seed(x, 1, 2)

    assert Path(outside._cache.cache_path).parent == \
        tmp_path / f"numba-other-{fp.all_games_fingerprint()}"


@pytest.mark.skipif(numba_config.DISABLE_JIT, reason="nothing is cached without the JIT")
def test_cached_kernels_load_and_an_edit_recompiles_only_its_own_game(tmp_path):
    """Four fresh processes on one cache folder: the first compiles, the second loads
    everything from the cache, the third too after an edit to another game, the fourth
    recompiles the edited game's kernel only."""
    tree = _copy_tree(tmp_path)
    env = {"NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    first = _run(tree, _COMPILE, RUN_GAME, env=env)
    assert first["compiled"] == ["generic", RUN_GAME]
    second = _run(tree, _COMPILE, RUN_GAME, env=env)
    assert second == {"compiled": [], "cache_hits": 2}
    _touch(tree, _wing_file(OTHER_GAME))
    assert _run(tree, _COMPILE, RUN_GAME, env=env) == second
    _touch(tree, _wing_file(RUN_GAME))
    assert _run(tree, _COMPILE, RUN_GAME, env=env)["compiled"] == [RUN_GAME]
    folders = sorted(p.name.rsplit("-", 1)[0] for p in (tmp_path / "cache").iterdir())
    assert set(folders) >= {"numba-generic", f"numba-{RUN_GAME}"}


def _changed(monkeypatch, game: str) -> None:
    """As if ``game``'s sources had been edited: a new fingerprint for it alone."""
    real = fp.game_fingerprint
    monkeypatch.setattr(run_config, "game_fingerprint",
                        lambda g: "f" * 16 if g == game else real(g))


def test_a_stored_run_resumes_after_another_games_edit_and_refuses_after_its_own(
        monkeypatch, tmp_path):
    config = RunConfig.make(games=40, players=2, game=RUN_GAME, chunk_size=20)
    out = tmp_path / "run"
    with RunStore(out) as store:
        assert store.open(config) == set()
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["code"] == fp.game_fingerprint(RUN_GAME)
    with monkeypatch.context() as m:
        _changed(m, OTHER_GAME)
        with RunStore(out) as store:
            assert store.open(config) == set()  # resumes
    with monkeypatch.context() as m:
        _changed(m, RUN_GAME)
        with RunStore(out) as store, pytest.raises(UserError) as err:
            store.open(config)
    message = str(err.value)
    assert "other tajsim engine code" in message and RUN_GAME in message
    assert "--restart" in message and "\n" not in message
    assert json.loads((out / "manifest.json").read_text()) == manifest  # left untouched


def test_a_worker_checks_the_code_of_the_runs_game_only(monkeypatch, tmp_path):
    task = RunConfig.make(games=40, players=2, game=RUN_GAME, chunk_size=20).task()
    assert task.code == fp.game_fingerprint(RUN_GAME)
    fault = {"marker": str(tmp_path / "fault"), "chunk": 0, "mode": "raise"}
    with monkeypatch.context() as m:
        _changed(m, OTHER_GAME)
        # past the code check: the injected fault, raised before any game is played
        with pytest.raises(RuntimeError, match="injected fault"):
            run_chunk(task, 0, _fault=fault)
    with monkeypatch.context() as m:
        _changed(m, RUN_GAME)
        with pytest.raises(CodeMismatchError, match=RUN_GAME):
            run_chunk(task, 0, _fault=fault)


def test_import_tajsim_names_the_locators_first_keeps_a_users_list_and_loads_no_numba():
    env = dict(os.environ, NUMBA_CACHE_LOCATOR_CLASSES="InTreeCacheLocator",
               PYTHONPATH=str(ROOT))
    script = ("import importlib, os, sys, tajsim; importlib.reload(tajsim); "
              "print(os.environ['NUMBA_CACHE_LOCATOR_CLASSES'], 'numba' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    # once (the reload finds it set), before the user's own list, which serves the rest
    assert out.stdout.split() == [f"{fp.LOCATORS[0]},InTreeCacheLocator", "False"]
