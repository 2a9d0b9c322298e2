"""A play order for several cards (``plan``): as many as any order, choice of group and
choice of end can place, as a ``HitPlan``.

Only runs change as cards land; a card that fits a set, a color or a parity group fits it
whatever else is played.  So the search is over run extensions alone, and every card no
run uses goes to such a group if one takes it; a card a run uses earns a point only if no
other group would take it (that is what a bridge is worth).  It is a branch and bound over
that count, number by number (see ``Search``), with exchange arguments cutting equivalent
choices, a plan found without search as the first to beat, and a node budget: past it the
plan says it may not be the most.  Take-backs (``Rules.wild_take_back``) are tried before
the search, each table once (``_taking_back``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass, replace
from itertools import combinations
from operator import itemgetter

from ...errors import LayoutError
from ...model.cards import WILD, Card
from ...model.coerce import as_cards, as_count, as_rules, not_cards
from ...model.group import Kind
from ...model.meld import LaidGroup
from ...model.rules import DEFAULT_RULES, Rules
from ...model.skipblue import blue_of
from ..layout import read_group
from .laid import STATIC, State, as_laid, build_state, remember, state_of
from .targets import Hit, acts_wild, closed_groups, closed_words, options, targets
from .wrapplan import wrapped_plan


@dataclass(frozen=True, slots=True)
class HitPlan:
    """Hits for several cards, in an order that works; ``left`` could not be placed.

    ``exact`` is True when no order places more cards; False only when the
    search stopped at its budget (a very large hand), so more may fit.
    """

    hits: tuple[Hit, ...]
    left: tuple[Card, ...]
    exact: bool = True
    # where cards are left: the laid groups that take no card, each (index, the rule that
    # refuses it: ``closed_groups``)
    closed: tuple[tuple[int, str], ...] = ()

    @property
    def complete(self) -> bool:
        return not self.left

    @property
    def placed(self) -> int:
        """How many of the hand's cards the plan places: a take-back puts a wild in the
        hand, so that wild played again is not counted twice."""
        return len(self.hits) - sum(h.swap is not None and h.end is None for h in self.hits)

    def __str__(self) -> str:
        return "\n".join(plan_lines([str(h) for h in self.hits], [str(c) for c in self.left],
                                     self.placed, self.exact)
                         + [closed_words(i + 1, why) for i, why in self.closed])


def plan_lines(hits: Sequence[str], left: Sequence[str], placed: int, exact: bool,
               taken: Collection[str] = ()) -> list[str]:
    """A plan in words: its hits in order, each card left and why, how many were placed
    (shared by HitPlan and the CLI's text, which lists first every single hit that fits,
    and so knows the cards in ``taken``: those that fit only by taking a wild back)."""
    lines = []
    if hits:
        lines.append("play in this order:" if len(hits) > 1 else "play:")
        lines += ["  " + h for h in hits]
    lines += [f"  {c}: " + ("fits only by taking a wild back (above), and no group has room "
                            "for the wild that frees" if c in taken else "no group takes it")
              for c in left]
    total = placed + len(left)
    if not total:
        lines.append("no cards to place")
    elif not left:
        lines.append(f"all {total} cards placed" if total > 1 else "the card is placed")
    elif exact:
        lines.append(f"{placed} of {total} placed: no order places more")
    else:
        lines.append(f"{placed} of {total} placed; the search stopped at its limit, so another "
                     "order may place more")
    return lines


# Search nodes before the plan settles for the best found so far (and says so).
# Keeps any call, up to the 200-card limit, well under two seconds.
SEARCH_BUDGET = 20_000
MAX_CARDS = 200
MAX_GROUPS = 100


def plan(laid: Sequence[LaidGroup | str] | str, cards: Sequence[Card] | str,
         rules: Rules = DEFAULT_RULES,
         budget: int = SEARCH_BUDGET) -> HitPlan:
    """Place as many of ``cards`` as any play order can, and give that order.  ``cards``
    may be a card string, ``laid`` hold ``'KIND: CARDS'`` strings."""
    rules = as_rules(rules, "hit_plan")
    laid = as_laid(laid, rules, "hit_plan")
    cards = as_cards(cards, rules.deck, "hit_plan")
    for c in cards:
        if c.natural and not rules.deck.supply(c):
            raise not_cards(cards, c, rules.deck)
    as_count(budget, "hit_plan(budget=...)", 1, None, "a number of search steps")
    if len(cards) > MAX_CARDS:
        raise LayoutError(f"too many cards to hit at once ({len(cards)}; the limit is "
                          f"{MAX_CARDS})")
    if len(laid) > MAX_GROUPS:
        raise LayoutError(f"too many laid groups ({len(laid)}; the limit is {MAX_GROUPS})")
    hand = [c.plain() for c in cards]
    if rules.wild_take_back:
        got = _taking_back(list(laid), hand, rules, budget)
    else:
        got = _search(laid, hand, rules, budget)[0]
    if got.left:  # why the groups that take nothing take nothing
        got = replace(got, closed=tuple(closed_groups(laid, rules)))
    return got


def _search(laid: Sequence[LaidGroup], hand: list[Card], rules: Rules, budget: int
            ) -> tuple[HitPlan, int]:
    """The plan of hits and Utah swaps, and the search nodes it took."""
    if rules.runs_wrap and any(state_of(lg, i, rules).kind.is_run for i, lg in enumerate(laid)):
        # the run search walks the numbers low to high; a run's end that wraps from the
        # top to the bottom does not, so such a table is searched hit by hit
        hits, left, exact, nodes = wrapped_plan(laid, hand, rules, budget)
        return HitPlan(hits, left, exact), nodes
    search = Search([state_of(lg, i, rules) for i, lg in enumerate(laid)], hand, rules, budget)
    return search.run(), search.nodes


def _taking_back(laid: list[LaidGroup], hand: list[Card], rules: Rules, budget: int) -> HitPlan:
    """The best plan when naturals may take laid wilds back (the Japanese page): a take-back
    places its natural and puts the wild in the hand, where it may then be played like any
    wild, so a plan may place more cards with some.  A wild taken back and played, then
    taken back again, does no more than the natural played there directly; so the plan is
    some take-backs of the wilds laid now, then hits.  Every sequence of take-backs is
    tried (a take-back may allow another: G5 for W=G5 leaves a group of 5s that R5 may
    take W=5 from, where the postal 5s act as wilds), each table once, sharing the
    search budget."""
    left = budget
    best: HitPlan | None = None
    exact = True
    seen: set = set()

    def visit(laid: list[LaidGroup], hand: list[Card], done: tuple[Hit, ...]) -> None:
        nonlocal left, best, exact
        key = (tuple(lg.cards for lg in laid), tuple(sorted(map(str, hand))))
        if key in seen:
            return
        seen.add(key)
        got, nodes = _search(laid, hand, rules, max(left, 1))
        left -= nodes
        exact = exact and got.exact
        if best is None or len(got.left) < len(best.left):
            best = HitPlan((*done, *got.hits), got.left)
        # a wild-like card left over: no group has room for the wild a take-back frees
        if not best.left or any(acts_wild(c, rules) for c in got.left):
            return
        for card in dict.fromkeys(c for c in hand if c.natural):
            for h in targets(laid, card, rules):
                if h.swap is None or h.end is not None:
                    continue
                if left <= 0:
                    exact = False
                    return
                rest = list(hand)
                rest.remove(card)
                visit([*laid[:h.index], _take_back_laid(laid[h.index], h, rules),
                       *laid[h.index + 1:]], [*rest, WILD], (*done, h))

    visit(laid, hand, ())
    assert best is not None
    return HitPlan(best.hits, best.left, exact)


def _take_back_laid(lg: LaidGroup, h: Hit, rules: Rules) -> LaidGroup:
    """``lg`` once ``h.card`` has taken the wild ``h.swap`` back: in a run the wild standing
    at the card's number (the run keeps its ends), elsewhere any wild laid as ``h.swap``."""
    before = state_of(lg, h.index, rules)
    for k, c in enumerate(lg.cards):
        if not c.wild or (not (before.kind.is_run or before.kind.is_pair_run) and c != h.swap):
            continue
        cards = (*lg.cards[:k], h.card, *lg.cards[k + 1:])
        read, problems = read_group(lg.group, cards, rules)
        if problems or read is None:
            continue
        new = LaidGroup(lg.group, cards)
        after = build_state(lg.group, cards, read, rules)
        if (after.low, after.high) == (before.low, before.high):
            remember(new, rules, after)
            return new
    raise AssertionError(f"{h} was offered but cannot be made")  # targets offers only these




