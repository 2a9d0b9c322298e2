import random
from collections.abc import Callable
from functools import partial
from operator import attrgetter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from randphase import WORST_CASES, random_cases, random_phase
from reference import can_make, card_tuple

from phasedsl import STANDARD_DECK, Card, Phase, load_pack, parse_cards
from phasedsl.melds.layout import verify
from phasedsl.model.group import Kind
from phasedsl.model.rules import Rules
from phasedsl.solver import SearchLimit, find

OKIE = ("1 run of 9 with colors {1: red or blue, 2: any, 3: green or yellow, 4: any, "
        "5: red or yellow, 6: any, 7: green or blue, 8: any, 9: green or red, 10: any, "
        "11: blue or yellow}")

# At least one phase per kind, and the mixes where groups compete for cards.
PHASES = [
    "2 sets of 3", "1 set of 3 + 1 run of 4", "1 run of 7", "2 runs of 4", "2 sets of 4",
    "7 cards of one color", "1 set of 5 + 1 set of 2", "1 run of 5 + 1 set of 3",
    "1 color run of 4 + 1 set of 4", "1 color even or odd of 3 + 1 color even or odd of 4",
    "1 even or odd of 8", "1 even or odd of 4 + 1 set of 3",
    "3 cards of one color + 3 cards of one color + 4 cards of one color",
    "2 color sets of 2 + 1 set of 2 + 1 wild + 1 color run of 3", "1 color set of 3 + 2 skips",
    "3 sets of 2 + 1 run of 3", "4 cards of one color + 1 set of 5", "1 color run of 5 + 2 sets of 2",
    OKIE,
]

RULESETS = [
    (Rules(), {}),
    (Rules(natural_scope="phase"), {"scope": "phase"}),
    (Rules(sets_share_number=False), {"share": False}),
    (Rules(min_naturals=2), {"min_nat": 2}),
]

DECK = STANDARD_DECK.all_cards()


def ref_groups(phase):
    return [(g.kind.value, g.size, {n: set(cs) for n, cs in g.colors} if g.colors else None)
            for g in phase.groups]


def near_miss_hand(rng: random.Random, size: int) -> list[Card]:
    """A hand crowded into few numbers and colors, so it often lands one card off."""
    lo = rng.randint(1, 8)
    nums = range(lo, lo + rng.randint(3, 5))
    colors = rng.sample("RBGY", rng.randint(1, 2))
    crowd = [i for i, c in enumerate(DECK) if c.natural and c.number in nums and c.color in colors]
    specials = [i for i, c in enumerate(DECK) if not c.natural][: rng.randint(0, 12)]
    pool = sorted({*crowd, *specials, *rng.sample(range(len(DECK)), 6)})
    return [DECK[i] for i in rng.sample(pool, min(size, len(pool)))]


@pytest.mark.parametrize("phrase", PHASES)
def test_find_agrees_with_brute_force(phrase):
    phase = Phase.parse(phrase)
    groups = ref_groups(phase)
    rng = random.Random(phrase)
    made = 0
    for i in range(140):
        size = rng.choice([8, 10, 11, 12])
        hand = near_miss_hand(rng, size) if i % 2 else rng.sample(DECK, size)
        for rules, kw in RULESETS:
            got = find(phase, hand, rules)
            expect = can_make(groups, [card_tuple(c) for c in hand], **kw)
            assert (got is not None) == expect, (phrase, kw, " ".join(map(str, hand)))
            if got is not None:
                made += 1
                v = verify(phase, [list(g.cards) for g in got.groups], rules, hand=hand)
                assert v.valid, (phrase, kw, str(got), v.problems)
    assert made > 0


