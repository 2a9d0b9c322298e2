"""Phase 10 Twist's board as a pack format (issue 29, part 1): read, checked, shown."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from phasedsl.cli import app
from phasedsl.model.board import TWIST, Board, Moves
from phasedsl.packs.pack import check_file, load_pack

runner = CliRunner()


def test_the_twist_pack_carries_its_board_and_twist_deck():
    pack = load_pack("twist")
    b = pack.board
    assert b is not None and len(b.spaces) == 19 and b.spaces[0] == 1 and b.spaces[-1] == 10
    assert b.spaces[1::2] == (TWIST,) * 9 and len(b.twist_phases) == 10
    assert (b.discard_piles, b.skip_placement, b.start_needs_phase) == (3, "in_front", True)
    assert pack.rules.natural_scope == "phase"  # no phase of wilds alone
    assert "ASSUMES a board" in pack.description and "not modelled" not in pack.description
    r = runner.invoke(app, ["lint", "twist"])
    assert r.exit_code == 0 and "0 errors, 0 warnings" in r.output
    r = runner.invoke(app, ["show", "twist"])
    assert "  2. twist: a twist card, or a neighbour's phase" in r.output
    assert " 19. phase 10 (9 cards of one color) (finish)" in r.output
    out = json.loads(runner.invoke(app, ["show", "twist", "--json"]).stdout)
    assert out["board"]["moves"] == {"made_out": 3, "made": 2, "missed": 1,
                                     "twist_made_out": 6, "twist_made": 4, "twist_missed": -1}


BAD = """name: bad-board
title: Bad board
description: every board error at once
source: a test
extends: original
rules:
  game_length: 3
phases:
  - "2 sets of 3"
  - "1 run of 7"
  - "7 cards of one color"
board:
  spaces: [twist, 1, 2, 5, twist]
  twist_phases: ["1 run of 13", "1 sett of 3"]
  moves: {made_out: 0, made: 0, missed: 0, twist_made_out: 0, twist_made: 0, twist_missed: -1}
