"""Issue 23, "check every value before playing": each bad value as a user meets it (the command or
the call), refused with exit status 2 and one line naming the value and what was expected,
before any game is played; and the declared parameter ranges of every strategy of every game.
"""

from __future__ import annotations

import json
import math
import re
import tracemalloc
from pathlib import Path

import numpy as np
import pytest
from cli_checks import invoke, one_line_error
from test_cli_hardening import ROOT

import tajsim
from tajsim.cli.balance import check_file as check_compensation_file
from tajsim.engine.base_game import GameRecord, IllegalActionError
from tajsim.errors import UserError
from tajsim.games import GAME_PACKAGES
from tajsim.games.registry import get_game
from tajsim.play.mixed import replay_record
from tajsim.reporting.experiments import check_names
from tajsim.running.config import MAX_CHUNKS, MAX_GAMES, RunConfig
from tajsim.running.experiments import check_experiment, load_experiment
from tajsim.running.simulate import CHUNK_WINDOW, run_simulation
from tajsim.strategies.presets import load_weight_presets
from tajsim.strategies.spec import is_internal

EXPERIMENT_FILES = sorted((ROOT / "experiments").glob("**/*.toml"))


def is_component_file(path: Path) -> bool:
    """A component file (docs/components.md: every fact under ``[provenance]``), such as a Taj
    Mahal variant's under experiments/variants/: a run's ``components``, not an experiment."""
    return "\n[provenance]" in path.read_text()


def is_compensation_study(path: Path) -> bool:
    """A seat-compensation study (``kind = "compensation"``): ``tajsim balance`` runs it."""
    return 'kind = "compensation"' in path.read_text()


@pytest.fixture
def no_play(monkeypatch):
    """Playing a game fails the test: every refusal must come before any is played."""
    def refuse(*_a, **_k):
        raise AssertionError("a game was played before the bad value was refused")

    monkeypatch.setattr("tajsim.running.simulate.make_executor", refuse)


# -- 1. strategy parameters ----------------------------------------------------------------------
@pytest.mark.parametrize("game,strategy,needle", [
    ("tajmahal", "ismcts:iterations=0", "parameter iterations=0 in 'ismcts:iterations=0' is out "
                                        "of range; expected an integer from 1 to 4,194,304"),
    ("tajmahal", "ismcts:iterations=-1", "iterations=-1 in 'ismcts:iterations=-1' is out of "
                                         "range"),
    ("tajmahal", "ismcts:iterations=1.5", "iterations=1.5 in 'ismcts:iterations=1.5' is not a "
                                          "whole number; expected an integer"),
    # It used to end in a MemoryError traceback: the tree is allocated for every iteration.
    ("tajmahal", "ismcts:iterations=99999999999", "iterations=99999999999 in "
                                                  "'ismcts:iterations=99999999999' is out of "
                                                  "range; expected an integer from 1 to 4,194,304 "
                                                  "(each iteration adds a tree node"),
    ("tajmahal", "ismcts:group=0.5", "group=0.5 in 'ismcts:group=0.5' is not a switch; "
                                     "expected 0 or 1"),
    ("tajmahal", "ismcts:rollout=4", "rollout=4 in 'ismcts:rollout=4' is out of range; expected "
                                     "an integer from 0 to 3 (the rollout policy"),
    ("maharaja", "search:iterations=-5", "parameter iterations=-5 in 'search:iterations=-5' is "
                                         "out of range; expected an integer from 1 to 4,096"),
    ("maharani", "mcts:iterations=-1", "parameter iterations=-1 in 'mcts:iterations=-1' is out "
                                       "of range; expected an integer from 1 to 4,194,304"),
    ("tajmahal", "balanced:connect=nan", "connect=nan in 'balanced:connect=nan' is not a finite "
                                         "number; expected a number from -1,000 to 1,000"),
    ("tajmahal", "ismcts:r_pair=inf", "r_pair=inf in 'ismcts:r_pair=inf' is not a finite"),
    ("maharaja", "balanced:palace=inf", "palace=inf in 'balanced:palace=inf' is not a finite"),
    ("maharaja", "rusher:gold=nan", "gold=nan in 'rusher:gold=nan' is not a finite"),
    ("maharani", "zones:zone=-inf", "zone=-inf in 'zones:zone=-inf' is not a finite"),
    ("maharani", "balanced:marker=nan", "marker=nan in 'balanced:marker=nan' is not a finite"),
    ("tajmahal", "balanced:connect=1:connect=2", "strategy parameter connect given twice in "
                                                 "'balanced:connect=1:connect=2'; expected each "
                                                 "parameter at most once"),
    ("maharani", "mcts:_unused7=5", "strategy 'mcts' has no parameter '_unused7'"),
    ("tajmahal", "ismcts:ms=-1", "parameter ms=-1 in 'ismcts:ms=-1' is out of range; expected a "
                                 "number from 0 to 60,000 (CPU milliseconds a decision"),
    ("tajmahal", "ismcts:ms=nan", "ms=nan in 'ismcts:ms=nan' is not a finite number"),
    ("maharaja", "search:ms=60001", "parameter ms=60001 in 'search:ms=60001' is out of range; "
                                    "expected a number from 0 to 60,000 (CPU milliseconds a pick"),
    ("maharaja", "search:ms=inf", "ms=inf in 'search:ms=inf' is not a finite number"),
])
def test_bad_strategy_parameter_is_one_line_before_any_game(no_play, game, strategy, needle):
    one_line_error(invoke("simulate", "-g", game, "-n", "10", "-s", strategy), needle)


