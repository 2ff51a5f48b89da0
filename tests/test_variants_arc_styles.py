"""The variant comparison's arc measures and style mixes (issue 40, sections 2 and 4): every
level's row carries the arc of the same games (lead changes, winning from behind, the runaway
test against the null model, Holm over the table), equal to :func:`arc.arc_summary` on those
games; a run of three strategies or more is a style mix whose winners' entropy is measured and
whose games stay out of the skill pairs; records without trajectories give no arc rows and the
report says why."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from tajsim.analysis import arc
from tajsim.analysis.stats.verdicts import holm_family
from tajsim.analysis.variants import (
    ARC_MEASURES,
    ARC_NULL_SAMPLES,
    ARC_SEED,
    entropy_bits,
    variant_comparison,
)
from tajsim.reporting.variant_sections import variant_table_wide

ROUNDS = 6


def arc_frame(strategies_of_game, n_players: int, games: int, seed: int, *, feedback: float = 0.0,
              run_id: str = "r", variant: str = "v") -> pd.DataFrame:
    """Hand-made games with score trajectories: each seat scores 0-9 points a round, plus
    ``feedback`` times the round's leader bonus (the sole leader after a round scores that many
    more the next round: a runaway leader when positive). ``strategies_of_game(g)`` gives the
    seats' strategies of game g; strategy "strong" scores 2 more a round."""
    rng = np.random.default_rng(seed)
    rows = []
    for g in range(games):
        seats = strategies_of_game(g)
        scores = np.zeros((ROUNDS, n_players), np.int64)
        total = np.zeros(n_players, np.int64)
        for r in range(ROUNDS):
            points = rng.integers(0, 10, n_players) + 2 * np.array([s == "strong" for s in seats])
            top = total == total.max()
            if r > 0 and top.sum() == 1:
                points = points + int(feedback) * top
            total = total + points
            scores[r] = total
        winners = total == total.max()
        for seat in range(n_players):
            row = {"game_id": g, "run_id": run_id, "variant": variant, "n_players": n_players,
                   "seat": seat, "strategy": seats[seat], "score": int(total[seat]),
                   "winner": bool(winners[seat]), "arc_rounds": ROUNDS}
            row.update({f"score_r{r + 1}": int(scores[r, seat]) for r in range(ROUNDS)})
            rows.append(row)
    return pd.DataFrame(rows)


def mirror(name: str, n: int = 3):
    return lambda g: [name] * n


def test_every_level_carries_the_arc_of_its_own_games():
    """The arc rows of a level equal arc_summary on that level's games alone (same null
    samples and seed), for mirror levels and mixed pairs alike."""
    frames = [arc_frame(mirror("weak"), 3, 150, seed=1, run_id="m"),
              arc_frame(lambda g: ["strong", "weak", "weak"][g % 3:] + ["strong", "weak",
                                                                        "weak"][:g % 3],
                        3, 150, seed=2, run_id="x")]
    results = pd.concat(frames, ignore_index=True)
    long = variant_comparison(results)
    for level, frame in (("weak", frames[0]), ("strong vs weak", frames[1])):
        summary = arc.arc_summary(frame, by=None, null_samples=ARC_NULL_SAMPLES, seed=ARC_SEED)
        got = long[long["level"] == level].set_index("measure")
        for name, measure, label in ARC_MEASURES:
            want = summary[(summary["measure"] == measure) & (summary["label"] == label)].iloc[0]
            assert got.loc[name, "estimate"] == pytest.approx(want["estimate"]), (level, name)
            assert got.loc[name, "n"] == want["n"]
            assert got.loc[name, "ci_low"] <= got.loc[name, "estimate"] <= got.loc[name,
                                                                                   "ci_high"]
        assert got.loc["lead_changes", "n"] == 150
        assert got.loc["comeback", "n"] > 150  # seat-games
        assert got.loc["runaway", "verdict"] == want["verdict"]


def test_the_runaway_test_tells_a_runaway_leader_from_none():
    """Feedback from the standing (the leader scores 8 more a round) is found as a runaway;
    without it the test does not say runaway. Holm's p is over the table's runaway rows."""
    results = pd.concat([arc_frame(mirror("a"), 3, 400, seed=5, variant="plain", run_id="p"),
                         arc_frame(mirror("a"), 3, 400, seed=6, feedback=8,
                                   variant="runaway", run_id="q")], ignore_index=True)
    long = variant_comparison(results)
    tests = long[long["measure"] == "runaway"].set_index("variant")
    assert tests.loc["runaway", "verdict"] == "runaway"
    assert tests.loc["runaway", "estimate"] > 0.05 and tests.loc["runaway", "p_holm"] < 0.05
    assert tests.loc["plain", "verdict"] != "runaway"
    assert np.allclose(tests["p_holm"].to_numpy(),
                       holm_family(tests["p_differs"].to_numpy()).p_holm)
    # leader_wins - leader_wins_null is the runaway estimate
    rows = long[long["variant"] == "runaway"].set_index("measure")["estimate"]
    assert rows["runaway"] == pytest.approx(rows["leader_wins"] - rows["leader_wins_null"])
    other = long[long["measure"] != "runaway"]
    assert other["p_holm"].isna().all() and other["p_value"].isna().all()


