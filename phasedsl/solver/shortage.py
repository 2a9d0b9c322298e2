"""How close a hand is to a phase: ``assess``, ``shortfall`` and ``outs`` (``cards_short``:
the count alone, where the counts say it).

The most cards of the hand the phase can hold (the fill search) answers both questions
at once: all of them, and the solver lays the meld; fewer, and the rest are the
shortfall, with an example completion and, one card short, the outs (``completions``).
The commonest shapes are answered from the counts first: a phase of one group here
(``_one_group_short``), two sets or a set and a run in ``closedshort``.  Past a search's
budget the answer is a range ("at least N short"), labelled as not exact; where the range
reaches 0 and the solver's own search stops at its budget too, whether the hand makes the
phase is undecided (``Shortfall.decided`` false), an answer rather than an error.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from ..model.cards import SKIP, Card
from ..model.coerce import hand_args
from ..model.group import Group
from ..model.phase import Phase
from ..model.rules import DEFAULT_RULES, Rules
from . import blueskips, budget
from .answers import Assessment, Out, Shortfall, unseen_counts
from .budget import SearchLimit
from .classes import Plan
from .closedshort import (
    set_run_counter,
    set_run_missing,
    set_run_shape,
    set_run_short,
    two_sets_missing,
    two_sets_shape,
    two_sets_short,
)
from .completions import (
    completion,
    example_completion,
    group_lacks,
    one_group_example,
    one_group_outs,
    outs_of_one_short,
    unseen_pool,
)
from .fill import Fill, Fixed, fill_hand, fill_value
from .handcounts import Hand
from .impossible import impossible_group
from .laying import build_meld, find, find_counted
from .search import Layout, layout_for, reorder
from .sumshort import assess_sums


def _never(phase: Phase, rules: Rules) -> str | None:
    """Why no hand can make the phase (lint's reason)."""
    if (rules.min_naturals <= 1 and rules.deck.copies >= 1 and rules.natural_scope == "group"
            and all(g.colors is None and not g.kind.is_sum for g in phase.groups)):
        return None  # every group shape has a natural card in such a deck (a sum: not so)
    return impossible_group(phase, rules)


# Per layout (it holds the phase's groups and the rules): why no hand can make it, and which
# closed form answers it.  Each entry holds its layout, so the id stays its own.
_ROUTES: dict[int, tuple[Layout, str | None, int]] = {}
# The last route asked (a bot asks of one phase many times running: no id() call, no look-up)
_LAST_ROUTE: list[tuple] = [(None, None, 0)]


_ONE_GROUP, _TWO_SETS, _SET_RUN = 1, 2, 3


def _route(phase: Phase, lay: Layout, rules: Rules) -> tuple[Layout, str | None, int]:
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


def _route_of(phase: Phase, lay: Layout, rules: Rules) -> tuple[Layout, str | None, int]:
    """The layout's route: the last one asked (a bot asks of one phase many times
    running), else from ``_ROUTES``."""
    route = _LAST_ROUTE[0]
    if route[0] is not lay:
        route = _ROUTES.get(id(lay))
        if route is None or route[0] is not lay:
            route = _route(phase, lay, rules)
        _LAST_ROUTE[0] = route
    return route


def assess(phase: Phase, hand: Sequence[Card], rules: Rules = DEFAULT_RULES,
           seen: Iterable[Card] = (), *, outs: bool = True) -> Assessment:
    """Does the hand make the phase (with the meld), or how many cards short is it.

    The most cards of the hand the phase can hold answers both at once: all of
    them, and the solver lays the meld; fewer, and the rest are the shortfall.
    With ``outs`` false a hand one short may come without its outs: the same count, the
    outs left out where they cost a search (for callers that only measure hands, where the
    outs are most of the work).
    """
    started = budget.now()
    phase, hand, rules, seen = hand_args("assess", phase, hand, rules, seen)
    return _assess_read(phase, hand, rules, seen, started, outs)


def _assess_read(phase: Phase, hand: Sequence[Card], rules: Rules, seen: Sequence[Card],
                 started: float, outs: bool) -> Assessment:
    """``assess`` of arguments already read as their types."""
    got = _assess(phase, hand, rules, seen, started, outs)
    if got.meld is None and got.shortfall.never is None and rules.skip_counts_as_blue \
            and blueskips.applies(phase.groups, rules):
        return _assess_blue(phase, hand, rules, seen, got, outs)
    return got


def _assess_blue(phase: Phase, hand: Sequence[Card], rules: Rules, seen: Sequence[Card],
                 base: Assessment, want_outs: bool = True) -> Assessment:
    """``assess`` under skip_counts_as_blue, for a hand the plain reading leaves short: made
    when some way of laying skips as blue cards makes it; else the fewest cards short over
    every such way (a skip drawn counts as a wild there: a wild fills any slot such a skip
    fills), and one short, every card that completes some way, a skip among them."""
    sf, groups = base.shortfall, phase.groups
    if not sf.decided:
        return base  # the plain reading is past the budget already
    spare = blueskips.spare_skips(groups, _skips(hand))
    # Each skip laid as blue fills one slot a card would fill (a wild, say): the plain
    # reading is short by at most that many more.  So a hand short by more than its skips
    # is not made, and the plain count bounds the answer from above.
    least = max(1, sf.missing - spare)
    most = sf.missing if sf.exact else sf.at_most
    if spare and sf.missing <= spare:
        try:
            meld = find(phase, hand, rules)
        except SearchLimit:
            return Assessment(None, Shortfall(0, (), sf.example, sf.groups, sf.possible,
                                              exact=False, at_most=most, decided=False))
        if meld is not None:
            return Assessment(meld, Shortfall(0))
    try:
        ways = blueskips.variants(groups, rules, spare)
    except SearchLimit:
        return Assessment(None, Shortfall(least, (), sf.example, sf.groups, sf.possible,
                                          exact=False, at_most=most))
    answers = [(base.shortfall, None)]
    deadline = budget.now() + budget.SEARCH_SECONDS
    cut = False
    for v in ways:
        if v.empty:
            continue  # made or never: find said which
        if budget.now() > deadline:
            cut = True  # the fewest found is an upper bound; the hand is 1 short at least
            break
        left, took = _without_skips(hand, v.used)
        sub = _assess(v.phase, left, rules, (*seen, *took), budget.now(), want_outs)
        if sub.meld is not None:  # (find said otherwise: its budget, not the count, spoke)
            return Assessment(None, Shortfall(0, exact=False, at_most=0, decided=False))
        answers.append((sub.shortfall, v))
    if not all(a.decided for a, _ in answers):
        return next(Assessment(None, a) for a, _ in answers if not a.decided)
    answers = [(a, v) for a, v in answers if a.never is None]
    best, v = min(answers, key=lambda av: av[0].missing)
    shown = best.groups if v is None else tuple(blueskips.original_group(v, groups, g)
                                                   for g in best.groups)
    exact = not cut and all(a.exact for a, _ in answers)
    if cut:
        return Assessment(None, Shortfall(1, (), best.example, shown, best.possible,
                                          exact=False, at_most=best.at_most or best.missing))
    if best.missing != 1 or not want_outs:
        return Assessment(None, Shortfall(best.missing, (), best.example, shown, best.possible,
                                          exact=exact and best.exact, at_most=best.at_most))
    cards = {o.card for a, _ in answers if a.missing == 1 for o in a.outs}
    try:
        if find(phase, [*hand, SKIP], rules) is not None:
            cards.add(SKIP)
    except SearchLimit:
        exact = False
    pool = unseen_counts(hand, seen, rules)
    found = tuple(Out(c, pool[c]) for c in sorted(cards, key=lambda c: _order(c, rules))
                  if pool[c] > 0)
    return Assessment(None, Shortfall(1, found, best.example, shown, best.possible or bool(found),
                                      exact=exact, at_most=None if exact else 1))


def _skips(hand: Sequence[Card]) -> int:
    return sum(1 for c in hand if c.skip)


def _without_skips(hand: Sequence[Card], k: int) -> tuple[list[Card], tuple[Card, ...]]:
    """The hand less ``k`` of its skips, and those skips."""
    left, took = [], []
    for c in hand:
        if c.skip and len(took) < k:
            took.append(c)
        else:
            left.append(c)
    return left, tuple(took)


def _assess(phase: Phase, hand: Sequence[Card], rules: Rules, seen: Sequence[Card],
            started: float, outs: bool = True) -> Assessment:
    lay = layout_for(phase, rules)
    h = Hand.of(hand, lay.tb)
    seen = seen if type(seen) is tuple else tuple(seen)  # read more than once
    need = lay.total + lay.need_w + lay.need_s
    route = _route_of(phase, lay, rules)
    never, shape = route[1], route[2]
    if lay.has_sums:  # a sum is no class: its own search counts the cards short
        return assess_sums(phase, lay, h, hand, rules, seen, never, started, outs)
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
        meld = find_counted(lay, h, rules)
        if meld is not None:
            return Assessment(meld, Shortfall(0))
    elif got is not None:
        return got
    # one or two groups: the choices one card short come with the fill at no extra cost
    # (bigger phases search them only when the hand is one short: see below)
    few = len(lay.groups) <= 2
    best = fill_hand(lay, h, rules, [budget.SHORTFALL_STEPS], target=need - 1, collect=few)
    if not best.exact and best.fill < best.upper:
        return _out_of_reach(lay, h, rules, seen, best, need, started + budget.SEARCH_SECONDS)
    if best.fill >= need:
        if len(lay.groups) > 2:
            # the fill's placement is a meld already: no second search (the solver's
            # search can take long, or stop at its budget, where many groups accept the
            # same cards); wild-number cards the fill played as wilds are laid as such
            plans = reorder([Plan(cl, d) for cl, d in zip(best.chosen, best.per, strict=True)],
                             lay.order, lay.all_groups)
            converted = {t: k - c for t, (k, c) in enumerate(zip(h.cnt, best.hand.cnt,
                                                                    strict=True)) if k > c}
            return Assessment(build_meld(lay, plans, h.skips, rules, converted), Shortfall(0))
        return Assessment(find(phase, hand, rules), Shortfall(0))
    if best.chosen is None:
        return Assessment(None, Shortfall(need, possible=False))
    k = need - best.fill
    example, real, completes = completion(lay, best, h, rules, k, seen)
    leaves = best.leaves
    if (k == 1 and not rules.wild_as_skip
            and best.fill - min(h.skips, lay.need_s) >= lay.need_w + lay.total):
        # every slot but a skip part's is filled: a skip completes it, and nothing else
        skips = unseen_pool(h, rules, seen)[2]
        found = (Out(SKIP, skips),) if skips > 0 else ()
        return Assessment(None, Shortfall(1, found, example, completes, bool(found)))
    if k == 1 and not outs:
        return Assessment(None, Shortfall(1, (), example, completes, real is not False))
    if k == 1 and best.exact and not few:
        # every choice one short, for the outs (one group: they came with the fill)
        again = fill_hand(lay, h, rules, [budget.SHORTFALL_STEPS // 2], need - 1, collect=True)
        leaves = again.leaves if again.exact else None
    return _short(phase, lay, h, hand, rules, seen, k, example, real, completes,
                  leaves if best.exact else None, started + budget.SEARCH_SECONDS)


def _out_of_reach(lay: Layout, h: Hand, rules: Rules, seen: tuple, best: Fill, need: int,
                  deadline: float) -> Assessment:
    """The fill search stopped at its budget: the cards short are a range, and whether the
    hand makes the phase at all is the solver's to say, by ``deadline`` (what is left of
    its seconds once the fill is done, so the whole answer keeps to them); past that it is
    undecided (0 short at least, as many as the best choice found lacks at most)."""
    least = need - best.upper
    if least <= 0:
        try:
            meld = find_counted(lay, h, rules, deadline)
        except SearchLimit:
            meld, least = None, None
        if meld is not None:
            return Assessment(meld, Shortfall(0))
    most = need - max(best.fill, 0)
    example, real, completes = ((), False, ()) if best.chosen is None else \
        completion(lay, best, h, rules, most, seen)
    if least is None:
        return Assessment(None, Shortfall(0, (), example, completes, real is True, exact=False,
                                          at_most=most, decided=False))
    least = max(least, 1)
    # both bounds agree: the count is sure (one short: the outs were not sought)
    return Assessment(None, Shortfall(least, (), example, completes, real is True,
                                      exact=least == most > 1, at_most=most))


def _short(phase: Phase, lay: Layout, h: Hand, hand: Sequence[Card], rules: Rules,
           seen: Iterable[Card], k: int, example: tuple[Card, ...], real: bool | None,
           completes: tuple[Group, ...], leaves: list | None,
           deadline: float | None = None) -> Assessment:
    """A hand ``k`` cards short, with the choices of classes one short (``leaves``; None
    when a search ran out of steps before it had them all): the outs when one short (the
    solver confirming them by ``deadline``), else whether the example is a real completion."""
    if k == 1:
        found, every = ((), False) if leaves is None else \
            outs_of_one_short(phase, lay, h, hand, rules, seen, leaves, deadline)
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
        real = fill_hand(lay, Hand.of([*hand, *example], lay.tb), rules,
                          [budget.SHORTFALL_STEPS // 4], need).fill >= need
    return Assessment(None, Shortfall(k, (), example, completes, real))


def _one_group_fill(lay: Layout, h: Hand) -> tuple[int, list[int], int, Fixed] | None:
    """The most cards one group holds, with its classes' capacities, the best of them and
    the hand's fixed part (None: no class)."""
    size, lo = lay.sizes[0], lay.lower[0]
    caps = h.caps(lay.aggs[0], lay.values[0], size, lay.tb.nn, lay.masks[0])
    if not caps:
        return None
    top = max(caps)
    # no skip or wild parts: the wilds' room is the group's slots
    f = Fixed(0, h.wilds, size, lay.min_phase)
    return fill_value(top, lo - top if top < lo else 0, f), caps, top, f


def _one_group_short(phase: Phase, lay: Layout, h: Hand, hand: Sequence[Card], rules: Rules,
                     seen: tuple[Card, ...]) -> Assessment | bool | None:
    """``assess`` for a phase of one natural group and nothing else (a run, a set, a color
    group ...): True when the hand makes it (the solver lays the meld).

    One group has no search: its fill is the best class's capacity plus the wilds, and the
    missing cards are that class's empty slots, so the general path's choice, plans and
    outs reduce to a pass over the capacities (same class: the first of the best).
    """
    got = _one_group_fill(lay, h)
    if got is None:
        return None
    fill, caps, top, f = got
    size = lay.sizes[0]
    if fill >= size:
        return True
    k = size - fill
    cl = lay.classes[0][caps.index(top)]
    virt = group_lacks(lay, [top], h.wilds)[0]
    groups = lay.all_groups
    pool, wilds, _ = unseen_pool(h, rules, seen)
    if top:
        example, real = one_group_example(cl, virt, h, pool, wilds, lay.tb)
    else:  # a group made only of cards still to come may take any class
        plans = [Plan(cl, {None: virt})]
        example, real = example_completion(groups, plans, h, rules, k, seen)
    if k > 1:
        return _short(phase, lay, h, hand, rules, seen, k, example, real, groups, [])
    found = one_group_outs(lay, h, pool, wilds, caps, top, f)
    # (the example's cards and the outs are the deck's card objects)
    if found and not any(o.card is example[0] for o in found):
        example, groups = (found[0].card,), ()
    return Assessment(None, Shortfall(1, found, example, groups, bool(found)))


def shortfall(phase: Phase | str, hand: Sequence[Card] | str, rules: Rules = DEFAULT_RULES,
              seen: Iterable[Card] | str = (), *, outs: bool = True) -> Shortfall:
    """The fewest cards missing, with the single-card outs when one is missing.

    Missing cards are counted as free choices of any card (each can be the
    natural a group lacks), so the count is exact; the example picks real
    cards for them.  ``phase`` may be a phrase, ``hand`` and ``seen`` card strings.
    ``outs=False``: the count alone (see ``assess``).
    """
    started = budget.now()
    phase, hand, rules, seen = hand_args("shortfall", phase, hand, rules, seen)
    return _assess_read(phase, hand, rules, seen, started, outs).shortfall


def cards_short(phase: Phase, hand: Sequence[Card], rules: Rules = DEFAULT_RULES) -> int | None:
    """``shortfall(phase, hand, rules).missing`` where the hand's counts alone say it (one
    group, two sets, a set and a run, the hand not made), with no example or outs worked
    out; None elsewhere (``shortfall`` says).  For a caller weighing many hands by their
    count alone (a bot, each card it may draw); the arguments as their types."""
    if rules.skip_counts_as_blue:
        return None
    lay = layout_for(phase, rules)
    route = _route_of(phase, lay, rules)
    shape = route[2]
    if not shape or route[1] is not None or lay.has_sums:
        return None
    h = Hand.of(hand, lay.tb)
    if shape == _TWO_SETS:
        k = two_sets_missing(lay, h, rules)
    elif shape == _SET_RUN:
        k = set_run_missing(lay, h)
    else:
        got = _one_group_fill(lay, h)
        k = None if got is None else lay.sizes[0] - got[0]
    return k if k is not None and k > 0 else None


def wilds_by_numbers(phase: Phase, lay: Layout, rules: Rules
                     ) -> Callable[[Sequence[int]], int | None] | None:
    """Where a phase is decided by its naturals' counts by number alone (a plain set and a
    plain run): the function of those counts that gives the fewest wilds that make it, or
    None where it cannot say (``makes`` says then); None for any other phase.  For a caller
    weighing very many count vectors (the exact odds): one look at the counts instead of
    a search per number of wilds."""
    if rules.skip_counts_as_blue:
        return None
    route = _route_of(phase, lay, rules)
    if route[2] != _SET_RUN or route[1] is not None:
        return None
    return set_run_counter(lay)


def _order(card: Card, rules: Rules) -> tuple:
    colors = rules.deck.colors
    return (card.wild, card.skip, card.number or 0, colors.index(card.color) if card.natural else 0)


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