def test_the_mcts_error_lists_no_internal_slots():
    with pytest.raises(UserError, match="has no parameter 'nope'") as caught:
        get_game("maharani").strategies.parse("mcts:nope=1")
    assert "_unused" not in str(caught.value)
    assert "iterations, exploration" in str(caught.value) and "r_zone" in str(caught.value)


@pytest.mark.parametrize("game", GAME_PACKAGES)
def test_every_parameter_of_every_strategy_declares_a_range_that_is_enforced(game):
    """Each user parameter accepts its bounds and its default, and refuses nan, inf, a value
    beyond either bound and (integers, switches) a fraction; internal slots are refused."""
    registry = get_game(game).strategies
    for spec in registry.all():
        assert len(spec.param_ranges) == len(spec.param_names)
        for key, declared in zip(spec.param_names, spec.param_ranges):
            if is_internal(key):
                with pytest.raises(UserError, match=f"has no parameter '{key}'"):
                    registry.parse(f"{spec.name}:{key}=0")
                continue
            slot = spec.param_names.index(key)
            for good in (declared.low, declared.high):
                _, vec = registry.parse(f"{spec.name}:{key}={good!r}")
                assert vec[slot] == good
            bad = [math.nan, math.inf, -math.inf, declared.low - 1, declared.high + 1]
            if declared.kind in ("int", "bool"):
                bad.append(declared.low + 0.5)
            for value in bad:
                with pytest.raises(UserError, match=f"parameter {key}="):
                    registry.parse(f"{spec.name}:{key}={value!r}")


@pytest.mark.parametrize("game", GAME_PACKAGES)
def test_the_tuning_box_lies_within_the_declared_weight_ranges(game):
    """``tajsim tune`` builds weight vectors inside its box: the box must be allowed."""
    spec = get_game(game)
    if spec.tuning is None:
        pytest.skip(f"{game} has no tuning space")
    family = next(s for s in spec.strategies.all() if s.strategy_id == spec.tuning.strategy_id
                  and s.param_names[:len(spec.tuning.names)] == spec.tuning.names)
    for bound in (spec.tuning.lower, spec.tuning.upper):
        vec = family.param_vector()
        vec[:len(bound)] = bound
        family.check_vector(vec, " (tuning box)")


@pytest.mark.parametrize("value,needle", [("nan", "weight connect = nan is not a finite number"),
                                          ("inf", "weight connect = inf is not a finite number"),
                                          ("5000", "weight connect = 5000 is out of range")])
def test_a_preset_file_with_a_degenerate_weight_is_refused(tmp_path, value, needle):
    from tajsim.games.tajmahal.strategies.registry import WEIGHT_RANGE, load_presets

    shipped = (ROOT / "tajsim/games/tajmahal/strategies/presets.toml").read_text()
    path = tmp_path / "presets.toml"
    path.write_text(shipped + f"\n[presets.broken]\nconnect = {value}\n")
    with pytest.raises(UserError, match=needle):
        load_presets(path)
    path.write_text(f"[presets.balanced]\nconnect = {value}\n")  # the generic loader
    with pytest.raises(UserError, match="expected a number from -1,000 to 1,000"):
        load_weight_presets(path, ("connect",), weight_range=WEIGHT_RANGE)


def test_strategies_lists_the_ranges_and_no_internal_slot():
    res = invoke("strategies", "--game", "maharani")
    assert res.exit_code == 0, res.output
    assert "iterations: an integer from 1 to 4,194,304" in res.stdout
    assert "zone .. feed (11): a number from -1,000 to 1,000" in res.stdout
    assert "_unused" not in res.stdout


