"""How close a hand is to a phase: cards short, and which cards complete it.

The fewest missing cards is a maximum-fill question.  For one choice of class
per group (as in the solver), the hand's cards the phase can hold are

    skips in skip parts + min(N + wilds, wild room - D)

where N is the most naturals the chosen groups can place together (a plain
sum of capacities when no two of them accept the same card, else a max-flow),
the wild room is every slot a wild may fill, and D is the naturals the groups'
minimums still lack (a missing card can be such a natural; a wild cannot).  A
branch-and-bound over classes, best capacity first, finds the choice holding
the most; the cards short are the rest.  A card completes a hand one short
only when it adds to one of the best choices, so the outs are sought among
the cards those choices' groups accept (and a wild, and a skip), each then
confirmed by the solver.  Both searches count steps: past the budget the
answer is a range ("at least N short"), labelled as not exact; where the
range reaches 0 and the solver's own search stops at its budget too, whether
the hand makes the phase is undecided (``Shortfall.decided`` false), an answer
rather than an error.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from . import solver
from .cards import SKIP, WILD, Card, card_names
from .classes import _bits, _classes, _tables
from .coerce import hand_args
from .handcounts import _Hand
from .joint import _assign, _greedy, _number_joint, _supply, _upper
from .meld import Meld
from .phase import Group, Kind, Part, Phase
from .rules import DEFAULT_RULES, Rules
from .solver import (
    SearchLimit,
    _as_played,
    _build,
    _candidates,
    _find,
    _first,
    _keep_most,
    _Layout,
    _layout_for,
    _Plan,
    _postal_variants,
    _reorder,
    _search,
    _take,
    find,
)


@dataclass(frozen=True, slots=True)
class Out:
    """A card that completes the phase when drawn, and how many are unseen."""

    card: Card
    unseen: int


@dataclass(frozen=True, slots=True)
class Shortfall:
    """``missing`` cards short of the phase (0: made).

    ``outs`` lists every single card that completes it (when 1 short);
    ``example`` is one set of ``missing`` cards that completes it, and
    ``groups`` the groups those cards complete.
    """

    missing: int
    outs: tuple[Out, ...] = ()
    example: tuple[Card, ...] = ()
    groups: tuple[Group, ...] = ()
    # False when the example is not a real completion from what is left of the deck
    # (the count treats each missing card as any card; rare rule and deck corners, such as
    # two naturals per group from a deck with one copy of each card, break that): then
    # ``missing`` is a lower bound.
    possible: bool = True
    never: str | None = None  # why no hand can make the phase under these rules
    # False when the search hit its step budget (huge phases only): ``missing`` is then
    # a lower bound, ``at_most`` an upper one, and the example holds ``at_most`` cards.
    exact: bool = True
    at_most: int | None = None
    # False when neither search could settle whether the hand makes the phase within its
    # budget: ``missing`` is then 0 as a lower bound (it may be made), not "made".
    decided: bool = True

    def summary(self, phase: Phase, rules: Rules = DEFAULT_RULES) -> str:
        if not self.decided:
            s = "s" if self.at_most != 1 else ""
            shown = " + ".join(card_names(self.example))
            example = f" (for example {shown} completes it)" if self.possible and shown else ""
            return (f"undecided: the search stopped at its budget ({solver.SEARCH_STEPS:,} steps "
                    f"or {solver.SEARCH_SECONDS} s); the hand is at most {self.at_most} card{s} short"
                    f"{example} and may make the phase")
        if self.missing == 0:
            return "made"
        if self.never:
            return f"cannot be made under these rules: {self.never}"
        s = "s" if self.missing != 1 else ""
        if not self.exact and self.missing == self.at_most:
            shown = " + ".join(str(c) for c in self.example)
            return (f"{self.missing} card{s} short: for example {shown} (the search stopped at "
                    "its budget before it could list every card that completes it)")
        if not self.exact:
            return (f"at least {self.missing} card{s} short and at most {self.at_most} (the exact "
                    f"count was out of reach of the search's {SHORTFALL_STEPS:,} steps)")
        # one Phase of the groups, so equal ones read together: '2 sets of 3'
        what = _groups_text(self.groups, rules) if self.groups else str(phase)
        if self.missing == 1 and self.outs:
            return f"1 card short: {_outs_text(self.outs, rules)} completes {what}"
        if not self.possible:
            return (f"at least {self.missing} card{s} short of {what} (what is left of the deck "
                    "may not hold the cards that would complete it)")
        shown = " + ".join(card_names(self.example))
        return f"{self.missing} card{s} short: for example {shown} completes {what}"

    def to_json(self) -> dict:
        return {
            "missing": self.missing,
            "outs": [{"card": str(o.card), "unseen": o.unseen} for o in self.outs],
            "example": [str(c) for c in self.example],
            "possible": self.possible,
            **({} if self.exact else {"exact": False, "at_most": self.at_most}),
            **({} if self.decided else {"decided": False}),
        }


_GROUPS_TEXT: dict[tuple, tuple] = {}


def _groups_text(groups: tuple[Group, ...], rules: Rules) -> str:
    """The groups as one phrase, equal ones read together ('2 sets of 3'); kept, since a
    batch names the same few on every line."""
    key = (id(rules.deck), *map(id, groups))
    got = _GROUPS_TEXT.get(key)
    if got is None:
        if len(_GROUPS_TEXT) > 4096:
            _GROUPS_TEXT.clear()
        # the entry holds the objects, so their ids stay theirs
        got = _GROUPS_TEXT[key] = (groups, rules.deck, Phase(tuple(Part(1, g) for g in groups)
                                                            ).canonical(rules.deck))
    return got[2]


# Outs already made and worded (each entry keeps its objects, so their ids stay their own):
# hands one short name the same few dozen cards and the same few lists of them.
_OUTS: dict[tuple[int, int], Out] = {}
_OUTS_TEXT: dict[tuple, tuple] = {}


def _listed(types: Iterable[int], pool: list[int], tb) -> list[Out]:
    """An Out for each card type with unseen copies, in the order cards are shown."""
    kept = [t for t in types if pool[t] > 0]
    kept.sort(key=tb.sort_key)
    out = []
    for t in kept:
        card, n = tb.cards[t], pool[t]
        got = _OUTS.get((id(card), n))
        if got is None:
            if len(_OUTS) > 4096:
                _OUTS.clear()
            got = _OUTS[id(card), n] = Out(card, n)
        out.append(got)
    return out


_NUMBER_OUTS: dict[tuple, tuple] = {}


def _number_outs(numbers: Iterable[int], pool: list[int], tb) -> list[Out]:
    """An Out for each card of these number indices (ascending) with unseen copies, in the
    order cards are shown (number, then color: the types' order within a number)."""
    nn = tb.nn
    out: list[Out] = []
    for ni in numbers:
        left = pool[ni::nn]
        key = (id(tb), ni, *left)
        got = _NUMBER_OUTS.get(key)
        if got is None:
            if len(_NUMBER_OUTS) > 4096:
                _NUMBER_OUTS.clear()
            got = _NUMBER_OUTS[key] = (tb, tuple(_listed(range(ni, len(pool), nn), pool, tb)))
        out += got[1]
    return out


def _outs_text(outs: tuple[Out, ...], rules: Rules) -> str:
    cards = [o.card for o in outs]
    key = (id(rules.deck), *map(id, cards))
    got = _OUTS_TEXT.get(key)
    if got is None:
        if len(_OUTS_TEXT) > 4096:
            _OUTS_TEXT.clear()
        got = _OUTS_TEXT[key] = (cards, rules.deck, describe_outs(cards, rules))
    return got[2]


def describe_outs(cards: Sequence[Card], rules: Rules = DEFAULT_RULES) -> str:
    """'any 6 or a wild', 'R6, B6 or a wild' ..."""
    deck = rules.deck
    by_num: dict[int, list[str]] = {}
    words = []
    for c in cards:
        if c.natural:
            by_num.setdefault(c.number, []).append(c.color)
    for num in sorted(by_num):
        cols = by_num[num]
        if set(cols) >= set(deck.colors):
            words.append(f"any {num}")
        else:
            words += [f"{c}{num}" for c in cols]
    if any(c.wild for c in cards):
        words.append("a wild")
    if any(c.skip for c in cards):
        words.append("a skip")
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " or " + words[-1]


def unseen_counts(hand: Iterable[Card], seen: Iterable[Card] = (), rules: Rules = DEFAULT_RULES
                  ) -> Counter:
    """How many of each card are still unseen: the deck less the hand and the seen cards."""
    deck = rules.deck
    left = Counter({Card(n, c): deck.copies for c in deck.colors for n in deck.numbers})
    left[WILD] = deck.wilds
    left[SKIP] = deck.skips
    left.subtract(c.plain() for c in hand)
    left.subtract(c.plain() for c in seen)
    return +left


# Search steps (class choices tried; a bound or a max-flow counts as several) before the
# shortfall is given as a range; far beyond what any of the seeds' phases needs.
SHORTFALL_STEPS = 150_000
_BOUND_STEPS = 4  # per group: the per-number bound of competing groups
_FLOW_STEPS = 20  # per group: a max-flow


class _OutOfSteps(Exception):
    pass


class _Fixed(NamedTuple):
    """What a hand brings regardless of the class choice."""

    skip_fill: int  # skips laid in skip parts
    wilds: int
    wroom: int  # slots a wild may fill: wild parts, skip parts (wild_as_skip), groups
    min_phase: int  # naturals the whole phase needs (per-phase scope)


def _value(placed: int, lacking: int, f: _Fixed) -> int:
    """Cards of the hand held, from ``placed`` naturals and ``lacking`` group minimums."""
    return f.skip_fill + min(placed + f.wilds,
                             f.wroom - lacking - max(0, f.min_phase - placed))


@dataclass
class _Fill:
    """The most cards of one hand the phase holds, and the choice that holds them."""

    fill: int
    upper: int  # proven: no choice holds more
    hand: _Hand  # as played (postal: wild-number cards played as wilds count as wilds)
    chosen: tuple | None = None  # classes, in the layout's group order
    per: list | None = None  # naturals each group takes {type: count}
    overlap: bool = False  # whether two of the chosen groups accept one card of the hand
    exact: bool = True  # False when the search ran out of steps (``upper`` then bounds it)
    # (classes, hand, overlap) of each choice reaching the target (for the outs)
    leaves: list | None = None


def _max_fill(lay: _Layout, h: _Hand, rules: Rules, steps: list[int],
              target: int, collect: bool = False) -> _Fill:
    """The choice of classes that holds the most of the hand.

    With ``collect``, every choice holding at least ``target`` cards (all but one)
    is also collected (in ``leaves``): a card that completes the phase adds to one.  Past the
    budget in ``steps[0]`` the best found so far comes back, marked not exact.
    """
    skip_fill = min(h.skips, lay.need_s)
    ws = lay.need_s - skip_fill if rules.wild_as_skip else 0
    n = len(lay.groups)
    f = _Fixed(skip_fill, h.wilds, lay.need_w + ws + lay.total, lay.min_phase if n else 0)
    if not n:
        v = _value(0, 0, f)
        return _Fill(v, v, h, (), [], leaves=[((), h, False)] if v >= target else [])
    nn = lay.tb.nn
    cnt, present = h.cnt, h.present
    all_caps: list[list[int]] = []
    for j in range(n):
        all_caps.append(all_caps[-1] if lay.same_as_prev[j] else
                        h.caps(lay.aggs[j], lay.values[j], lay.sizes[j], nn, lay.masks[j]))
    if not all_caps[0]:  # a group with no class at all in this deck
        return _Fill(0, 0, h)
    if n == 1:  # one group: each class alone, no search
        return _one_group(lay, h, all_caps[0], f, target)
    distinct = not rules.sets_share_number
    if n == 2:  # most phases: two loops, no recursion
        return _two_groups(lay, h, all_caps, f, target, collect, distinct, steps)
    got = _candidates(lay, all_caps, lay.total, h, distinct)
    if got is None:
        return _Fill(0, 0, h)
    cands, best_rest = got
    sizes, lower, gs = lay.sizes, lay.lower, lay.groups
    same_as_prev = lay.same_as_prev
    lack_rest = [0] * (n + 1)
    for j in range(n - 1, -1, -1):
        lack_rest[j] = lack_rest[j + 1] + max(0, lower[j] - cands[j][0][0])
    naturals = sum(cnt)
    top = _value(min(best_rest[0], naturals), lack_rest[0], f)
    best = _Fill(-1, top, h, leaves=[])
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
        value = _value(total, lacking, f)  # exact unless two groups accept one card
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
            if _value(bound if bound < naturals else naturals,
                      lacking + short + lack_rest[j + 1], f) <= (best.fill if best.fill < floor
                                                                 else floor):
                break  # caps are sorted: no later class can do better
            if is_set and cl.number in used:
                continue
            key = id(cl)
            before = taken.get(key)
            # identical groups on one class share its cards
            gain = (cap if before is None or cl.window is not None
                    else min(cap, _supply(cl, h) - before))
            m = cl.mask & present
            ov = overlap or any(chosen[i].mask & m for i in range(j))
            chosen[j] = cl
            pos[j] = k
            if ov and j + 1 < n:
                # groups that accept one card hold it once: bound what these hold together
                steps[0] -= j + 1
                part, psizes = chosen[:j + 1], sizes[:j + 1]
                held = min(total + gain, _number_joint(part, psizes, h) if number_only
                           else _upper(part, psizes, cnt, present, nn)) + rest
                if _value(held if held < naturals else naturals,
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


def _shared_value(chosen, lay: _Layout, h: _Hand, f: _Fixed, lacking: int, bar: int,
                  number_only: bool, steps: list[int]) -> int:
    """What a choice holds when two of its groups accept one card of the hand (exact, or
    some value no more than ``bar`` when it cannot beat it)."""
    sizes, lower = lay.sizes, lay.lower
    if number_only:  # sets and runs compete number by number: a closed form
        placed = _number_joint(chosen, sizes, h)
        value = _value(placed, lacking, f)
        # the minimums matter only when the wilds could fill every other slot
        if value > bar and placed + f.wilds > f.wroom - sum(lower) - max(0, f.min_phase - placed):
            value = _value(placed, sum(lower) - _number_cover(chosen, lower, h), f)
        return value
    n, nn = len(chosen), lay.tb.nn
    steps[0] -= _BOUND_STEPS * n
    if _value(_upper(chosen, sizes, h.cnt, h.present, nn), lacking, f) <= bar:
        return bar  # a per-number bound settles it without a flow
    steps[0] -= _FLOW_STEPS * n
    if steps[0] < 0:
        raise _OutOfSteps
    _, placed, lacking = _joint(chosen, sizes, lower, h.cnt, h.present, nn)
    return _value(placed, lacking, f)


def _greedy_fill(lay: _Layout, h: _Hand, f: _Fixed, distinct: bool):
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
        free = _Hand.counted(cnt, present, h.wilds, h.skips, tb)
        caps = free.caps(lay.aggs[j], lay.values[j], size, nn, lay.masks[j])
        is_set = distinct and lay.groups[j].kind.is_set
        options = [k for k, cl in enumerate(lay.classes[j]) if not (is_set and cl.number in used)]
        if not options:
            return None
        cl = lay.classes[j][max(options, key=caps.__getitem__)]
        d = _take(cl, size, cnt, present, nn)
        for t, c in d.items():
            cnt[t] -= c
        got = sum(d.values())
        placed += got
        lacking += max(0, lay.lower[j] - got)
        if is_set:
            used.add(cl.number)
        chosen.append(cl)
        per.append(d)
    return _value(placed, lacking, f), tuple(chosen), per


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
    out.sort(key=_first, reverse=True)
    return out


def _two_groups(lay: _Layout, h: _Hand, all_caps: list, f: _Fixed, target: int, collect: bool,
                distinct: bool, steps: list[int]) -> _Fill:
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
    top = _value(min(first[0][0] + top1, naturals),
                 max(0, lo0 - first[0][0]) + max(0, lo1 - top1), f)
    best = _Fill(-1, top, h, leaves=[])
    floor = target - 1 if collect else f.skip_fill + f.wroom + 1
    number_only = all(a in ("num", "run") for a in lay.aggs)
    for i, (c0, cl0) in enumerate(first):
        bar = best.fill if best.fill < floor else floor
        short0 = lo0 - c0 if c0 < lo0 else 0
        if _value(min(c0 + top1, naturals), short0, f) <= bar:
            break  # capacities are sorted: nothing later does better
        m0 = cl0.mask & present
        for c1, cl1 in (second[i:] if same else second):
            short = short0 + (lo1 - c1 if c1 < lo1 else 0)
            held = c0 + c1
            value = _value(held if held < naturals else naturals, short, f)
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


def _finish(best: _Fill, lay: _Layout, h: _Hand) -> _Fill:
    """The naturals each group of the best choice takes."""
    if best.chosen is None or best.per is not None:
        return best
    chosen, sizes, nn = best.chosen, lay.sizes, lay.tb.nn
    if not best.overlap:
        best.per = [_take(cl, size, h.cnt, h.present, nn) for cl, size in zip(chosen, sizes,
                                                                               strict=True)]
        return best
    if all(cl.agg in ("num", "run") for cl in chosen):
        # a quick placement that meets every minimum and places the most sets and runs
        # can place together is as good as the flow's
        got = _greedy(chosen, sizes, lay.lower, h.cnt, h.present, nn)
        if got is not None and got[0] == _number_joint(chosen, sizes, h):
            best.per = got[1]
            return best
    best.per = _joint(chosen, sizes, lay.lower, h.cnt, h.present, nn)[0]
    return best


def _one_group(lay: _Layout, h: _Hand, caps: list[int], f: _Fixed, target: int) -> _Fill:
    lo = lay.lower[0]
    classes = lay.classes[0]
    top = max(caps)
    k = caps.index(top)
    value = _value(top, lo - top if top < lo else 0, f)
    best = _Fill(value, value, h, (classes[k],), overlap=False,
                 leaves=_one_group_leaves(lay, h, caps, f, target) if value >= target else [])
    best.per = [_take(classes[k], lay.sizes[0], h.cnt, h.present, lay.tb.nn)]
    return best


def _one_group_leaves(lay: _Layout, h: _Hand, caps: list[int], f: _Fixed, target: int) -> list:
    """The classes of a one-group phase holding at least ``target`` cards, one of those
    holding the same cards of the hand (they complete alike)."""
    lo = lay.lower[0]
    present = h.present
    sigs = set()
    leaves = []
    for cl, c in zip(lay.classes[0], caps, strict=True):
        sig = cl.mask & present
        if sig not in sigs and _value(c, lo - c if c < lo else 0, f) >= target:
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
        _, first = _assign(chosen, lower, cover, cnt, present, 0, nn)
        cover = [sum(d.values()) for d in first]
        lacking = sum(lower) - sum(cover)
    placed, per = _assign(chosen, sizes, cover, cnt, present, 0, nn)
    return per, placed, lacking


def _number_cover(chosen, lower, h: _Hand) -> int:
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


def _fill_hand(lay: _Layout, h: _Hand, rules: Rules, steps: list[int],
               target: int, collect: bool = False) -> _Fill:
    """The best fill over the ways of playing postal wild-number cards."""
    if not rules.wild_numbers:
        return _max_fill(lay, h, rules, steps, target, collect)
    best = None
    leaves: list = []
    upper = 0
    complete = True  # every way searched to the end (else some choices, and leaves, unseen)
    for h2, _ in _postal_variants(h, rules, lay.tb, _keep_most(lay, rules)):
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


def _never(phase: Phase, rules: Rules) -> str | None:
    """Why no hand can make the phase (lint's reason)."""
    if (rules.min_naturals <= 1 and rules.deck.copies >= 1 and rules.natural_scope == "group"
            and all(g.colors is None for g in phase.groups)):
        return None  # every group shape has a natural card in such a deck
    from .lint import impossible_group

    return impossible_group(phase, rules)


@dataclass(frozen=True)
class Assessment:
    """A hand against a phase: the meld when made, else how far it is."""

    meld: Meld | None
    shortfall: Shortfall


# Per layout (it holds the phase's groups and the rules): why no hand can make it, and which
# closed form answers it.  Each entry holds its layout, so the id stays its own.
_ROUTES: dict[int, tuple[_Layout, str | None, int]] = {}
_ONE_GROUP, _TWO_SETS, _SET_RUN = 1, 2, 3


def _route(phase: Phase, lay: _Layout, rules: Rules) -> tuple[_Layout, str | None, int]:
    if len(lay.all_groups) == 1 and lay.groups and not rules.wild_numbers:
        shape = _ONE_GROUP
    elif two_sets_shape(lay, rules):
        shape = _TWO_SETS
    elif set_run_shape(lay, rules):
        shape = _SET_RUN
    else:
        shape = 0
    if len(_ROUTES) > 4096:
        _ROUTES.clear()
    got = _ROUTES[id(lay)] = (lay, _never(phase, rules), shape)
    return got


def assess(phase: Phase, hand: Sequence[Card], rules: Rules = DEFAULT_RULES,
           seen: Iterable[Card] = ()) -> Assessment:
    """Does the hand make the phase (with the meld), or how many cards short is it.

    The most cards of the hand the phase can hold answers both at once: all of
    them, and the solver lays the meld; fewer, and the rest are the shortfall.
    """
    started = time.monotonic()
    phase, hand, rules, seen = hand_args("assess", phase, hand, rules, seen)
    lay = _layout_for(phase, rules)
    h = _Hand.of(hand, lay.tb)
    seen = seen if type(seen) is tuple else tuple(seen)  # read more than once
    need = lay.total + lay.need_w + lay.need_s
    route = _ROUTES.get(id(lay))
    if route is None or route[0] is not lay:
        route = _route(phase, lay, rules)
    never, shape = route[1], route[2]
    if never:
        return Assessment(None, Shortfall(need, possible=False, never=never))
    # the commonest shapes answer from the counts: True when they say it is made
    got: Assessment | bool | None = None
    if shape == _ONE_GROUP:
        got = _one_group_short(phase, lay, h, hand, rules, seen)
    elif shape == _TWO_SETS:
        got = two_sets_short(lay, h, rules, seen)
    elif shape == _SET_RUN:
        got = set_run_short(lay, h, rules, seen)
    if got is True:
        meld = _find(lay, h, rules)
        if meld is not None:
            return Assessment(meld, Shortfall(0))
    elif got is not None:
        return got
    # one or two groups: the choices one card short come with the fill at no extra cost
    # (bigger phases search them only when the hand is one short: see below)
    few = len(lay.groups) <= 2
    best = _fill_hand(lay, h, rules, [SHORTFALL_STEPS], target=need - 1, collect=few)
    if not best.exact and best.fill < best.upper:
        return _out_of_reach(lay, h, rules, seen, best, need, started + solver.SEARCH_SECONDS)
    if best.fill >= need:
        if len(lay.groups) > 2:
            # the fill's placement is a meld already: no second search (the solver's
            # search can take long, or stop at its budget, where many groups accept the
            # same cards); wild-number cards the fill played as wilds are laid as such
            plans = _reorder([_Plan(cl, d) for cl, d in zip(best.chosen, best.per, strict=True)],
                             lay.order, lay.all_groups)
            converted = {t: k - c for t, (k, c) in enumerate(zip(h.cnt, best.hand.cnt,
                                                                    strict=True)) if k > c}
            return Assessment(_build(lay, plans, h.skips, rules, converted), Shortfall(0))
        return Assessment(find(phase, hand, rules), Shortfall(0))
    if best.chosen is None:
        return Assessment(None, Shortfall(need, possible=False))
    k = need - best.fill
    example, real, completes = _completion(lay, best, h, rules, k, seen)
    leaves = best.leaves
    if (k == 1 and not rules.wild_as_skip
            and best.fill - min(h.skips, lay.need_s) >= lay.need_w + lay.total):
        # every slot but a skip part's is filled: a skip completes it, and nothing else
        skips = _pool(h, rules, seen)[2]
        found = (Out(SKIP, skips),) if skips > 0 else ()
        return Assessment(None, Shortfall(1, found, example, completes, bool(found)))
    if k == 1 and best.exact and not few:
        # every choice one short, for the outs (one group: they came with the fill)
        again = _fill_hand(lay, h, rules, [SHORTFALL_STEPS // 2], need - 1, collect=True)
        leaves = again.leaves if again.exact else None
    return _short(phase, lay, h, hand, rules, seen, k, example, real, completes,
                  leaves if best.exact else None, started + solver.SEARCH_SECONDS)


def _completion(lay: _Layout, best: _Fill, h: _Hand, rules: Rules, k: int, seen: tuple
                ) -> tuple[tuple[Card, ...], bool | None, tuple[Group, ...]]:
    """The ``k`` cards the best choice lacks, as real unseen cards (see _example), and the
    groups they complete."""
    plans = _virtual_plans(lay, best, rules)
    groups = lay.all_groups
    completes = tuple(g for g, p in zip(groups, plans, strict=True)
                      if p.naturals.get(None) or not g.kind.needs_natural)
    return (*_example(groups, plans, h, rules, k, seen), completes)


def _out_of_reach(lay: _Layout, h: _Hand, rules: Rules, seen: tuple, best: _Fill, need: int,
                  deadline: float) -> Assessment:
    """The fill search stopped at its budget: the cards short are a range, and whether the
    hand makes the phase at all is the solver's to say, by ``deadline`` (what is left of
    its seconds once the fill is done, so the whole answer keeps to them); past that it is
    undecided (0 short at least, as many as the best choice found lacks at most)."""
    least = need - best.upper
    if least <= 0:
        try:
            meld = _find(lay, h, rules, deadline)
        except SearchLimit:
            meld, least = None, None
        if meld is not None:
            return Assessment(meld, Shortfall(0))
    most = need - max(best.fill, 0)
    example, real, completes = ((), False, ()) if best.chosen is None else \
        _completion(lay, best, h, rules, most, seen)
    if least is None:
        return Assessment(None, Shortfall(0, (), example, completes, real is True, exact=False,
                                          at_most=most, decided=False))
    least = max(least, 1)
    # both bounds agree: the count is sure (one short: the outs were not sought)
    return Assessment(None, Shortfall(least, (), example, completes, real is True,
                                      exact=least == most > 1, at_most=most))


def _short(phase: Phase, lay: _Layout, h: _Hand, hand: Sequence[Card], rules: Rules,
           seen: Iterable[Card], k: int, example: tuple[Card, ...], real: bool | None,
           completes: tuple[Group, ...], leaves: list | None,
           deadline: float | None = None) -> Assessment:
    """A hand ``k`` cards short, with the choices of classes one short (``leaves``; None
    when a search ran out of steps before it had them all): the outs when one short (the
    solver confirming them by ``deadline``), else whether the example is a real completion."""
    if k == 1:
        found, every = ((), False) if leaves is None else \
            _outs_of_one_short(phase, lay, h, hand, rules, seen, leaves, deadline)
        found = tuple(found)
        if found and example[0].plain() not in {o.card for o in found}:
            # the outs are each confirmed; the counted example is not (a corner of the
            # natural minimum with wild-number cards): show an out, for the whole phase
            example, completes = (found[0].card,), ()
        if not every:
            # the count is sure, the list of one-card completions may lack some
            return Assessment(None, Shortfall(1, found, example, completes,
                                              bool(found) or real is True, exact=False, at_most=1))
        return Assessment(None, Shortfall(1, found, example, completes, bool(found)))
    if real is None:  # a wild stands in for a natural: the fill search tells
        need = lay.total + lay.need_w + lay.need_s
        real = _fill_hand(lay, _Hand.of([*hand, *example], lay.tb), rules,
                          [SHORTFALL_STEPS // 4], need).fill >= need
    return Assessment(None, Shortfall(k, (), example, completes, real))


def _one_group_short(phase: Phase, lay: _Layout, h: _Hand, hand: Sequence[Card], rules: Rules,
                     seen: tuple[Card, ...]) -> Assessment | bool | None:
    """``assess`` for a phase of one natural group and nothing else (a run, a set, a color
    group ...): True when the hand makes it (the solver lays the meld).

    One group has no search: its fill is the best class's capacity plus the wilds, and the
    missing cards are that class's empty slots, so the general path's choice, plans and
    outs reduce to a pass over the capacities (same class: the first of the best).
    """
    size, lo = lay.sizes[0], lay.lower[0]
    nn = lay.tb.nn
    caps = h.caps(lay.aggs[0], lay.values[0], size, nn, lay.masks[0])
    if not caps:
        return None
    top = max(caps)
    lacking = lo - top if top < lo else 0
    # no skip or wild parts: the wilds' room is the group's slots
    f = _Fixed(0, h.wilds, size, lay.min_phase)
    fill = _value(top, lacking, f)
    if fill >= size:
        return True
    k = size - fill
    cl = lay.classes[0][caps.index(top)]
    virt = _lacking(lay, [top], h.wilds)[0]
    groups = lay.all_groups
    pool, wilds, _ = _pool(h, rules, seen)
    if top:
        example, real = _one_group_example(cl, virt, h, pool, wilds, lay.tb)
    else:  # a group made only of cards still to come may take any class
        plans = [_Plan(cl, {None: virt})]
        example, real = _example(groups, plans, h, rules, k, seen)
    if k > 1:
        return _short(phase, lay, h, hand, rules, seen, k, example, real, groups, [])
    found = _one_group_outs(lay, h, pool, wilds, caps, top, f)
    # (the example's cards and the outs are the deck's card objects)
    if found and not any(o.card is example[0] for o in found):
        example, groups = (found[0].card,), ()
    return Assessment(None, Shortfall(1, found, example, groups, bool(found)))


def _one_group_example(cl, virt: int, h: _Hand, pool: list[int], wilds: int, tb
                       ) -> tuple[tuple[Card, ...], bool | None]:
    """``_example`` for one group holding some naturals, ``virt`` cards short: the class's
    cards in type order, unseen ones only, a run's each of a number it lacks (a wild
    where none is left)."""
    picks: list[Card] = []
    left = list(pool)
    if cl.window is not None:
        nn = tb.nn
        used = 0  # numbers the run holds or has been given
        for t in _bits(cl.mask & h.present):
            used |= 1 << t % nn
        for t in _types(cl):
            if len(picks) == virt:
                break
            if left[t] > 0 and not used >> t % nn & 1:
                used |= 1 << t % nn
                left[t] -= 1
                picks.append(tb.cards[t])
    else:
        want = virt
        for t in _types(cl):
            if left[t] > 0:
                take = left[t] if left[t] < want else want
                picks += [tb.cards[t]] * take
                want -= take
                if not want:
                    break
    stand_in = virt - len(picks)
    picks += [WILD] * stand_in
    if wilds < stand_in or min(pool, default=0) < 0:
        return tuple(picks), False
    return tuple(picks), None if stand_in else True


def _one_group_outs(lay: _Layout, h: _Hand, pool: list[int], wilds: int,
                    caps: list[int], top: int, f: _Fixed) -> tuple[Out, ...]:
    """The cards completing a one-group phase one short: a card one of the fullest classes
    accepts and does not already hold (a run: a number it lacks), or a wild."""
    size, lo = lay.sizes[0], lay.lower[0]
    tb = lay.tb
    out: list[Out] = []
    if _value(top + 1, max(0, lo - top - 1), f) >= size:
        nn, present, num_mask = tb.nn, h.present, tb.num_mask
        run = lay.classes[0][0].window is not None
        sure = 0
        for cl, c in zip(lay.classes[0], caps, strict=True):
            if c == top:
                m = cl.mask
                if run:
                    for t in _bits(m & present):
                        m &= ~num_mask[t % nn]
                sure |= m
        out = _listed(_bits(sure), pool, tb)
    if wilds > 0 and _value(top, max(0, lo - top), f._replace(wilds=f.wilds + 1)) >= size:
        out.append(Out(WILD, wilds))
    return tuple(out)


def shortfall(phase: Phase | str, hand: Sequence[Card] | str, rules: Rules = DEFAULT_RULES,
              seen: Iterable[Card] | str = ()) -> Shortfall:
    """The fewest cards missing, with the single-card outs when one is missing.

    Missing cards are counted as free choices of any card (each can be the
    natural a group lacks), so the count is exact; the example picks real
    cards for them.  ``phase`` may be a phrase, ``hand`` and ``seen`` card strings.
    """
    phase, hand, rules, seen = hand_args("shortfall", phase, hand, rules, seen)
    return assess(phase, hand, rules, seen).shortfall


def _virtual_plans(lay: _Layout, best: _Fill, rules: Rules) -> list[_Plan]:
    """The best choice's plans, each group's missing cards counted under None: first the
    naturals its minimum lacks, then the slots the hand's wilds do not reach."""
    h = best.hand
    per = best.per
    placed = [sum(d.values()) for d in per]
    wilds = h.wilds - lay.need_w
    if rules.wild_as_skip:
        wilds -= max(0, lay.need_s - h.skips)
    virt = _lacking(lay, placed, max(0, wilds))
    plans = [_Plan(cl, {**d, None: v} if v else d)
             for cl, d, v in zip(best.chosen, per, virt, strict=True)]
    return _reorder(plans, lay.order, lay.all_groups)


def _lacking(lay: _Layout, placed: list[int], wilds: int) -> list[int]:
    """The cards each group (in the layout's order) still lacks when it holds ``placed``
    naturals: the naturals its minimum lacks, then those the phase's minimum lacks, then
    the slots the wilds do not reach (the wilds go to the later, smaller groups first)."""
    virt = [lo - p if p < lo else 0 for lo, p in zip(lay.lower, placed, strict=True)]
    extra = max(0, lay.min_phase - sum(placed))
    for j in reversed(range(len(placed))):
        room = lay.sizes[j] - placed[j] - virt[j]
        take = min(room, extra)
        virt[j] += take
        extra -= take
        room -= take
        use = min(room, wilds)
        wilds -= use
        virt[j] += room - use
    return virt


def _pool(h: _Hand, rules: Rules, seen: Iterable[Card] = ()) -> tuple[list[int], int, int]:
    """Unseen cards as counts: per natural type, wilds, skips."""
    deck = rules.deck
    copies = deck.copies
    pool = [copies - c for c in h.cnt]
    wilds, skips = deck.wilds - h.wilds, deck.skips - h.skips
    if seen:
        s = _Hand.of((c.plain() for c in seen), _tables(deck))
        pool = [a - b for a, b in zip(pool, s.cnt, strict=True)]
        wilds -= s.wilds
        skips -= s.skips
    return pool, wilds, skips


_TYPES: dict[int, tuple] = {}


def _types(cl) -> tuple[int, ...]:
    """The card types a class accepts, in type order (classes are made once per group shape
    and deck, so their ids are stable; the entry keeps the class alive)."""
    got = _TYPES.get(id(cl))
    if got is None or got[0] is not cl:
        if len(_TYPES) > 8192:
            _TYPES.clear()
        got = _TYPES[id(cl)] = (cl, tuple(_bits(cl.mask)))
    return got[1]


def _example(groups, plans, h: _Hand, rules: Rules, k: int, seen: Iterable[Card] = ()
             ) -> tuple[tuple[Card, ...], bool | None]:
    """Real cards for the virtual ones: a natural of the group's class where what is left
    of the deck (bar the cards seen) has one.

    Whether they complete the phase: False when the deck does not hold them, True when
    each is a natural its group can take (the plan then holds by construction), None
    when a wild had to stand in for a natural (it may not meet a natural minimum).
    """
    deck = rules.deck
    tb = _tables(deck)
    nn = tb.nn
    pool, wilds, skips = _pool(h, rules, seen)
    out: list[Card] = []
    stand_in = False
    distinct = not rules.sets_share_number
    set_numbers = None  # the numbers of sets holding a natural, when needed
    for g, p in zip(groups, plans, strict=True):
        nat = p.naturals
        v = nat.get(None, 0)
        if not v or p.cls is None:
            continue
        cl = p.cls
        if len(nat) == 1:
            # a group made only of cards still to come can take any class: the best stocked
            if set_numbers is None:
                set_numbers = {q.cls.number for g2, q in zip(groups, plans, strict=True)
                               if g2.kind.is_set and q.cls is not None
                               and any(t is not None for t in q.naturals)}
            options = [c for c in _classes(_as_played(g, rules), deck)
                       if not (distinct and g.kind.is_set and c.number in set_numbers)]
            cl = max(options or [cl], key=lambda c: sum(pool[t] for t in _types(c)))
            if g.kind.is_set:
                set_numbers.add(cl.number)
        if cl.window is None:
            candidates = _types(cl)
        else:  # a run takes each number once
            used_nums = {t % nn for t in nat if t is not None}
            candidates = [t for t in _types(cl) if t % nn not in used_nums]
        for _ in range(v):
            for pick in candidates:
                if pool[pick] > 0:
                    break
            else:
                stand_in = True
                wilds -= 1
                out.append(WILD)
                continue
            pool[pick] -= 1
            if cl.window is not None:
                candidates = [t for t in candidates if t % nn != pick % nn]
            out.append(tb.cards[pick])
    # the rest complete skip or wild parts
    short_s = max(0, sum(g.size for g in groups if g.kind is Kind.SKIP) - h.skips)
    more = min(short_s, k - len(out))
    skips -= more
    out += [SKIP] * more
    wilds -= k - len(out)
    out += [WILD] * (k - len(out))
    if wilds < 0 or skips < 0 or min(pool, default=0) < 0:
        return tuple(out), False
    return tuple(out), None if stand_in else True


def _order(card: Card, rules: Rules) -> tuple:
    colors = rules.deck.colors
    return (card.wild, card.skip, card.number or 0, colors.index(card.color) if card.natural else 0)


def _outs_of_one_short(phase: Phase, lay: _Layout, h: _Hand, hand: Sequence[Card], rules: Rules,
                       seen: Iterable[Card], leaves: list, deadline: float | None
                       ) -> tuple[list[Out], bool]:
    """Every unseen card that completes a hand one card short, and whether that is every
    one (False when the solver's search stopped at its budget on some candidate: its steps
    on one, or ``deadline`` for all; the candidates not yet confirmed are then left out).

    Such a card adds to a choice of classes that already holds all but one card,
    in a group of that choice (or it is a wild or a skip).  Those choices are
    collected; where their groups accept no common card the cards that complete
    them follow from the counts, elsewhere the cards their groups accept are
    candidates, each confirmed by the solver.
    """
    stopped = False

    def completes(card: Card) -> bool:
        nonlocal stopped
        if not stopped:
            try:
                return _completes(lay, h, hand, card, rules, deadline)
            except SearchLimit:
                stopped = True
        return False

    need = lay.total + lay.need_w + lay.need_s
    tb = lay.tb
    nn = tb.nn
    pool, wilds, skips = _pool(h, rules, seen)
    sure = check = 0  # card types that complete it / that may
    wild = None  # whether a wild does (None: ask the solver)
    unjudged = False  # some choice is left to the solver (then so is a wild)
    for chosen, hv, overlap in leaves:
        if overlap or rules.wild_numbers:
            unjudged = True
            for j, cl in enumerate(chosen):
                check |= _same_cards_mask(lay, j, cl, hv.present)
            continue
        m, w = _completing(lay, chosen, hv, rules, need)
        sure |= m
        if w:
            wild = True
    if wild is None and not unjudged:
        wild = False  # every choice was judged from its counts
    if rules.wild_numbers and leaves:  # such cards may be played as wilds
        check |= sum(tb.num_mask[n - tb.deck.low] for n in rules.wild_numbers
                     if tb.deck.low <= n <= tb.deck.high)
    check &= ~sure
    out = [t for t in _bits(sure) if pool[t] > 0]
    hand = list(hand)
    if not check:
        pass  # every choice was judged from its counts
    elif all(a in ("num", "run") for a in lay.aggs) and not rules.wild_numbers:
        # sets and plain runs see only numbers: one card of a number answers for all
        for ni in range(nn):
            ts = [t for t in range(ni, len(pool), nn) if check >> t & 1 and pool[t] > 0]
            if ts and completes(tb.cards[ts[0]]):
                out += ts
    else:
        out += [t for t in _bits(check) if pool[t] > 0 and completes(tb.cards[t])]
    found = _listed(out, pool, tb)
    if skips > 0 and lay.need_s > h.skips and completes(SKIP):
        found.append(Out(SKIP, skips))
    if wilds > 0 and (wild or (wild is None and completes(WILD))):
        found.append(Out(WILD, wilds))
    return found, not stopped


def _completing(lay: _Layout, chosen: tuple, h: _Hand, rules: Rules, need: int
                ) -> tuple[int, bool]:
    """The natural card types that complete a choice of classes holding all but one card,
    when no two of its groups accept one card of the hand (each holds its own), and
    whether a wild does."""
    nn = lay.tb.nn
    cnt, present = h.cnt, h.present
    caps = []
    for cl, size in zip(chosen, lay.sizes, strict=True):
        if cl.window is not None:
            nums = 0
            for t in _bits(cl.mask & present):
                nums |= 1 << t % nn
            caps.append(nums.bit_count())
        else:
            caps.append(min(size, sum(cnt[t] for t in _bits(cl.mask & present))))
    placed = sum(caps)
    lacking = sum(max(0, lo - c) for lo, c in zip(lay.lower, caps, strict=True))
    skip_fill = min(h.skips, lay.need_s)
    ws = lay.need_s - skip_fill if rules.wild_as_skip else 0
    f = _Fixed(skip_fill, h.wilds, lay.need_w + ws + lay.total, lay.min_phase if chosen else 0)
    wild = _value(placed, lacking, f._replace(wilds=h.wilds + 1)) >= need
    distinct = not rules.sets_share_number
    out = 0
    for j, cl in enumerate(chosen):
        if caps[j] >= lay.sizes[j]:
            continue
        if _value(placed + 1, lacking - (caps[j] < lay.lower[j]), f) < need:
            continue
        sig = cl.mask & present
        if distinct and lay.groups[j].kind.is_set and not sig:
            # an empty set may take any number the other sets leave free
            used = {c.number for i, c in enumerate(chosen) if i != j and lay.groups[i].kind.is_set}
            m = 0
            for c2 in lay.classes[j]:
                if not c2.mask & present and c2.number not in used:
                    m |= c2.mask
        else:
            m = _same_cards_mask(lay, j, cl, present)
        if cl.window is not None:  # a run takes a number it lacks
            for t in _bits(sig):
                m &= ~lay.tb.num_mask[t % nn]
        out |= m
    return out, wild


_SAME: dict[tuple[int, int, int], int] = {}


def _same_cards_mask(lay: _Layout, j: int, cl, present: int) -> int:
    """Every card type accepted by a class of group j that holds the same cards of the hand
    as ``cl`` (such classes hold the same, so each may be the one a drawn card completes)."""
    sig = cl.mask & present
    key = (id(lay.classes[j]), sig, present)
    got = _SAME.get(key)
    if got is None:
        got = 0
        for m in lay.masks[j]:
            if m & present == sig:
                got |= m
        if len(_SAME) > 4096:
            _SAME.clear()
        _SAME[key] = got
    return got


def _completes(lay: _Layout, h: _Hand, hand: list[Card], card: Card, rules: Rules,
               deadline: float | None) -> bool:
    """Whether the card makes the phase with the hand (SearchLimit past ``deadline``)."""
    if rules.wild_numbers or card.skip:
        return _find(lay, _Hand.of([*hand, card], lay.tb), rules, deadline) is not None
    if card.wild:
        h2 = _Hand.counted(h.cnt, h.present, h.wilds + 1, h.skips, lay.tb, h.by_num)
    else:
        tb = lay.tb
        t = tb.col_index[card.color] * tb.nn + card.number - tb.deck.low
        cnt = list(h.cnt)
        cnt[t] += 1
        by_num = None
        if h.by_num is not None:
            by_num = list(h.by_num)
            by_num[t % tb.nn] += 1
        h2 = _Hand.counted(cnt, h.present | 1 << t, h.wilds, h.skips, tb, by_num)
    return _search(lay, h2, rules, deadline=deadline) is not None


def outs(phase: Phase | str, hand: Sequence[Card] | str, rules: Rules = DEFAULT_RULES,
         seen: Iterable[Card] | str = ()) -> list[Out]:
    """Every unseen card that, added to ``hand``, makes the phase.

    Where a search stops at its budget the list holds the cards found (each sure), and
    may miss some; ``assess`` says when (its shortfall is then not ``exact``, or not
    ``decided`` when whether the hand is made already is out of reach).
    """
    phase, hand, rules, seen = hand_args("outs", phase, hand, rules, seen)
    got = assess(phase, hand, rules, seen)
    if got.meld is not None:  # already made: any card keeps it made
        pool = unseen_counts(hand, seen, rules)
        return [Out(c, pool[c]) for c in sorted(pool, key=lambda c: _order(c, rules))]
    return list(got.shortfall.outs)


# at the end: the closed forms build on this module's values
from .closedshort import (  # noqa: E402
    set_run_shape,
    set_run_short,
    two_sets_shape,
    two_sets_short,
)
