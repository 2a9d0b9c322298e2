"""Phase 10 Twist played (issue 29, part 2): the referee moves pawns along a board, offers
the twist choice, keeps three discard piles and places skips in front of players; logs
record and replay all of it; bots and simulate play it."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from phasedsl.cli import app
from phasedsl.game import Game, IllegalMove, view
from phasedsl.game import moves as mv
from phasedsl.game.log import replay
from phasedsl.model.board import TWIST, Attempt, check_race, moved
from phasedsl.packs.pack import load_pack
from phasedsl.players.botspec import build

runner = CliRunner()

# A race of five spaces: phase 1, phase 2, a twist space, phase 3, phase 4 (the finish).
RACE = """name: race
title: A five-space race
description: a board of five spaces, checked by hand
source: a test
extends: original
rules:
  game_length: 4
phases: ["2 sets of 3", "1 run of 4", "1 set of 4", "1 set of 3"]
board:
  spaces: [1, 2, twist, 3, 4]
  twist_phases: ["1 set of 2", "1 run of 3"]
  discard_piles: 3
"""


@pytest.fixture(scope="module")
def race(tmp_path_factory):
    path = tmp_path_factory.mktemp("race") / "race.yaml"
    path.write_text(RACE)
    return load_pack(str(path))


def _by_hand(at: int, made: bool, out: bool, twist: bool) -> int:
    """The five-space race's move table as the printed rules say it, written out."""
    if at == 5:  # the finish: a miss stays, a make wins (and stays)
        return 5
    if at == 1 and not made:  # the start moves only when phase 1 is made (the seed's reading)
        return 1
    step = (6 if out else 4) if twist and made else -1 if twist else (3 if out else 2) if made else 1
    return max(1, min(5, at + step))


def test_the_five_space_race_moves_as_checked_by_hand(race):
    b = race.board
    assert b.spaces == (1, 2, TWIST, 3, 4) and b.discard_piles == 3
    cases = {  # (space, made, out, twist): space after, worked out on paper
        (1, False, False, False): 1, (1, True, False, False): 3, (1, True, True, False): 4,
        (2, False, False, False): 3, (2, True, False, False): 4, (2, True, True, False): 5,
        (3, True, True, True): 5, (3, True, False, True): 5, (3, False, False, True): 2,
        (3, False, False, False): 4, (3, True, False, False): 5,
        (4, False, False, False): 5, (4, True, True, False): 5,
        (5, False, False, False): 5, (5, True, True, False): 5,
    }
    for (at, made, out, twist), want in cases.items():
        assert moved(b, at, made, out, twist) == want == _by_hand(at, made, out, twist)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_race_played_by_bots_moves_every_pawn_by_the_table(race, seed):
    game = Game.new(race, ["ann", "bob", "cy"], seed=seed)
    bots = {n: build("greedy", seed + k) for k, n in enumerate(["ann", "bob", "cy"])}
    while not game.over:
        state = game.state
        move = bots[state.to_move].choose(view(state, state.to_move))
        game = game.apply(move)
    hands = [a for r in game.state.results for a in r.board]
    at = dict.fromkeys(["ann", "bob", "cy"], 1)
    for a in hands:
        assert a.start == at[a.player]
        assert a.end == _by_hand(a.start, a.made, a.out, a.twist)
        assert a.on_twist == (a.start == 3) and (not a.twist or a.on_twist)
        at[a.player] = a.end
    last = [a for a in hands if a.hand == hands[-1].hand]
    assert game.winner in {a.player for a in last if a.made and a.start == 5}
    assert check_race(race.board, tuple(e.phase for e in race.world(None).phases), ("ann", "bob", "cy"),
                      hands) is None
    # the log records every hand's pawns and replays to the same race
    lines = game.to_log()
    assert sum('"type": "pawns"' in line for line in lines) == game.state.hands_played
    again = replay(lines)
    assert again.legal and again.winner == game.winner
    assert again.to_json()["board"] == [a.to_json() for a in hands]


def _log(tmp_path, *events):
    """A hand-dealt game of the race (ann plays first), then ``events``."""
    (tmp_path / "race.yaml").write_text(RACE)
    head = {"type": "game", "variant": "race.yaml", "players": ["ann", "bob"], "dealer": "bob"}
    deal = {"type": "deal",
            "hands": {"ann": ["S", "R1", "R2", "R3", "B4", "B5", "B6", "G7", "G8", "G9"],
                      "bob": ["Y1", "Y2", "Y3", "R10", "B10", "G10", "Y10", "R11", "B11", "G11"]},
            "piles": [["R5"], ["S", "B7"], ["G12"]]}
    return [json.dumps(head), json.dumps(deal), *map(json.dumps, events)]


