"""Random phases and the hard cases of issue 8, shared by the tests and benchmarks/bench_find.py."""

from __future__ import annotations

import random

from phasedsl import STANDARD_DECK, Card, Phase, parse_cards
from phasedsl.model.group import Group, Kind, Part

DECK = STANDARD_DECK.all_cards()
NO_WILDS = [c for c in DECK if not c.wild]

KINDS = [Kind.SET, Kind.RUN, Kind.COLOR, Kind.COLOR_RUN, Kind.EVEN_ODD, Kind.COLOR_EVEN_ODD,
         Kind.COLOR_SET, Kind.WILD, Kind.SKIP]


def random_phase(rng: random.Random, max_groups: int, max_size: int) -> Phase:
    """1 to ``max_groups`` groups of any kinds; natural groups of 2 to ``max_size`` cards."""
    parts, left = [], rng.randint(1, max_groups)
    while left:
        count = rng.randint(1, left)
        kind = rng.choice(KINDS)
        low = 1 if kind in (Kind.WILD, Kind.SKIP) else 2
        high = 2 if kind in (Kind.WILD, Kind.SKIP) else max_size
        parts.append(Part(count, Group(kind, rng.randint(low, high))))
        left -= count
    return Phase(tuple(parts))


# (phrase, hand, made): the first ones took minutes before issue 8.
WORST_CASES: list[tuple[str, list[Card], bool]] = [
    ("3 color runs of 2 + 2 runs of 3 + 1 run of 4 + 2 runs of 4 + 1 set of 2",
     parse_cards("B3 B4 Y6 G9 Y8 G7 Y9 R5 G8 B10 G8 Y7"), False),
    ("3 runs of 3 + 3 runs of 4", parse_cards("G11 Y10 R7 G9 B5 G6 W Y12 Y4 Y8 B11"), False),
    ("10 color runs of 4", DECK, True),
    ("9 color sets of 2 + 1 color set of 3", DECK, True),
    ("7 color runs of 6 + 1 color run of 5", DECK, True),
    ("5 color sets of 3 + 5 color runs of 5", DECK, True),
    ("5 color sets of 3 + 5 color runs of 5",  # 30 cards for a 40-card phase
     parse_cards("R1 R1 R2 R2 R3 R3 R4 R4 R5 R5 B1 B1 B2 B2 B3 B3 B4 B4 B5 B5 "
                 "G1 G1 G2 G2 G3 G3 G4 G4 W W"), False),
    # Runs of one color share its cards number by number: three runs of 8 on a color
    # hold at most 20 of the 24 slots, so nine take at least 4 wilds.
    ("9 color runs of 8", NO_WILDS, False),
    ("9 color runs of 9", NO_WILDS + [Card(wild=True)] * 5, False),
    ("9 color runs of 9", DECK, True),
    ("10 color runs of 6", NO_WILDS, True),
    # a close call the search settles (the greedy layout misses it)
    ("7 sets of 6 + 2 color even or odd of 6",
     parse_cards("R11 Y9 R12 Y1 Y3 R6 Y11 B3 G3 G9 B7 W G12 G11 B10 W G6 B3 R4 Y6 B1 B9 W B11 B9 "
                 "R8 R1 G5 G8 G10 Y10 Y2 Y7 G2 R10 G12 Y6 G3 B4 R3 B12 R7 S B2 G2 R11 W R5 G7 R9 "
                 "Y1 G7 Y7 Y12 R8 Y8 R2 W G6 S B8 Y10 G5 Y8"), False),
]


def random_cases(seed: int, small: int, big: int):
    """The seeded random search: (phase, hand) with 10-12-card and 100-card hands."""
    rng = random.Random(seed)
    for i in range(small + big):
        phase = random_phase(rng, 10, 6)
        yield phase, rng.sample(DECK, rng.randint(10, 12) if i < small else 100)
