"""``cards_short`` (the count alone, from the closed forms' counts) is ``shortfall``'s
count wherever it answers, and answers for the closed shapes' hands that are short."""

import random

import pytest

from phasedsl import STANDARD_DECK, Phase
from phasedsl.model.cards import SKIP, WILD
from phasedsl.model.rules import Rules
from phasedsl.solver import cards_short, shortfall

DECK = [c for c in STANDARD_DECK.all_cards() if c.natural]

CLOSED = ["2 sets of 3", "2 sets of 4", "1 set of 5 + 1 set of 2", "1 set of 3 + 1 run of 4",
          "1 run of 4 + 1 set of 4", "1 run of 7", "1 run of 9", "7 cards of one color",
          "1 even or odd of 8", "1 color run of 5", "1 run of 3 pairs", "1 set of 4"]
OTHER = ["2 runs of 3", "3 sets of 3", "1 set of 3 + 2 wilds", "1 set of 3 + 1 skip",
         "5 cards totalling 34"]
RULES = [Rules(), Rules(min_naturals=2), Rules(runs_wrap=True), Rules(sets_share_number=False),
         Rules(min_naturals=3, natural_scope="phase"), Rules(skip_counts_as_blue=True)]


def _hands(rng: random.Random, phase: Phase):
    for i in range(300):
        size = phase.cards_needed + rng.randint(-4, 3)
        if i % 2:  # near a run or a set
            start = rng.randint(1, 9)
            hand = [c for c in DECK if start <= c.number < start + size // 2 + 1
                    or c.number == start + 4]
            hand = rng.sample(hand, min(len(hand), max(size, 1)))
        else:
            hand = rng.sample(DECK, max(size, 1))
        hand += [WILD] * rng.choice((0, 0, 1, 2)) + [SKIP] * rng.choice((0, 0, 1))
        yield hand


@pytest.mark.parametrize("rules", RULES, ids=range(len(RULES)))
@pytest.mark.parametrize("text", CLOSED + OTHER)
def test_cards_short_is_the_shortfall_count(text, rules):
    rng = random.Random(text)
    phase = Phase.parse(text)
    answered = 0
    for hand in _hands(rng, phase):
        got = cards_short(phase, hand, rules)
        s = shortfall(phase, hand, rules)
        if got is None:  # a made hand, or one the counts alone do not settle
            assert s.missing == 0 or text in OTHER or rules != Rules() \
                or len({c.number for c in hand if c.natural}) < 2, [str(c) for c in hand]
            continue
        answered += 1
        assert s.decided and got == s.missing > 0, [str(c) for c in hand]
    if rules.skip_counts_as_blue or text in OTHER:
        assert not answered
    elif rules == Rules():
        assert answered
