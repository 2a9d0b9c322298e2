"""Hard cases for the sums' search, shared by tests/test_sums.py and benchmarks/bench_find.py:
(phrase, hand, made or None where the budget may stop it first)."""

from __future__ import annotations

import random

from phasedsl import STANDARD_DECK, Card

DECK = STANDARD_DECK.all_cards()
NATURALS = [c for c in DECK if c.natural]
_rng = random.Random(19)

SUM_WORST_CASES: list[tuple[str, list[Card], bool | None]] = [
    ("10 groups totalling 34", DECK, True),
    ("10 groups of 5 totalling 34", DECK, True),
    ("cards totalling 34 + 9 sets of 3", DECK, True),
    ("5 groups totalling 50 + 5 color runs of 4", DECK, True),
    # ten sums of four cards need 30 cards of 12: the joint reach says no at once
    ("10 groups of 4 totalling 47", NATURALS, False),
    ("10 groups totalling 34", [c for c in DECK if c.natural and c.number <= 2], False),
    # ten one-color sums from half the deck: close to what its colors hold
    ("10 color groups totalling 41", _rng.sample(DECK, 60), None),
    ("2 groups of 5 totalling 59 + 1 run of 9", _rng.sample(DECK, 12), False),
    ("cards totalling 60 + cards of one color totalling 40 + 2 sets of 4 + 1 run of 6",
     _rng.sample(DECK, 40), None),
]
