"""The `hands` cases: their families (see ``conformance.cases``)."""

from __future__ import annotations

import random
from collections.abc import Iterator

from ...model.phase import Phase
from ...model.rules import Rules
from .common import (
    NEW_KINDS,
    RANDOM_KINDS,
    VARIANTS,
    Raw,
    crossed,
    meld_of,
    other_cards,
    pack_changes,
    pack_phases,
    random_phase,
    rng,
    rules_for,
    shuffled,
)


def hands_packs() -> Iterator[Raw]:
    for key, label, settings, phase, text, wild in pack_phases():
        ch = pack_changes(settings, wild)
        rules = rules_for(ch)
        r = rng(f"hands-pack-{key}")
        meld = meld_of(phase, rules, r)
        if meld is None:
            continue
        cards = [c for g in meld for c in g]
        filler = other_cards(rules.deck, cards, r, 1)
        yield {"id": f"hands-pack-{key}-made", "description": f"{label}: its cards and one more",
               "changes": ch, "input": {"phase": text, "hand": shuffled(r, cards + filler)}}
        drop = r.randrange(len(cards))
        short = cards[:drop] + cards[drop + 1:]
        yield {"id": f"hands-pack-{key}-short", "description": f"{label}: its cards less {cards[drop]}",
               "changes": ch, "input": {"phase": text, "hand": shuffled(r, short)}}


# Corner hands, each crossed with every rule variant. Append only.
HAND_CORNERS: list[tuple[str, str, str]] = [
    ("1 set of 3", "W W W", "a set of wilds only"),
    ("1 run of 4", "W W W W", "a run of wilds only"),
    ("2 sets of 3", "R5 B5 W W W W", "a set of naturals and a set of wilds"),
    ("2 sets of 3", "R5 B5 G5 Y5 R5 B5", "two sets of one number"),
    ("2 sets of 3", "R5 B5 G5 Y5 W W", "two sets on one number with wilds"),
    ("1 run of 4", "R1 R2 R3 W", "a wild at the high end of a run"),
    ("1 run of 4", "W R10 R11 R12", "a wild at the low end of a run at the top"),
    ("1 run of 4", "R10 R11 R12 R1", "no wrap-around from 12 to 1"),
    ("1 run of 4", "R11 R12 W W", "a run at the top, two wilds"),
    ("1 run of 4", "R3 B4 G5 Y6", "a run of four colors"),
    ("1 color run of 4", "R3 R4 B5 R6", "a color run with one off-color card"),
    ("1 run of 4", "R3 R3 R4 R5", "a run with a repeated number"),
    ("1 set of 3 + 1 run of 4", "R5 B5 G7 G8 G10 W W", "a wild in a run's gap"),
    ("1 set of 3 + 1 run of 4", "R5 B5 R6 R7 R8 W", "a set and a run sharing a number"),
    ("1 set of 3", "S S S", "skips are no set"),
    ("2 skips", "S S", "a skip part"),
    ("2 skips", "S W", "a wild in a skip part"),
    ("1 skip + 1 set of 2", "W R5 W", "a skip part of a wild and a set"),
    ("2 wilds", "W W", "a wild part"),
    ("2 wilds + 1 set of 2", "W W W R5", "a wild part and a set"),
    ("7 cards of one color", "R1 R3 R3 R7 R9 R12 W", "a color group with repeated numbers"),
    ("1 even or odd of 4", "R2 B4 G4 W", "an even group"),
    ("1 even or odd of 4", "R2 B3 G4 W", "an even group with an odd card"),
    ("1 color even or odd of 3", "R2 R4 B6", "a color even group off color"),
    ("1 color set of 2", "R5 B5", "a color set of two colors"),
    ("1 color set of 2", "R5 W", "a color set with a wild"),
    ("1 set of 3", "R3 B3 G7", "a 3 of the wild number"),
    ("1 set of 3", "R7 B7 G3", "cards of 7s and a 3"),
    ("1 run of 4", "R1 R2 R7 R4", "a run with a 7 standing in"),
    ("1 set of 3 + 1 set of 3", "R3 B3 G3 Y3 R9 B9", "two sets with four 3s"),
    ("1 run of 4", "R1 R2 R4 R5 S", "a run missing its middle"),
    ("1 set of 2 + 1 set of 2", "R5 W W W", "two sets with one natural"),
    ("1 set of 4", "R5 B5 W W", "half naturals"),
    ("1 set of 4", "R5 W W W", "one natural, three wilds"),
    ("1 run of 5 + 1 wild", "R1 R2 R3 R4 W W", "a run of 5 and a wild part"),
    ("1 color run of 4", "R3 R4 R5 R6 R7 R7 B9", "a color run with spare cards"),
    ("2 color runs of 3", "R1 R2 R3 R1 R2 R3", "two color runs of one color"),
    ("1 set of 3 + 1 run of 3", "R3 B3 G3 R4 R5", "a 3 the set and the run both want"),
    ("1 run of 4", "R11 R12 R1 R2", "a run wrapping from 12 to 1"),
    ("1 run of 4", "R12 W R2 R3", "a wild at 1 in a wrapping run"),
    ("1 color run of 4", "G11 G12 G1 W", "a color run wrapping with a wild"),
    ("1 run of 12", "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12", "a run of every number"),
    ("1 run of 3 pairs", "R3 B3 R4 G4 R5 Y5", "a run of pairs"),
    ("1 run of 3 pairs", "R3 B3 R4 G4 R5 W", "a run of pairs with a wild"),
    ("1 run of 3 pairs", "R3 B3 G3 R4 G4 R5", "a run of pairs with a number three times"),
    ("1 run of 2 pairs", "R12 B12 R1 G1", "a run of pairs wrapping from 12 to 1"),
    ("1 color run of 2 pairs", "R3 R3 R4 B4", "a color run of pairs off color"),
    ("4 cards over 8", "R9 B10 G11 Y12", "four cards over 8"),
    ("4 cards over 8", "R8 B10 G11 Y12", "an 8 is not over 8"),
    ("4 cards over 8", "R9 W W W", "one natural over 8 and wilds"),
    ("4 cards under 5 + 4 cards over 8", "R1 B2 G3 Y4 R9 B10 G11 W", "under and over"),
    ("cards totalling 34", "R12 B11 G10 Y1", "four cards adding up to 34"),
    ("cards totalling 34", "R12 B11 G10", "three cards adding up to 33"),
    ("cards totalling 34", "R12 B12 W", "a wild making up the total"),
    ("cards totalling 34", "R1 W W W", "one natural and three wilds"),
    ("5 cards totalling 20", "R1 R2 R3 R4 R10", "exactly five cards adding up to 20"),
    ("5 cards totalling 20", "R2 R4 R6 R8", "four cards for a sum of five"),
    ("cards of one color totalling 34", "B12 B11 B10 B1", "a color sum"),
    ("cards of one color totalling 34", "B12 B11 G10 B1", "a color sum off color"),
    ("cards totalling 34 + 1 set of 3", "R12 B11 G10 Y1 R5 B5 G5", "a sum and a set"),
    ("7 cards of one color", "B1 B3 B5 B7 B9 B11 S", "a skip as the seventh blue card"),
    ("7 cards of one color", "R1 R3 R5 R7 R9 R11 S", "a skip with red cards"),
    ("7 cards of one color", "S S S S W W W", "skips and wilds, no natural"),
    ("1 set of 3", "R5 B5 S", "a skip in a set"),
]


