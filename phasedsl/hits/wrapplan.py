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

from ..cards import Card
from ..layout import read_group
from ..meld import LaidGroup
from ..rules import Rules
from .laid import state_of
from .targets import Hit, targets


def wrapped_plan(laid: Sequence[LaidGroup], hand: list[Card], rules: Rules, budget: int
                 ) -> tuple[tuple[Hit, ...], tuple[Card, ...], bool, int]:
    """(hits in play order, cards left, whether no order places more, search nodes)."""
    nodes = 0
    exact = True
    memo: dict[tuple, tuple[int, tuple[Hit, ...]]] = {}

    def changing(i: int, lg: LaidGroup) -> bool:
        st = state_of(lg, i, rules)
        return st.kind.is_run or st.open_class

    def key(groups: Sequence[LaidGroup], left: Counter) -> tuple:
        return (tuple(lg.cards if changing(i, lg) else None for i, lg in enumerate(groups)),
                tuple(sorted((str(c), k) for c, k in left.items() if k)))

    def fixed_fit(groups: Sequence[LaidGroup], left: Counter) -> tuple[Hit, ...]:
        out = []
        for c, k in left.items():
            for h in targets(groups, c, rules):
                if h.swap is None and not changing(h.index, groups[h.index]):
                    out += [h] * k
                    break
        return tuple(out)

    def best(groups: tuple[LaidGroup, ...], left: Counter) -> tuple[int, tuple[Hit, ...]]:
        nonlocal nodes, exact
        k = key(groups, left)
        if k in memo:
            return memo[k]
        nodes += 1
        top = fixed_fit(groups, left)
        got = (len(top), top)
        total = sum(left.values())
        if nodes > budget:
            exact = False
        elif got[0] < total:
            for c in [c for c, n in left.items() if n]:
                for h in targets(groups, c, rules):
                    if h.swap is not None and h.end is None:
                        continue  # take-backs are tried before this search (plan)
                    if not changing(h.index, groups[h.index]):
                        continue  # counted by fixed_fit
                    new = _played(groups[h.index], h, rules)
                    if new is None:
                        continue
                    rest = left.copy()
                    rest[c] -= 1
                    n, hits = best((*groups[:h.index], new, *groups[h.index + 1:]), rest)
                    if n + 1 > got[0]:
                        got = (n + 1, (h, *hits))
                    if got[0] == total:
                        break
                if got[0] == total:
                    break
        memo[k] = got
        return got

    _, hits = best(tuple(laid), Counter(hand))
    left = Counter(hand)
    for h in hits:
        left[h.card] -= 1
    return hits, tuple(left.elements()), exact, nodes


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
