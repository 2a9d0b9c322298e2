"""How chosen groups share a hand's cards: exact joint counts and a max-flow with lower bounds.

When the classes chosen for two groups can take the same cards, what they
place together is less than the sum of what each could place alone.  Sets and
plain runs compete number by number, which has closed forms; anything else
goes to a small max-flow (cards -> groups) that also meets each group's
natural-card minimum.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import comb

from .classes import Class, bits
from .handcounts import Hand


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


def assign(
    chosen: Sequence[Class],
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
        for t in bits(cl.mask & present):
            if t not in type_node:
                type_node[t] = fl.node()
                fl.edge(0, type_node[t], cnt[t])
            if cl.window is None:
                mine.append((t, fl.edge(type_node[t], g, size)))
                continue
            # a run takes one card per number (a run of pairs two): a node per number
            ni = t % nn
            if ni not in per_number:
                per_number[ni] = fl.node()
                fl.edge(per_number[ni], g, cl.per)
            mine.append((t, fl.edge(type_node[t], per_number[ni], cl.per)))
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


def greedy(chosen: Sequence[Class], sizes: Sequence[int], lower: Sequence[int],
            cnt: Sequence[int], present: int, nn: int) -> tuple[int, list[dict]] | None:
    """A quick allocation for competing groups: lower bounds first, then fill.

    Lower bounds are met from the least contested cards, scarcest group first.
    Not always optimal; a success is a valid answer, a failure sends the caller
    to the exact flow.
    """
    rem = list(cnt)
    n = len(chosen)
    got: list[dict] = [{} for _ in chosen]
    used_nums: list[dict] = [{} for _ in chosen]  # a run's cards at each number
    room = list(sizes)
    placed = 0
    avail = [cl.mask & present for cl in chosen]

    def contention(t: int) -> int:
        return sum(1 for m in avail if m >> t & 1)

    def give(gi: int, t: int, k: int) -> int:
        nonlocal placed
        if chosen[gi].window is not None:
            ni = t % nn
            k = min(k, chosen[gi].per - used_nums[gi].get(ni, 0))
            if k <= 0:
                return 0
        k = min(k, rem[t], room[gi])
        if chosen[gi].window is not None:
            used_nums[gi][t % nn] = used_nums[gi].get(t % nn, 0) + k
        rem[t] -= k
        got[gi][t] = got[gi].get(t, 0) + k
        room[gi] -= k
        placed += k
        return k

    for gi in sorted(range(n), key=lambda i: avail[i].bit_count()):
        want = lower[gi]
        for t in sorted(bits(avail[gi]), key=contention):
            if want <= 0:
                break
            if rem[t]:
                want -= give(gi, t, want)
        if want > 0:
            return None
    for gi in range(n):
        for t in bits(avail[gi]):
            if not room[gi]:
                break
            if rem[t]:
                give(gi, t, room[gi])
    return placed, got


def upper_bound(chosen: Sequence[Class], sizes: Sequence[int], cnt: Sequence[int], present: int,
           nn: int) -> int:
    """An upper bound on the naturals competing groups can place together.

    Per number: no more than the hand holds of it (among accepted cards), and
    no more than the groups can take of it (a run one, another group up to its
    size); and no group more than its size.  Exact when only sets and plain
    runs compete, which is the common case.
    """
    supply: dict[int, int] = {}
    demand: dict[int, int] = {}
    total_caps = 0
    seen = 0
    for cl, size in zip(chosen, sizes, strict=True):
        m = cl.mask & present
        mine: dict[int, int] = {}
        for t in bits(m):
            ni = t % nn
            mine[ni] = mine.get(ni, 0) + cnt[t]
            if not seen >> t & 1:
                seen |= 1 << t
                supply[ni] = supply.get(ni, 0) + cnt[t]
        if cl.window is not None:
            per = cl.per
            for ni in mine:
                demand[ni] = demand.get(ni, 0) + per
            total_caps += sum(min(k, per) for k in mine.values())
        else:
            for ni, k in mine.items():
                demand[ni] = demand.get(ni, 0) + min(k, size)
            total_caps += min(size, sum(mine.values()))
    by_number = sum(min(k, demand[ni]) for ni, k in supply.items())
    return min(by_number, total_caps)


def pair_loss(a: Class, b: Class, sizes, hand: Hand) -> int:
    """How many fewer naturals two number-only groups place together than apart."""
    by_num = hand.by_num if hand.by_num is not None else hand._by_num()
    if a.window is None and b.window is None:  # two sets on one number
        c = by_num[a.number]
        return min(c, sizes[0]) + min(c, sizes[1]) - min(c, sizes[0] + sizes[1])
    if a.window is not None and b.window is not None:  # two runs: shared numbers held once
        shared = a.index & b.index & hand.nums
        return sum(1 for ni in bits(shared) if by_num[ni] < 2)
    run, st, size = (a, b, sizes[1]) if b.window is None else (b, a, sizes[0])
    c = by_num[st.number]
    return 1 if 0 < c <= size and run.index >> st.number & 1 else 0


def number_joint(chosen: Sequence[Class], sizes: Sequence[int], hand: Hand) -> int:
    """Exact naturals that sets and plain runs place together (minimums aside).

    Such groups compete number by number only: a set takes up to its size of
    its number, a run one card of each number in its window.
    """
    by_num = hand.by_num if hand.by_num is not None else hand._by_num()
    demand = [0] * len(by_num)
    for cl, size in zip(chosen, sizes, strict=True):
        if cl.window is None:
            demand[cl.number] += size
        else:
            for ni in cl.window:
                demand[ni] += 1
    return sum(map(min, by_num, demand))


def supply_of(cl: Class, hand: Hand) -> int:
    cnt = hand.cnt
    return sum(cnt[t] for t in bits(cl.mask & hand.present))


def color_run_block(classes: Sequence[Class], size: int, m: int, hand: Hand,
                     budget: int = 4000) -> int:
    """Most naturals ``m`` identical color runs can hold together.

    Runs of one color compete number by number: k of them on color c hold at
    most, summed over numbers, the lesser of the cards of that number and color
    and the runs covering it, for the best way to place the k windows (tried
    exhaustively while that takes fewer than ``budget`` steps, else counted
    loosely).  The colors then share the m runs as best they can.  What no
    per-group bound sees: ten runs of 9 in four two-copy colors hold 78, not 90.
    """
    nn, cnt = hand.nn, hand.cnt
    windows: dict[int, list[tuple[int, ...]]] = {}
    for cl in classes:
        windows.setdefault(cl.color, []).append(cl.window)
    memo: dict[tuple, list[int]] = {}
    dp = [0] + [-1] * m  # most naturals with j runs placed on the colors so far (-1: none)
    for ci, wins in windows.items():
        have = tuple(cnt[ci * nn + ni] for ni in range(nn))
        key = (have, tuple(wins))
        if key not in memo:
            memo[key] = _runs_on_one_color(have, wins, size, m, budget)
        f = memo[key]
        dp = [max([dp[j - k] + f[k] for k in range(j + 1) if dp[j - k] >= 0], default=-1)
              for j in range(m + 1)]
    return dp[m]


def _runs_on_one_color(have: tuple[int, ...], wins: list[tuple[int, ...]], size: int, m: int,
                       budget: int) -> list[int]:
    """For k = 0..m, the most naturals k runs over these windows hold from ``have``."""
    depth, nodes = 0, 1
    while depth < m:  # exact up to the depth the budget allows
        grow = comb(len(wins) + depth, depth + 1)
        if nodes + grow > budget:
            break
        nodes += grow
        depth += 1
    f = [0] * (m + 1)
    cov = [0] * len(have)

    def dfs(start: int, k: int) -> None:
        v = sum(map(min, have, cov))
        if v > f[k]:
            f[k] = v
        if k == depth:
            return
        for i in range(start, len(wins)):
            for ni in wins[i]:
                cov[ni] += 1
            dfs(i, k + 1)
            for ni in wins[i]:
                cov[ni] -= 1

    dfs(0, 0)
    for k in range(depth + 1, m + 1):
        f[k] = min(k * size, sum(min(h, k) for h in have))
    return f
