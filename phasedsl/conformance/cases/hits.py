"""The `hits` cases: their families (see ``conformance.cases``)."""

from __future__ import annotations

from collections.abc import Iterator

from ...model.cards import card_names
from ...model.group import Kind
from ...model.phase import Phase
from ...solver import SearchLimit, find
from .common import Raw, crossed, other_cards, random_phase, rng, rules_for

# The variants hits depend on. Append only.
HIT_VARIANTS: list[tuple[str, dict]] = [
    ("printed", {}),
    ("hit-end-low", {"wilds.hit_end": "low"}),
    ("wild-swap", {"wilds.swap": True}),
    ("wild-take-back", {"wilds.take_back": True}),
    ("one-color-runs", {"runs.one_color": True}),
    ("wild-numbers-5", {"wild_numbers": [5]}),
    ("runs-wrap", {"runs.wrap": True}),
    ("skip-as-blue", {"house_rules.skip_counts_as_blue": True}),
]


HIT_CORNERS: list[tuple[str, str, str]] = [
    ("run: R4 R5 R6 R7", "R3", "a natural below a run"),
    ("run: R4 R5 R6 R7", "B8", "a natural above a run, another color"),
    ("run: R4 R5 R6 R7", "W", "a wild onto a run open at both ends"),
    ("run: R1 R2 R3 R4", "W", "a wild onto a run closed at the low end"),
    ("run: R9 R10 R11 R12", "W", "a wild onto a run closed at the high end"),
    ("run: R9 R10 R11 R12", "R1", "no wrap-around onto a run at the top"),
    ("run: R4 R5 W R7", "R6", "the natural a laid wild stands for"),
    ("run: R4 R5 W=6 R7", "R6", "the natural a stated wild stands for"),
    ("run: W R5 R6", "R4", "a run whose wild is at the low end"),
    ("run: R5 R6 W", "R7", "a run whose wild is at the high end"),
    ("set: B9 G9 W", "R9", "a natural onto a set"),
    ("set: B9 G9 W", "W", "a wild onto a set"),
    ("set: B9 G9 W", "S", "a skip onto a set"),
    ("set: B9 G9 W=9", "R9", "a natural onto a set with a stated wild"),
    ("color: R1 R5 R9 R12", "R5", "a repeated number onto a color group"),
    ("color: R1 R5 R9 R12", "B5", "another color onto a color group"),
    ("even_odd: R2 B4 G6 Y8", "R10", "an even card onto an even group"),
    ("even_odd: R2 B4 G6 Y8", "R3", "an odd card onto an even group"),
    ("color_run: G3 G4 G5", "G6", "a color run's color"),
    ("color_run: G3 G4 G5", "R6", "another color onto a color run"),
    ("color_set: R5 R5", "R5", "a color set of 5s"),
    ("run: R4 R5 R6 R7 | set: B8 W", "W", "a wild: a run or a set"),
    ("run: R4 R5 R6 R7 | run: B5 B6 B7", "R8", "two runs take an 8"),
    ("run: R4 W R6", "R5", "a natural for a wild in a run's middle"),
    ("run: R3 R4 R5 R6 R7 R8 R9 R10 R11 R12", "W", "a wild onto a run of ten at the top"),
    ("run: R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12", "W", "a wild onto a full run"),
    ("set: R5 B5 R5", "R5", "a third copy onto a set"),
    ("run: B5 B6 B7", "R5", "a 5 that fits nowhere"),
    ("set: R3 B3 G3", "Y5", "a 5 onto a set of 3s"),
    ("run: R2 R3 R4", "R5", "a 5 onto a run 2-4"),
    ("run: R10 R11 R12", "R1", "a 1 onto a run ending at 12"),
    ("run: R1 R2 R3", "R12", "a 12 onto a run starting at 1"),
    ("run: R1 R2 R3", "W", "a wild onto a run starting at 1"),
    ("4 cards over 8: R9 R10 W R12", "B11", "a card over 8 onto an over-8 group"),
    ("4 cards over 8: R9 R10 W R12", "B8", "an 8 onto an over-8 group"),
    ("4 cards under 5: R1 R2 R3 R4", "W", "a wild onto an under-5 group"),
    ("1 run of 2 pairs: R3 B3 R4 G4", "R5", "a card onto a run of pairs"),
    ("cards totalling 34: R12 B11 G10 Y1", "R1", "a card onto a laid sum"),
    ("color: B1 B2 B3 B4 B5 B6 B7", "S", "a skip onto a blue color group"),
    ("color: R1 R2 R3 R4 R5 R6 R7", "S", "a skip onto a red color group"),
]


def laid_entry(written: str, cards: list[str]) -> dict:
    """A laid group of a hits case: ``kind`` always a kind's name; a group whose shape needs
    more than its kind (an over or under group's bound, a sum's total, a run of pairs'
    length) also gives the ``phrase`` it was laid as."""
    if written in {k.value for k in Kind}:
        return {"kind": written, "cards": cards}
    (group,) = Phase.parse(written).groups
    return {"kind": group.kind.value, "phrase": written, "cards": cards}


def hits_corners() -> Iterator[Raw]:
    def build(row):
        laid = []
        for g in row[0].split("|"):
            kind, _, cards = g.partition(":")
            laid.append(laid_entry(kind.strip(), cards.split()))
        return row[2], {"laid": laid, "card": row[1]}
    return crossed("hits", "corner", HIT_CORNERS, HIT_VARIANTS, build)


def hits_random() -> Iterator[Raw]:
    from ...melds.hits import laid_group

    r = rng("hits-random")
    for i in range(500):
        vname, ch = r.choice(HIT_VARIANTS)
        rules = rules_for(ch)
        phase = random_phase(r, rules)
        if phase is None:
            continue
        try:
            meld = find(phase, r.sample(rules.deck.all_cards(), 60), rules)
        except SearchLimit:
            continue
        if meld is None:
            continue
        laid = [{"kind": g.group.kind.value, "cards": card_names(g.cards)} for g in meld.groups]
        try:  # (a group read back on its own, at its laid size, must still be legal)
            for g in laid:
                laid_group(f"{g['kind']}: {' '.join(g['cards'])}", rules)
        except Exception:
            continue
        used = [c for g in laid for c in g["cards"]]
        card = r.choice(["W", *other_cards(rules.deck, [u.split("=")[0] for u in used], r, 3)])
        yield {"id": f"hits-random-{i:04d}", "description": f"a seeded random hit ({vname})",
               "changes": ch, "input": {"laid": laid, "card": card}}
