"""A slow, obviously-correct reference for the solver, kept independent of it.

It tries every way of picking exact-size groups from the hand, one group
after another, and checks each group against the definitions directly.
Nothing here imports the solver.
"""

from __future__ import annotations

from itertools import combinations

# A card is (kind, number, color): ("n", 5, "R"), ("w", None, None), ("s", None, None).


def card_tuple(card) -> tuple:
    if card.wild:
        return ("w", 0, "")
    if card.skip:
        return ("s", 0, "")
    return ("n", card.number, card.color)


def windows(length: int, low: int, high: int, wrap: bool = False) -> list[set[int]]:
    """Every set of ``length`` numbers in a row between low and high (with ``wrap``, also
    running on from high to low: 11 12 1 2); none longer than the deck's numbers."""
    count = high - low + 1
    if length > count:
        return []
    starts = range(low, high + 1) if wrap else range(low, high - length + 2)
    return [{low + (s - low + i) % count for i in range(length)} for s in starts]


def sum_ok(kind: str, cards: tuple, total: int, min_nat: int, low: int, high: int) -> bool:
    """A sum, by its definition: no skip, the natural minimum, one color for a color sum, and
    some number from low to high for each wild making the numbers add up to ``total``."""
    if not cards or any(c[0] == "s" for c in cards):
        return False
    nat = [c for c in cards if c[0] == "n"]
    if len(nat) < min_nat or (kind == "color_sum" and len({c[2] for c in nat}) > 1):
        return False
    reach = {sum(c[1] for c in nat)}
    for _ in range(len(cards) - len(nat)):  # every value for each wild
        reach = {r + v for r in reach for v in range(low, high + 1) if r + v <= total}
    return total in reach