@pytest.mark.parametrize("game,doc", [("tajmahal", "docs/strategies.md"),
                                      ("maharaja", "docs/games/maharaja/strategies.md"),
                                      ("maharani", "docs/games/maharani/strategies.md"),
                                      ("nothanks", "docs/games/nothanks/strategies.md")])
def test_the_strategy_docs_show_the_declared_ranges(game, doc):
    """The documented table is the registry's (regenerate it with ``ranges_markdown()``)."""
    assert get_game(game).strategies.ranges_markdown() in (ROOT / doc).read_text()


# -- every shipped experiment file passes the validation ------------------------------------------
@pytest.mark.parametrize("path", EXPERIMENT_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_shipped_experiment_file_is_valid(path, no_play):
    if is_compensation_study(path):  # run by tajsim balance, checked by it
        check_compensation_file(path)
        return
    if is_component_file(path):  # Taj Mahal's variant components: loaded as the game does
        from tajsim.games.tajmahal.engine.component_files import load_components

        load_components(None, path)
        return
    experiment = load_experiment(path)
    check_names(experiment)
    check_experiment(experiment)


def test_an_analysis_of_a_strategy_no_run_plays_is_refused(tmp_path, no_play):
    """It used to exit 0 and write an empty table."""
    path = tmp_path / "nosuch.toml"
    path.write_text('analyses = [{ name = "setup_feature_tests", strategy = "nosuch" }]\n'
                    '[simulate]\ngames = 20\nstrategies = ["balanced", "random"]\n')
    out = tmp_path / "out"
    one_line_error(invoke("run", str(path), "--out", str(out)),
                   "analyses[0].strategy: 'nosuch', expected a strategy the runs play: "
                   "balanced, random")
    assert not out.exists()


# -- 2. sizes ------------------------------------------------------------------------------------
@pytest.mark.parametrize("args,needle", [
    # It used to be accepted and grow to 15 GB of chunk indices without a word.
    (["-n", str(10**22)], f"game count {10**22} is out of range; expected 1 to 10,000,000,000 "
                          "(a run holds at most 1,000,000 chunks of at most 10,000 games)"),
    (["-n", "0"], "game count 0 is out of range; expected 1 to 10,000,000,000"),
    (["-n", str(10**10), "-s", "ismcts"], "10,000,000,000 games in chunks of 2 make "
                                         "5,000,000,000 chunks; expected at most 1,000,000"),
    (["-n", "100", "--chunk-size", str(10**9)], "chunk size 1000000000 is out of range; "
                                                "expected 1 to 1,000,000"),
    (["-n", "100", "--games-per-setup", str(10**30)], "games per setup "
                                                      f"{10**30} is out of range"),
    (["-n", "100", "--alternative", str(10**23)], f"alternative components seed {10**23} is "
                                                  "out of range; expected 0 to "
                                                  "9,223,372,036,854,775,807"),
    (["-n", "100", "--alternative", "-1"], "alternative components seed -1 is out of range"),
])
def test_sizes_are_checked_before_any_game(no_play, tmp_path, args, needle):
    out = tmp_path / "run"
    one_line_error(invoke("simulate", *args, "--out", str(out)), needle)
    assert not out.exists()


class IdleExecutor:
    """An executor that plays nothing and counts (or, with ``keep``, records) the chunk
    indices it is asked for."""

    workers = 1

    def __init__(self, keep: bool = False) -> None:
        self.keep = keep
        self.asked: list[int] = []
        self.count = 0

    def run(self, task, indices):
        self.count += len(indices)
        if self.keep:
            self.asked.extend(indices)
        return iter(())

    def close(self) -> None:
        pass


def test_memory_before_the_first_chunk_is_flat_in_the_number_of_games(tmp_path):
    """The largest run allowed (10**10 games, a million chunks) starts in as little memory as
    a small one: no list of every chunk (or game) is built up front."""
    peaks = {}
    for games in (1000, 1000, MAX_GAMES):  # the first call pays for imports and caches
        executor = IdleExecutor()
        tracemalloc.start()
        try:
            run_simulation(games, out=tmp_path / f"r{games}-{len(peaks)}", executor=executor,
                           load_records=False, progress=False)
            peaks[games] = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
    assert executor.count == MAX_CHUNKS  # every chunk was asked for
    assert peaks[MAX_GAMES] < 2 * peaks[1000] + 1_000_000, peaks


def test_every_missing_chunk_is_asked_for_once_in_order(tmp_path):
    executor = IdleExecutor(keep=True)
    result = run_simulation(3 * CHUNK_WINDOW + 5, chunk_size=1, executor=executor,
                            load_records=False, progress=False)
    assert executor.asked == list(range(3 * CHUNK_WINDOW + 5))
    assert result.chunks_run == 3 * CHUNK_WINDOW + 5


# -- 3. other range checks -----------------------------------------------------------------------
@pytest.mark.parametrize("scale", ["inf", "nan", "0", "-1", "-inf"])
def test_run_scale_must_be_a_finite_positive_number(no_play, tmp_path, scale):
    out = tmp_path / "out"
    one_line_error(invoke("run", str(ROOT / "experiments" / "default.toml"), "--scale", scale,
                          "--out", str(out)),
                   f"scale {float(scale)!r} is not allowed; expected a finite number > 0")
    assert not out.exists()


def test_contradictory_rule_options_are_refused(no_play):
    one_line_error(invoke("simulate", "-g", "maharani", "-n", "10", "--option",
                          "target_marker=on", "--option", "target_marker=off"),
                   "--option target_marker given both on and off")


def test_a_rule_option_repeated_with_the_same_value_is_fine():
    from tajsim.cli.simulate import parse_options

    assert parse_options(("target_marker=on", "target_marker=yes")) == {"target_marker": True}


# -- 4. raw Python errors ------------------------------------------------------------------------
@pytest.mark.parametrize("action", ["1", None, 1.0, True])
def test_game_apply_of_a_non_action_names_it(action):
    game = tajsim.Game(3, seed=1)
    with pytest.raises(IllegalActionError, match=f"action {action!r} is not an action number; "
                                                 "expected an int"):
        game.apply(action)
    assert game.actions == []
    game.apply(np.int64(game.legal_actions()[0]))  # a numpy integer is an action number
    assert len(game.actions) == 1


@pytest.mark.parametrize("kwargs,needle", [
    ({"strategies": None}, "strategies None is not a strategy list; expected comma-separated "
                           "strategy names or a list of them"),
    ({"strategies": ["balanced", 3]}, "strategy 3 in ['balanced', 3] is not a text"),
    ({"records": "no"}, "records 'no' is not a bool; expected True or False"),
    ({"records": 0}, "records 0 is not a bool"),
    ({"progress": "yes"}, "progress 'yes' is not a bool"),
    ({"games": "10"}, "game count '10' is not an integer; expected a whole number from 1 to "
                      "10,000,000,000"),
    ({"games": 10.0}, "game count 10.0 is not an integer"),
    ({"games": True}, "game count True is not an integer"),
    ({"players": "4"}, "player count '4' is not an integer; expected a whole number from 2 "
                       "to 5 (the 2018 edition of Taj Mahal)"),
    ({"seed": "3"}, "seed '3' is not an integer"),
    ({"chunk_size": "5"}, "chunk size '5' is not an integer"),
    ({"options": "x"}, "rule options 'x' are not a table; expected a dict"),
])
def test_simulate_checks_the_types_of_its_arguments(no_play, kwargs, needle):
    with pytest.raises(UserError) as caught:
        tajsim.simulate(**{"games": 10, **kwargs})
    assert needle in str(caught.value) and "\n" not in str(caught.value)


def test_step_by_step_games_check_their_arguments_too():
    with pytest.raises(UserError, match="rule options 'x' are not a table"):
        tajsim.Game(3, options="x")
    with pytest.raises(UserError, match="strategies None is not a list of seats"):
        tajsim.play_game(None)


def test_numpy_integers_are_counts():
    config = RunConfig.make(games=np.int64(10), players=np.int32(3), seed=np.uint16(4),
                            chunk_size=np.int64(5))
    assert (config.games, config.players, config.seed, config.n_chunks) == (10, 3, 4, 2)


def test_replay_record_of_text_names_it():
    with pytest.raises(UserError, match=r"replay_record\('text'\): not a game record "
                                        r"\(Expecting value.*\); expected a GameRecord or the "
                                        r"JSON text of one \(GameRecord.from_json\(text\)"):
        replay_record("text")
    with pytest.raises(UserError, match="upto -1 is not allowed"):
        replay_record(GameRecord(n_players=3), upto=-1)


@pytest.mark.parametrize("key", ["seed", "game_id"])
def test_a_record_without_its_seed_is_refused_not_replayed_from_seed_0(tmp_path, key):
    game = tajsim.Game(3, seed=7, game_id=2)
    for _ in range(6):
        game.apply(game.legal_actions()[-1])
    data = json.loads(game.record().to_json())
    del data[key]
    with pytest.raises(UserError, match=f"no '{key}'; expected the {key.replace('_', ' ')} the "
                                        "game was played with"):
        GameRecord.from_dict(data)
    path = tmp_path / "record.json"
    path.write_text(json.dumps(data))
    one_line_error(invoke("replay", "--record", str(path)), f"no '{key}'")


def test_a_record_with_no_actions_may_leave_the_seed_out():
    assert GameRecord.from_dict({"n_players": 3}).seed == 0


@pytest.mark.parametrize("key, value, needle", [
    ("board", 5, "'board' is 5; expected a file's path or null"),
    ("components", ["a.toml"], "'components' is ['a.toml']; expected a file's path or null"),
    ("edition", 2.0, "'edition' is 2.0; expected an edition's name or null"),
    ("game", 7, "'game' is 7; expected a game's name or null"),
    ("setup_id", -1, "'setup_id' is -1; expected a whole number >= 0 or null"),
    ("strategies", "greedy", "'strategies' is 'greedy'; expected a list of strategy names"),
    ("strategies", ["greedy", 3], "'strategies' is ['greedy', 3]; expected a list of"),
])
def test_every_field_of_a_record_is_checked_when_it_is_read(key, value, needle):
    """A wrong type is refused where the record is read, naming the field, not later as a
    TypeError deep in the components' loader or the replay."""
    with pytest.raises(UserError, match=re.escape(needle)):
        GameRecord.from_dict({"n_players": 3, key: value})


def test_a_long_bad_value_is_cut_with_an_ellipsis():
    with pytest.raises(UserError) as caught:
        GameRecord.from_dict({"n_players": 3, "options": {"x": "yes" * 40}})
    shown = str(caught.value).split("'options' is ")[1].split(";")[0]
    assert len(shown) == 60 and shown.endswith("...")
    assert "'seed' is 'x'; expected" in _refusal({"n_players": 3, "seed": "x"})


def _refusal(data: dict) -> str:
    with pytest.raises(UserError) as caught:
        GameRecord.from_dict(data)
    return str(caught.value)


def test_a_saved_record_finds_its_component_files_from_any_working_folder(tmp_path,
                                                                          monkeypatch):
    """``save`` writes the component paths relative to the record's folder and ``load`` reads
    them from there, so a record and its files replay wherever the user stands."""
    (tmp_path / "games").mkdir()
    (tmp_path / "boards").mkdir()
    board = tmp_path / "boards" / "board.toml"
    board.write_text("# a board\n")
    monkeypatch.chdir(tmp_path)
    GameRecord(n_players=3, board="boards/board.toml").save("games/record.json")
    assert json.loads((tmp_path / "games/record.json").read_text())["board"] == \
        "../boards/board.toml"
    monkeypatch.chdir(tmp_path / "boards")
    record = GameRecord.load(tmp_path / "games/record.json")
    assert Path(record.board).resolve() == board and record.components is None
    board.unlink()
    with pytest.raises(UserError, match=r"record.json: the record's board file "
                                        r"'../boards/board.toml' is not there \(looked for"):
        GameRecord.load(tmp_path / "games/record.json")
    (tmp_path / "games/bad.json").write_text('{"n_players": true}')
    with pytest.raises(UserError, match=r"bad.json: not a tajsim game record: 'n_players' is "
                                        r"True; expected a whole number >= 0"):
        GameRecord.load(tmp_path / "games/bad.json")


# -- 5. Python strategies in simulate ------------------------------------------------------------
def test_simulate_with_a_python_strategy_says_where_python_seats_play(no_play):
    res = invoke("simulate", "-n", "10", "-s", "py:strategies/example_cautious.py,random")
    one_line_error(res, "'py:strategies/example_cautious.py' is a Python strategy; simulate and "
                        "experiment runs play compiled strategies only",
                   "tajsim replay -s py:FILE", "tajsim.play_game")
    assert "unknown" not in res.stderr


def test_other_compiled_only_paths_say_it_too():
    with pytest.raises(UserError, match="is a Python strategy; only compiled Maharaja "
                                        "strategies play here"):
        get_game("maharaja").strategies.parse("py:x.py")


def test_experiment_file_with_a_python_strategy_is_refused(tmp_path, no_play):
    path = tmp_path / "py.toml"
    path.write_text('[simulate]\ngames = 20\nstrategies = ["py:x.py", "random"]\n')
    one_line_error(invoke("run", str(path), "--out", str(tmp_path / "out")),
                   "run 'main': 'py:x.py' is a Python strategy")


def test_a_path_object_is_not_taken_for_a_strategy_list():
    with pytest.raises(UserError, match="is not a strategy list"):
        RunConfig.make(games=10, strategies=Path("balanced"))
