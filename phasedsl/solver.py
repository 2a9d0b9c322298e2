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

from .cards import SKIP, WILD, Card, Deck
from .meld import LaidGroup, Meld
from .phase import Group, Kind, Phase
from .rules import DEFAULT_RULES, Rules

# --------------------------------------------------------------------------
# Static tables per deck: card types are indexed color-major, t = ci*nn + ni.


@dataclass(frozen=True)
class _Tables:
    deck: Deck
    nc: int
    nn: int
    num_mask: tuple[int, ...]  # types showing number index ni
    col_mask: tuple[int, ...]  # types of color index ci
    par_mask: tuple[int, ...]  # types of parity p (of the real number)
    index: dict  # natural Card -> type

    def card_of(self, t: int) -> Card:
        ci, ni = divmod(t, self.nn)
        return Card(ni + self.deck.low, self.deck.colors[ci])


@cache
def _tables(deck: Deck) -> _Tables:
    nc, nn = len(deck.colors), len(deck.numbers)
    num_mask = tuple(sum(1 << (ci * nn + ni) for ci in range(nc)) for ni in range(nn))
    col_mask = tuple(sum(1 << (ci * nn + ni) for ni in range(nn)) for ci in range(nc))
    par_mask = tuple(
        sum(num_mask[ni] for ni in range(nn) if (ni + deck.low) % 2 == p) for p in (0, 1)
    )
    index = {Card(ni + deck.low, c): ci * nn + ni for ci, c in enumerate(deck.colors)
             for ni in range(nn)}
    return _Tables(deck, nc, nn, num_mask, col_mask, par_mask, index)


# A class of a group: ``mask`` holds the card types it accepts; for a run,
# ``window`` is the tuple of number indices it covers (one card each).
@dataclass(frozen=True, slots=True)
class _Class:
    key: tuple
    mask: int
    window: tuple[int, ...] | None = None
    color: int | None = None  # color index, when the class fixes one
    number: int | None = None  # number index, when the class fixes one (sets)
    # How to read the class's capacity off a _Hand: (aggregate, index); for a
    # run, the window's number bits.
    agg: str = "mask"
    index: int = 0


@cache
def _classes(group: Group, deck: Deck) -> tuple[_Class, ...]:
    tb = _tables(deck)
    nc, nn = tb.nc, tb.nn
    k, size = group.kind, group.size
    out: list[_Class] = []
    if k is Kind.SET:
        out = [_Class(("n", ni), tb.num_mask[ni], number=ni, agg="num", index=ni)
               for ni in range(nn)]
    elif k is Kind.COLOR_SET:
        out = [
            _Class(("cn", ci, ni), 1 << (ci * nn + ni), color=ci, number=ni, agg="type",
                   index=ci * nn + ni)
            for ci in range(nc)
            for ni in range(nn)
        ]
    elif k is Kind.COLOR:
        out = [_Class(("c", ci), tb.col_mask[ci], color=ci, agg="col", index=ci)
               for ci in range(nc)]
    elif k is Kind.EVEN_ODD:
        out = [_Class(("p", p), tb.par_mask[p], agg="par", index=p) for p in (0, 1)]
    elif k is Kind.COLOR_EVEN_ODD:
        out = [
            _Class(("cp", ci, p), tb.col_mask[ci] & tb.par_mask[p], color=ci, agg="cp",
                   index=ci * 2 + p)
            for ci in range(nc)
            for p in (0, 1)
        ]
    elif k is Kind.RUN or k is Kind.COLOR_RUN:
        # Per number, the types a run may use there.
        allowed: list[int] = []
        for ni in range(nn):
            cs = group.allowed(ni + deck.low)
            if cs is None:
                allowed.append(tb.num_mask[ni])
            else:
                allowed.append(
                    sum(1 << (ci * nn + ni) for ci, c in enumerate(deck.colors) if c in cs)
                )
        colors = range(nc) if k is Kind.COLOR_RUN else [None]
        for ci in colors:
            for a in range(nn - size + 1):
                window = tuple(range(a, a + size))
                mask = 0
                for ni in window:
                    m = allowed[ni] if ci is None else allowed[ni] & tb.col_mask[ci]
                    if not m:
                        break
                    mask |= m
                else:
                    key = ("r", a) if ci is None else ("cr", ci, a)
                    winbits = sum(1 << ni for ni in window)
                    if group.colors is not None:
                        agg = "mrun"
                    elif ci is None:
                        agg = "run"
                    else:
                        agg = "crun"
                    out.append(_Class(key, mask, window, color=ci, agg=agg, index=winbits))
    return tuple(out)


