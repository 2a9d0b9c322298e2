"""The fill search: the most cards of a hand a phase can hold, and the choice holding them.

For one choice of class per group (as in the solver), the hand's cards the phase can hold
are

    skips in skip parts + min(N + wilds, wild room - D)

where N is the most naturals the chosen groups can place together (a plain sum of
capacities when no two of them accept the same card, else a max-flow), the wild room is
every slot a wild may fill, and D is the naturals the groups' minimums still lack (a
missing card can be such a natural; a wild cannot): ``fill_value``.  A branch-and-bound
over classes, best capacity first, finds the choice holding the most (``fill_hand``,
over the ways of playing postal wild-number cards); with ``collect`` it also gathers
every choice one card short, among which the outs are sought.  It counts steps: past
its budget the answer is the best found and a proven upper bound, marked not exact.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from ..model.rules import Rules
from .handcounts import Hand
from .joint import assign, greedy, number_joint, supply_of, upper_bound
from .laying import keep_most, postal_variants
from .search import Layout, by_capacity, candidates, take_alone

_BOUND_STEPS = 4  # per group: the per-number bound of competing groups


_FLOW_STEPS = 20  # per group: a max-flow


class _OutOfSteps(Exception):
    pass


class Fixed(NamedTuple):
    """What a hand brings regardless of the class choice."""

    skip_fill: int  # skips laid in skip parts
    wilds: int
    wroom: int  # slots a wild may fill: wild parts, skip parts (wild_as_skip), groups
    min_phase: int  # naturals the whole phase needs (per-phase scope)


def fill_value(placed: int, lacking: int, f: Fixed) -> int:
    """Cards of the hand held, from ``placed`` naturals and ``lacking`` group minimums."""
    skip_fill, wilds, wroom, min_phase = f  # (unpacked at once: a NamedTuple's fields)
    most = wroom - lacking - (min_phase - placed if min_phase > placed else 0)
    held = placed + wilds
    return skip_fill + (held if held < most else most)


@dataclass
class Fill:
    """The most cards of one hand the phase holds, and the choice that holds them."""

    fill: int
    upper: int  # proven: no choice holds more
    hand: Hand  # as played (postal: wild-number cards played as wilds count as wilds)
    chosen: tuple | None = None  # classes, in the layout's group order
    per: list | None = None  # naturals each group takes {type: count}
    overlap: bool = False  # whether two of the chosen groups accept one card of the hand
    exact: bool = True  # False when the search ran out of steps (``upper`` then bounds it)
    # (classes, hand, overlap) of each choice reaching the target (for the outs)
    leaves: list | None = None


def _max_fill(lay: Layout, h: Hand, rules: Rules, steps: list[int],
              target: int, collect: bool = False) -> Fill:
    """The choice of classes that holds the most of the hand.

    With ``collect``, every choice holding at least ``target`` cards (all but one)
    is also collected (in ``leaves``): a card that completes the phase adds to one.  Past the
    budget in ``steps[0]`` the best found so far comes back, marked not exact.
    """
    skip_fill = min(h.skips, lay.need_s)
    ws = lay.need_s - skip_fill if rules.wild_as_skip else 0
    n = len(lay.groups)
    f = Fixed(skip_fill, h.wilds, lay.need_w + ws + lay.total, lay.min_phase if n else 0)
    if not n:
        v = fill_value(0, 0, f)
        return Fill(v, v, h, (), [], leaves=[((), h, False)] if v >= target else [])
    nn = lay.tb.nn
    cnt, present = h.cnt, h.present
    all_caps: list[list[int]] = []
    for j in range(n):
        all_caps.append(all_caps[-1] if lay.same_as_prev[j] else
                        h.caps(lay.aggs[j], lay.values[j], lay.sizes[j], nn, lay.masks[j]))
    if not all_caps[0]:  # a group with no class at all in this deck
        return Fill(0, 0, h)
    if n == 1:  # one group: each class alone, no search
        return _one_group(lay, h, all_caps[0], f, target)
    distinct = not rules.sets_share_number
    if n == 2:  # most phases: two loops, no recursion
        return _two_groups(lay, h, all_caps, f, target, collect, distinct, steps)
    got = candidates(lay, all_caps, lay.total, h, distinct)
    if got is None:
        return Fill(0, 0, h)
    cands, best_rest = got
    sizes, lower, gs = lay.sizes, lay.lower, lay.groups
    same_as_prev = lay.same_as_prev
    lack_rest = [0] * (n + 1)
    for j in range(n - 1, -1, -1):
        lack_rest[j] = lack_rest[j + 1] + max(0, lower[j] - cands[j][0][0])
    naturals = sum(cnt)
    top = fill_value(min(best_rest[0], naturals), lack_rest[0], f)
    best = Fill(-1, top, h, leaves=[])
    need_all = f.skip_fill + f.wroom + 1
    floor = target - 1 if collect else need_all  # with collect, ties at the target matter
    if n > 2:  # many groups: start from a greedy placement, so the bound prunes from the start
        got = _greedy_fill(lay, h, f, distinct)
        if got is not None:
            best.fill, best.chosen, best.per = got
            best.overlap = True
            if collect and best.fill >= target:
                best.leaves.append((best.chosen, h, True))
            if best.fill >= top and (not collect or best.fill > target):
                return best  # made (else the choices one short are still wanted)
    chosen: list = [None] * n
    pos = [0] * n
    taken: dict[int, int] = {}  # naturals counted so far from each chosen class

    number_only = all(a in ("num", "run") for a in lay.aggs)

    def leaf(total: int, lacking: int, overlap: bool) -> None:
        steps[0] -= n
        if steps[0] < 0:
            raise _OutOfSteps
        value = fill_value(total, lacking, f)  # exact unless two groups accept one card
        bar = best.fill if best.fill < floor else floor
        if overlap:
            if value <= bar:
                return
            value = _shared_value(chosen, lay, h, f, lacking, bar, number_only, steps)
        if collect and value >= target:
            best.leaves.append((tuple(chosen), h, overlap))
        if value > best.fill:
            best.fill, best.chosen, best.overlap, best.per = value, tuple(chosen), overlap, None

    def dfs(j: int, total: int, lacking: int, overlap: bool, used: frozenset) -> bool:
        """True when nothing better can exist (the top is reached)."""
        if j == n:
            leaf(total, lacking, overlap)
            return best.fill >= top and (not collect or best.fill > target)
        steps[0] -= 1
        if steps[0] < 0:
            raise _OutOfSteps
        cs = cands[j]
        is_set = distinct and gs[j].kind.is_set
        rest = best_rest[j + 1]
        lo = lower[j]
        for k in range(pos[j - 1] if same_as_prev[j] else 0, len(cs)):
            cap, cl = cs[k]
            short = lo - cap if cap < lo else 0
            bound = total + cap + rest
            if fill_value(bound if bound < naturals else naturals,
                      lacking + short + lack_rest[j + 1], f) <= (best.fill if best.fill < floor
                                                                 else floor):
                break  # caps are sorted: no later class can do better
            if is_set and cl.number in used:
                continue
            key = id(cl)
            before = taken.get(key)
            # identical groups on one class share its cards
            gain = (cap if before is None or cl.window is not None
                    else min(cap, supply_of(cl, h) - before))
            m = cl.mask & present
            ov = overlap or any(chosen[i].mask & m for i in range(j))
            chosen[j] = cl
            pos[j] = k
            if ov and j + 1 < n:
                # groups that accept one card hold it once: bound what these hold together
                steps[0] -= j + 1
                part, psizes = chosen[:j + 1], sizes[:j + 1]
                held = min(total + gain, number_joint(part, psizes, h) if number_only
                           else upper_bound(part, psizes, cnt, present, nn)) + rest
                if fill_value(held if held < naturals else naturals,
                          lacking + short + lack_rest[j + 1], f) <= (
                        best.fill if best.fill < floor else floor):
                    continue
            taken[key] = (before or 0) + gain
            done = dfs(j + 1, total + gain, lacking + short, ov,
                       used | {cl.number} if is_set else used)
            if before is None:
                del taken[key]
            else:
                taken[key] = before
            if done:
                return True
        return False

    try:
        dfs(0, 0, 0, False, frozenset())
    except _OutOfSteps:
        best.exact = False
    return _finish(best, lay, h)


def _shared_value(chosen, lay: Layout, h: Hand, f: Fixed, lacking: int, bar: int,
                  number_only: bool, steps: list[int]) -> int:
    """What a choice holds when two of its groups accept one card of the hand (exact, or
    some value no more than ``bar`` when it cannot beat it)."""
    sizes, lower = lay.sizes, lay.lower
    if number_only:  # sets and runs compete number by number: a closed form
        placed = number_joint(chosen, sizes, h)
        value = fill_value(placed, lacking, f)
        # the minimums matter only when the wilds could fill every other slot
        if value > bar and placed + f.wilds > f.wroom - sum(lower) - max(0, f.min_phase - placed):
            value = fill_value(placed, sum(lower) - _number_cover(chosen, lower, h), f)
        return value
    n, nn = len(chosen), lay.tb.nn
    steps[0] -= _BOUND_STEPS * n
    if fill_value(upper_bound(chosen, sizes, h.cnt, h.present, nn), lacking, f) <= bar:
        return bar  # a per-number bound settles it without a flow
    steps[0] -= _FLOW_STEPS * n
    if steps[0] < 0:
        raise _OutOfSteps
    _, placed, lacking = _joint(chosen, sizes, lower, h.cnt, h.present, nn)
    return fill_value(placed, lacking, f)


def _greedy_fill(lay: Layout, h: Hand, f: Fixed, distinct: bool):
    """Group by group, the class taking the most of the cards still free: a placement
    (value, classes, naturals per group) that a search may improve on, or None."""
    tb = lay.tb
    nn = tb.nn
    cnt = list(h.cnt)
    chosen, per, used = [], [], set()
    placed = lacking = 0
    for j, size in enumerate(lay.sizes):
        present = 0
        for t, c in enumerate(cnt):
            if c:
                present |= 1 << t
        free = Hand.counted(cnt, present, h.wilds, h.skips, tb)
        caps = free.caps(lay.aggs[j], lay.values[j], size, nn, lay.masks[j])
        is_set = distinct and lay.groups[j].kind.is_set
        options = [k for k, cl in enumerate(lay.classes[j]) if not (is_set and cl.number in used)]
        if not options:
            return None
        cl = lay.classes[j][max(options, key=caps.__getitem__)]
        d = take_alone(cl, size, cnt, present, nn)
        for t, c in d.items():
            cnt[t] -= c
        got = sum(d.values())
        placed += got
        lacking += max(0, lay.lower[j] - got)
        if is_set:
            used.add(cl.number)
        chosen.append(cl)
        per.append(d)
    return fill_value(placed, lacking, f), tuple(chosen), per


def _ranked(caps: list[int], classes, present: int, keep: int) -> list:
    """(capacity, class), best first, one class (``keep`` for sets that must differ) of
    those holding the same cards of the hand."""
    seen: dict[int, int] = {}
    out = []
    for c, cl in zip(caps, classes, strict=True):
        sig = cl.mask & present
        k = seen.get(sig, 0)
        if k < keep:
            seen[sig] = k + 1
            out.append((c, cl))
    out.sort(key=by_capacity, reverse=True)
    return out


def _two_groups(lay: Layout, h: Hand, all_caps: list, f: Fixed, target: int, collect: bool,
                distinct: bool, steps: list[int]) -> Fill:
    """The search of _max_fill for two groups, as two loops over their classes."""
    sets = distinct and lay.groups[0].kind.is_set and lay.groups[1].kind.is_set
    keep = 2 if sets else 1
    present = h.present
    first = _ranked(all_caps[0], lay.classes[0], present, keep)
    same = lay.same_as_prev[1]
    second = first if same else _ranked(all_caps[1], lay.classes[1], present, keep)
    lo0, lo1 = lay.lower
    naturals = sum(h.cnt)
    top1 = second[0][0]
    top = fill_value(min(first[0][0] + top1, naturals),
                 max(0, lo0 - first[0][0]) + max(0, lo1 - top1), f)
    best = Fill(-1, top, h, leaves=[])
    floor = target - 1 if collect else f.skip_fill + f.wroom + 1
    number_only = all(a in ("num", "run") for a in lay.aggs)
    for i, (c0, cl0) in enumerate(first):
        bar = best.fill if best.fill < floor else floor
        short0 = lo0 - c0 if c0 < lo0 else 0
        if fill_value(min(c0 + top1, naturals), short0, f) <= bar:
            break  # capacities are sorted: nothing later does better
        m0 = cl0.mask & present
        for c1, cl1 in (second[i:] if same else second):
            short = short0 + (lo1 - c1 if c1 < lo1 else 0)
            held = c0 + c1
            value = fill_value(held if held < naturals else naturals, short, f)
            if value <= bar:
                break
            if sets and cl0.number == cl1.number:
                continue
            steps[0] -= 2
            overlap = bool(m0 & cl1.mask)
            try:
                if steps[0] < 0:
                    raise _OutOfSteps
                if overlap:
                    value = _shared_value((cl0, cl1), lay, h, f, short, bar, number_only, steps)
            except _OutOfSteps:
                best.exact = False
                return _finish(best, lay, h)
            if collect and value >= target:
                best.leaves.append(((cl0, cl1), h, overlap))
            if value > best.fill:
                best.fill, best.chosen, best.overlap = value, (cl0, cl1), overlap
                bar = best.fill if best.fill < floor else floor
                if best.fill >= top and (not collect or best.fill > target):
                    return _finish(best, lay, h)  # made, or nothing can hold more
    return _finish(best, lay, h)


def _finish(best: Fill, lay: Layout, h: Hand) -> Fill:
    """The naturals each group of the best choice takes."""
    if best.chosen is None or best.per is not None:
        return best
    chosen, sizes, nn = best.chosen, lay.sizes, lay.tb.nn
    if not best.overlap:
        best.per = [take_alone(cl, size, h.cnt, h.present, nn) for cl, size in zip(chosen, sizes,
                                                                               strict=True)]
        return best
    if all(cl.agg in ("num", "run") for cl in chosen):
        # a quick placement that meets every minimum and places the most sets and runs
        # can place together is as good as the flow's
        got = greedy(chosen, sizes, lay.lower, h.cnt, h.present, nn)
        if got is not None and got[0] == number_joint(chosen, sizes, h):
            best.per = got[1]
            return best
    best.per = _joint(chosen, sizes, lay.lower, h.cnt, h.present, nn)[0]
    return best


def _one_group(lay: Layout, h: Hand, caps: list[int], f: Fixed, target: int) -> Fill:
    lo = lay.lower[0]
    classes = lay.classes[0]
    top = max(caps)
    k = caps.index(top)
    value = fill_value(top, lo - top if top < lo else 0, f)
    best = Fill(value, value, h, (classes[k],), overlap=False,
                 leaves=_one_group_leaves(lay, h, caps, f, target) if value >= target else [])
    best.per = [take_alone(classes[k], lay.sizes[0], h.cnt, h.present, lay.tb.nn)]
    return best


def _one_group_leaves(lay: Layout, h: Hand, caps: list[int], f: Fixed, target: int) -> list:
    """The classes of a one-group phase holding at least ``target`` cards, one of those
    holding the same cards of the hand (they complete alike)."""
    lo = lay.lower[0]
    present = h.present
    sigs = set()
    leaves = []
    for cl, c in zip(lay.classes[0], caps, strict=True):
        sig = cl.mask & present
        if sig not in sigs and fill_value(c, lo - c if c < lo else 0, f) >= target:
            sigs.add(sig)
            leaves.append(((cl,), h, False))
    return leaves


def _joint(chosen, sizes, lower, cnt, present, nn) -> tuple[list[dict], int, int]:
    """Naturals that competing groups place together, most first, with as few group
    minimums lacking as any placement has (both at once: a max-flow that meets the
    minimums as far as it can keeps them met while it grows)."""
    n = len(chosen)
    cover = [0] * n
    lacking = 0
    if any(lower):
        _, first = assign(chosen, lower, cover, cnt, present, 0, nn)
        cover = [sum(d.values()) for d in first]
        lacking = sum(lower) - sum(cover)
    placed, per = assign(chosen, sizes, cover, cnt, present, 0, nn)
    return per, placed, lacking


def _number_cover(chosen, lower, h: Hand) -> int:
    """How much of the groups' natural minimums sets and plain runs can meet together:
    a small matching of groups to numbers (a set takes its number's cards, a run one
    card of each number of its window)."""
    by_num = h._by_num()
    left = list(by_num)
    takes: list[dict[int, int]] = [{} for _ in chosen]
    nums = []
    for cl in chosen:
        if cl.window is None:
            nums.append([cl.number] if by_num[cl.number] else [])
        else:
            nums.append([ni for ni in cl.window if by_num[ni]])

    def room(j: int, b: int) -> bool:  # group j may take one more card of number b
        got = takes[j].get(b, 0)
        return got < lower[j] if chosen[j].window is None else not got

    def augment(j: int, seen: set) -> bool:
        for b in nums[j]:
            if b in seen or not room(j, b):
                continue
            seen.add(b)
            if left[b]:
                left[b] -= 1
            elif not any(takes[i].get(b) and augment_from(i, b, seen) for i in range(len(chosen))):
                continue
            takes[j][b] = takes[j].get(b, 0) + 1
            return True
        return False

    def augment_from(i: int, b: int, seen: set) -> bool:
        """Group i gives up one card of number b for another number."""
        if augment(i, seen):
            takes[i][b] -= 1
            return True
        return False

    met = 0
    for j, lo in enumerate(lower):
        for _ in range(lo):
            if not augment(j, set()):
                break
            met += 1
    return met


def fill_hand(lay: Layout, h: Hand, rules: Rules, steps: list[int],
               target: int, collect: bool = False) -> Fill:
    """The best fill over the ways of playing postal wild-number cards."""
    if not rules.wild_numbers:
        return _max_fill(lay, h, rules, steps, target, collect)
    best = None
    leaves: list = []
    upper = 0
    complete = True  # every way searched to the end (else some choices, and leaves, unseen)
    for h2, _ in postal_variants(h, rules, lay.tb, keep_most(lay, rules)):
        got = _max_fill(lay, h2, rules, steps, target, collect)
        leaves += got.leaves
        upper = max(upper, got.upper if not got.exact else got.fill)
        complete = complete and got.exact
        if best is None or got.fill > best.fill:
            best = got
        if best.fill > target:
            break  # made
    best.leaves = leaves
    best.upper = max(upper, best.fill)
    best.exact = complete
    return best
