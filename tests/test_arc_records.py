"""The per-round score trajectories of the records (issue 40 s4): the columns the batch loop
writes equal a step-by-step replay of the same games through the Python API, and every
path that writes records (threads, processes, a resumed run) gives the same ones."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import tajsim
from tajsim.analysis.frames import NOT_PLAYED, round_columns, trajectories
from tajsim.games.registry import get_game
from tajsim.play.conformance import kernel_game_actions


def _round_of(name: str, state: np.ndarray, n: int) -> int:
    """The round in progress, read from the state as each game's rules define a round (Taj
    Mahal: the visit; Maharaja: the round counter, from 1; Maharani: turns begun // players,
    seat 0 playing first)."""
    if name == "tajmahal":
        from tajsim.games.tajmahal.engine.enums import S_VISIT
        return int(state[S_VISIT])
    if name == "maharaja":
        from tajsim.games.maharaja.engine.enums import S_ROUND
        return int(state[S_ROUND]) - 1
    from tajsim.games.maharani.engine.enums import S_TURN
    return int(state[S_TURN]) // n


def _maharaja_turn_order(state: np.ndarray, n: int) -> list[int]:
    from tajsim.games.maharaja.engine.enums import S_ORDER
    places = [0] * n
    for i in range(n):
        places[int(state[S_ORDER + i])] = i
    return places


def replay_trajectory(name: str, n: int, seed: int, game_id: int, strategy: str):
    """Play game ``game_id`` with the kernels' own ``play_out`` (``strategy`` at every seat),
    then replay its actions one by one with ``tajsim.game(...).apply`` and take each seat's
    ``scores()`` whenever a round has ended (the next one began) and when the game is over.

    Returns ``(scores by round: list of lists, turn places by round or None, final scores)``.
    """
    spec = get_game(name)
    _, _, _, actions = kernel_game_actions(spec, n, seed=seed, game_id=game_id,
                                           strategy=strategy)
    game = tajsim.game(name, n, seed=seed, game_id=game_id)
    rnd = _round_of(name, game.state, n)
    by_round: dict[int, list[int]] = {}
    turns: dict[int, list[int]] = {}
    for action in actions:
        before = rnd
        game.apply(action)
        if name == "maharaja" and before >= 0 and before not in turns:
            from tajsim.games.maharaja.engine.enums import S_TURN_PLAYER
            if game.state[S_TURN_PLAYER] >= 0:  # the round's reveal: its first turn began
                turns[before] = _maharaja_turn_order(game.state, n)
        if game.is_over:
            by_round[max(before, 0)] = list(game.scores())
            break
        rnd = _round_of(name, game.state, n)
        if rnd != before and before >= 0:
            by_round[before] = list(game.scores())
    assert game.is_over
    last = max(by_round)
    assert sorted(by_round) == list(range(last + 1)), "a round without its snapshot"
    return ([by_round[r] for r in range(last + 1)],
            [turns[r] for r in range(last + 1)] if name == "maharaja" else None,
            list(game.scores()))


CASES = [("tajmahal", 4, "random"), ("tajmahal", 2, "tuned:temperature=1"),
         ("maharaja", 4, "random"), ("maharaja", 3, "hoarder:temperature=1"),
         ("maharani", 2, "random"), ("maharani", 4, "balanced:temperature=0.25")]


@pytest.mark.parametrize(("name", "players", "strategy"), CASES)
def test_trajectory_columns_equal_a_step_by_step_replay(name, players, strategy):
    seed, games = 7, 4
    frame = tajsim.simulate(games, players, [strategy], seed=seed, game=name, workers=1,
                            progress=False)
    cols = round_columns(frame)
    spec = get_game(name)
    assert len(cols) == spec.setup_dtype["score_by_round"].shape[0]
    assert frame[cols].dtypes.eq(np.int32).all()
    traj = trajectories(frame)
    assert traj.scores.shape == (games, len(cols), players)
    for g in range(games):
        scores, turns, final = replay_trajectory(name, players, seed, g, strategy)
        np.testing.assert_array_equal(traj.final[g], final)  # the same game
        k = len(scores)
        assert traj.rounds[g] == k
        np.testing.assert_array_equal(traj.scores[g, :k], np.array(scores))
        assert (traj.scores[g, k:] == NOT_PLAYED).all()
        np.testing.assert_array_equal(traj.scores[g, k - 1], traj.final[g])
        if turns is not None:
            np.testing.assert_array_equal(traj.turn[g, :k], np.array(turns))
            assert (traj.turn[g, k:] == NOT_PLAYED).all()
            for r in range(k):
                assert sorted(traj.turn[g, r]) == list(range(players))
            assert sorted(traj.draft[g]) == list(range(players))
        else:
            assert traj.turn is None


def test_a_game_without_rounds_keeps_no_trajectory():
    frame = tajsim.simulate(3, 3, ["random"], seed=1, game="nothanks", workers=1,
                            progress=False)
    assert round_columns(frame) == [] and "arc_rounds" not in frame.columns
    with pytest.raises(ValueError, match="trajectory"):
        trajectories(frame)


@pytest.mark.filterwarnings("ignore:.*failed verification")
def test_threads_processes_and_a_resumed_run_write_the_same_trajectories(tmp_path):
    kwargs = dict(seed=5, game="maharani", progress=False, chunk_size=3)
    one = tajsim.simulate(12, 3, ["random"], workers=1, **kwargs)
    two = tajsim.simulate(12, 3, ["random"], workers=2, **kwargs)
    run = tmp_path / "run"
    tajsim.simulate(12, 3, ["random"], workers=1, out=run, **kwargs)
    chunks = sorted((run / "chunks").glob("chunk-*.parquet"))
    chunks[1].unlink()  # an interrupted run: the same call plays only the missing chunk
    resumed = tajsim.simulate(12, 3, ["random"], workers=1, out=run, **kwargs)
    cols = [*round_columns(one), "arc_rounds"]
    for other in (two, resumed):
        pd.testing.assert_frame_equal(one[cols].reset_index(drop=True),
                                      other[cols].reset_index(drop=True))


def test_kingmaking_replays_reproduce_the_games_and_a_deterministic_seat_never_decides():
    from tajsim.analysis.arc import kingmaking
    frame = tajsim.simulate(80, 4, ["tuned"], seed=3, game="tajmahal", workers=1,
                            progress=False)
    out = kingmaking(frame, by=None, game="tajmahal")
    m = {(r.measure, r.label): r for r in out.itertuples()}
    assert m[("not_reproduced", "games")].estimate == 0
    assert m[("kingmaking", "games")].n == 80
    assert m[("out_of_contention", "games")].estimate > 0
    # tuned plays deterministically: another policy stream plays the same last round
    assert m[("kingmaking", "games")].estimate == 0
    # another strategy in the out-of-contention seat's place can change the winner
    other = kingmaking(frame, by=None, game="tajmahal", replacement="random")
    o = {(r.measure, r.label): r for r in other.itertuples()}
    assert o[("not_reproduced", "games")].estimate == 0
    assert o[("kingmaking", "games")].estimate > 0  # 3 of these 80 games


# a small run leaves Maharaja's seat-and-card heat map without a cell: drawn, not warned about
@pytest.mark.filterwarnings("error:Attempting to set identical low and high:UserWarning")
def test_the_arc_section_renders_when_named_and_only_then(tmp_path):
    from tajsim.reporting.report import build_report
    frame = tajsim.simulate(40, 4, ["random"], seed=9, game="maharaja", workers=1,
                            progress=False)
    text = build_report(frame, tmp_path / "arc", game="maharaja",
                        sections=["overview", "arc"]).read_text(encoding="utf-8")
    for words in ("The arc of a game", "null model without feedback", "Kingmaking",
                  "turn order", "fig_arc_leader_by_round.png"):
        assert words in text, words
    default = build_report(frame, tmp_path / "default", game="maharaja").read_text(
        encoding="utf-8")
    assert "The arc of a game" not in default
