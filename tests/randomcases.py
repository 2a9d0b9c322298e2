"""Seeded random phases and hands for the worst-case search (tests and benchmarks/bench_batch.py).

Phases of 1-15 groups (the DSL caps a phase at 10, so larger draws become 10)
of every kind and size the deck allows, against 10-12-card hands and 100-card
hands from the 108-card deck: the search that found the slow cases of issue 8.
"""

from __future__ import annotations

import random

from phasedsl import STANDARD_DECK, Phase
from phasedsl.errors import PhaseDSLError

_SHAPES = [("set", 1, 8), ("run", 2, 9), ("color run", 2, 7), ("color group", 2, 9),
           ("even or odd", 2, 8), ("color even or odd", 2, 5), ("color set", 1, 3)]


def random_phase(rng: random.Random) -> Phase:
    """A phase the DSL accepts, of 1-15 groups drawn (at most 10 kept)."""
    while True:
        groups = min(rng.randint(1, 15), 10)
        parts = []
        left = groups
        while left:
            count = rng.randint(1, left)
            left -= count
            roll = rng.random()
            if roll < 0.05:
                parts.append(f"{count} wild{'s' if count > 1 else ''}")
            elif roll < 0.08:
                parts.append(f"{count} skip{'s' if count > 1 else ''}")
            else:
                name, lo, hi = rng.choice(_SHAPES)
                word = name if count == 1 else name.replace("set", "sets").replace(
                    "run", "runs").replace("group", "groups")
                parts.append(f"{count} {word} of {rng.randint(lo, hi)}")
        try:
            return Phase.parse(" + ".join(parts))
        except PhaseDSLError:
            continue  # more than the deck can supply: draw again


def worst_cases(seed: int, pairs: int, big: bool = False) -> list[tuple[Phase, list]]:
    """(phase, hand) pairs: 10-12-card hands, or 100-card hands with ``big``."""
    rng = random.Random(seed)
    deck = STANDARD_DECK.all_cards()
    out = []
    for _ in range(pairs):
        size = 100 if big else rng.randint(10, 12)
        out.append((random_phase(rng), rng.sample(deck, size)))
    return out
