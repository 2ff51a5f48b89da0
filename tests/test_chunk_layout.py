"""The chunk files' two tables (issue 42, section 3): a chunk's players' table holds the columns
that differ between seats, its companion ``<chunk>.games.parquet`` the per-game columns once a
game; every reader joins them into the frame of one table. Chunks of the old layout (one table)
and of the new one read back, side by side in one run folder, as one identical frame; a missing,
truncated or foreign companion file is a one-line error, never joined wrong."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

import tajsim
from tajsim.cli.main import cli
from tajsim.errors import UserError
from tajsim.games.registry import GAMES, get_game
from tajsim.running.records import is_game_column, read_chunk_table, read_parquet_files, to_parquet
from tajsim.running.run_files import GAMES_SUFFIX, LAYOUT_KEY, LAYOUT_SPLIT, data_digest
from tajsim.running.run_reading import load_results
from tajsim.running.simulate import run_simulation

KWARGS = dict(game="maharaja", games=120, players=3, strategies="random", seed=5, chunk_size=30,
              workers=1, progress=False)


@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    """A run of 4 chunks in the new layout, and the frame ``simulate`` returned."""
    out = tmp_path_factory.mktemp("layout") / "run"
    frame = tajsim.simulate(**KWARGS, out=out)
    return out, frame


@pytest.fixture
def run(stored, tmp_path):
    out = tmp_path / "run"
    shutil.copytree(stored[0], out)
    return out


def chunk(out: Path, k: int) -> Path:
    return out / "chunks" / f"chunk-{k:06d}.parquet"


def to_old_layout(out: Path, k: int) -> None:
    """Rewrite chunk ``k`` as the code before the split wrote it: one table, no companion, a
    check file without the per-game table's digest."""
    table = read_chunk_table(chunk(out, k)).replace_schema_metadata(None)
    data = to_parquet(table)
    chunk(out, k).write_bytes(data)
    Path(str(chunk(out, k)).replace(".parquet", GAMES_SUFFIX)).unlink()
    path = out / "aggregates" / f"chunk-{k:06d}.check.json"
    check = json.loads(path.read_text())
    del check["game_rows"]
    path.write_text(json.dumps({**check, "records": data_digest(data)}))


def test_every_chunk_is_two_tables_and_the_players_table_holds_no_per_game_column(stored):
    out, frame = stored
    spec = get_game("maharaja")
    for k in range(4):
        players = pq.read_table(chunk(out, k))
        games = pq.read_table(Path(str(chunk(out, k)).replace(".parquet", GAMES_SUFFIX)))
        assert players.schema.metadata[LAYOUT_KEY] == LAYOUT_SPLIT
        assert players.num_rows == 30 * 3 and games.num_rows == 30
        assert [c for c in players.column_names if is_game_column(spec, c)] == []
        assert set(players.column_names) | set(games.column_names) == set(frame.columns)
        assert set(players.column_names) & set(games.column_names) == {"game_id"}
    # Maharaja: 78 of its 203 columns once a game (the trajectory's 60 are the seats')
    assert len(games.column_names) - 1 >= 70


def test_old_and_new_layout_chunks_in_one_run_read_back_as_one_identical_frame(run, stored):
    to_old_layout(run, 1)
    to_old_layout(run, 3)
    assert not Path(str(chunk(run, 1)).replace(".parquet", GAMES_SUFFIX)).exists()
    assert LAYOUT_KEY not in (pq.read_table(chunk(run, 1)).schema.metadata or {})
    pd.testing.assert_frame_equal(load_results(run), stored[1])
    pd.testing.assert_frame_equal(read_parquet_files(sorted((run / "chunks").glob("*"))),
                                  stored[1])
    # and the run resumes without playing a chunk again
    res = run_simulation(**KWARGS, out=run)
    assert res.chunks_run == 0
    pd.testing.assert_frame_equal(res.records, stored[1])


def test_a_chunk_file_alone_reads_as_its_whole_frame(stored):
    out, frame = stored
    alone = read_parquet_files([chunk(out, 2)])
    pd.testing.assert_frame_equal(alone, frame.iloc[180:270].reset_index(drop=True))


