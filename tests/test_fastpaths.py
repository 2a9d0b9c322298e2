"""The not-made fast paths of `assess` give exactly what the general path gives.

Each test runs both on the same hands (random ones, and near misses: a made group with
cards taken out and others put in, with wilds, skips and duplicate cards) and compares
the whole assessment and the check's JSON.
"""

import random
import sys

import pytest

from phasedsl import STANDARD_DECK, Phase, api
from phasedsl.cards import SKIP, WILD
from phasedsl.rules import Rules

# the module (the package also exports a function named outs)
outs_module = sys.modules["phasedsl.outs"]

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
