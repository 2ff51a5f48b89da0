"""A game's facts have one source, its ``GameSpec``: the step-by-step class, the record, the
components of a game without files, the report notes, the golden cases and the runner's task
read them from it (issue 22)."""

from __future__ import annotations

import dataclasses
import pickle

import numpy as np
import pytest

from tajsim.engine.base_game import BaseGame, GameRecord
from tajsim.engine.components import Components, NoComponents
from tajsim.engine.game_notes import GameNotes
from tajsim.errors import UserError
from tajsim.games.registry import GAMES
from tajsim.running.chunk import run_chunk
from tajsim.running.config import RunConfig, RunTask

GAME_NAMES = list(GAMES)
#: What ``BaseGame`` subclasses used to restate from the spec.
SPEC_FACTS = ("game_name", "title", "editions", "players", "state_size", "n_actions",
              "max_players", "option_bits", "kernels", "enums", "default_components",
              "load_components", "current_player", "phase", "is_over", "record")


@pytest.mark.parametrize("name", GAME_NAMES)
def test_the_game_class_restates_nothing_of_its_spec(name):
    spec = GAMES[name]
    assert spec.game_class.spec is spec
    restated = [fact for fact in SPEC_FACTS if fact in vars(spec.game_class)]
    assert not restated, f"{name}'s Game restates {restated}"
    # ... and still reads them, from the spec (the public API of before)
    assert spec.game_class.editions == spec.editions and spec.game_class.game_name == name
    with pytest.raises(AttributeError, match="no attribute 'zzz'"):
        spec.game_class.zzz  # noqa: B018


@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_game_reads_turn_phase_and_record_from_its_spec(name):
    spec = GAMES[name]
    low = spec.players[spec.default_edition][0]
    game = spec.game_class(low, seed=4, game_id=1)
    assert game.current_player == spec.current_player(game.state) >= 0
    assert game.phase == spec.phase_names[spec.phase_of(game.state)]
    for _ in range(spec.max_game_length):  # the spec's bound: a cycle fails, never hangs
        if game.is_over:
            break
        game.apply(game.legal_actions()[-1])
    assert game.current_player == -1 and game.phase == "game_over"
    record = GameRecord.from_json(game.record().to_json())
    assert record.game == name and record.edition == spec.default_edition
    assert np.array_equal(spec.game_class.replay(record).state, game.state)


def test_the_spec_checks_what_the_game_class_used_to():
    spec = GAMES["maharaja"]
    with pytest.raises(UserError, match="unknown edition 'advanced' of Maharaja"):
        spec.game_class(3, edition="advanced")
    with pytest.raises(UserError, match="player count 9 is not allowed in Maharaja"):
        spec.game_class(9)
    with pytest.raises(UserError, match="unknown rule option 'yogi' of Maharaja"):
        spec.game_class(3, options={"yogi": True})
    game = spec.game_class(3, options={"static_order": True, "ten_rounds": False})
    assert game.options == {"static_order": True}
    assert game.rules == spec.rules_code(None, {"static_order": True})


def test_a_spec_without_a_game_class_gets_a_plain_one():
    spec = dataclasses.replace(GAMES["nothanks"], name="plain_nothanks", game_class=BaseGame)
    cls = spec.game_class
    assert issubclass(cls, BaseGame) and cls.spec is spec
    assert cls is not GAMES["nothanks"].game_class
    game = cls(3, seed=2)
    for _ in range(spec.max_game_length):
        if game.is_over:
            break
        game.apply(game.legal_actions()[0])
    assert game.record().game == "plain_nothanks" and game.action_label(0) == "action 0"
    # the copy left the wing's own class bound to the registered spec
    assert GAMES["nothanks"].game_class.spec is GAMES["nothanks"]


