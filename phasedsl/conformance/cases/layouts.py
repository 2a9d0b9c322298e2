"""The `layouts` cases: their families (see ``conformance.cases``)."""

from __future__ import annotations

import random
from collections.abc import Iterator

from ...model.cards import Card
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


def broken(r: random.Random, groups: list[list[str]], rules: Rules) -> tuple[str, list[list[str]]]:
    """A layout one step from ``groups``: a card replaced, dropped, added or moved."""
    out = [list(g) for g in groups]
    used = [c for g in out for c in g]
    how = r.choice(("replace", "replace", "drop", "add", "move", "skip"))
    gi = r.randrange(len(out))
    if how == "replace":
        out[gi][r.randrange(len(out[gi]))] = other_cards(rules.deck, used, r, 1)[0]
    elif how == "drop" and len(out[gi]) > 1:
        out[gi].pop(r.randrange(len(out[gi])))
    elif how == "add":
        out[gi].insert(r.randrange(len(out[gi]) + 1), other_cards(rules.deck, used, r, 1)[0])
    elif how == "move" and len(out) > 1 and len(out[gi]) > 1:
        card = out[gi].pop(r.randrange(len(out[gi])))
        out[(gi + 1) % len(out)].append(card)
    else:
        how = "skip"
        out[gi][r.randrange(len(out[gi]))] = "S"
    return how, out


def layouts_packs() -> Iterator[Raw]:
    for key, label, settings, phase, text, wild in pack_phases():
        ch = pack_changes(settings, wild)
        rules = rules_for(ch)
        r = rng(f"layouts-pack-{key}")
        meld = meld_of(phase, rules, r)
        if meld is None:
            continue
        laid = shuffled(r, [shuffled(r, g) for g in meld])
        yield {"id": f"layouts-pack-{key}-legal", "description": f"{label} laid as the solver finds it",
               "changes": ch, "input": {"phase": text, "groups": laid}}
        how, bad = broken(r, laid, rules)
        yield {"id": f"layouts-pack-{key}-broken", "description": f"{label} with a card {how}",
               "changes": ch, "input": {"phase": text, "groups": bad}}


LAYOUT_CORNERS: list[tuple[str, str, str]] = [
    ("1 set of 3", "W W W", "a set of wilds only"),
    ("1 run of 4", "W W W W", "a run of wilds only"),
    ("2 sets of 3", "R5 B5 G5 | Y5 R5 B5", "two sets of one number"),
    ("2 sets of 3", "R5 B5 W | W W W", "a set of wilds beside a set"),
    ("1 set of 3", "R5 B5 G5 Y5", "a set of four for a set of three"),
    ("1 run of 4", "R1 R2 R3 R4 R5", "a run of five for a run of four"),
    ("1 run of 4", "W R1 R2 R3", "a wild below 1"),
    ("1 run of 4", "R10 R11 R12 W", "a wild above 12"),
    ("1 run of 4", "R11 R12 R1 R2", "a run wrapping from 12 to 1"),
    ("1 run of 4", "R3 B5 G4 Y6", "a run laid unordered"),
    ("1 run of 4", "R6 R5 R4 R3", "a run laid high to low"),
    ("1 color run of 4", "R3 R4 R5 B6", "a color run of two colors"),
    ("1 run of 4", "R3 B4 G5 Y6", "a run of four colors"),
    ("1 set of 3 + 1 run of 4", "R5 B5 W | G7 G8 W G12", "a run with a gap too wide"),
    ("1 set of 3 + 1 run of 4", "G7 G8 W G10 | R5 B5 W", "groups in the other order"),
    ("1 set of 3", "R5 B5 S", "a skip in a set"),
    ("2 skips", "S S", "a skip part"),
    ("2 skips", "S W", "a wild in a skip part"),
    ("2 wilds", "W W", "a wild part"),
    ("2 wilds", "W R5", "a natural in a wild part"),
    ("1 set of 2 + 1 set of 2", "R5 W | W W", "one natural in two sets"),
    ("1 set of 3", "R3 B3 G7", "a set with a 7"),
    ("1 set of 3", "R7 B7 G3", "a set of 7s and a 3"),
    ("1 run of 4", "R1 R2 R7 R4", "a run with a 7 in it"),
    ("1 run of 4", "R3 R4 R5 R6 | R7", "a group too many"),
    ("2 sets of 3", "R5 B5 G5", "a group too few"),
    ("1 even or odd of 4", "R2 B4 G7 W", "an even group with an odd card"),
    ("7 cards of one color", "R1 R1 R3 R5 R7 R9 W", "a color group with a repeated card"),
    ("1 color set of 2", "R5 B5", "a color set of two colors"),
    ("1 set of 4", "R5 W W W", "one natural, three wilds"),
    ("1 set of 3 + 1 run of 3", "R3 B3 G3 | R3 R4 R5", "a 3 in both groups"),
    ("1 color even or odd of 3", "R2 R4 R6 R8", "a color even group of four"),
    ("1 run of 3 with colors {4: R/B; 5: G and Y; 6: any}", "G4 G5 R6",
     "a color-map run with a 4 of a color not allowed"),
    ("1 set of 3", "R5 R5 R5", "three copies of a card the deck has two of"),
    ("1 run of 12", "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 W", "a run longer than the numbers"),
    ("1 run of 4", "R1 R2 R3 R4 | S", "a skip laid as a group of its own"),
    ("1 set of 3 + 1 run of 3", "W W W | W W W", "two groups of wilds only"),
    ("1 run of 4", "R9 R10 R11 R12 R1", "a run going on from 12 to 1"),
    ("2 sets of 3", "R5 B5 G5 | W W W", "a set of naturals and a set of wilds"),
    ("1 run of 4", "R1 R2 R12 R11", "a wrapping run laid high to low"),
    ("1 run of 12", "R5 R6 R7 R8 R9 R10 R11 R12 R1 R2 R3 R4", "every number, starting at 5"),
    ("1 run of 3 pairs", "R3 B3 R4 G4 R5 Y5", "a run of pairs"),
    ("1 run of 3 pairs", "R3 B3 R4 G4 R5 Y5 R6 B6", "a run of pairs longer than asked"),
    ("1 run of 3 pairs", "R3 B3 R4 G4 R5", "a run of pairs one card short"),
    ("1 run of 3 pairs", "R3 B3 G3 R4 G4 R5", "a number three times"),
    ("4 cards over 8", "R9 B10 G11 Y12", "four cards over 8"),
    ("4 cards over 8", "R9 B10 G11 Y12 R10", "five cards over 8"),
    ("4 cards over 8", "R8 B10 G11 Y12", "an 8 in an over-8 group"),
    ("4 cards under 5", "W W W W", "an under group of wilds only"),
    ("cards totalling 34", "R12 B11 G10 Y1", "a sum of 34"),
    ("cards totalling 34", "R12 B11 G10 Y2", "a sum of 35"),
    ("cards totalling 34", "R12 B11 W", "a wild standing for 11"),
    ("5 cards totalling 20", "R1 R2 R3 R4 R10 R5", "six cards for a sum of five"),
    ("cards of one color totalling 34", "B12 B11 B10 B1", "a color sum"),
    ("7 cards of one color", "B1 B3 B5 B7 B9 B11 S", "a skip as a blue card"),
    ("7 cards of one color", "R1 R3 R5 R7 R9 R11 S", "a skip among red cards"),
]


