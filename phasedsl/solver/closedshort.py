"""The shortfall of the commonest two-group shapes from the hand's counts per number.

Most hands in a batch do not make their phase, and two plain sets or a plain set
with a plain run are six of the ten classic phases.  Their best choice of classes
depends only on the most-held numbers (two sets: the two most-held, the larger
count in the larger set, or both sets on the most-held one where sets may share a
number) and the fullest run windows, so the fill, the cards that complete a hand
one short and an example completion follow with no search.  (A phase of one
group is answered the same way in ``shortage._one_group_short``.)  ``assess`` asks
here first; ``tests/test_fastpaths.py`` holds every answer to the general search
and to the brute-force reference.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from ..model.cards import WILD, Card
from ..model.rules import Rules
from .answers import Assessment, Out, Shortfall, number_outs
from .classes import bits
from .completions import group_lacks, unseen_pool
from .fill import Fixed, fill_value
from .handcounts import Hand
from .search import Layout


def two_sets_shape(lay: Layout, rules: Rules) -> bool:
    """Whether ``two_sets_short`` answers this layout: two plain sets and nothing else."""
    return (len(lay.all_groups) == 2 and lay.aggs == ("num", "num")
            and not lay.need_w and not lay.need_s and not rules.wild_numbers)


def _best(c1: int, c2: int, sizes: Sequence[int], lower: Sequence[int], share: bool,
          f: Fixed) -> tuple[int, bool]:
    """The most cards two sets hold when the two most-held numbers are held c1 >= c2
    times, and whether both sets then stand on the most-held number."""
    s0, s1 = sizes
    l0, l1 = lower
    x0 = c1 if c1 < s0 else s0
    x1 = c2 if c2 < s1 else s1
    apart = fill_value(x0 + x1, (l0 - x0 if x0 < l0 else 0) + (l1 - x1 if x1 < l1 else 0), f)
    if not share:
        return apart, False
    x = c1 if c1 < s0 + s1 else s0 + s1
    both = fill_value(x, max(0, l0 + l1 - x), f)
    return (both, True) if both > apart else (apart, False)


def _two_sets_fill(lay: Layout, h: Hand, rules: Rules, by_num: list[int]
                   ) -> tuple[int, bool, int, int, Fixed]:
    """The most cards two sets hold (and whether both stand on the most-held number), with
    the two most-held numbers' counts c1 >= c2 and the hand's fixed part."""
    f = Fixed(0, h.wilds, lay.total, lay.min_phase)
    c1 = max(by_num)
    a = by_num.index(c1)
    c2 = max(by_num[:a] + by_num[a + 1:])
    fill, both = _best(c1, c2, lay.sizes, lay.lower, rules.sets_share_number, f)
    return fill, both, c1, c2, f


def two_sets_missing(lay: Layout, h: Hand, rules: Rules) -> int:
    """The cards two plain sets lack (``two_sets_short``'s count alone; 0 or less: made)."""
    by_num = h.by_num if h.by_num is not None else h._by_num()
    return lay.total - _two_sets_fill(lay, h, rules, by_num)[0]


def two_sets_short(lay: Layout, h: Hand, rules: Rules, seen: Iterable[Card]
                   ) -> Assessment | bool:
    """``assess`` for two plain sets when the hand does not make them; True when it does."""
    by_num = h.by_num if h.by_num is not None else h._by_num()
    share = rules.sets_share_number
    sizes, lower = lay.sizes, lay.lower
    need = lay.total
    fill, both, c1, c2, f = _two_sets_fill(lay, h, rules, by_num)
    if fill >= need:
        return True
    # the two most-held numbers, the lowest first among equal counts
    a = by_num.index(c1)
    b = by_num.index(c2, a + 1) if c2 == c1 else by_num.index(c2)
    k = need - fill
    pool, wilds, _ = unseen_pool(h, rules, seen)
    tb = lay.tb
    nn = tb.nn
    # the naturals each set holds, then the missing cards as _virtual_plans counts them
    if both:
        x = c1 if c1 < sizes[0] + sizes[1] else sizes[0] + sizes[1]
        x0 = min(sizes[0], x - min(lower[1], x))
        placed = [x0, x - x0]
        numbers = [a, a]
    else:
        placed = [min(c1, sizes[0]), min(c2, sizes[1])]
        numbers = [a, b]
    virt = group_lacks(lay, placed, h.wilds)
    # a set holding no natural may stand on any number: the one most left in the deck
    # (in written order; under distinct numbers, one no other set stands on)
    taken = {numbers[j] for j in (0, 1) if placed[j]}
    for i in range(2):
        j = lay.order.index(i)
        if not placed[j] and virt[j]:
            numbers[j] = max((ni for ni in range(nn) if share or ni not in taken),
                             key=lambda ni: sum(pool[ni::nn]))
            taken.add(numbers[j])
    example: list[Card] = []
    real = True
    left = list(pool)
    spare = wilds
    for i in range(2):  # in written order
        j = lay.order.index(i)
        for _ in range(virt[j]):
            for t in range(numbers[j], len(left), nn):
                if left[t] > 0:
                    left[t] -= 1
                    example.append(tb.cards[t])
                    break
            else:  # none of the number left: a wild stands in
                spare -= 1
                real = False
                example.append(WILD)
    if spare < 0 or min(pool) < 0:  # the deck cannot supply them (or the hand is not real)
        real = False
    elif not real:  # a wild in place of a natural: complete unless a minimum lacks it
        more = list(by_num)
        for c in example:
            if not c.wild:
                more[c.number - tb.deck.low] += 1
        top = sorted(more, reverse=True)
        stand = sum(1 for c in example if c.wild)
        real = _best(top[0], top[1], sizes, lower, share,
                     f._replace(wilds=h.wilds + stand))[0] >= need
    completes = _completed(lay, virt)
    if k > 1:
        return Assessment(None, Shortfall(k, (), tuple(example), completes, real))
    found = _outs(by_num, c1, c2, sizes, lower, share, f, need, pool, wilds, tb)
    ex = tuple(example)
    if found and not any(o.card is ex[0] for o in found):
        ex, completes = (found[0].card,), ()
    return Assessment(None, Shortfall(1, found, ex, completes, bool(found)))


def _outs(by_num: list[int], c1: int, c2: int, sizes, lower, share: bool, f: Fixed, need: int,
          pool: list[int], wilds: int, tb) -> tuple[Out, ...]:
    """The cards completing a hand one short (the two top counts c1 >= c2).  A drawn card
    changes them only when its number is held as often as one of them: so each number
    answers by its count alone."""
    ties = sum(1 for c in by_num if c == c1)
    after = {c1: (c1 + 1, c1 if ties > 1 else c2)}
    if c2 < c1:
        after[c2] = (c1, c2 + 1)
    good = {c for c, (d1, d2) in after.items() if _best(d1, d2, sizes, lower, share, f)[0] >= need}
    out = []
    if good:
        out = number_outs([ni for ni, c in enumerate(by_num) if c in good], pool, tb)
    if wilds > 0 and _best(c1, c2, sizes, lower, share, f._replace(wilds=f.wilds + 1))[0] >= need:
        out.append(Out(WILD, wilds))
    return tuple(out)


# ----------------------------------------------------------------------------- a set and a run
#
# A set on number x and a run on window w hold A(x) + R(w) naturals, where A(x) is x's
# count up to the set's size and R(w) the numbers of w held, less one where they compete
# for x (x in w, held at most the set's size).  With each group's natural minimum at most
# one and two numbers held, every choice falling short of a minimum is matched by one that
# meets both and holds as many: so the best choice is the most naturals, and a card
# completes a hand one short exactly when it adds one to some choice holding that most.

def set_run_shape(lay: Layout, rules: Rules) -> bool:
    """Whether ``set_run_short`` answers this layout: a plain set and a plain run, nothing
    else, each group's natural minimum at most one."""
    return (len(lay.all_groups) == 2 and lay.aggs in (("num", "run"), ("run", "num"))
            and not lay.need_w and not lay.need_s and not rules.wild_numbers
            and max(lay.lower) <= 1 and all(g.colors is None for g in lay.groups))


def _set_run_most(by_num: list[int], nums: int, wins: Sequence[int], size: int
                  ) -> tuple[int, int, int, list[int]]:
    """The most naturals a set of ``size`` and a run (on windows ``wins``, as number bits)
    hold together, with the set's and the run's best alone and each window's count."""
    rs = [(nums & wb).bit_count() for wb in wins]
    top_r = max(rs)
    top_a = max(by_num)
    if top_a > size:
        top_a = size
    common = -1  # numbers every fullest window holds
    for wb in [wb for r, wb in zip(rs, wins, strict=True) if r == top_r]:
        common &= wb
    return top_a + top_r - _competing(by_num, size, top_a, common), top_a, top_r, rs


def _competing(by_num: Sequence[int], size: int, top_a: int, common: int) -> int:
    """1 where every number the fullest set could be on is held at most the set's size and
    lies in every fullest window (set and run compete for it), else 0."""
    for x, c in enumerate(by_num):
        if (c if c < size else size) == top_a and (not c or c > size or not common >> x & 1):
            return 0
    return 1


def set_run_missing(lay: Layout, h: Hand) -> int | None:
    """The cards a plain set and a plain run lack (``set_run_short``'s count alone; 0 or
    less: made); None where that answers None (fewer than two numbers held)."""
    nums = h.number_bits()
    if nums.bit_count() < 2:
        return None
    by_num = h.by_num if h.by_num is not None else h._by_num()
    si = lay.aggs.index("num")
    most = _set_run_most(by_num, nums, lay.values[1 - si], lay.sizes[si])[0]
    return lay.total - fill_value(most, 0, Fixed(0, h.wilds, lay.total, lay.min_phase))


def set_run_counter(lay: Layout) -> Callable[[Sequence[int]], int | None]:
    """For a plain set and a plain run: the fewest wilds with which naturals of these
    counts by number make them (the most naturals the two hold, as ``_set_run_most``
    counts them; the rest wilds), as a function of the counts alone; it answers None where
    the counts do not say it (fewer than two numbers held) or no number of wilds does (too
    few naturals for the phase's minimum).  For a caller weighing very many count vectors
    (the exact odds): the windows' part is worked out once per set of numbers held."""
    si = lay.aggs.index("num")
    wins, size, total, least = lay.values[1 - si], lay.sizes[si], lay.total, lay.min_phase
    by_nums: dict[int, tuple[int, int]] = {}  # numbers held -> (most a window holds, common)

    def fewest(by_num: Sequence[int]) -> int | None:
        nums = 0
        for x, c in enumerate(by_num):
            if c:
                nums |= 1 << x
        if nums.bit_count() < 2:
            return None
        got = by_nums.get(nums)
        if got is None:
            rs = [(nums & wb).bit_count() for wb in wins]
            top_r = max(rs)
            common = -1  # numbers every fullest window holds
            for r, wb in zip(rs, wins, strict=True):
                if r == top_r:
                    common &= wb
            got = by_nums[nums] = (top_r, common)
        top_r, common = got
        top_a = max(by_num)
        if top_a > size:
            top_a = size
        most = top_a + top_r - _competing(by_num, size, top_a, common)
        if most < least:
            return None
        return total - most if most < total else 0

    return fewest


def set_run_short(lay: Layout, h: Hand, rules: Rules, seen: Iterable[Card]
                  ) -> Assessment | bool | None:
    """``assess`` for a plain set and a plain run when the hand does not make them; True
    when it does; None when the hand holds fewer than two numbers (the general path)."""
    nums = h.number_bits()
    if nums.bit_count() < 2:
        return None
    by_num = h.by_num if h.by_num is not None else h._by_num()
    si = lay.aggs.index("num")
    ri = 1 - si
    size = lay.sizes[si]
    wins = lay.values[ri]
    most, top_a, top_r, rs = _set_run_most(by_num, nums, wins, size)
    need = lay.total
    f = Fixed(0, h.wilds, need, lay.min_phase)
    fill = fill_value(most, 0, f)
    if fill >= need:
        return True
    k = need - fill
    tb = lay.tb
    nn = tb.nn
    pool, wilds, _ = unseen_pool(h, rules, seen)
    # the choices holding the most (their minimums aside): a set number held top_a or
    # top_a - 1 times, a window holding top_r or top_r - 1 numbers
    best = []
    hi = [(x, c) for x, c in enumerate(by_num) if (c if c < size else size) == top_a]
    full = most == top_a + top_r  # then only the fullest set and window reach it
    both = hi if full else hi + [(x, c) for x, c in enumerate(by_num)
                                 if (c if c < size else size) == top_a - 1]
    for r, wb in zip(rs, wins, strict=True):
        if r < top_r - (not full):
            continue
        for x, c in (both if r == top_r else hi):
            if ((c if c < size else size) + r
                    - (1 if c and c <= size and wb >> x & 1 else 0)) == most:
                best.append((x, c, r, wb))
    lo_s, lo_r = lay.lower[si], lay.lower[ri]
    # the first of them meeting both minimums lays the example
    for x, c, r, wb in best:
        a = c if c < size else size
        if c and c <= size and wb >> x & 1:  # they compete for x
            if c >= lo_s and r - 1 >= lo_r:
                got_s, run_has = c, nums & wb & ~(1 << x)
            elif c - 1 >= lo_s and r >= lo_r:
                got_s, run_has = c - 1, nums & wb
            else:
                continue
        elif a >= lo_s and r >= lo_r:
            got_s, run_has = a, nums & wb
        else:
            continue
        break
    else:  # cannot be: two numbers held leave a choice meeting both minimums
        return None
    placed = [0, 0]
    placed[si], placed[ri] = got_s, run_has.bit_count()
    virt = group_lacks(lay, placed, h.wilds)  # (the choice meets both minimums)
    left = list(pool)
    spare = wilds
    example: list[Card] = []
    flip = lay.order[0] != 0
    for i in (0, 1):  # in written order
        j = 1 - i if flip else i
        want = virt[j]
        if not want:
            continue
        for ni in ([x] * want if j == si else
                   [ni for ni in range(nn) if wb >> ni & 1 and not run_has >> ni & 1]):
            if not want:
                break
            for t in range(ni, len(left), nn):
                if left[t] > 0:
                    left[t] -= 1
                    example.append(tb.cards[t])
                    want -= 1
                    break
        spare -= want
        example += [WILD] * want
    real = True
    if spare < 0 or min(pool) < 0:
        real = False
    elif any(c is WILD for c in example):  # a wild stands in for a natural: count again
        more = list(by_num)
        held = nums
        for c in example:
            if not c.wild:
                more[c.number - tb.deck.low] += 1
                held |= 1 << (c.number - tb.deck.low)
        stand = sum(1 for c in example if c is WILD)
        real = fill_value(_set_run_most(more, held, wins, size)[0], 0,
                      f._replace(wilds=h.wilds + stand)) >= need
    completes = _completed(lay, virt)
    if k > 1:
        return Assessment(None, Shortfall(k, (), tuple(example), completes, real))
    found = _set_run_outs(best, nums, size, f, most, need, pool, wilds, tb)
    ex = tuple(example)
    if found and not any(o.card is ex[0] for o in found):
        ex, completes = (found[0].card,), ()
    return Assessment(None, Shortfall(1, found, ex, completes, bool(found)))


def _completed(lay: Layout, virt: list[int]):
    """The groups (as written) that the missing cards go to."""
    g0, g1 = lay.all_groups
    v0, v1 = (virt[0], virt[1]) if lay.order[0] == 0 else (virt[1], virt[0])
    return (g0, g1) if v0 and v1 else (g0,) if v0 else (g1,) if v1 else ()


def _set_run_outs(best, nums: int, size: int, f: Fixed, most: int, need: int,
                  pool: list[int], wilds: int, tb) -> tuple[Out, ...]:
    """A card of number y adds one to a choice (x, w) holding the most when it adds to the
    set (y = x, held fewer than its size, or as often where the run competes for x) or
    gives the run a number of its window it lacks."""
    out: list[Out] = []
    if fill_value(most + 1, 0, f) >= need:
        good = 0
        for x, c, _, wb in best:
            if not c or c < size or (c == size and wb >> x & 1):
                good |= 1 << x
            good |= wb & ~nums
        out = number_outs(bits(good), pool, tb)
    if wilds > 0 and fill_value(most, 0, f._replace(wilds=f.wilds + 1)) >= need:
        out.append(Out(WILD, wilds))
    return tuple(out)
