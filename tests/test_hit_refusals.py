"""A hit a laid group takes under no rule is refused naming the rule (issue 26, item 16):
a run of pairs (one card cannot add a number's two), a sum (any card changes its total), a
run of every number (no open end); in `hit` (text and --json), `hit_plan` and the
referee's `hit_does_not_fit`."""

import json

import pytest
from typer.testing import CliRunner

from phasedsl import hit_plan
from phasedsl.cli import app
from phasedsl.melds.hits import closed_groups, laid_group
from phasedsl.model.rules import Rules
from phasedsl.packs.pack import load_pack

runner = CliRunner()
PAIRS = "run of 3 pairs: R5 R5 R6 R6 R7 R7"
PAIRS_RULE = "a run of pairs grows only by two cards of one number, and a hit adds one card"


@pytest.mark.parametrize(("on", "card", "kind", "words"), [
    (PAIRS, "R8", "pair_run", PAIRS_RULE),
    (PAIRS, "W", "pair_run", PAIRS_RULE),
    ("run: R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12", "W", "run",
     "the run holds every number from 1 to 12: no end is open"),
    ("cards totalling 34: R12 B11 G10 Y1", "R3", "sum",
     "cards totalling 34 is complete, and any card would change its total"),
])
def test_hit_says_which_rule_refuses_the_group(on, card, kind, words):
    r = runner.invoke(app, ["hit", card, "--variant", "community-kinds", "--on", on])
    assert r.exit_code == 1
    assert f"group 1 takes no hits: {words}" in r.stdout
    r = runner.invoke(app, ["hit", card, "--variant", "community-kinds", "--on", on, "--json"])
    got = json.loads(r.stdout)
    assert got["hits"] == [] and got["left"] == [card]
    assert got["closed"] == [{"group": 1, "kind": kind, "reason": got["closed"][0]["reason"]}]
    assert words in got["closed"][0]["reason"]


def test_a_group_that_takes_some_card_is_not_called_closed():
    rules = load_pack("community-kinds").rules
    laid = [laid_group("run: R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12", rules),
            laid_group("set: B9 G9 W", rules), laid_group("4 cards over 8: R9 R10 R11 R12", rules)]
    assert closed_groups(laid, rules) == []


def test_hit_plan_says_why_a_card_is_left():
    rules = load_pack("community-kinds").rules
    p = hit_plan([PAIRS, "set: B9 G9 W"], "R8 B9", rules)
    assert [str(c) for c in p.left] == ["R8"]
    assert p.closed and p.closed[0][0] == 0 and PAIRS_RULE in p.closed[0][1]
    assert f"group 1 takes no hits: {PAIRS_RULE}" in str(p)
    # nothing left, nothing said
    assert hit_plan([PAIRS, "set: B9 G9 W"], "B9", rules).closed == ()


def test_a_take_back_is_said_beside_the_rule():
    rules = Rules(wild_take_back=True)
    laid = [laid_group("run of 3 pairs: R5 R5 R6 R6 W W", rules)]
    (_, why), = closed_groups(laid, rules)
    assert why.startswith(PAIRS_RULE) and "take back a laid wild (wilds.take_back)" in why


def test_the_referee_names_the_rule(tmp_path):
    from game_logs import deal, draw, game, hit, lay, lines, write_pack

    from phasedsl.game.log import replay

    pack = write_pack(tmp_path, "pairs", "extends: original\nphases:\n"
                      + "".join(f"  - \"{p}\"\n" for p in
                                ["1 run of 2 pairs + 1 set of 4"] + ["2 sets of 3"] * 9))
    events = [game(pack), deal(), draw("ann", "R1"), lay("ann", "R5 B5 W W", "R7 B7 G7 Y7")]
    ok = replay(lines(events), tmp_path)
    assert ok.legal, ok.error
    onto = replay(lines([*events, hit("ann", "G5", "ann", 1)]), tmp_path)
    assert not onto.legal and onto.error["rule"] == "hit_does_not_fit", onto.error
    assert PAIRS_RULE in onto.error["message"]
