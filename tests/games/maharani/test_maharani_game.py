"""The step-by-step ``Game``: configuration errors, labels, records, the referee event log and
the palace drawn as text."""

from __future__ import annotations

import numpy as np
import pytest
from maharani_helpers import Builder, fitting_arrow, place, tiles_fitting

from tajsim.engine.base_game import GameRecord, IllegalActionError
from tajsim.errors import UserError
from tajsim.games.maharani.engine import enums as E
from tajsim.games.maharani.engine.game import Game
from tajsim.games.registry import get_game
from tajsim.play.mixed import play_game as play_any_game


def play_game(strategies, **kwargs):
    return play_any_game(strategies, game="maharani", **kwargs)


@pytest.mark.parametrize("bad", [1, 5, 0, "3", 2.0, True])
def test_player_count_errors_are_one_line(bad):
    with pytest.raises(UserError) as info:
        Game(bad)
    msg = str(info.value)
    assert "\n" not in msg and repr(bad) in msg and "2 to 4" in msg


def test_edition_and_option_errors():
    with pytest.raises(UserError, match="unknown edition '1999' of Maharani; expected one of: "
                                        "2012"):
        Game(3, "1999")
    with pytest.raises(UserError, match="unknown rule option 'speedy'"):
        Game(3, options={"speedy": True})
    assert get_game("maharani").rules_code(None, {"free_refresh": True,
                                                "target_marker": True}) == 768


def test_illegal_action_and_game_over():
    game = Game(3, seed=2)
    with pytest.raises(IllegalActionError, match="not legal here"):
        game.apply(E.ACTION_STOP)
    game = play_game(["random"] * 3, seed=2)
    assert game.is_over and game.legal_actions() == []
    with pytest.raises(IllegalActionError, match="the game is over"):
        game.apply(0)


def test_same_game_as_the_batch_runner():
    from tajsim.games.maharani.play.nb import play_batch_nb
    from tajsim.games.maharani.strategies.registry import REGISTRY

    game = play_game(["greedy", "balanced", "random"], seed=9, game_id=4)
    names = ["greedy", "balanced", "random"]
    parsed = [REGISTRY.parse(x) for x in names]
    res = np.zeros(3, E.RESULT_DTYPE)
    setups = np.zeros(1, E.SETUP_DTYPE)
    ids = np.array([4], np.int64)
    play_batch_nb(game.comp, 3, 0, 9, ids, ids, np.array([[0, 1, 2]], np.int64),
                  np.array([s.strategy_id for s, _ in parsed], np.int64),
                  np.stack([p for _, p in parsed]), res, setups,
                  *REGISTRY.kernel_switches([s.strategy_id for s, _ in parsed]))
    assert res["score"].tolist() == game.scores()
    assert res["rank"].tolist() == game.ranks()


def test_record_json_round_trip_with_options():
    game = play_game(["random", "random"], seed=3, options={"target_marker": True})
    record = game.record()
    assert isinstance(record, GameRecord) and record.game == "maharani"
    assert record.options == {"target_marker": True}
    again = Game.replay(GameRecord.from_json(record.to_json()))
    assert np.array_equal(again.state, game.state)
    assert again.options == {"target_marker": True}
    with pytest.raises(UserError, match="record action 1 of 1"):
        Game.replay(GameRecord(game="maharani", n_players=2, seed=3, actions=[E.ACTION_STOP]))
    with pytest.raises(UserError, match="unknown rule option"):
        Game.replay(GameRecord.from_json('{"n_players": 2, "options": {"zzz": true}}'))


def test_action_labels():
    game = Game(4, seed=1)
    a = game.legal_actions()[0]
    label = game.action_label(a)
    assert label.startswith("lay place ") and " arrow " in label
    assert game.action_label(E.ACTION_REFRESH).startswith("refresh")
    assert game.action_label(E.ACTION_STOP) == "stop (no second tile)"
    assert game.action_label(E.ACTION_ARTISAN + 1) == "new artisan of the second colour"
    assert game.action_label(10**6).startswith("<invalid")


