"""The flows ``joint.assign`` keeps are the flows it would run: the same answers with the
kept ones as with none, and a caller changing what it was given spoils nothing kept."""

import random

from phasedsl import STANDARD_DECK, Phase
from phasedsl.model.rules import Rules
from phasedsl.solver import assess, joint, layout_for
from phasedsl.solver.handcounts import Hand

PHASES = ["4 cards of one color + 1 color even or odd of 3", "1 run of 3 + 1 color run of 6",
          "1 set of 4 + 4 cards of one color", "1 even or odd of 5 + 1 color set of 2",
          "6 cards of one color + 1 even or odd of 3"]
CARDS = [c for c in STANDARD_DECK.all_cards() if c.natural or c.wild]


def _answers(phase: Phase, hands, rules: Rules, fresh: bool) -> list:
    out = []
    for hand in hands:
        if fresh:
            joint._ASSIGNED.clear()
        a = assess(phase, hand, rules)
        out.append((a.shortfall.missing, a.shortfall.example, a.meld))
    return out


def test_kept_flows_answer_as_fresh_ones():
    rng = random.Random(7)
    for phrase in PHASES:
        phase = Phase.parse(phrase)
        hands = [rng.sample(CARDS, rng.randint(8, 12)) for _ in range(60)]
        hands += [h[:-1] for h in hands[:30]]  # hands a card apart: the flows asked again
        for rules in (Rules(), Rules(min_naturals=2)):
            joint._ASSIGNED.clear()
            assert _answers(phase, hands, rules, False) == _answers(phase, hands, rules, True)
    assert joint._ASSIGNED  # (the flows were kept, so the comparison compared something)


def test_what_a_caller_changes_is_not_kept():
    phase = Phase.parse("4 cards of one color + 1 color even or odd of 3")
    lay = layout_for(phase, Rules())
    hand = Hand.of([c for c in CARDS if c.color == "R"][:8], lay.tb)
    chosen = [lay.classes[0][0], lay.classes[1][0]]
    args = (chosen, lay.sizes, lay.lower, hand.cnt, hand.present, 0, hand.nn)
    first = joint.assign(*args)
    assert first is not None
    first[1][0].clear()
    first[1].append({"spoilt": 1})
    assert joint.assign(*args) == joint._assign(*args)
