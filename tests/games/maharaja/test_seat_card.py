"""Forced drafts and the seat apart from the card (issue 39, section 4): ``draft=<card>`` makes a
seat take that card on every path (each strategy, threads, the GPU's dispatcher in the
simulator), its bad input is one line, and ``seat_card_table`` / ``seat_card_model`` give the
counts, intervals and model estimates of a synthetic frame whose answer is known."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import statsmodels.formula.api as smf
from click.testing import CliRunner
from statsmodels.stats.proportion import proportion_confint

import tajsim
from tajsim.cli.main import cli
from tajsim.errors import UserError
from tajsim.games.maharaja.analyses import ANALYSES, REQUIRED_COLUMNS
from tajsim.games.maharaja.analyses.seat_and_card import (
    CARDS_EQUAL,
    NO_INTERACTION,
    SEATS_EQUAL,
    forced_cards,
    seat_card_model,
    seat_card_table,
)
from tajsim.games.maharaja.engine import enums as E
from tajsim.games.maharaja.spec import SPEC
from tajsim.games.maharaja.strategies.restrictions import (
    CARD_SLUGS,
    RESTRICTIONS,
    draft_mask,
    forced_card,
)

ROOT = Path(__file__).resolve().parents[3]
CARD = E.CARD
RESULT_COLUMNS = [c for c in E.RESULT_DTYPE.names if c != "strategy_id"]


def play(strategies, games: int = 8, seed: int = 5, **kwargs) -> pd.DataFrame:
    return tajsim.simulate(games, players=len(strategies), strategies=list(strategies),
                           seed=seed, game="maharaja", workers=kwargs.pop("workers", 1),
                           progress=False, **kwargs)


# ---------------------------------------------------------------------------------------------
# The option
# ---------------------------------------------------------------------------------------------
def test_draft_is_the_five_other_draft_families():
    for card in range(E.N_CARDS):
        assert forced_card(draft_mask(card)) == card
        assert bin(draft_mask(card)).count("1") == E.N_CARDS - 1
    assert forced_card(0) == -1 and forced_card(1 << 2) == -1  # character: no forced card
    _, sugar = SPEC.strategies.parse("hoarder:temperature=1:draft=monk")
    others = "+".join(f"draft_{s}" for s in CARD_SLUGS if s != "monk")
    _, spelled = SPEC.strategies.parse(f"hoarder:forbid={others}:temperature=1")
    np.testing.assert_array_equal(sugar, spelled)
    # with another restriction, and the Monk's full name
    _, both = SPEC.strategies.parse("balanced:forbid=governor:draft=Wandering_Monk")
    assert int(both[-1]) == draft_mask(CARD.MONK) | 1
    _, none = SPEC.strategies.parse("balanced:draft=none")
    np.testing.assert_array_equal(none, SPEC.strategies.parse("balanced")[1])
    names = {r.name for r in RESTRICTIONS}
    assert {f"draft_{s}" for s in CARD_SLUGS} <= names


@pytest.mark.parametrize("text, words", [
    ("hoarder:draft=yogi", "draft='yogi' in 'hoarder:draft=yogi': unknown card; expected one "
                           "of: mogul, trader, sadhu, monk, builder, artisan (or none)"),
    ("hoarder:draft=4", "unknown card"),
    ("random:draft", "unknown card"),
    ("hoarder:draft=monk:draft=sadhu", "given twice"),
    ("hoarder:draft=monk:forbid=draft_monk", "contradict each other"),
])
def test_bad_draft_is_one_line(text, words):
    with pytest.raises(UserError) as info:
        SPEC.strategies.parse(text)
    assert words in str(info.value) and "\n" not in str(info.value)
    result = CliRunner().invoke(cli, ["simulate", "--game", "maharaja", "-n", "4", "-s", text])
    assert result.exit_code == 2
    assert words in result.output and result.output.strip().count("\n") == 0


def test_each_seat_takes_its_forced_card_whatever_the_strategy():
    """Every strategy kind, one forced card a seat, every seat rotation: the records' drafted
    card is the forced one in every game (the random seat is restricted, so the batch loop's
    shortcut for an unrestricted random seat leaves it to the dispatcher)."""
    line_up = ["random:draft=artisan", "greedy:draft=mogul", "balanced:temperature=1:draft=monk",
               "learned:draft=sadhu", "search:iterations=3:draft=trader"]
    frame = play(line_up, games=10, rotate=True)
    wanted = {label: CARD_SLUGS.index(label.split("draft=")[1]) for label in line_up}
    assert (frame["card_first"] == frame["strategy"].map(wanted)).all()
    assert (forced_cards(frame) == frame["strategy"].map(wanted).to_numpy()).all()
    assert frame["seat"].nunique() == 5 and frame.groupby("strategy")["seat"].nunique().min() == 5


def test_a_taken_card_leaves_the_strategy_its_own_draft():
    frame = play(["hoarder:draft=builder", "hoarder:draft=builder", "hoarder", "hoarder"],
                 games=6)
    first = frame.pivot(index="game_id", columns="seat", values="card_first")
    assert (first[0] == CARD.BUILDER).all()
    assert (first[1] != CARD.BUILDER).all()  # lifted: seat 1 drafts as hoarder would
    free = play(["hoarder:draft=builder", "hoarder", "hoarder", "hoarder"], games=6)
    pd.testing.assert_frame_equal(  # the same draft as the unforced seat 1 of that table
        frame[frame["seat"] >= 1][RESULT_COLUMNS].reset_index(drop=True),
        free[free["seat"] >= 1][RESULT_COLUMNS].reset_index(drop=True))


def test_draft_none_and_unforced_play_keep_their_records():
    plain = play(["balanced:temperature=1", "hoarder", "random", "greedy"], games=12)
    same = play(["balanced:temperature=1:draft=none", "hoarder:draft=none", "random:draft=none",
                 "greedy"], games=12)
    pd.testing.assert_frame_equal(plain[RESULT_COLUMNS], same[RESULT_COLUMNS])


def test_forced_records_are_identical_between_threads():
    line_up = ["hoarder:temperature=1:draft=monk", "balanced:temperature=1:draft=artisan",
               "random:draft=mogul", "hoarder:temperature=1"]
    one = play(line_up, games=48, seed=9, workers=1, chunk_size=8)
    two = play(line_up, games=48, seed=9, workers=2, chunk_size=8)
    pd.testing.assert_frame_equal(one.sort_values(["game_id", "seat"]).reset_index(drop=True),
                                  two.sort_values(["game_id", "seat"]).reset_index(drop=True))


@pytest.mark.slow  # the simulator runs the device code as Python: 0.5-2 min
def test_forced_drafts_play_alike_on_the_gpu_dispatcher():
    """The GPU batch kernel (numba-cuda's simulator, as tests/test_gpu.py) takes the forced
    cards through the shared ``choose_simple`` and gives the CPU's records and states (a
    restricted random seat and a heuristic at a temperature: one small game, the simulator runs
    the device code as Python)."""
    case = {"game": "maharaja", "players": 2, "edition": "basic", "games": 1, "seed": 41,
            "strategies": ["random:draft=artisan", "balanced:temperature=1:draft=monk"]}
    env = {**os.environ, "NUMBA_ENABLE_CUDASIM": "1", "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, str(ROOT / "tests" / "gpu_sim_check.py"),
                           json.dumps([case])], env=env, capture_output=True, text=True,
                          timeout=600, check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    (report,) = [json.loads(x) for x in proc.stdout.splitlines() if x.startswith("{")]
    assert report["differences"] == []


@pytest.mark.parametrize("strategy", ["balanced:temperature=1", "hoarder:temperature=1"])
def test_once_the_cards_are_dealt_the_seat_plays_no_part(strategy):
    """The structural fact behind the seat-and-card report: with every seat's card forced, a
    game played again with its seats permuted, each seat's random stream moving with its line-up
    entry, is the same game (every entry's score and win unchanged): after the draft the rules
    and the strategies are symmetric in the seats, so a seat's rate given its card cannot differ
    from another seat's but by chance."""
    k = SPEC.kernels
    comp = np.asarray(SPEC.components.default().packed(), np.int64)
    parsed = [SPEC.strategies.parse(f"{strategy}:draft={c}")
              for c in ("mogul", "trader", "monk", "artisan")]
    ids = np.array([spec.strategy_id for spec, _ in parsed], np.int64)
    params = np.array([vec for _, vec in parsed])
    switches = SPEC.strategies.kernel_switches(ids, params)
    legal = np.empty(E.N_ACTIONS, np.int64)
    for game in range(6):
        outcomes = []
        for perm in ((0, 1, 2, 3), (1, 2, 3, 0), (3, 0, 2, 1)):
            perm_a = np.array(perm)
            state = np.zeros(E.STATE_SIZE, np.int64)
            prng = np.zeros(E.MAX_PLAYERS, np.int64)
            k.start_game(comp, 4, 0, 77, game, game, state, prng)
            prng[:4] = prng[:4][perm_a]  # seat s plays entry perm[s] with that entry's stream
            k.play_out(comp, state, ids[perm_a], np.ascontiguousarray(params[perm_a]), prng,
                       legal, np.empty(0, np.int64), *switches)
            parts = state[E.S_PARTS:E.S_PARTS + 4 * E.N_PARTS].reshape(4, E.N_PARTS).sum(axis=1)
            outcomes.append({int(perm_a[s]): (int(parts[s]), int(state[E.S_WINNER + s]),
                                              int(state[E.S_FIRST_CARD + s])) for s in range(4)})
        assert outcomes[1] == outcomes[0] and outcomes[2] == outcomes[0]
        # the same game as far as the cards go, and not a trivial one
        assert sorted(v[2] for v in outcomes[0].values()) == [CARD.MOGUL, CARD.TRADER,
                                                              CARD.MONK, CARD.ARTISAN]


# ---------------------------------------------------------------------------------------------
# The analyses, on synthetic frames
# ---------------------------------------------------------------------------------------------
def synthetic(cells: dict[tuple[int, int], tuple[int, int]]) -> pd.DataFrame:
    """Two-player games: ``cells[(seat, card)] = (games, wins)`` for seat 0's card and seat 1
    holding the Mogul (card 0) and winning the rest; seat 0's strategy forces its card."""
    rows, game = [], 0
    for (seat, card), (games, wins) in cells.items():
        assert seat == 0
        for k in range(games):
            won = k < wins
            rows.append({"game_id": game, "seat": 0, "n_players": 2, "winner": won,
                         "card_first": card, "card_final": card,
                         "strategy": f"hoarder:draft={CARD_SLUGS[card]}"})
            rows.append({"game_id": game, "seat": 1, "n_players": 2, "winner": not won,
                         "card_first": CARD.MOGUL, "card_final": CARD.MOGUL, "strategy": "hoarder"})
            game += 1
    return pd.DataFrame(rows)


def test_seat_card_table_counts_and_wilson_intervals():
    frame = synthetic({(0, CARD.MONK): (40, 30), (0, CARD.ARTISAN): (60, 15)})
    table = seat_card_table(frame)
    cell = table[(table["seat"] == 0) & (table["card"] == "monk")].iloc[0]
    assert cell["n"] == 40 and cell["wins"] == 30 and cell["win_rate"] == 0.75
    low, high = proportion_confint(30, 40, alpha=0.05, method="wilson")
    assert cell["ci_low"] == pytest.approx(low) and cell["ci_high"] == pytest.approx(high)
    assert cell["baseline"] == 0.5 and cell["excess"] == pytest.approx(0.25)
    assert cell["forced"] == 1.0 and cell["honoured"] == 1.0
    seat0 = table[(table["seat"] == 0) & (table["card"] == "all")].iloc[0]
    assert seat0["n"] == 100 and seat0["wins"] == 45
    mogul = table[table["seat"].isna() & (table["card"] == "mogul")].iloc[0]
    assert mogul["n"] == 100 and mogul["wins"] == 55 and mogul["forced"] == 0.0
    seat1 = table[(table["seat"] == 1) & (table["card"] == "mogul")].iloc[0]
    assert seat1["forced"] == 0.0 and seat1["n_games"] == 100
    assert len(table) == 3 + 2 + 3  # cells, seats, cards
    # a shared win counts 1/k
    tied = frame.copy()
    tied.loc[tied["game_id"] == 0, "winner"] = True
    cell = seat_card_table(tied).query("seat == 0 and card == 'monk'").iloc[0]
    assert cell["wins"] == 29.5


def test_seat_card_table_refuses_bad_input():
    frame = synthetic({(0, CARD.MONK): (5, 2)})
    with pytest.raises(UserError, match="needs the column 'card_first'"):
        seat_card_table(frame.drop(columns="card_first"))
    with pytest.raises(UserError, match="held='drafted' is not one of final, first"):
        seat_card_table(frame, held="drafted")
    bad = frame.assign(card_first=7)
    with pytest.raises(UserError, match="card code 7"):
        seat_card_table(bad)
    with pytest.raises(UserError, match="margin=2"):
        seat_card_model(frame, margin=2)


def balanced_design(seed: int, games: int, card_effect: dict[int, float],
                    seat_effect: tuple[float, ...] = (0.0, 0.0, 0.0)) -> pd.DataFrame:
    """Three-player games, each seat a distinct card of (Mogul, Trader, Monk) in a random
    order; the winner drawn with probabilities proportional to exp(card + seat effect)."""
    rng = np.random.default_rng(seed)
    rows = []
    cards = [CARD.MOGUL, CARD.TRADER, CARD.MONK]
    for game in range(games):
        held = rng.permutation(cards)
        w = np.exp([card_effect[c] + seat_effect[s] for s, c in enumerate(held)])
        winner = rng.choice(3, p=w / w.sum())
        for seat, card in enumerate(held):
            rows.append({"game_id": game, "seat": seat, "n_players": 3,
                         "winner": seat == winner, "card_first": int(card),
                         "card_final": int(card),
                         "strategy": f"hoarder:draft={CARD_SLUGS[card]}"})
    return pd.DataFrame(rows)


def test_seat_card_model_matches_statsmodels_and_finds_the_planted_card():
    frame = balanced_design(7, 6000, {CARD.MOGUL: 0.0, CARD.TRADER: 0.0, CARD.MONK: 1.0})
    model = seat_card_model(frame, margin=0.03)
    seats = model[model["term"] == "seat"].set_index("level")
    cards = model[model["term"] == "card"].set_index("level")
    tests = model[model["term"] == "test"].set_index("level")
    # the reference: the same linear model through statsmodels' formula API
    ref = smf.ols("win ~ C(seat) + C(card_first)", frame.assign(win=frame["winner"] * 1.0)).fit(
        cov_type="cluster", cov_kwds={"groups": frame["game_id"]}, use_t=True)
    seat1 = ref.params["C(seat)[T.1]"]
    assert seats.at["1", "estimate"] - seats.at["0", "estimate"] == pytest.approx(seat1)
    monk = ref.params[f"C(card_first)[T.{CARD.MONK}]"]
    assert cards.at["monk", "estimate"] - cards.at["mogul", "estimate"] == pytest.approx(monk)
    f = ref.wald_test("C(seat)[T.1] = 0, C(seat)[T.2] = 0", use_f=True, scalar=True)
    assert tests.at[SEATS_EQUAL, "p_value"] == pytest.approx(float(f.pvalue))
    # the planted answer: the Monk wins e/(e+2) = 57.6% whatever the seat, the seats are equal
    truth = np.e / (np.e + 2)
    assert abs(cards.at["monk", "estimate"] - truth) < 4 * cards.at["monk", "se"]
    raw = frame.loc[frame["card_first"] == CARD.MONK, "winner"].mean()
    assert cards.at["monk", "estimate"] == pytest.approx(raw, abs=0.01)  # a balanced design
    assert cards.at["monk", "tier"] == 1 and cards.at["mogul", "tier"] == 2
    assert "monk > {mogul, trader}" in tests.at["card order", "verdict"]
    assert set(seats["verdict"]) == {"equivalent"}
    assert tests.at[CARDS_EQUAL, "verdict"] == "rejected"
    assert tests.at[NO_INTERACTION, "estimable"]
    assert (seats["n"] == 6000).all() and (model["n_games"] == 6000).all()


def test_seat_card_model_finds_a_planted_seat_and_refuses_a_confounded_design():
    frame = balanced_design(8, 6000, {CARD.MOGUL: 0.0, CARD.TRADER: 0.0, CARD.MONK: 0.0},
                            seat_effect=(0.5, 0.0, 0.0))
    seats = seat_card_model(frame).query("term == 'seat'").set_index("level")
    assert seats.at["0", "verdict"] == "differs" and seats.at["0", "excess"] > 0.05
    # the free draft of a mirror: seat s always drafts card s -> not estimable
    drafts = {0: CARD.MONK, 1: CARD.MOGUL, 2: CARD.TRADER}
    fixed = frame.assign(card_first=frame["seat"].map(drafts))
    model = seat_card_model(fixed)
    assert len(model) == 1 and not model["estimable"].iloc[0]
    assert "confounded" in model["verdict"].iloc[0]


def test_seat_card_model_clusters_by_setup():
    frame = balanced_design(9, 400, {CARD.MOGUL: 0.0, CARD.TRADER: 0.0, CARD.MONK: 1.0})
    by_game = seat_card_model(frame)
    shared = frame.assign(setup_id=frame["game_id"] // 4)  # four games a setup
    by_setup = seat_card_model(shared)
    assert (by_game["n_clusters"] == 400).all() and (by_setup["n_clusters"] == 100).all()
    pd.testing.assert_series_equal(by_game["estimate"], by_setup["estimate"])
    ref = smf.ols("win ~ C(seat) + C(card_first)", shared.assign(win=shared["winner"] * 1.0)).fit(
        cov_type="cluster", cov_kwds={"groups": shared["setup_id"]}, use_t=True)
    seats = by_setup.query("term == 'seat'").set_index("level")
    test = ref.t_test("C(seat)[T.1] = 0")
    # seat 1 - seat 0 from the standardised rows: the same coefficient
    assert seats.at["1", "estimate"] - seats.at["0", "estimate"] == pytest.approx(
        float(np.squeeze(test.effect)))
    # clustering moves the intervals, not the estimates: the seats' joint test is the
    # setup-clustered fit's F test (99 denominator degrees of freedom: 100 setups)
    wald = ref.wald_test("C(seat)[T.1] = 0, C(seat)[T.2] = 0", use_f=True, scalar=True)
    joint = by_setup.set_index("level").loc["seats equal given the card"]
    assert joint["p_value"] == pytest.approx(float(wald.pvalue), rel=1e-9)
    assert (joint["df_num"], joint["df_den"]) == (2, 99)
    rows = by_game["term"].isin(["seat", "card"])
    assert not np.allclose(by_game.loc[rows, "se"], by_setup.loc[rows, "se"])


def test_the_analyses_are_registered():
    for name in ("seat_card_table", "seat_card_model"):
        assert name in ANALYSES and "card_first" in REQUIRED_COLUMNS[name]


def test_the_report_section_states_the_cards_and_refuses_claims_without_forcing(tmp_path):
    from tajsim.reporting.report import build_report

    forced = play([f"hoarder:temperature=1:draft={c}" for c in ("mogul", "trader", "monk",
                                                                "artisan")],
                  games=160, seed=12, rotate=True, games_per_setup=4)
    text = build_report(forced, tmp_path / "forced", game="maharaja",
                        sections=["seat_and_card"]).read_text()
    assert "## The seat and the card apart" in text and "The card decides, not the seat" in text
    assert "100.0% of them took their card" in text and "tested order, Holm" in text
    table = pd.read_csv(tmp_path / "forced" / "table_seat_card_table.csv")
    cells = table[table["seat"].notna() & (table["card"] != "all")]
    assert len(cells) == 16 and (cells["n"] == 40).all() and (cells["forced"] == 1).all()
    model = pd.read_csv(tmp_path / "forced" / "table_seat_card_model.csv")
    assert (model["n_clusters"] == 40).all()  # the four rotations of a table share its setup
    interaction = model[model["level"] == NO_INTERACTION].iloc[0]  # 9 constraints, 40 setups
    assert not interaction["estimable"] or np.isfinite(interaction["p_value"])
    assert (tmp_path / "forced" / "fig_seat_and_card.png").stat().st_size > 5000
    free = play(["hoarder:temperature=1"] * 4, games=40, seed=12)
    text = build_report(free, tmp_path / "free", game="maharaja",
                        sections=["seat_and_card"]).read_text()
    assert "No seat was told which card to draft" in text and "The card decides" not in text


def _heat_groups(players_of_groups: list[int]) -> list[tuple[str, pd.DataFrame]]:
    """Seat x card cells of ``seat_card_table``'s shape, one group a player count."""
    cards = list(CARD_SLUGS)[:3]
    groups = []
    for players in players_of_groups:
        rows = [{"seat": seat, "card": card, "n": 40, "win_rate": (seat + 1) / (2 * players),
                 "baseline": 1 / players, "n_players": players}
                for seat in range(players) for card in cards]
        groups.append((f"{players} players", pd.DataFrame(rows)))
    return groups


@pytest.mark.parametrize(("players", "bars"), [([2, 4], 2), ([4, 4], 1)])
def test_the_heat_map_has_a_colour_bar_a_scale(players, bars):
    """Each panel's white is its own rate of equal players (50% at 2 players, 25% at 4): one
    colour bar serves every panel only where those rates agree, else each panel has its own,
    never one panel's scale under another's."""
    import matplotlib.pyplot as plt

    from tajsim.games.maharaja.report.seat_and_card_sections import _heat_figure

    figures = []

    class Context:
        results = None

        def figure(self, fig, *_args):
            figures.append(fig)

    _heat_figure(Context(), _heat_groups(players), {c: c.title() for c in list(CARD_SLUGS)[:3]})
    (fig,) = figures
    images = [im for ax in fig.axes for im in ax.images]
    assert [im.norm.vcenter for im in images] == [100 / p for p in players]
    with_bar = [im for im in images if im.colorbar is not None]
    assert len(with_bar) == bars
    for im in with_bar:  # a bar's ticks are read on its own panel's scale
        assert im.colorbar.norm.vcenter == im.norm.vcenter
    for ax, p in zip(fig.axes, players, strict=False):  # a cell at parity is white: black text
        at_parity = [t for t in ax.texts if t.get_text() == f"{100 / p:.0f}"]
        assert at_parity and all(t.get_color() == "black" for t in at_parity)
    plt.close(fig)