def events_of(game: Game, action: int) -> list[str]:
    before = game.state.copy()
    game.apply(action)
    return game.events(before, action, game.state)


def built_game(b: Builder) -> Game:
    game = Game(b.n)
    game.state[:] = b.build()
    return game


def test_events_of_a_tile_a_marker_a_zone_and_an_artisan():
    b = Builder(4).turn(0).lay("L02", "orange-09", artisan=0).lay("M01", "blue-07")
    b.slot(0, "blue-06").slot(1, "green-03").slot(2, "orange-03").slot(3, "red-03")
    game = built_game(b)
    s = b.s("L03")
    arrow = fitting_arrow(b.c, b.t("blue-06"), s)[0]
    ev = events_of(game, place(0, s, arrow))
    text = "\n".join(ev)
    assert "P0 takes blue-06" in text and "lays it on L03 (Lion)" in text
    assert "turns the action marker of quarter 3 (Peacock) face down" in text
    assert "a zone of 2 blue tiles: +2 gold" in text
    assert arrow != E.DIR.S and "puts a new artisan" not in text  # the arrow points north

    # a tile whose arrow points to the seat's side (south) brings a new artisan
    b = Builder(4).turn(0)
    south = [t for t in tiles_fitting(b.c, s, arrow=E.DIR.S)
             if b.c.tile_ids[t] not in ("green-03", "orange-03", "red-03")][0]
    b.slot(0, south).slot(1, "green-03").slot(2, "orange-03").slot(3, "red-03")
    text = "\n".join(events_of(built_game(b), place(0, s, E.DIR.S)))
    assert f"P0 takes {b.c.tile_ids[south]}" in text
    assert "puts a new artisan on L03" in text


def test_events_of_an_end_of_turn_with_a_scoring_and_a_refill():
    b = Builder(4).turn(0)
    b.lay("L02", "blue-09", artisan=0).lay("L05", "orange-09", artisan=1)
    b.slot(1, "purple-06").slot(0, "green-04").slot(2, "orange-03").slot(3, "red-03")
    b.fill([sid for sid in b.c.space_ids if sid.startswith("L") and sid not in
            ("L01", "L02", "L05")], avoid_colours=("purple",))
    b.bag_order("yellow-03")
    game = built_game(b)
    events_of(game, place(1, b.s("L01"), E.DIR.S))
    ev = events_of(game, E.ACTION_STOP)
    text = "\n".join(ev)
    assert "P0 lays no second tile" in text
    assert ("quarter 1 (Lion) is scored: P0 2 artisans +6, P1 1 artisan +4, P2 0 artisans +0,"
            in text)
    assert "refill: yellow-03 (yellow, half ahead) drawn onto turntable place 2" in text
    assert "P1's turn: the turntable turns its arrow toward west" in text
    assert game.quarters_scored(b.state, game.state) == [0]


def test_two_player_artisan_choice_events():
    b = Builder(2).turn(0).lay("L13", "blue-03", artisan=0)
    b.slot(1, "blue-06").slot(0, "green-03").slot(2, "orange-03").slot(3, "red-03")
    game = built_game(b)
    ev = events_of(game, place(1, b.s("L01"), E.DIR.S))
    assert any("it chooses an artisan" in e for e in ev)
    ev = events_of(game, E.ACTION_ARTISAN + E.ART_MOVE_A)
    assert any("P0 moves its red artisan from L13 (Lion) onto L01 (Lion)" in e for e in ev)


def test_palace_text_and_state_display():
    game = play_game(["random"] * 3, seed=5)
    text = game.palace_text()
    assert "north: P2" in text and "east: nobody" in text
    assert text.count("\n") >= 10 and "|" in text
    shown = str(game)
    assert "Game over (complete)" in shown and "Ranks:" in shown
    fresh = Game(2)
    assert ".C" in fresh.palace_text() and "turntable (arrow south)" in str(fresh)
