"""``tajsim train --agent net`` (issue 41, section 3) on a tiny budget: the same seed gives the
same weights (with one worker or two), a run stopped after a round and resumed from its
checkpoint gives the weights of the run that was not stopped, the fit lowers its loss, the
written file plays as ``net``, and the command's refusals are one line. Maharani's, Taj
Mahal's and Maharaja's trainings (the trainer is generic)."""

from __future__ import annotations

import numpy as np
import pytest
from click.testing import CliRunner

from tajsim.cli.main import cli
from tajsim.engine.net_weights import ARRAY_NAMES
from tajsim.games.maharaja.spec import SPEC as MJ_SPEC
from tajsim.games.maharani.spec import SPEC
from tajsim.games.maharani.strategies.net_weights import load_net_file
from tajsim.games.tajmahal.spec import SPEC as TM_SPEC
from tajsim.play.net_training import NetTrainConfig, train_net

TINY = NetTrainConfig(seed=3, rounds=2, games=3, expert="mcts:iterations=8", hidden=6,
                      epochs=2, batch=64)
TM_TINY = NetTrainConfig(seed=3, rounds=2, games=2, expert="ismcts:iterations=8", hidden=6,
                         epochs=2, batch=64)
MJ_TINY = NetTrainConfig(seed=3, rounds=2, games=2,
                         expert="turnsearch:iterations=4:step_candidates=3", hidden=6,
                         epochs=2, batch=64)


def weights_equal(a, b) -> bool:
    return all(np.array_equal(getattr(a, n), getattr(b, n)) for n in ARRAY_NAMES)


@pytest.fixture(scope="module")
def uninterrupted():
    return train_net(SPEC, TINY, log=lambda _line: None)


def test_training_is_a_function_of_the_seed(uninterrupted):
    again = train_net(SPEC, NetTrainConfig(**{**TINY.__dict__, "workers": 2}),
                      log=lambda _line: None)
    assert weights_equal(uninterrupted.weights, again.weights)
    other = train_net(SPEC, NetTrainConfig(**{**TINY.__dict__, "seed": 4}),
                      log=lambda _line: None)
    assert not np.array_equal(other.weights.W1, uninterrupted.weights.W1)
    rows = uninterrupted.history
    assert [r["round"] for r in rows] == [1, 2]
    assert all(r["decisions"] > 50 and r["loss_last"] < r["loss_first"] for r in rows)


def test_resumed_run_equals_the_uninterrupted_one(uninterrupted, tmp_path):
    ckpt = tmp_path / "ck.npz"
    first = train_net(SPEC, TINY, checkpoint=ckpt, stop_after=1, log=lambda _line: None)
    assert len(first.history) == 1 and ckpt.is_file()
    assert (tmp_path / "ck.round1.npz").is_file()
    lines: list[str] = []
    resumed = train_net(SPEC, TINY, checkpoint=ckpt, resume=True, log=lines.append)
    assert any("resumed" in line for line in lines)
    assert weights_equal(uninterrupted.weights, resumed.weights)
    assert [r["round"] for r in resumed.history] == [1, 2]


def test_cli_writes_a_file_that_plays_and_refuses_in_one_line(tmp_path):
    runner = CliRunner()
    out = tmp_path / "net.npz"
    args = ["train", "--game", "maharani", "--agent", "net", "--games", "5", "--rounds", "1",
            "--expert", "mcts:iterations=4", "--hidden", "4", "--epochs", "1", "--eval-games",
            "4", "-o", str(out), "--checkpoint", str(tmp_path / "ck.npz")]
    result = runner.invoke(cli, args)
    assert result.exit_code == 0, result.output
    weights, _ = load_net_file(out)
    assert weights.meta["command"].startswith("tajsim train")
    assert weights.meta["rounds"][0]["vs_base_games"] == 4
    again = runner.invoke(cli, args)
    assert again.exit_code == 2 and "exists; expected a new file name" in again.output
    ck = runner.invoke(cli, [*args[:-4], "-o", str(tmp_path / "n2.npz"), "--checkpoint",
                             str(tmp_path / "ck.npz")])
    assert ck.exit_code == 2 and "expected --resume to continue it" in ck.output
    other = runner.invoke(cli, [*args[:-4], "--seed", "9", "-o", str(tmp_path / "n3.npz"),
                                "--checkpoint", str(tmp_path / "ck.npz"), "--resume"])
    assert other.exit_code == 2 and "written with other settings (seed)" in other.output
    bad = runner.invoke(cli, ["train", "--game", "nothanks", "--agent", "net", "-o",
                              str(tmp_path / "t.npz")])
    assert bad.exit_code == 2 and "has no net strategy" in bad.output
    stray = runner.invoke(cli, ["train", "--game", "maharani", "--resume", "-o",
                                str(tmp_path / "l.toml")])
    assert stray.exit_code == 2 and "only with --agent net" in stray.output


@pytest.mark.parametrize("spec, tiny", [
    (TM_SPEC, TM_TINY),
    (MJ_SPEC, MJ_TINY),
], ids=["tajmahal", "maharaja"])
def test_other_games_training_is_a_function_of_the_seed(spec, tiny, tmp_path):
    """Taj Mahal's and Maharaja's networks train from their own specs (their searches' labels,
    their heuristics' candidates): the same seed gives the same weights with one worker or two,
    a resumed run those of the uninterrupted one, and the written file loads as the game's
    ``net`` weights."""
    quiet = {"log": lambda _line: None}
    one = train_net(spec, tiny, **quiet)
    two = train_net(spec, NetTrainConfig(**{**tiny.__dict__, "workers": 2}), **quiet)
    assert weights_equal(one.weights, two.weights)
    assert one.weights.W1.shape == (spec.net.n_inputs, tiny.hidden)
    assert all(r["decisions"] > 50 and r["loss_last"] < r["loss_first"] for r in one.history)
    ckpt = tmp_path / "ck.npz"
    train_net(spec, tiny, checkpoint=ckpt, stop_after=1, **quiet)
    resumed = train_net(spec, tiny, checkpoint=ckpt, resume=True, **quiet)
    assert weights_equal(one.weights, resumed.weights)
    spec.net.weights.save_net_file(tmp_path / "net.npz", one.weights)
    weights, _ = spec.net.weights.load_net_file(tmp_path / "net.npz")
    assert all(np.allclose(getattr(weights, n), getattr(one.weights, n), atol=1e-6)
               for n in ARRAY_NAMES)