def test_classic_examples():
    p = Phase.parse("1 set of 3 + 1 run of 4")
    meld = find(p, parse_cards("R5 B5 G7 G8 G10 W W Y2"))
    assert [[str(c) for c in g.cards] for g in meld.groups] == [["R5", "B5", "W=5"],
                                                                ["G7", "G8", "W=9", "G10"]]
    # Runs never wrap and a wild never stands for 13.
    assert find(Phase.parse("1 run of 4"), parse_cards("R10 R11 R12 R1")) is None
    assert str(find(Phase.parse("1 run of 4"), parse_cards("R10 R11 R12 W"))) == "W=9 R10 R11 R12"
    # Skips are never part of a group.
    assert find(Phase.parse("7 cards of one color"), parse_cards("R1 R2 R3 R4 R5 R6 S")) is None
    # One natural per group by default; per phase as an option.
    hand = parse_cards("R5 W W W W W")
    assert find(Phase.parse("2 sets of 3"), hand) is None
    assert find(Phase.parse("2 sets of 3"), hand, Rules(natural_scope="phase")) is not None


def test_greedy_trap():
    """A checker that gives the run the only 5 leaves the set without a natural card."""
    p = Phase.parse("1 set of 2 + 1 run of 4")
    hand = parse_cards("R5 G3 G4 G6 W W")
    meld = find(p, hand)
    assert meld is not None
    assert verify(p, [list(g.cards) for g in meld.groups], hand=hand).valid
    assert find(p, parse_cards("R5 G3 G4 G6 W")) is None
    assert verify(p, [list(g.cards) for g in meld.groups], hand=hand).valid


@pytest.mark.parametrize(
    ("phrase", "hand", "rules"),
    [
        ("2 sets of 3", "R10 B10 G10 Y10 R10 B10", Rules(sets_share_number=False)),
        ("1 run of 4", "R1 B2 R3 R4", Rules(runs_one_color=True)),
    ],
)
def test_rule_options_that_refuse_a_default_meld(phrase, hand, rules):
    p, cards = Phase.parse(phrase), parse_cards(hand)
    assert find(p, cards) is not None
    assert find(p, cards, rules) is None


def test_postal_wild_numbers():
    p = Phase.parse("2 sets of 3")
    hand = parse_cards("R1 B1 G7 Y7 R9 B9")
    assert find(p, hand) is None
    meld = find(p, hand, Rules(wild_numbers=frozenset({1})))
    assert meld is not None
    assert sorted(map(str, meld.cards())) == sorted(map(str, hand))


def test_huge_hand_is_fast_and_exact():
    hand = DECK * 50  # 5,400 cards
    meld = find(Phase.parse("1 run of 12 + 2 color sets of 3 + 7 cards of one color"), hand)
    assert meld is not None


hands = st.lists(st.integers(0, len(DECK) - 1), min_size=4, max_size=14, unique=True).map(
    lambda idx: [DECK[i] for i in idx])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(PHASES), hands, st.sampled_from(RULESETS))
def test_verify_of_find_is_always_legal(phrase, hand, ruleset):
    rules = ruleset[0]
    phase = Phase.parse(phrase)
    meld = find(phase, hand, rules)
    if meld is not None:
        v = verify(phase, [list(g.cards) for g in meld.groups], rules, hand=hand)
        assert v.valid, v.problems
        # the meld lists groups in the phase's written order
        assert [g.group for g in meld.groups] == list(phase.groups)


# ---------------------------------------------------------------------------
# Bounded worst case: phases of up to ten groups, hands of up to 108 cards.

def fits(kind: Kind, first: Card, c: Card, number: int | None = None) -> bool:
    """Whether natural ``c`` joins ``first`` in a group of this kind (for a run, at ``number``)."""
    if not c.natural:
        return False
    same_color = c.color == first.color
    same_parity = c.number % 2 == first.number % 2
    return {
        Kind.SET: c.number == first.number,
        Kind.COLOR_SET: c.number == first.number and same_color,
        Kind.COLOR: same_color,
        Kind.EVEN_ODD: same_parity,
        Kind.COLOR_EVEN_ODD: same_parity and same_color,
        Kind.RUN: c.number == number,
        Kind.COLOR_RUN: c.number == number and same_color,
    }[kind]