# Choices of number/color/parity tried for groups of wilds only.
MAX_OPEN_CLASSES = 256


def _lazy_product(options: list):
    """Every way to give each run of alike open groups distinct fixes (all of them when
    there are as many groups as fixes), one after another: there may be very many."""
    if not options:
        yield ()
        return
    (places, fixes), rest = options[0], options[1:]
    if len(places) >= len(fixes):
        picks = iter([tuple(fixes) + (fixes[0],) * (len(places) - len(fixes))])
    else:
        picks = combinations(fixes, len(places))
    for pick in picks:
        for tail in _lazy_product(rest):
            yield ((places, pick), *tail)


def _getter(index: list[int]):
    """A function picking these positions of a tuple, as a tuple (operator.itemgetter
    returns a bare item for one position)."""
    if len(index) > 1:
        return itemgetter(*index)
    if index:
        i = index[0]
        return lambda t: (t[i],)
    return lambda t: ()


class Search:
    """Branch and bound over run extensions, number by number (see the module docstring).

    Cards of one number can only ever stand at that number, so the search walks
    the numbers upward and decides, at each, which run ends take a card there: a
    low end may start at any number and must then go on up to its run; a high end
    goes on from its run until it stops.  What is left to decide depends only on
    the ends' states, the wilds left and the cards of the numbers still to come,
    which keeps the transposition table small.
    """

    def __init__(self, states: list[State], hand: list[Card], rules: Rules, budget: int):
        self.states, self.hand, self.rules, self.budget = states, hand, rules, budget
        counts = Counter(hand)
        self.types = sorted(counts, key=lambda c: (c.skip, c.wild, c.number or 0, c.color or ""))
        self.count0 = tuple(counts[t] for t in self.types)
        self.numbers = list(range(rules.deck.low, rules.deck.high + 1))
        self.postal = [t.natural and t.number in rules.wild_numbers for t in self.types]
        nat_by_num: dict[int, list[int]] = {n: [] for n in self.numbers}
        self.wildish = []
        for i, t in enumerate(self.types):
            if t.natural and t.number in nat_by_num:
                nat_by_num[t.number].append(i)
            if acts_wild(t, rules):
                self.wildish.append(i)
        self.nat_by_num = nat_by_num
        self.true_wild = self.types.index(WILD) if WILD in self.types else None
        self.nodes = 0
        self.cut = False
        self._layout()

    # ------------------------------------------------------------------ set-up
    def _layout(self) -> None:
        """The run ends, the numbers each could reach, and per number what the search
        needs to know about the ends there."""
        rules = self.rules
        self.runs = [gi for gi, st in enumerate(self.states) if st.kind.is_run]
        spare = sum(self.count0[i] for i in self.wildish)
        # (run index, group index, side, nearest number, farthest number)
        self.ends: list[tuple[int, int, str, int, int]] = []
        for r, gi in enumerate(self.runs):
            st = self.states[gi]
            for side in ("low", "high"):
                reach = self._reach(st, side, spare + (len(st.swaps) if rules.wild_swap else 0))
                if reach:
                    self.ends.append((r, gi, side, reach[0], reach[-1]))
        self.at = {n: [e for e, (_, _, _, near, far) in enumerate(self.ends)
                       if min(near, far) <= n <= max(near, far)] for n in self.numbers}
        # Which colors some later consumer of a number tells apart: two naturals of one
        # number whose colors every such consumer takes alike are interchangeable.
        swappers: dict[int, list] = {}
        if rules.wild_swap:
            for gi in self.runs:
                st = self.states[gi]
                for w in st.swaps:
                    swappers.setdefault(w.number, []).append(self._takes(st, w.number, w))
        self.swap_nums = set(swappers)
        self.sig = {}
        self.sig_num = {}
        for n in self.numbers:
            here = self.at[n]
            takers = [self._takes(self.states[self.ends[e][1]], n) for e in here]
            for j in range(len(here)):
                self.sig[(n, j)] = self._classes(takers[j + 1:] + swappers.get(n, []))
            self.sig_num[n] = self._classes(takers + swappers.get(n, []))
        # What can still matter from the k-th number on: the ends that reach it or
        # beyond, and their runs (a finished end's state is forgotten in the key).
        alive = [[e for e, (_, _, _, near, far) in enumerate(self.ends) if max(near, far) >= n]
                 for n in self.numbers]
        alive_runs = [sorted({self.ends[e][0] for e in ends}) for ends in alive]
        swap_nums = self.swap_nums
        self.one_color = [self.states[gi].kind.one_color for gi in self.runs]
        # every (number, end, run, is a high end) from the k-th number on, for the bound
        self.slots_from = [[(n, e, self.ends[e][0], self.ends[e][2] == "high")
                            for n in self.numbers[k:] for e in self.at[n]]
                           for k in range(len(self.numbers))]
        wild = set(self.wildish)
        relevant = [[i for i, t in enumerate(self.types)
                     if i in wild or (t.natural and (t.number >= n or t.number in swap_nums))]
                    for n in self.numbers]
        # the memo key's parts, read by C-level getters (the key is built at every node)
        self.key_parts = [(_getter(alive[k]), _getter(alive_runs[k]), _getter(relevant[k]))
                          for k in range(len(self.numbers))]

    def _takes(self, st: State, n: int, w: Card | None = None) -> frozenset | None:
        """The colors a run (or a swap for its wild ``w``) takes at ``n``; None when the
        run's color is still open, so that every color counts apart."""
        if st.kind.one_color and st.color is None:
            return None
        ok = {st.color} if st.kind.one_color else set(self.rules.deck.colors)
        if st.cmap is not None:
            ok &= set(st.cmap.get(n, ()))
        if w is not None and w.color is not None:
            ok &= {w.color}
        return frozenset(ok)

    def _classes(self, takers: list) -> dict:
        return {c: tuple(c if t is None else c in t for t in takers) for c in self.rules.deck.colors}

    def _pick(self, cands: list[int], classes: dict) -> list[int]:
        """One card per class of interchangeable colors: the best of each (earning first,
        then one that cannot also act as a wild), best first."""
        best: dict = {}
        for i in cands:
            k = classes[self.types[i].color]
            if k not in best or (self.postal[i], -self.gain[i]) < \
                    (self.postal[best[k]], -self.gain[best[k]]):
                best[k] = i
        return sorted(best.values(), key=lambda i: (-self.gain[i], self.postal[i]))

    def _reach(self, st: State, side: str, spare: int) -> list[int]:
        """Numbers an end could cover, outward from its run: each needs a natural in the
        hand that may stand there, or one of ``spare`` wild-likes."""
        out: list[int] = []
        low, high = st.low, st.high
        while True:
            n = st.slot(side, low, high)
            if n is None:
                return out
            if not any(self.count0[i] and st.color_ok(st.color, self.types[i].color, n)
                       for i in self.nat_by_num[n]):
                if not spare:
                    return out
                spare -= 1
            out.append(n)
            low, high = (n, high) if side == "low" else (low, n)

    def _sink_choices(self):
        """The non-run groups, once per way of fixing those left open (wilds only).

        Open groups of one shape are interchangeable, and a group fixed like another
        adds nothing: such groups take distinct choices, all of them when there are
        as many groups as choices.
        """
        sinks = [(gi, st) for gi, st in enumerate(self.states) if not st.kind.is_run]
        self.sink_groups = [gi for gi, _ in sinks]
        naturals = [t for t in self.types if t.natural]
        alike: dict[tuple, list[int]] = {}  # open groups by shape -> their places in sinks
        for k, (_, st) in enumerate(sinks):
            if st.kind not in STATIC and st.open_class:
                alike.setdefault((st.kind, st.number, st.color, st.parity), []).append(k)
        options = []
        for places in alike.values():
            st = sinks[places[0]][1]
            seen: dict = {}
            for t in naturals:
                if st.takes(t):
                    f = st.fixed_by(t)
                    seen.setdefault((f.number, f.color, f.parity), f)
            blue = blue_of(self.rules) if st.kind is Kind.COLOR else None
            if blue is not None and any(t.skip for t in self.types):
                # skip_counts_as_blue: skips alone may make an open color group blue
                seen.setdefault((None, blue, None), State(self.rules, st.kind, color=blue))
            fixes = list(seen.values()) or [st]
            options.append((places, fixes))
        for n, combo in enumerate(_lazy_product(options)):
            if n == MAX_OPEN_CLASSES:
                self.cut = True
                return
            chosen = [st for _, st in sinks]
            for places, pick in combo:
                for k, f in zip(places, pick, strict=True):
                    chosen[k] = f
            yield chosen

    def _prepare(self, sinks: list[State]) -> None:
        """Per card type: does some non-run group take it (then a run earns nothing by it)."""
        self.sink_of = [next((s for s in sinks if options(s, t)), None) for t in self.types]
        self.gain = [0 if s is not None else 1 for s in self.sink_of]
        gain_nat = [(self.types[i].number, self.types[i].color, i)
                    for idx in self.nat_by_num.values() for i in idx if self.gain[i]]
        # per k: those of the numbers still to come (or that a swap may take)
        self.gain_nat = [[x for x in gain_nat if x[0] >= n or x[0] in self.swap_nums]
                         for n in self.numbers]
        self.gain_wild = [i for i in self.wildish if self.gain[i]]

    # ------------------------------------------------------------------ search
    def run(self) -> HitPlan:
        best_total = -1
        best: tuple = ()
        status0 = tuple(0 if side == "low" else 1 for _, _, side, _, _ in self.ends)
        colors0 = tuple(self.states[gi].color for gi in self.runs)
        swaps0 = tuple(self.states[gi].swaps if self.rules.wild_swap else ()
                       for gi in self.runs)
        for sinks in self._sink_choices():
            # each way of fixing open groups costs about this much of the budget
            self.nodes += len(self.types) * (1 + len(sinks)) // 4 + 2 * len(self.ends)
            self._prepare(sinks)
            base = sum(c for c, g in zip(self.count0, self.gain, strict=True) if not g)
            if not best:  # no run hits at all: always a valid plan
                best_total = base
                best = (sinks, [], list(self.gain), list(self.sink_of))
            self.best_gain = best_total - base
            self.best_path: list | None = None
            greedy, path = self._greedy()
            if greedy > self.best_gain:  # a first plan to beat, and the answer if time runs out
                self.best_gain, self.best_path = greedy, path
            self.path: list = []
            self.seen: dict = {}
            self.top = self._bound(0, status0, colors0, swaps0, self.count0)
            if self.top > self.best_gain:
                self._search(0, 0, status0, colors0, swaps0, self.count0, 0)
            if self.best_path is not None and base + self.best_gain > best_total:
                best_total = base + self.best_gain
                best = (sinks, list(self.best_path), list(self.gain), list(self.sink_of))
            if self.nodes > self.budget:
                break
        return self._hits(*best)

    def _greedy(self) -> tuple[int, list]:
        """A plan found without search: cards that earn a point go wherever they fit,
        a wild bridges a gap to such a card, again and again."""
        rules = self.rules
        types = self.types
        counts = list(self.count0)
        ext = {gi: [st.low, st.high, st.color, list(st.swaps) if rules.wild_swap else []]
               for gi, st in ((gi, self.states[gi]) for gi in self.runs)}
        path: list = []

        def natural_move(gi: int, side: str, n: int, i: int):
            st, (_, _, color, swaps) = self.states[gi], ext[gi]
            t = types[i]
            if not counts[i] or not t.natural or not st.color_ok(color, t.color, t.number):
                return None
            if t.number == n:
                return ("natural", None)
            w = next((w for w in swaps if w.number == t.number and w.color in (None, t.color)),
                     None)
            return None if w is None else ("swap", w)

        def place(gi: int, side: str, n: int, i: int, how: str, w) -> None:
            st, e = self.states[gi], ext[gi]
            counts[i] -= 1
            e[0 if side == "low" else 1] = n
            if st.kind.one_color and how != "wild":
                e[2] = types[i].color
            if w is not None:
                e[3].remove(w)
            path.append((i, gi, side, n, how, w))

        earners = [i for i, t in enumerate(types) if self.gain[i] and t.natural]
        spare = [i for i in self.wildish if not self.gain[i]] + \
            [i for i in self.wildish if self.gain[i]]
        progress = True
        while progress:
            progress = False
            for gi in self.runs:
                st = self.states[gi]
                for side in st.ends:
                    while True:
                        n = st.slot(side, ext[gi][0], ext[gi][1])
                        got = None if n is None else next(
                            ((i, m) for i in earners if (m := natural_move(gi, side, n, i))), None)
                        if got is None:
                            break
                        place(gi, side, n, got[0], *got[1])
                        progress = True
            if progress:
                continue
            for gi in self.runs:  # one wild: where the next card earns, or where it earns itself
                st = self.states[gi]
                for side in st.ends:
                    low, high = ext[gi][0], ext[gi][1]
                    n = st.slot(side, low, high)
                    wild = next((i for i in spare if counts[i]), None)
                    if n is None or wild is None:
                        continue
                    beyond = st.slot(side, *((n, high) if side == "low" else (low, n)))
                    bridge = beyond is not None and any(
                        counts[i] and types[i].number == beyond
                        and st.color_ok(ext[gi][2], types[i].color, beyond) for i in earners)
                    if bridge or self.gain[wild]:
                        place(gi, side, n, wild, "wild", None)
                        progress = True
                        break
                if progress:
                    break
        return sum(self.gain[step[0]] for step in path), path

    def _bound(self, k: int, status: tuple, colors: tuple, swaps: tuple, counts: tuple) -> int:
        """Most points still to earn from the k-th number on (an upper bound): per number,
        the gain-earning naturals the ends there could take (an end of a fixed color
        only that color), plus the gain-earning wild-likes, never more than the slots."""
        free: dict[int, int] = {}
        one: dict[tuple, int] = {}
        room = 0
        one_color = self.one_color
        for n, e, r, high in self.slots_from[k]:
            if high and status[e] == 2:
                continue
            room += 1
            c = colors[r] if one_color[r] else None
            if c is None:
                free[n] = free.get(n, 0) + 1
            else:
                one[(n, c)] = one.get((n, c), 0) + 1
        for ws in swaps:
            for w in ws:
                free[w.number] = free.get(w.number, 0) + 1
                room += 1
        got = sum(counts[i] for i in self.gain_wild)
        if got >= room:
            return room
        left: dict[int, int] = {}
        for n, c, i in self.gain_nat[k]:
            have = counts[i]
            if have:
                s = one.get((n, c), 0)
                got += min(have, s)
                left[n] = left.get(n, 0) + max(0, have - s)
        for n, have in left.items():
            got += min(have, free.get(n, 0))
        return min(got, room)

    def _search(self, *start) -> None:
        """Run ``_visit`` from ``start`` depth first, its calls on a list of our own: a
        crowded table needs one level per decision, more than Python's recursion limit."""
        stack = [self._visit(*start)]
        while stack:
            call = next(stack[-1], None)
            if call is None:
                stack.pop()
            else:
                stack.append(self._visit(*call))

    def _visit(self, k: int, j: int, status: tuple, colors: tuple, swaps: tuple,
               counts: tuple, acc: int) -> Iterator[tuple]:
        """Decide the j-th end at the k-th number, then go on: each call it would make
        to itself it yields instead, for ``_search`` to run before resuming it."""
        while True:  # ends with nothing to decide, and numbers with no ends, pass through
            if k == len(self.numbers):
                if acc > self.best_gain:
                    self.best_gain = acc
                    self.best_path = list(self.path)
                return
            n = self.numbers[k]
            here = self.at[n]
            if j == len(here):
                k, j = k + 1, 0
                continue
            if j == 0 and acc + self._bound(k, status, colors, swaps, counts) <= self.best_gain:
                return
            e = here[j]
            if self.ends[e][2] == "high" and status[e] == 2:
                j += 1
                continue
            break
        self.nodes += 1
        if self.nodes > self.budget:
            self.cut = True
            return
        ends_of, runs_of, cards_of = self.key_parts[k]
        key = (k, j, ends_of(status), runs_of(colors), runs_of(swaps), cards_of(counts))
        if self.seen.get(key, -1) >= acc:
            return
        self.seen[key] = acc
        r, gi, side, _, _ = self.ends[e]
        st = self.states[gi]
        s = status[e]
        # A low end that has started must go on up to its run.
        may_skip = not (side == "low" and s == 1)
        for i, how, w, new_color in self._moves(st, n, colors[r], swaps[r], counts,
                                                self.sig[(n, j)]):
            c = list(counts)
            c[i] -= 1
            new_status = status if s == 1 else (*status[:e], 1, *status[e + 1:])
            new_colors = colors if new_color == colors[r] else \
                (*colors[:r], new_color, *colors[r + 1:])
            new_swaps = swaps if w is None else \
                (*swaps[:r], tuple(x for x in swaps[r] if x is not w), *swaps[r + 1:])
            self.path.append((i, gi, side, n, how, w))
            yield (k, j + 1, new_status, new_colors, new_swaps, tuple(c), acc + self.gain[i])
            self.path.pop()
            if self.cut or self.best_gain >= self.top:
                return
        if may_skip:  # tried last: long extensions first find a good plan early
            # No card for this end at n: a low end waits (or is never used), a high end stops.
            if side == "high":
                status = (*status[:e], 2, *status[e + 1:])
            yield (k, j + 1, status, colors, swaps, counts, acc)

    def _moves(self, st: State, n: int, color, swaps: tuple, counts: tuple, classes: dict):
        """Ways to fill slot ``n`` of a run: (type index, how, swapped wild, run color
        after), best first; choices an exchange argument shows are never needed are
        left out."""
        types = self.types
        one_color = st.kind.one_color
        naturals = [i for i in self.nat_by_num.get(n, ()) if counts[i]
                    and st.color_ok(color, types[i].color, n)]
        # While a one-color run's color is open, the card chosen fixes it: keep them all.
        settled = not one_color or color is not None
        if settled:
            naturals = self._pick(naturals, classes)
        else:
            naturals.sort(key=lambda i: (-self.gain[i], self.postal[i]))
        out = [(i, "natural", None, types[i].color if one_color else color) for i in naturals]
        for w in swaps:
            fits = [i for i in self.nat_by_num.get(w.number, ()) if counts[i]
                    and w.color in (None, types[i].color)
                    and (st.color_ok(color, types[i].color, w.number) or self.postal[i])]
            if settled:
                fits = self._pick(fits, self.sig_num[w.number])
            out += [(i, "swap", w, types[i].color if one_color and st.color_ok(
                color, types[i].color, w.number) else color) for i in fits]
        # A wild where a natural fits is never needed (trade them), unless a swap could
        # want that natural or an open run color makes its place matter.
        if naturals and settled and n not in self.swap_nums:
            return out
        # Where a swap can fill this slot, a wild from the hand is not needed: any plan
        # with a hand wild here and a swap later in this run may trade the two (unless
        # the swapped-in card would fix the color of a run whose color is still open).
        if settled and len(out) > len(naturals):
            return out
        wt = self.true_wild
        if wt is not None and counts[wt]:
            out.append((wt, "wild", None, color))
        else:  # a card of a wild number is a wild and more: spend true wilds first
            out += [(i, "wild", None, color) for i in self.wildish if i != wt and counts[i]]
        return out

    # ------------------------------------------------------------------ the answer
    def _hits(self, sinks: list[State], path: list, gain: list[int], sink_of: list) -> HitPlan:
        # Each end's cards in play order: outward from the run.
        by_end: dict[tuple, list] = {}
        for step in sorted(path, key=lambda s: s[3]):
            by_end.setdefault((step[1], step[2]), []).append(step)
        for (_, side), steps in by_end.items():
            if side == "low":
                steps.reverse()
            # A card another group takes goes there when it is the outermost of its end.
            while steps and steps[-1][4] != "swap" and not gain[steps[-1][0]]:
                steps.pop()
        for gi in self.runs:  # an outermost wild goes to the preferred end when it can
            st = self.states[gi]
            first, other = (by_end.setdefault((gi, side), []) for side in st.ends)
            while other and other[-1][4] == "wild":
                low = st.low - len(by_end[(gi, "low")])
                high = st.high + len(by_end[(gi, "high")])
                n = st.slot(st.ends[0], low, high)
                if n is None:
                    break
                i, _, _, _, how, w = other.pop()
                first.append((i, gi, st.ends[0], n, how, w))
        used: Counter = Counter()
        run_hits = []
        for gi in self.runs:
            for side in self.states[gi].ends:
                for i, _, _, n, how, w in by_end.get((gi, side), ()):
                    used[i] += 1
                    card = self.types[i]
                    if how == "natural":
                        run_hits.append(Hit(card, gi, side))
                    elif how == "wild":
                        run_hits.append(Hit(card, gi, side, stands=n))
                    else:
                        run_hits.append(Hit(card, gi, side, swap=w, stands=n))
        sink_hits, left = [], []
        # skips last: a natural may be what makes an open color group blue for them
        for card in sorted(self.hand, key=lambda c: c.skip):
            i = self.types.index(card)
            if used[i]:
                used[i] -= 1
                continue
            st = sink_of[i]
            if st is None:
                left.append(card)
                continue
            gi = self.sink_groups[next(k for k, s in enumerate(sinks) if s is st)]
            _, _, stands = options(st, card)[0]
            sink_hits.append(Hit(card, gi, None, None, stands))
        return HitPlan((*sink_hits, *run_hits), tuple(left), exact=not self.cut)
