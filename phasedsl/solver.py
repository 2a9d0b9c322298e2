"""The exact meld solver: does a hand make a phase, and with which cards?

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
size costs the same.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import product
from operator import itemgetter
from typing import NamedTuple

from .cards import SKIP, Card
from .classes import _bits, _Class, _classes, _Tables, _tables
from .errors import PhaseDSLError
from .handcounts import _Hand
from .joint import (
    _assign,
    _greedy,
    _number_joint,
    _pair_loss,
    _supply,
    _upper,
)
from .meld import LaidGroup, Meld
from .phase import Group, Kind, Phase
from .rules import DEFAULT_RULES, Rules

# --------------------------------------------------------------------------
# The search.


class _Plan(NamedTuple):
    """What one group ends up with: its class, and the naturals it takes."""

    cls: _Class | None
    naturals: dict  # type index -> count (None -> virtual cards)


_NO_PLAN = _Plan(None, {})  # wild and skip parts (never mutated)


@dataclass(frozen=True)
class _Layout:
    """What a phase needs, prepared once per (phase, rules)."""

    order: tuple[int, ...]  # groups needing naturals, most demanding first
    groups: tuple[Group, ...]  # those groups, in that order
    sizes: tuple[int, ...]
    lower: tuple[int, ...]
    classes: tuple[tuple[_Class, ...], ...]
    aggs: tuple[str, ...]  # per group: which aggregate its classes read
    values: tuple[tuple, ...]  # per group: the aggregate index (or window bits) of each class
    masks: tuple[tuple[int, ...], ...]
    same_as_prev: tuple[bool, ...]
    need_w: int
    need_s: int
    all_groups: tuple[Group, ...]
    tb: _Tables
    total: int  # cards the natural-needing groups hold
    set_groups: int  # how many set groups (kept classes per card signature when sets differ)
    min_phase: int  # naturals the whole phase needs (per-phase scope), else 0


def _as_played(g: Group, rules: Rules) -> Group:
    if rules.runs_one_color and g.kind is Kind.RUN:
        return Group(Kind.COLOR_RUN, g.size, g.colors)
    return g


def _make_layout(groups: tuple[Group, ...], rules: Rules) -> _Layout:
    idx = [i for i, g in enumerate(groups) if g.kind.needs_natural]
    order = sorted(idx, key=lambda i: (-groups[i].size, groups[i].kind.value, i))
    gs = tuple(groups[i] for i in order)
    per_group = rules.natural_scope == "group"
    classes = tuple(_classes(_as_played(g, rules), rules.deck) for g in gs)
    aggs, values = [], []
    for cls in classes:
        agg = cls[0].agg if cls else "num"
        aggs.append(agg)
        if agg == "crun":
            values.append(tuple((cl.color, cl.index) for cl in cls))
        else:
            values.append(tuple(cl.index for cl in cls))
    return _Layout(
        order=tuple(order),
        groups=gs,
        sizes=tuple(g.size for g in gs),
        lower=tuple(min(rules.min_naturals, g.size) if per_group else 0 for g in gs),
        classes=classes,
        aggs=tuple(aggs),
        values=tuple(values),
        masks=tuple(tuple(cl.mask for cl in cls) for cls in classes),
        same_as_prev=tuple(j > 0 and gs[j] == gs[j - 1] for j in range(len(gs))),
        need_w=sum(g.size for g in groups if g.kind is Kind.WILD),
        need_s=sum(g.size for g in groups if g.kind is Kind.SKIP),
        all_groups=groups,
        tb=_tables(rules.deck),
        total=sum(g.size for g in gs),
        set_groups=sum(1 for g in gs if g.kind.is_set),
        min_phase=0 if per_group else rules.min_naturals,
    )


# Layouts by (id(phase), id(rules)); the entry keeps both objects alive so an
# id is never reused while its entry exists, and is checked by identity.
_LAYOUTS: dict[tuple[int, int], tuple[Phase, Rules, _Layout]] = {}


def _layout_for(phase: Phase, rules: Rules) -> _Layout:
    key = (id(phase), id(rules))
    hit = _LAYOUTS.get(key)
    if hit is not None and hit[0] is phase and hit[1] is rules:
        return hit[2]
    if len(_LAYOUTS) > 512:
        _LAYOUTS.clear()
    lay = _make_layout(phase.groups, rules)
    _LAYOUTS[key] = (phase, rules, lay)
    return lay


def _search(lay: _Layout, hand: _Hand, rules: Rules, virtual: int = 0) -> list[_Plan] | None:
    """An assignment making every group, or None when none exists."""
    nn = lay.tb.nn
    groups = lay.all_groups
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
    if not lay.order:
        return [_NO_PLAN] * len(groups)
    cnt = hand.cnt
    present = hand.present
    sizes, lower, gs = lay.sizes, lay.lower, lay.groups
    need = lay.total - free_w  # naturals (real or virtual) that must be placed
    if need < lay.min_phase:
        need = lay.min_phase
    n = len(gs)
    # Reject on each group's best capacity before sorting anything: most hands stop here.
    all_caps: list[list[int]] = []
    total_best = 0
    same_as_prev = lay.same_as_prev
    # First a cheap bound from each group's best class alone (a table lookup for runs).
    for j in range(n):
        total_best += hand.best_cap(lay.aggs[j], sizes[j], nn)
    if total_best + virtual < need:
        return None
    total_best = 0
    for j in range(n):
        if same_as_prev[j]:
            caps = all_caps[-1]
        else:
            caps = hand.caps(lay.aggs[j], lay.values[j], sizes[j], nn, lay.masks[j])
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
        return _reorder([_Plan(cl, _take(cl, sizes[0], cnt, present, nn))], lay.order, groups)
    distinct = not rules.sets_share_number
    got = _candidates(lay, all_caps, virtual, hand, distinct)
    if got is None:
        return None
    cands, best_rest = got
    if n == 2 and not virtual:
        return _search_pair(lay, cands, hand, need, nn, distinct, groups)
    number_only = all(cs[0][1].agg in ("num", "run") for cs in cands)
    chosen: list[_Class] = [cands[0][0][1]] * n
    pos = [0] * n
    found: list[list[_Plan]] = []

    def leaf(overlap: bool) -> bool:
        if not overlap and not virtual:
            plans = [_Plan(cl, _take(cl, size, cnt, present, nn))
                     for cl, size in zip(chosen, sizes, strict=True)]
            found.append(_reorder(plans, lay.order, groups))
            return True
        bound = (_number_joint(chosen, sizes, hand) if number_only
                 else _upper(chosen, sizes, cnt, present, nn))
        if bound + virtual < need:
            return False
        got = None if virtual else _greedy(chosen, sizes, lower, cnt, present, nn)
        if got is None or got[0] < need:
            got = _assign(chosen, sizes, lower, cnt, present, virtual, nn)
        if got is None:
            return False
        placed, per = got
        if placed + sum(d.get(None, 0) for d in per) < need:
            return False
        plans = [_Plan(cl, d) for cl, d in zip(chosen, per, strict=True)]
        found.append(_reorder(plans, lay.order, groups))
        return True

    taken: dict[int, int] = {}  # naturals already counted from each chosen class
    sharing: dict[int, int] = {}  # groups on each chosen class
    steps = [SEARCH_STEPS]

    def dfs(j: int, total: int, overlap: bool, used_numbers: frozenset) -> bool:
        if j == n:
            return leaf(overlap)
        steps[0] -= 1
        if steps[0] < 0:
            raise SearchLimit(SEARCH_STEPS)
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
                supply = _supply(cl, hand)
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


# Search steps before giving up on a phase (only absurdly large phases get there).
SEARCH_STEPS = 2_000_000


class SearchLimit(PhaseDSLError):
    """The phase has too many interchangeable groups for an exact search in reasonable time."""

    def __init__(self, steps: int) -> None:
        super().__init__(f"gave up after {steps:,} search steps: this phase has too many "
                         "interchangeable groups for an exact answer")


def _candidates(lay: _Layout, all_caps: list, virtual: int, hand: _Hand, distinct: bool):
    """Per group, (capacity, class) pairs that can meet its minimum, best first, and the
    most the groups from j on could add; None when a group has no candidate.

    Classes that accept the same cards of this hand are interchangeable (wilds
    fill the rest wherever they stand), so only one of each is kept; sets keep
    a few when their numbers must differ.  The bound for a run of identical
    groups counts how much each class can give a second or third group too.
    """
    n = len(lay.groups)
    present = hand.present
    cands: list[list[tuple[int, _Class]]] = []
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
        cs.sort(key=_first, reverse=True)
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


def _block_marginals(cands: list[tuple[int, _Class]], size: int, m: int, hand: _Hand) -> list[int]:
    """The m largest amounts that m identical groups can take, class by class, best first."""
    out: list[int] = []
    cnt = hand.cnt
    for cap, cl in cands:
        if cl.window is not None:
            out += [cap] * m  # a generous bound for runs
            continue
        supply = 0
        for t in _bits(cl.mask & hand.present):
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


def _search_pair(lay: _Layout, cands, hand: _Hand, need: int, nn: int, distinct: bool,
                 groups) -> list[_Plan] | None:
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
                plans = [_Plan(cl0, _take(cl0, sizes[0], cnt, present, nn)),
                         _Plan(cl1, _take(cl1, sizes[1], cnt, present, nn))]
                return _reorder(plans, lay.order, groups)
            if number_only:
                # Exact joint count for two number-only groups sharing numbers.
                if c0 + c1 - _pair_loss(cl0, cl1, sizes, hand) < need:
                    continue
            elif _upper(chosen, sizes, cnt, present, nn) < need:
                continue
            got = _greedy(chosen, sizes, lower, cnt, present, nn)
            if got is None or got[0] < need:
                got = _assign(chosen, sizes, lower, cnt, present, 0, nn)
            if got is not None and got[0] >= need:
                return _reorder([_Plan(cl, d) for cl, d in zip(chosen, got[1], strict=True)],
                                lay.order, groups)
    return None


_first = itemgetter(0)


def _take(cl: _Class, size: int, cnt: Sequence[int], present: int, nn: int) -> dict:
    """The naturals a group takes when no other group competes for them."""
    got: dict[int, int] = {}
    room = size
    if cl.window is not None:
        done = set()
        for t in _bits(cl.mask & present):
            ni = t % nn
            if ni not in done and room:
                done.add(ni)
                got[t] = 1
                room -= 1
        return got
    for t in _bits(cl.mask & present):
        if not room:
            break
        k = min(cnt[t], room)
        got[t] = k
        room -= k
    return got


def _reorder(plans: list[_Plan], order: list[int], groups: Sequence[Group]) -> list[_Plan]:
    out: list[_Plan] = [_NO_PLAN] * len(groups)
    for p, i in zip(plans, order, strict=True):
        out[i] = p
    return out


# --------------------------------------------------------------------------
# Public API.


def _postal_variants(hand: _Hand, rules: Rules, tb: _Tables, keep_most: int = 0):
    """Ways of playing wild-number cards (postal): each is (hand, {type: cards played as wilds}).

    A wild can stand wherever such a card stands as itself, so playing it as a
    wild never hurts, except that it then does not count toward a group's
    natural minimum.  Hence only the ways that keep at most ``keep_most``
    of them natural (the minimums' total) need trying: a few, however large the hand.
    """
    if not rules.wild_numbers:
        yield hand, {}
        return
    cnt = hand.cnt
    flex = [t for t, c in enumerate(cnt) if c and (t % tb.nn) + rules.deck.low in rules.wild_numbers]
    if not flex:
        yield hand, {}
        return
    for keep in product(*[range(min(cnt[t], keep_most) + 1) for t in flex]):
        if sum(keep) > keep_most:
            continue
        c2 = list(cnt)
        converted = {}
        for t, k in zip(flex, keep, strict=True):
            converted[t] = cnt[t] - k
            c2[t] = k
        yield (_Hand(c2, hand.wilds + sum(converted.values()), hand.skips, tb),
               {t: k for t, k in converted.items() if k})


def _keep_most(lay: _Layout, rules: Rules) -> int:
    """Most wild-number cards that ever need to stay natural: the natural minimums' total."""
    if rules.natural_scope == "group":
        return sum(lay.lower)
    return rules.min_naturals


def find(phase: Phase, hand: Iterable[Card], rules: Rules = DEFAULT_RULES) -> Meld | None:
    """A meld of ``hand`` that makes ``phase``, or None when no meld exists."""
    lay = _layout_for(phase, rules)
    h = _Hand.of(hand, lay.tb)
    if not rules.wild_numbers:
        plans = _search(lay, h, rules)
        return None if plans is None else _build(lay, plans, h.skips, rules, {})
    for h2, converted in _postal_variants(h, rules, lay.tb, _keep_most(lay, rules)):
        plans = _search(lay, h2, rules)
        if plans is not None:
            return _build(lay, plans, h2.skips, rules, converted)
    return None


def can_make(phase: Phase, hand: Iterable[Card], rules: Rules = DEFAULT_RULES) -> bool:
    return find(phase, hand, rules) is not None


@cache
def _wild(number: int | None, color: str | None) -> Card:
    return Card(number, color, wild=True)


def _build(lay: _Layout, plans: list[_Plan], skips: int, rules: Rules, converted: dict) -> Meld:
    """Turn plans into laid cards: runs in order, each wild saying what it stands for."""
    tb = lay.tb
    groups = lay.all_groups
    low = rules.deck.low
    colors = rules.deck.colors
    cards_of = tb.cards
    # Cards of wild numbers played as wilds (postal) are real cards of the hand:
    # the meld shows them as themselves, spent before the real wilds, and
    # records what each stands for.
    spare = [cards_of[t] for t, k in converted.items() for _ in range(k)]
    acting: list[tuple[int, int, Card]] = []

    def take_wild(number: int | None, color: str | None, gi: int, ci: int) -> Card:
        if not spare:
            return _wild(number, color)
        acting.append((gi, ci, _wild(number, color)))
        return spare.pop()

    laid: list[LaidGroup] = []
    skips_left = skips
    for gi, (g, plan) in enumerate(zip(groups, plans, strict=True)):
        kind = g.kind
        if kind is Kind.WILD:
            laid.append(LaidGroup(g, tuple(take_wild(None, None, gi, ci) for ci in range(g.size))))
            continue
        if kind is Kind.SKIP:
            cards = []
            for ci in range(g.size):
                if skips_left:
                    skips_left -= 1
                    cards.append(SKIP)
                else:
                    cards.append(take_wild(None, None, gi, ci))
            laid.append(LaidGroup(g, tuple(cards)))
            continue
        cl = plan.cls
        nats = plan.naturals
        color = colors[cl.color] if cl.color is not None else None
        if cl.window is not None:
            nn = tb.nn
            by_num = {t % nn: cards_of[t] for t in nats}
            laid.append(LaidGroup(g, tuple([
                by_num[ni] if ni in by_num else take_wild(ni + low, color, gi, ci)
                for ci, ni in enumerate(cl.window)])))
            continue
        cards = []
        for t in (nats if len(nats) < 2 else sorted(nats, key=tb.sort_key)):
            cards += [cards_of[t]] * nats[t]
        number = cl.number + low if cl.number is not None else None
        while len(cards) < g.size:
            cards.append(take_wild(number, color, gi, len(cards)))
        laid.append(LaidGroup(g, tuple(cards)))
    return Meld(tuple(laid), tuple(acting))
