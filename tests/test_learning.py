"""The generic parts of the learned strategies: the conditional-logit fit, the decision store,
the weights file and ``tajsim train``'s refusals (each game's own tests play its policy)."""

from __future__ import annotations

import numpy as np
import pytest
from click.testing import CliRunner

from tajsim.cli.main import cli
from tajsim.engine.learned import linear_choice
from tajsim.errors import UserError
from tajsim.play.learning import Decisions, agreement, fit_conditional_logit
from tajsim.strategies.learned_file import LearnedFile, load_learned_file, write_learned_file


def _synthetic(theta: np.ndarray, n_decisions: int, seed: int) -> Decisions:
    """Decisions drawn from a known conditional logit: 2-9 actions, 3 features."""
    rng = np.random.default_rng(seed)
    feats, sizes, chosen = [], [], []
    for _ in range(n_decisions):
        n = int(rng.integers(2, 10))
        x = rng.normal(size=(n, len(theta)))
        s = x @ theta
        p = np.exp(s - s.max())
        p /= p.sum()
        feats.append(x)
        sizes.append(n)
        chosen.append(int(rng.choice(n, p=p)))
    return Decisions(np.concatenate(feats), np.concatenate([[0], np.cumsum(sizes)]),
                     np.array(chosen), np.zeros(n_decisions, np.int64))


def test_the_fit_recovers_the_weights_of_a_known_conditional_logit():
    truth = np.array([2.0, -1.0, 0.5])
    theta, fit = fit_conditional_logit(_synthetic(truth, 4000, seed=3), l2=0.0)
    assert fit["converged"]
    # 4,000 decisions: the standard errors are about 0.03-0.05.
    np.testing.assert_allclose(theta, truth, atol=0.15)


def test_the_fit_is_deterministic_and_ignores_a_constant_feature():
    data = _synthetic(np.array([1.0, 1.0, 0.0]), 500, seed=4)
    data.feats[:, 2] = 7.0  # the same for every action: no information
    a, _ = fit_conditional_logit(data)
    b, _ = fit_conditional_logit(data)
    assert np.array_equal(a, b)
    assert a[2] == 0.0
    assert agreement(data, a) > agreement(data, np.array([-1.0, -1.0, 0.0]))


def test_decisions_subset_and_concat_keep_each_decisions_rows():
    data = _synthetic(np.array([1.0, 0.0, 0.0]), 20, seed=5)
    data.game[:] = np.arange(20)
    keep = data.game % 3 == 0
    part = data.subset(keep)
    assert part.n == keep.sum()
    for j, i in enumerate(np.flatnonzero(keep)):
        np.testing.assert_array_equal(part.feats[part.offsets[j]:part.offsets[j + 1]],
                                      data.feats[data.offsets[i]:data.offsets[i + 1]])
    both = Decisions.concat([part, data.subset(~keep)])
    assert both.n == data.n and len(both.feats) == len(data.feats)


def test_linear_choice_takes_the_first_best_score_at_temperature_zero():
    feats = np.array([[1.0, 0.0], [2.0, 1.0], [3.0, -1.0], [2.0, 1.0]])
    params = np.array([9.0, 1.0, 1.0, 0.0, 0.0])  # theta at offset 1; temperature, forbid 0
    prng = np.zeros(4, np.int64)
    assert linear_choice(feats, 4, 2, params, 1, prng, 0, np.zeros(4), 1024) == 1
    assert prng[0] == 0  # nothing drawn


def test_linear_choice_draws_by_softmax_at_a_temperature():
    feats = np.array([[0.0], [0.5], [5.0]])
    params = np.array([1.0, 1.0, 0.0])  # theta = 1, temperature 1
    prng = np.array([12345, 0], np.int64)
    picks = [linear_choice(feats, 3, 1, params, 0, prng, 0, np.zeros(3), 1024)
             for _ in range(400)]
    counts = np.bincount(picks, minlength=3)
    assert counts[2] > counts[1] > 0  # the best most often, the others sometimes


