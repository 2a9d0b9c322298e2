"""An independent brute-force reference for `hands` and `layouts` cases.

It knows nothing of the solver (it imports neither `phasedsl.solver` nor `layout`): it
tries every subset of the hand for every group in turn and every reading of each card of
a wild number (natural or wild), and checks each group against the definitions directly.
A wild stands for whatever its group needs, so a group is legal when its natural cards
alone obey the group's rule and the wilds fill the rest; a wild laid saying what it stands
for (`W=6`, `W=R6`, `W=R`) obeys the rule with what it says, as a natural would, but is
no natural (it counts for no natural minimum). Export confirms every `hands` and
`layouts` answer with it: a disagreement is a bug in one of the two, never a vector.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations, permutations, product

from ..model.cards import Card, Deck
from ..model.phase import Phase

# A card: ("n", number, color), ("w", number or 0, color or "") (a wild with what it is said
# to stand for), ("s", 0, "").
Tuple = tuple[str, int, str]
WILD: Tuple = ("w", 0, "")


def as_tuple(card: Card) -> Tuple:
    if card.wild:
        return ("w", card.number or 0, card.color or "")
    if card.skip:
        return ("s", 0, "")
    return ("n", card.number, card.color)


def _one(values: set) -> bool:
    return len(values) <= 1


def numbers(known: list[Tuple]) -> list[int]:
    """The numbers the cards show: each natural's, each wild's that says one."""
    return [c[1] for c in known if c[1]]


def colors(known: list[Tuple]) -> set[str]:
    return {c[2] for c in known if c[2]}


# What the known cards of a group of each (non-run) kind must share (the naturals, and
# each wild as far as it says what it stands for).
NATURAL_RULES: dict[str, Callable[[list[Tuple]], bool]] = {
    "set": lambda k: _one(set(numbers(k))),
    "color_set": lambda k: _one(set(numbers(k))) and _one(colors(k)),
    "color": lambda k: _one(colors(k)),
    "even_odd": lambda k: _one({n % 2 for n in numbers(k)}),
    "color_even_odd": lambda k: _one({n % 2 for n in numbers(k)}) and _one(colors(k)),
}
RUNS = ("run", "color_run")
PAIR_RUNS = ("pair_run", "color_pair_run")
SUMS = ("sum", "color_sum")
SETS = ("set", "color_set")


class Spec:
    """The rule options the definitions read."""

    def __init__(self, deck: Deck, min_nat: int = 1, scope: str = "group", share: bool = True,
                 one_color_runs: bool = False, wild_as_skip: bool = False, extras: bool = True,
                 wild_numbers: frozenset[int] = frozenset(), wrap: bool = False,
                 blue: str | None = None) -> None:
        self.deck, self.min_nat, self.scope, self.share = deck, min_nat, scope, share
        self.one_color_runs, self.wild_as_skip, self.extras = one_color_runs, wild_as_skip, extras
        self.wild_numbers = wild_numbers
        self.wrap = wrap  # runs may run on from the top number to the bottom
        self.blue = blue  # the blue letter when a skip may be laid as a blue card


def spec_of(rules) -> Spec:
    blue = rules.deck.color_letter("blue") if rules.skip_counts_as_blue else None
    return Spec(rules.deck, rules.min_naturals, rules.natural_scope, rules.sets_share_number,
                rules.runs_one_color, rules.wild_as_skip, rules.extras, rules.wild_numbers,
                rules.runs_wrap, blue)


def windows(length: int, spec: Spec) -> list[set[int]]:
    """Every set of ``length`` numbers in a row (running on from the top number to the bottom
    where runs wrap); none longer than the deck's numbers."""
    low, high = spec.deck.low, spec.deck.high
    count = high - low + 1
    if length > count:
        return []
    starts = range(low, high + 1) if spec.wrap and length < count else range(low, high - length + 2)
    return [{low + (s - low + i) % count for i in range(length)} for s in starts]


