"""The hit plan where runs wrap from the deck's top number to its bottom (``runs_wrap``).

``plan.Search`` walks the numbers low to high, each run end reaching outward; an end
that runs on from 12 to 1 breaks that order.  Such a table is searched hit by hit
instead, exactly, within the same node budget: a card either goes to a group whose
state it changes (a run, or a group no natural has fixed yet), in every way ``targets``
offers, or is left for a fixed group (a set of 5s, an over-8 group, a wild part...),
which takes it whatever else is played, so those are counted at the end.  States are
remembered by what they can still take, so no order is searched twice.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from ...model.cards import Card
from ...model.meld import LaidGroup
from ...model.rules import Rules
from ..layout import read_group
from .laid import state_of
from .targets import Hit, targets


def wrapped_plan(laid: Sequence[LaidGroup], hand: list[Card], rules: Rules, budget: int
                 ) -> tuple[tuple[Hit, ...], tuple[Card, ...], bool, int]:
    """(hits in play order, cards left, whether no order places more, search nodes)."""
    nodes = 0
    exact = True
    memo: dict[tuple, tuple[int, tuple[Hit, ...]]] = {}
    # the groups a card can change (runs, groups no natural has fixed yet); the others
    # take what they take whatever is played, so each card's place there is found once
    moving = [i for i, lg in enumerate(laid)
              if (lambda st: st.kind.is_run or st.open_class)(state_of(lg, i, rules))]
    fixed = [lg for i, lg in enumerate(laid) if i not in moving]
    fixed_at = [i for i in range(len(laid)) if i not in moving]
    sink: dict[Card, Hit | None] = {}
    for c in set(hand):
        got = next((h for h in targets(fixed, c, rules) if h.swap is None), None)
        sink[c] = None if got is None else replace(got, index=fixed_at[got.index])

    bound = _most_placeable(laid, moving, hand, sink, rules)
    done = False  # a plan placing ``bound`` cards is found: nothing places more

    def best(groups: tuple[LaidGroup, ...], left: tuple[tuple[Card, int], ...], before: int = 0
             ) -> tuple[int, tuple[Hit, ...]]:
        nonlocal nodes, exact, done
        k = (tuple(groups[i].cards for i in moving), left)
        if k in memo:
            return memo[k]
        nodes += 1
        top = tuple(h for c, n in left if (h := sink[c]) is not None for _ in range(n))
        got = (len(top), top)
        total = sum(n for _, n in left)
        if nodes > budget:
            exact = False
            got = greedy(groups, left)
        elif before + got[0] >= bound:
            done = True
        elif got[0] < total:
            for j, (c, n) in enumerate(left):
                rest = (*left[:j], (c, n - 1), *left[j + 1:]) if n > 1 else \
                    (*left[:j], *left[j + 1:])
                for i in moving:
                    nodes += 1
                    for h in targets([groups[i]], c, rules):
                        if h.swap is not None and h.end is None:
                            continue  # take-backs are tried before this search (plan)
                        nodes += 4  # reading the group again costs about four targets
                        if nodes > budget:
                            exact = False
                            break
                        new = _played(groups[i], h, rules)
                        if new is None:
                            continue
                        got_n, hits = best((*groups[:i], new, *groups[i + 1:]), rest,
                                           before + 1)
                        if got_n + 1 > got[0]:
                            got = (got_n + 1, (replace(h, index=i), *hits))
                        if got[0] == total or nodes > budget or done:
                            break
                    if got[0] == total or nodes > budget or done:
                        break
                if got[0] == total or nodes > budget or done:
                    break
        memo[k] = got
        return got

    def greedy(groups: tuple[LaidGroup, ...], left: tuple[tuple[Card, int], ...]
               ) -> tuple[int, tuple[Hit, ...]]:
        """Past the budget: each card, round after round, onto the first group that takes
        it now, until no card fits; the rest where fixed groups take them."""
        groups, have = list(groups), dict(left)
        hits: list[Hit] = []
        moved = True
        while moved:
            moved = False
            for c in list(have):
                for i in moving:
                    while have[c]:
                        played = next(((h, new) for h in targets([groups[i]], c, rules)
                                       if not (h.swap is not None and h.end is None)
                                       and (new := _played(groups[i], h, rules)) is not None),
                                      None)
                        if played is None:
                            break
                        hits.append(replace(played[0], index=i))
                        groups[i] = played[1]
                        have[c] -= 1
                        moved = True
        hits += [h for c, n in have.items() if (h := sink[c]) is not None for _ in range(n)]
        return len(hits), tuple(hits)

    counts = Counter(hand)
    start = tuple(sorted(counts.items(), key=lambda x: str(x[0])))
    _, hits = best(tuple(laid), start)
    left = Counter(hand)
    for h in hits:
        left[h.card] -= 1
    # (a search cut at its budget may have stopped between checks: past it, not exact)
    return hits, tuple(left.elements()), exact and (done or nodes <= budget), nodes


def _most_placeable(laid: Sequence[LaidGroup], moving: list[int], hand: list[Card],
                    sink: dict, rules: Rules) -> int:
    """An upper bound on the cards any order places: a card a fixed group or a group no
    natural has fixed takes now, or one of a number some run end can reach, one number
    at a time outward, each with a natural of the hand that may stand there or a wild
    (every wild for every end: a bound, not a plan)."""
    spare = sum(1 for c in hand if c.wild or (c.natural and c.number in rules.wild_numbers))
    naturals = [c for c in set(hand) if c.natural]
    reach: list[tuple[object, int]] = []  # (run state, number) an end can reach
    open_wild = False
    for i in moving:
        st = state_of(laid[i], i, rules)
        if not st.kind.is_run:
            continue
        for side in ("low", "high"):
            low, high, left = st.low, st.high, spare
            while True:
                n = st.slot(side, low, high)
                if n is None:
                    break
                open_wild = True
                if not any(c.number == n and st.color_ok(st.color, c.color, n)
                           for c in naturals):
                    if not left:
                        break
                    left -= 1
                reach.append((st, n))
                low, high = (low - 1, high) if side == "low" else (low, high + 1)
    others = [laid[i] for i in moving if not state_of(laid[i], i, rules).kind.is_run]
    most = 0
    by_run: dict[int, int] = {}  # number -> cards of it only runs may take
    for c in hand:
        if sink.get(c) is not None or (others and targets(others, c, rules)):
            most += 1
        elif c.wild or (c.natural and c.number in rules.wild_numbers):
            most += open_wild
        elif c.natural and any(n == c.number and st.color_ok(st.color, c.color, n)
                               for st, n in reach):
            by_run[c.number] = by_run.get(c.number, 0) + 1
    # a run holds each number once: no more cards of a number than runs reaching it
    for n, k in by_run.items():
        most += min(k, len({id(st) for st, m in reach if m == n}))
    return most


def _played(lg: LaidGroup, h: Hit, rules: Rules) -> LaidGroup | None:
    """The group once the hit is played (None if the group would break a rule)."""
    read, _ = read_group(lg.group, lg.cards, rules)
    if read is None:
        return None
    cards = list(read)
    placed = h.card if h.stands is None else Card(h.stands, h.card.color, wild=True)
    if h.swap is not None:  # Utah: the card takes the wild's place, the wild goes to the end
        at = next((k for k, c in enumerate(cards) if c.wild and c.number == h.card.number), None)
        if at is None:
            return None
        cards[at] = h.card
        placed = Card(h.stands, None, wild=True)
    cards = [placed, *cards] if h.end == "low" else [*cards, placed]
    got, problems = read_group(lg.group, cards, rules)
    if got is None or problems:
        return None
    return LaidGroup(lg.group, got)