def test_a_style_mix_measures_which_style_wins_and_stays_out_of_the_pairs():
    """A run seating three styles (one a table, rotated) is a style mix: the entropy of its
    winners' strategies and each style's share; its two-strategy games (a 2-player
    round-robin) are not a skill pair."""
    styles = ["a", "b", "c"]
    pairs = [(x, y) for x in styles for y in styles if x != y]
    four = arc_frame(lambda g: [styles[(g + k) % 3] for k in range(3)], 3, 120, seed=8,
                     run_id="mix3")
    two = arc_frame(lambda g: list(pairs[g % len(pairs)]), 2, 120, seed=9, run_id="mix2")
    pair = arc_frame(lambda g: ["strong", "a"] if g % 2 else ["a", "strong"], 2, 60, seed=10,
                     run_id="pair")
    long = variant_comparison(pd.concat([four, two, pair], ignore_index=True))
    assert set(long.loc[long["n_players"] == 2, "level"]) == {"styles: a/b/c", "strong vs a"}
    assert long.loc[long["measure"] == "stronger_share", "n"].tolist() == [60]
    for frame, n in ((four, 3), (two, 2)):
        got = long[(long["n_players"] == n) & (long["level"] == "styles: a/b/c")].set_index(
            "measure")
        wins = frame.assign(w=frame["winner"] / frame.groupby("game_id")["winner"]
                            .transform("sum")).groupby("strategy")["w"].sum()
        assert got.loc["winning_style_entropy", "estimate"] == pytest.approx(
            float(entropy_bits(wins.reindex(styles).to_numpy())))
        assert got.loc["winning_style_entropy", "n"] == 120
        shares = [got.loc[f"style_share:{s}", "estimate"] for s in styles]
        assert sum(shares) == pytest.approx(1.0)
        assert shares == pytest.approx((wins.reindex(styles) / 120).tolist())
        assert "runaway" in got.index  # the mix's arc too


def test_one_style_winning_everything_has_zero_entropy():
    frame = arc_frame(lambda g: ["strong", "b", "c"], 3, 30, seed=3, run_id="s")
    # make "strong" the only winner
    frame["winner"] = frame["strategy"] == "strong"
    row = variant_comparison(frame).set_index("measure").loc["winning_style_entropy"]
    assert row["estimate"] == 0.0 and row["n"] == 30


def test_records_without_trajectories_give_no_arc_rows():
    frame = arc_frame(mirror("a"), 3, 50, seed=4)
    old = frame.drop(columns=[c for c in frame.columns if c.startswith("score_r")]
                     + ["arc_rounds"])
    long = variant_comparison(old)
    assert not long["measure"].isin([m for m, _, _ in ARC_MEASURES]).any()
    assert {"seat_0", "max_seat_deviation", "ties"} <= set(long["measure"])
    assert "lead changes / game" not in variant_table_wide(long).columns


def test_the_wide_tables_carry_the_arc_with_n():
    results = pd.concat([arc_frame(mirror("a"), 3, 80, seed=11, variant="v1", run_id="1"),
                         arc_frame(mirror("a"), 3, 80, seed=12, variant="v2", run_id="2"),
                         arc_frame(lambda g: ["a", "b", "c"], 3, 80, seed=13, variant="v1",
                                   run_id="3")], ignore_index=True)
    long = variant_comparison(results)
    arc_rows = variant_table_wide(long, "arc")
    assert list(arc_rows["games"]) == [80, 80, 80]
    assert arc_rows["runaway: leader over null (pts)"].str.match(r"[+-]\d+\.\d \[").all()
    assert arc_rows["runaway verdict"].str.contains(r"\(n \d+; differs: Holm p ").all()
    assert arc_rows["behind at mid-game wins"].str.contains(r"\(n \d+\)").all()
    balance = variant_table_wide(long, "balance")
    assert "styles: a/b/c" not in set(balance["level"])
    assert "runaway: leader over null (pts)" not in balance.columns
    styles = variant_table_wide(long, "styles")
    assert list(styles["level"]) == ["styles: a/b/c"]
    assert styles["winning style entropy (bits)"].str.endswith("of 1.58").all()
    with pytest.raises(ValueError, match="part 'arcs'"):
        variant_table_wide(long, "arcs")


def test_a_style_mix_label_says_shared_parameters_once():
    from tajsim.analysis.variants import style_label

    assert style_label(["zones:temperature=0.25", "balanced:temperature=0.25",
                        "thrifty:temperature=0.25"]) == \
        "styles: balanced/thrifty/zones (temperature=0.25)"
    assert style_label(["b", "a:temperature=1", "c"]) == "styles: a:temperature=1/b/c"
    frame = arc_frame(lambda g: ["a:t=1", "b:t=1", "c:t=1"], 3, 20, seed=2, run_id="s")
    styles = variant_table_wide(variant_comparison(frame), "styles")
    assert list(styles["level"]) == ["styles: a/b/c (t=1)"]
    assert styles["styles' win shares"].iloc[0].startswith("a ")