def group_ok(group, cards: tuple[Tuple, ...], spec: Spec, per_group: int) -> bool:
    kind = group.kind.value
    if kind == "skip":
        return all(c[0] == "s" or (spec.wild_as_skip and c[0] == "w") for c in cards)
    if kind == "wild":
        return all(c[0] == "w" for c in cards)
    skips = any(c[0] == "s" for c in cards)
    # (skip_counts_as_blue: a skip in a plain color group is a blue card without a number)
    if skips and not (spec.blue is not None and kind == "color" and group.colors is None):
        return False
    nat = [c for c in cards if c[0] == "n"]
    if len(nat) < per_group:
        return False
    known = [c for c in cards if c[0] == "n" or (c[0] == "w" and (c[1] or c[2]))]
    if kind in SUMS:
        return sum_ok(group, len(cards), known, spec)
    if kind in RUNS:
        return run_ok(group, len(cards), known, spec, kind == "color_run" or spec.one_color_runs)
    if kind in PAIR_RUNS:
        return pairs_ok(len(cards), known, spec, kind == "color_pair_run" or spec.one_color_runs)
    if kind == "over":
        return all(n > group.bound for n in numbers(known))
    if kind == "under":
        return all(n < group.bound for n in numbers(known))
    if skips:
        return _one(colors(known) | {spec.blue})
    return NATURAL_RULES[kind](known)


def sum_ok(group, size: int, nat: list[Tuple], spec: Spec) -> bool:
    """Some number of the deck for each wild makes the numbers add up to the total (and a
    color sum's naturals share a color)."""
    if group.kind.value == "color_sum" and not _one(colors(nat)):
        return False
    reach = {sum(numbers(nat))}
    for _ in range(size - len(numbers(nat))):  # every value for each wild that says none
        reach = {t + v for t in reach for v in spec.deck.numbers if t + v <= group.total}
    return group.total in reach


