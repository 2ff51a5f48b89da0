"""No Thanks!, the example game: its rules on hand-built states, and the generic code that a
game with a lower-wins score, no strategy families, no tuning space, no board and no analyses
or report sections of its own reaches (the conformance suite plays it like every game)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # tests/: the CLI helpers
from cli_checks import invoke, one_line_error  # noqa: E402

from tajsim.analysis.registry import ANALYSES, analyses_for  # noqa: E402
from tajsim.engine.gpu import heuristics_on  # noqa: E402
from tajsim.games.nothanks.engine import enums as E  # noqa: E402
from tajsim.games.nothanks.engine import nb  # noqa: E402
from tajsim.games.registry import get_game  # noqa: E402
from tajsim.reporting.sections import GENERIC_SECTIONS, sections_for  # noqa: E402
from tajsim.running.aggregates import format_summary  # noqa: E402
from tajsim.running.simulate import run_simulation  # noqa: E402

SPEC = get_game("nothanks")
COMP = SPEC.components.default().packed()


def started(n_players: int, seed: int = 1) -> np.ndarray:
    state = np.zeros(SPEC.state_size, np.int64)
    prng = np.zeros(SPEC.max_players, np.int64)
    nb.start_game_nb(COMP, n_players, 0, seed, 0, 0, state, prng)
    return state


def give(state: np.ndarray, player: int, *cards: int) -> None:
    for card in cards:
        state[E.S_OWNER + card - E.LOW_CARD] = player


@pytest.mark.parametrize("n_players,chips", [(3, 11), (5, 11), (6, 9), (7, 7)])
def test_the_chips_follow_the_player_count(n_players, chips):
    state = started(n_players)
    assert state[E.S_CHIPS:E.S_CHIPS + n_players].tolist() == [chips] * n_players
    deck = state[E.S_DECK:E.S_DECK + E.N_CARDS]
    assert sorted(deck.tolist()) == list(range(3, 36))


def test_a_run_counts_its_lowest_card_and_chips_count_off():
    state = started(3)
    state[E.S_OWNER:E.S_OWNER + E.N_CARDS] = -1
    give(state, 1, 30, 31, 32, 10, 12)  # runs 30-32, 10, 12
    state[E.S_CHIPS + 1] = 4
    assert nb.card_points_nb(state, 1) == 30 + 10 + 12
    assert nb.score_nb(state, 1) == 52 - 4


def test_without_chips_a_player_must_take_and_the_taker_decides_next():
    state = started(4)
    legal = np.empty(E.N_ACTIONS, np.int64)
    state[E.S_CHIPS + 0] = 0
    assert legal[:nb.legal_actions_nb(state, COMP, legal)].tolist() == [E.ACT_TAKE]
    state[E.S_POT] = 5
    card = state[E.S_DECK]
    nb.apply_action_nb(state, COMP, E.ACT_TAKE)
    assert state[E.S_OWNER + card - E.LOW_CARD] == 0 and state[E.S_CHIPS] == 5
    assert state[E.S_CUR] == 0 and state[E.S_TURNED] == 1 and state[E.S_POT] == 0
    nb.apply_action_nb(state, COMP, E.ACT_PASS)  # no thanks: the next seat decides
    assert state[E.S_CUR] == 1 and state[E.S_POT] == 1 and state[E.S_CHIPS] == 4


def test_the_lowest_score_ranks_first_and_ties_share_the_rank():
    state = started(3)
    state[E.S_OWNER:E.S_OWNER + E.N_CARDS] = -1
    give(state, 0, 35)
    give(state, 1, 3)
    give(state, 2, 4)
    state[E.S_CHIPS:E.S_CHIPS + 3] = (0, 1, 2)  # scores 35, 2, 2
    nb.finish_nb(state)
    assert state[E.S_RANK:E.S_RANK + 3].tolist() == [3, 1, 1]
    assert state[E.S_CUR] == -1 and state[E.S_PHASE] == E.PHASE_GAME_OVER


def test_greedy_takes_when_the_cost_is_within_its_threshold():
    spec, low = SPEC.strategies.parse("greedy:threshold=5")
    _, high = SPEC.strategies.parse("greedy:threshold=6")
    state = started(3)
    card = int(state[E.S_DECK])
    state[E.S_POT] = card - 6  # taking costs 6 points
    legal = np.array([E.ACT_PASS, E.ACT_TAKE], np.int64)
    prng = np.zeros(SPEC.max_players, np.int64)
    choose = SPEC.kernels.choose_action
    assert choose(spec.strategy_id, state, COMP, 0, low, prng, legal, 2) == E.ACT_PASS
    assert choose(spec.strategy_id, state, COMP, 0, high, prng, legal, 2) == E.ACT_TAKE
    give(state, 0, card - 1)  # now it extends a run upwards: costs minus the chips only
    assert choose(spec.strategy_id, state, COMP, 0, low, prng, legal, 2) == E.ACT_TAKE


def test_the_winning_score_and_margin_are_the_lowest_where_lower_wins():
    res = run_simulation(40, 4, "greedy,random", game="nothanks", seed=3, workers=1,
                         progress=False)
    scores = np.sort(res.records["score"].to_numpy().reshape(40, 4), axis=1)
    agg = res.aggregates
    names = list(agg.game_metrics)
    game_sum = agg.arrays["game_sum"]
    assert game_sum[names.index("top_score")] == scores[:, 0].sum()
    assert game_sum[names.index("margin")] == (scores[:, 1] - scores[:, 0]).sum()
    assert (res.records["winner"] == (res.records["rank"] == 1)).all()
    assert "the lowest score wins" in res.summary_text().splitlines()[0]
    assert "lowest" not in format_summary(res.summary(), 40).splitlines()[0]  # "higher" games


def test_better_score_is_declared_and_checked():
    assert SPEC.better_score == "lower" and not SPEC.higher_score_wins
    assert all(get_game(g).higher_score_wins for g in ("tajmahal", "maharaja", "maharani"))
    import dataclasses

    with pytest.raises(ValueError, match="better_score 'least'"):
        dataclasses.replace(SPEC, better_score="least").check_layout()


def test_a_game_without_families_carries_its_scratch_on_the_gpu():
    ids = [s.strategy_id for s in SPEC.strategies.all()]
    assert SPEC.strategies.kernel_switches(ids) == ()
    assert heuristics_on(SPEC, ids)
    taj = get_game("tajmahal")
    random_id = taj.strategies.get("random").strategy_id
    assert not heuristics_on(taj, [random_id])  # families still switched off elsewhere


def test_a_game_without_analyses_or_sections_gets_the_generic_ones():
    assert SPEC.analyses_module == "" and SPEC.report_module == ""
    assert analyses_for("nothanks") == ANALYSES
    assert list(sections_for("nothanks")) == list(GENERIC_SECTIONS)


@pytest.mark.parametrize("args,needle", [
    (("tune", "--game", "nothanks"), "No Thanks! has nothing to tune"),
    (("board", "show", "--game", "nothanks"), "No Thanks! has no board picture"),
    (("simulate", "--game", "nothanks", "-n", "5", "-p", "2"),
     "player count 2 is not allowed in No Thanks!; expected 3 to 7"),
])
def test_commands_refuse_what_the_game_lacks_in_one_line(args, needle):
    one_line_error(invoke(*args), needle)


def test_component_files_are_refused_in_one_line(tmp_path):
    board = tmp_path / "board.toml"
    board.write_text("[board]\n")
    one_line_error(invoke("simulate", "--game", "nothanks", "-n", "5", "-p", "3", "--board",
                          str(board)), "No Thanks! has no component files")


    one_line_error(invoke("board", "validate", "--game", "nothanks", str(board)),
                   "No Thanks! has no component files")


def test_tune_keeps_taj_mahals_own_defaults():
    from tajsim.play.tuning import default_field, default_start

    taj = get_game("tajmahal")
    assert default_start(taj) == "balanced"
    assert default_field(taj, "balanced") == taj.tuning.field == (
        "balanced", "commodity", "network", "collector", "hoarder")