def layouts_corners() -> Iterator[Raw]:
    return crossed("layouts", "corner", LAYOUT_CORNERS, VARIANTS,
                  lambda row: (row[2], {"phase": row[0],
                                        "groups": [g.split() for g in row[1].split("|")]}))


def _random_layouts(key: str, count: int, most: int, kinds: list[tuple[str, tuple[int, ...]]],
                    family: str, what: str) -> Iterator[Raw]:
    r = rng(key)
    for i in range(count):
        vname, ch = r.choice(VARIANTS)
        rules = rules_for(ch)
        phase = random_phase(r, rules, most, kinds)
        meld = meld_of(phase, rules, r) if phase is not None else None
        if meld is None:
            continue
        laid = shuffled(r, [shuffled(r, g) for g in meld])
        how_laid = "laid as found"
        if r.random() < 0.6:
            how, laid = broken(r, laid, rules)
            how_laid = f"a card {how}"
        yield {"id": f"layouts-{family}-{i:04d}",
               "description": f"a seeded random layout{what}, {how_laid} ({vname})",
               "changes": ch, "input": {"phase": str(phase), "groups": laid}}


def layouts_random() -> Iterator[Raw]:
    return _random_layouts("layouts-random", 600, 14, RANDOM_KINDS, "random", "")


def layouts_random_kinds() -> Iterator[Raw]:
    return _random_layouts("layouts-random-kinds", 300, 12, NEW_KINDS, "kinds", " of new kinds")


