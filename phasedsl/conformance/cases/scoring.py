"""The `scoring` cases: their families (see ``conformance.cases``)."""

from __future__ import annotations

from collections.abc import Iterator

from ...model.rules import Rules
from .common import Raw, rng

SCORING_VARIANTS: list[tuple[str, dict]] = [
    ("printed", {}),
    ("scoring-flat", {"scoring.low": 1, "scoring.high": 1, "scoring.skip": 1, "scoring.wild": 1}),
    ("scoring-heavy-wilds", {"scoring.wild": 50, "scoring.skip": 20}),
]


def scoring_cards() -> Iterator[Raw]:
    deck = Rules().deck
    kinds = [str(c) for c in dict.fromkeys(deck.all_cards())]
    for vname, ch in SCORING_VARIANTS:
        for card in kinds:
            yield {"id": f"scoring-card-{card}-{vname}", "description": f"one {card} ({vname})",
                   "changes": ch, "input": {"cards": [card]}}
        yield {"id": f"scoring-empty-{vname}", "description": f"no cards left ({vname})",
               "changes": ch, "input": {"cards": []}}


def scoring_random() -> Iterator[Raw]:
    r = rng("scoring-random")
    deck = [str(c) for c in Rules().deck.all_cards()]
    for i in range(100):
        vname, ch = r.choice(SCORING_VARIANTS)
        yield {"id": f"scoring-random-{i:04d}", "description": f"a seeded random hand ({vname})",
               "changes": ch, "input": {"cards": r.sample(deck, r.randint(1, 20))}}
