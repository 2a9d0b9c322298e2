import random

from reference import can_make, card_tuple

from phasedsl import STANDARD_DECK, Phase, parse_cards
from phasedsl.melds.scoring import score
from phasedsl.model.outs import outs, shortfall, unseen_counts


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


# --------------------------------------------------------------- short_by and outs by brute force

def _brute_phases():
    from test_solver import PHASES, RULESETS

    return [(p, r, kw) for p in PHASES[:12] for r, kw in RULESETS[:3]]


def test_short_by_and_outs_agree_with_brute_force_on_random_and_near_miss_hands():
    """The fewest missing cards and every single card that completes, against the reference:
    one short exactly when some unseen card completes it (each card tried), and an example
    that really completes it whenever the answer says it does."""
    from test_solver import DECK, near_miss_hand, ref_groups

    rng = random.Random(2026)
    cases = _brute_phases()
    for i in range(150):
        phrase, rules, kw = cases[i % len(cases)]
        p = Phase.parse(phrase)
        groups = ref_groups(p)
        hand = near_miss_hand(rng, rng.randint(4, 8)) if i % 2 else rng.sample(DECK, rng.randint(3, 8))
        sf = shortfall(p, hand, rules)
        tuples = [card_tuple(c) for c in hand]
        made = can_make(groups, tuples, **kw)
        assert (sf.missing == 0) == made, (phrase, hand)
        if made:
            continue
        pool = unseen_counts(hand, (), rules)
        singles = {str(c) for c in pool if can_make(groups, [*tuples, card_tuple(c)], **kw)}
        assert {str(o.card) for o in sf.outs} == singles, (phrase, hand)
        assert (sf.missing == 1) == bool(singles), (phrase, hand, sf.missing)
        if sf.possible and sf.missing > 1:
            assert len(sf.example) == sf.missing
            assert can_make(groups, [*tuples, *map(card_tuple, sf.example)], **kw), (phrase, hand)
        if sf.missing == 2 and sf.possible:
            continue  # no single card, and two that do: exact
        # more than two short: no two cards at all may complete it (checked on a sample)
        if sf.missing > 2 and i % 5 == 0:
            kinds = list(pool)
            for a in range(len(kinds)):
                for b in range(a, len(kinds)):
                    extra = [card_tuple(kinds[a]), card_tuple(kinds[b])]
                    assert not can_make(groups, [*tuples, *extra], **kw), (phrase, hand)


def test_a_phase_of_wild_and_skip_parts_under_a_per_phase_natural_minimum_is_never_made():
    # find and verify say such a phase holds no natural; shortfall said "made" (0 short)
    from phasedsl import Rules, find

    rules = Rules(natural_scope="phase")
    for phrase, hand in (("2 wilds", "W W R6"), ("2 skips", "S B2")):
        p = Phase.parse(phrase)
        assert find(p, parse_cards(hand), rules) is None
        sf = shortfall(p, parse_cards(hand), rules)
        assert sf.missing > 0 and sf.never and "only wild and skip parts" in sf.never
    assert shortfall(Phase.parse("2 wilds"), parse_cards("W W"),
                     Rules(natural_scope="phase", min_naturals=0)).missing == 0


def test_a_color_map_run_no_one_color_window_fits_is_never_made():
    from phasedsl import Rules, find

    p = Phase.parse("2 runs of 4 with colors {3: red or blue, 4: any, 5: green, 6: any, "
                    "7: red or yellow, 8: blue, 9: any} + 2 wilds + 2 skips")
    rules = Rules(runs_one_color=True)
    hand = parse_cards("W W S W B3 Y4 Y6 G6 W W B6 B4 S W")
    assert find(p, hand, rules) is None  # raised ValueError (max of no classes)
    sf = shortfall(p, hand, rules)
    assert sf.never and "one color" in sf.never
    assert find(p, hand) is not None  # without the one-color rule it is made


def test_a_wild_is_an_out_of_a_wild_part_under_the_postal_rule():
    from phasedsl import WILD, Rules

    rules = Rules(wild_numbers=frozenset({3}))
    sf = shortfall(Phase.parse("1 wild"), parse_cards("G2 S Y11"), rules)
    assert sf.missing == 1
    assert {str(o.card) for o in sf.outs} == {"R3", "B3", "G3", "Y3", "W"}
    assert WILD in [o.card for o in outs(Phase.parse("1 wild"), parse_cards("G2 S Y11"), rules)]


def test_the_example_of_a_hand_one_short_is_a_card_that_completes_it():
    # postal 5s and 9s, two naturals per group: the counted example was a wild, which
    # cannot give the run the natural it lacks, and the text named the wrong groups
    from phasedsl import Rules, find

    rules = Rules(wild_numbers=frozenset({9, 5}), min_naturals=2)
    p = Phase.parse("1 run of 4 + 1 color set of 2 + 2 wilds")
    hand = parse_cards("W W G3 W R10 B7 B7 W")
    sf = shortfall(p, hand, rules)
    assert sf.missing == 1 and sf.possible
    assert find(p, [*hand, *sf.example], rules) is not None
    assert sf.example[0] in {o.card for o in sf.outs}
    assert "W" not in {str(o.card) for o in sf.outs}
