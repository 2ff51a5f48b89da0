"""The arc analyses (issue 40 s4) against hand-made trajectories with known answers, and the
runaway test against simulations whose answer is known: without feedback it rejects at about
its level, with a leader's bonus it finds a runaway, with a trailing seat's bonus catch-up."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from tajsim.analysis import arc
from tajsim.analysis.frames import NOT_PLAYED, trajectories


def frame_of(scores: np.ndarray, rounds: np.ndarray | None = None,
             strategies: list[str] | None = None, variant: str | None = None) -> pd.DataFrame:
    """A results frame from trajectories ``scores[g, r, seat]`` (the last round played is the
    final score; rounds after it are -1), as the records write it."""
    G, R, n = scores.shape
    rounds = np.full(G, R) if rounds is None else np.asarray(rounds)
    scores = scores.copy()
    for g in range(G):
        scores[g, rounds[g]:] = NOT_PLAYED
    final = scores[np.arange(G), rounds - 1]
    top = final == final.max(axis=1, keepdims=True)
    rows = {"game_id": np.repeat(np.arange(G), n), "seed": 0, "edition": "x",
            "n_players": n, "seat": np.tile(np.arange(n), G),
            "strategy": np.tile(strategies or ["s"] * n, G),
            "score": final.reshape(-1), "winner": top.reshape(-1),
            "setup_id": np.repeat(np.arange(G), n), "arc_rounds": np.repeat(rounds, n)}
    for r in range(R):
        rows[f"score_r{r + 1}"] = scores[:, r, :].reshape(-1).astype(np.int32)
    out = pd.DataFrame(rows)
    if variant is not None:
        out.insert(0, "variant", variant)
    return out


def test_leaders_shares_and_the_mid_round():
    s = np.array([[3, 1, 2], [2, 2, 1], [0, 5, 5]])
    np.testing.assert_array_equal(arc.sole_leader(s), [0, -1, -1])
    np.testing.assert_allclose(arc.score_win_share(s),
                               [[1, 0, 0], [0.5, 0.5, 0], [0, 0.5, 0.5]])
    np.testing.assert_array_equal(arc.mid_round(np.array([12, 11, 1, 2])), [5, 5, 0, 0])


def test_lead_changes_skip_ties_and_count_the_final():
    # game 0: leaders 0, 1, tie, 0, 1 -> 3 changes; game 1: 0 leads throughout -> 0;
    # game 2 (3 rounds): 1, 1, then a tied final -> 0
    scores = np.array([
        [[1, 0], [1, 2], [3, 3], [5, 3], [5, 6]],
        [[2, 0], [3, 1], [4, 2], [5, 3], [9, 3]],
        [[0, 1], [1, 2], [3, 3], [0, 0], [0, 0]],
    ])
    t = trajectories(frame_of(scores, rounds=np.array([5, 5, 3])))
    np.testing.assert_array_equal(arc.lead_changes(t), [3, 0, 0])
    np.testing.assert_array_equal(t.rounds, [5, 5, 3])
    np.testing.assert_array_equal(t.final, [[5, 6], [9, 3], [3, 3]])
    inc = arc.increments(t)
    np.testing.assert_array_equal(inc[2], [[0, 1], [1, 1], [2, 1], [0, 0], [0, 0]])


def test_summary_on_a_known_frame():
    # 4 games of 2 seats, 4 rounds, mid-game = round 2. Leaders at mid-game: 0, 0, 1, tie.
    # Final winners: 0, 1, 1, 0 -> the sole leader wins 2 of 3; seats behind: games 0-2 one
    # each, winning 1 of 3 (game 1).
    scores = np.array([
        [[1, 0], [2, 0], [3, 1], [4, 1]],
        [[1, 0], [2, 1], [3, 3], [3, 5]],
        [[0, 1], [0, 2], [1, 3], [1, 4]],
        [[1, 1], [2, 2], [3, 2], [4, 2]],
    ])
    out = arc.arc_summary(frame_of(scores), null_samples=5)
    m = {(r.measure, r.label): r for r in out.itertuples()}
    assert m[("leader_wins", "observed")].estimate == pytest.approx(2 / 3)
    assert m[("leader_wins", "observed")].n == 3
    assert m[("comeback", "behind at mid-game")].estimate == pytest.approx(1 / 3)
    assert m[("comeback", "behind at mid-game")].n == 3
    # lead changes: game 1 has 0 -> 1 (1 change, round 3 tied), others 0
    assert m[("lead_changes", "mean")].estimate == pytest.approx(0.25)
    assert m[("lead_changes", "0")].estimate == pytest.approx(0.75)
    assert m[("lead_changes", "1")].estimate == pytest.approx(0.25)
    for r in out.itertuples():
        if np.isfinite(r.ci_low):
            assert r.ci_low <= r.estimate <= r.ci_high


def test_comeback_by_deficit_and_by_round_on_a_known_frame():
    # 6 games of 2 seats, 2 rounds (mid = round 1). Deficits of the trailing seat: 1, 1, 2,
    # 2, 5, 5; the trailing seat wins the games with deficit 1 only.
    rows = []
    for d, trailer_wins in ((1, True), (1, True), (2, False), (2, False), (5, False),
                            (5, False)):
        rows.append([[d, 0], [d, d + 1 if trailer_wins else 0]])
    out = arc.comeback_by_deficit(frame_of(np.array(rows)), bins=3)
    b = out[out["measure"] == "comeback_by_deficit"]
    assert list(b["label"]) == ["1-1", "2-4", "5-5"]
    np.testing.assert_allclose(b["estimate"], [1.0, 0.0, 0.0])
    np.testing.assert_array_equal(b["n"], [2, 2, 2])
    place = out[out["measure"] == "win_by_mid_place"]
    np.testing.assert_allclose(place["estimate"], [4 / 6, 2 / 6])
    by_round = arc.arc_by_round(frame_of(np.array(rows)))
    lead = by_round[(by_round["measure"] == "lead_by_round") & (by_round["label"] == "1")]
    assert lead["estimate"].iloc[0] == pytest.approx(16 / 6)


def _simulated(G: int, rounds: int, n: int, rng: np.random.Generator,
               feedback: float = 0.0) -> np.ndarray:
    """Trajectories whose seats score Poisson(2 + seat / 2) points a round, plus ``feedback``
    points each round for the sole leader (negative: to every seat behind it instead)."""
    scores = np.zeros((G, rounds, n), np.int64)
    cur = np.zeros((G, n), np.int64)
    rate = 2.0 + 0.5 * np.arange(n)
    for r in range(rounds):
        step = rng.poisson(rate, size=(G, n))
        if feedback:
            lead = arc.sole_leader(cur)
            has = lead >= 0
            if feedback > 0:
                step[np.flatnonzero(has), lead[has]] += int(feedback)
            else:
                behind = (cur < cur.max(axis=1, keepdims=True)) & has[:, None]
                step += behind * int(-feedback)
        cur = cur + step
        scores[:, r] = cur
    return scores


def test_the_runaway_test_holds_its_level_without_feedback():
    rng = np.random.default_rng(2026)
    rejects = 0
    reps = 40
    for i in range(reps):
        out = arc.arc_summary(frame_of(_simulated(400, 6, 3, rng)), null_samples=10, seed=i)
        test = out[out["measure"] == "runaway"].iloc[0]
        rejects += test["verdict"] in ("runaway", "catch-up")
    # the level is 5%: 40 tests reject 2 on average; 7 or more has probability < 1%
    assert rejects <= 6, rejects


def test_the_runaway_test_finds_feedback_and_catch_up():
    rng = np.random.default_rng(7)
    out = arc.arc_summary(frame_of(_simulated(3000, 6, 3, rng, feedback=2)), null_samples=10)
    test = out[out["measure"] == "runaway"].iloc[0]
    assert test["verdict"] == "runaway" and test["estimate"] > 0
    out = arc.arc_summary(frame_of(_simulated(3000, 6, 3, rng, feedback=-2)), null_samples=10)
    test = out[out["measure"] == "runaway"].iloc[0]
    assert test["verdict"] == "catch-up" and test["estimate"] < 0


def test_groups_by_variant_and_table_size():
    rng = np.random.default_rng(3)
    a = frame_of(_simulated(50, 4, 2, rng), variant="a")
    b = frame_of(_simulated(50, 4, 3, rng), variant="b")
    b["game_id"] += 1000
    out = arc.arc_summary(pd.concat([a, b], ignore_index=True), null_samples=2)
    assert set(map(tuple, out[["variant", "n_players"]].drop_duplicates().to_numpy())) == {
        ("a", 2), ("b", 3)}


def test_turn_order_tells_turns_from_the_draft():
    # 2 seats, 4 rounds; the seat acting first in more rounds wins; draft places alternate
    rng = np.random.default_rng(5)
    G, R = 400, 4
    firsts = rng.integers(0, R + 1, size=G)  # rounds seat 0 acts first
    scores = np.zeros((G, R, 2), np.int64)
    scores[:, -1, 0] = np.where(firsts > R / 2, 10, np.where(firsts < R / 2, 0, 5))
    scores[:, -1, 1] = 5
    frame = frame_of(scores)
    turn = np.zeros((G, R, 2), np.int64)
    for g in range(G):
        turn[g, :firsts[g], 1] = 1
        turn[g, firsts[g]:, 0] = 1
    for r in range(R):
        frame[f"turn_r{r + 1}"] = turn[:, r, :].reshape(-1)
    frame["draft_pos"] = np.tile([0, 1], G) ^ np.repeat(np.arange(G) % 2, 2)
    out = arc.turn_order(frame)
    eff = out[out["measure"] == "first_turn_effect"].iloc[0]
    assert eff["estimate"] > 0.1 and eff["verdict"] == "differs"
    draft = out[out["measure"] == "win_by_draft_pos"]
    assert draft["n"].tolist() == [G, G]
    # the draft place is planted independent of the outcome: no place is told from a half
    assert (draft["ci_low"] < 0.5).all() and (draft["ci_high"] > 0.5).all(), draft


def test_turn_order_needs_maharaja_columns():
    from tajsim.errors import UserError
    with pytest.raises(UserError, match="turn_r"):
        arc.turn_order(frame_of(np.zeros((2, 2, 2), np.int64)))


def test_the_null_keeps_each_seats_rounds_and_each_games_length():
    # seat 0 scores 2 a round, seat 1 scores r (the round number): the null can only rebuild
    # the same trajectories, whatever it draws; game 1 is one round shorter
    G, R = 5, 4
    scores = np.zeros((G, R, 2), np.int64)
    scores[:, :, 0] = 2 * np.arange(1, R + 1)
    scores[:, :, 1] = np.cumsum(np.arange(1, R + 1))
    rounds = np.array([4, 3, 4, 4, 4])
    scores[1, 2] = [6, 6]  # game 1's last round (its end scoring) scores like the others' last
    scores[1, 2] = scores[1, 1] + (scores[0, 3] - scores[0, 2])
    t = trajectories(frame_of(scores, rounds=rounds))
    for cum in arc.null_trajectories(t, 3, np.random.default_rng(1)):
        for g in range(G):
            k = rounds[g]
            np.testing.assert_array_equal(cum[g, :k], t.scores[g, :k])
    by_round = arc.arc_by_round(frame_of(scores, rounds=rounds), null_samples=3)
    obs = by_round[by_round["measure"] == "leader_wins_by_round"]["estimate"].to_numpy()
    null = by_round[by_round["measure"] == "null_leader_wins_by_round"]["estimate"].to_numpy()
    np.testing.assert_allclose(obs, null)


def test_last_round_catch_up_is_the_most_gained_on_the_leader():
    # game 0: leader seat 0 (5 vs 2) before the last round; last round 1 vs 4: seat 1 gains 3;
    # game 1: leader seat 1 (1 vs 6); last round 7 vs 0: seat 0 gains 7; game 2: one round
    scores = np.array([[[5, 2], [6, 6]], [[1, 6], [8, 6]], [[3, 0], [0, 0]]])
    t = trajectories(frame_of(scores, rounds=np.array([2, 2, 1])))
    assert arc.last_round_catch_up(t) == 7
