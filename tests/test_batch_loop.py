"""Every wing's CPU batch loop is generated from one template (tajsim/play/generate_batch.py)."""

from __future__ import annotations

import re

import pytest

from tajsim.games.registry import GAMES
from tajsim.play import generate_batch


@pytest.mark.parametrize("game", generate_batch.wings())
def test_generated_batch_loop_is_current(game):
    path = generate_batch.GAMES_DIR / game / generate_batch.TARGET
    assert path.exists(), f"{path} is missing: run {generate_batch.REGENERATE}"
    assert path.read_text(encoding="utf-8") == generate_batch.render(game), (
        f"{path} is stale (the template or {game}'s play/loop_hooks.py changed, or the file "
        f"was edited): run {generate_batch.REGENERATE}")


def test_every_game_has_a_generated_batch_loop():
    assert sorted(GAMES) == generate_batch.wings()
    for name, spec in GAMES.items():
        batch = spec.kernels.play_batch
        module = getattr(batch, "py_func", batch).__module__
        assert module == f"tajsim.games.{name}.play.nb", (name, module)


def test_switches_follow_the_wing(tmp_path, monkeypatch):
    wing = tmp_path / "toy" / "play"
    wing.mkdir(parents=True)
    hooks = "def new_work_nb(*switches):\n    pass\n\n\ndef decide_nb(*args):\n    pass\n"
    (wing / "loop_hooks.py").write_text('SWITCHES = (("search", None),)\n', encoding="utf-8")
    monkeypatch.setattr(generate_batch, "GAMES_DIR", tmp_path)
    with pytest.raises(ValueError, match="no new_work_nb, decide_nb; expected them in a game "
                                         "with kernel switches"):
        generate_batch.render("toy")
    (wing / "loop_hooks.py").write_text('SWITCHES = (("search", None),)\n' + hooks,
                                        encoding="utf-8")
    text = generate_batch.render("toy")
    assert "from tajsim.games.toy.engine.nb import (" in text
    assert "setups, search=None):" in text
    assert "    check_switches_nb(lineup_ids, search)\n" in text
    assert "work, search)" in text
    compile(text, "nb.py", "exec")
    (wing / "loop_hooks.py").write_text("SWITCHES = ()\n", encoding="utf-8")
    text = generate_batch.render("toy")
    assert "check_switches_nb" not in text and "switches (``" not in text
    # no switches and no hooks of its own: the template's, deciding by choose_action_nb
    assert "from tajsim.games.toy.strategies.nb import choose_action_nb" in text
    assert "def new_work_nb():" in text and "def decide_nb(" in text
    compile(text, "nb.py", "exec")
    (wing / "loop_hooks.py").write_text("SWITCHES = ()\n" + hooks, encoding="utf-8")
    text = generate_batch.render("toy")
    assert "choose_action_nb" not in text and "    decide_nb,\n    new_work_nb,\n" in text
    compile(text, "nb.py", "exec")
    assert '@njit(cache=True, inline="always")\ndef play_to_end_nb(' in text
    (wing / "loop_hooks.py").write_text("SWITCHES = ()\nINLINE_LOOP = False\n" + hooks,
                                        encoding="utf-8")
    text = generate_batch.render("toy")
    assert "@njit(cache=True)\ndef play_to_end_nb(" in text
    compile(text, "nb.py", "exec")
    assert "STRATEGY_RANDOM" not in text and "below" not in text
    (wing / "loop_hooks.py").write_text("SWITCHES = ()\nRANDOM_FAST_PATH = True\n" + hooks,
                                        encoding="utf-8")
    text = generate_batch.render("toy")
    assert "from tajsim.engine.rng import below\n" in text
    assert "    STRATEGY_RANDOM,\n    decide_nb," in text
    assert "action = legal[below(prng, p, n)]" in text
    assert "count_legal_nb" not in text
    compile(text, "nb.py", "exec")
    (wing / "loop_hooks.py").write_text(
        "SWITCHES = ()\nRANDOM_FAST_PATH = True\nRANDOM_WITHOUT_LIST = True\n" + hooks,
        encoding="utf-8")
    text = generate_batch.render("toy")
    assert "    count_legal_nb,\n    legal_actions_nb,\n    nth_legal_nb,\n" in text
    assert "n = count_legal_nb(state, comp)" in text
    assert "action = nth_legal_nb(state, comp, 0 if n == 1 else below(prng, p, n))" in text
    assert "legal[below(prng, p, n)]" not in text
    compile(text, "nb.py", "exec")


@pytest.mark.parametrize("game", generate_batch.wings())
def test_a_listless_wing_gives_its_kernels_in_the_spec(game):
    """A wing whose loop draws without a list hands count_legal / nth_legal to the spec, where
    the conformance suite checks them (and only such a wing: the loop is what uses them)."""
    kernels = GAMES[game].kernels
    listless = generate_batch.random_without_list(game)
    assert (kernels.count_legal is not None) == listless, game
    assert (kernels.nth_legal is not None) == listless, game


@pytest.mark.parametrize("source, expected", [
    ("X = 1\n", "no SWITCHES"),
    ('SWITCHES = ("search",)\n', "expected a tuple of (name, default) pairs"),
    ("SWITCHES = ()\nINLINE_LOOP = 1\n", "INLINE_LOOP = 1; expected True or False"),
    ("SWITCHES = ()\nRANDOM_FAST_PATH = 0\n", "RANDOM_FAST_PATH = 0; expected True or False"),
    ("SWITCHES = ()\nRANDOM_WITHOUT_LIST = True\n",
     "RANDOM_WITHOUT_LIST = True needs RANDOM_FAST_PATH = True"),
])
def test_bad_switches_are_named(tmp_path, monkeypatch, source, expected):
    wing = tmp_path / "toy" / "play"
    wing.mkdir(parents=True)
    (wing / "loop_hooks.py").write_text(source, encoding="utf-8")
    monkeypatch.setattr(generate_batch, "GAMES_DIR", tmp_path)
    with pytest.raises(ValueError, match=re.escape(expected)):
        generate_batch.render("toy")


def test_check_lists_a_stale_file(tmp_path, monkeypatch, capsys):
    wing = tmp_path / "toy" / "play"
    wing.mkdir(parents=True)
    (wing / "loop_hooks.py").write_text("SWITCHES = ()\n", encoding="utf-8")
    monkeypatch.setattr(generate_batch, "GAMES_DIR", tmp_path)
    assert generate_batch.main(["--check"]) == 1
    assert "stale:" in capsys.readouterr().out
    assert generate_batch.main([]) == 0
    assert generate_batch.main(["--check"]) == 0
    assert (wing / "nb.py").read_text(encoding="utf-8") == generate_batch.render("toy")