def _file(**changes) -> LearnedFile:
    base = dict(game="maharani", base="balanced", features=("value", "x"),
                theta=np.array([1.0, -0.25]), base_params=np.arange(4.0),
                meta={"seed": 1, "command": 'tajsim train --game maharani "x"'},
                rounds=[{"round": 1, "share": 0.5}])
    base.update(changes)
    return LearnedFile(**base)


def test_the_weights_file_reads_back_what_was_written(tmp_path):
    path = write_learned_file(tmp_path / "w.toml", _file(), ["a header"])
    back = load_learned_file(path, game="maharani", features=("value", "x"), n_params=4)
    np.testing.assert_array_equal(back.theta, [1.0, -0.25])
    np.testing.assert_array_equal(back.base_params, np.arange(4.0))
    assert back.meta["command"] == 'tajsim train --game maharani "x"'
    assert back.rounds == [{"round": 1, "share": 0.5}]
    assert path.read_text().startswith("# a header\n")


@pytest.mark.parametrize("expect, kwargs, text", [
    ("weights of 'maharani'; expected 'tajmahal'", {"game": "tajmahal"}, None),
    ("do not match the game's", {"features": ("value", "y")}, None),
    ("has 4 values; expected 34", {"n_params": 34}, None),
    ("no [learned] table", {}, "[other]\nx = 1\n"),
    ("misses 'weights'", {}, '[learned]\ngame = "a"\nbase = "b"\nfeatures = []\n'
                             "base_params = []\n"),
    ("expected a list of numbers", {}, '[learned]\ngame = "a"\nbase = "b"\nfeatures = ["v"]\n'
                                       'weights = ["x"]\nbase_params = []\n'),
    ("cannot read learned weights", {}, "[learned\n"),
])
def test_a_wrong_weights_file_is_one_line_naming_it(tmp_path, expect, kwargs, text):
    path = tmp_path / "w.toml"
    if text is None:
        write_learned_file(path, _file())
    else:
        path.write_text(text)
    with pytest.raises(UserError, match=None) as err:
        load_learned_file(path, **kwargs)
    assert expect in str(err.value) and "\n" not in str(err.value)


def test_train_refuses_a_game_without_a_learned_strategy_and_a_run_without_output(tmp_path):
    runner = CliRunner()
    result = runner.invoke(cli, ["train", "--game", "nothanks", "-o", str(tmp_path / "w.toml")])
    assert result.exit_code == 2 and "has no learned strategy" in result.output
    result = runner.invoke(cli, ["train", "--game", "maharani"])
    assert result.exit_code == 2 and "nowhere to write the weights" in result.output


def test_train_writes_weights_that_the_same_command_reproduces(tmp_path):
    """A tiny real run (Maharaja: its search is the cheapest expert): two rounds, a refinement
    generation; the file reads back as the game's weights, and a second run writes the same."""
    args = ["train", "--game", "maharaja", "--games", "6", "--rounds", "2", "--eval-games", "20",
            "--final-games", "20", "--refine-generations", "1", "--refine-popsize", "4",
            "--refine-games", "10", "--expert", "search:iterations=4", "-q"]
    runner = CliRunner()
    first, second = tmp_path / "a.toml", tmp_path / "b.toml"
    for path in (first, second):
        result = runner.invoke(cli, [*args, "--output", str(path)])
        assert result.exit_code == 0, result.output
    from tajsim.games.registry import get_game

    spec = get_game("maharaja")
    lp = spec.learned
    assert lp is not None
    a = load_learned_file(first, game="maharaja", features=lp.feature_names,
                          n_params=spec.n_params)
    b = load_learned_file(second, game="maharaja", features=lp.feature_names,
                          n_params=spec.n_params)
    np.testing.assert_array_equal(a.theta, b.theta)
    assert [r.get("stage") for r in a.rounds][:1] == ["imitation"]
    assert a.rounds[-1]["stage"] == "refinement" and "chosen" in a.rounds[-1]
    assert 0.0 <= a.meta["ci_low_2p"] <= a.meta["share_2p"] <= a.meta["ci_high_2p"] <= 1.0
    assert a.meta["score"] == pytest.approx(a.meta["share_2p"] / 0.5, abs=1e-3)
