"""The not-made fast paths of `assess` give exactly what the general path gives.

Each test runs both on the same hands (random ones, and near misses: a made group with
cards taken out and others put in, with wilds, skips and duplicate cards) and compares
the whole assessment and the check's JSON.
"""

import random
import sys
from collections import Counter

import pytest

from phasedsl import STANDARD_DECK, Phase, api, find
from phasedsl.model.cards import SKIP, WILD, Deck
from phasedsl.model.outs import unseen_counts
from phasedsl.model.rules import Rules
from phasedsl.solver import closedshort, layout_for

# the module holding assess and its routes (where the fast paths are switched off)
outs_module = sys.modules["phasedsl.solver.shortage"]

NATURALS = [c for c in STANDARD_DECK.all_cards() if c.natural]
DECK = [c for c in STANDARD_DECK.all_cards() if c.natural or c.wild or c.skip]

ONE_GROUP = ["1 run of 7", "1 run of 9", "1 run of 4", "1 set of 4", "7 cards of one color",
             "1 even or odd of 8", "1 color run of 5", "1 color even or odd of 6",
             "1 color set of 3",
             "1 run of 5 with colors {3: red, 4: blue or green, 5: any, 6: any, 7: any, 8: yellow}"]
RULES = [Rules(), Rules(min_naturals=2), Rules(min_naturals=3, natural_scope="phase"),
         Rules(runs_one_color=True), Rules(wild_as_skip=True), Rules(sets_share_number=False)]


def _hands(rng: random.Random, phase: Phase, n: int):
    size = phase.cards_needed
    for i in range(n):
        if i % 2:
            yield rng.sample(DECK, rng.randint(max(1, size - 4), size + 4))
            continue
        # a near miss: a run, a set or a color drawn from the naturals, then cut and padded
        start = rng.randint(1, 12)
        kind = i % 6
        if kind == 0:
            base = [c for c in NATURALS if start <= c.number < start + size]
        elif kind == 2:
            base = [c for c in NATURALS if c.number == start]
        else:
            color = rng.choice(STANDARD_DECK.colors)
            base = [c for c in NATURALS if c.color == color]
        hand = rng.sample(base, min(len(base), rng.randint(size - 3, size)))
        hand += rng.sample(NATURALS, rng.randint(0, 3))
        hand += [WILD] * rng.choice((0, 0, 1, 2)) + [SKIP] * rng.choice((0, 0, 1))
        rng.shuffle(hand)
        yield hand


def _general(monkeypatch):
    monkeypatch.setattr(outs_module, "_one_group_short", lambda *a: None)


@pytest.mark.parametrize("phrase", ONE_GROUP)
def test_one_group_fast_path_is_the_general_path(phrase, monkeypatch):
    rng = random.Random(phrase)
    phase = Phase.parse(phrase)
    took = 0
    for rules in RULES:
        for hand in _hands(rng, phase, 200):
            seen = rng.sample(NATURALS, rng.choice((0, 0, 3)))
            fast = outs_module.assess(phase, hand, rules, seen)
            fast_json = api.check_json(phase, hand, rules)
            took += fast.meld is None
            with monkeypatch.context() as m:
                _general(m)
                slow = outs_module.assess(phase, hand, rules, seen)
                slow_json = api.check_json(phase, hand, rules)
            assert fast.shortfall == slow.shortfall, (phrase, rules, hand)
            assert (fast.meld is None) == (slow.meld is None)
            assert fast_json == slow_json
    assert took > 500  # most hands are not made: the fast path answers them



def _example_completes(phase, hand, seen, rules, sf) -> None:
    """The example is ``missing`` unseen cards, and (when said possible) completes the phase."""
    assert len(sf.example) == sf.missing
    if sf.possible:
        pool = unseen_counts(hand, seen, rules)
        want = Counter(c.plain() for c in sf.example)
        assert all(pool[c] >= k for c, k in want.items()), (sf.example, seen)
        assert find(phase, [*hand, *sf.example], rules) is not None, sf.example
    assert set(sf.groups) <= set(phase.groups)


TWO_SETS = ["2 sets of 3", "2 sets of 4", "1 set of 5 + 1 set of 2", "1 set of 2 + 1 set of 5",
            "1 set of 5 + 1 set of 3", "1 set of 1 + 1 set of 6"]
FACTS = ("missing", "outs", "never", "exact", "at_most")


SET_RUN = ["1 set of 3 + 1 run of 4", "1 set of 4 + 1 run of 4", "1 run of 5 + 1 set of 2",
           "1 set of 1 + 1 run of 3", "1 run of 9 + 1 set of 3"]
CLOSED = [(p, "two_sets_shape") for p in TWO_SETS] + [(p, "set_run_shape") for p in SET_RUN]


# an odd deck too: one copy of each card, five colors, 0-13, few wilds
ODD_DECK = Deck(colors=("R", "B", "G", "Y", "P"), low=0, high=13, copies=1, wilds=2, skips=1)