@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_wings_game_class_imported_alone_binds_its_spec_on_first_use(name):
    """``from tajsim.games.<name>.engine.game import Game`` (as a user of one game writes it):
    the class is bound when its wing's spec module runs, which nothing else has imported in a
    fresh interpreter; its first use imports it."""
    import subprocess
    import sys

    code = (f"import sys\nfrom tajsim.games.{name}.engine.game import Game\n"
            f"assert 'tajsim.games.{name}.spec' not in sys.modules\n"
            "print(Game.title, Game.spec.name, Game.spec.game_class is Game)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split()[-2:] == [name, "True"]
    assert out.stdout.startswith(GAMES[name].title)


def test_a_game_class_no_spec_binds_says_so():
    unbound = type("Unbound", (BaseGame,), {"__module__": "tajsim.games.nothanks.engine.x"})
    with pytest.raises(AttributeError, match=r"Unbound is bound to no game spec; expected a "
                                             r"GameSpec made with game_class=Unbound"):
        _ = unbound.spec
    with pytest.raises(AttributeError, match="Elsewhere is bound to no game spec"):
        _ = type("Elsewhere", (BaseGame,), {}).title
    # under tajsim.games/ but in no wing: no spec module to import, the same message
    wingless = type("Wingless", (BaseGame,), {"__module__": "tajsim.games.nosuchwing.engine.x"})
    with pytest.raises(AttributeError, match="Wingless is bound to no game spec"):
        _ = wingless.spec


def test_a_record_with_actions_names_its_game():
    with pytest.raises(UserError, match="'game' is None; expected the name of the game"):
        GameRecord.from_dict({"n_players": 3, "seed": 1, "game_id": 0, "actions": [0]})
    with pytest.raises(UserError, match="a game of 'maharani', not 'tajmahal'"):
        GAMES["tajmahal"].game_class.replay(GameRecord(n_players=2, game="maharani"))


def test_notes_are_typed_fields_and_unknown_ones_are_refused():
    with pytest.raises(TypeError, match="seat_notes"):
        GameNotes(seat_notes="typo")
    with pytest.raises(TypeError, match="extras"):
        dataclasses.replace(GAMES["nothanks"], extras={"seat_note": "x"})
    notes = GameNotes()
    assert notes.seat_note == "seat 0 plays first" and notes.compare_measures == ("score",)
    assert GAMES["maharaja"].chance_only_in_setup and not GAMES["tajmahal"].chance_only_in_setup


@pytest.mark.parametrize("name", GAME_NAMES)
def test_every_games_components_follow_the_protocol(name):
    assert isinstance(GAMES[name].components.default(), Components)


def test_a_game_without_component_files_uses_the_shared_implementation():
    components = GAMES["nothanks"].components
    shipped = components.default()
    assert isinstance(shipped, NoComponents) and components.file_kinds == ()
    assert shipped.packed().shape == (GAMES["nothanks"].comp_size,) and shipped.digest() == "none"
    assert components.load(None, None) is shipped
    with pytest.raises(UserError, match="No Thanks! has no component files; got 'x.toml'"):
        components.load("x.toml", None)
    assert components.validate(None, "y.toml") == ["y.toml: No Thanks! has no component files"]


def test_the_reference_preset_comes_from_the_spec():
    assert GAMES["tajmahal"].reference_preset == "balanced"
    assert GAMES["nothanks"].reference_preset == "random"  # no presets


@pytest.mark.parametrize("name", GAME_NAMES)
def test_every_game_declares_its_golden_cases(name):
    spec = GAMES[name]
    assert spec.golden_cases and spec.golden_dir is not None
    for case in spec.golden_cases:
        assert (spec.golden_dir / f"{case.name}.txt").is_file()
        assert len(case.strategies) == case.players
        spec.check_players(case.players, case.edition)
        spec.rules_code(case.edition, case.options)


def test_the_task_is_frozen_and_round_trips_through_pickle():
    config = RunConfig.make(games=30, players=3, strategies="greedy,random", seed=5,
                            game="nothanks", chunk_size=10)
    task = config.task()
    assert isinstance(task, RunTask) and task.fingerprint == config.fingerprint()
    with pytest.raises(dataclasses.FrozenInstanceError):
        task.seed = 6  # type: ignore[misc]
    again = pickle.loads(pickle.dumps(task))
    assert again == task
    assert run_chunk(again, 1).records == run_chunk(task, 1).records


def test_the_task_leaves_a_stored_runs_identity_alone():
    """The identity a stored run is resumed by, as the tree before the task became a dataclass
    computed it (a change here stops every stored run of the game from resuming)."""
    config = RunConfig.make(games=40, players=3, strategies="random", seed=5, game="nothanks",
                            chunk_size=10)
    assert config.fingerprint() == "deb292f537fdac2e"
    assert config.task().fingerprint == config.fingerprint()
