"""Stochastic and restricted play in Maharaja (issue 19): temperature, forbid, and the line that
says a deterministic run repeats its games."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner
from maharaja_helpers import COMP

import tajsim
from tajsim.cli.main import cli
from tajsim.games.maharaja.engine import enums as E
from tajsim.games.maharaja.engine import nb
from tajsim.games.maharaja.play.nb import start_game_nb
from tajsim.games.maharaja.spec import SPEC
from tajsim.games.maharaja.strategies.nb import choose_action_nb
from tajsim.games.maharaja.strategies.restrictions import RESTRICTIONS, forbidden, lifted
from tajsim.running.config import RunConfig
from tajsim.running.repeats import (
    deterministic_lineup,
    repeat_note_for_config,
    repeat_note_for_results,
)

RESULT_COLUMNS = [c for c in E.RESULT_DTYPE.names if c != "strategy_id"]


def play(strategies: str, games: int = 40, seed: int = 3, **kwargs) -> pd.DataFrame:
    return tajsim.simulate(games, players=4, strategies=strategies, seed=seed, game="maharaja",
                           workers=1, progress=False, **kwargs)


def test_temperature_zero_and_forbid_none_are_todays_play():
    """The options at their defaults give the records of the plain strategies (the golden
    transcripts and a fixed-seed frame saved before the options existed check the same)."""
    plain = play("balanced,greedy,hoarder,search:iterations=4")
    same = play("balanced:temperature=0,greedy:forbid=none,hoarder:temperature=0:forbid=none,"
                "search:iterations=4:temperature=0")
    pd.testing.assert_frame_equal(plain[RESULT_COLUMNS], same[RESULT_COLUMNS])


def test_a_temperature_varies_the_decisions_reproducibly():
    cold = play("balanced", games=60)
    warm = play("balanced:temperature=1", games=60)
    again = play("balanced:temperature=1", games=60)
    pd.testing.assert_frame_equal(warm, again)  # the seed decides every draw
    assert not cold[RESULT_COLUMNS].equals(warm[RESULT_COLUMNS])
    # two games of one governor order differ now (at temperature 0 they are the same game)
    cold2 = play("balanced", games=40, setups="enumerated", games_per_setup=2)
    warm2 = play("balanced:temperature=1", games=40, setups="enumerated", games_per_setup=2)
    for frame, differ in ((cold2, False), (warm2, True)):
        scores = frame.pivot(index="game_id", columns="seat", values="score").to_numpy()
        assert (scores[0::2] != scores[1::2]).any(axis=1).any() == differ
    # a greater temperature plays further from the heuristic's choice
    hot = play("balanced:temperature=50", games=60)
    assert hot["penalties"].mean() > warm["penalties"].mean()


def test_search_takes_the_temperature_for_its_rollouts():
    cold = play("search:iterations=6,balanced", games=8)
    warm = play("search:iterations=6:temperature=2,balanced", games=8)
    assert not cold[RESULT_COLUMNS].equals(warm[RESULT_COLUMNS])


@pytest.mark.parametrize("restriction", RESTRICTIONS, ids=lambda r: r.name)
def test_each_restriction_removes_its_family(restriction):
    """Step by step, a restricted seat (at temperature 1: every decision drawn, so the whole
    legal list is exercised) never takes an action of its family unless every legal action
    belongs to it (then the restriction is lifted), and always takes a legal action."""
    spec, params = SPEC.strategies.parse(f"balanced:temperature=1:forbid={restriction.name}")
    plain_spec, plain = SPEC.strategies.parse("balanced")
    mask = 1 << restriction.bit
    ids = np.array([spec.strategy_id, plain_spec.strategy_id], np.int64)
    taken = lifts = in_family = 0
    for game in range(3):
        state = np.zeros(E.STATE_SIZE, np.int64)
        prng = np.zeros(E.MAX_PLAYERS, np.int64)
        legal = np.empty(E.N_ACTIONS, np.int64)
        start_game_nb(COMP, 4, 0, 11, game, game, state, prng)
        while state[E.S_PHASE] != E.PHASE_GAME_OVER:
            n = nb.legal_actions_nb(state, COMP, legal)
            p = int(state[E.S_CUR])
            restricted = p % 2 == 0
            vec = params if restricted else plain
            action = legal[0] if n == 1 else choose_action_nb(
                ids[p % 2], state, COMP, p, vec, prng, legal, n)
            assert action in legal[:n]
            if restricted and n > 1:
                in_family += sum(forbidden(state, a, mask) for a in legal[:n])
                if forbidden(state, action, mask):
                    assert lifted(state, legal, n, mask), (restriction.name, action)
                    lifts += 1
                taken += 1
            nb.apply_action_nb(state, COMP, action)
    assert taken > 100 and in_family > 0  # the family was on offer, and refused
    if restriction.name != "village_houses":
        assert lifts == 0  # `done` / the other pairs always remain


@pytest.mark.parametrize("strategy", ["balanced", "random", "search:iterations=4"])
def test_restrictions_show_in_the_records(strategy):
    frame = play(f"{strategy}:forbid=governor+character+outer_palaces,balanced", games=24)
    mine = frame[frame["strategy"] != "balanced"]
    assert (mine[["chose_governor", "chose_character", "palaces_outer"]] == 0).all().all()
    others = frame[frame["strategy"] == "balanced"]
    assert others[["chose_governor", "palaces_outer"]].to_numpy().sum() > 0


def test_the_repeated_games_line():
    def note(strategies, games, **kw):
        config = RunConfig.make(games, 4, strategies, game="maharaja", **kw)
        return repeat_note_for_config(config, SPEC)

    line = note("balanced", 6000)
    assert line is not None and "6,000 games hold at most 5,040 distinct ones" in line
    assert 'setups = "enumerated"' in line and "balanced:temperature=1" in line
    assert note("balanced", 5040, setups="enumerated") is None
    assert note("balanced:temperature=0.5", 6000) is None  # draws chance
    assert note("balanced,random", 30000) is None
    assert note("search:rollout=0", 6000) is None  # random rollouts draw
    assert note("search,balanced", 6000) is None  # 4 seatings: 20,160 distinct games
    assert note("search,balanced", 30000) is not None
    assert note("balanced", 100, games_per_setup=2) is not None  # one seating, two games
    assert not deterministic_lineup(get_tajmahal(), ["balanced"])  # chance in play


def get_tajmahal():
    from tajsim.games.registry import get_game

    return get_game("tajmahal")


def test_the_line_in_the_cli_and_for_a_report():
    result = CliRunner().invoke(cli, ["simulate", "--game", "maharaja", "-n", "5100", "-s",
                                      "greedy", "-w", "1"])
    assert result.exit_code == 0, result.output
    lines = [x for x in result.output.splitlines() if "Repeated games" in x]
    assert len(lines) == 1 and "5,100 games hold at most 5,040" in lines[0]
    quiet = CliRunner().invoke(cli, ["simulate", "--game", "maharaja", "-n", "60", "-s",
                                     "greedy", "-w", "1"])
    assert "Repeated games" not in quiet.output
    frame = play("balanced", games=60, games_per_setup=2)
    assert "Repeated games" in (repeat_note_for_results(SPEC, frame) or "")
    assert repeat_note_for_results(SPEC, play("balanced:temperature=1", games=60,
                                              games_per_setup=2)) is None


@pytest.mark.parametrize("text, words", [
    ("balanced:temperature=-0.5", "out of range; expected a number from 0 to 1,000"),
    ("balanced:forbid=palaces", "unknown restriction 'palaces'"),
    ("search:forbid=governor+gold", "unknown restriction 'gold'"),
])
def test_bad_options_are_one_line_in_the_cli(text, words):
    result = CliRunner().invoke(cli, ["simulate", "--game", "maharaja", "-n", "4", "-s", text])
    assert result.exit_code == 2
    assert words in result.output and result.output.strip().count("\n") == 0


def test_strategies_lists_the_restrictions():
    result = CliRunner().invoke(cli, ["strategies", "--game", "maharaja", "--no-params"])
    assert result.exit_code == 0
    for restriction in RESTRICTIONS:
        assert f"{restriction.name} " in result.output
    assert "temperature: a number from 0 to 1,000" in result.output