@pytest.mark.parametrize(("phrase", "shape"), CLOSED)
def test_closed_form_shortfall_agrees_with_the_general_path(phrase, shape, monkeypatch):
    """Every fact is the general path's; the example (one completion among several, where
    ties allow) is checked for what it claims: unseen cards that complete the phase."""
    rng = random.Random(phrase)
    took = 0
    odd = Rules(deck=ODD_DECK)
    odd_cards = [c for c in ODD_DECK.all_cards() if c.natural or c.wild or c.skip]
    for rules in [*RULES, odd]:
        phase = Phase.parse(phrase, rules.deck)
        hands = (_hands(rng, phase, 200) if rules is not odd else
                 (rng.sample(odd_cards, rng.randint(4, 12)) for _ in range(300)))
        for hand in hands:
            seen = rng.sample(NATURALS if rules is not odd else odd_cards, rng.choice((0, 0, 3)))
            fast = outs_module.assess(phase, hand, rules, seen)
            fast_json = api.check_json(phase, hand, rules)
            with monkeypatch.context() as m:
                m.setattr(outs_module, shape, lambda *a: False)
                m.setattr(outs_module, "_ROUTES", {})  # routes are kept per layout
                slow = outs_module.assess(phase, hand, rules, seen)
                slow_json = api.check_json(phase, hand, rules)
            assert (fast.meld is None) == (slow.meld is None), (phrase, rules, hand)
            if fast.meld is not None:
                assert fast_json == slow_json
                continue
            took += 1
            for fact in FACTS:
                assert getattr(fast.shortfall, fact) == getattr(slow.shortfall, fact), (
                    fact, phrase, rules, hand, seen)
            _example_completes(phase, hand, seen, rules, fast.shortfall)
            # whether the example is a real completion: as the general path says, or a real
            # one where the general path's choice is not (decks with one copy of a card)
            assert fast.shortfall.possible >= slow.shortfall.possible, (phrase, rules, hand)
            if rules is not odd:
                assert fast.shortfall.possible == slow.shortfall.possible
            assert fast_json.keys() == slow_json.keys()
            skip = ("example", "reason", "completable")
            assert {k: v for k, v in fast_json.items() if k not in skip} == {
                k: v for k, v in slow_json.items() if k not in skip}
    assert took > 500
    # the closed form answers under most of the rule sets (others go the general way)
    assert sum(getattr(closedshort, shape)(layout_for(Phase.parse(phrase), r), r)
               for r in RULES) >= 4


@pytest.mark.parametrize("phrase", ["1 set of 3 + 1 run of 4", "3 sets of 2",
                                    "1 run of 4 + 1 set of 2 + 1 color set of 2"])
def test_examples_are_unseen_cards_that_complete(phrase):
    """The general path's example draws on what is left of the deck bar the cards seen
    (it once drew a card the player had seen both copies of)."""
    rng = random.Random(phrase)
    phase = Phase.parse(phrase)
    for rules in RULES:
        for hand in _hands(rng, phase, 60):
            seen = rng.sample(NATURALS, rng.choice((0, 3, 8)))
            got = outs_module.assess(phase, hand, rules, seen)
            if got.meld is None:
                _example_completes(phase, hand, seen, rules, got.shortfall)


@pytest.mark.parametrize("phrase", ["2 sets of 3", "1 set of 5 + 1 set of 2", "1 set of 3 + 1 run of 4",
                                    "1 run of 7", "7 cards of one color"])
def test_closed_forms_agree_with_the_brute_force(phrase):
    """Independently of the general path: made or not, and every single card completing a
    hand one short, against the reference's exhaustive search (batch-like 11-card hands
    and near misses, under four rule sets)."""
    from reference import can_make, card_tuple
    from test_solver import RULESETS, near_miss_hand, ref_groups

    rng = random.Random(phrase)
    phase = Phase.parse(phrase)
    groups = ref_groups(phase)
    one_short = 0
    for i in range(96):
        rules, kw = RULESETS[i % len(RULESETS)]
        hand = near_miss_hand(rng, rng.randint(6, 10)) if i % 2 else rng.sample(DECK, 11)
        sf = outs_module.assess(phase, hand, rules).shortfall
        tuples = [card_tuple(c) for c in hand]
        assert (sf.missing == 0) == can_make(groups, tuples, **kw), (phrase, rules, hand)
        if sf.missing != 1:
            continue
        pool = unseen_counts(hand, (), rules)
        singles = {str(c) for c in pool if can_make(groups, [*tuples, card_tuple(c)], **kw)}
        assert {str(o.card) for o in sf.outs} == singles, (phrase, rules, hand)
        if sf.possible:
            assert can_make(groups, [*tuples, *map(card_tuple, sf.example)], **kw)
        one_short += 1
    assert one_short >= 5