def _refused(tmp_path, lines):
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join(lines) + "\n")
    r = runner.invoke(app, ["replay", str(path), "--json"])
    out = json.loads(r.stdout)
    assert r.exit_code == 1 and not out["legal"]
    return out["error"]


def test_a_draw_from_an_empty_pile_is_refused_at_its_line(tmp_path):
    lines = _log(
        tmp_path,
        {"type": "draw", "player": "ann", "from": "discard", "pile": 3},  # G12, the last card
        {"type": "discard", "player": "ann", "card": "S", "skip": "bob"},  # in front of bob
        {"type": "draw", "player": "ann", "from": "discard", "pile": 3},  # bob lost his turn
    )
    err = _refused(tmp_path, lines)
    assert err["line"] == 5 and err["rule"] == "card_not_available"
    assert "discard pile 3 is empty" in err["message"]


def test_after_taking_a_piles_last_card_the_discard_goes_there(tmp_path):
    lines = _log(
        tmp_path,
        {"type": "draw", "player": "ann", "from": "discard", "pile": 1},
        {"type": "discard", "player": "ann", "card": "G9", "pile": 2},
    )
    err = _refused(tmp_path, lines)
    assert err["line"] == 4 and err["rule"] == "must_discard_on_emptied"
    assert "took the last card of discard pile 1" in err["message"]
    ok = _log(
        tmp_path,
        {"type": "draw", "player": "ann", "from": "discard", "pile": 1},
        {"type": "discard", "player": "ann", "card": "G9", "pile": 1},
        {"type": "draw", "player": "bob", "from": "discard", "pile": 2},  # B7 (the skip under it)
        {"type": "discard", "player": "bob", "card": "G11", "pile": 3},
        {"type": "draw", "player": "ann", "from": "discard", "pile": 2},  # a skip may be taken
    )
    path = tmp_path / "ok.jsonl"
    path.write_text("\n".join(ok) + "\n")
    r = runner.invoke(app, ["replay", str(path), "--json"])
    assert json.loads(r.stdout)["legal"], r.stdout


def test_skips_are_placed_in_front_one_at_a_time_never_on_a_pile(tmp_path):
    lines = _log(
        tmp_path,
        {"type": "draw", "player": "ann", "from": "deck", "card": "R12"},
        {"type": "discard", "player": "ann", "card": "S", "skip": "bob", "pile": 2},
    )
    err = _refused(tmp_path, lines)
    assert err["line"] == 4 and err["rule"] == "skip_in_front"
    game = Game.from_log(_log(tmp_path, {"type": "draw", "player": "ann", "from": "deck",
                                         "card": "R12"},
                              {"type": "discard", "player": "ann", "card": "S", "skip": "bob"}),
                         base_dir=tmp_path)
    s = game.state
    assert s.to_move == "ann"  # bob's turn is lost
    assert [len(p) for p in (s.discard, *s.more_piles)] == [1, 2, 1]  # the skip is on no pile


def test_a_twist_chosen_off_a_twist_space_is_refused(tmp_path):
    lines = _log(tmp_path, {"type": "choose", "player": "ann", "choice": "twist"})
    err = _refused(tmp_path, lines)
    assert err["line"] == 3 and err["rule"] == "not_a_twist_space"


@pytest.mark.parametrize(("me", "mine"), [("ann", "ann's"), ("you", "your")])
def test_a_pawn_moved_by_the_wrong_count_is_refused(race, me, mine):
    # (the web app's player is "you": its pawn is "your pawn", never "you's pawn")
    game = Game.new(race, [me, "bob"], seed=5)
    rng = random.Random(5)
    while game.state.hands_played == 0:
        game = game.apply(rng.choice(game.legal_moves()))
    lines = game.to_log()
    k = next(i for i, line in enumerate(lines) if '"type": "pawns"' in line)
    record = json.loads(lines[k])
    good = dict(record["spaces"])
    for name in good:
        record["spaces"] = {**good, name: good[name] + 1}
        lines[k] = json.dumps(record)
        got = replay(lines, pack=race)
        assert not got.legal and got.error["line"] == k + 1
        whose = mine if name == me else f"{name}'s"
        assert got.error["rule"] == "pawn_moved_wrong" and f"{whose} pawn" in got.error["message"]
        assert "you's" not in got.error["message"]
    del lines[k]  # and a deal before the pawns' record is refused
    got = replay(lines, pack=race)
    assert not got.legal and got.error["rule"] == "pawns_not_moved"


