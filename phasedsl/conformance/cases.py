"""The cases of each area, before their answers: deterministic, seeded generators.

Each area is a list of *families* (`FAMILIES`), each a generator of raw cases
`{"id", "description", "changes", "input"}` (`changes`: the dotted rules keys that differ
from the printed rules). Ids never change once published: a family's ids come from a
stable key (a pack, world and phase number; a table row and a rule variant) or are
numbered within the family, whose seed and order never change. New cases come as new rows
at the end of a table, new rule variants at the end of `VARIANTS`, or new families at the
end of an area's list.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from functools import cache

from ..errors import PhaseDSLError
from ..game import GameState
from ..game import moves as mv
from ..model.cards import Card, Deck, card_names
from ..model.group import Kind
from ..model.phase import Phase
from ..model.rules import Rules
from ..packs.pack import Pack, builtin_names, load_pack
from ..solver import SearchLimit, find
from .ruleset import changes as changes_of
from .ruleset import full, printed

Raw = dict

# Rule variants crossed with the corner tables: (name, dotted changes). Append only.
VARIANTS: list[tuple[str, dict]] = [
    ("printed", {}),
    ("natural-minimum-0", {"wilds.natural_minimum": 0}),
    ("natural-minimum-2", {"wilds.natural_minimum": 2}),
    ("natural-per-phase", {"wilds.natural_scope": "phase"}),
    ("sets-distinct", {"sets.share_number": False}),
    ("one-color-runs", {"runs.one_color": True}),
    ("wild-as-skip", {"wilds.as_skip": True}),
    ("exact-sizes", {"lay_down.extras": False}),
    ("wild-numbers-3", {"wild_numbers": [3]}),
    ("wild-numbers-7", {"wild_numbers": [7]}),
    ("runs-wrap", {"runs.wrap": True}),
    ("skip-as-blue", {"house_rules.skip_counts_as_blue": True}),
]
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
SCORING_VARIANTS: list[tuple[str, dict]] = [
    ("printed", {}),
    ("scoring-flat", {"scoring.low": 1, "scoring.high": 1, "scoring.skip": 1, "scoring.wild": 1}),
    ("scoring-heavy-wilds", {"scoring.wild": 50, "scoring.skip": 20}),
]

# Group kinds a random phase is made of, with the sizes that make sense. Append only.
RANDOM_KINDS: list[tuple[str, tuple[int, ...]]] = [
    ("set", (2, 3, 4, 5)),
    ("run", (3, 4, 5, 6, 7)),
    ("color_run", (3, 4, 5)),
    ("color", (4, 5, 6, 7)),
    ("even_odd", (4, 5, 6)),
    ("color_even_odd", (3, 4)),
    ("color_set", (2, 3)),
    ("wild", (1, 2)),
    ("skip", (1, 2)),
]
PHRASE_OF = {
    "set": "{n} sets of {s}", "run": "{n} runs of {s}", "color_run": "{n} color runs of {s}",
    "color": "{n} color groups of {s}", "even_odd": "{n} even or odd of {s}",
    "color_even_odd": "{n} color even or odd of {s}", "color_set": "{n} color sets of {s}",
    "wild": "{s} wilds", "skip": "{s} skips",
}


def rng(key: str) -> random.Random:
    return random.Random(f"phasedsl-conformance:{key}")


def rules_for(changes: dict) -> Rules:
    from .ruleset import solver_rules, with_changes

    return solver_rules(with_changes(printed(), changes))


# The kinds custom sets use (sums, runs of pairs, over/under), drawn with a few classic ones by
# families of their own, so that the classic families' cases stay as they were. Append only.
NEW_KINDS: list[tuple[str, tuple[int, ...]]] = [
    ("over", (3, 4)),
    ("under", (3, 4)),
    ("pair_run", (2, 3)),
    ("sum", (3, 4)),
    ("sum_any", (0,)),
    ("color_sum", (3,)),
    ("set", (2, 3)),
    ("run", (3, 4)),
    ("color", (4, 5)),
]
PHRASE_OF.update({
    "over": "{n} groups of {s} over 8", "under": "{n} groups of {s} under 5",
    "pair_run": "{n} runs of {s} pairs", "sum": "{n} groups of {s} totalling 24",
    "sum_any": "{n} groups totalling 30", "color_sum": "{n} color groups of {s} totalling 20",
})


def random_phrase(r: random.Random, groups: int,
                  kinds: list[tuple[str, tuple[int, ...]]] = RANDOM_KINDS) -> str:
    parts = []
    for _ in range(groups):
        kind, sizes = r.choice(kinds)
        parts.append(PHRASE_OF[kind].format(n=1, s=r.choice(sizes)))
    return " + ".join(parts)


def meld_of(phase: Phase, rules: Rules, r: random.Random, pool_size: int = 60) -> list[list[str]] | None:
    """A layout of ``phase`` from a seeded sample of the deck: each group's cards as laid
    (wilds plain, so that the layout says no more than a hand does)."""
    deck = rules.deck.all_cards()
    for size in (pool_size, len(deck)):
        pool = r.sample(deck, min(size, len(deck)))
        try:
            meld = find(phase, pool, rules)
        except SearchLimit:
            return None
        if meld is not None:
            return [[str(c.plain()) for c in g.cards] for g in meld.groups]
    return None


def shuffled(r: random.Random, items: list) -> list:
    out = list(items)
    r.shuffle(out)
    return out


def other_cards(deck: Deck, used: list[str], r: random.Random, k: int) -> list[str]:
    """``k`` cards of the deck not among ``used`` (as copies go)."""
    left = [str(c) for c in deck.all_cards()]
    for u in used:
        if u in left:
            left.remove(u)
    return r.sample(left, min(k, len(left)))


# ---------------------------------------------------------------------------- packs


def pack_phases() -> Iterator[tuple[str, str, dict, Phase, str, frozenset[int]]]:
    """(key, label, world settings, phase, text, wild numbers) for every phase of every pack."""
    for name in builtin_names():
        pack = pack_named(name)
        for w in pack.worlds:
            wkey = name if len(pack.worlds) == 1 else f"{name}-{w.name}"
            for e in w.phases:
                _, rules = pack.phase_entry(e.number, w.name if len(pack.worlds) > 1 else None) \
                    if e in w.played else (e, w.rules)
                label = f"{name}{'' if len(pack.worlds) == 1 else ' / ' + w.name} phase {e.number}"
                yield (f"{wkey}-{e.number}", label, w.settings, e.phase, e.text,
                       rules.wild_numbers)


def pack_changes(settings: dict, wild_numbers: frozenset[int]) -> dict:
    return changes_of(full(settings, wild_numbers))


# ---------------------------------------------------------------------------- phrases

PHRASE_TABLE = [
    "two sets of three", "1 set of 3 + 1 run of 4", "run of 4", "a set of three", "a pair",
    "2 pairs", "run out of 4", "series of 4", "sequence of 4", "straight of 4",
    "colored run of 4", "suit series of 4", "run of 4 in one color", "run of 4 in one suit",
    "run of 4 of one color", "run of 4 (in one color)", "7 of a suit", "7 of one color",
    "7 cards of one suit", "7 cards of the same color", "1 flush of 7", "2 flushes of 4",
    "odd or even out of 8", "8 even or odd cards", "even/odd of 8", "suit even or odd of 4",
    "2 suits odd or even out of 4", "set of 3 of the same suit", "set of 3 of one color",
    "suit set of 3", "set of 3 (same color)", "a pair of one color", "2 jokers",
    "2 wild cards", "a joker", "2 skip cards", "Phase 2: 2 sets of 3", "Stage 3: 1 run of 7.",
    "1 set of 3 and 1 set of 3", "1 run of 4 + 1 set of 3", "1 set of 3, 1 run of 4, and 1 pair",
    "1 wild + 1 wild", "three sets of two plus a run of five", "1 run of 4 & 1 color set of 2",
    "1 run of 9 with colors {1: red or blue, 2: any, 3: green or yellow, 4: any, 5: red or "
    "yellow, 6: any, 7: green or blue, 8: any, 9: green or red, 10: any, 11: blue or yellow}",
    "1 run of 3 with colors {4: R/B; 5: G and Y; 6: any}", "SET OF 3 + RUN OF 4",
    "1 set of 3 (flush)", "ten cards of one color", "1 even or odd of 10",
    "cards totalling 34", "5 cards totaling 34", "a 34-accumulation", "34-accumulation of one color",
    "cards of one colour adding up to 30", "2 groups of 4 totalling 20", "2 34-accumulations",
    "1 run of 3 pairs", "3 consecutive pairs", "1 color run of 2 pairs", "a run of 3 pairs in one color",
    "4 cards over 8", "4 over 8", "4 cards higher than 8", "4 cards below 5", "2 groups of 3 under 4",
    "1 set of 3 + cards totalling 34", "4 cards over 8 and 1 run of 3 pairs",
]
PHRASE_ERRORS = [
    "1 set of 3 + 1 rn of 4", "set of", "", "1 set of 17", "1 run of 13", "9 wilds",
    "9 color sets of 4", "1 set of 0", "2 sets of 3 +", "+ 1 set of 3", "1 set of three of",
    "1 run of 4 (flush of hearts)", "11 sets of 1", "1 run of 4 with colors {13: red}",
    "1 run of 3 with colors {1: purple}", "1 set of 1000000000", "one set of tree",
    "1 set of 3 1 run of 4", "1 sett of 3", "run of -4",
    "5 cards totalling 100", "cards totalling 0", "4 cards over 12", "4 cards under 1",
    "1 run of 13 pairs", "4 cards ovr 8", "3 consecutive", "99999-accumulation",
]


def phrases_table() -> Iterator[Raw]:
    for i, text in enumerate(PHRASE_TABLE):
        yield {"id": f"phrases-table-{i:03d}", "description": f"how {text!r} reads",
               "changes": {}, "input": {"phrase": text}}


def phrases_errors() -> Iterator[Raw]:
    # (a phrase listed here that reads after all, its remark ignored, is described so: its
    # place and id stay, as every published id does)
    for i, text in enumerate(PHRASE_ERRORS):
        try:
            Phase.parse(text)
            said = f"{text!r} reads: it is no error (what it says in brackets is ignored)"
        except PhaseDSLError:
            said = f"{text!r} is refused at a column"
        yield {"id": f"phrases-error-{i:03d}", "description": said, "changes": {},
               "input": {"phrase": text}}


def phrases_packs() -> Iterator[Raw]:
    for key, label, settings, _, text, _ in pack_phases():
        deck_only = {k: v for k, v in pack_changes(settings, frozenset()).items()
                     if k.startswith("deck.")}
        yield {"id": f"phrases-pack-{key}", "description": f"{label} as its pack writes it",
               "changes": deck_only, "input": {"phrase": text}}


WORDS = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]


def phrases_random() -> Iterator[Raw]:
    r = rng("phrases-random")
    joins = [" + ", " and ", " plus ", " & ", ", "]
    for i in range(200):
        parts = []
        for _ in range(r.randint(1, 3)):
            kind, sizes = r.choice(RANDOM_KINDS)
            n, s = r.randint(1, 2), r.choice(sizes)
            if kind in ("wild", "skip"):
                n = 1
            text = PHRASE_OF[kind].format(n=WORDS[n - 1] if r.random() < 0.3 else n,
                                          s=WORDS[s - 1] if r.random() < 0.3 else s)
            if r.random() < 0.2:
                text = text.upper()
            parts.append(text)
        phrase = r.choice(joins).join(parts)
        if r.random() < 0.1:  # a typo somewhere: an error at a column
            at = r.randrange(len(phrase))
            phrase = phrase[:at] + r.choice("xq#9") + phrase[at + 1:]
        yield {"id": f"phrases-random-{i:04d}", "description": "a seeded random phrase",
               "changes": {}, "input": {"phrase": phrase}}


# ---------------------------------------------------------------------------- hands


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


def _cross(area: str, family: str, rows: list, variants: list[tuple[str, dict]],
           build: Callable[[tuple], tuple[str, dict]]) -> Iterator[Raw]:
    for i, row in enumerate(rows):
        description, inp = build(row)
        for vname, ch in variants:
            yield {"id": f"{area}-{family}-{i:03d}-{vname}",
                   "description": f"{description} ({vname.replace('-', ' ')})",
                   "changes": ch, "input": inp, "variant": vname}


def hands_corners() -> Iterator[Raw]:
    return _cross("hands", "corner", HAND_CORNERS, VARIANTS,
                  lambda row: (row[2], {"phase": row[0], "hand": row[1].split()}))


def random_phase(r: random.Random, rules: Rules, most: int = 14,
                 kinds: list[tuple[str, tuple[int, ...]]] = RANDOM_KINDS) -> Phase | None:
    for _ in range(20):
        try:
            phase = Phase.parse(random_phrase(r, r.choice((1, 1, 2, 2, 2, 3)), kinds), rules.deck)
        except Exception:  # (a random phrase the deck cannot supply: draw another)
            continue
        if phase.cards_needed <= most:
            return phase
    return None


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


# ---------------------------------------------------------------------------- layouts


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
    return _cross("layouts", "corner", LAYOUT_CORNERS, VARIANTS,
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
    return _cross("layouts", "wild-corner", LAYOUT_WILD_CORNERS, VARIANTS,
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
    from ..model.cards import parse_cards

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


# ---------------------------------------------------------------------------- hits

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
    return _cross("hits", "corner", HIT_CORNERS, HIT_VARIANTS, build)


def hits_random() -> Iterator[Raw]:
    from ..melds.hits import laid_group

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


# ---------------------------------------------------------------------------- scoring


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


# ---------------------------------------------------------------------------- games

# (pack, world) played by seeded greedy bots; append only.
GAME_PACKS: list[tuple[str, str | None]] = [
    ("original", None), ("short-game-5", None), ("masters", None), ("utah", None),
    ("postal", None), ("floating", None), ("thai", None), ("anti-phase", None),
    ("anti-phase-for-others", None), ("dealers-choice", None), ("even-phases", None),
    ("everyone-advances", None), ("japanese-wild-rules", None), ("masters-variant-1", None),
    ("masters-variant-2", None), ("one-color-runs", None), ("pick-a-phase", None),
    ("playing-cards", None), ("truly-wild", None), ("short-game-8", None),
    ("world-tour", "jazz-club"), ("japanese-lists", "japanese-list-2"),
]


def _game_input(pack, world: str | None, log: tuple[str, ...]) -> tuple[dict, dict]:
    import json

    w = pack.world(world)
    ch = changes_of(full(w.settings))
    events = [json.loads(line) for line in log]
    # a case's pack is its phases and rules, one world: the log names none
    events[0] = {**events[0], "world": None}
    return ch, {"phases": [e.text for e in w.phases], "log": events}


@cache
def pack_named(name: str):
    """A built-in pack, read once per export (a game family plays each pack many times)."""
    return load_pack(name)


def _played(name: str, world: str | None, seed: int, players: int, moves: int):
    from ..design.simulate import MAX_MOVES, play_game

    pack = pack_named(name)
    rec = play_game(pack, players, "greedy", seed=seed, index=0, world=world, keep_log=True,
                    max_moves=moves or MAX_MOVES)
    return pack, rec.log


def games_whole() -> Iterator[Raw]:
    for name, world in GAME_PACKS:
        for seed in (1,):
            pack, log = _played(name, world, seed, 2, 0)
            ch, inp = _game_input(pack, world, log)
            yield {"id": f"games-whole-{name}{'-' + world if world else ''}-{seed}",
                   "description": f"a whole game of {name}{' / ' + world if world else ''} "
                                  f"by two greedy bots (seed {seed})",
                   "changes": ch, "input": inp}


def games_fragments() -> Iterator[Raw]:
    for name, world in GAME_PACKS:
        for seed in (11, 12, 13, 14):
            moves = 60 + 25 * (seed - 11)
            pack, log = _played(name, world, seed, 3, moves)
            ch, inp = _game_input(pack, world, log)
            yield {"id": f"games-fragment-{name}{'-' + world if world else ''}-{seed}",
                   "description": f"the first {moves} moves of a game of {name} by three greedy bots",
                   "changes": ch, "input": inp}


def _mutations() -> list[tuple[str, Callable]]:
    """Ways to break a log at one event (each: log, index, rng -> new event list or None).
    Append only."""
    def wrong_player(log, i, r):
        ev = dict(log[i])
        players = log[0]["players"]
        if "player" not in ev:
            return None
        ev["player"] = r.choice([p for p in players if p != ev["player"]])
        return [*log[:i], ev, *log[i + 1:]]

    def drop(log, i, r):
        return [*log[:i], *log[i + 1:]] if log[i]["type"] == "draw" else None

    def double(log, i, r):
        return [*log[:i + 1], log[i], *log[i + 1:]] if log[i]["type"] == "draw" else None

    def other_card(log, i, r):
        ev = dict(log[i])
        if ev["type"] not in ("discard", "hit") or "card" not in ev:
            return None
        ev["card"] = r.choice(["R1", "B7", "G12", "Y4", "W", "S"])
        return [*log[:i], ev, *log[i + 1:]]

    def lay_less(log, i, r):
        ev = dict(log[i])
        if ev["type"] != "lay":
            return None
        groups = [list(g) for g in ev["groups"]]
        g = r.randrange(len(groups))
        groups[g].pop(r.randrange(len(groups[g])))
        if not groups[g]:
            return None
        ev["groups"] = groups
        return [*log[:i], ev, *log[i + 1:]]

    def no_group(log, i, r):
        ev = dict(log[i])
        if ev["type"] != "hit":
            return None
        ev["on"] = {**ev["on"], "group": 9}
        return [*log[:i], ev, *log[i + 1:]]

    def early_lay(log, i, r):
        # a lay moved before its player's draw
        if log[i]["type"] != "lay" or log[i - 1]["type"] != "draw":
            return None
        return [*log[:i - 1], log[i], log[i - 1], *log[i + 1:]]

    return [("wrong-player", wrong_player), ("drop-draw", drop), ("double-draw", double),
            ("other-card", other_card), ("lay-less", lay_less), ("no-group", no_group),
            ("early-lay", early_lay)]


def games_mutated() -> Iterator[Raw]:
    from .answers import games as referee

    muts = _mutations()
    for name, world in GAME_PACKS:
        pack, log = _played(name, world, 21, 2, 150)
        ch, inp = _game_input(pack, world, log)
        events = inp["log"]
        r = rng(f"games-mutated-{name}-{world}")
        for mname, mutate in muts:
            for k in range(2):
                for _ in range(30):
                    i = r.randrange(2, len(events))
                    new = mutate(events, i, r)
                    if new is None:
                        continue
                    trial = {"phases": inp["phases"], "log": new[:i + 4]}
                    try:
                        got = referee(full_rules(ch), trial)
                    except Exception:  # (a log that does not read: another place)
                        continue
                    if got["legal"]:
                        continue
                    yield {"id": f"games-mutated-{name}{'-' + world if world else ''}-{mname}-{k}",
                           "description": f"a game of {name} broken at line {i + 1} ({mname})",
                           "changes": ch, "input": trial, "expected": got}
                    break


PROBE_PLAYERS = ["ann", "bob", "cat"]
PROBE_MOVES = 160  # each probe game's length at most (a state is a log prefix)
PROBE_STATES = 6  # states sampled from each of a pack's two games
PROBES_PER_CODE = 2
LEGAL_PER_TYPE = 1


def _probe_games(name: str, world: str | None) -> list[list[str]]:
    """Two seeded games of a pack by three players, as logs: greedy bots, and random moves
    with plays (lays, hits, swaps) favoured, so that laid groups are on the table."""
    import json

    from ..game import Game, view
    from ..players.bots import GreedyBot

    pack = pack_named(name)
    r = rng(f"games-probe-play-{name}-{world}")
    logs = []
    for kind in ("greedy", "random"):
        g = Game.new(pack, PROBE_PLAYERS, seed=r.randrange(10_000), world=world)
        bots = {p: GreedyBot(k) for k, p in enumerate(PROBE_PLAYERS)}
        for _ in range(PROBE_MOVES):
            if g.over:
                break
            st = g.state
            if kind == "greedy":
                move = bots[st.to_move].choose(view(st, st.to_move))
            else:
                moves = g.legal_moves()
                plays = [m for m in moves if isinstance(m, (mv.Lay, mv.Hit, mv.Swap))]
                move = r.choice(plays) if plays and r.random() < 0.9 else r.choice(moves)
            g = g.apply(move)
        header, *events = g.to_log()
        # a case's pack is its phases and rules, one world: the log names none
        logs.append([json.dumps({**json.loads(header), "world": None}), *events])
    return logs


def _probe_states(log: list[str], pack: Pack, r: random.Random) -> list[tuple[int, GameState]]:
    """(events before it, state) for a seeded sample of the states a log passes through,
    as the referee reads the log (no seed: the draw pile known only as a multiset); states
    in a turn's play with groups on the table are favoured."""
    from ..game import IllegalMove, apply
    from ..game.log import read_log

    read = read_log(log, pack=pack)
    state = read.state
    seen = []
    for k, ev in enumerate(read.events):
        seen.append((k + 1, state))
        try:
            state = apply(state, ev.move)
        except IllegalMove:  # (a log the in-memory pack reads otherwise: stop there)
            break
    seen = [(k, st) for k, st in seen if st.stage not in ("deal", "over")]
    laid = [x for x in seen if x[1].step == "play" and any(s.laid for s in x[1].seats)]
    # (a state between deal and play, where a pack has one: the first of each)
    picked = list({st.stage: (k, st) for k, st in reversed(seen) if st.stage != "turn"}.values())
    picked += r.sample(seen, min(PROBE_STATES // 2, len(seen)))
    picked += r.sample(laid, min(PROBE_STATES - len(picked), len(laid)))
    return sorted({k: (k, st) for k, st in picked}.values(), key=lambda x: x[0])


def probe_moves(state: GameState) -> list[mv.Move]:
    """``game.candidates`` and the moves a log may hold that no player would list: a lay
    (each one the referee lists, one with a phase number, one of the first cards held), a
    draw after the draw, a card not held, a name that is no player, a deal or a stop mid-hand,
    a declaration in a turn."""
    from ..game import legal_moves
    from ..game.candidates import candidates

    out = candidates(state)
    me = state.to_move
    if me is None or state.stage in ("deal", "over"):
        return out
    seat = state.seat(me)
    held = set(seat.hand)
    out.append(mv.Stop())
    out.append(mv.Deal(tuple((s.name, s.hand) for s in state.seats), seat.hand[0]))
    out += [mv.Declare(me, n) for n in (1, len(state.table.entries) + 1)]
    if state.stage != "turn":
        return out
    out.append(mv.Discard(me, seat.hand[0], "nobody-here"))
    if state.step == "draw":
        return out
    out += [mv.Draw(me, "deck"), mv.Draw(me, "discard")]
    gone = [c for c in dict.fromkeys(state.table.deck.all_cards()) if c not in held][:2]
    out += [mv.Discard(me, c) for c in gone]
    out += [mv.Hit(me, c, me, 1) for c in gone]
    out.append(mv.Hit(me, seat.hand[0], "nobody-here", 1))
    lays = [m for m in legal_moves(state) if isinstance(m, mv.Lay)][:2]
    out += lays
    out += [mv.Lay(me, lay.groups, n) for lay in lays[:1]
            for n in range(1, len(state.table.entries) + 2)]
    out.append(mv.Lay(me, (tuple(seat.hand[:3]),)))
    out.append(mv.Lay(me, (tuple(seat.hand),)))
    return out


def games_probes() -> Iterator[Raw]:
    """Each rule code the referee gives in a pack, probed: every candidate move
    (`game.candidates`) tried on sampled states of the pack's seeded games, the illegal
    ones grouped by rule code, up to two cases per code (the log to that state and the
    move), and a legal move of each type."""
    import json

    from ..game import IllegalMove, apply
    from .answers import games as referee
    from .ruleset import game_pack

    for name, world in GAME_PACKS:
        key = f"{name}{'-' + world if world else ''}"
        pack = pack_named(name)
        w = pack.world(world)
        ch = changes_of(full(w.settings))
        rules = full_rules(ch)
        phases = [e.text for e in w.phases]
        mem = game_pack(rules, phases)
        r = rng(f"games-probe-{key}")
        illegal: dict[str, list[tuple[list[str], mv.Move]]] = {}
        legal: dict[str, list[tuple[list[str], mv.Move]]] = {}
        for log in _probe_games(name, world):
            for k, state in _probe_states(log, mem, r):
                for move in probe_moves(state):
                    try:
                        apply(state, move)
                    except IllegalMove as e:
                        illegal.setdefault(e.rule, []).append((log[:k], move))
                        continue
                    legal.setdefault(type(move).__name__, []).append((log[:k], move))
        picks = [(code, f"rule {code}", found) for code, found in sorted(illegal.items())]
        picks += [(f"legal-{t.lower()}", f"a legal {t.lower()}", found)
                  for t, found in sorted(legal.items())]
        for label, what, found in picks:
            want = LEGAL_PER_TYPE if label.startswith("legal-") else PROBES_PER_CODE
            # (spread over the states found: the first and then a seeded other)
            order = [found[0], *r.sample(found[1:], min(len(found) - 1, 8))]
            n = 0
            for prefix, move in order:
                if n == want:
                    break
                trial = {"phases": phases,
                         "log": [json.loads(line) for line in prefix] + [move.to_log()]}
                got = referee(rules, trial)
                err = got["error"]
                if label.startswith("legal-") != got["legal"] or (
                        err is not None and (err["line"] != len(trial["log"])
                                             or err["rule"] != label)):
                    continue
                yield {"id": f"games-probe-{key}-{label.replace('_', '-')}-{n}",
                       "description": f"a game of {name}{' / ' + world if world else ''} "
                                      f"at line {len(prefix)}, then {what} "
                                      f"({type(move).__name__.lower()})",
                       "changes": ch, "input": trial, "expected": got}
                n += 1


ORIGINAL_PHASES = ["2 sets of 3", "1 set of 3 + 1 run of 4", "1 set of 4 + 1 run of 4",
                   "1 run of 7", "1 run of 8", "1 run of 9", "2 sets of 4",
                   "7 cards of one color", "1 set of 5 + 1 set of 2", "1 set of 5 + 1 set of 3"]


def fragment_event(text: str) -> dict:
    """One event of a hand-written fragment, in a short form (docs: FRAGMENTS)."""
    if text.startswith("deal "):
        hands, _, up = text[5:].rpartition(" up ")
        return {"type": "deal", "up": up.strip(),
                "hands": {p.strip(): cards.split() for p, _, cards in
                          (h.partition(":") for h in hands.split("/"))}}
    if text == "stop":
        return {"type": "stop"}
    player, _, rest = text.partition(": ")
    verb, *args = rest.split()
    ev: dict = {"type": verb, "player": player}
    if verb == "draw":  # draw deck R5 | draw discard | draw save R5
        ev["from"] = args[0]
        if args[1:]:
            ev["card"] = args[1]
    elif verb == "lay":  # lay R5 B5 W | G7 G8 G9 G10 [phase N]
        if "phase" in args:
            ev["phase"] = int(args[-1])
            args = args[:-2]
        ev["groups"] = [g.split() for g in " ".join(args).split("|")]
    elif verb in ("hit", "swap"):  # hit CARD OWNER GROUP | swap CARD OWNER GROUP [END]
        ev["card"] = args[0]
        ev["on"] = {"player": args[1], "group": int(args[2])}
        if args[3:]:
            ev["end"] = args[3]
    elif verb == "discard":  # discard CARD [skip P] [down P]
        ev["card"] = args[0]
        for k in range(1, len(args) - 1, 2):
            ev[args[k]] = args[k + 1]
    elif verb == "save":
        ev["card"] = args[0]
    elif verb == "declare":
        ev["phase"] = int(args[0])
    elif verb == "give":
        ev["to"] = args[0]
    elif verb == "abandon":
        ev["cards"] = args
    return ev


# Hand-written fragments: explicit deals (no seed), so that the hands are chosen. A row:
# (name, description, rules changes, phases or None for the printed ten, players (the last
# deals), events one a line in a short form: "deal ann: R1 ... / bob: ... up G5",
# "ann: draw deck R5", "ann: draw discard", "ann: lay R5 B5 W | G7 G8 G9 G10",
# "ann: hit G11 bob 2", "ann: discard S skip bob", "ann: save R3", "ann: declare 4",
# "ann: swap R6 bob 1 low", "ann: abandon R1 R2", "stop"), and what the referee must say:
# "legal" or the rule code of the last line; "{deal3}" and "{deal2}" are FRAGMENT_DEALS' deals.
# Append only: a row's name is its id.
FRAGMENT_DEALS = {
    "deal3": "deal ann: S R1 R2 R3 R4 B6 B7 B8 B9 G10 / bob: S Y1 Y2 Y3 Y4 G6 G7 G8 G9 R10 / "
             "cat: R11 R12 B11 B12 G11 G12 Y11 Y12 Y10 B10 up R9",
    "deal2": "deal ann: R5 B5 G5 Y5 R5 B5 G5 R7 B7 G7 / bob: R1 R2 R3 B1 B2 B3 G1 G2 G3 Y12 up R12",
}
# ann lays and hits until her last card is hit (going out by play).
OUT_BY_HIT = """
        {deal2}
        ann: draw deck Y5
        ann: lay R5 B5 G5 | R7 B7 G7
        ann: hit Y5 ann 1
        ann: hit R5 ann 1
        ann: hit B5 ann 1
        ann: hit G5 ann 1
        ann: hit Y5 ann 1
    """
# The hand the tie-break fragments start from: a one-phase game ("2 sets of 3") that both
# players make in the first hand, ann going out with the lower total.
TIE_HAND = """
        deal ann: R5 B5 G5 R7 B7 G7 Y5 Y7 G5 G7 / bob: R9 B9 G9 R11 B11 G11 Y1 Y2 Y3 Y4 up R12
        ann: draw deck B1
        ann: lay R5 B5 G5 | R7 B7 G7
        ann: discard B1
        bob: draw deck G1
        bob: lay R9 B9 G9 | R11 B11 G11
        bob: discard G1
        ann: draw deck Y5
        ann: hit Y5 ann 1
        ann: hit Y7 ann 2
        ann: hit G5 ann 1
        ann: hit G7 ann 2
        ann: discard Y5
"""


FRAGMENTS: list[tuple[str, str, dict, list[str] | None, str, str, str]] = [
    # -- skips (three players: cat deals, ann plays first)
    ("skip-twice", "a skip onto a player already due to lose a turn", {}, None, "ann bob cat", """
        {deal3}
        ann: draw deck G1
        ann: discard S skip cat
        bob: draw deck G2
        bob: discard S skip cat
    """, "skip_twice_in_round"),
    ("skip-twice-allowed", "a player skipped twice in one round where the pack allows it",
     {"house_rules.skip_once_per_round": False}, None, "ann bob cat", """
        {deal3}
        ann: draw deck G1
        ann: discard S skip cat
        bob: draw deck G2
        bob: discard S skip cat
        ann: draw deck G3
    """, "legal"),
    ("skip-self", "a skip naming the player who discards it", {}, None, "ann bob cat", """
        {deal3}
        ann: draw deck G1
        ann: discard S skip ann
    """, "skip_target"),
    ("skip-no-target", "a skip naming nobody where the discarder chooses", {}, None, "ann bob cat", """
        {deal3}
        ann: draw deck G1
        ann: discard S
    """, "skip_target"),
    ("skip-next-player", "skip_target next_player: a skip naming nobody skips the next player",
     {"house_rules.skip_target": "next_player"}, None, "ann bob cat", """
        {deal3}
        ann: draw deck G1
        ann: discard S
        cat: draw deck G2
    """, "legal"),
    ("skip-next-player-moves", "skip_target next_player: the skipped next player moves",
     {"house_rules.skip_target": "next_player"}, None, "ann bob cat", """
        {deal3}
        ann: draw deck G1
        ann: discard S
        bob: draw deck G2
    """, "not_your_turn"),
    ("skip-next-player-named-other", "skip_target next_player: a skip naming a player past the next",
     {"house_rules.skip_target": "next_player"}, None, "ann bob cat", """
        {deal3}
        ann: draw deck G1
        ann: discard S skip cat
    """, "skip_target"),
    ("skip-skipped-moves", "the skipped player moves in their lost turn", {}, None, "ann bob cat", """
        {deal3}
        ann: draw deck G1
        ann: discard S skip bob
        bob: draw deck G2
    """, "not_your_turn"),
    ("skip-from-discard", "taking a discarded skip from the pile", {}, None, "ann bob cat", """
        {deal3}
        ann: draw deck G1
        ann: discard S skip bob
        cat: draw discard
    """, "skip_from_discard"),
    ("skip-on-a-natural", "a skip target on a card that is no skip", {}, None, "ann bob cat", """
        {deal3}
        ann: draw deck G1
        ann: discard G1 skip bob
    """, "not_a_skip"),
    # -- going out (two players: bob deals, ann plays first; phase 1 is two sets of three)
    ("out-by-discard", "going out: a lay, four hits onto one's own set, the last card discarded",
     {}, None, "ann bob", """
        {deal2}
        ann: draw deck R9
        ann: lay R5 B5 G5 | R7 B7 G7
        ann: hit Y5 ann 1
        ann: hit R5 ann 1
        ann: hit B5 ann 1
        ann: hit G5 ann 1
        ann: discard R9
    """, "legal"),
    ("out-by-skip", "going out with a skip: it skips nobody", {}, None, "ann bob", """
        {deal2}
        ann: draw deck S
        ann: lay R5 B5 G5 | R7 B7 G7
        ann: hit Y5 ann 1
        ann: hit R5 ann 1
        ann: hit B5 ann 1
        ann: hit G5 ann 1
        ann: discard S skip bob
        deal ann: R1 R2 R3 B1 B2 B3 G1 G2 G3 Y12 / bob: R5 B5 G5 Y5 R5 B5 G5 R7 B7 G7 up R12
        bob: draw deck R9
    """, "legal"),
    ("out-by-hit", "the last card hit onto a group where a hand ends only with a discard",
     {}, None, "ann bob", OUT_BY_HIT, "cannot_go_out_by_play"),
    ("out-by-hit-allowed", "going out by a hit of the last card (go_out_without_discard)",
     {"house_rules.go_out_without_discard": True}, None, "ann bob", OUT_BY_HIT, "legal"),
    ("out-too-soon", "going out before play has come round to the dealer (postal rule)",
     {"house_rules.go_out_after_first_round": True}, None, "ann bob", """
        {deal2}
        ann: draw deck R9
        ann: lay R5 B5 G5 | R7 B7 G7
        ann: hit Y5 ann 1
        ann: hit R5 ann 1
        ann: hit B5 ann 1
        ann: hit G5 ann 1
    """, "cannot_go_out_yet"),
    # -- tie-breaks: a one-phase game, both players make it in the first hand, ann goes out
    ("tie-lowest-score", "both finish the last phase in one hand: the lowest total wins",
     {}, ["2 sets of 3"], "ann bob", TIE_HAND, "legal"),
    ("tie-replay-last-phase", "both finish the last phase in one hand: both play a tie-break hand",
     {"house_rules.tie_break": "replay_last_phase"}, ["2 sets of 3"], "ann bob", TIE_HAND, "legal"),
    ("tie-replay-played", "the tie-break hand on the last phase made: the first out wins",
     {"house_rules.tie_break": "replay_last_phase"}, ["2 sets of 3"], "ann bob",
     TIE_HAND + """        {deal2}
        bob: draw deck R9
        bob: discard R9
        ann: draw deck R9
        ann: lay R5 B5 G5 | R7 B7 G7
        ann: hit Y5 ann 1
        ann: hit R5 ann 1
        ann: hit B5 ann 1
        ann: hit G5 ann 1
        ann: discard R9
    """, "legal"),
    ("tie-over", "no tie-break hand where the lowest total has won", {}, ["2 sets of 3"],
     "ann bob",
     TIE_HAND + """        {deal2}
    """, "game_over"),
    ("tie-break-phase", "a tie-break hand of its own phase: the first to lay it wins",
     {"house_rules.tie_break": "replay_last_phase",
       "house_rules.tie_break_phase": "1 set of 3"}, ["2 sets of 3"], "ann bob",
     TIE_HAND + """        {deal2}
        bob: draw deck R9
        bob: discard R9
        ann: draw deck R9
        ann: lay R5 B5 G5
    """, "legal"),
    # -- the save pile (Masters)
    ("save-no-pile", "a save without the save pile", {}, None, "ann bob", """
        {deal2}
        ann: draw deck R9
        ann: save R9
    """, "no_save_pile"),
    ("save-and-draw-back", "a card saved, then drawn back from the save pile",
     {"house_rules.save_pile": True}, None, "ann bob", """
        {deal2}
        ann: draw deck R9
        ann: save R9
        bob: draw deck Y1
        bob: discard Y1
        ann: draw save R9
    """, "legal"),
    ("save-twice", "a second save in one hand", {"house_rules.save_pile": True}, None, "ann bob", """
        {deal2}
        ann: draw deck R9
        ann: save R9
        bob: draw deck Y1
        bob: discard Y1
        ann: draw deck Y11
        ann: save Y11
    """, "already_saved"),
    ("save-last-card", "saving the going-out card", {"house_rules.save_pile": True}, None,
     "ann bob", """
        {deal2}
        ann: draw deck R9
        ann: lay R5 B5 G5 | R7 B7 G7
        ann: hit Y5 ann 1
        ann: hit R5 ann 1
        ann: hit B5 ann 1
        ann: hit G5 ann 1
        ann: save R9
    """, "cannot_save_last_card"),
    # -- declared phases (Masters)
    ("declare-missing", "a draw before the player has declared their phase",
     {"phase_order": "any", "house_rules.declare_phase": "at_deal"}, None, "ann bob", """
        {deal2}
        ann: draw deck R9
    """, "must_declare"),
    ("declare-and-lay", "phases declared at the deal, the declared phase laid",
     {"phase_order": "any", "house_rules.declare_phase": "at_deal"}, None, "ann bob", """
        {deal2}
        ann: declare 1
        bob: declare 2
        ann: draw deck R9
        ann: lay R5 B5 G5 | R7 B7 G7
    """, "legal"),
    ("declare-other-laid", "a lay naming a phase that is not the one declared",
     {"phase_order": "any", "house_rules.declare_phase": "at_deal"}, None, "ann bob", """
        {deal2}
        ann: declare 2
        bob: declare 1
        ann: draw deck R9
        ann: lay R5 B5 G5 | R7 B7 G7 phase 1
    """, "wrong_phase"),
    ("declare-no-such-phase", "a declared phase the game does not have",
     {"phase_order": "any", "house_rules.declare_phase": "at_deal"}, None, "ann bob", """
        {deal2}
        ann: declare 11
    """, "phase_not_available"),
    ("declare-printed", "a declaration under the printed rules", {}, None, "ann bob", """
        {deal2}
        ann: declare 1
    """, "declare_not_allowed"),
    ("declare-when-laying-none", "a lay naming no phase where it is declared when laying",
     {"phase_order": "any", "house_rules.declare_phase": "when_laying"}, None, "ann bob", """
        {deal2}
        ann: draw deck R9
        ann: lay R5 B5 G5 | R7 B7 G7
    """, "phase_not_declared"),
    ("declare-when-laying", "a lay naming its phase where it is declared when laying",
     {"phase_order": "any", "house_rules.declare_phase": "when_laying"}, None, "ann bob", """
        {deal2}
        ann: draw deck R9
        ann: lay R5 B5 G5 | R7 B7 G7 phase 1
    """, "legal"),
    # -- the take-back (Japanese page)
    ("take-back-printed", "a natural swapped for a laid wild under the printed rules", {}, None,
     "ann bob", """
        deal ann: R5 B5 W R7 B7 G7 G5 Y5 R1 R2 / bob: R1 R2 R3 B1 B2 B3 G1 G2 G3 Y12 up R12
        ann: draw deck R9
        ann: lay R5 B5 W | R7 B7 G7
        ann: swap G5 ann 1
    """, "swap_not_allowed"),
    ("take-back-reused", "a wild taken back and hit again the same turn",
     {"wilds.take_back": True, "house_rules.wild_reuse_same_turn": True}, None, "ann bob", """
        deal ann: R5 B5 W R7 B7 G7 G5 Y5 R1 R2 / bob: R1 R2 R3 B1 B2 B3 G1 G2 G3 Y12 up R12
        ann: draw deck R9
        ann: lay R5 B5 W | R7 B7 G7
        ann: swap G5 ann 1
        ann: hit W ann 2
        ann: discard R9
    """, "legal"),
    ("take-back-discarded", "a wild taken back and discarded the same turn",
     {"wilds.take_back": True, "house_rules.wild_reuse_same_turn": True}, None, "ann bob", """
        deal ann: R5 B5 W R7 B7 G7 G5 Y5 R1 R2 / bob: R1 R2 R3 B1 B2 B3 G1 G2 G3 Y12 up R12
        ann: draw deck R9
        ann: lay R5 B5 W | R7 B7 G7
        ann: swap G5 ann 1
        ann: discard W
    """, "must_reuse_wild"),
    # -- abandoning a phase (Masters variant 2)
    ("abandon-printed", "a phase abandoned under the printed rules", {}, None, "ann bob", """
        {deal2}
        ann: draw deck R9
        ann: lay R5 B5 G5 | R7 B7 G7
        ann: abandon R4 R6 R8 B4 B6 B8
    """, "abandon_not_allowed"),
    ("abandon", "a phase laid and abandoned in one turn, six cards drawn",
     {"house_rules.abandon_phase": True}, None, "ann bob", """
        {deal2}
        ann: draw deck R9
        ann: lay R5 B5 G5 | R7 B7 G7
        ann: abandon R4 R6 R8 B4 B6 B8
        ann: discard R9
    """, "legal"),
    ("abandon-later", "a phase abandoned a turn after it was laid",
     {"house_rules.abandon_phase": True}, None, "ann bob", """
        {deal2}
        ann: draw deck R9
        ann: lay R5 B5 G5 | R7 B7 G7
        ann: discard R9
        bob: draw deck Y1
        bob: discard Y1
        ann: draw deck Y11
        ann: abandon R4 R6 R8 B4 B6 B8
    """, "abandon_not_allowed"),
    # -- a plain wild hit onto a run open at both ends, then a natural only one end leaves room for
    ("hit-end", "a plain W onto 4-7 goes high (W=8): a 3 then fits below",
     {}, ["1 set of 3 + 1 run of 4", "2 sets of 3"], "ann bob", """
        deal ann: R5 B5 G5 R4 R5 R6 R7 W B3 Y2 / bob: R1 R2 R3 B1 B2 B3 G1 G2 G3 Y12 up R12
        ann: draw deck Y9
        ann: lay R5 B5 G5 | R4 R5 R6 R7
        ann: hit W ann 2
        ann: hit B3 ann 2
    """, "legal"),
    ("hit-end-low", "a plain W onto 4-7 goes low under hit_end low (W=3): a 3 no longer fits",
     {"wilds.hit_end": "low"}, ["1 set of 3 + 1 run of 4", "2 sets of 3"], "ann bob", """
        deal ann: R5 B5 G5 R4 R5 R6 R7 W B3 Y2 / bob: R1 R2 R3 B1 B2 B3 G1 G2 G3 Y12 up R12
        ann: draw deck Y9
        ann: lay R5 B5 G5 | R4 R5 R6 R7
        ann: hit W ann 2
        ann: hit B3 ann 2
    """, "hit_does_not_fit"),
    ("hit-end-low-high-card", "under hit_end low an 8 fits above a W hit onto 4-7",
     {"wilds.hit_end": "low"}, ["1 set of 3 + 1 run of 4", "2 sets of 3"], "ann bob", """
        deal ann: R5 B5 G5 R4 R5 R6 R7 W B8 Y2 / bob: R1 R2 R3 B1 B2 B3 G1 G2 G3 Y12 up R12
        ann: draw deck Y9
        ann: lay R5 B5 G5 | R4 R5 R6 R7
        ann: hit W ann 2
        ann: hit B8 ann 2
    """, "legal"),
    ("hit-end-stated", "a W=3 onto 4-7 says its end: an 8 then fits above", {},
     ["1 set of 3 + 1 run of 4", "2 sets of 3"], "ann bob", """
        deal ann: R5 B5 G5 R4 R5 R6 R7 W B8 Y2 / bob: R1 R2 R3 B1 B2 B3 G1 G2 G3 Y12 up R12
        ann: draw deck Y9
        ann: lay R5 B5 G5 | R4 R5 R6 R7
        ann: hit W=3 ann 2
        ann: hit B8 ann 2
    """, "legal"),
    # -- deals, the end of a hand, the clock
    ("deal-short", "a hand dealt nine cards", {}, None, "ann bob", """
        deal ann: R5 B5 G5 Y5 R5 B5 G5 R7 B7 / bob: R1 R2 R3 B1 B2 B3 G1 G2 G3 Y12 up R12
    """, "bad_deal"),
    ("deal-stranger", "a deal to a player who is not in the game", {}, None, "ann bob", """
        deal ann: R5 B5 G5 Y5 R5 B5 G5 R7 B7 G7 / zed: R1 R2 R3 B1 B2 B3 G1 G2 G3 Y12 up R12
    """, "bad_deal"),
    ("no-deal-after-out", "a draw where the next hand's deal is due", {}, None, "ann bob", """
        {deal2}
        ann: draw deck R9
        ann: lay R5 B5 G5 | R7 B7 G7
        ann: hit Y5 ann 1
        ann: hit R5 ann 1
        ann: hit B5 ann 1
        ann: hit G5 ann 1
        ann: discard R9
        bob: draw deck R9
    """, "not_now"),
    ("stop", "a stop where the clock rule is played", {"house_rules.baseball_short_game": True},
     None, "ann bob", """
        {deal2}
        ann: draw deck R9
        ann: discard R9
        stop
    """, "legal"),
    ("stop-printed", "a stop under the printed rules", {}, None, "ann bob", """
        {deal2}
        ann: draw deck R9
        ann: discard R9
        stop
    """, "stop_not_allowed"),
    # -- dealer's choice of a turned-up wild
    ("dealer-choice-draw", "a draw before the dealer gives the turned-up wild",
     {"house_rules.dealer_chooses_wild_recipient": True}, None, "ann bob", """
        deal ann: S B5 G5 Y5 R5 B5 G5 R7 B7 G7 / bob: R1 R2 R3 B1 B2 B3 G1 G2 G3 Y12 up W
        ann: draw deck R9
    """, "dealer_must_choose"),
    ("dealer-choice-given", "the turned-up wild given; its receiver discards",
     {"house_rules.dealer_chooses_wild_recipient": True}, None, "ann bob", """
        deal ann: S B5 G5 Y5 R5 B5 G5 R7 B7 G7 / bob: R1 R2 R3 B1 B2 B3 G1 G2 G3 Y12 up W
        bob: give ann
        ann: discard G7
        bob: draw deck R9
    """, "legal"),
    ("dealer-choice-draws", "the receiver of the turned-up wild draws instead of discarding",
     {"house_rules.dealer_chooses_wild_recipient": True}, None, "ann bob", """
        deal ann: S B5 G5 Y5 R5 B5 G5 R7 B7 G7 / bob: R1 R2 R3 B1 B2 B3 G1 G2 G3 Y12 up W
        bob: give ann
        ann: draw deck R9
    """, "must_discard"),
    ("dealer-choice-skip", "the receiver of the turned-up wild discards a skip",
     {"house_rules.dealer_chooses_wild_recipient": True}, None, "ann bob", """
        deal ann: S B5 G5 Y5 R5 B5 G5 R7 B7 G7 / bob: R1 R2 R3 B1 B2 B3 G1 G2 G3 Y12 up W
        bob: give ann
        ann: discard S skip bob
    """, "skip_not_allowed"),
    # -- floating: every card played out, the floater goes on
    ("float-takes-playable", "a floater draws from the deck past a playable discard",
     {"house_rules.floating": True}, None, "ann bob", """
        {deal2}
        ann: draw deck Y5
        ann: lay R5 B5 G5 | R7 B7 G7
        ann: hit Y5 ann 1
        ann: hit R5 ann 1
        ann: hit B5 ann 1
        ann: hit G5 ann 1
        ann: hit Y5 ann 1
        bob: draw deck Y7
        bob: discard Y7
        ann: draw deck R9
    """, "must_take_playable"),
    ("float-plays-drawn", "a floater discards a drawn card that fits a laid group",
     {"house_rules.floating": True}, None, "ann bob", """
        {deal2}
        ann: draw deck Y5
        ann: lay R5 B5 G5 | R7 B7 G7
        ann: hit Y5 ann 1
        ann: hit R5 ann 1
        ann: hit B5 ann 1
        ann: hit G5 ann 1
        ann: hit Y5 ann 1
        bob: draw deck R4
        bob: discard R4
        ann: draw deck Y7
        ann: discard Y7
    """, "must_play_drawn"),
    ("float-out", "a floater goes out by discarding a drawn card that fits nothing",
     {"house_rules.floating": True}, None, "ann bob", """
        {deal2}
        ann: draw deck Y5
        ann: lay R5 B5 G5 | R7 B7 G7
        ann: hit Y5 ann 1
        ann: hit R5 ann 1
        ann: hit B5 ann 1
        ann: hit G5 ann 1
        ann: hit Y5 ann 1
        bob: draw deck R4
        bob: discard R4
        ann: draw deck Y9
        ann: discard Y9
    """, "legal"),
    # -- the anti-phase card (A)
    ("anti-phase-laid", "the anti-phase card laid in a group",
     {"house_rules.anti_phase_for_others": True}, None, "ann bob", """
        deal ann: R5 B5 A Y5 R5 B5 G5 R7 B7 G7 / bob: R1 R2 R3 B1 B2 B3 G1 G2 G3 Y12 up R12
        ann: draw deck R9
        ann: lay R5 B5 A | R7 B7 G7
    """, "not_a_phase_card"),
    ("anti-phase-out", "going out with the anti-phase card, naming who moves down",
     {"house_rules.anti_phase_for_others": True}, None, "ann bob", """
        {deal2}
        ann: draw deck A
        ann: lay R5 B5 G5 | R7 B7 G7
        ann: hit Y5 ann 1
        ann: hit R5 ann 1
        ann: hit B5 ann 1
        ann: hit G5 ann 1
        ann: discard A down bob
    """, "legal"),
    ("anti-phase-out-nobody", "going out with the anti-phase card naming nobody",
     {"house_rules.anti_phase_for_others": True}, None, "ann bob", """
        {deal2}
        ann: draw deck A
        ann: lay R5 B5 G5 | R7 B7 G7
        ann: hit Y5 ann 1
        ann: hit R5 ann 1
        ann: hit B5 ann 1
        ann: hit G5 ann 1
        ann: discard A
    """, "anti_phase_target"),
    ("anti-phase-early", "the anti-phase card discarded naming a player while cards are held",
     {"house_rules.anti_phase_for_others": True}, None, "ann bob", """
        {deal2}
        ann: draw deck A
        ann: discard A down bob
    """, "anti_phase_not_last"),

]


def games_handwritten() -> Iterator[Raw]:
    # (each keeps the rules it was written under: its answer may be the printed rules' too,
    # for another reason, and a case cut to the printed rules no longer tests its corner)
    for name, description, ch, phases, players, events, _ in FRAGMENTS:
        names = players.split()
        header = {"type": "game", "variant": "original", "world": None, "players": names,
                  "dealer": names[-1]}
        lines = events.format_map(FRAGMENT_DEALS).strip().splitlines()
        log = [header] + [fragment_event(line.strip()) for line in lines]
        yield {"id": f"games-hand-{name}", "description": description, "changes": ch,
               "input": {"phases": phases or ORIGINAL_PHASES, "log": log}, "keep": True}


def full_rules(ch: dict) -> dict:
    from .ruleset import with_changes

    return with_changes(printed(), ch)


FAMILIES: dict[str, list[Callable[[], Iterator[Raw]]]] = {
    "phrases": [phrases_table, phrases_errors, phrases_packs, phrases_random],
    "hands": [hands_packs, hands_corners, hands_random, hands_random_kinds],
    "layouts": [layouts_packs, layouts_corners, layouts_random, layouts_random_kinds,
                layouts_wild_corners, layouts_wild_stated],
    "hits": [hits_corners, hits_random],
    "scoring": [scoring_cards, scoring_random],
    "games": [games_whole, games_fragments, games_mutated, games_probes, games_handwritten],
}
