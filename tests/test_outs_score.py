import random

from reference import can_make, card_tuple

from phasedsl import STANDARD_DECK, Phase, parse_cards
from phasedsl.outs import outs, shortfall, unseen_counts
from phasedsl.scoring import score


def test_one_card_short_names_the_outs():
    p = Phase.parse("1 run of 4")
    sf = shortfall(p, parse_cards("R3 B4 G5 Y9 Y10 S"))
    assert sf.missing == 1
    assert sf.summary(p) == "1 card short: any 2, any 6 or a wild completes 1 run of 4"


def test_outs_agree_with_brute_force():
    rng = random.Random(7)
    deck = STANDARD_DECK.all_cards()
    p = Phase.parse("1 set of 3 + 1 run of 4")
    groups = [(g.kind.value, g.size, None) for g in p.groups]
    for _ in range(15):
        hand = rng.sample(deck, 9)
        got = {str(o.card) for o in outs(p, hand)}
        pool = unseen_counts(hand)
        expect = {str(c) for c in pool
                  if can_make(groups, [card_tuple(x) for x in [*hand, c]])}
        assert got == expect


def test_shortfall_is_minimal():
    p = Phase.parse("2 sets of 3")
    assert shortfall(p, parse_cards("R1 R2 R3 R4")).missing == 4
    assert shortfall(p, parse_cards("R1 B1 R2 B2")).missing == 2
    assert shortfall(p, parse_cards("R1 B1 G1 R2 B2 G2")).missing == 0
    sf = shortfall(Phase.parse("2 skips + 1 set of 2"), parse_cards("S R5 B5"))
    assert sf.missing == 1 and [str(c) for c in sf.example] == ["S"]


def test_seen_cards_are_not_outs():
    p = Phase.parse("1 set of 3")
    hand = parse_cards("R7 B7")
    seen = parse_cards("R7 B7 G7 G7 Y7 Y7 " + "W " * 8)
    assert outs(p, hand, seen=seen) == []


def test_score():
    assert score(parse_cards("R5 B12 W S G9 Y10")) == 5 + 10 + 25 + 15 + 5 + 10
    assert score([]) == 0


def test_a_phase_no_hand_can_make_says_so():
    from phasedsl import Rules

    rules = Rules(min_naturals=3)
    sf = shortfall(Phase.parse("1 color set of 3"), parse_cards("R5"), rules)
    assert sf.never and "cannot be made" in sf.summary(Phase.parse("1 color set of 3"), rules)


def test_examples_keep_set_numbers_apart_when_sets_must_differ():
    from phasedsl import Rules, find

    rules = Rules(sets_share_number=False)
    p = Phase.parse("1 color set of 2 + 1 set of 3")
    hand = parse_cards("W B1")
    sf = shortfall(p, hand, rules)
    assert sf.missing == 3 and sf.possible
    assert find(p, [*hand, *sf.example], rules) is not None