def witness_hand(rng: random.Random, phase: Phase, extra: int) -> list[Card] | None:
    """Cards that lay out the phase (one random legal group after another) plus random
    extra cards; None when the draw runs out of fitting cards."""
    pool = list(DECK)
    rng.shuffle(pool)

    def draw(want: Callable[[Card], bool]) -> Card | None:
        for i, c in enumerate(pool):
            if want(c):
                return pool.pop(i)
        return None

    hand: list = []
    for g in phase.groups:
        if g.kind is Kind.WILD or g.kind is Kind.SKIP:
            hand += [draw(attrgetter(g.kind.value)) for _ in range(g.size)]
            continue
        first = draw(attrgetter("natural"))
        hand.append(first)
        if g.kind.is_run:
            n = first.number
            start = rng.randint(max(1, n - g.size + 1), n)
            if start + g.size - 1 > 12:
                return None
            wanted = [m for m in range(start, start + g.size) if m != n]
        else:
            wanted = [None] * (g.size - 1)
        for m in wanted:
            hand.append(draw(partial(fits, g.kind, first, number=m)) or draw(attrgetter("wild")))
    if None in hand:
        return None
    return hand + pool[:extra]


def assert_exact(phase: Phase, hand, rules: Rules, expect: bool | None = None) -> bool:
    got = find(phase, hand, rules)
    if expect is not None:
        assert (got is not None) == expect, (str(phase), " ".join(map(str, hand)))
    if got is not None:
        v = verify(phase, [list(g.cards) for g in got.groups], rules, hand=hand)
        assert v.valid, (str(phase), str(got), v.problems)
        assert [g.group for g in got.groups] == list(phase.groups)
    return got is not None


@pytest.mark.parametrize(("phrase", "hand", "made"), WORST_CASES)
def test_worst_cases_answer(monkeypatch, phrase, hand, made):
    # Within the search's steps, the clock out of the way: how long they take is the
    # benchmarks' question (bench_find.py); a loaded machine (the suite on two cores
    # beside other work) ran one past the 1.5 s and failed the suite.
    from phasedsl.solver import budget

    monkeypatch.setattr(budget, "SEARCH_SECONDS", 3600.0)
    assert_exact(Phase.parse(phrase), hand, Rules(), made)


@pytest.mark.parametrize(("limit", "value", "said"), [
    ("SEARCH_STEPS", 500, "gave up after 500 search steps"),
    ("SEARCH_SECONDS", 0, "gave up after 0 s"),
])
def test_a_search_out_of_budget_is_a_labelled_error_not_a_hang(monkeypatch, limit, value, said):
    from phasedsl.solver import budget

    phrase, hand, _ = WORST_CASES[-1]  # one the search settles in thousands of steps
    monkeypatch.setattr(budget, limit, value)
    with pytest.raises(SearchLimit, match=said):
        find(Phase.parse(phrase), hand)


def test_seeded_random_search_answers():
    """The benchmark's worst-case search: every answer valid, none out of reach."""
    made = 0
    for phase, hand in random_cases(2026, 300, 60):
        made += assert_exact(phase, hand, Rules())
    assert made > 40


def test_random_phases_small_hands_agree_with_brute_force():
    rng = random.Random(808)
    made = 0
    for i in range(160):
        phase = random_phase(rng, 10, 4)
        size = rng.randint(10, 12)
        hand = near_miss_hand(rng, size) if i % 2 else rng.sample(DECK, size)
        rules, kw = rng.choice(RULESETS)
        expect = can_make(ref_groups(phase), [card_tuple(c) for c in hand], **kw)
        made += assert_exact(phase, hand, rules, expect)
    assert made > 10