def _bits(mask: int) -> Iterable[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


# --------------------------------------------------------------------------
# Max flow with per-group lower bounds (tiny graphs: plain augmenting paths).


class _Flow:
    __slots__ = ("adj", "cap", "head", "to")

    def __init__(self) -> None:
        self.to: list[int] = []
        self.cap: list[int] = []
        self.adj: list[list[int]] = [[], []]  # 0 = source, 1 = sink

    def node(self) -> int:
        self.adj.append([])
        return len(self.adj) - 1

    def edge(self, u: int, v: int, c: int) -> int:
        self.adj[u].append(len(self.to))
        self.to.append(v)
        self.cap.append(c)
        self.adj[v].append(len(self.to))
        self.to.append(u)
        self.cap.append(0)
        return len(self.to) - 2

    def run(self) -> int:
        total = 0
        while True:
            seen = [False] * len(self.adj)
            seen[0] = True
            pushed = self._push(0, 1 << 30, seen)
            if not pushed:
                return total
            total += pushed

    def _push(self, u: int, f: int, seen: list[bool]) -> int:
        if u == 1:
            return f
        for e in self.adj[u]:
            v = self.to[e]
            if self.cap[e] > 0 and not seen[v]:
                seen[v] = True
                got = self._push(v, min(f, self.cap[e]), seen)
                if got:
                    self.cap[e] -= got
                    self.cap[e ^ 1] += got
                    return got
        return 0


def _assign(
    chosen: Sequence[_Class],
    sizes: Sequence[int],
    lower: Sequence[int],
    cnt: Sequence[int],
    present: int,
    virtual: int,
    nn: int,
) -> tuple[int, list[dict]] | None:
    """Most naturals the chosen classes can place together, honoring lower bounds.

    Returns (naturals placed, per group {type: count}); virtual cards (stand-ins
    for cards not yet drawn) are reported under the key None.  None when the
    lower bounds cannot all be met.
    """
    fl = _Flow()
    type_node: dict[int, int] = {}
    sink_edges: list[int] = []
    in_edges: list[list[tuple[int | None, int]]] = []
    for cl, size in zip(chosen, sizes, strict=True):
        g = fl.node()
        sink_edges.append(fl.edge(g, 1, 0))
        mine: list[tuple[int | None, int]] = []
        per_number: dict[int, int] = {}
        for t in _bits(cl.mask & present):
            if t not in type_node:
                type_node[t] = fl.node()
                fl.edge(0, type_node[t], cnt[t])
            if cl.window is None:
                mine.append((t, fl.edge(type_node[t], g, size)))
                continue
            # a run takes one card per number: route through a node per number
            ni = t % nn
            if ni not in per_number:
                per_number[ni] = fl.node()
                fl.edge(per_number[ni], g, 1)
            mine.append((t, fl.edge(type_node[t], per_number[ni], 1)))
        in_edges.append(mine)
    if virtual:
        v = fl.node()
        fl.edge(0, v, virtual)
        for gi, size in enumerate(sizes):
            in_edges[gi].append((None, fl.edge(v, fl.to[sink_edges[gi] ^ 1], size)))
    # Meet the lower bounds first; augmenting paths never take flow back off
    # an edge into the sink, so raising the caps afterwards keeps them met.
    for e, lo in zip(sink_edges, lower, strict=True):
        fl.cap[e] = lo
    need = sum(lower)
    if need and fl.run() < need:
        return None
    for e, lo, size in zip(sink_edges, lower, sizes, strict=True):
        fl.cap[e] += size - lo
    fl.run()
    placed = 0
    result: list[dict] = []
    for mine in in_edges:
        got: dict = {}
        for t, e in mine:
            f = fl.cap[e ^ 1]
            if f:
                got[t] = got.get(t, 0) + f
                if t is not None:
                    placed += f
        result.append(got)
    return placed, result


def _greedy(chosen: Sequence[_Class], sizes: Sequence[int], lower: Sequence[int],
            cnt: Sequence[int], present: int, nn: int) -> tuple[int, list[dict]] | None:
    """A quick allocation for competing groups: lower bounds first, then fill.

    Not always optimal; a success is a valid answer, a failure sends the
    caller to the exact flow.
    """
    rem = list(cnt)
    got: list[dict] = [{} for _ in chosen]
    used_nums: list[set] = [set() for _ in chosen]
    room = list(sizes)
    placed = 0
    for phase_ in (0, 1):
        for gi, cl in enumerate(chosen):
            want = lower[gi] if phase_ == 0 else room[gi]
            for t in _bits(cl.mask & present):
                if want <= 0:
                    break
                k = rem[t]
                if not k:
                    continue
                if cl.window is not None:
                    ni = t % nn
                    if ni in used_nums[gi]:
                        continue
                    used_nums[gi].add(ni)
                    k = 1
                k = min(k, want)
                rem[t] -= k
                got[gi][t] = got[gi].get(t, 0) + k
                want -= k
                room[gi] -= k
                placed += k
            if phase_ == 0 and want > 0:
                return None
    return placed, got


def _upper(chosen: Sequence[_Class], sizes: Sequence[int], cnt: Sequence[int], present: int,
           nn: int) -> int:
    """An upper bound on the naturals competing groups can place together.

    Each card type gives at most its count, and at most what the groups that
    accept it can hold of it (one per run); each group at most its size.
    """
    per_type: dict[int, int] = {}
    total_caps = 0
    for cl, size in zip(chosen, sizes, strict=True):
        take = 1 if cl.window is not None else size
        m = cl.mask & present
        room = 0
        nums = 0
        for t in _bits(m):
            per_type[t] = per_type.get(t, 0) + take
            if cl.window is None:
                room += cnt[t]
            else:
                nums |= 1 << (t % nn)
        total_caps += min(size, room) if cl.window is None else nums.bit_count()
    by_type = sum(min(cnt[t], k) for t, k in per_type.items())
    return min(by_type, total_caps)


# --------------------------------------------------------------------------
# The search.


@dataclass(frozen=True, slots=True)
class _Plan:
    """What one group ends up with: its class, and the naturals it takes."""

    cls: _Class | None
    naturals: dict  # type index -> count (None -> virtual cards)


class _Hand:
    """A hand's natural cards as counts, with the aggregates classes read."""

    __slots__ = ("by_col", "by_cp", "by_num", "by_par", "cnt", "col_nums", "nums", "present")

    def __init__(self, cnt: Sequence[int], tb: _Tables) -> None:
        nn, nc, low = tb.nn, tb.nc, tb.deck.low
        self.cnt = cnt
        by_num = [0] * nn
        by_col = [0] * nc
        by_cp = [0] * (2 * nc)
        col_nums = [0] * nc
        present = 0
        for t in range(len(cnt)):
            c = cnt[t]
            if c:
                ci, ni = divmod(t, nn)
                present |= 1 << t
                by_num[ni] += c
                by_col[ci] += c
                by_cp[2 * ci + (ni + low) % 2] += c
                col_nums[ci] |= 1 << ni
        nums = 0
        for m in col_nums:
            nums |= m
        self.present, self.by_num, self.by_col, self.by_cp = present, by_num, by_col, by_cp
        self.by_par = [sum(by_cp[0::2]), sum(by_cp[1::2])]
        self.col_nums, self.nums = col_nums, nums

    def cap(self, cl: _Class, size: int, nn: int) -> int:
        """How many naturals a group of this class could take on its own."""
        agg = cl.agg
        if agg == "num":
            c = self.by_num[cl.index]
        elif agg == "run":
            return (self.nums & cl.index).bit_count()
        elif agg == "crun":
            return (self.col_nums[cl.color] & cl.index).bit_count()
        elif agg == "col":
            c = self.by_col[cl.index]
        elif agg == "type":
            c = self.cnt[cl.index]
        elif agg == "cp":
            c = self.by_cp[cl.index]
        elif agg == "par":
            c = self.by_par[cl.index]
        else:  # a run with a color map: numbers where an allowed color is present
            nums = 0
            for t in _bits(cl.mask & self.present):
                nums |= 1 << (t % nn)
            return nums.bit_count()
        return c if c < size else size


@dataclass(frozen=True)
class _Layout:
    """What a phase needs, prepared once per (phase groups, rules)."""

    order: tuple[int, ...]  # groups needing naturals, most demanding first
    groups: tuple[Group, ...]  # those groups, in that order
    sizes: tuple[int, ...]
    lower: tuple[int, ...]
    classes: tuple[tuple[_Class, ...], ...]
    same_as_prev: tuple[bool, ...]
    need_w: int
    need_s: int


def _as_played(g: Group, rules: Rules) -> Group:
    if rules.runs_one_color and g.kind is Kind.RUN:
        return Group(Kind.COLOR_RUN, g.size, g.colors)
    return g


@cache
def _layout(groups: tuple[Group, ...], rules: Rules) -> _Layout:
    idx = [i for i, g in enumerate(groups) if g.kind.needs_natural]
    order = sorted(idx, key=lambda i: (-groups[i].size, groups[i].kind.value, i))
    gs = tuple(groups[i] for i in order)
    per_group = rules.natural_scope == "group"
    return _Layout(
        order=tuple(order),
        groups=gs,
        sizes=tuple(g.size for g in gs),
        lower=tuple(min(rules.min_naturals, g.size) if per_group else 0 for g in gs),
        classes=tuple(_classes(_as_played(g, rules), rules.deck) for g in gs),
        same_as_prev=tuple(j > 0 and gs[j] == gs[j - 1] for j in range(len(gs))),
        need_w=sum(g.size for g in groups if g.kind is Kind.WILD),
        need_s=sum(g.size for g in groups if g.kind is Kind.SKIP),
    )


def _search(
    groups: tuple[Group, ...],
    cnt: Sequence[int],
    wilds: int,
    skips: int,
    rules: Rules,
    virtual: int = 0,
) -> list[_Plan] | None:
    """An assignment making every group, or None when none exists."""
    tb = _tables(rules.deck)
    nn = tb.nn
    lay = _layout(groups, rules)
    # Wild and skip parts take their cards first: nothing else can use skips,
    # and wilds in a wild part are simply spent.
    free_w = wilds - lay.need_w
    need_s = lay.need_s
    if rules.wild_as_skip and need_s > skips:
        free_w -= need_s - skips
        need_s = skips
    if virtual:
        # cards not yet drawn can be the wilds or skips a part lacks
        virtual -= max(0, -free_w) + max(0, need_s - skips)
        free_w, need_s = max(free_w, 0), min(need_s, skips)
    if free_w < 0 or need_s > skips or virtual < 0:
        return None
    if not lay.order:
        return [_Plan(None, {}) for _ in groups]
    hand = _Hand(cnt, tb)
    present = hand.present
    sizes, lower, gs = lay.sizes, lay.lower, lay.groups
    need = sum(sizes) - free_w  # naturals (real or virtual) that must be placed
    if rules.natural_scope != "group":
        need = max(need, rules.min_naturals)
    n = len(gs)
    cands: list[list[tuple[int, _Class]]] = []
    best_rest = [0] * (n + 1)
    for j in range(n):
        size, lo = sizes[j], lower[j] - virtual
        cs = []
        for cl in lay.classes[j]:
            c = hand.cap(cl, size, nn)
            if c >= lo:
                cs.append((c, cl))
        if not cs:
            return None
        cs.sort(key=lambda x: -x[0])
        cands.append(cs)
    for j in range(n - 1, -1, -1):
        best_rest[j] = best_rest[j + 1] + cands[j][0][0]
    if best_rest[0] + virtual < need:
        return None
    same_as_prev = lay.same_as_prev
    distinct = not rules.sets_share_number
    chosen: list[_Class] = [cands[0][0][1]] * n
    pos = [0] * n
    found: list[list[_Plan]] = []

    def leaf(overlap: bool) -> bool:
        if not overlap and not virtual:
            plans = [_Plan(cl, _take(cl, size, cnt, present, nn))
                     for cl, size in zip(chosen, sizes, strict=True)]
            found.append(_reorder(plans, lay.order, groups))
            return True
        if _upper(chosen, sizes, cnt, present, nn) + virtual < need:
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

    def dfs(j: int, total: int, overlap: bool, used_numbers: frozenset) -> bool:
        if j == n:
            return leaf(overlap)
        cs = cands[j]
        is_set = distinct and gs[j].kind.is_set
        for k in range(pos[j - 1] if same_as_prev[j] else 0, len(cs)):
            cap, cl = cs[k]
            if total + cap + best_rest[j + 1] + virtual < need:
                break  # caps are sorted: no later class can do better
            if is_set and cl.number in used_numbers:
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
            if dfs(j + 1, total + cap, ov, un):
                return True
        return False

    if not dfs(0, 0, False, frozenset()):
        return None
    return found[0]


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
    out: list[_Plan] = [_Plan(None, {}) for _ in groups]
    for p, i in zip(plans, order, strict=True):
        out[i] = p
    return out


# --------------------------------------------------------------------------
# Public API.


def hand_counts(hand: Iterable[Card], rules: Rules = DEFAULT_RULES) -> tuple[list[int], int, int]:
    """(natural counts by type, wilds, skips) of a hand."""
    tb = _tables(rules.deck)
    index = tb.index
    cnt = [0] * (tb.nc * tb.nn)
    w = s = 0
    for c in hand:
        t = index.get(c)
        if t is not None:
            cnt[t] += 1
        elif c.wild:
            w += 1
        elif c.skip:
            s += 1
        else:
            raise ValueError(f"{c} is not a card of this deck")
    return cnt, w, s


def _postal_variants(cnt: list[int], wilds: int, rules: Rules, tb: _Tables):
    """Every way of playing wild-number cards as wilds (most converted first)."""
    if not rules.wild_numbers:
        yield cnt, wilds, {}
        return
    flex = [t for t, c in enumerate(cnt) if c and (t % tb.nn) + rules.deck.low in rules.wild_numbers]
    if not flex:
        yield cnt, wilds, {}
        return
    ranges = [range(cnt[t], -1, -1) for t in flex]
    for ks in product(*ranges):
        c2 = list(cnt)
        for t, k in zip(flex, ks, strict=True):
            c2[t] -= k
        yield c2, wilds + sum(ks), {t: k for t, k in zip(flex, ks, strict=True) if k}


def find(phase: Phase, hand: Iterable[Card], rules: Rules = DEFAULT_RULES) -> Meld | None:
    """A meld of ``hand`` that makes ``phase``, or None when no meld exists."""
    groups = phase.groups
    tb = _tables(rules.deck)
    cnt, w, s = hand_counts(hand, rules)
    for c2, w2, converted in _postal_variants(cnt, w, rules, tb):
        plans = _search(groups, c2, w2, s, rules)
        if plans is not None:
            return _build(groups, plans, c2, w2, s, rules, converted)
    return None


def can_make(phase: Phase, hand: Iterable[Card], rules: Rules = DEFAULT_RULES) -> bool:
    return find(phase, hand, rules) is not None


def _build(groups, plans: list[_Plan], cnt, wilds: int, skips: int, rules: Rules,
           converted: dict) -> Meld:
    """Turn plans into laid cards: runs in order, each wild saying what it stands for."""
    tb = _tables(rules.deck)
    deck = rules.deck
    # Cards of wild numbers played as wilds are shown as themselves in the meld
    # (they are real cards in the hand) but count as wilds.
    wild_cards: list[Card] = [WILD] * wilds
    pos = 0
    for t, k in converted.items():
        # replace plain wilds at the end of the pool with the converted cards
        for _ in range(k):
            wild_cards[len(wild_cards) - 1 - pos] = tb.card_of(t)
            pos += 1
    wild_cards.reverse()  # converted cards are spent first: real wilds stay free longest

    def take_wild(number: int | None, color: str | None) -> Card:
        c = wild_cards.pop()
        if c.wild:
            return Card(number, color, wild=True)
        return c

    laid: list[LaidGroup] = []
    skips_left = skips
    for g, plan in zip(groups, plans, strict=True):
        if g.kind is Kind.WILD:
            laid.append(LaidGroup(g, tuple(take_wild(None, None) for _ in range(g.size))))
            continue
        if g.kind is Kind.SKIP:
            cards = []
            for _ in range(g.size):
                if skips_left:
                    skips_left -= 1
                    cards.append(SKIP)
                else:
                    cards.append(take_wild(None, None))
            laid.append(LaidGroup(g, tuple(cards)))
            continue
        cl = plan.cls
        nats = plan.naturals
        virt = nats.get(None, 0)
        color = deck.colors[cl.color] if cl.color is not None else None
        if cl.window is not None:
            by_num = {}
            for t, k in nats.items():
                if t is not None and k:
                    by_num[t % tb.nn] = tb.card_of(t)
            cards = []
            for ni in cl.window:
                if ni in by_num:
                    cards.append(by_num[ni])
                elif virt:
                    virt -= 1
                    cards.append(Card(ni + deck.low, color, wild=True))  # placeholder
                else:
                    cards.append(take_wild(ni + deck.low, color))
            laid.append(LaidGroup(g, tuple(cards)))
            continue
        cards = []
        for t, k in sorted(((t, k) for t, k in nats.items() if t is not None),
                           key=lambda x: (x[0] % tb.nn, x[0])):
            cards += [tb.card_of(t)] * k
        number = cl.number + deck.low if cl.number is not None else None
        if not cards and number is None and g.kind is Kind.SET:
            number = deck.high
        while len(cards) < g.size:
            cards.append(take_wild(number, color))
        laid.append(LaidGroup(g, tuple(cards)))
    return Meld(tuple(laid))
