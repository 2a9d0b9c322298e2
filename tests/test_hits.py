import pytest

from phasedsl import Card, LayoutError, parse_cards
from phasedsl.api import laid_group
from phasedsl.hits import plan, targets
from phasedsl.rules import Rules

RUN = laid_group("run: R4 R5 W=6 R7")
SET = laid_group("set: B9 G9 W")
TOP = laid_group("run: R9 R10 R11 R12")
FULL = laid_group("run: " + " ".join(f"R{n}" for n in range(1, 13)))


def where(card, groups, rules=None):
    rules = rules or Rules()
    return [(h.group, h.end) for h in targets(groups, Card.parse(card), rules)]


def test_naturals_extend_runs_at_either_end():
    assert where("R3", [RUN]) == [(0, "low")]
    assert where("B8", [RUN]) == [(0, "high")]
    assert where("R6", [RUN]) == []


def test_runs_never_pass_the_deck_numbers():
    assert where("R12", [TOP]) == []
    assert where("W", [FULL]) == []
    assert where("R1", [laid_group("run: R1 R2 R3 R4")]) == []


def test_a_wild_may_go_at_either_open_end_the_preferred_one_first():
    # Issue 7 item 2: both ends are legal (was: the high end only); wild_hit_end
    # only orders them.
    assert where("W", [RUN]) == [(0, "high"), (0, "low")]
    assert [h.stands for h in targets([RUN], Card.parse("W"))] == [8, 3]
    assert where("W", [TOP]) == [(0, "low")]
    assert where("W", [RUN], Rules(wild_hit_end="low")) == [(0, "low"), (0, "high")]


def test_sets_colors_parities():
    assert where("R9", [SET]) == [(0, None)]
    assert where("R8", [SET]) == []
    assert where("R2", [laid_group("color: R1 R5 R9 W")]) == [(0, None)]
    assert where("B2", [laid_group("color: R1 R5 R9 W")]) == []
    assert where("Y4", [laid_group("even_odd: R2 B6 G8")]) == [(0, None)]
    assert where("Y5", [laid_group("even_odd: R2 B6 G8")]) == []
    assert where("R3", [laid_group("color_run: R4 R5 R6")]) == [(0, "low")]
    assert where("B3", [laid_group("color_run: R4 R5 R6")]) == []
    assert where("S", [RUN, SET]) == []


def test_several_cards_in_a_working_order():
    p = plan([RUN, SET], parse_cards("R2 R3 G9 W"))
    assert p.complete
    order = [str(h.card) for h in p.hits if h.group == 0]
    assert order.index("R3") < order.index("R2")


def test_cards_that_fit_nowhere_are_left():
    p = plan([RUN], parse_cards("R3 B11"))
    assert [str(c) for c in p.left] == ["B11"]


def test_utah_wild_swap():
    assert where("B6", [RUN]) == []
    hits = targets([RUN], Card.parse("B6"), Rules(wild_swap=True))
    assert hits and hits[0].swap is not None and hits[0].end == "high"


def test_illegal_laid_group_is_an_input_error():
    with pytest.raises(LayoutError, match="not legal"):
        targets([laid_group("run: R4 R9 R5")], Card.parse("R3"))
    with pytest.raises(LayoutError, match="KIND: CARDS"):
        laid_group("R4 R5 R6")