def test_random_phases_big_hands():
    """100-card hands: each holds a laid-out phase, so each must be made; and a hand
    made from part of another is made from all of it."""
    rng = random.Random(909)
    tried = 0
    while tried < 60:
        phase = random_phase(rng, 10, 6)
        hand = witness_hand(rng, phase, 100)
        if hand is None:
            continue
        hand = hand[:100] if len(hand) > 100 else hand
        tried += 1
        assert_exact(phase, hand, Rules(), True)
        sub = rng.sample(hand, 12)
        if assert_exact(phase, sub, Rules()):
            assert find(phase, sub + rng.sample(DECK, 20)) is not None


# ---------------------------------------------------------------------------
# The ten classic phases (most of real play, answered by closed forms) under
# every rule option that changes what a meld is.

CLASSIC = [e.text for e in load_pack("original").worlds[0].phases]
CLASSIC_RULES = [
    *RULESETS,
    (Rules(wild_numbers=frozenset({1})), {"postal": {1}}),
    (Rules(wild_numbers=frozenset({5, 6}), min_naturals=2), {"postal": {5, 6}, "min_nat": 2}),
    (Rules(runs_one_color=True), {"one_color": True}),
    (Rules(sets_share_number=False, natural_scope="phase"), {"share": False, "scope": "phase"}),
]


def ref_can_make(phase: Phase, hand, postal=(), one_color=False, **kw) -> bool:
    """The reference, with runs played one color and wild-number cards played either way."""
    groups = [("color_run" if one_color and k == "run" else k, size, cs)
              for k, size, cs in ref_groups(phase)]
    cards = [card_tuple(c) for c in hand]
    flex = [i for i, c in enumerate(cards) if c[0] == "n" and c[1] in postal]
    for mask in range(1 << len(flex)):
        tried = list(cards)
        for b, i in enumerate(flex):
            if mask >> b & 1:
                tried[i] = ("w", 0, "")
        if can_make(groups, tried, **kw):
            return True
    return False


@pytest.mark.parametrize("phrase", CLASSIC)
def test_classic_phases_agree_with_brute_force_under_rule_options(phrase):
    phase = Phase.parse(phrase)
    rng = random.Random("classic " + phrase)
    made = 0
    for i in range(90):
        size = rng.choice([10, 11, 12])
        hand = near_miss_hand(rng, size) if i % 3 else rng.sample(DECK, size)
        for rules, kw in CLASSIC_RULES:
            made += assert_exact(phase, hand, rules, ref_can_make(phase, hand, **kw))
    assert made > 0


def test_equal_phases_share_their_layout_and_keep_their_written_order():
    from phasedsl.solver import search as solver

    rules = Rules()
    assert solver.layout_for(Phase.parse("1 set of 3 + 1 run of 4"), rules) is \
        solver.layout_for(Phase.parse("1 set of 3 + 1 run of 4"), rules)
    assert solver.layout_for(Phase.parse("2 sets of 3"), rules) is \
        solver.layout_for(Phase.parse("1 set of 3 + 1 set of 3"), rules)
    assert solver.layout_for(Phase.parse("2 sets of 3"), rules) is not \
        solver.layout_for(Phase.parse("2 sets of 3"), Rules(sets_share_number=False))
    hand = parse_cards("R5 B5 G5 G7 G8 G9 G10")
    for phrase in ("1 set of 3 + 1 run of 4", "1 run of 4 + 1 set of 3"):
        meld = find(Phase.parse(phrase), hand)
        assert [g.group for g in meld.groups] == list(Phase.parse(phrase).groups)
    # a stream of distinct phases does not grow the caches without bound
    for a in range(2, 13):
        for b in range(2, 13):
            for c in range(2, 10):
                find(Phase.parse(f"1 set of {a} + 1 set of {b} + 1 run of {c}"), hand)
    assert len(solver._BY_PARTS) <= solver._CACHE_SIZE
    assert len(solver._BY_GROUPS) <= solver._CACHE_SIZE
    assert len(solver._BY_OBJECTS) <= solver._CACHE_SIZE
