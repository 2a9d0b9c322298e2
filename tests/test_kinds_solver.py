"""Over/under groups, runs of pairs and wrap-around runs (issue 19) in the solver: find,
verify, the shortfall and its outs, each against the brute-force reference, which knows
these kinds from their definitions only."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from reference import can_make, card_tuple

from phasedsl import STANDARD_DECK, Card, Deck, Phase, parse_cards
from phasedsl.melds.layout import verify
from phasedsl.model.rules import Rules
from phasedsl.solver import find, shortfall, unseen_counts

DECK = STANDARD_DECK.all_cards()

# Each new kind alone, with the classic kinds, and where two groups compete for cards.
PHASES = [
    "1 run of 3 pairs", "1 color run of 2 pairs", "4 cards over 8", "4 cards under 5",
    "1 run of 2 pairs + 1 set of 3", "1 run of 2 pairs + 1 run of 3", "3 cards over 8 + 1 set of 3",
    "2 groups of 3 under 5", "1 run of 2 pairs + 3 cards under 6 + 1 wild",
    "1 color run of 2 pairs + 1 color run of 3", "2 runs of 2 pairs", "1 run of 4 + 1 set of 3",
    "1 color run of 4 + 3 cards over 9", "2 runs of 3", "1 run of 1 pair + 2 cards over 10",
]

WRAP = Rules(runs_wrap=True)
RULESETS = [
    (Rules(), {}),
    (Rules(natural_scope="phase"), {"scope": "phase"}),
    (Rules(sets_share_number=False), {"share": False}),
    (Rules(min_naturals=2), {"min_nat": 2}),
    (WRAP, {"wrap": True}),
    (replace(WRAP, min_naturals=2, sets_share_number=False),
     {"wrap": True, "min_nat": 2, "share": False}),
    (replace(WRAP, natural_scope="phase"), {"wrap": True, "scope": "phase"}),
]


def ref_groups(phase: Phase, one_color: bool = False) -> list[tuple]:
    out = []
    for g in phase.groups:
        kind = g.kind.value
        if one_color and kind in ("run", "pair_run"):
            kind = "color_" + kind
        out.append((kind, g.size, {n: set(cs) for n, cs in g.colors} if g.colors else None,
                    g.bound))
    return out


def near_miss_hand(rng: random.Random, size: int) -> list[Card]:
    """A hand crowded into a few numbers in a row (often across 12 and 1) and colors."""
    lo = rng.randint(1, 12)
    nums = {(lo - 1 + i) % 12 + 1 for i in range(rng.randint(3, 5))}
    colors = rng.sample("RBGY", rng.randint(1, 2))
    crowd = [i for i, c in enumerate(DECK) if c.natural and c.number in nums and c.color in colors]
    specials = [i for i, c in enumerate(DECK) if not c.natural][: rng.randint(0, 10)]
    pool = sorted({*crowd, *specials, *rng.sample(range(len(DECK)), 6)})
    return [DECK[i] for i in rng.sample(pool, min(size, len(pool)))]


def check_find(phase: Phase, hand: list[Card], rules: Rules, kw: dict) -> bool:
    got = find(phase, hand, rules)
    expect = can_make(ref_groups(phase, rules.runs_one_color), [card_tuple(c) for c in hand], **kw)
    assert (got is not None) == expect, (str(phase), kw, " ".join(map(str, hand)))
    if got is not None:
        v = verify(phase, [list(g.cards) for g in got.groups], rules, hand=hand)
        assert v.valid, (str(phase), kw, str(got), v.problems)
    return expect


@pytest.mark.parametrize("phrase", PHASES)
def test_find_and_verify_agree_with_brute_force(phrase):
    phase = Phase.parse(phrase)
    rng = random.Random("kinds " + phrase)
    made = 0
    for i in range(60):
        size = rng.choice([8, 10, 11])
        hand = near_miss_hand(rng, size) if i % 2 else rng.sample(DECK, size)
        for rules, kw in RULESETS:
            made += check_find(phase, hand, rules, kw)
    assert made > 0


def test_runs_of_one_color_reach_runs_of_pairs():
    rules = Rules(runs_one_color=True)
    phase = Phase.parse("1 run of 2 pairs + 1 run of 3")
    rng = random.Random(19)
    for i in range(80):
        hand = near_miss_hand(rng, 10) if i % 2 else rng.sample(DECK, 10)
        check_find(phase, hand, rules, {})
    assert find(Phase.parse("1 run of 2 pairs"), parse_cards("R3 R3 R4 B4"), rules) is None
    assert find(Phase.parse("1 run of 2 pairs"), parse_cards("R3 R3 R4 R4")) is not None


def test_find_examples_say_what_each_wild_stands_for():
    assert str(find("1 run of 3 pairs", "R3 B3 R4 G4 Y5 W R9")) == "R3 B3 R4 G4 Y5 W=5"
    assert str(find("4 cards over 8", "R9 B12 W G10 R2")) == "R9 G10 B12 W"
    assert find("4 cards over 8", "R9 B12 W G8 R2") is None
    assert find("4 cards under 5", "R1 B4 Y4 G3") is not None
    # a run of pairs holds two cards of each number, never three
    assert find("1 run of 2 pairs", "R3 B3 G3 R4") is None
    assert str(find("1 run of 2 pairs", "R3 B3 G3 R4 W")) == "R3 B3 R4 W=4"


def test_wrap_around_runs_only_under_the_rule():
    hand = parse_cards("R11 B12 G1 Y2")
    assert find("1 run of 4", hand) is None
    assert str(find("1 run of 4", hand, WRAP)) == "R11 B12 G1 Y2"
    assert str(find("1 run of 3 pairs", "R12 B12 R1 G1 R2 W", WRAP)) == "R12 B12 R1 G1 R2 W=2"
    assert find("1 run of 3 pairs", "R12 B12 R1 G1 R2 W") is None
    assert str(find("1 color run of 3", "G12 G1 W", WRAP)) == "W=G11 G12 G1"
    # a wrapped run of 12 numbers is the whole circle: each number once, in any rotation
    circle = parse_cards("R5 R6 R7 R8 R9 R10 R11 R12 B1 B2 B3 B4")
    assert find("1 run of 12", circle, WRAP) is not None
    assert find("1 run of 12", [*circle[:11], Card(wild=True)], WRAP) is not None
    assert find("1 run of 12", [*circle[:11], circle[0]], WRAP) is None


def test_shortfall_and_outs_agree_with_brute_force():
    """One short exactly when some unseen card completes it (each card tried), the outs
    are those cards, and a longer shortfall's example really completes it."""
    rng = random.Random(1919)
    cases = [(p, r, kw) for p in PHASES for r, kw in RULESETS[:5]]
    for i in range(260):
        phrase, rules, kw = cases[rng.randrange(len(cases))]
        p = Phase.parse(phrase)
        groups = ref_groups(p)
        hand = near_miss_hand(rng, rng.randint(4, 8)) if i % 2 else rng.sample(DECK,
                                                                              rng.randint(3, 8))
        sf = shortfall(p, hand, rules)
        tuples = [card_tuple(c) for c in hand]
        made = can_make(groups, tuples, **kw)
        assert (sf.missing == 0) == made, (phrase, kw, hand)
        if made:
            continue
        pool = unseen_counts(hand, (), rules)
        singles = {str(c) for c in pool if can_make(groups, [*tuples, card_tuple(c)], **kw)}
        assert {str(o.card) for o in sf.outs} == singles, (phrase, kw, hand)
        assert (sf.missing == 1) == bool(singles), (phrase, kw, hand, sf.missing)
        if sf.possible and sf.missing > 1:
            assert len(sf.example) == sf.missing
            assert can_make(groups, [*tuples, *map(card_tuple, sf.example)], **kw), (
                phrase, kw, hand, sf.example)