def hands_corners() -> Iterator[Raw]:
    return crossed("hands", "corner", HAND_CORNERS, VARIANTS,
                  lambda row: (row[2], {"phase": row[0], "hand": row[1].split()}))


def near_miss(r: random.Random, phase: Phase, rules: Rules) -> list[str] | None:
    """A hand near ``phase``: a layout of it with some cards replaced, dropped or added."""
    meld = meld_of(phase, rules, r)
    if meld is None:
        return None
    cards = [c for g in meld for c in g]
    for _ in range(r.choice((0, 1, 1, 2))):
        i = r.randrange(len(cards))
        cards[i] = other_cards(rules.deck, cards, r, 1)[0]
    if r.random() < 0.5 and len(cards) > 1:
        cards.pop(r.randrange(len(cards)))
    cards += other_cards(rules.deck, cards, r, r.choice((0, 0, 1)))
    return shuffled(r, cards)


def _random_hands(key: str, count: int, kinds: list[tuple[str, tuple[int, ...]]], family: str,
                  what: str) -> Iterator[Raw]:
    r = rng(key)
    for i in range(count):
        vname, ch = r.choice(VARIANTS)
        rules = rules_for(ch)
        # (at most 9 cards: the reference tries every card of the deck on every short hand)
        phase = random_phase(r, rules, 9, kinds)
        hand = near_miss(r, phase, rules) if phase is not None else None
        if hand is None:
            continue
        yield {"id": f"hands-{family}-{i:04d}", "description": f"a seeded random near miss{what} ({vname})",
               "changes": ch, "input": {"phase": str(phase), "hand": hand}}


def hands_random() -> Iterator[Raw]:
    return _random_hands("hands-random", 700, RANDOM_KINDS, "random", "")


def hands_random_kinds() -> Iterator[Raw]:
    return _random_hands("hands-random-kinds", 400, NEW_KINDS, "kinds", ", new kinds")
