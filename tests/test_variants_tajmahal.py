"""Taj Mahal's variants (issue 40 s2): the component files under experiments/variants/ load,
differ from the shipped components only where their header says, are labelled as variants
(not the rules), and a malformed copy is refused in one line; experiments/variants.toml reads;
the variant comparison's diversity and profile measures on hand-made numbers."""

from __future__ import annotations

import math
import re
from collections import Counter
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from tajsim.analysis.variants import entropy_bits, entropy_interval, variant_comparison
from tajsim.engine.component_files import ComponentError
from tajsim.games.tajmahal.engine import enums as E
from tajsim.games.tajmahal.engine.component_files import default_components, load_components
from tajsim.running.experiments import load_experiment

ROOT = Path(__file__).resolve().parents[1]
VARIANTS = ROOT / "experiments" / "variants"


def card_mix(c) -> dict[int, Counter]:
    """Per colour, the multiset of each coloured card's symbols (ids are listing order)."""
    out: dict[int, Counter] = {}
    for card in range(E.N_COLOURED):
        out.setdefault(int(c.card_colour[card]), Counter())[
            tuple(np.repeat(np.arange(E.N_SYMBOLS), c.card_symbols[card]))] += 1
    return out


def test_bonus_mixes_change_only_the_bonus_tiles():
    base = default_components()
    for name, mix in (("bonus_goods", (3, 3, 3, 3, 2, 1)), ("bonus_points", (1, 1, 1, 1, 7, 4))):
        c = load_components(None, VARIANTS / f"{name}.toml")
        kinds = np.bincount(np.asarray(c.bonus_tiles), minlength=6)
        assert tuple(kinds) == mix and len(c.bonus_tiles) == len(base.bonus_tiles) == 15
        assert np.array_equal(c.card_symbols, base.card_symbols)
        assert np.array_equal(c.card_colour, base.card_colour)
        assert np.array_equal(c.tile_goods, base.tile_goods)
        assert np.array_equal(c.roads, base.roads)


def test_fewer_elephants_changes_only_the_coloured_cards():
    base, c = default_components(), load_components(
        None, VARIANTS / "cards_fewer_elephants.toml")
    before, after = card_mix(base), card_mix(c)
    ee = (E.SYM.ELEPHANT, E.SYM.ELEPHANT)
    for colour in range(4):
        assert sum(after[colour].values()) == 21
        assert before[colour][ee] == 2 and after[colour][ee] == 0
        removed = before[colour] - after[colour]
        added = after[colour] - before[colour]
        assert removed == Counter({ee: 2}) and sum(added.values()) == 2
        assert all(E.SYM.ELEPHANT not in pair for pair in added)  # advisor pairs only
        elephants = sum(k * pair.count(E.SYM.ELEPHANT) for pair, k in after[colour].items())
        assert elephants == 14
    assert np.array_equal(c.card_symbols[E.FIRST_WHITE:], base.card_symbols[E.FIRST_WHITE:])
    assert np.array_equal(np.sort(c.bonus_tiles), np.sort(base.bonus_tiles))
    assert np.array_equal(c.tile_goods, base.tile_goods)


@pytest.mark.parametrize("path", sorted(VARIANTS.glob("*.toml")), ids=lambda p: p.stem)
def test_each_file_is_labelled_a_variant_not_the_rules(path):
    text = path.read_text()
    assert "NOT the rules" in text.splitlines()[0]
    assert re.search(r"^name = \"variant .*not the rules\)\"$", text, re.M)
    changed = re.findall(r'= "reconstructed: variant \(tajsim\'s own, not the rules\)', text)
    assert len(changed) == 1  # one provenance line: the one fact the file changes


def test_a_malformed_variant_is_refused_in_one_line(tmp_path):
    text = (VARIANTS / "bonus_goods.toml").read_text()
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace("rice = 3\n", "rice = 4\n", 1))  # 16 tiles on 15 fortresses
    with pytest.raises(ComponentError) as err:
        load_components(None, bad)
    assert "\n" not in str(err.value) and "bad.toml" in str(err.value)
    bad.write_text(text.replace('"reconstructed: variant', '"variant', 1))
    with pytest.raises(ComponentError, match="provenance.bonus_tiles") as err:
        load_components(None, bad)
    assert "\n" not in str(err.value)