def test_the_twist_choice_is_the_players_move_at_the_start_of_the_hand(race):
    game = Game.new(race, ["ann", "bob"], seed=11)
    bots = {n: build("strong", k) for k, n in enumerate(["ann", "bob"])}
    chose = []
    while not game.over:
        state = game.state
        if state.stage == "declare":
            v = view(state, state.to_move)
            assert v.options and all(isinstance(m, mv.Choose) for m in v.moves)
            said = {c for c, _ in v.options}
            assert said <= {"twist", 2, 4} and "twist" in said  # the card, or a neighbour
            with pytest.raises(IllegalMove, match="chooses"):
                game.apply(mv.Choose(state.to_move, 5))  # not a neighbour
            chose.append(state.to_move)
        game = game.apply(bots[state.to_move].choose(view(state, state.to_move)))
    assert chose  # somebody stood on the twist space


def test_the_twist_pack_plays_and_simulate_gives_the_board_figures():
    r = runner.invoke(app, ["simulate", "twist", "--games", "4", "--players", "3", "--json"])
    assert r.exit_code == 0, r.output
    s = json.loads(r.stdout)
    b = s["board"]
    assert b["spaces_per_hand"]["n"] > 0 and b["twist"]["offered"] >= b["twist"]["taken"]
    assert all(-1 <= row["mean_gain"] <= 6 for row in b["spaces"])
    assert len(s["win_share_ci95"]) == 3 and all(lo <= w <= hi for w, (lo, hi)
                                                 in zip(s["win_share_by_seat"],
                                                        s["win_share_ci95"], strict=True))
    text = runner.invoke(app, ["simulate", "twist", "--games", "4", "--players", "3"]).output
    assert "spaces gained per hand" in text and "95% interval, 4 games" in text


def _every_state_has_a_move(game: Game, choose) -> Game:
    while not game.over:
        moves = game.legal_moves()
        assert moves, (game.state.stage, game.state.step)
        game = game.apply(choose(game, moves))
        assert game.state.hands_played < 60
    return game


@pytest.mark.parametrize("players", [2, 4])
def test_random_and_greedy_play_under_twist_always_has_a_move_and_ends(players):
    names = ["ann", "bob", "cy", "dee"][:players]
    rng = random.Random(players)
    done = _every_state_has_a_move(Game.new("twist", names, seed=players),
                                   lambda g, ms: rng.choice(ms))
    assert done.winner in names
    bots = {n: build("greedy", k) for k, n in enumerate(names)}
    done = _every_state_has_a_move(
        Game.new("twist", names, seed=players + 10),
        lambda g, ms: ms[0] if len(ms) == 1 else bots[g.state.to_move].choose(
            view(g.state, g.state.to_move)))
    assert done.winner in names
    last = done.state.results[-1].board
    assert all(isinstance(a, Attempt) for a in last)
    assert any(a.player == done.winner and a.start == 19 and a.made for a in last)


def test_an_external_bot_is_offered_the_choice_and_the_piles(race):
    from phasedsl.players.extbot import view_json

    game = Game.new(race, ["ann", "bob"], seed=11)
    rng = random.Random(3)
    while game.state.stage != "declare":
        game = game.apply(rng.choice(game.legal_moves()))
    v = view_json(view(game.state, game.state.to_move))
    assert {c["choice"] for c in v["choices"]} >= {"twist"} and len(v["piles"]) == 3
    assert v["rules"]["board"]["spaces"] == [1, 2, "twist", 3, 4]
    assert all("space" in p for p in v["players"])


