"""Sums ("cards totalling 34", "5 cards of one color totalling 34"): the exact search for
phases that hold them.

Whether a hand makes a sum depends on which numbers it holds, not only on how many cards
of a class, so the class-per-group search cannot hold a sum.  Instead each sum group's
naturals are enumerated as a multiset of the hand's card types (a color sum's of one
color), pruned by its total: with ``u`` slots left for wilds and cards still to come, the
naturals' sum ``s`` must have ``s + u*low <= total <= s + u*high``, and a fixed count
leaves exactly ``size - naturals`` slots.  For every choice, the wilds (and, for the
shortfall, cards still to come) fill the sum, and the class search solves the rest of the
phase with what is left of the hand.  Exact: every legal meld gives each sum some multiset
of the hand's naturals, and the enumeration meets every one; wilds are interchangeable, so
how many a sum takes is all that matters, and where a wild or a card still to come could
fill a slot, the wild goes first (a card still to come can do whatever a wild can, and
also counts as a natural).  Bounded: each choice is a step of the search's budget
(``budget``), past which it raises ``SearchLimit``, as the class search does.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..model.group import Group, Kind, Part
from ..model.phase import Phase
from ..model.rules import Rules
from . import budget
from .budget import SearchLimit
from .classes import Plan, Tables, tables
from .handcounts import Hand
from .search import Layout, layout_for, search_plans


@dataclass(frozen=True, slots=True)
class SumPlan:
    """What one sum group takes: naturals (type -> count), the number each wild stands for,
    the numbers of cards still to come (the shortfall's), and its color (a color sum)."""

    naturals: dict
    wilds: tuple[int, ...]
    virtual: tuple[int, ...]
    color: int | None


@dataclass(frozen=True, slots=True)
class SumSolution:
    """A way to make a phase with sums: a plan per sum group (by index in the phase's
    groups), and the rest of the phase as the class search laid it."""

    sums: dict  # group index -> SumPlan
    rest_index: tuple[int, ...]  # the other groups' indices, in written order
    rest_layout: Layout | None
    rest_plans: list[Plan] | None
    rest_hand: Hand | None
    rest_rules: Rules


def has_sums(groups: tuple[Group, ...]) -> bool:
    return any(g.kind.is_sum for g in groups)


def natural_floor(groups: tuple[Group, ...], rules: Rules) -> int:
    """The naturals the phase's minimums add up to (postal: most cards that stay natural)."""
    if rules.natural_scope == "group":
        return sum(min(rules.min_naturals, g.size) for g in groups if g.kind.needs_natural)
    return rules.min_naturals


# The rest of a phase (its groups bar the sums), per phase's groups: bounded, as layouts are.
_REST: dict[tuple[Group, ...], tuple[tuple[int, ...], tuple[int, ...], Phase | None]] = {}


def _split(groups: tuple[Group, ...]) -> tuple[tuple[int, ...], tuple[int, ...], Phase | None]:
    got = _REST.get(groups)
    if got is None:
        sums = tuple(i for i, g in enumerate(groups) if g.kind.is_sum)
        rest = tuple(i for i, g in enumerate(groups) if not g.kind.is_sum)
        phase = Phase(tuple(Part(1, groups[i]) for i in rest)) if rest else None
        if len(_REST) >= 512:
            _REST.clear()
        got = _REST[groups] = (sums, rest, phase)
    return got


# Rules for the rest of a phase: no postal numbers (the caller plays those first), and under
# the per-phase scope the naturals the sums leave to find.  Kept per (rules, minimum).
_RULES: dict[tuple[int, int], tuple[Rules, Rules]] = {}


def plain_rules(rules: Rules) -> Rules:
    """The rules with no postal numbers (the caller plays those cards as wilds or not)."""
    return _rest_rules(rules, rules.min_naturals)


def _rest_rules(rules: Rules, min_naturals: int) -> Rules:
    key = (id(rules), min_naturals)
    got = _RULES.get(key)
    if got is not None and got[0] is rules:
        return got[1]
    out = replace(rules, min_naturals=min_naturals, wild_numbers=frozenset())
    if len(_RULES) >= 256:
        _RULES.clear()
    _RULES[key] = (rules, out)  # holds rules, so its id stays its own
    return out


def split_total(gap: int, k: int, low: int, high: int) -> list[int]:
    """k numbers from low to high adding up to gap (the caller checked that they can)."""
    out = []
    for i in range(k):
        rest = k - i - 1
        x = min(high, gap - rest * low)
        out.append(x)
        gap -= x
    return out


def search_sums(groups: tuple[Group, ...], hand: Hand, rules: Rules, virtual: int = 0,
                deadline: float | None = None) -> SumSolution | None:
    """A way to make the phase of ``groups`` (holding at least one sum) with ``hand`` and
    ``virtual`` cards still to come (any cards), or None when there is none; SearchLimit
    past the budget.  ``rules`` must have no postal numbers (the caller plays them)."""
    tb: Tables = tables(rules.deck)
    deck = rules.deck
    low, high, nn = deck.low, deck.high, tb.nn
    sums, rest_index, rest_phase = _split(groups)
    # cards the groups after sum j need at the least (a skip part aside: its skips are
    # counted apart), so that a sum of any count leaves them room
    after = [sum(g.size for g in groups if not g.kind.is_sum and g.kind is not Kind.SKIP)]
    for j in range(len(sums) - 1, 0, -1):
        after.insert(0, after[0] + groups[sums[j]].size)
    per_group = rules.natural_scope == "group"
    need_phase = 0 if per_group else rules.min_naturals
    number = [t % nn + low for t in range(len(hand.cnt))]
    if deadline is None:
        deadline = budget.now() + budget.SEARCH_SECONDS
    # steps left, and the count at which the clock is next read (every 64 steps)
    steps = [budget.SEARCH_STEPS, budget.SEARCH_STEPS - 64]
    tried: dict[tuple, tuple | None] = {}

    def tick(cost: int = 1) -> None:
        steps[0] -= cost
        if steps[0] < 0:
            raise SearchLimit(f"{budget.SEARCH_STEPS:,} search steps")
        if steps[0] <= steps[1]:
            steps[1] = steps[0] - 64
            if budget.now() > deadline:
                raise SearchLimit(f"{budget.SEARCH_SECONDS} s")

    def rest(cnt: list[int], wilds: int, left: int, naturals: int):
        """The rest of the phase with what the sums leave: (layout, plans, hand, rules)."""
        still = max(0, need_phase - naturals)
        if rest_phase is None:
            return () if still == 0 else None
        key = (tuple(cnt), wilds, left, still)
        if key in tried:
            return tried[key]
        tick(8)
        r2 = _rest_rules(rules, rules.min_naturals if per_group else still)
        lay = layout_for(rest_phase, r2)
        h2 = Hand(list(cnt), wilds, hand.skips, tb)  # (cnt changes as the search goes on)
        plans = search_plans(lay, h2, r2, left, deadline)
        got = None if plans is None else (lay, plans, h2, r2)
        tried[key] = got
        return got

    chosen: dict[int, SumPlan] = {}

    failed: set[tuple] = set()
    # the sums from j on, together: the fixed ones' cards and totals, and every total
    fix_k, fix_t, all_t = [0] * (len(sums) + 1), [0] * (len(sums) + 1), [0] * (len(sums) + 1)
    for j in range(len(sums) - 1, -1, -1):
        g = groups[sums[j]]
        fixed = not g.any_count
        fix_k[j] = fix_k[j + 1] + (g.size if fixed else 0)
        fix_t[j] = fix_t[j + 1] + ((g.total or 0) if fixed else 0)
        all_t[j] = all_t[j + 1] + (g.total or 0)

    def within_reach(j: int, cnt: list[int], free: int) -> bool:
        """Whether the sums from j on can still be made, counted together (their cards are
        distinct): everything left adds up to all their totals, and the fixed ones' cards,
        the highest or lowest that many of what is left, reach and do not overshoot theirs."""
        per_num = [0] * nn
        for t, k in enumerate(cnt):
            per_num[t % nn] += k
        if all_t[j] > sum(k * (ni + low) for ni, k in enumerate(per_num)) + free * high:
            return False
        k = fix_k[j]
        if not k:
            return True
        if k > sum(per_num) + free:
            return False
        most, least, room_hi, room_lo = 0, 0, k, k
        take = min(free, room_hi)  # wilds and cards to come at the top number
        most, room_hi = take * high, room_hi - take
        take = min(free, room_lo)  # ... or at the bottom
        least, room_lo = take * low, room_lo - take
        for ni in range(nn - 1, -1, -1):
            take = min(per_num[ni], room_hi)
            most, room_hi = most + take * (ni + low), room_hi - take
        for ni in range(nn):
            take = min(per_num[ni], room_lo)
            least, room_lo = least + take * (ni + low), room_lo - take
        return least <= fix_t[j] <= most

    def place(j: int, cnt: list[int], wilds: int, left: int, naturals: int,
              prev: tuple | None):
        if j == len(sums):
            return rest(cnt, wilds, left, naturals)
        # what is left, and (identical sums) the choice the next must not undercut, is all
        # that the groups from j on depend on: a state that failed once fails again
        state = (j, tuple(cnt), wilds, left, 0 if per_group else min(naturals, need_phase),
                 prev if j and groups[sums[j - 1]] == groups[sums[j]] else None)
        if state in failed:
            return None
        tick()
        if not within_reach(j, cnt, wilds + left):
            failed.add(state)
            return None
        got = place_one(j, cnt, wilds, left, naturals, prev)
        if got is None:
            failed.add(state)
        return got

    def place_one(j: int, cnt: list[int], wilds: int, left: int, naturals: int,
                  prev: tuple | None):
        gi = sums[j]
        g = groups[gi]
        same_as_prev = j > 0 and groups[sums[j - 1]] == g
        lower = min(rules.min_naturals, g.size) if per_group else 0
        total = g.total or 0
        for ci in range(tb.nc) if g.kind.one_color else (None,):
            got = in_color(j, gi, g, ci, cnt, wilds, left, naturals, prev, same_as_prev, lower,
                           total)
            if got is not None:
                return got
        return None

    def in_color(j: int, gi: int, g: Group, ci: int | None, cnt: list[int], wilds: int,
                 left: int, naturals: int, prev: tuple | None, same_as_prev: bool, lower: int,
                 total: int):
        """place_one for one color of a color sum (None: a sum of any colors)."""
        if ci is None:
            types = [t for t in range(len(cnt)) if cnt[t]]
        else:
            types = [t for t in range(ci * nn, (ci + 1) * nn) if cnt[t]]
        # high numbers first: a sum made of few cards leaves the most to the rest
        types.sort(key=lambda t: -number[t])
        # the most the types from i on can add, for the bound below
        reach = [0] * (len(types) + 1)
        many = [0] * (len(types) + 1)
        top = [high if wilds + left else low] * (len(types) + 1)  # the most a slot adds
        for i in range(len(types) - 1, -1, -1):
            t = types[i]
            reach[i] = reach[i + 1] + cnt[t] * number[t]
            many[i] = many[i + 1] + cnt[t]
            top[i] = max(top[i + 1], number[t])
        take = [0] * len(types)
        fixed = not g.any_count
        free = wilds + left
        room = sum(cnt) + free - after[j]  # the most cards this sum may take
        cap = g.size if fixed else room

        def leaf(s: int, c: int):
            gap = total - s
            if gap < 0:
                return None
            if fixed:
                u_lo = u_hi = g.size - c
            else:
                u_lo = max(-(-gap // high) if gap > 0 else 0, 1 - c, lower - c, 0)
                u_hi = gap // low if low > 0 else free
                u_hi = min(u_hi, free, room - c)
                if not left or per_group:
                    # more cards here never help the rest; only a phase's natural minimum
                    # may want more cards still to come (naturals) in a sum
                    u_hi = min(u_hi, u_lo)
            if c == 0 and ci:
                return None  # a color sum of wilds alone: the first color stands for all
            # (in the order types are tried, high numbers first, so that the choices the
            # walk meets first tend to come in order)
            key = (-1 if ci is None else ci, tuple(sorted(
                ((-number[types[i]], types[i]), k) for i, k in enumerate(take) if k)))
            if same_as_prev and prev is not None and key < prev:
                return None  # identical sums: one order of their choices is enough
            for u in range(u_lo, u_hi + 1):
                if not (u * low <= gap <= u * high) or u > free:
                    continue
                v_lo = max(lower - c, u - wilds, 0)
                # a card still to come does whatever a wild does in the rest, so the wilds
                # go here first; past that only the per-phase minimum may want more
                v_hi = min(u, left) if not per_group else min(v_lo, left)
                for v in range(v_lo, v_hi + 1):
                    tick()
                    values = split_total(gap, u, low, high)
                    plan = SumPlan({types[i]: k for i, k in enumerate(take) if k},
                                   tuple(values[:u - v]), tuple(values[u - v:]), ci)
                    for i, k in enumerate(take):
                        cnt[types[i]] -= k
                    got = place(j + 1, cnt, wilds - (u - v), left - v, naturals + c + v,
                                key)
                    for i, k in enumerate(take):
                        cnt[types[i]] += k
                    if got is not None:
                        chosen[gi] = plan
                        return got
            return None

        def walk(i: int, s: int, c: int):
            tick()
            if s + reach[i] + free * high < total:
                return None  # even every card left and every slot at the top fall short
            if fixed and (c + many[i] + free < g.size
                          or s + (g.size - c) * top[i] < total):
                return None
            if i == len(types):
                return leaf(s, c)
            t = types[i]
            x = number[t]
            most = min(cnt[t], cap - c)
            if x > 0:
                most = min(most, (total - s) // x)
            for k in range(most, -1, -1):
                if fixed and s + k * x + (g.size - c - k) * low > total:
                    continue
                take[i] = k
                got = walk(i + 1, s + k * x, c + k)
                if got is not None:
                    return got
            take[i] = 0
            return None

        return walk(0, 0, 0)

    got = place(0, list(hand.cnt), hand.wilds, virtual, 0, None)
    if got is None:
        return None
    if got == ():
        return SumSolution(dict(chosen), rest_index, None, None, None, rules)
    lay, plans, h2, r2 = got
    return SumSolution(dict(chosen), rest_index, lay, plans, h2, r2)