# Layouts whose wilds say what they stand for (`W=6`, `W=R6`, `W=R`): the stated number or
# color is the wild's, as a natural's would be. Append only.
LAYOUT_WILD_CORNERS: list[tuple[str, str, str]] = [
    ("1 run of 4", "R4 R5 W=6 R7", "a wild said to stand for the 6 of 4-7"),
    ("1 run of 4", "R4 R5 W=9 R7", "a wild said to stand for a 9 in 4-7"),
    ("1 run of 4", "W=3 R4 R5 R6", "a wild said to stand for the 3 below 4-6"),
    ("1 run of 4", "R4 R5 R6 W=8", "a wild said to stand for an 8 above 4-6"),
    ("1 run of 4", "R4 R5 W=5 R7", "a wild said to stand for a 5 a natural is"),
    ("1 run of 4", "W=1 W=2 R3 R4", "two wilds said to stand for 1 and 2"),
    ("1 run of 4", "W=R1 R2 R3 R4", "a wild said to be the red 1"),
    ("1 color run of 4", "W=B1 R2 R3 R4", "a wild said to be blue in a red color run"),
    ("1 color run of 4", "W=R1 R2 R3 R4", "a wild said to be red in a red color run"),
    ("1 color run of 4", "R4 R5 R6 W=B7", "a wild said to be the blue 7 of a red color run"),
    ("1 set of 3", "R6 B6 W=6", "a wild said to stand for a 6 in a set of 6s"),
    ("1 set of 3", "R6 B6 W=5", "a wild said to stand for a 5 in a set of 6s"),
    ("1 set of 3", "R6 B6 W=G6", "a wild said to be the green 6"),
    ("1 color set of 2", "R5 W=B5", "a wild said to be blue in a red color set"),
    ("1 color set of 2", "R5 W=R5", "a wild said to be the red 5 of a red color set"),
    ("7 cards of one color", "R1 R3 R5 R7 R9 R11 W=B", "a wild said to be blue in a red group"),
    ("7 cards of one color", "R1 R3 R5 R7 R9 R11 W=R", "a wild said to be red in a red group"),
    ("7 cards of one color", "R1 R3 R5 R7 R9 R11 W=R4", "a wild said to be the red 4"),
    ("1 even or odd of 4", "R2 B4 G6 W=7", "a wild said to stand for a 7 in an even group"),
    ("1 even or odd of 4", "R2 B4 G6 W=8", "a wild said to stand for an 8 in an even group"),
    ("1 color even or odd of 3", "R2 R4 W=B6", "a wild said to be blue in a red even group"),
    ("2 sets of 3", "R5 B5 W=5 | W=6 G6 R6", "two sets, each with a wild said to be its number"),
    ("2 sets of 3", "R5 B5 W=6 | W=5 G6 R6", "two sets, each wild said to be the other's number"),
    ("1 run of 4", "R10 R11 R12 W=9", "a wild said to stand for the 9 below 10-12"),
    ("1 run of 4", "R11 R12 W=1 W=2", "wilds said to be 1 and 2 after 11-12 (wrap-around)"),
    ("1 run of 4", "R5 W=7 R8 W=6", "two wilds said to fill a run's gap"),
    ("1 run of 4", "R5 W=6 R8 W=6", "two wilds said to be one number"),
]


def layouts_wild_corners() -> Iterator[Raw]:
    return crossed("layouts", "wild-corner", LAYOUT_WILD_CORNERS, VARIANTS,
                  lambda row: (row[2], {"phase": row[0],
                                        "groups": [g.split() for g in row[1].split("|")]}))


# The kinds whose wilds may say a number or a color, drawn for positioned wilds. Append only.
WILD_STATED_KINDS: list[tuple[str, tuple[int, ...]]] = [
    ("set", (3, 4)), ("run", (4, 5, 6)), ("color_run", (3, 4)), ("color", (4, 5, 6)),
    ("even_odd", (4, 5)), ("color_even_odd", (3, 4)), ("color_set", (2, 3)),
]


def stated(card: str, rules: Rules, r: random.Random) -> str:
    """A wild in place of the natural ``card``, saying what it stands for: its number, its
    color and number, or (at random) its color alone."""
    c = parse_one(card, rules)
    how = r.choice(("number", "both", "both", "color"))
    if how == "number":
        return f"W={c.number}"
    return f"W={c.color}" if how == "color" else f"W={c.color}{c.number}"


def misstated(card: str, rules: Rules, r: random.Random) -> str:
    """A wild in place of the natural ``card`` said to be another number or another color."""
    c = parse_one(card, rules)
    if r.random() < 0.5:
        n = r.choice([n for n in rules.deck.numbers if n != c.number])
        return f"W={n}" if r.random() < 0.5 else f"W={c.color}{n}"
    color = r.choice([x for x in rules.deck.colors if x != c.color])
    return f"W={color}{c.number}"


def parse_one(card: str, rules: Rules) -> Card:
    from ...model.cards import parse_cards

    return parse_cards(card, rules.deck)[0]


def layouts_wild_stated() -> Iterator[Raw]:
    """Seeded random layouts with one or two naturals replaced by wilds saying what they
    stand for, and the same with one wild said to be what its group cannot hold there."""
    r = rng("layouts-wild-stated")
    for i in range(300):
        vname, ch = r.choice(VARIANTS[:6])
        rules = rules_for(ch)
        phase = random_phase(r, rules, 12, WILD_STATED_KINDS)
        meld = meld_of(phase, rules, r) if phase is not None else None
        if meld is None:
            continue
        laid = [shuffled(r, g) for g in meld]
        spots = [(gi, ci) for gi, g in enumerate(laid) for ci, c in enumerate(g)
                 if c not in ("W", "S")]
        if not spots:
            continue
        picked = r.sample(spots, min(len(spots), r.choice((1, 1, 2))))
        natural = laid[picked[0][0]][picked[0][1]]
        for gi, ci in picked:
            laid[gi][ci] = stated(laid[gi][ci], rules, r)
        what = "its wilds saying what they stand for"
        if i % 2:  # (every other case: the first wild said to be what the card was not)
            gi, ci = picked[0]
            laid[gi][ci] = misstated(natural, rules, r)
            what = "a wild said to be another number or color"
        yield {"id": f"layouts-wild-stated-{i:04d}",
               "description": f"a seeded random layout, {what} ({vname})",
               "changes": ch, "input": {"phase": str(phase), "groups": laid}}