"""


def test_every_board_error_names_its_space_line_and_column(tmp_path):
    path = tmp_path / "bad-board.yaml"
    path.write_text(BAD)
    _, diags = check_file(path, strict=True)
    said = {(d.line, d.column, d.message) for d in diags}
    assert (13, 12, "space 1 is a twist space: the start must name a phase") in said
    assert (13, 25, "space 4 names phase 5, and the pack has 3 phases") in said
    assert (13, 28, "space 5 is a twist space: the last space must name a phase") in said
    assert any(line == 14 and col == 28 and "a run of 13 is impossible" in msg
               for line, col, msg in said)
    assert any(line == 14 and col == 36 and msg.startswith("twist phase 2: expected")
               for line, col, msg in said)
    assert any(line == 15 and "no run of hands takes a pawn from the start" in msg
               for line, _, msg in said)
    r = runner.invoke(app, ["lint", str(path)])
    assert r.exit_code == 1 and "Traceback" not in r.output


def test_a_twist_space_needs_a_twist_deck(tmp_path):
    path = tmp_path / "no-deck.yaml"
    path.write_text(BAD.replace("name: bad-board", "name: no-deck")
                    .replace("  spaces: [twist, 1, 2, 5, twist]\n", "  spaces: [1, twist, 3]\n")
                    .replace('  twist_phases: ["1 run of 13", "1 sett of 3"]\n', "")
                    .replace("  moves: {made_out: 0, made: 0, missed: 0, twist_made_out: 0, "
                             "twist_made: 0, twist_missed: -1}\n", ""))
    _, diags = check_file(path, strict=True)
    assert [d.message for d in diags if d.severity == "error"] == [
        "space 2 is a twist space, and the board has no twist deck (board.twist_phases)"]


def test_a_twist_deck_that_does_not_read_is_said_once_not_as_no_deck(tmp_path):
    # its only phrase refused, the board was also told it "has no twist deck" at every
    # twist space (9 errors beside the one that says what is wrong)
    path = tmp_path / "bad-deck.yaml"
    path.write_text(BAD.replace("name: bad-board", "name: bad-deck")
                    .replace("  spaces: [twist, 1, 2, 5, twist]\n", "  spaces: [1, twist, 3]\n")
                    .replace('["1 run of 13", "1 sett of 3"]', '["1 sett of 3"]')
                    .replace("  moves: {made_out: 0, made: 0, missed: 0, twist_made_out: 0, "
                             "twist_made: 0, twist_missed: -1}\n", ""))
    _, diags = check_file(path, strict=True)
    errors = [d.message for d in diags if d.severity == "error"]
    assert len(errors) == 1 and errors[0].startswith("twist phase 1: expected"), errors


def test_reaching_the_end_by_hand_on_a_five_space_board():
    spaces = (1, 2, TWIST, 3, 4)
    # the printed moves reach the end
    assert Board(spaces, ()).reaches_end()
    # only a twist made moves forward (+2), from space 3: the start never moves on
    stuck = Moves(made_out=0, made=0, missed=0, twist_made_out=2, twist_made=2, twist_missed=0)
    assert not Board(spaces, (), stuck).reaches_end()
    # a miss moves 1 everywhere but the start (which needs its phase): 0 made, so never
    assert not Board(spaces, (), Moves(0, 0, 1, 0, 0, 0), start_needs_phase=True).reaches_end()
    # the printed rules' reading: a miss moves the start pawn too, 1 space a hand: 4 hands
    assert Board(spaces, (), Moves(0, 0, 1, 0, 0, 0), start_needs_phase=False).reaches_end()
    m = Moves()
    assert [m.of(True, True, False), m.of(True, False, False), m.of(False, False, False)] == [3, 2, 1]
    assert [m.of(True, True, True), m.of(True, False, True), m.of(False, False, True)] == [6, 4, -1]


def test_the_board_is_drawn_as_a_track_that_snakes_down():
    from phasedsl.design.svgchart import board_track

    svg = board_track((1, TWIST, 2, TWIST, 3), {1: "2 sets of 3", 2: "1 run of 7"}, per_row=3)
    assert svg.count("<rect") == 5 and svg.count("<line") == 4
    assert "space 1: phase 1 (2 sets of 3), start" in svg and "space 5: phase 3, finish" in svg
    assert svg.count(">T</text>") == 2
    # the second row runs right to left: space 4 sits under space 3, space 5 under space 2
    import re

    xs = {int(n): float(x) for x, n in re.findall(r'<rect x="([\d.]+)".*?>(\d+)</text>', svg)}
    assert xs[4] == xs[3] and xs[5] == xs[2]


def test_the_report_of_a_board_pack_draws_its_board(tmp_path):
    # Twist's board on the printed phases (whose exact dealt chances the other tests share:
    # Twist's own take a minute to work out cold)
    twist = (Path(__file__).parents[1] / "variants" / "twist.yaml").read_text()
    pack = tmp_path / "board.yaml"
    pack.write_text("name: board\ntitle: t\ndescription: d\nsource: s\nextends: original\n"
                    + twist[twist.index("\nboard:") + 1:])
    out = tmp_path / "twist.html"
    r = runner.invoke(app, ["report", str(pack), "-o", str(out), "--games", "2"])
    assert r.exit_code == 0, r.output
    page = out.read_text()
    assert 'aria-label="The board"' in page and page.count(">T</text>") == 9
    assert "Twist deck: 1 run of 9; 2 sets of 5" in page
    assert "In play (" in page and "spaces gained a hand" in page  # how the board played


# ---------------------------------------------------------------- the race, checked by hand

FIVE = Board((1, 2, TWIST, 3, 4), ())


def test_moves_on_a_five_space_board_by_hand():
    from phasedsl.model.board import moved

    b = Board(FIVE.spaces, (), Moves(), start_needs_phase=True)
    assert moved(b, 1, False, False, False) == 1  # the start needs its phase
    assert moved(b, 1, True, False, False) == 3  # made: 2
    assert moved(b, 1, True, True, False) == 4  # made and out: 3
    assert moved(b, 2, False, False, False) == 3  # a miss: 1
    assert moved(b, 3, True, True, True) == 5  # a twist card made and out: 6, stops at the end
    assert moved(b, 3, False, False, True) == 2  # a twist card missed: back 1
    assert moved(b, 5, False, False, False) == 5  # the last space: a miss does not move
    printed = Board(FIVE.spaces, (), Moves(), start_needs_phase=False)
    assert moved(printed, 1, False, False, False) == 2  # the printed rules: always 1


def test_a_race_is_checked_attempt_by_attempt():
    from phasedsl.model.board import Attempt, check_race, choices
    from phasedsl.model.phase import Phase

    phases = tuple(Phase.parse(t) for t in ("2 sets of 3", "1 run of 7", "7 cards of one color",
                                            "2 sets of 4"))
    b = Board((1, 2, TWIST, 3, 4), (Phase.parse("1 run of 9"),))
    assert choices(b, phases, 3) == (("1 run of 9", True), ("1 run of 7", False),
                                     ("7 cards of one color", False))
    race = [Attempt(1, "ann", 1, "2 sets of 3", False, True, True, 4),
            Attempt(1, "bob", 1, "2 sets of 3", False, False, False, 1),
            Attempt(2, "ann", 4, "7 cards of one color", False, True, False, 5),
            Attempt(2, "bob", 1, "2 sets of 3", False, True, False, 3),
            Attempt(3, "ann", 5, "2 sets of 4", False, True, False, 5)]
    assert check_race(b, phases, ("ann", "bob"), race) is None
    assert race[0].to_json() == {"hand": 1, "player": "ann", "from": 1, "phase": "2 sets of 3",
                                 "twist": False, "made": True, "out": True, "to": 4}
    wrong = [*race[:3], Attempt(2, "bob", 1, "2 sets of 3", False, True, False, 4)]
    assert check_race(b, phases, ("ann", "bob"), wrong) == (
        3, "a pawn on space 1 that made its phase moves to space 3, not 4")
    twist_off = [Attempt(1, "ann", 1, "1 run of 9", True, True, False, 5)]
    assert check_race(b, phases, ("ann", "bob"), twist_off)[1] == \
        "on space 1 the phase is 2 sets of 3"
    same_hand = [*race, Attempt(3, "bob", 3, "1 run of 9", True, True, False, 5)]
    assert check_race(b, phases, ("ann", "bob"), same_hand) is None  # the hand is played out
    after = [*same_hand, Attempt(4, "bob", 5, "2 sets of 4", False, True, False, 5)]
    assert check_race(b, phases, ("ann", "bob"), after)[1].startswith("the race is over")
    moved_badly = [Attempt(1, "ann", 2, "1 run of 7", False, True, False, 4)]
    assert check_race(b, phases, ("ann", "bob"), moved_badly)[1] == \
        "ann's pawn stands on space 1, not 2"


def test_a_board_whose_spaces_the_schema_refuses_is_said_at_its_line_not_a_traceback(tmp_path):
    # the schema leaves refused spaces out, and the board's checks ran on a board of no
    # spaces: an IndexError from reaches_end instead of the schema's message
    for spaces, said in (("[]", "give at least 2 items"), ("[1]", "give at least 2 items"),
                         ("[1, true, 2]", "true is not one of: twist"),
                         ("[0, 1, 2]", "0 is too small"), ("", "expected a list")):
        path = tmp_path / "no-track.yaml"
        path.write_text("name: no-track\ntitle: T\ndescription: D\nsource: S\nextends: original\n"
                        f"board:\n  spaces: {spaces}\n")
        _, diags = check_file(path, strict=True)
        assert any(d.line == 7 and said in d.message for d in diags), (spaces, diags)
        r = runner.invoke(app, ["lint", str(path)])
        assert r.exit_code == 1 and said in r.output, r.output
        assert not any(isinstance(r.exception, t) for t in (IndexError, TypeError))
    assert not Board((), ()).reaches_end()