def test_big_hands_stay_quick():
    """A whole deck against phases of many new groups: answered, with a legal meld."""
    import time

    rng = random.Random(7)
    for phrase in ("5 runs of 3 pairs + 2 groups of 4 over 8", "4 color runs of 3 pairs",
                   "6 runs of 2 pairs + 3 groups of 3 under 4", "3 runs of 6 + 3 runs of 4 pairs"):
        for rules in (Rules(), WRAP):
            hand = rng.sample(DECK, 60)
            t = time.monotonic()
            got = find(phrase, hand, rules)
            assert time.monotonic() - t < 5
            if got is not None:
                assert verify(phrase, [list(g.cards) for g in got.groups], rules, hand=hand).valid


def test_verify_agrees_with_the_definitions_on_random_layouts():
    """Seeded random layouts (often the meld find lays, shuffled, one card swapped out),
    judged by verify and by reference.layout_ok: every pairing, every reading of the cards
    of a wild number (postal), both natural scopes, shared set numbers or not, wrap or not."""
    from collections import Counter

    from reference import layout_ok
    from test_layout import random_layout

    phrases = ["1 run of 2 pairs", "1 run of 3 pairs", "1 color run of 2 pairs + 1 set of 2",
               "3 cards over 8", "2 groups of 2 under 4", "3 cards over 9 + 1 set of 2",
               "1 run of 2 pairs + 1 run of 3", "1 run of 4", "1 color run of 3 + 1 set of 2",
               "2 cards under 3 + 1 run of 1 pair"]
    rng = random.Random(2019)
    judged = legal = 0
    seen = Counter()
    while judged < 1500:
        share = rng.random() < 0.5
        scope = rng.choice(["group", "phase"])
        wrap = rng.random() < 0.5
        least = rng.choice([0, 1, 1, 2]) if scope == "group" else rng.choice([1, 2])
        lo = rng.randint(1, 12)
        nums = {(lo - 1 + i) % 12 + 1 for i in range(rng.randint(2, 6))}
        postal = frozenset(rng.sample(sorted(nums), 1)) if rng.random() < 0.4 else frozenset()
        rules = Rules(sets_share_number=share, natural_scope=scope, min_naturals=least,
                      wild_numbers=postal, runs_wrap=wrap)
        phase = Phase.parse(rng.choice(phrases))
        pool = [i for i, c in enumerate(DECK)
                if (c.wild and rng.random() < 0.3) or (c.natural and c.number in nums)]
        layout = random_layout(rng, phase, pool, 3, rules, real=0.6, swap=0.3)
        plain = Counter(c.plain() for g in layout for c in g)
        if any(k > STANDARD_DECK.supply(c) for c, k in plain.items()) or sum(
                k for c, k in plain.items() if c.natural and c.number in postal) > 7:
            continue  # the deck holds no such layout / the reference would take too long
        got = verify(phase, layout, rules)
        want = layout_ok(ref_groups(phase), [[card_tuple(c) for c in g] for g in layout],
                         postal=postal, min_nat=least, scope=scope, share=share, wrap=wrap)
        assert got.valid == want, (str(phase), [" ".join(map(str, g)) for g in layout], rules)
        if got.valid:  # the meld shown reads back as legal
            again = verify(phase, [list(g.cards) for g in got.meld.groups], rules)
            assert again.valid, (str(got.meld), again.problems)
        judged += 1
        legal += got.valid
        seen[wrap, got.valid] += 1
    assert len(seen) == 4 and min(seen.values()) > 100, seen


