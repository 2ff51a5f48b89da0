"""Surgical restricted play (issue 39 s2): the surgical families of Taj Mahal, Maharaja and
Maharani forbid exactly what they name (against Python references on sampled states), never
leave a seat without an action, are listed by ``tajsim strategies``; the footprint counts
against a hand count; ``tune`` under a restriction keeps it; ignore and forbid are told apart.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

import tajsim.games.maharaja.engine.enums as MJ
import tajsim.games.maharani.engine.enums as MN
import tajsim.games.tajmahal.engine.enums as TJ
from tajsim.analysis.restricted import parse_restricted, restricted_play, split_restriction
from tajsim.cli.strategies import command as strategies_command
from tajsim.engine.game_options import Restriction
from tajsim.games.registry import get_game
from tajsim.play import tuning
from tajsim.play.arena import entry, packed_components, play_lineups, rotated_lineups
from tajsim.play.conformance import decision_states
from tajsim.play.footprint import footprint, restrictions_module

GAMES = ("tajmahal", "maharaja", "maharani")


# ---------------------------------------------------------------------------
# Python references: what each surgical family names, read from the state and the rules' text
# ---------------------------------------------------------------------------
def _taj_reference(state, comp, action, name):
    if name in ("might", "knowledge", "nobility", "enlightenment"):
        if not TJ.ACTION_BID <= action < TJ.ACTION_CITY:
            return False
        extra_slot = (action - TJ.ACTION_BID) % TJ.BID_EXTRA
        card = {"might": TJ.PRESTIGE_MIGHT, "knowledge": TJ.PRESTIGE_KNOWLEDGE,
                "nobility": TJ.PRESTIGE_NOBILITY,
                "enlightenment": TJ.PRESTIGE_ENLIGHTENMENT}[name]
        return extra_slot > 0 and TJ.FIRST_WHITE + extra_slot - 1 == card
    if name == "crown_claim":
        if action != TJ.ACTION_WITHDRAW or state[TJ.S_SEAT + TJ.SEAT_CROWN] != TJ.SEAT_PRESENT:
            return False
        p, sym = state[TJ.S_CUR], TJ.SYM.MOGUL
        mine = state[TJ.S_ROW_SYM + p * TJ.N_SYMBOLS + sym]
        others = [state[TJ.S_ROW_SYM + q * TJ.N_SYMBOLS + sym]
                  for q in range(state[TJ.S_N_PLAYERS])
                  if q != p and state[TJ.S_WITHDRAWN + q] == 0]
        return mine > 0 and all(mine > o for o in others) \
            and mine > state[TJ.S_UNREST_SYM + sym]
    return None  # not a family this reference covers


def _maharaja_reference(state, comp, action, name):
    if name in ("mogul", "trader", "sadhu", "monk", "builder", "artisan"):
        card = ("mogul", "trader", "sadhu", "monk", "builder", "artisan").index(name)
        return action == MJ.ACTION_CARD + card  # in the draft, a turn and a replacement
    if name == "central_palaces":
        return action == MJ.ACTION_PALACE
    return None


def _maharani_reference(state, comp, action, name):
    if name not in ("complete_quarter", "central_tiles", "artisan_moves"):
        return None
    if action >= MN.N_PLACE_ACTIONS:
        return name == "artisan_moves" and action in (MN.ACTION_ARTISAN + MN.ART_MOVE_A,
                                                      MN.ACTION_ARTISAN + MN.ART_MOVE_B)
    per_slot = MN.MAX_SPACES * MN.N_DIRS
    slot, space, arrow = action // per_slot, (action % per_slot) // MN.N_DIRS, action % MN.N_DIRS
    n_spaces = comp[MN.C_N_SPACES]
    quarter = comp[MN.C_SPACE_QUARTER + space]
    same_quarter = [x for x in range(n_spaces) if comp[MN.C_SPACE_QUARTER + x] == quarter]
    if name == "complete_quarter":
        empty = [x for x in same_quarter if state[MN.S_SPACE_TILE + x] < 0]
        return empty == [space]
    if name == "central_tiles":
        return bool(comp[MN.C_CENTRAL_MASK] >> space & 1)
    n, p = state[MN.S_N_PLAYERS], state[MN.S_CUR]
    if arrow != comp[MN.C_SEAT_SIDE + n * MN.MAX_PLAYERS + p]:
        return False
    colour = comp[MN.C_TILE_COLOUR + state[MN.S_SLOT + slot]]
    mine = [2 * p, 2 * p + 1] if n == 2 else [p]
    standing = {state[MN.S_SPACE_ARTISAN + x] for x in same_quarter if x != space
                and state[MN.S_SPACE_TILE + x] >= 0
                and comp[MN.C_TILE_COLOUR + state[MN.S_SPACE_TILE + x]] == colour}
    has = [a for a in mine if a in standing]
    new = [a for a in mine if a not in has and state[MN.S_RESERVE + a] > 0]
    if n == 2 and len(has) == 1:  # R8b: a new artisan of the other colour, if one is left
        return not new
    if n == 2 and len(has) == 2:
        return True
    return bool(has)  # 3-4 players: the move is forced; none: a new artisan (or none)


REFERENCES = {"tajmahal": _taj_reference, "maharaja": _maharaja_reference,
              "maharani": _maharani_reference}
NEW_FAMILIES = {
    "tajmahal": ("might", "knowledge", "nobility", "enlightenment", "crown_claim"),
    "maharaja": ("mogul", "trader", "sadhu", "monk", "builder", "artisan", "central_palaces"),
    "maharani": ("complete_quarter", "central_tiles", "artisan_moves"),
}
TABLES = {"tajmahal": (4, 2), "maharaja": (4, 3), "maharani": (4, 2)}


@pytest.fixture(scope="module", params=[(g, n) for g in GAMES for n in TABLES[g]],
                ids=lambda gn: f"{gn[0]}-{gn[1]}p")
def sampled(request):
    """Decision states of ``game`` at ``n`` players (every phase with a choice)."""
    game, n = request.param
    spec = get_game(game)
    states = decision_states(spec, n, 240, seed=3, max_games=80)
    return spec, packed_components(spec), states


def test_each_new_family_forbids_exactly_what_it_names(sampled):
    spec, comp, states = sampled
    module = restrictions_module(spec)
    reference = REFERENCES[spec.name]
    checked = {name: 0 for name in NEW_FAMILIES[spec.name]}
    hits = dict.fromkeys(checked, 0)
    for restriction in spec.restrictions:
        if restriction.name not in checked:
            continue
        mask = 1 << restriction.bit
        for state, _prng, _player, legal in states:
            for action in legal:
                want = reference(state, comp, int(action), restriction.name)
                got = bool(module.is_forbidden(state, comp, int(action), mask))
                assert got == want, (restriction.name, int(action), spec.phase_of(state))
                checked[restriction.name] += 1
                hits[restriction.name] += got
    assert all(checked.values()), checked
    # the families that can apply at this table were met at least once (a reference that
    # never says "forbidden" proves nothing)
    assert sum(hits.values()) > 0, hits


def test_no_seat_is_left_without_an_action(sampled):
    spec, comp, states = sampled
    module = restrictions_module(spec)
    all_families = sum(1 << r.bit for r in spec.restrictions)
    for restriction in spec.restrictions:
        for mask in (1 << restriction.bit, all_families):
            for state, _prng, _player, legal in states:
                work = legal.copy()
                allowed = int(module.count_allowed(state, comp, work, len(work), mask))
                args = (state, comp, work, len(work), mask) if spec.name != "maharaja" \
                    else (state, work, len(work), mask)
                kept = int(module.restrict_legal(*args))
                assert kept >= 1
                assert kept == (allowed if allowed else len(legal))  # lifted: the whole list
                assert sorted(work[:len(legal)]) == sorted(legal)  # a permutation, nothing lost


def test_surgical_families_are_declared():
    for game in GAMES:
        spec = get_game(game)
        surgical = [r for r in spec.restrictions if r.surgical]
        assert len(surgical) >= 6, (game, [r.name for r in surgical])
        assert all(r.kind in ("card", "option", "decision") for r in surgical)
        assert set(NEW_FAMILIES[game]) <= {r.name for r in surgical}
        # the families that remove the game stay broad
        broad = {r.name for r in spec.restrictions if not r.surgical}
        assert broad & {"goods", "outer_palaces", "artisans"}
    with pytest.raises(ValueError, match="kind 'broad'"):
        Restriction("x", 0, "text", "broad", True)
    with pytest.raises(ValueError, match="expected one of"):
        Restriction("x", 0, "text", "cards")


@pytest.mark.parametrize("game", GAMES)
def test_strategies_lists_the_families_with_their_kind(game):
    result = CliRunner().invoke(strategies_command, ["--game", game, "--no-params"])
    assert result.exit_code == 0, result.output
    for restriction in get_game(game).restrictions:
        line = next(x for x in result.output.splitlines()
                    if x.strip().startswith(restriction.name + " "))
        assert restriction.kind in line
        assert ("(surgical)" in line) == restriction.surgical


# ---------------------------------------------------------------------------
# Footprint
# ---------------------------------------------------------------------------
def _hand_count(spec, texts, lineups, seed, edition):
    """The footprint counted by hand with the Python reference: the seat's decisions, the
    unrestricted choice forbidden, legal actions and those removed."""
    comp = packed_components(spec)
    k = spec.kernels
    parsed = [spec.strategies.parse(t) for t in texts]
    ids = [s.strategy_id for s, _ in parsed]
    vecs = [v for _, v in parsed]
    free = vecs[0].copy()
    free[-1] = 0
    name = split_restriction(texts[0])[1]
    reference = REFERENCES[spec.name]
    switches = spec.strategies.kernel_switches(np.array(ids), np.array(vecs))
    legal = np.empty(spec.n_actions, np.int64)
    counts = dict(decisions=0, changed=0, legal=0, removed=0, lifted=0)
    for g in range(len(lineups)):
        state = np.zeros(spec.state_size, np.int64)
        prng = np.zeros(spec.max_players, np.int64)
        k.start_game(comp, lineups.shape[1], edition, seed, g, g, state, prng)
        while (p := int(k.current_player(state))) >= 0:
            n = int(k.legal_actions(state, comp, legal))
            e = int(lineups[g, p])
            action = legal[0]
            if n > 1:
                if e == 0:
                    banned = [bool(reference(state, comp, int(a), name)) for a in legal[:n]]
                    counts["decisions"] += 1
                    counts["legal"] += n
                    if all(banned):
                        counts["lifted"] += 1
                    else:
                        counts["removed"] += sum(banned)
                        a0 = k.choose_action(ids[0], state, comp, p, free, prng.copy(), legal,
                                             n, *switches)
                        counts["changed"] += bool(reference(state, comp, int(a0), name))
                action = k.choose_action(ids[e], state, comp, p, vecs[e], prng, legal, n,
                                         *switches)
            k.apply_action(state, comp, action)
    return counts


@pytest.mark.parametrize("game, text", [
    ("tajmahal", "balanced:temperature=0.2:forbid=crown_claim"),
    ("maharaja", "hoarder:temperature=1:forbid=monk"),
    ("maharani", "balanced:temperature=0.25:forbid=complete_quarter"),
])
def test_footprint_counts_as_a_hand_count_on_the_run_games(game, text):
    spec = get_game(game)
    level = split_restriction(text)[0]
    lineups = rotated_lineups([0, 1, 1, 1], 8)
    edition = spec.rules_code()
    fp = footprint(spec, [text, level], lineups, 0, 5, edition=edition)
    hand = _hand_count(spec, [text, level], lineups, 5, edition)
    assert (fp.decisions, fp.changed, fp.legal, fp.removed, fp.lifted) == (
        hand["decisions"], hand["changed"], hand["legal"], hand["removed"], hand["lifted"])
    assert fp.decisions > 0 and fp.removed > 0
    assert 0 <= fp.changed_share <= 1 and 0 < fp.removed_share < 1
    # the replay is the batch's games
    results, _ = play_lineups(spec, [entry(spec, text), entry(spec, level)], lineups, 5,
                              edition=edition)
    assert (results["score"].reshape(fp.scores.shape) == fp.scores).all()


def test_footprint_refuses_an_unrestricted_seat():
    spec = get_game("maharani")
    with pytest.raises(Exception, match="no restriction"):
        footprint(spec, ["balanced", "balanced"], rotated_lineups([0, 1, 1, 1], 4), 0, 1)


# ---------------------------------------------------------------------------
# tune under a restriction; ignore beside forbid
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("game, start, forbid", [
    ("tajmahal", "tuned:temperature=0.1", "nobility"),
    ("maharani", "balanced:temperature=0.25", "complete_quarter"),
])
def test_tune_under_a_restriction_keeps_it(monkeypatch, game, start, forbid):
    spec = get_game(game)
    seen = []
    real = tuning.play_lineups

    def spy(spec_, entries, lineups, seed, **kw):
        seen.append([(e.label, e.params.copy()) for e in entries])
        return real(spec_, entries, lineups, seed, **kw)

    monkeypatch.setattr(tuning, "play_lineups", spy)
    mask = float(spec.strategies.parse(f"{start}:forbid={forbid}")[1][-1])
    result = tuning.tune(start, [start], game=spec, generations=1, popsize=4, games=8,
                         heldout_games=8, seed=3, forbid=forbid)
    assert result.settings["forbid_mask"] == int(mask)
    tuned_seats = [params for call in seen for label, params in call
                   if label in ("candidate", "tuned", split_restriction(start)[0].split(":")[0])]
    assert len(tuned_seats) >= 4 * 1 + 3
    for params in tuned_seats:
        assert params[-1] == mask and params[-2] == spec.strategies.parse(start)[1][-2]
    # the field stays unrestricted
    field = [params for call in seen for label, params in call if label == start]
    assert field and all(params[-1] == 0 for params in field)


def test_plain_tuning_is_unchanged_by_the_generic_slots(monkeypatch):
    """A preset start without temperature or restriction: every seat of every match the
    tuning plays (its candidates, the tuned result, the field) has the generic slots
    (temperature, restriction mask) 0."""
    spec = get_game("tajmahal")
    seen = []
    real = tuning.play_lineups
    monkeypatch.setattr(tuning, "play_lineups", lambda s, entries, *a, **kw: (
        seen.extend(e.params.copy() for e in entries), real(s, entries, *a, **kw))[1])
    tuning.tune("balanced", ["commodity"], game=spec, generations=1, popsize=4, games=4,
                heldout_games=4, seed=1)
    assert len(seen) >= 2 * (4 + 1)  # four candidates and the held-out match, each with a field
    assert all(p[-1] == 0 and p[-2] == 0 for p in seen)


def test_ignore_and_forbid_are_told_apart():
    spec = get_game("tajmahal")
    _, ignore = spec.strategies.parse("tuned:forbid=none:crown=0")
    _, plain = spec.strategies.parse("tuned")
    _, forbid = spec.strategies.parse("tuned:forbid=crown_claim")
    names = spec.strategies.get("tuned").param_names
    assert ignore[names.index("crown")] == 0 and ignore[-1] == 0
    assert forbid[names.index("crown")] == plain[names.index("crown")] != 0 and forbid[-1] > 0
    assert parse_restricted("tuned:forbid=none:crown=0") == ("tuned", "ignore crown=0",
                                                             "crown=0", "ignore")
    assert parse_restricted("tuned:temperature=0.1:forbid=crown_claim:crown=0.5") == (
        "tuned:temperature=0.1", "crown_claim re-tuned", "crown_claim", "forbid, re-tuned")
    assert split_restriction("tuned:temperature=0.1:forbid=crown_claim") == (
        "tuned:temperature=0.1", "crown_claim")
    # one frame, three variants against the same level: three rows each
    lineups = rotated_lineups([0, 1, 1, 1], 8)
    frames = []
    for i, text in enumerate(["tuned:forbid=crown_claim", "tuned:forbid=crown_claim:crown=0.5",
                              "tuned:forbid=none:crown=0"]):
        res, _ = play_lineups(spec, [entry(spec, text), entry(spec, "tuned")], lineups, 9,
                              first_game=100 * i)
        frame = pd.DataFrame({c: res[c] for c in ("game_id", "seat", "winner", "score")})
        frame["n_players"] = 4
        frame["strategy"] = np.array([text, "tuned"])[lineups.reshape(-1)]
        frames.append(frame)
    table = restricted_play(pd.concat(frames, ignore_index=True))
    win = table[table["measure"] == "win_rate"].set_index("restriction")
    assert list(win.index) == sorted(win.index)
    assert set(win["variant"]) == {"forbid", "forbid, re-tuned", "ignore"}
    assert win.loc["ignore crown=0", "family"] == "crown=0"
    assert (win["level"] == "tuned").all() and (win["n"] == 8).all()


def test_the_new_families_decide_alike_on_the_gpu_simulator():
    """The surgical families filter the GPU's legal list in the shared dispatcher as on the
    CPU (numba-cuda's simulator, ``tests/gpu_sim_check.py``): one game of each game."""
    import json
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    cases = [
        {"game": "tajmahal", "players": 4, "edition": "2018", "games": 1, "seed": 61,
         "strategies": ["balanced:temperature=1:forbid=might+nobility+crown_claim",
                        "greedy:forbid=knowledge+enlightenment", "tuned",
                        "random:forbid=crown_claim"]},
        {"game": "maharaja", "players": 3, "edition": "basic", "games": 1, "seed": 67,
         "strategies": ["hoarder:temperature=1:forbid=monk+central_palaces",
                        "greedy:forbid=builder", "random:forbid=trader+mogul"]},
        {"game": "maharani", "players": 2, "edition": "2012", "games": 1, "seed": 71,
         "strategies": ["balanced:temperature=1:forbid=complete_quarter+artisan_moves",
                        "greedy:temperature=0.25:forbid=central_tiles"]},
    ]
    env = {**os.environ, "NUMBA_ENABLE_CUDASIM": "1", "PYTHONPATH": str(root)}
    proc = subprocess.run([sys.executable, str(root / "tests" / "gpu_sim_check.py"),
                           json.dumps(cases)], env=env, capture_output=True, text=True,
                          timeout=900, check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    reports = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    assert len(reports) == len(cases)
    assert all(report["differences"] == [] for report in reports), reports


def test_tune_cli_takes_forbid_and_prints_the_restricted_seat():
    from tajsim.cli.tune import command as tune_command

    result = CliRunner().invoke(tune_command, [
        "--game", "maharani", "--start", "balanced:temperature=0.25", "--forbid", "refresh",
        "--generations", "1", "--popsize", "4", "--games", "8", "--heldout", "8"])
    assert result.exit_code == 0, result.output
    line = next(x for x in result.output.splitlines() if x.startswith("re-tuned restricted"))
    text = line.split(": ", 1)[1]
    assert text.startswith("balanced:temperature=0.25:forbid=refresh:zone=")
    assert parse_restricted(text)[1:] == ("refresh re-tuned", "refresh", "forbid, re-tuned")
    get_game("maharani").strategies.parse(text)  # a strategy text the runs accept
    from tajsim.cli.main import cli

    bad = CliRunner().invoke(cli, ["tune", "--game", "tajmahal", "--forbid", "gold"])
    assert bad.exit_code == 2 and "unknown restriction 'gold'" in bad.output
    write = CliRunner().invoke(cli, ["tune", "--game", "tajmahal", "--forbid", "crown",
                                     "--write", "/tmp/never.toml"])
    assert write.exit_code == 2 and "a preset stores weights" in write.output


def test_the_restricted_section_shows_each_rows_footprint(tmp_path):
    """``tajsim run`` of a restricted experiment: the section's table carries the footprint of
    each restricted strategy, counted on its recorded games (a replay checked by their
    scores)."""
    from tajsim.cli.main import cli

    toml = tmp_path / "r.toml"
    toml.write_text('''name = "r"
game = "maharani"
analyses = ["restricted_play"]
[simulate]
players = 4
rotate = true
seed = 5
[[runs]]
name = "a"
strategies = ["balanced:temperature=0.25:forbid=complete_quarter", "balanced:temperature=0.25",
              "balanced:temperature=0.25", "balanced:temperature=0.25"]
games = 8
[report]
sections = ["restricted"]
''')
    result = CliRunner().invoke(cli, ["run", str(toml), "--out", str(tmp_path / "out"), "-w", "1",
                                      "-q"])
    assert result.exit_code == 0, result.output
    text = (tmp_path / "out" / "report.md").read_text()
    header = next(x for x in text.splitlines() if x.startswith("| restriction"))
    assert "decisions changed" in header and "actions removed" in header
    row = next(x for x in text.splitlines() if x.startswith("| complete_quarter"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    # the cells are the footprint of the run's recorded games, replayed seat by seat
    from tajsim.play.footprint import footprint
    from tajsim.running.run_reading import load_results

    restricted = "balanced:temperature=0.25:forbid=complete_quarter"
    runs = [p.parent for p in (tmp_path / "out").rglob("manifest.json")]
    assert len(runs) == 1
    games = load_results(runs[0]).sort_values(["game_id", "seat"])
    labels = games["strategy"].astype(str).to_numpy().reshape(-1, 4)
    assert len(labels) == 8 and ((labels == restricted).sum(axis=1) == 1).all()
    fp = footprint(get_game("maharani"), [restricted, "balanced:temperature=0.25"],
                   (labels != restricted).astype(np.int64), 0, 5,
                   game_ids=games["game_id"].to_numpy(np.int64)[::4],
                   setup_ids=games["setup_id"].to_numpy(np.int64)[::4])
    assert (fp.scores == games["score"].to_numpy().reshape(fp.scores.shape)).all()
    assert fp.decisions > 0 and fp.legal > 0
    assert cells[-2].startswith(f"{100 * fp.changed_share:.1f}% [")
    assert cells[-1].startswith(f"{100 * fp.removed_share:.1f}% [")
