"""A plain ``tajsim ladder`` run keeps the OpenSpiel tables that an earlier ``--openspiel-only``
run put into the saved ladder beside ``--output`` (it used to write the JSON and the document
without them): in the JSON and in the document, as that run showed them. Tables of another game
or edition, malformed rows, or a file that is not a saved ladder are dropped, with one line
saying why. ``run_ladder`` is replaced by the shipped two-player Maharani ladder (no game is
played), so each case is the command as a user types it, in a second."""

from __future__ import annotations

import copy
import json
import shutil
from dataclasses import asdict

import pytest
from click.testing import CliRunner

import tajsim.cli.ladder as ladder_cli
from tajsim.cli.main import cli
from tajsim.reporting.ladder import REPO, LadderData, load_json, render_openspiel, save_json

SHIPPED = REPO / "docs/games/maharani/ladder-2p"
PLAIN = ("ladder", "--game", "maharani", "-p", "2", "--random-games", "4", "--field-games",
         "4", "--h2h-games", "4", "--python-games", "2")


@pytest.fixture
def ladder(tmp_path, monkeypatch):
    """An output document and its saved ladder (the shipped one, OpenSpiel tables included),
    and a ``run_ladder`` that returns the shipped numbers without OpenSpiel tables, as a run
    without --openspiel does."""
    shipped = load_json(SHIPPED.with_suffix(".json"))
    assert len(shipped.openspiel) == 2  # the fixture's premise: the shipped ladder has them
    doc = tmp_path / "ladder.md"
    shutil.copy(SHIPPED.with_suffix(".md"), doc)
    save_json(shipped, doc.with_suffix(".json"))

    def run_ladder(cfg, log=None):
        fresh = copy.deepcopy(shipped)
        fresh.config, fresh.openspiel = asdict(cfg), []
        return fresh

    monkeypatch.setattr(ladder_cli, "run_ladder", run_ladder)
    return doc, shipped


def _run(doc, *extra):
    return CliRunner().invoke(cli, [*PLAIN, "--output", str(doc), *extra])


def test_a_plain_run_keeps_the_openspiel_tables_in_the_json_and_the_document(ladder):
    doc, shipped = ladder
    saved = doc.with_suffix(".json")
    res = _run(doc)
    assert res.exit_code == 0, res.output
    assert (f"kept the OpenSpiel tables of an earlier run from {saved}"
            in res.stdout.splitlines())
    assert res.stderr == ""
    data = load_json(saved)
    assert data.openspiel == json.loads(json.dumps(shipped.openspiel))  # every row, as saved
    assert data.config["command"].startswith("tajsim ladder --game maharani --output ")
    text = doc.read_text()
    block = "\n".join(render_openspiel(shipped.openspiel, "maharani"))
    assert text.count(block) == 1  # shown as after the --openspiel-only run
    assert text.index(block) < text.index("<!-- ladder:end -->")
    # a second plain run keeps them again, and -q prints nothing
    res = _run(doc, "-q")
    assert res.exit_code == 0 and res.output == ""
    assert load_json(saved).openspiel == data.openspiel and doc.read_text() == text


def _store(doc, shipped: LadderData, change) -> None:
    data = copy.deepcopy(shipped)
    change(data)
    save_json(data, doc.with_suffix(".json"))


@pytest.mark.parametrize(("change", "why"), [
    (lambda d: d.config.update(game="maharaja"),
     "they belong to a maharaja ladder; this one is maharani"),
    (lambda d: d.config.update(edition=1),
     "they belong to a ladder of edition (rules code) 1; this one is 0"),
    (lambda d: d.openspiel[1].update(command=d.openspiel[1]["command"].replace(
        "--game maharani", "--game tajmahal")),
     "row 2 was played with --game tajmahal; this ladder has --game maharani"),
    (lambda d: d.openspiel[0].pop("share"), "row 1 has no valid 'share' (got None)"),
    (lambda d: d.openspiel[0].update(ci=[0.1]), "row 1 has no valid 'ci' (got [0.1])"),
    # a long bad value is cut, so the warning stays one readable line
    (lambda d: d.openspiel[0].update(ci=list(range(40))),
     "row 1 has no valid 'ci' (got [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, "
     "16...)"),
])
def test_tables_of_another_ladder_or_malformed_are_dropped_with_one_line(ladder, change, why):
    doc, shipped = ladder
    saved = doc.with_suffix(".json")
    _store(doc, shipped, change)
    res = _run(doc, "-q")
    assert res.exit_code == 0, res.output
    assert res.stderr == (f"warning: dropped the OpenSpiel tables of an earlier "
                          f"run from {saved}: {why}\n")
    assert load_json(saved).openspiel == []
    assert "Against OpenSpiel" not in doc.read_text()