@pytest.mark.parametrize(("phrase", "cards", "rules", "rule"), [
    ("4 cards over 8", "R9 R2 W W", Rules(), "over_under"),
    ("4 cards under 5", "R1 W=7 W W", Rules(), "over_under"),
    ("1 run of 3 pairs", "R3 B3 R4 G4 Y5 Y5 Y5", Rules(), "pairs"),
    ("1 run of 3 pairs", "R3 R3 R3 R4 R5 R5", Rules(), "pairs"),
    ("1 run of 3 pairs", "R3 B3 R4 G4 Y7 W", Rules(), "consecutive"),
    ("1 color run of 2 pairs", "R3 R3 B4 R4", Rules(), "one_color"),
    ("1 run of 2 pairs", "R3 R3 B4 R4", Rules(runs_one_color=True), "one_color"),
    ("1 run of 4", "R11 R12 R1 R2", Rules(), "consecutive"),
    ("1 run of 4", "R11 R12 R1 R3", WRAP, "consecutive"),
    ("1 run of 2 pairs", "R12 B12 R1 W", Rules(), "consecutive"),
])
def test_each_broken_rule_has_its_code(phrase, cards, rules, rule):
    v = verify(phrase, [cards], rules)
    assert not v.valid and rule in [p.rule for p in v.problems], v.problems


def test_wrapped_layouts_read_back_in_run_order():
    assert str(verify("1 run of 4", ["R1 W R11 R12"], WRAP).meld) == "R11 R12 R1 W=2"
    assert str(verify("1 run of 4", ["R2 R1 R12 R11"], WRAP).meld) == "R11 R12 R1 R2"
    assert str(verify("1 run of 3 pairs", ["W R1 B12 G1 W R12"], WRAP).meld) == \
        "B12 R12 R1 G1 W=2 W=2"
    assert verify("1 run of 12", ["R5 R6 R7 R8 R9 R10 R11 R12 B1 B2 B3 B4"], WRAP).valid


SMALL = Deck(colors=("R", "B"), low=1, high=6, copies=1, wilds=2, skips=1)


@pytest.mark.parametrize(("phrase", "wrap"), [
    ("1 run of 2 pairs", False), ("1 run of 2 pairs", True), ("3 cards over 4", False),
    ("1 run of 1 pair + 2 cards under 4", False), ("1 run of 4", True),
    ("2 cards over 3 + 2 cards under 4", False), ("1 set of 2 + 1 run of 2 pairs", True),
])
def test_exact_odds_count_every_hand(phrase, wrap):
    """On a small deck, the exact figure is the count of every hand the reference makes."""
    from fractions import Fraction
    from itertools import combinations

    from phasedsl.design.odds import odds

    rules = Rules(deck=SMALL, hand_size=5, runs_wrap=wrap)
    phase = Phase.parse(phrase, SMALL)
    got = odds(phase, rules)
    assert got.method == "exact", got
    cards = SMALL.all_cards()
    groups = ref_groups(phase)
    made = sum(can_make(groups, [card_tuple(c) for c in hand], low=1, high=6, wrap=wrap)
               for hand in combinations(cards, 5))
    assert got.fraction == Fraction(made, sum(1 for _ in combinations(cards, 5)))