def one_line(message: str, *needles: str) -> None:
    assert "\n" not in message
    for needle in needles:
        assert needle in message, message


def test_a_missing_per_game_table_is_one_line(run):
    Path(str(chunk(run, 2)).replace(".parquet", GAMES_SUFFIX)).unlink()
    with pytest.raises(UserError) as info:
        load_results(run)
    one_line(str(info.value), "chunk-000002 failed verification",
             "its per-game table chunk-000002.games.parquet is missing")
    with pytest.raises(UserError) as info:
        read_parquet_files([chunk(run, 2)])
    one_line(str(info.value), "chunk-000002.games.parquet is missing")
    res = CliRunner().invoke(cli, ["report", str(run / "chunks"), "--out",
                                   str(run.parent / "report")])
    assert res.exit_code == 2 and "Traceback" not in res.output
    one_line(res.stderr.strip(), "chunk-000002.games.parquet is missing")


def test_a_truncated_per_game_table_is_one_line(run):
    games = Path(str(chunk(run, 2)).replace(".parquet", GAMES_SUFFIX))
    games.write_bytes(games.read_bytes()[:300])
    with pytest.raises(UserError) as info:
        load_results(run)
    one_line(str(info.value), "chunk-000002 failed verification",
             "its per-game table has 300 bytes")
    with pytest.raises(UserError) as info:
        read_parquet_files([chunk(run, 2)])
    one_line(str(info.value), "chunk-000002.games.parquet: the per-game table of",
             "cannot be read")
    # its check file forged to match: still not readable Parquet
    path = run / "aggregates" / "chunk-000002.check.json"
    check = json.loads(path.read_text())
    path.write_text(json.dumps({**check, "game_rows": data_digest(games.read_bytes())}))
    with pytest.raises(UserError) as info:
        load_results(run)
    one_line(str(info.value), "its per-game table is not readable Parquet")


def test_another_chunks_per_game_table_is_never_joined(run):
    games = Path(str(chunk(run, 2)).replace(".parquet", GAMES_SUFFIX))
    games.write_bytes(Path(str(chunk(run, 1)).replace(".parquet", GAMES_SUFFIX)).read_bytes())
    with pytest.raises(UserError) as info:
        read_parquet_files([chunk(run, 2)])
    one_line(str(info.value), "its players' rows and its per-game table hold other games")
    path = run / "aggregates" / "chunk-000002.check.json"
    check = json.loads(path.read_text())
    path.write_text(json.dumps({**check, "game_rows": data_digest(games.read_bytes())}))
    with pytest.raises(UserError) as info:
        load_results(run)
    one_line(str(info.value), "its per-game table holds 30 games (30..59), expected 30 (60..89)")


def test_a_per_game_table_alone_is_refused(stored):
    games = Path(str(chunk(stored[0], 0)).replace(".parquet", GAMES_SUFFIX))
    with pytest.raises(UserError) as info:
        read_chunk_table(games)
    one_line(str(info.value), "is a per-game table")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_declared_per_game_columns_hold_one_value_a_game(game):
    """A wing's ``GAME_COLUMNS`` (and the framework's per-game columns) are stored once a game:
    a column declared wrongly would lose its other seats' values."""
    spec = get_game(game)
    frame = tajsim.simulate(game=game, games=60, strategies="random", seed=3, workers=1,
                            progress=False)
    per_game = [c for c in frame.columns if is_game_column(spec, c)]
    assert len(per_game) >= 5
    distinct = frame.groupby("game_id", observed=True)[per_game].nunique(dropna=False)
    assert (distinct == 1).all().all(), distinct.columns[(distinct != 1).any()].tolist()


def test_the_documented_pandas_join_gives_the_frame(stored):
    """docs/results-schema.md: a user reading the two files with pandas joins them on
    ``game_id`` into the frame (its columns in another order)."""
    out, frame = stored
    players = pd.read_parquet(out / "chunks" / "chunk-000001.parquet")
    games = pd.read_parquet(out / "chunks" / "chunk-000001.games.parquet")
    df = players.merge(games, on="game_id", how="left")
    pd.testing.assert_frame_equal(df[frame.columns],
                                  frame.iloc[90:180].reset_index(drop=True))
