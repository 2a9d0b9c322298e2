"""``left_out`` (the cards a meld leaves in the hand, counted from the plans for the
commonest phases) says what counting ``find_within_budget``'s meld says, and
``made_within_budget`` whether it finds one."""

import random
from collections import Counter

import pytest

from phasedsl import STANDARD_DECK, Phase
from phasedsl.model.cards import SKIP, WILD
from phasedsl.model.rules import Rules
from phasedsl.solver import find_within_budget, left_out, made_within_budget

DECK = [c for c in STANDARD_DECK.all_cards() if c.natural]

PHASES = ["2 sets of 3", "1 set of 3 + 1 run of 4", "1 run of 4 + 1 set of 4", "1 run of 7",
          "1 run of 9", "7 cards of one color", "1 set of 5 + 1 set of 2", "1 even or odd of 8",
          "1 color run of 5", "1 color set of 3", "2 runs of 3", "1 run of 3 pairs",
          "1 set of 3 + 2 wilds", "1 set of 3 + 1 skip", "3 sets of 3", "1 set of 4 + 1 run of 4"]
RULES = [Rules(), Rules(min_naturals=2), Rules(runs_wrap=True), Rules(sets_share_number=False),
         Rules(skip_counts_as_blue=True), Rules(min_naturals=3, natural_scope="phase")]


MADE: Counter = Counter()


def _reference(phase, hand, rules):
    meld = find_within_budget(phase, hand, rules)
    if meld is None:
        return None
    used = Counter(meld.cards())
    return {c for c, k in Counter(hand).items() if k > used[c]}


@pytest.mark.parametrize("rules", RULES, ids=range(len(RULES)))
@pytest.mark.parametrize("text", PHASES)
def test_left_out_counts_the_meld(text, rules):
    rng = random.Random(text)
    phase = Phase.parse(text)
    for i in range(300):
        size = phase.cards_needed + rng.randint(-1, 4)
        if i % 2:  # near a run or a set: most of these make the phase
            start = rng.randint(1, 9)
            hand = [c for c in DECK if start <= c.number < start + size // 2 + 1
                    or c.number == start + 4]
            hand = rng.sample(hand, min(len(hand), size))
        else:
            hand = rng.sample(DECK, size)
        hand += [WILD] * rng.choice((0, 0, 1, 2, 3)) + [SKIP] * rng.choice((0, 0, 1))
        rng.shuffle(hand)
        want = _reference(phase, hand, rules)
        MADE[text] += want is not None
        assert left_out(phase, hand, rules) == want, (text, [str(c) for c in hand])
        assert made_within_budget(phase, hand, rules) == (want is not None)


def test_the_hands_reach_the_counting():
    assert [t for t in PHASES if not MADE[t]] == []
