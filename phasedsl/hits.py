"""Hits: which laid groups take a card, and where; and a play order for several cards.

A laid group is judged once by ``layout.read_group`` (the one home of the meld
rules) and kept as a small state: a run's ends, a set's number, a color, a
parity.  The state is remembered on the LaidGroup, so asking again costs a
dictionary look-up.

Where an unstated wild sits in a laid run: in place, the run read as written low
to high or high to low (``R5 R6 W``: the wild is 7; ``W R5 R6``: 4); where that
would pass the deck's numbers, the wild takes the other end (``R11 R12 W``: 10).
Write ``W=7`` to say it outright.

Runs never go below or above the deck's numbers.  A wild hit on a run open at
both ends may go at either end, standing for the number there (in the printed
game the player says what a laid wild is); ``Rules.wild_hit_end`` only says
which end is listed, and preferred, first.

``plan`` places as many cards as any order, choice of group and choice of end
can.  Only runs change as cards land; a card that fits a set, a color or a
parity group fits it whatever else is played.  So the search is over run
extensions alone, one slot at a time outward from each end, and every card no
run uses goes to such a group if one takes it.  A card a run uses earns a point
only if no other group would take it (that is what a bridge is worth); the
search is a branch and bound over that count with exchange arguments cutting
equivalent choices, and a node budget: past it the plan says it may not be the
most.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import product

from .cards import WILD, Card
from .errors import LayoutError
from .layout import read_group
from .meld import LaidGroup
from .phase import Group, Kind
from .rules import DEFAULT_RULES, Rules


@dataclass(frozen=True, slots=True)
class Hit:
    """One card played onto one group: ``end`` is "low"/"high" on a run, else None.

    ``stands`` is the number a card played as a wild stands for (None for a
    natural played as itself, or where the number is open).  ``swap`` names the
    laid wild a natural replaces (Utah rules); that wild then moves to ``end``
    of the same run, standing for ``stands``.
    """

    card: Card
    group: int  # 0-based index into the laid groups
    end: str | None = None
    swap: Card | None = None
    stands: int | None = None

    def __str__(self) -> str:
        return hit_words(str(self.card), self.group + 1, self.end,
                      None if self.swap is None else str(self.swap), self.stands,
                      self.card.natural)

    def to_json(self) -> dict:
        out: dict = {"card": str(self.card), "group": self.group + 1, "end": self.end}
        if self.stands is not None:
            out["stands"] = self.stands
        if self.swap is not None:
            out["swap"] = str(self.swap)
        return out


def hit_words(card: str, group: int, end: str | None, swap: str | None, stands: int | None,
           natural: bool) -> str:
    """A hit in words (shared by Hit and the JSON-to-text helper in api.py)."""
    if swap is not None:
        return (f"{card} swaps for {swap} in group {group}; the wild moves to the {end} end"
                f" (as {stands})")
    where = f"{card} onto group {group}" + (f" at the {end} end" if end else "")
    if stands is None:
        return where
    return where + (f" (as a wild {stands})" if natural else f" (as {stands})")


@dataclass(frozen=True, slots=True)
class HitPlan:
    """Hits for several cards, in an order that works; ``left`` could not be placed.

    ``exact`` is True when no order places more cards; False only when the
    search stopped at its budget (a very large hand), so more may fit.
    """

    hits: tuple[Hit, ...]
    left: tuple[Card, ...]
    exact: bool = True

    @property
    def complete(self) -> bool:
        return not self.left


class _State:
    """A laid group as hits see it, read under one Rules.

    ``number``, ``color``, ``parity`` are None where the group leaves them open
    (a group of wilds only); ``swaps`` are a run's laid wilds, with their numbers.
    """

    __slots__ = ("cmap", "color", "ends", "high", "kind", "low", "memo", "number", "parity",
                 "rules", "swaps")

    def __init__(self, rules: Rules, kind: Kind, low: int = 0, high: int = 0,
                 number: int | None = None, color: str | None = None,
                 parity: int | None = None, cmap: dict | None = None,
                 swaps: tuple[Card, ...] = ()) -> None:
        self.rules = rules
        self.kind = kind
        self.low, self.high = low, high
        self.number, self.color, self.parity = number, color, parity
        self.cmap = cmap
        self.swaps = swaps
        self.ends = ("high", "low") if rules.wild_hit_end == "high" else ("low", "high")
        self.memo: dict = {}  # card fields -> {group index: the Hits of that card here}

    def slot(self, end: str, low: int, high: int) -> int | None:
        """The number the next card at ``end`` stands for, or None if that end is closed."""
        n = low - 1 if end == "low" else high + 1
        deck = self.rules.deck
        if n < deck.low or n > deck.high or (self.cmap is not None and not self.cmap.get(n)):
            return None
        return n

    def color_ok(self, run_color: str | None, card_color: str | None, n: int) -> bool:
        """May a natural of this color stand at number ``n`` of this run?"""
        if run_color is not None and card_color != run_color:
            return False
        return self.cmap is None or card_color in self.cmap[n]

    def takes(self, card: Card) -> bool:
        """Does a natural fit this (non-run) group as itself?"""
        return ((self.number is None or card.number == self.number)
                and (self.color is None or card.color == self.color)
                and (self.parity is None or card.number % 2 == self.parity))

    @property
    def open_class(self) -> bool:
        """A set, color or parity group that no natural has fixed yet."""
        k = self.kind
        return ((k.is_set and self.number is None) or (k.one_color and self.color is None)
                or (k in _PARITY and self.parity is None))

    def fixed_by(self, card: Card) -> _State:
        """This open group once ``card`` (a natural) has fixed what it left open."""
        k = self.kind
        return _State(self.rules, k, number=card.number if k.is_set else None,
                      color=card.color if k.one_color else None,
                      parity=card.number % 2 if k in _PARITY else None)


_PARITY = (Kind.EVEN_ODD, Kind.COLOR_EVEN_ODD)
_STATIC = (Kind.WILD, Kind.SKIP)


def _one(values: set) -> object | None:
    return next(iter(values)) if len(values) == 1 else None


def _build(group: Group, given: Sequence[Card], read: Sequence[Card], rules: Rules) -> _State:
    """The state of a legal group: ``given`` as laid, ``read`` as read_group placed it."""
    k = group.kind
    if rules.runs_one_color and k is Kind.RUN:
        k = Kind.COLOR_RUN
    wn = rules.wild_numbers
    # What the player fixed: naturals as themselves and what a wild was said to be.
    # A card of a wild number (postal rule) may be acting as a wild, so it fixes
    # nothing unless two naturals per group are needed and only such cards give them.
    sure = [c for c in given if c.wild or (c.natural and c.number not in wn)]
    if not any(c.natural for c in sure) and rules.natural_scope == "group" \
            and rules.min_naturals >= 2:
        sure = [c for c in given if not c.skip]
    color = _one({c.color for c in sure if c.color is not None}) if k.one_color else None
    if k.is_run:
        n = len(read)
        starts = {c.number - i for i, c in enumerate(read) if c.wild or c.number not in wn}
        low = _one(starts)
        if low is None:  # every card is of a wild number: read as laid from the first
            first = read[0].number
            low = first if first + n - 1 <= rules.deck.high else rules.deck.high - n + 1
        cmap = dict(group.colors) if group.colors is not None else None
        return _State(rules, k, low, low + n - 1, color=color, cmap=cmap,
                      swaps=tuple(c for c in read if c.wild))
    nums = {c.number for c in sure if c.number is not None}
    if k.is_set:
        return _State(rules, k, number=_one(nums), color=color)
    if k in _PARITY:
        return _State(rules, k, parity=_one({x % 2 for x in nums}), color=color)
    return _State(rules, k, color=color)


def _not_legal(problems: list[tuple[str, str]]) -> str:
    return "; ".join(msg for _, msg in problems) or "it cannot be read"


def read_laid(group: Group, cards: Sequence[Card], rules: Rules = DEFAULT_RULES,
              name: str = "the laid group") -> LaidGroup:
    """A laid group, checked at once: LayoutError says which rule it breaks."""
    read, problems = read_group(group, cards, rules)
    if problems or read is None:
        raise LayoutError(f"{name} is not legal: {_not_legal(problems)}")
    lg = LaidGroup(group, tuple(cards))
    _remember(lg, rules, _build(group, cards, read, rules))
    return lg


def _remember(lg: LaidGroup, rules: Rules, state: _State) -> None:
    memo = lg._memo
    if memo is None:
        memo = {}
        object.__setattr__(lg, "_memo", memo)
    elif len(memo) > 8:
        memo.clear()
    # Keyed by identity (hashing Rules costs more than a hit); the entry holds the
    # Rules, so its id cannot be reused while the entry lives.
    memo[id(rules)] = (rules, state)


def _state(lg: LaidGroup, index: int, rules: Rules) -> _State:
    memo = lg._memo
    if memo is not None:
        got = memo.get(id(rules))
        if got is not None:
            return got[1]
    read, problems = read_group(lg.group, lg.cards, rules)
    if problems or read is None:
        raise LayoutError(f"laid group {index + 1} ({lg.group.describe(rules.deck)}: {lg}) "
                          f"is not legal: {_not_legal(problems)}")
    state = _build(lg.group, lg.cards, read, rules)
    _remember(lg, rules, state)
    return state


def _acts_wild(card: Card, rules: Rules) -> bool:
    return card.wild or (card.natural and card.number in rules.wild_numbers)


def _options(st: _State, card: Card) -> list[tuple[str | None, Card | None, int | None]]:
    """Where ``card`` (as in a hand) goes on this group now: (end, swapped wild, stands)."""
    rules = st.rules
    k = st.kind
    if card.skip:
        return [(None, None, None)] if k is Kind.SKIP else []
    wildish = _acts_wild(card, rules)
    if k is Kind.SKIP:
        return [(None, None, None)] if wildish and rules.wild_as_skip else []
    if k is Kind.WILD:
        return [(None, None, None)] if wildish else []
    if not k.is_run:
        if card.natural and st.takes(card):
            return [(None, None, None)]
        return [(None, None, st.number)] if wildish else []
    out: list[tuple[str | None, Card | None, int | None]] = []
    for end in st.ends:
        n = st.slot(end, st.low, st.high)
        if n is None:
            continue
        if card.natural and card.number == n and st.color_ok(st.color, card.color, n):
            out.append((end, None, None))
        elif wildish:
            out.append((end, None, n))
    if rules.wild_swap and card.natural:
        for w in st.swaps:
            if w.number == card.number and w.color in (None, card.color) \
                    and st.color_ok(st.color, card.color, w.number):
                for end in st.ends:
                    n = st.slot(end, st.low, st.high)
                    if n is not None:
                        out.append((end, w, n))
                break
    return out


def targets(laid: Sequence[LaidGroup], card: Card, rules: Rules = DEFAULT_RULES) -> list[Hit]:
    """Every legal single hit of ``card`` onto the laid groups (a wild: each open end)."""
    # The hot path of a hit checker: answers are kept per group state, per card
    # (as a plain tuple: hashing it is cheaper than hashing a Card), per index.
    if card.wild:
        card = WILD
    key = (card.number, card.color, card.wild, card.skip)
    rid = id(rules)
    out: list[Hit] = []
    for i, lg in enumerate(laid):
        memo = lg._memo
        got = memo.get(rid) if memo is not None else None
        st = got[1] if got is not None else _state(lg, i, rules)
        per_index = st.memo.get(key)
        if per_index is None:
            if len(st.memo) > 512:
                st.memo.clear()
            per_index = st.memo[key] = {}
        hits = per_index.get(i)
        if hits is None:
            hits = per_index[i] = tuple(Hit(card, i, end, swap, stands)
                                        for end, swap, stands in _options(st, card))
        out += hits
    return out


# Search nodes before the plan settles for the best found so far (and says so).
# Keeps any call, up to the 200-card limit, well under two seconds.
SEARCH_BUDGET = 60_000
MAX_CARDS = 200
MAX_GROUPS = 100
# Choices of number/color/parity tried for groups of wilds only.
MAX_OPEN_CLASSES = 256


def plan(laid: Sequence[LaidGroup], cards: Sequence[Card], rules: Rules = DEFAULT_RULES,
         budget: int = SEARCH_BUDGET) -> HitPlan:
    """Place as many of ``cards`` as any play order can, and give that order."""
    if len(cards) > MAX_CARDS:
        raise LayoutError(f"too many cards to hit at once ({len(cards)}; the limit is "
                          f"{MAX_CARDS})")
    if len(laid) > MAX_GROUPS:
        raise LayoutError(f"too many laid groups ({len(laid)}; the limit is {MAX_GROUPS})")
    states = [_state(lg, i, rules) for i, lg in enumerate(laid)]
    hand = [c.plain() for c in cards]
    return _Search(states, hand, rules, budget).run()


class _Search:
    """Branch and bound over run extensions (see the module docstring)."""

    def __init__(self, states: list[_State], hand: list[Card], rules: Rules, budget: int):
        self.states, self.hand, self.rules, self.budget = states, hand, rules, budget
        counts = Counter(hand)
        self.types = sorted(counts, key=lambda c: (c.skip, c.wild, c.number or 0, c.color or ""))
        self.count0 = tuple(counts[t] for t in self.types)
        self.numbers = range(rules.deck.low, rules.deck.high + 1)
        self._types()
        self.postal = [t.natural and t.number in rules.wild_numbers for t in self.types]
        self.nodes = 0
        self.cut = False
        # One search position per open end of a run, the preferred end first.
        self.ends: list[tuple[int, str]] = []
        for gi, st in enumerate(states):
            if st.kind.is_run:
                for end in st.ends:
                    if st.slot(end, st.low, st.high) is not None:
                        self.ends.append((gi, end))

    # ------------------------------------------------------------------ set-up
    def _sink_choices(self) -> list[list[_State]]:
        """The non-run groups, once per way of fixing those left open (wilds only)."""
        sinks = [(gi, st) for gi, st in enumerate(self.states) if not st.kind.is_run]
        naturals = [t for t in self.types if t.natural]
        per: list[list[_State]] = []
        for _, st in sinks:
            if st.kind in _STATIC or not st.open_class:
                per.append([st])
                continue
            seen: dict = {}
            for t in naturals:
                if st.takes(t):
                    f = st.fixed_by(t)
                    seen.setdefault((f.number, f.color, f.parity), f)
            per.append(list(seen.values()) or [st])
        self.sink_groups = [gi for gi, _ in sinks]
        out = []
        for combo in product(*per):
            out.append(list(combo))
            if len(out) >= MAX_OPEN_CLASSES:
                self.cut = True
                break
        return out

    def _prepare(self, sinks: list[_State]) -> None:
        """Per card type: does some non-run group take it (then a run earns nothing by it)."""
        self.sink_of = [next((s for s in sinks if _options(s, t)), None) for t in self.types]
        self.gain = [0 if s is not None else 1 for s in self.sink_of]
        # for the bound: gain-earning naturals by (number, color), and wild-likes
        self.gain_nat = {(self.types[i].number, self.types[i].color): i
                         for idx in self.nat_by_num.values() for i in idx if self.gain[i]}
        self.gain_wild = [i for i in self.wildish if self.gain[i]]

    def _types(self) -> None:
        rules = self.rules
        nat_by_num: dict[int, list[int]] = {n: [] for n in self.numbers}
        self.wildish = []
        for i, t in enumerate(self.types):
            if t.natural and t.number in nat_by_num:
                nat_by_num[t.number].append(i)
            if _acts_wild(t, rules):
                self.wildish.append(i)
        self.nat_by_num = nat_by_num
        self.true_wild = self.types.index(WILD) if WILD in self.types else None

    def _reach(self, pos: int, low: int, high: int, color, swaps: tuple,
               counts: tuple) -> list[int]:
        """Numbers the end at ``pos`` could still reach: each slot needs a natural that
        fits it, or one of the wild-likes left or a laid wild a swap moves (all of them,
        as if no other end took any)."""
        gi, end = self.ends[pos]
        st = self.states[gi]
        types = self.types
        spare = sum(counts[i] for i in self.wildish) + (len(swaps) if self.rules.wild_swap else 0)
        out = []
        while True:
            n = st.slot(end, low, high)
            if n is None:
                return out
            if not any(counts[i] and st.color_ok(color, types[i].color, n)
                       for i in self.nat_by_num[n]):
                if not spare:
                    return out
                spare -= 1
            out.append(n)
            low, high = (n, high) if end == "low" else (low, n)

    def _future(self) -> None:
        """Per search position, from the whole hand: the slots the positions from there
        on could fill (per number; per number and color where a run's color is fixed),
        the numbers where one of them tells colors apart, and the card types they use."""
        rules = self.rules
        n_pos = len(self.ends)
        self.free_after: list[dict[int, int]] = [{} for _ in range(n_pos + 1)]
        self.one_after: list[dict[tuple, int]] = [{} for _ in range(n_pos + 1)]
        self.picky: list[set[int]] = [set() for _ in range(n_pos + 1)]
        self.relevant: list[list[int]] = [[] for _ in range(n_pos + 1)]
        first_pos: dict[int, int] = {}
        for pos, (gi, _) in enumerate(self.ends):
            first_pos.setdefault(gi, pos)
        wildish = set(self.wildish)
        for pos in range(n_pos - 1, -1, -1):
            free = dict(self.free_after[pos + 1])
            one = dict(self.one_after[pos + 1])
            picky = set(self.picky[pos + 1])
            used = set(self.relevant[pos + 1])
            gi, _ = self.ends[pos]
            st = self.states[gi]
            restricted = st.kind.one_color or st.cmap is not None
            reach = self._reach(pos, st.low, st.high, st.color, st.swaps, self.count0)
            for n in reach:
                if st.kind.one_color and st.color is not None:
                    one[(n, st.color)] = one.get((n, st.color), 0) + 1
                else:
                    free[n] = free.get(n, 0) + 1
                if restricted:
                    picky.add(n)
                used.update(i for i in self.nat_by_num[n]
                            if st.color_ok(None, self.types[i].color, n))
            if reach:
                used |= wildish
            if rules.wild_swap and pos == first_pos[gi]:
                for w in st.swaps:
                    free[w.number] = free.get(w.number, 0) + 1
                    used.update(self.nat_by_num[w.number])
                    if restricted or w.color is not None:
                        picky.add(w.number)
            self.free_after[pos] = free
            self.one_after[pos] = one
            self.picky[pos] = picky
            self.relevant[pos] = sorted(used)

    def _bound(self, pos: int, low: int, high: int, color, swaps: tuple, counts: tuple) -> int:
        """Most points still to earn from position ``pos`` on (an upper bound): per number,
        the gain-earning naturals the slots there could take (a fixed-color slot only its
        color), plus the gain-earning wild-likes, never more than the slots."""
        free = dict(self.free_after[pos + 1])
        one = dict(self.one_after[pos + 1])
        gi, _ = self.ends[pos]
        st = self.states[gi]
        fixed = color if st.kind.one_color else None
        for n in self._reach(pos, low, high, color, swaps, counts):
            if fixed is not None:
                one[(n, fixed)] = one.get((n, fixed), 0) + 1
            else:
                free[n] = free.get(n, 0) + 1
        for w in swaps:  # this run's own swaps are not in the tables for pos + 1
            free[w.number] = free.get(w.number, 0) + 1
        room = sum(free.values()) + sum(one.values())
        got = sum(counts[i] for i in self.gain_wild)
        if got >= room:
            return room
        left: dict[int, int] = {}
        for (n, c), i in self.gain_nat.items():
            k = counts[i]
            if k:
                s = one.get((n, c), 0)
                got += min(k, s)
                left[n] = left.get(n, 0) + max(0, k - s)
        for n, k in left.items():
            got += min(k, free.get(n, 0))
        return min(got, room)

    # ------------------------------------------------------------------ search
    def run(self) -> HitPlan:
        choices = self._sink_choices()
        self._future()
        best_total = -1
        best: tuple = ()
        for sinks in choices:
            self._prepare(sinks)
            base = sum(c for c, g in zip(self.count0, self.gain, strict=True) if not g)
            if not best:  # no run hits at all: always a valid plan
                best_total = base
                best = (sinks, [], list(self.gain), list(self.sink_of))
            self.best_gain = best_total - base
            self.best_path: list | None = None
            self.path: list = []
            self.seen: dict = {}
            first = self.states[self.ends[0][0]] if self.ends else None
            self.top = (self._bound(0, first.low, first.high, first.color, first.swaps,
                                    self.count0)
                        if first is not None else 0)
            self._start(0, self.count0, 0)
            if self.best_path is not None and base + self.best_gain > best_total:
                best_total = base + self.best_gain
                best = (sinks, list(self.best_path), list(self.gain), list(self.sink_of))
            if self.cut and self.nodes > self.budget:
                break
        return self._hits(*best)

    def _start(self, pos: int, counts: tuple, acc: int) -> None:
        """Enter search position ``pos`` (a new run starts from its laid state)."""
        if pos == len(self.ends):
            if acc > self.best_gain:
                self.best_gain = acc
                self.best_path = list(self.path)
            return
        gi, _ = self.ends[pos]
        st = self.states[gi]
        self._node(pos, st.low, st.high, st.color, st.swaps, counts, acc)

    def _next(self, pos: int, low: int, high: int, color, swaps, counts: tuple, acc: int) -> None:
        """Leave position ``pos``: the same run's other end keeps what this end changed."""
        if pos + 1 < len(self.ends) and self.ends[pos + 1][0] == self.ends[pos][0]:
            self._node(pos + 1, low, high, color, swaps, counts, acc)
        else:
            self._start(pos + 1, counts, acc)

    def _node(self, pos: int, low: int, high: int, color, swaps, counts: tuple, acc: int) -> None:
        self.nodes += 1
        if self.nodes > self.budget:
            self.cut = True
            return
        if acc + self._bound(pos, low, high, color, swaps, counts) <= self.best_gain:
            return
        # only the card types the positions from here on can use tell states apart
        key = (pos, low, high, color, swaps, tuple(counts[i] for i in self.relevant[pos]))
        if self.seen.get(key, -1) >= acc:
            return
        self.seen[key] = acc
        gi, end = self.ends[pos]
        st = self.states[gi]
        n = st.slot(end, low, high)
        if n is not None:
            for i, how, w, new_color in self._moves(pos, st, n, color, swaps, counts):
                c = list(counts)
                c[i] -= 1
                new_swaps = swaps if w is None else tuple(x for x in swaps if x is not w)
                nl, nh = (n, high) if end == "low" else (low, n)
                self.path.append((i, gi, end, n, how, w))
                self._node(pos, nl, nh, new_color, new_swaps, tuple(c), acc + self.gain[i])
                self.path.pop()
                if self.cut or self.best_gain >= self.top:
                    return
        self._next(pos, low, high, color, swaps, counts, acc)

    def _moves(self, pos: int, st: _State, n: int, color, swaps, counts: tuple):
        """Ways to fill slot ``n``: (type index, how, swapped wild, run color after), best
        first; choices an exchange argument shows are never needed are left out."""
        types = self.types
        one_color = st.kind.one_color
        naturals = [i for i in self.nat_by_num.get(n, ()) if counts[i]
                    and st.color_ok(color, types[i].color, n)]
        settled = not one_color or color is not None
        if naturals and settled and n not in self.picky[pos + 1]:
            # Colors are interchangeable here from now on: the best one will do
            # (earning first, then one that cannot also act as a wild).
            naturals = [min(naturals, key=lambda i: (self.postal[i], -self.gain[i]))]
        else:
            naturals.sort(key=lambda i: (-self.gain[i], self.postal[i]))
        out = [(i, "natural", None, types[i].color if one_color else color) for i in naturals]
        if self.rules.wild_swap:
            for w in swaps:
                for i in self.nat_by_num.get(w.number, ()):
                    t = types[i]
                    if counts[i] and w.color in (None, t.color) \
                            and st.color_ok(color, t.color, w.number):
                        out.append((i, "swap", w, t.color if one_color else color))
        # A wild where a natural fits is never needed (trade them), unless swaps or an
        # open run color make the natural's placement matter.
        if naturals and settled and not self.rules.wild_swap:
            return out
        wt = self.true_wild
        if wt is not None and counts[wt]:
            out.append((wt, "wild", None, color))
        else:  # a card of a wild number is a wild and more: spend true wilds first
            out += [(i, "wild", None, color) for i in self.wildish if i != wt and counts[i]]
        return out

    # ------------------------------------------------------------------ the answer
    def _hits(self, sinks: list[_State], path: list, gain: list[int], sink_of: list) -> HitPlan:
        # A card no other group takes is worth keeping on a run; one that another
        # group takes goes there instead when it is the outermost card of its end.
        keep = list(path)
        changed = True
        while changed:
            changed = False
            outer: dict = {}
            for k, step in enumerate(keep):
                outer[(step[1], step[2])] = k
            for k in sorted(outer.values(), reverse=True):
                i, _, _, _, how, _ = keep[k]
                if how != "swap" and not gain[i]:
                    del keep[k]
                    changed = True
        used = Counter(i for i, *_ in keep)
        run_hits = []
        for i, gi, end, n, how, w in keep:
            card = self.types[i]
            if how == "natural":
                run_hits.append(Hit(card, gi, end))
            elif how == "wild":
                run_hits.append(Hit(card, gi, end, stands=n))
            else:
                run_hits.append(Hit(card, gi, end, swap=w, stands=n))
        sink_hits, left = [], []
        for card in self.hand:
            i = self.types.index(card)
            if used[i]:
                used[i] -= 1
                continue
            st = sink_of[i]
            if st is None:
                left.append(card)
                continue
            gi = self.sink_groups[next(k for k, s in enumerate(sinks) if s is st)]
            _, _, stands = _options(st, card)[0]
            sink_hits.append(Hit(card, gi, None, None, stands))
        return HitPlan((*sink_hits, *run_hits), tuple(left), exact=not self.cut)