def test_lint_knows_the_new_pools_and_wrap():
    from phasedsl.packs.lint import phase_warnings

    def wilds_said(phrase: str, rules: Rules) -> list[str]:
        return [w for w in phase_warnings(Phase.parse(phrase), rules) if "wild" in w]

    # every window of a run of 9 in 1-12 holds 4-9, so nine runs need six wilds there;
    # wrapping, no number is in every window
    assert any("needs at least 6 wilds" in w for w in wilds_said("9 runs of 9", Rules()))
    assert wilds_said("9 runs of 9", WRAP) == []
    assert any("needs at least 4 wilds" in w and "hold at most 16 natural cards" in w
               for w in wilds_said("5 groups of 4 over 10", Rules()))
    assert wilds_said("4 groups of 4 over 10", Rules()) == []
    # five runs of 8 pairs: each of 5-8 is in every window, ten cards of each, eight held
    assert any("needs at least 8 wilds" in w for w in wilds_said("5 runs of 8 pairs", Rules()))
    assert wilds_said("5 runs of 8 pairs", WRAP) == []


def _random_mixed_phase(rng: random.Random) -> Phase:
    """One to three groups: a new kind beside classic ones (sizes kept small for the
    reference)."""
    from phasedsl.model.group import Group, Kind, Part

    parts = []
    for k in range(rng.randint(1, 3)):
        kind = rng.choice([Kind.PAIR_RUN, Kind.COLOR_PAIR_RUN, Kind.OVER, Kind.UNDER] if k == 0
                          else [Kind.SET, Kind.RUN, Kind.COLOR, Kind.COLOR_RUN, Kind.EVEN_ODD,
                                Kind.PAIR_RUN, Kind.OVER, Kind.UNDER, Kind.WILD])
        if kind.is_pair_run:
            g = Group(kind, 2 * rng.randint(1, 2))
        elif kind.is_bounded:
            g = Group(kind, rng.randint(2, 3), bound=rng.randint(3, 10))
        elif kind is Kind.WILD:
            g = Group(kind, 1)
        else:
            g = Group(kind, rng.randint(2, 3))
        parts.append(Part(1, g))
    return Phase(tuple(parts))


def test_random_mixed_phases_agree_with_brute_force():
    """Seeded random phases mixing the new kinds with the classic ones, on random and
    near-miss hands, under the rule options that matter (wrap among them)."""
    rng = random.Random(20261919)
    made = 0
    for i in range(300):
        phase = _random_mixed_phase(rng)
        rules, kw = RULESETS[i % len(RULESETS)]
        hand = near_miss_hand(rng, rng.randint(7, 10)) if i % 2 else rng.sample(DECK, 9)
        made += check_find(phase, hand, rules, kw)
    assert made > 20


def test_phases_differing_only_in_a_bound_do_not_share_a_layout():
    # the layout cache was keyed by kind and size alone: "over 10" reused "over 7"'s classes
    rules = Rules()
    hand = parse_cards("R8 B9 Y2")
    assert find(Phase.parse("2 cards over 7"), hand, rules) is not None
    assert find(Phase.parse("2 cards over 10"), hand, rules) is None
    assert find(Phase.parse("2 cards under 3"), hand, rules) is None
    assert find(Phase.parse("2 cards under 9"), hand, rules) is not None


def test_postal_wild_numbers_with_the_new_kinds_agree_with_brute_force():
    """Every card of a wild number played as itself or as a wild, by the reference; the
    solver's meld reads back as legal under the same rules."""
    rng = random.Random(5)
    for i in range(200):
        phase = Phase.parse(rng.choice(PHASES))
        postal = frozenset(rng.sample(range(1, 13), rng.choice([1, 2])))
        wrap = rng.random() < 0.5
        rules = Rules(wild_numbers=postal, runs_wrap=wrap, min_naturals=rng.choice([1, 2]))
        hand = near_miss_hand(rng, 9) if i % 2 else rng.sample(DECK, 9)
        cards = [card_tuple(c) for c in hand]
        flex = [j for j, c in enumerate(cards) if c[0] == "n" and c[1] in postal]
        expect = False
        for mask in range(1 << len(flex)):
            tried = list(cards)
            for b, j in enumerate(flex):
                if mask >> b & 1:
                    tried[j] = ("w", 0, "")
            if can_make(ref_groups(phase), tried, wrap=wrap, min_nat=rules.min_naturals):
                expect = True
                break
        got = find(phase, hand, rules)
        assert (got is not None) == expect, (str(phase), rules, " ".join(map(str, hand)))
        if got is not None:
            v = verify(phase, [list(g.cards) for g in got.groups], rules, hand=hand)
            assert v.valid, (str(got), v.problems)