def test_the_experiment_reads_and_labels_every_run():
    exp = load_experiment(ROOT / "experiments" / "variants.toml")
    by_players = {n: Counter(r.variant for r in exp.runs if r.params["players"] == n)
                  for n in (2, 4)}
    assert set(by_players[4]) == {"shipped", "edition_2000", "bonus_goods", "bonus_points",
                                  "cards_fewer_elephants"}
    # the 2000 rules are for 3-5 players: every other variant at 2 players too
    assert set(by_players[2]) == set(by_players[4]) - {"edition_2000"}
    for n in (2, 4):
        assert len(set(by_players[n].values())) == 1  # the same runs in every variant
        names = {r.name.removesuffix("-2p").split("-", 1)[1] for r in exp.runs
                 if r.params["players"] == n}
        assert names == {"random", "greedy", "balanced", "ismcts60", "greedy-vs-random",
                         "balanced-vs-greedy", "ismcts60-vs-balanced", "styles"}
    styles = [r for r in exp.runs if r.name.split("-")[1] == "styles"]
    assert {len(r.params["strategies"]) for r in styles} == {5}
    for run in exp.runs:
        comps = run.params.get("components")
        if run.variant in ("shipped", "edition_2000"):
            assert comps is None
        else:
            assert comps == f"experiments/variants/{run.variant}.toml"


# -- the comparison's diversity and profile measures -----------------------------------------
def test_entropy_by_hand():
    assert entropy_bits(np.array([1.0, 1.0])) == pytest.approx(1.0)
    assert entropy_bits(np.array([2.0, 0.0, 0.0])) == 0.0
    p = np.array([0.5, 0.25, 0.25])
    assert entropy_bits(p * 8) == pytest.approx(1.5)
    est, low, high = entropy_interval(np.array([30.0, 10.0]), 40)
    assert est == pytest.approx(-(0.75 * math.log2(0.75) + 0.25 * math.log2(0.25)))
    assert low <= est <= high <= 1.0
    assert entropy_interval(np.array([30.0, 10.0]), 40) == (est, low, high)  # fixed seed


def test_diversity_first_seat_and_winning_level_on_a_hand_made_frame():
    rows = []
    # mirror games of level "a": game g won by seat g % 2 through part x (g < 3) or y
    for g in range(4):
        for seat in range(2):
            won = seat == g % 2
            rows.append({"game_id": g, "run_id": "m", "variant": "v", "n_players": 2,
                         "seat": seat, "strategy": "a", "winner": won,
                         "pts_x": 5 if won and g < 3 else 0, "pts_y": 5 if won and g >= 3
                         else 1})
    # mixed games: "b" against "a", b in seat 0 on even games; b wins 3 of 4, seat 0 wins 2
    for g, winner in enumerate(["b", "b", "a", "b"]):
        seats = ("b", "a") if g % 2 == 0 else ("a", "b")
        for seat, s in enumerate(seats):
            rows.append({"game_id": g, "run_id": "x", "variant": "v", "n_players": 2,
                         "seat": seat, "strategy": s, "winner": s == winner, "pts_x": 1,
                         "pts_y": 0})
    long = variant_comparison(pd.DataFrame(rows), levels=["a", "b"]).set_index(
        ["level", "measure"])
    diversity = long.loc[("a", "winner_profile_entropy")]
    assert diversity["estimate"] == pytest.approx(entropy_bits(np.array([3.0, 1.0])))
    assert diversity["n"] == 4
    assert long.loc[("b vs a", "stronger_share"), "estimate"] == pytest.approx(0.75)
    first = long.loc[("b vs a", "first_seat")]
    # seat 0 holds b, a, b, a and the winners are b, b, a, b: seat 0 wins game 0 only
    assert first["estimate"] == pytest.approx(0.25) and first["n"] == 4
    assert long.loc[("b vs a", "winning_strategy_entropy"), "estimate"] == pytest.approx(
        entropy_bits(np.array([3.0, 1.0])))


def test_the_variant_files_play_the_same_records_on_the_gpu_simulator():
    """A variant is a component alternative: the GPU (numba-cuda's simulator) plays the CPU's
    records and final states with each of them (issue 40: identical records with variants on)."""
    from test_gpu import simulate_cases

    cases = [{"game": "tajmahal", "players": 3, "edition": "2018", "games": 1, "seed": 41 + i,
              "strategies": ["balanced", "random", "greedy"],
              "component_file": str(VARIANTS / f"{name}.toml")}
             for i, name in enumerate(("bonus_goods", "bonus_points", "cards_fewer_elephants"))]
    for report in simulate_cases(cases):
        assert report["differences"] == []
