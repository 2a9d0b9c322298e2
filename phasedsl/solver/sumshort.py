"""How close a hand is to a phase holding a sum: the shortfall and the outs.

The fill search counts cards per class, which a sum is not, so here the sums' own search
(sums.py) answers with cards still to come: the fewest of them (any cards: each can be
the number a sum lacks, or a natural another group lacks) that let the phase be made is
the shortfall, exact as that search is.  One short, every unseen card is tried with the
hand (the outs, each confirmed by the search); more, the plan's cards to come are picked
from what is left of the deck as an example, which the search confirms.  Past the
budget the count is a range and, at 0, undecided, as for every other phase.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..model.cards import SKIP, WILD, Card
from ..model.phase import Phase
from ..model.rules import Rules
from . import budget
from .answers import Assessment, Out, Shortfall
from .budget import SearchLimit
from .classes import tables
from .completions import example_completion, unseen_pool
from .handcounts import Hand
from .laying import find_sums, postal_variants, sum_meld
from .search import Layout
from .sums import SumSolution, natural_floor, plain_rules, search_sums


def assess_sums(phase: Phase, lay: Layout, h: Hand, hand: Sequence[Card], rules: Rules,
                seen: tuple[Card, ...], never: str | None, started: float,
                outs: bool = True) -> Assessment:
    """``assess`` for a phase holding a sum, within the searches' seconds from ``started``
    (one short: with the outs unless ``outs`` is false)."""
    need = lay.total + lay.need_w + lay.need_s
    if never:
        return Assessment(None, Shortfall(need, possible=False, never=never))
    deadline = started + budget.SEARCH_SECONDS
    plain = plain_rules(rules)
    # each card of the fewest a meld holds comes from the hand or is still to come
    least = max(0, need - (h.nat + h.wilds + h.skips))
    # cards still to come in every slot make it, and under the per-phase minimum a sum of
    # any count may want that many more naturals
    most = need + (rules.min_naturals if rules.natural_scope == "phase" else 0)
    k = least
    try:
        for k in range(least, most + 1):
            found = next(((sol, converted) for h2, converted in
                          postal_variants(h, rules, lay.tb, natural_floor(lay.all_groups, rules))
                          if (sol := search_sums(lay.all_groups, h2, plain, k, deadline))
                          is not None), None)
            if found is None:
                continue
            sol, converted = found
            if k == 0:
                return Assessment(sum_meld(lay, sol, converted), Shortfall(0))
            if k == 1 and not outs:
                return Assessment(None, Shortfall(1))
            if k == 1:
                return _one_short(lay, hand, rules, seen, deadline)
            example, groups, stocked = _example(lay, sol, hand, rules, seen, k)
            try:  # the count is exact; whether the example's cards complete it is confirmed
                made = stocked and find_sums(lay, Hand.of([*hand, *example], lay.tb), rules,
                                             deadline) is not None
            except SearchLimit:
                made = False  # (not confirmed in time: said as "may not hold the cards")
            return Assessment(None, Shortfall(k, (), example, groups, made))
    except SearchLimit:
        if k == 0:
            return Assessment(None, Shortfall(0, exact=False, at_most=need, decided=False,
                                              possible=False))
        return Assessment(None, Shortfall(k, exact=False, at_most=need, possible=False))
    return Assessment(None, Shortfall(most, possible=False))


def _one_short(lay: Layout, hand: Sequence[Card], rules: Rules, seen: tuple[Card, ...],
               deadline: float) -> Assessment:
    """One card short: every unseen card that makes the phase with the hand."""
    tb = lay.tb
    h = Hand.of(hand, tb)
    pool, wilds, skips = unseen_pool(h, rules, seen)
    tries = [(tb.cards[t], n) for t in sorted(range(len(pool)), key=tb.sort_key)
             if (n := pool[t]) > 0]
    tries += [(c, n) for c, n in ((WILD, wilds), (SKIP, skips)) if n > 0]
    found: list[Out] = []
    every = True
    for card, n in tries:
        try:
            if find_sums(lay, Hand.of([*hand, card], tb), rules, deadline) is not None:
                found.append(Out(card, n))
        except SearchLimit:
            every = False
            break
    example = (found[0].card,) if found else ()
    if not every:
        return Assessment(None, Shortfall(1, tuple(found), example, (), bool(found),
                                          exact=False, at_most=1))
    return Assessment(None, Shortfall(1, tuple(found), example, (), bool(found)))


def _example(lay: Layout, sol: SumSolution, hand: Sequence[Card], rules: Rules,
             seen: tuple[Card, ...], k: int) -> tuple[tuple[Card, ...], tuple, bool]:
    """Cards for the solution's cards to come, the groups they go to, and whether what is
    left of the deck holds them."""
    tb = tables(rules.deck)
    pool, _, _ = unseen_pool(Hand.of(hand, tb), rules, seen)
    out: list[Card] = []
    groups = []
    for gi, p in sol.sums.items():
        if p.virtual:
            groups.append(lay.all_groups[gi])
        for x in p.virtual:
            colors = [p.color] if p.color is not None else range(tb.nc)
            ts = [ci * tb.nn + x - rules.deck.low for ci in colors]
            t = max(ts, key=lambda t: pool[t])
            pool[t] -= 1
            out.append(tb.cards[t])
    if sol.rest_layout is not None and len(out) < k:
        rest_groups = sol.rest_layout.all_groups
        # the rest's pool is what is unseen once the sums' cards are counted out too
        taken = [tb.cards[t] for p in sol.sums.values() for t, n in p.naturals.items()
                 for _ in range(n)]
        more, real = example_completion(rest_groups, sol.rest_plans, sol.rest_hand,
                                        sol.rest_rules, k - len(out), (*seen, *taken, *out))
        out += more
        groups += [g for g, p in zip(rest_groups, sol.rest_plans, strict=True)
                   if p.naturals.get(None)]
        if real is False:
            return tuple(out), tuple(groups), False
    return tuple(out), tuple(groups), min(pool, default=0) >= 0