def test_a_file_that_is_not_a_saved_ladder_is_said_and_replaced(ladder):
    doc, _ = ladder
    saved = doc.with_suffix(".json")
    saved.write_text("{not json")
    res = _run(doc, "-q")
    assert res.exit_code == 0, res.output
    assert res.stderr.startswith(f"warning: dropped whatever OpenSpiel tables {saved} held: "
                                 f"{saved} is not a saved ladder (JSON): ")
    assert len(res.stderr.splitlines()) == 1
    assert load_json(saved).openspiel == [] and load_json(saved).vs_random


@pytest.mark.parametrize(("change", "why"), [
    (lambda d: d.config.update(game="maharaja"), "is a maharaja ladder; expected a maharani"),
    (lambda d: d.config.update(edition=1), "is a ladder of edition (rules code) 1; expected 0"),
])
def test_openspiel_only_into_another_ladder_is_refused_before_playing(ladder, monkeypatch,
                                                                       change, why):
    """``--openspiel-only`` puts its tables into the saved ladder beside ``--output``: one of
    another game or edition is refused in one line before any table is played (it used to
    take them, and its document then showed another game's tables)."""
    doc, shipped = ladder
    _store(doc, shipped, change)

    def played(*args, **kwargs):
        raise AssertionError("a table was played")

    monkeypatch.setattr(ladder_cli, "openspiel_tables", played)
    res = CliRunner().invoke(cli, ["ladder", "--game", "maharani", "--openspiel", "ismcts",
                                   "--openspiel-only", "--openspiel-games", "4",
                                   "--output", str(doc)])
    assert res.exit_code == 2, res.output
    assert why in res.output and res.output.strip().count("\n") == 0, res.output


def _other_bot(rows: list[dict]) -> list[dict]:
    """The shipped ISMCTS rows as if an earlier run had played them against OpenSpiel's MCTS."""
    other = copy.deepcopy(rows)
    for row in other:
        row["b"] = row["b"].replace("openspiel:ismcts:", "openspiel:mcts:")
        row["bot"] = "mcts"
    return other[:1]


def test_openspiel_only_replaces_its_bots_tables_and_keeps_the_others(ladder, monkeypatch):
    """``--openspiel-only --openspiel ismcts`` replaces the saved ISMCTS tables and keeps those
    of another bot (it used to replace every saved table with its own)."""
    doc, shipped = ladder
    saved = doc.with_suffix(".json")
    mcts = _other_bot(shipped.openspiel)
    _store(doc, shipped, lambda d: d.openspiel.extend(mcts))
    new = copy.deepcopy(shipped.openspiel)
    for row in new:
        row.update(share=0.5, bot="ismcts")

    monkeypatch.setattr(ladder_cli, "openspiel_tables", lambda cfg, log=None: new)
    res = CliRunner().invoke(cli, ["ladder", "--game", "maharani", "--openspiel", "ismcts",
                                   "--openspiel-only", "--openspiel-games", "40",
                                   "--openspiel-players", "2", "--output", str(doc)])
    assert res.exit_code == 0, res.output
    assert f"kept the OpenSpiel tables of mcts at 2 players from {saved}" in res.stdout
    rows = load_json(saved).openspiel
    assert rows == json.loads(json.dumps(mcts + new))  # the old ISMCTS rows gone, MCTS kept
    assert doc.read_text().count("openspiel:mcts:") == 1


def test_a_row_without_its_bot_is_keyed_by_the_bot_in_its_b():
    from tajsim.reporting.ladder.saved import openspiel_key

    assert openspiel_key({"b": "openspiel:ismcts:iterations=20", "players": 2}) == ("ismcts", 2)
    assert openspiel_key({"b": "openspiel:ismcts:seconds=0.007178", "players": 3}) == (
        "ismcts", 3)
    assert openspiel_key({"b": "openspiel:mcts:uct_c=2:iterations=20", "players": 2}) == (
        "mcts:uct_c=2", 2)
    assert openspiel_key({"bot": " ismcts ", "b": "x", "players": 2}) == ("ismcts", 2)


def test_bots_are_keyed_by_their_settings_in_canonical_form():
    from tajsim.reporting.ladder.saved import openspiel_key

    assert openspiel_key({"bot": "mcts:uct_c=2:max_simulations=10", "players": 2}) == \
        openspiel_key({"bot": "mcts:max_simulations=10.0:uct_c=2.0", "players": 2})
    assert openspiel_key({"bot": "mcts:uct_c=2", "players": 2}) != \
        openspiel_key({"bot": "mcts:uct_c=3", "players": 2})


def test_tables_of_two_sizes_show_each_rows_players():
    rows = load_json(SHIPPED.with_suffix(".json")).openspiel
    four = [{**r, "players": 4} for r in copy.deepcopy(rows)]
    one = render_openspiel(rows, "maharani")
    assert "2 players, seats alternating" in one[2] and "players |" not in one[8]
    both = render_openspiel(rows + four, "maharani")
    assert "at the players of each row" in both[2]
    assert both[8].startswith("| setting | players | A | B |")
    body = [line for line in both if line.startswith("| equal")]
    assert [line.split(" | ")[1] for line in body] == ["2", "2", "4", "4"]