def pairs_ok(size: int, nat: list[Tuple], spec: Spec, one_color: bool) -> bool:
    """Two cards of each of size/2 numbers in a row: no number held three times."""
    nums = numbers(nat)
    if size % 2 or any(nums.count(n) > 2 for n in nums):
        return False
    if one_color and not _one(colors(nat)):
        return False
    return any(set(nums) <= w for w in windows(size // 2, spec))


def run_ok(group, size: int, nat: list[Tuple], spec: Spec, one_color: bool) -> bool:
    nums = numbers(nat)
    if len(set(nums)) != len(nums) or (one_color and not _one(colors(nat))):
        return False
    allowed = dict(group.colors) if group.colors is not None else None
    for window in windows(size, spec):
        if not all(n in window for n in nums):
            continue
        if allowed is not None and not (all(n in allowed for n in window)
                                        and all(c[2] in allowed[c[1]] for c in nat
                                                if c[1] and c[2])):
            continue
        return True
    return False


def _readings(cards: list[Tuple], spec: Spec):
    """Every reading of the cards of a wild number: each one natural or wild."""
    flex = [i for i, c in enumerate(cards) if c[0] == "n" and c[1] in spec.wild_numbers]
    for as_wild in product((False, True), repeat=len(flex)):
        out = list(cards)
        for i, w in zip(flex, as_wild, strict=True):
            if w:
                out[i] = WILD
        yield out


def _per_group(group, spec: Spec, size: int) -> int:
    if spec.scope != "group" or group.kind.value in ("wild", "skip"):
        return 0
    return min(spec.min_nat, size)


def can_make(phase: Phase, hand: list[Card], spec: Spec) -> bool:
    """Does some choice of exactly-sized groups from ``hand`` lay ``phase``?"""
    groups = phase.groups
    for reading in _readings([as_tuple(c) for c in hand], spec):
        if _rec(groups, 0, sorted(reading), 0, frozenset(), spec):
            return True
    return False


def _rec(groups, i: int, left: list[Tuple], naturals: int, shown: frozenset, spec: Spec) -> bool:
    if i == len(groups):
        return spec.scope == "group" or naturals >= spec.min_nat
    g = groups[i]
    if sum(x.size for x in groups[i:]) > len(left):
        return False
    per = _per_group(g, spec, g.size)
    seen = set()
    # (a sum of any number of cards: every size from its fewest up)
    sizes = range(g.size, len(left) + 1) if g.any_count else (g.size,)
    for idx in (ix for k in sizes for ix in combinations(range(len(left)), k)):
        pick = tuple(left[j] for j in idx)
        if pick in seen:
            continue
        seen.add(pick)
        if not group_ok(g, pick, spec, per):
            continue
        nat = [c for c in pick if c[0] == "n"]
        sn = shown
        if g.kind.value in SETS and nat:
            if not spec.share and nat[0][1] in shown:
                continue
            sn = shown | {nat[0][1]}
        taken = set(idx)
        rest = [c for j, c in enumerate(left) if j not in taken]
        if _rec(groups, i + 1, rest, naturals + len(nat), sn, spec):
            return True
    return False


def layout_ok(phase: Phase, layout: list[list[Card]], spec: Spec) -> bool:
    """Is ``layout`` a legal laying of ``phase``: some pairing of the laid groups with the
    phase's groups and some reading of the wild-number cards under which every group is
    one of its kind at its size (or larger, with extras), the natural minimum holds and,
    unless sets share numbers, the sets show different numbers (a set of wilds only taking
    a number left free)."""
    groups = phase.groups
    if len(layout) != len(groups):
        return False
    laid = [c for cards in layout for c in cards]
    plain = [c.plain() for c in laid]
    if any(plain.count(c) > spec.deck.supply(c) for c in set(plain)):
        return False  # more copies of a card than the deck holds
    flat = [as_tuple(c) for c in laid]
    cuts = [0]
    for cards in layout:
        cuts.append(cuts[-1] + len(cards))
    for reading in _readings(flat, spec):
        played = [tuple(reading[cuts[k]:cuts[k + 1]]) for k in range(len(layout))]
        if spec.scope == "phase" and sum(c[0] == "n" for g in played for c in g) < spec.min_nat:
            continue
        for perm in permutations(range(len(groups))):
            if _paired_ok([groups[j] for j in perm], played, spec):
                return True
    return False


def _paired_ok(groups, played, spec: Spec) -> bool:
    shown: set[int] = set()
    free = 0
    for g, cards in zip(groups, played, strict=True):
        if len(cards) < g.size:
            return False
        if len(cards) > g.size and not g.any_count and (not spec.extras or g.kind.value in SUMS):
            return False  # (extras never make a fixed count of cards add up to more)
        if not group_ok(g, cards, spec, _per_group(g, spec, g.size)):
            return False
        if g.kind.value in SETS:
            nums = set(numbers([c for c in cards if c[0] != "s"]))
            if nums:
                if not spec.share and nums & shown:
                    return False
                shown |= nums
            else:
                free += 1
    return spec.share or len(shown) + free <= spec.deck.high - spec.deck.low + 1


def deck_kinds(deck: Deck) -> list[Card]:
    """One card of every kind the deck holds (each number in each color, a wild, a skip)."""
    return list(dict.fromkeys(deck.all_cards()))


def confirm_hand(phase: Phase, hand: list[Card], spec: Spec, answer: dict) -> str | None:
    """Why ``answer`` (a `hands` answer) is wrong by the definitions, or None.

    Made is checked exactly; one short, the outs are exactly the cards of the deck whose
    addition makes the phase (of those the deck has a copy of beyond the hand's); more
    short, that no single card completes it (it is at least 2 short)."""
    made = can_make(phase, hand, spec)
    if made != answer["made"]:
        return f"made: reference {made}, answer {answer['made']}"
    if made:
        return None if answer["short_by"] == 0 else "a made hand is 0 short"
    # (a card the hand already holds every copy of is not one the hand can draw)
    kinds = [c for c in deck_kinds(spec.deck) if hand.count(c) < spec.deck.supply(c)]
    outs = [c for c in kinds if can_make(phase, [*hand, c], spec)]
    names = [str(c) for c in outs]
    if answer["short_by"] == 1:
        if sorted(names) != sorted(answer["outs"]):
            return f"outs: reference {names}, answer {answer['outs']}"
        return None
    if outs:
        return f"short by {answer['short_by']}, but {names[0]} completes it"
    return None
