"""Stochastic and restricted play in Maharani (issue 19): temperature and forbid."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner
from maharani_helpers import MCOMP

import tajsim
from tajsim.cli.main import cli
from tajsim.errors import UserError
from tajsim.games.maharani.engine import enums as E
from tajsim.games.maharani.engine import nb
from tajsim.games.maharani.play.nb import start_game_nb
from tajsim.games.maharani.spec import SPEC
from tajsim.games.maharani.strategies.ids import N_PARAMS, kernel_switches
from tajsim.games.maharani.strategies.nb import choose_action_nb
from tajsim.games.maharani.strategies.restrictions import RESTRICTIONS, forbidden, lifted

RESULT_COLUMNS = [c for c in E.RESULT_DTYPE.names if c != "strategy_id"]


def play(strategies: str, games: int = 30, players: int = 3, seed: int = 3,
         **kwargs) -> pd.DataFrame:
    return tajsim.simulate(games, players=players, strategies=strategies, seed=seed,
                           game="maharani", workers=1, progress=False, **kwargs)


def test_the_generic_slots_are_the_last_two():
    spec, vec = SPEC.strategies.parse("mcts:temperature=0.5:forbid=markers+refresh")
    assert vec.shape == (N_PARAMS,) and N_PARAMS == 50
    assert vec[-2] == 0.5 and vec[-1] == (1 << 2) + (1 << 1)
    assert vec[16:].shape == (34,)  # the rollouts' slice ends with the same two slots


def test_temperature_zero_and_forbid_none_are_todays_play():
    """The options at their defaults give the records of the plain strategies (the golden
    transcripts and the fixed-seed frames of benchmarks/frames_maharani.py check the same
    against the tree before the options existed)."""
    plain = play("balanced,greedy,mcts:iterations=6", games=6)
    same = play("balanced:temperature=0,greedy:forbid=none,"
                "mcts:iterations=6:temperature=0:forbid=none", games=6)
    pd.testing.assert_frame_equal(plain[RESULT_COLUMNS], same[RESULT_COLUMNS])


def test_a_temperature_varies_the_decisions_reproducibly():
    cold = play("balanced,zones", games=40, players=2)
    warm = play("balanced:temperature=0.5,zones", games=40, players=2)
    again = play("balanced:temperature=0.5,zones", games=40, players=2)
    pd.testing.assert_frame_equal(warm, again)  # the seed decides every draw
    assert not cold[RESULT_COLUMNS].equals(warm[RESULT_COLUMNS])
    # a greater temperature plays further from the heuristic's choice: less gold
    hot = play("balanced:temperature=8,zones", games=40, players=2)
    mine = {name: f[f["seat"] == 0]["score"].mean()
            for name, f in (("cold", cold), ("warm", warm), ("hot", hot))}
    assert mine["hot"] < mine["warm"] < mine["cold"], mine
    # greedy takes it too
    assert not play("greedy", games=10)[RESULT_COLUMNS].equals(
        play("greedy:temperature=1", games=10)[RESULT_COLUMNS])


def test_mcts_takes_the_temperature_for_its_rollouts():
    cold = play("mcts:iterations=8,balanced", games=4, players=2)
    warm = play("mcts:iterations=8:temperature=2,balanced", games=4, players=2)
    assert not cold[RESULT_COLUMNS].equals(warm[RESULT_COLUMNS])


@pytest.mark.parametrize("restriction", RESTRICTIONS, ids=lambda r: r.name)
@pytest.mark.parametrize("players", [2, 4])
def test_each_restriction_removes_its_family(restriction, players):
    """Step by step, a restricted seat (at temperature 2: every decision drawn, so the whole
    legal list is exercised) never takes an action of its family unless every legal action
    belongs to it (then the restriction is lifted), and always takes a legal action."""
    spec, params = SPEC.strategies.parse(f"balanced:temperature=2:forbid={restriction.name}")
    plain_spec, plain = SPEC.strategies.parse("balanced")
    mask = 1 << restriction.bit
    ids = np.array([spec.strategy_id, plain_spec.strategy_id], np.int64)
    taken = lifts = in_family = 0
    for game in range(3):
        state = np.zeros(E.STATE_SIZE, np.int64)
        prng = np.zeros(E.MAX_PLAYERS, np.int64)
        legal = np.empty(E.N_ACTIONS, np.int64)
        start_game_nb(MCOMP, players, 0, 11, game, game, state, prng)
        while state[E.S_PHASE] != E.PHASE_GAME_OVER:
            n = nb.legal_actions_nb(state, MCOMP, legal)
            p = int(state[E.S_CUR])
            restricted = p % 2 == 0
            offered = legal[:n].copy()
            vec = params if restricted else plain
            action = legal[0] if n == 1 else choose_action_nb(
                ids[p % 2], state, MCOMP, p, vec, prng, legal, n)
            assert action in offered
            if restricted and n > 1:
                in_family += sum(forbidden(state, MCOMP, a, mask) for a in offered)
                if forbidden(state, MCOMP, action, mask):
                    assert lifted(state, MCOMP, offered, n, mask), (restriction.name, action)
                    lifts += 1
                taken += 1
            nb.apply_action_nb(state, MCOMP, action)
    assert taken > 50 and in_family > 0  # the family was on offer, and refused
    if restriction.name in ("second_tiles", "refresh"):
        # `stop` is always legal with a second tile; refreshing is only forced when it is the
        # one legal action, which no strategy is asked about
        assert lifts == 0


@pytest.mark.parametrize("strategy", ["balanced", "random", "greedy:temperature=1",
                                      "mcts:iterations=4"])
def test_restrictions_show_in_the_records(strategy):
    frame = play(f"{strategy}:forbid=second_tiles+artisans,balanced", games=6, players=2)
    mine = frame[frame["strategy"] != "balanced"]
    assert (mine["second_tiles"] == 0).all()
    # an artisan only where every legal tile pointed at the seat (a lift): rare
    assert mine["artisans_placed"].sum() <= 0.05 * frame["artisans_placed"].sum()
    others = frame[frame["strategy"] == "balanced"]
    assert (others["second_tiles"] > 0).all() and (others["artisans_placed"] > 0).all()


def test_refresh_and_markers_show_in_the_records():
    frame = play("balanced:forbid=refresh,balanced:forbid=markers,balanced", games=20)
    by_seat = frame.groupby("seat")[["refresh_turns", "marker_turns"]].sum()
    # a seat that can lay no tile must refresh (its one legal action): those refreshes stay
    assert by_seat.loc[0, "refresh_turns"] < 0.5 * by_seat.loc[2, "refresh_turns"]
    assert by_seat.loc[1, "marker_turns"] < 0.2 * by_seat.loc[2, "marker_turns"]


def test_mcts_honours_its_restriction_at_the_root():
    spec, params = SPEC.strategies.parse("mcts:iterations=30:forbid=markers")
    search, heuristics, *_ = kernel_switches([spec.strategy_id])
    state = np.zeros(E.STATE_SIZE, np.int64)
    prng = np.zeros(E.MAX_PLAYERS, np.int64)
    legal = np.empty(E.N_ACTIONS, np.int64)
    checked = 0
    for game in range(4):
        start_game_nb(MCOMP, 3, 0, 5, game, game, state, prng)
        for _ in range(12):
            n = nb.legal_actions_nb(state, MCOMP, legal)
            offered = legal[:n].copy()
            action = choose_action_nb(spec.strategy_id, state, MCOMP, int(state[E.S_CUR]),
                                      params, prng, legal, n, search, heuristics)
            assert action in offered
            if not lifted(state, MCOMP, offered, n, 1 << 2):
                assert not forbidden(state, MCOMP, action, 1 << 2)
                checked += 1
            nb.apply_action_nb(state, MCOMP, action)
    assert checked > 30


@pytest.mark.parametrize("text, words", [
    ("balanced:temperature=-0.5", "out of range; expected a number from 0 to 1,000"),
    ("balanced:forbid=tolls", "unknown restriction 'tolls'"),
    ("mcts:forbid=markers+gold", "unknown restriction 'gold'"),
    ("greedy:temperature=nan", "temperature=nan in 'greedy:temperature=nan' is not a finite "
                               "number"),
])
def test_bad_options_are_one_line_in_the_cli(text, words):
    result = CliRunner().invoke(cli, ["simulate", "--game", "maharani", "-n", "4", "-s", text])
    assert result.exit_code == 2
    assert words in result.output and result.output.strip().count("\n") == 0


def test_a_bad_mask_in_a_vector_is_refused():
    spec = SPEC.strategies.get("balanced")
    vec = spec.param_vector()
    vec[-1] = float(1 << 7)  # no family has bit 7
    with pytest.raises(UserError, match="restriction mask 128"):
        spec.check_vector(vec)


def test_strategies_lists_the_restrictions():
    result = CliRunner().invoke(cli, ["strategies", "--game", "maharani", "--no-params"])
    assert result.exit_code == 0
    for restriction in RESTRICTIONS:
        assert f"{restriction.name} " in result.output
    assert "temperature: a number from 0 to 1,000" in result.output


def test_choose_action_leaves_the_callers_legal_list_alone():
    """A restriction filters the list in place inside the play loop only: the public kernel
    (``GameKernels.choose_action``) works on a copy, so a caller's list stays whole."""
    spec, params = SPEC.strategies.parse("balanced:forbid=markers+artisans")
    state = np.zeros(E.STATE_SIZE, np.int64)
    prng = np.zeros(E.MAX_PLAYERS, np.int64)
    legal = np.empty(E.N_ACTIONS, np.int64)
    start_game_nb(MCOMP, 3, 0, 8, 1, 1, state, prng)
    n = nb.legal_actions_nb(state, MCOMP, legal)
    before = legal[:n].copy()
    mask = (1 << 2) + (1 << 3)
    assert sum(forbidden(state, MCOMP, a, mask) for a in before) > 0
    action = choose_action_nb(spec.strategy_id, state, MCOMP, 0, params, prng, legal, n)
    assert np.array_equal(legal[:n], before) and not forbidden(state, MCOMP, action, mask)
