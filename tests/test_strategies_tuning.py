"""Tuning (CMA-ES, held-out evaluation, writing the preset) and the ladder, on tiny budgets."""

from __future__ import annotations

import shutil

import numpy as np
from click.testing import CliRunner

from tajsim.games.tajmahal.strategies.registry import load_presets, presets_path
from tajsim.play.tuning import cma_es, field_lineups, tune, write_preset
from tajsim.reporting.ladder import (
    BEGIN,
    END,
    LadderConfig,
    load_json,
    render_markdown,
    run_ladder,
    save_json,
    write_docs,
)


def test_cma_es_finds_the_optimum_of_a_quadratic():
    target = np.array([1.0, -2.0, 0.5])

    def objective(X, gen):
        return -((X - target) ** 2).sum(axis=1)

    mean, history = cma_es(objective, np.zeros(3), 1.0, 60, 10, np.random.default_rng(0),
                           np.full(3, -5.0), np.full(3, 5.0))
    assert np.allclose(mean, target, atol=0.05)
    assert len(history) == 60


def test_field_lineups_rotate_the_candidate():
    lu = field_lineups(4, 3, 12)
    assert ((lu == 0).sum(axis=1) == 1).all()
    assert sorted(np.argwhere(lu == 0)[:, 1].tolist()) == sorted([0, 1, 2, 3] * 3)
    assert set(np.unique(lu[lu > 0])) == {1, 2, 3}


def test_tune_end_to_end_and_write_preset(tmp_path):
    result = tune("balanced", ["random", "greedy"], generations=2, popsize=4, games=8,
                  heldout_games=16, seed=3)
    assert result.weights.shape == (16,)
    assert len(result.history) == 2
    h = result.heldout
    assert h["games"] == 16 and 0 <= h["head_to_head_share"] <= 1
    assert h["head_to_head_ci"][0] <= h["head_to_head_share"] <= h["head_to_head_ci"][1]
    copy = tmp_path / "presets.toml"
    shutil.copy(presets_path(), copy)
    write_preset(result, "tuned_test", copy)
    write_preset(result, "tuned_test", copy)  # replacing keeps one table
    presets = load_presets(copy)
    assert np.allclose(presets["tuned_test"]["weights"], result.weights, atol=1e-4)
    assert copy.read_text().count("[presets.tuned_test]") == 1
    assert set(load_presets()) <= set(presets)


def test_tune_cli_tiny_budget():
    from tajsim.cli.main import cli

    result = CliRunner().invoke(cli, ["tune", "--field", "random", "--generations", "1",
                                      "--popsize", "4", "--games", "8", "--heldout", "8"])
    assert result.exit_code == 0, result.output
    assert "held out" in result.output


def test_ladder_quick_writes_the_tables(tmp_path):
    cfg = LadderConfig.quick(strategies=("random", "greedy", "balanced"),
                             search="ismcts:iterations=4", search_threads=1)
    data = run_ladder(cfg)
    assert len(data.vs_random) == 3 and len(data.vs_field) == 3
    assert len(data.head_to_head) == 3
    assert data.search["best_preset"] == "balanced"
    strongest = max(data.vs_field, key=lambda r: r["win"])["strategy"]
    assert ("vs_strongest" in data.search) == (strongest != "balanced")
    doc = tmp_path / "strategies.md"
    doc.write_text(f"# Strategies\n\nprose\n\n{BEGIN}\nthe old section\n{END}\n\nmore prose\n")
    write_docs(data, doc)
    text = doc.read_text()
    assert "prose" in text and "more prose" in text and "the old section" not in text
    assert "Head to head" in text and "seconds per game" in text and "Summary" in text
    save_json(data, tmp_path / "ladder.json")
    assert render_markdown(load_json(tmp_path / "ladder.json")) == render_markdown(data)


def test_ladder_plays_the_search_against_the_fields_leader_when_no_preset_leads(tmp_path):
    # no preset in the field: the "best preset" falls back to the first name (random), and
    # greedy, which leads the field, gets a head-to-head table of its own
    cfg = LadderConfig.quick(strategies=("random", "greedy"), search="ismcts:iterations=4",
                             search_threads=1)
    data = run_ladder(cfg)
    assert data.search["best_preset"] == "random"
    assert data.search["strongest"] == "greedy"
    h = data.search["vs_strongest"]
    assert (h["a"], h["b"]) == ("ismcts:iterations=4", "greedy") and h["games"] >= 4
    text = render_markdown(data)
    assert "and the strongest strategy (greedy)" in text
    assert "| ismcts:iterations=4 | greedy |" in text
    assert "Against `greedy`, the strongest strategy against the field" in text
    save_json(data, tmp_path / "ladder.json")
    assert render_markdown(load_json(tmp_path / "ladder.json")) == text


def test_ladder_names_the_random_seats_by_player_count():
    # a 2-player ladder has one random seat, not "three random seats"
    from tajsim.reporting.ladder.config import REPO

    two = render_markdown(load_json(REPO / "docs" / "games" / "maharani" / "ladder-2p.json"))
    assert "in one seat against one `random` seat wins" in two
    assert "### Against 1 random seat (parity 50%)" in two and "three `random`" not in two
    four = render_markdown(load_json(REPO / "docs" / "strategies.json"))
    assert "in one seat against three `random` seats wins" in four
    assert "### Against 3 random seats (parity 25%)" in four


def test_shipped_ladders_are_rendered_from_their_saved_numbers():
    # every ladder document in docs/ is what `tajsim ladder --render-only` writes from the JSON
    # beside it: a hand edit or a change of the renderer not rendered again fails here
    from tajsim.reporting.ladder.config import REPO

    docs = sorted(p for p in (REPO / "docs").rglob("*.json")
                  if p.with_suffix(".md").is_file() and BEGIN in p.with_suffix(".md").read_text())
    assert len(docs) >= 6, docs
    for saved in docs:
        text = saved.with_suffix(".md").read_text()
        section = text[text.index(BEGIN):text.index(END) + len(END)]
        assert section == render_markdown(load_json(saved)).strip(), saved