def group_ok(kind: str, size: int, cards: tuple, min_nat: int, low: int, high: int,
             colors: dict | None, bound: int | None = None, wrap: bool = False,
             total: int | None = None, blue: str | None = None, wild_skip: bool = False) -> bool:
    """``bound``: an over/under group's; ``wrap``: runs may wrap from high to low; ``total``: a
    sum's; ``blue``: the blue color letter under skip_counts_as_blue (a skip in a color group
    with no color map takes the value "a blue card without a number", no natural);
    ``wild_skip``: a wild may be a skip (wild_as_skip)."""
    if len(cards) != size:
        return False
    if kind in ("sum", "color_sum"):
        return sum_ok(kind, cards, total or 0, min_nat, low, high)
    if kind == "skip":
        return all(c[0] == "s" or (wild_skip and c[0] == "w") for c in cards)
    if kind == "wild":
        return all(c[0] == "w" for c in cards)
    as_blue = blue is not None and kind == "color" and colors is None
    if any(c[0] == "s" for c in cards) and not as_blue:
        return False
    nat = [c for c in cards if c[0] == "n"]
    if len(nat) < min_nat:
        return False
    nums = {c[1] for c in nat}
    cols = {c[2] for c in nat} | ({blue} if any(c[0] == "s" for c in cards) else set())
    pars = {c[1] % 2 for c in nat}
    if kind == "set":
        return len(nums) <= 1
    if kind == "color_set":
        return len(nums) <= 1 and len(cols) <= 1
    if kind == "color":
        return len(cols) <= 1
    if kind == "even_odd":
        return len(pars) <= 1
    if kind == "color_even_odd":
        return len(pars) <= 1 and len(cols) <= 1
    if kind == "over":
        return all(c[1] > bound for c in nat)
    if kind == "under":
        return all(c[1] < bound for c in nat)
    if kind in ("pair_run", "color_pair_run"):
        # two cards of each of size/2 numbers in a row: each number held at most twice
        if size % 2 or any(sum(1 for c in nat if c[1] == n) > 2 for n in nums):
            return False
        if kind == "color_pair_run" and len(cols) > 1:
            return False
        return any(nums <= w for w in windows(size // 2, low, high, wrap))
    if kind in ("run", "color_run"):
        if len(nums) != len(nat):
            return False
        if kind == "color_run" and len(cols) > 1:
            return False
        for window in windows(size, low, high, wrap):
            if not all(c[1] in window for c in nat):
                continue
            if colors is not None:
                if not all(n in colors for n in window):
                    continue
                if not all(c[2] in colors[c[1]] for c in nat):
                    continue
            return True
        return False
    raise ValueError(kind)


def can_make(groups: list[tuple], hand: list[tuple], *, min_nat: int = 1,
             scope: str = "group", share: bool = True, low: int = 1, high: int = 12,
             wrap: bool = False, blue: str | None = None, wild_skip: bool = False) -> bool:
    """groups: (kind, size, color map or None) per group, an over/under group's followed by
    its bound, a sum's by (its total, whether any number of cards); hand: card tuples;
    ``wrap``, ``blue`` and ``wild_skip`` as for ``group_ok``."""
    hand = sorted(hand)

    def rec(i: int, left: list[tuple], naturals: int, set_numbers: frozenset) -> bool:
        if i == len(groups):
            return scope == "group" or naturals >= min_nat
        kind, size, colors, *more = groups[i]
        bound = more[0] if more and kind in ("over", "under") else None
        total, any_count = more if more and kind in ("sum", "color_sum") else (None, False)
        per_group = min_nat if scope == "group" and kind not in ("wild", "skip") else 0
        if total is not None:  # a sum's natural minimum is capped by its fewest cards
            per_group = min(per_group, size)
        seen = set()
        sizes = range(1, len(left) + 1) if any_count else (size,)
        for idx in (ix for k in sizes for ix in combinations(range(len(left)), k)):
            pick = tuple(left[j] for j in idx)
            if pick in seen:
                continue
            seen.add(pick)
            if not group_ok(kind, len(pick), pick, per_group, low, high, colors, bound, wrap,
                            total, blue, wild_skip):
                continue
            nat = [c for c in pick if c[0] == "n"]
            sn = set_numbers
            if kind in ("set", "color_set") and nat:
                num = nat[0][1]
                if not share and num in set_numbers:
                    continue
                sn = set_numbers | {num}
            elif kind in ("set", "color_set") and not share:
                # an all-wild set may stand for any unused number
                pass
            rest = [c for j, c in enumerate(left) if j not in idx]
            if rec(i + 1, rest, naturals + len(nat), sn):
                return True
        return False

    return rec(0, hand, 0, frozenset())


def layout_ok(groups: list[tuple], layout: list[list[tuple]], *,
              postal: frozenset = frozenset(), min_nat: int = 1, scope: str = "group",
              share: bool = True, low: int = 1, high: int = 12, wrap: bool = False,
              blue: str | None = None) -> bool:
    """Is ``layout`` (the groups as laid, card tuples) a legal laying of ``groups``, by the
    definitions: some pairing of laid groups with the phase's groups, and some choice for
    every card of a ``postal`` number of natural or wild (standing for anything), under
    which every group is one of its kind at its size or larger (extras), the natural
    minimum holds (per group, or over the phase), and, unless sets may ``share`` a number,
    the sets show different numbers (a set of wilds only takes any number left free)."""
    from itertools import permutations, product

    if len(layout) != len(groups):
        return False
    flex = [(i, k) for i, cards in enumerate(layout) for k, c in enumerate(cards)
            if c[0] == "n" and c[1] in postal]
    for as_wild in product((False, True), repeat=len(flex)):
        played = [list(cards) for cards in layout]
        for (i, k), w in zip(flex, as_wild, strict=True):
            if w:
                played[i][k] = ("w", 0, "")
        naturals = sum(c[0] == "n" for cards in played for c in cards)
        if scope == "phase" and naturals < min_nat:
            continue
        for perm in permutations(range(len(groups))):
            shown, free, ok = set(), 0, True
            for i, j in enumerate(perm):
                kind, size, colors, *more = groups[j]
                bound = more[0] if more and kind in ("over", "under") else None
                total, any_count = more if more and kind in ("sum", "color_sum") else (None, False)
                cards = tuple(played[i])
                per_group = min(min_nat, size) if scope == "group" and kind not in (
                    "wild", "skip") else 0
                if total is not None and not any_count and len(cards) != size:
                    ok = False  # a fixed sum holds exactly its cards, extras or not
                    break
                if ((len(cards) < size and not any_count)
                        or not group_ok(kind, len(cards), cards, per_group, low, high, colors,
                                        bound, wrap, total, blue)):
                    ok = False
                    break
                if kind in ("set", "color_set"):
                    nums = {c[1] for c in cards if c[0] == "n"}
                    if nums:
                        if not share and nums & shown:
                            ok = False
                            break
                        shown |= nums
                    else:
                        free += 1
            if ok and (share or len(shown) + free <= high - low + 1):
                return True
    return False