def test_balance_judges_each_space_by_the_spaces_gained_there(tmp_path):
    from phasedsl.design.balance import MIN_SPACE_HANDS, space_gains
    from phasedsl.model.board import Board

    board = Board((1, 2, TWIST, 3, 4, 5, 6, 7))
    rows = [{"space": 1, "hands": 90, "mean_gain": 1.0, "ci95": [0.8, 1.2]},
            {"space": 2, "hands": 50, "mean_gain": 2.0, "ci95": [1.8, 2.2]},
            {"space": 3, "hands": 40, "mean_gain": 2.1, "ci95": [1.9, 2.3]},
            {"space": 4, "hands": 40, "mean_gain": 0.4, "ci95": [0.3, 0.5]},  # pawns stall
            {"space": 5, "hands": 40, "mean_gain": 3.0, "ci95": [2.8, 3.2]},  # easier than 2
            {"space": 6, "hands": 5, "mean_gain": 9.0, "ci95": [1.0, 9.0]},  # too few hands
            {"space": 7, "hands": 40, "mean_gain": 0.2, "ci95": [0.1, 0.3]}]  # near the finish
    got = {s.space: s for s in space_gains(board, {"spaces": rows})}
    assert got[1].flag is None and got[2].flag is None  # (the start is no yardstick)
    assert got[4].flag.startswith("a bottleneck: pawns gain 0.40 spaces a hand here")
    assert got[5].flag.startswith("easier than space 4 (phase 3) before it")
    assert got[6].flag is None and got[7].flag is None and MIN_SPACE_HANDS > 5
    # Twist's board on the printed phases (whose exact dealt chances the other tests share:
    # Twist's own take a minute to work out cold)
    twist = (Path(__file__).parents[1] / "variants" / "twist.yaml").read_text()
    pack = tmp_path / "board.yaml"
    pack.write_text("name: board\ntitle: t\ndescription: d\nsource: s\nextends: original\n"
                    + twist[twist.index("\nboard:") + 1:])
    r = runner.invoke(app, ["balance", str(pack), "--players", "2", "--games", "30", "--json"])
    assert r.exit_code == 0, r.output
    spaces = json.loads(r.stdout)["board"]
    assert spaces[0]["space"] == 1 and spaces[0]["what"] == "phase 1"
    assert all(s["ci95"][0] <= s["mean_gain"] <= s["ci95"][1] for s in spaces)
    text = runner.invoke(app, ["balance", str(pack), "--players", "2", "--games", "30"]).output
    assert "on the board (today's order): spaces gained a hand at each space" in text


def test_play_takes_the_board_commands_and_shows_the_choice(race):
    from phasedsl.players.play import command_text, parse_command, screen

    deck = race.rules.deck
    for line in ("choose twist", "choose 4", "draw pile 2", "discard R5 on 3",
                 "discard S skip bob"):
        move = parse_command(line, "ann", deck)
        assert command_text(move) == line
    assert parse_command("draw pile 2", "ann", deck) == mv.Draw("ann", "discard", None, 2)
    game = Game.new(race, ["ann", "bob"], seed=11)
    rng = random.Random(3)
    while game.state.stage != "declare":
        game = game.apply(rng.choice(game.legal_moves()))
    shown = screen(view(game.state, game.state.to_move))
    assert "board: ann on space" in shown and "piles 1:" in shown
    assert "you stand on a twist space" in shown and "choose twist" in shown
    assert "choose 2      space 2's phase 2 (1 run of 4)" in shown


def test_rules_that_choose_phases_otherwise_do_not_combine_with_a_board(tmp_path):
    p = tmp_path / "mixed.yaml"
    p.write_text("name: mixed\ntitle: t\ndescription: d\nsource: s\nextends: twist\nrules:\n"
                 "  phase_order: any\n  house_rules: {save_pile: true}\n")
    r = runner.invoke(app, ["lint", str(p)])
    assert r.exit_code == 1
    assert "mixed.yaml:7:16: error: phase_order is \"any\", but on a board" in r.output
    assert "house_rules.save_pile is true, but on a board" in r.output
    r = runner.invoke(app, ["simulate", str(p), "--games", "1"])
    assert r.exit_code == 2 and "cannot play mixed as written" in r.output


def test_an_external_program_plays_a_board_game_over_the_protocol(race, tmp_path):
    import sys

    bot = Path(__file__).parents[1] / "docs" / "examples" / "bot.py"
    (tmp_path / "race.yaml").write_text(RACE)
    r = runner.invoke(app, ["simulate", str(tmp_path / "race.yaml"), "--games", "2", "--players",
                            "2", "--bot", f"cmd:{sys.executable} {bot}", "--json"])
    assert r.exit_code == 0, r.output
    s = json.loads(r.stdout)
    assert s["forfeited"] == [] and s["finished"] == 2 and s["board"]["spaces_per_hand"]["n"]
