"""The exact search: for a hand already counted, one class per group that makes the phase.

How it works (and why it is exact, not greedy):

* A group is fixed by its *class*: the number of a set, the window of a run,
  the color of a color group, the parity of an even/odd group, and so on.
  Every legal group has exactly one class, so enumerating classes loses
  nothing.
* Wilds are interchangeable, so a phase is made iff, for some choice of one
  class per group, the naturals that can be placed (each group taking at most
  its size, a run at most one card per number) plus the wilds cover every
  slot, with each group getting its natural-card minimum.
* For a fixed choice of classes that is a small max-flow problem (cards ->
  groups, with a lower bound per group); when no two chosen groups can take
  the same card it is just a sum, which is the common case.
* A depth-first search over class choices, largest possible contribution
  first, prunes with an upper bound (what each remaining group could take at
  best), so most hands are settled after a handful of steps.

The search works on card counts, never on card subsets, so a hand of any
size costs the same.  ``Layout`` is what a phase needs, prepared once per
(phase, rules) and kept (``layout_for``); ``search_plans`` answers with one
``Plan`` per group, which ``laying`` turns into a meld.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from operator import attrgetter, itemgetter

from ..model.group import Group, Kind
from ..model.phase import Phase
from ..model.rules import Rules
from . import budget
from .budget import SearchLimit
from .classes import NO_PLAN, Class, Plan, Tables, as_played, bits, played_classes, tables, window_hold
from .closedforms import WindowCaps, set_and_run, two_sets, window_table
from .handcounts import Hand
from .joint import assign, color_run_block, greedy, number_joint, pair_loss, supply_of, upper_bound


@dataclass(frozen=True)
class Layout:
    """What a phase needs, prepared once per (phase, rules)."""

    order: tuple[int, ...]  # groups needing naturals, most demanding first
    groups: tuple[Group, ...]  # those groups, in that order
    sizes: tuple[int, ...]
    lower: tuple[int, ...]
    classes: tuple[tuple[Class, ...], ...]
    aggs: tuple[str, ...]  # per group: which aggregate its classes read
    values: tuple[tuple, ...]  # per group: the aggregate index (or window bits) of each class
    masks: tuple[tuple[int, ...], ...]
    same_as_prev: tuple[bool, ...]
    need_w: int
    need_s: int
    all_groups: tuple[Group, ...]
    tb: Tables
    total: int  # cards the natural-needing groups hold
    set_groups: int  # how many set groups (kept classes per card signature when sets differ)
    floor: int  # naturals needed whatever the wilds: the minimums' total, per group or phase
    min_phase: int  # naturals the whole phase needs (per-phase scope), else 0
    # For the commonest phases, the whole search as one function of the hand (see _quick).
    quick: Callable[[Hand], list[Plan] | None] | None
    wrap: bool = False  # runs may wrap from the top number to the bottom
    # A sum among the groups: the class search cannot hold it (see sums.py, which answers).
    has_sums: bool = False


def _make_layout(groups: tuple[Group, ...], rules: Rules) -> Layout:
    idx = [i for i, g in enumerate(groups) if g.kind.needs_natural]
    # The search takes the most constrained groups first (fewest classes, then largest);
    # identical groups stay together.
    ncls = {i: len(played_classes(groups[i], rules)) for i in idx}
    order = tuple(sorted(idx, key=lambda i: (ncls[i], -groups[i].size, groups[i].kind.value, i)))
    gs = tuple(groups[i] for i in order)
    per_group = rules.natural_scope == "group"
    played = [as_played(g, rules) for g in gs]
    classes = tuple(played_classes(g, rules) for g in gs)
    aggs, values = [], []
    for cls in classes:
        agg = cls[0].agg if cls else "num"
        aggs.append(agg)
        if agg in ("crun", "cprun"):
            values.append(tuple((cl.color, cl.index) for cl in cls))
        else:
            values.append(tuple(cl.index for cl in cls))
    sizes = tuple(g.size for g in gs)
    lower = tuple(min(rules.min_naturals, g.size) if per_group else 0 for g in gs)
    total = sum(sizes)
    floor = sum(lower) if per_group else rules.min_naturals
    need_w = sum(g.size for g in groups if g.kind is Kind.WILD)
    need_s = sum(g.size for g in groups if g.kind is Kind.SKIP)
    tb = tables(rules.deck)
    quick = None
    if not (need_w or need_s or rules.wild_numbers):
        quick = _quick(played, classes, aggs[0] if aggs else "", values, sizes, lower, total,
                       floor, not rules.sets_share_number, tb.nn, order)
    return Layout(
        has_sums=any(g.kind.is_sum for g in groups),
        quick=quick,
        order=order,
        groups=gs,
        sizes=sizes,
        lower=lower,
        classes=classes,
        aggs=tuple(aggs),
        values=tuple(values),
        masks=tuple(tuple(cl.mask for cl in cls) for cls in classes),
        same_as_prev=tuple(j > 0 and gs[j] == gs[j - 1] for j in range(len(gs))),
        need_w=need_w,
        need_s=need_s,
        all_groups=groups,
        tb=tb,
        total=total,
        set_groups=sum(1 for g in gs if g.kind.is_set),
        floor=floor,
        min_phase=0 if per_group else rules.min_naturals,
        wrap=rules.runs_wrap,
    )


def _quick(played, classes, agg, values, sizes, lower, total: int, floor: int, distinct: bool,
           nn: int, order):
    """The whole search for a phase of one group, two plain sets, or a plain set and a
    plain run (most of real play) as one function of the hand, plans in written order;
    None for any other phase."""
    if not played or not all(classes):
        return None
    if len(played) == 1:
        size = sizes[0]
        if agg == "run":  # (window_table reads the windows' bits: wrapped ones too)
            best_of = partial(_best_run_window, window_table(values[0]))
        elif agg in ("num", "type", "col", "cp", "par") and played[0].colors is None:
            # class k counts index k (a color map keeps only some colors: see below)
            best_of = partial(_best_count, agg, size)
        else:
            best_of = partial(_best_cap, agg, values[0], tuple(cl.mask for cl in classes[0]),
                              size, nn)
        return partial(_one_group, classes[0], best_of, size, total, floor, nn)
    if len(played) != 2 or any(g.colors is not None for g in played):
        return None
    kinds = sorted(g.kind for g in played)
    if kinds == [Kind.SET, Kind.SET]:
        return partial(two_sets, classes, sizes, lower, total, floor, distinct, order != (0, 1))
    if kinds == [Kind.RUN, Kind.SET]:
        si = 0 if played[0].kind is Kind.SET else 1  # in layout order
        # the closed form works in written order
        if order != (0, 1):
            classes, sizes, lower, values, si = (classes[::-1], sizes[::-1], lower[::-1],
                                                 values[::-1], 1 - si)
        return partial(set_and_run, classes, sizes, lower, total, floor,
                       window_table(values[1 - si]), si)
    return None


def _one_group(cls, best_of: Callable[[Hand], tuple[int, int]], size: int, total: int,
               floor: int, nn: int, hand: Hand) -> list[Plan] | None:
    """A phase of one group: its best class (``best_of``: capacity, class index) decides."""
    need = hand.to_place(total, floor)
    if hand.nat < need:
        return None
    best, k = best_of(hand)
    if best < need:  # need is at least the group's natural minimum
        return None
    cl = cls[k]
    return [Plan(cl, take_alone(cl, size, hand.cnt, hand.present, nn))]


def _best_run_window(table: WindowCaps, hand: Hand) -> tuple[int, int]:
    best, k, _ = table[hand.number_bits()][0]
    return best, k


def _best_count(agg: str, size: int, hand: Hand) -> tuple[int, int]:
    src = hand.counts(agg)
    top = max(src)
    return (top if top < size else size), src.index(top)


def _best_cap(agg: str, vals, masks, size: int, nn: int, hand: Hand) -> tuple[int, int]:
    caps = hand.caps(agg, vals, size, nn, masks)
    best = max(caps)
    return best, caps.index(best)


# Layouts are shared by equal phases (a phase parsed afresh for every API call or
# batch line costs no more than one reused): looked up by the phase's parts in
# written order and the rules object, then by its groups and the rules' value.
# Both caches are bounded, so a stream of distinct phases cannot grow memory.
_PART_KEY = attrgetter("count", "group.kind", "group.size", "group.colors", "group.bound",
                       "group.total", "group.any_count")


_BY_PARTS: dict[tuple, tuple[Rules, Layout]] = {}


_BY_GROUPS: dict[tuple[tuple[Group, ...], Rules], Layout] = {}


_CACHE_SIZE = 512


# And first by the phase and the rules objects themselves: a game asks of the same few
# phases and rules thousands of times (the entry holds both, so their ids stay theirs).
_BY_OBJECTS: dict[tuple[int, int], tuple[Phase, Rules, Layout]] = {}


# The last (phase, rules, layout) asked: a bot and the referee ask the same phase many times
# running (each id() call and the key's tuple cost more than the two identity tests).
_LAST: list = [None, None, None]


def layout_for(phase: Phase, rules: Rules) -> Layout:
    last = _LAST
    if last[0] is phase and last[1] is rules:
        return last[2]
    got = _BY_OBJECTS.get((id(phase), id(rules)))
    if got is not None and got[0] is phase and got[1] is rules:
        last[:] = got
        return got[2]
    lay = _layout_for(phase, rules)
    _put(_BY_OBJECTS, (id(phase), id(rules)), (phase, rules, lay))
    last[:] = phase, rules, lay
    return lay


def _layout_for(phase: Phase, rules: Rules) -> Layout:
    key = (id(rules), *map(_PART_KEY, phase.parts))
    hit = _BY_PARTS.get(key)
    if hit is not None and hit[0] is rules:
        return hit[1]
    groups = phase.groups
    lay = _BY_GROUPS.get((groups, rules))
    if lay is None:
        lay = _make_layout(groups, rules)
        _put(_BY_GROUPS, (groups, rules), lay)
    _put(_BY_PARTS, key, (rules, lay))  # keeps rules alive, so its id stays its own
    return lay


def _put(cache: dict, key, value) -> None:
    if len(cache) >= _CACHE_SIZE:
        del cache[next(iter(cache))]  # the oldest entry
    cache[key] = value


def search_plans(lay: Layout, hand: Hand, rules: Rules, virtual: int = 0,
            deadline: float | None = None) -> list[Plan] | None:
    """An assignment making every group, or None when none exists (SearchLimit when the
    search runs past ``deadline``, by default budget.SEARCH_SECONDS from its start)."""
    groups = lay.all_groups
    if virtual or lay.need_w or lay.need_s:
        skips = hand.skips
        # Wild and skip parts take their cards first: nothing else can use skips,
        # and wilds in a wild part are simply spent.
        free_w = hand.wilds - lay.need_w
        need_s = lay.need_s
        if need_s > skips and rules.wild_as_skip:
            free_w -= need_s - skips
            need_s = skips
        if virtual:
            # cards not yet drawn can be the wilds or skips a part lacks
            virtual -= max(0, -free_w) + max(0, need_s - skips)
            free_w, need_s = max(free_w, 0), min(need_s, skips)
        if free_w < 0 or need_s > skips or virtual < 0:
            return None
        if not lay.order:  # only wild and skip parts: no natural can be laid
            return None if lay.floor else [NO_PLAN] * len(groups)
    else:
        free_w = hand.wilds
    # Naturals (real or virtual) that must be placed: what the wilds leave
    # empty, and never fewer than the minimums ask for.
    need = lay.total - free_w
    if need < lay.floor:
        need = lay.floor
    if hand.nat + virtual < need:
        return None  # too few naturals, however they are grouped
    sizes, lower, gs = lay.sizes, lay.lower, lay.groups
    nn = lay.tb.nn
    cnt = hand.cnt
    present = hand.present
    n = len(gs)
    # Reject on each group's best capacity before sorting anything: most hands stop here.
    all_caps: list[list[int]] = []
    total_best = 0
    same_as_prev = lay.same_as_prev
    # First a cheap bound from each group's best class alone (a table lookup for runs).
    for j in range(n):
        total_best += hand.best_cap(lay.aggs[j], sizes[j], nn, lay.wrap)
    if total_best + virtual < need:
        return None
    total_best = 0
    for j in range(n):
        if same_as_prev[j]:
            caps = all_caps[-1]
        else:
            caps = hand.caps(lay.aggs[j], lay.values[j], sizes[j], nn, lay.masks[j])
        if not caps:
            return None  # a run no window of its color map can hold (see impossible_group)
        best = max(caps)
        if best < lower[j] - virtual:
            return None
        total_best += best
        all_caps.append(caps)
    if total_best + virtual < need:
        return None
    if n == 1 and not virtual:
        # one group: its best class decides
        caps = all_caps[0]
        cl = lay.classes[0][caps.index(max(caps))]
        return reorder([Plan(cl, take_alone(cl, sizes[0], cnt, present, nn))], lay.order, groups)
    distinct = not rules.sets_share_number
    got = candidates(lay, all_caps, virtual, hand, distinct)
    if got is None:
        return None
    cands, best_rest = got
    if n == 2 and not virtual:
        return _search_pair(lay, cands, hand, need, nn, distinct, groups)
    # Big phases are mostly made with room to spare: a greedy construction finds
    # those at once, and the exact search below is left the close calls.
    plans = _construct(lay, cands, hand, need, virtual, distinct)
    if plans is not None:
        return reorder(plans, lay.order, groups)
    if _block_bound(lay, all_caps, hand) + virtual < need:
        return None
    number_only = all(cs[0][1].agg in ("num", "run") for cs in cands)
    chosen: list[Class] = [cands[0][0][1]] * n
    pos = [0] * n
    found: list[list[Plan]] = []

    def leaf(overlap: bool) -> bool:
        if not overlap and not virtual:
            plans = [Plan(cl, take_alone(cl, size, cnt, present, nn))
                     for cl, size in zip(chosen, sizes, strict=True)]
            found.append(reorder(plans, lay.order, groups))
            return True
        bound = (number_joint(chosen, sizes, hand) if number_only
                 else upper_bound(chosen, sizes, cnt, present, nn))
        if bound + virtual < need:
            return False
        steps[0] -= 4 * n  # a flow costs far more than a step
        got = None if virtual else greedy(chosen, sizes, lower, cnt, present, nn)
        if got is None or got[0] < need:
            got = assign(chosen, sizes, lower, cnt, present, virtual, nn)
        if got is None:
            return False
        placed, per = got
        if placed + sum(d.get(None, 0) for d in per) < need:
            return False
        plans = [Plan(cl, d) for cl, d in zip(chosen, per, strict=True)]
        found.append(reorder(plans, lay.order, groups))
        return True

    taken: dict[int, int] = {}  # naturals already counted from each chosen class
    sharing: dict[int, int] = {}  # groups on each chosen class
    # steps left, and the count at which the clock is next read: every 64 steps, counted
    # down (a leaf's flow takes several at once, so a multiple of a number may be skipped)
    steps = [budget.SEARCH_STEPS, max(budget.SEARCH_STEPS - 64, 0)]
    if deadline is None:
        deadline = budget.now() + budget.SEARCH_SECONDS

    def dfs(j: int, total: int, overlap: bool, used_numbers: frozenset) -> bool:
        if j == n:
            return leaf(overlap)
        steps[0] -= 1
        if steps[0] < steps[1]:
            if steps[0] < 0:
                raise SearchLimit(f"{budget.SEARCH_STEPS:,} search steps")
            steps[1] = max(steps[0] - 64, 0)
            if budget.now() > deadline:
                raise SearchLimit(f"{budget.SEARCH_SECONDS} s")
        cs = cands[j]
        is_set = distinct and gs[j].kind.is_set
        rest = best_rest[j + 1] + virtual - need
        lo = lower[j] - virtual
        for k in range(pos[j - 1] if same_as_prev[j] else 0, len(cs)):
            cap, cl = cs[k]
            if total + cap + rest < 0:
                break  # caps are sorted: no later class can do better
            if is_set and cl.number in used_numbers:
                continue
            gain = cap
            if cl.window is None and j and same_as_prev[j] and id(cl) in taken:
                # identical groups sharing a class share its cards: together they hold
                # at most what it has, and each needs its minimum of them
                supply = supply_of(cl, hand)
                gain = min(cap, supply - taken[id(cl)])
                if supply < lo * (sharing[id(cl)] + 1) or total + gain + rest < 0:
                    continue
            ov = overlap
            if not ov:
                m = cl.mask & present
                for i in range(j):
                    if chosen[i].mask & m:
                        ov = True
                        break
            chosen[j] = cl
            if ov:
                # what the groups chosen so far can hold together, not each alone
                steps[0] -= j
                head = chosen[:j + 1]
                hs = sizes[:j + 1]
                joint = (number_joint(head, hs, hand) if number_only
                         else upper_bound(head, hs, cnt, present, nn))
                if joint + rest < 0:
                    continue
            pos[j] = k
            un = used_numbers | {cl.number} if is_set else used_numbers
            key = id(cl)
            taken[key] = taken.get(key, 0) + gain
            sharing[key] = sharing.get(key, 0) + 1
            ok = dfs(j + 1, total + gain, ov, un)
            taken[key] -= gain
            sharing[key] -= 1
            if not sharing[key]:
                del taken[key], sharing[key]
            if ok:
                return True
        return False

    if not dfs(0, 0, False, frozenset()):
        return None
    return found[0]


def _block_bound(lay: Layout, all_caps: list, hand: Hand) -> int:
    """Most naturals the groups can hold, each alone, except that identical color
    runs are counted together (see joint.color_run_block)."""
    total, j, n = 0, 0, len(lay.groups)
    while j < n:
        m = 1
        while j + m < n and lay.same_as_prev[j + m]:
            m += 1
        if m > 1 and lay.aggs[j] == "crun":
            total += color_run_block(lay.classes[j], lay.sizes[j], m, hand)
        else:
            total += max(all_caps[j]) * m
        j += m
    return total


def _construct(lay: Layout, cands, hand: Hand, need: int, virtual: int,
               distinct: bool) -> list[Plan] | None:
    """A greedy layout: each group in turn (fewest candidates first) takes the class
    that places most of the cards still free.  Any layout it returns is valid; when it
    finds none the caller searches exactly."""
    nn = lay.tb.nn
    rem = list(hand.cnt)
    n = len(cands)
    sizes, lower, gs = lay.sizes, lay.lower, lay.groups
    takes: list[dict] = [{}] * n
    chosen: list[Class | None] = [None] * n
    used_numbers: set[int] = set()
    placed = short = 0
    for j in sorted(range(n), key=lambda j: (len(cands[j]), j)):
        size, is_set = sizes[j], distinct and gs[j].kind.is_set
        best, best_cl = -1, None
        for cap, cl in cands[j]:
            if cap <= best:
                break  # sorted by capacity: nothing later can take more
            if is_set and cl.number in used_numbers:
                continue
            got = _free_count(cl, size, rem, nn)
            if got > best:
                best, best_cl = got, cl
        if best_cl is None:
            return None
        short += max(0, lower[j] - best)
        if short > virtual:
            return None
        d = _take_free(best_cl, size, rem, nn)
        placed += best
        takes[j], chosen[j] = d, best_cl
        if is_set:
            used_numbers.add(best_cl.number)
    if placed + virtual < need:
        return None
    if virtual:
        # virtual cards first meet the minimums, then fill what is left
        room = virtual
        for j in range(n):
            k = max(0, lower[j] - sum(takes[j].values()))
            if k:
                takes[j][None] = k
                room -= k
                placed += k
        for j in range(n):
            if placed >= need:
                break
            k = min(room, sizes[j] - sum(takes[j].values()), need - placed)
            if k > 0:
                takes[j][None] = takes[j].get(None, 0) + k
                room -= k
                placed += k
    return [Plan(cl, d) for cl, d in zip(chosen, takes, strict=True)]


def _free_count(cl: Class, size: int, rem: list[int], nn: int) -> int:
    """How many of the cards still free a group of this class can hold."""
    if cl.window is not None:
        k = window_hold(cl, rem, cl.mask, nn)
    else:
        k = 0
        for t in bits(cl.mask):
            k += rem[t]
    return k if k < size else size


def _take_free(cl: Class, size: int, rem: list[int], nn: int) -> dict:
    """Take those cards out of ``rem``."""
    got: dict[int, int] = {}
    room = size
    per_number: dict[int, int] = {}
    for t in bits(cl.mask):
        if not room:
            break
        if not rem[t]:
            continue
        if cl.window is not None:
            ni = t % nn
            k = min(rem[t], cl.per - per_number.get(ni, 0), room)
            if k <= 0:
                continue
            per_number[ni] = per_number.get(ni, 0) + k
        else:
            k = min(rem[t], room)
        got[t] = k
        rem[t] -= k
        room -= k
    return got


def candidates(lay: Layout, all_caps: list, virtual: int, hand: Hand, distinct: bool):
    """Per group, (capacity, class) pairs that can meet its minimum, best first, and the
    most the groups from j on could add; None when a group has no candidate.

    Classes that accept the same cards of this hand are interchangeable (wilds
    fill the rest wherever they stand), so only one of each is kept; sets keep
    a few when their numbers must differ.  The bound for a run of identical
    groups counts how much each class can give a second or third group too.
    """
    n = len(lay.groups)
    present = hand.present
    cands: list[list[tuple[int, Class]]] = []
    for j in range(n):
        if lay.same_as_prev[j]:
            cands.append(cands[-1])  # an identical group has identical candidates
            continue
        lo = lay.lower[j] - virtual
        classes = lay.classes[j]
        keep = lay.set_groups if distinct and lay.groups[j].kind.is_set else 1
        seen: dict[int, int] = {}
        cs = []
        for k, c in enumerate(all_caps[j]):
            if c < lo:
                continue
            sig = classes[k].mask & present
            if seen.get(sig, 0) < keep:
                seen[sig] = seen.get(sig, 0) + 1
                cs.append((c, classes[k]))
        if not cs:
            return None
        cs.sort(key=by_capacity, reverse=True)
        cands.append(cs)
    best_rest = [0] * (n + 1)
    j = n - 1
    while j >= 0:
        start = j
        while start > 0 and lay.same_as_prev[start]:
            start -= 1
        m = j - start + 1
        if m == 1:
            best_rest[j] = best_rest[j + 1] + cands[j][0][0]
        else:
            tops = _block_marginals(cands[j], lay.sizes[j], m, hand)
            for i in range(m):  # groups start+i .. j remain: the best m-i marginals
                best_rest[start + i] = best_rest[j + 1] + sum(tops[:m - i])
        j = start - 1
    return cands, best_rest


def _block_marginals(cands: list[tuple[int, Class]], size: int, m: int, hand: Hand) -> list[int]:
    """The m largest amounts that m identical groups can take, class by class, best first."""
    out: list[int] = []
    cnt = hand.cnt
    for _cap, cl in cands:
        if cl.window is not None:
            # the i-th run on this window holds the numbers the hand has more than i of
            per_num = [0] * hand.nn
            for t in bits(cl.mask & hand.present):
                per_num[t % hand.nn] += cnt[t]
            per = cl.per
            for i in range(m):
                give = sum(min(per, max(0, per_num[ni] - per * i)) for ni in cl.window)
                if not give:
                    break
                out.append(min(give, size))
            continue
        supply = 0
        for t in bits(cl.mask & hand.present):
            supply += cnt[t]
        for i in range(m):
            give = min(size, supply - size * i)
            if give <= 0:
                break
            out.append(give)
        if not supply:
            out.append(0)
    out.sort(reverse=True)
    return out[:m] + [0] * max(0, m - len(out))


def _search_pair(lay: Layout, cands, hand: Hand, need: int, nn: int, distinct: bool,
                 groups) -> list[Plan] | None:
    """The two-group case of the search without recursion (most phases have one or two groups)."""
    cnt, present = hand.cnt, hand.present
    sizes, lower = lay.sizes, lay.lower
    number_only = all(cl.agg in ("num", "run") for cl in (cands[0][0][1], cands[1][0][1]))
    first, second = cands
    best2 = second[0][0]
    same = lay.same_as_prev[1]
    sets = distinct and lay.groups[1].kind.is_set and lay.groups[0].kind.is_set
    for i, (c0, cl0) in enumerate(first):
        if c0 + best2 < need:
            return None
        m0 = cl0.mask & present
        for c1, cl1 in (second[i:] if same else second):
            if c0 + c1 < need:
                break
            if sets and cl0.number == cl1.number:
                continue
            chosen = (cl0, cl1)
            if not m0 & cl1.mask:
                plans = [Plan(cl0, take_alone(cl0, sizes[0], cnt, present, nn)),
                         Plan(cl1, take_alone(cl1, sizes[1], cnt, present, nn))]
                return reorder(plans, lay.order, groups)
            if number_only:
                # Exact joint count for two number-only groups sharing numbers.
                if c0 + c1 - pair_loss(cl0, cl1, sizes, hand) < need:
                    continue
            elif upper_bound(chosen, sizes, cnt, present, nn) < need:
                continue
            got = greedy(chosen, sizes, lower, cnt, present, nn)
            if got is None or got[0] < need:
                got = assign(chosen, sizes, lower, cnt, present, 0, nn)
            if got is not None and got[0] >= need:
                return reorder([Plan(cl, d) for cl, d in zip(chosen, got[1], strict=True)],
                                lay.order, groups)
    return None


by_capacity = itemgetter(0)


def take_alone(cl: Class, size: int, cnt: Sequence[int], present: int, nn: int) -> dict:
    """The naturals a group takes when no other group competes for them."""
    got: dict[int, int] = {}
    room = size
    m = cl.mask & present
    # (the types in order, bit by bit inline: the quick paths' hot loop)
    if cl.window is not None and cl.per == 1:
        held = 0  # the numbers taken: one card each
        while m and room:
            low = m & -m
            m ^= low
            t = low.bit_length() - 1
            if cnt[t] > 0 and not held >> t % nn & 1:
                held |= 1 << t % nn
                got[t] = 1
                room -= 1
        return got
    if cl.window is not None:
        done: dict[int, int] = {}  # cards taken at each number (a run of pairs takes two)
        for t in bits(m):
            ni = t % nn
            k = min(cnt[t], cl.per - done.get(ni, 0), room)
            if k > 0:
                done[ni] = done.get(ni, 0) + k
                got[t] = k
                room -= k
        return got
    while m and room:
        low = m & -m
        m ^= low
        t = low.bit_length() - 1
        k = cnt[t] if cnt[t] < room else room
        got[t] = k
        room -= k
    return got


def reorder(plans: list[Plan], order: list[int], groups: Sequence[Group]) -> list[Plan]:
    out: list[Plan] = [NO_PLAN] * len(groups)
    for p, i in zip(plans, order, strict=True):
        out[i] = p
    return out