def test_the_figure_shortens_the_level_labels():
    from tajsim.reporting.variant_sections import short_level

    assert short_level("search:iterations=20:temperature=0.25 vs hoarder:temperature=1") == \
        "search it=20 T=0.25 vs hoarder T=1"
    assert short_level("styles: a/b/c (temperature=1)") == "style mix"
    assert short_level("mcts:rollout=3") == "mcts rollout=3"


def _variants_report(frames: list[pd.DataFrame], out) -> str:
    """The report.md of the variants section alone on ``frames`` (ranks from the scores)."""
    from tajsim.reporting.report import build_report

    results = pd.concat(frames, ignore_index=True)
    results["rank"] = results.groupby(["run_id", "game_id"])["score"].rank(
        ascending=False, method="min").astype(int)
    build_report(results, out, sections=["variants"])
    return (out / "report.md").read_text()


def test_a_comparison_of_style_mixes_only_writes_its_report(tmp_path):
    """Rule options compared on one table of the presets (Maharaja's rule_options.toml) give
    style-mix rows only: the per-size balance tables have no row, and the report shows the
    styles' table with the long CSV instead of failing."""
    styles = ["a", "b", "c"]
    frames = [arc_frame(lambda g: [styles[(g + k) % 3] for k in range(3)], 3, 60, seed=s,
                        run_id=f"mix-{v}", variant=v) for s, v in ((11, "defaults"), (12, "x"))]
    md = _variants_report(frames, tmp_path)
    assert "Which style wins, by variant" in md and "The variants side by side at" not in md
    assert "by level: ." not in md and "- **Variants side by side.** Which style wins" in md
    table = pd.read_csv(tmp_path / "table_variant_comparison.csv")
    assert set(table["variant"]) == {"defaults", "x"}


def test_a_comparison_of_mixed_pairs_only_says_the_stronger_share(tmp_path):
    """Without mirror levels (Maharani's robustness: mixed pairs of presets on each board) the
    headline is the stronger level's share, not an empty list of deviations."""
    frames = [arc_frame(lambda g: ["strong", "a"] if g % 2 else ["a", "strong"], 2, 60, seed=s,
                        run_id=f"pair-{v}", variant=v) for s, v in ((13, "defaults"), (14, "x"))]
    md = _variants_report(frames, tmp_path)
    assert "by level: ." not in md
    assert "- **Variants side by side.** Stronger level's share in mixed tables: defaults " in md


def test_closest_to_parity_is_a_tested_order():
    """The variant with the smallest largest-seat deviation is called closest to parity only
    where its absolute deviation is below each other variant's (one-sided z tests, all
    p < 0.05); a tie of point estimates, or an interval too wide, is not an order."""
    from tajsim.analysis.variants import closest_to_parity

    def rows(level, devs):
        return [{"variant": v, "n_players": 4, "level": level, "measure": "max_seat_deviation",
                 "estimate": d, "ci_low": d - h, "ci_high": d + h} for v, d, h in devs]

    long = pd.DataFrame(rows("apart", [("a", 0.10, 0.02), ("b", -0.01, 0.02),
                                       ("c", 0.08, 0.02)])
                        + rows("tied", [("a", -0.007, 0.02), ("b", 0.007, 0.02),
                                        ("c", 0.05, 0.02)])
                        + rows("alone", [("a", 0.05, 0.02)]))
    out = closest_to_parity(long).set_index("level")
    apart, tied, alone = out.loc["apart"], out.loc["tied"], out.loc["alone"]
    assert apart["variant"] == "b" and apart["closest"] and apart["p_value"] < 1e-6
    assert apart["not_apart"] == "b"
    assert tied["variant"] == "a" and not tied["closest"] and tied["p_value"] == 0.5
    assert tied["not_apart"] == "a, b"  # c lies 3 standard errors above: told apart
    assert np.isnan(alone["p_value"]) and not alone["closest"]


def test_the_headline_names_the_variant_closest_to_parity_only_when_tested(tmp_path):
    """Two variants of the same game (mirror games, other seeds) differ by chance only: the
    headline says the smallest deviation is not told apart, and names no variant."""
    frames = [arc_frame(mirror("weak"), 3, 300, seed=s, run_id=f"m-{v}", variant=v)
              for s, v in ((21, "defaults"), (22, "x"))]
    md = _variants_report(frames, tmp_path)
    closest = md[md.index("Closest to parity ("):].split("\n", 1)[0]
    named = closest.split("after looking): ", 1)[1]
    assert named.startswith("weak (3p): not told apart (") and "p = " in named
    assert "**" not in named


def test_series_past_ten_colours_change_marker_shape():
    """Eleven variants: the eleventh takes the first colour again, with another shape."""
    from tajsim.reporting.render import SERIES_COLOURS, series_colour, series_marker

    styles = [(series_colour(j), series_marker(j)) for j in range(11)]
    assert len(set(styles)) == 11 and len({c for c, _ in styles[:10]}) == len(SERIES_COLOURS)
    assert styles[10][0] == styles[0][0] and styles[10][1] != styles[0][1]
