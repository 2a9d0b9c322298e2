"""The cards that complete a hand: an example completion, and the single-card outs.

The missing cards are counted as free choices of any card (each can be the natural a
group lacks, ``group_lacks``); ``example_completion`` picks real unseen cards for them
(``unseen_pool``) and says whether they surely complete it.  A card completes a hand one
short only when it adds to one of the choices of classes holding all but one card (the
fill search collects them): where their groups accept no common card the completing cards
follow from the counts, elsewhere each candidate is confirmed by the solver
(``outs_of_one_short``).  ``one_group_example`` and ``one_group_outs`` are the same for a
phase of one group, from its capacities alone.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..model.cards import SKIP, WILD, Card
from ..model.group import Group, Kind
from ..model.phase import Phase
from ..model.rules import Rules
from .answers import Out, listed
from .budget import SearchLimit
from .classes import Plan, bits, full_numbers, played_classes, tables, window_counts, window_hold
from .fill import Fill, Fixed, fill_value
from .handcounts import Hand
from .laying import find_counted
from .search import Layout, reorder, search_plans


def completion(lay: Layout, best: Fill, h: Hand, rules: Rules, k: int, seen: tuple
                ) -> tuple[tuple[Card, ...], bool | None, tuple[Group, ...]]:
    """The ``k`` cards the best choice lacks, as real unseen cards (see example_completion), and the
    groups they complete."""
    plans = _virtual_plans(lay, best, rules)
    groups = lay.all_groups
    completes = tuple(g for g, p in zip(groups, plans, strict=True)
                      if p.naturals.get(None) or not g.kind.needs_natural)
    return (*example_completion(groups, plans, h, rules, k, seen), completes)


def one_group_example(cl, virt: int, h: Hand, pool: list[int], wilds: int, tb
                       ) -> tuple[tuple[Card, ...], bool | None]:
    """``example_completion`` for one group holding some naturals, ``virt`` cards short: the class's
    cards in type order, unseen ones only, a run's each of a number it lacks (a wild
    where none is left)."""
    picks: list[Card] = []
    left = list(pool)
    if cl.window is not None:
        nn = tb.nn
        # cards the run holds or has been given at each number (a run of pairs takes two)
        held = window_counts(cl, h.cnt, h.present, nn)
        per = cl.per
        for t in _types(cl):
            if len(picks) >= virt:  # (all picked: the types left add none)
                break
            while len(picks) < virt and left[t] > 0 and held.get(t % nn, 0) < per:
                held[t % nn] = held.get(t % nn, 0) + 1
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


def one_group_outs(lay: Layout, h: Hand, pool: list[int], wilds: int,
                    caps: list[int], top: int, f: Fixed) -> tuple[Out, ...]:
    """The cards completing a one-group phase one short: a card one of the fullest classes
    accepts and does not already hold (a run: a number it lacks), or a wild."""
    size, lo = lay.sizes[0], lay.lower[0]
    tb = lay.tb
    out: list[Out] = []
    if fill_value(top + 1, max(0, lo - top - 1), f) >= size:
        nn, present, num_mask = tb.nn, h.present, tb.num_mask
        run = lay.classes[0][0].window is not None
        sure = 0
        for cl, c in zip(lay.classes[0], caps, strict=True):
            if c == top:
                m = cl.mask
                if run:
                    for ni in bits(full_numbers(cl, h.cnt, present, nn)):
                        m &= ~num_mask[ni]
                sure |= m
        out = listed(bits(sure), pool, tb)
    if wilds > 0 and fill_value(top, max(0, lo - top), f._replace(wilds=f.wilds + 1)) >= size:
        out.append(Out(WILD, wilds))
    return tuple(out)


def _virtual_plans(lay: Layout, best: Fill, rules: Rules) -> list[Plan]:
    """The best choice's plans, each group's missing cards counted under None: first the
    naturals its minimum lacks, then the slots the hand's wilds do not reach."""
    h = best.hand
    per = best.per
    placed = [sum(d.values()) for d in per]
    wilds = h.wilds - lay.need_w
    if rules.wild_as_skip:
        wilds -= max(0, lay.need_s - h.skips)
    virt = group_lacks(lay, placed, max(0, wilds))
    plans = [Plan(cl, {**d, None: v} if v else d)
             for cl, d, v in zip(best.chosen, per, virt, strict=True)]
    return reorder(plans, lay.order, lay.all_groups)


def group_lacks(lay: Layout, placed: list[int], wilds: int) -> list[int]:
    """The cards each group (in the layout's order) still lacks when it holds ``placed``
    naturals: the naturals its minimum lacks, then those the phase's minimum lacks, then
    the slots the wilds do not reach (the wilds go to the later, smaller groups first)."""
    lower, sizes = lay.lower, lay.sizes
    n = len(placed)
    if len(lower) != n:
        raise ValueError("one count placed per group")
    virt = [0] * n
    extra = lay.min_phase - sum(placed)
    if extra < 0:
        extra = 0
    # (each group in turn, from the last: builtins and zips left out of the hot path)
    for j in range(n - 1, -1, -1):
        p, lo = placed[j], lower[j]
        v = lo - p if p < lo else 0
        room = sizes[j] - p - v
        take = room if room < extra else extra
        v += take
        extra -= take
        room -= take
        use = room if room < wilds else wilds
        wilds -= use
        virt[j] = v + room - use
    return virt


def unseen_pool(h: Hand, rules: Rules, seen: Iterable[Card] = ()) -> tuple[list[int], int, int]:
    """Unseen cards as counts: per natural type, wilds, skips."""
    deck = rules.deck
    copies = deck.copies
    pool = [copies - c for c in h.cnt]
    wilds, skips = deck.wilds - h.wilds, deck.skips - h.skips
    if seen:
        s = Hand.of((c.plain() for c in seen), tables(deck))
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
        got = _TYPES[id(cl)] = (cl, tuple(bits(cl.mask)))
    return got[1]


def example_completion(groups, plans, h: Hand, rules: Rules, k: int, seen: Iterable[Card] = ()
             ) -> tuple[tuple[Card, ...], bool | None]:
    """Real cards for the virtual ones: a natural of the group's class where what is left
    of the deck (bar the cards seen) has one.

    Whether they complete the phase: False when the deck does not hold them, True when
    each is a natural its group can take (the plan then holds by construction), None
    when a wild had to stand in for a natural (it may not meet a natural minimum).
    """
    deck = rules.deck
    tb = tables(deck)
    nn = tb.nn
    pool, wilds, skips = unseen_pool(h, rules, seen)
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
            options = [c for c in played_classes(g, rules)
                       if not (distinct and g.kind.is_set and c.number in set_numbers)]
            cl = max(options or [cl], key=lambda c: sum(pool[t] for t in _types(c)))
            if g.kind.is_set:
                set_numbers.add(cl.number)
        if cl.window is None:
            candidates = _types(cl)
        else:  # a run takes each number once (a run of pairs twice)
            taken: dict[int, int] = {}
            for t, c in nat.items():
                if t is not None:
                    taken[t % nn] = taken.get(t % nn, 0) + c
            candidates = [t for t in _types(cl) if taken.get(t % nn, 0) < cl.per]
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
                taken[pick % nn] = taken.get(pick % nn, 0) + 1
                if taken[pick % nn] >= cl.per:
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


def outs_of_one_short(phase: Phase, lay: Layout, h: Hand, hand: Sequence[Card], rules: Rules,
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
    pool, wilds, skips = unseen_pool(h, rules, seen)
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
    out = [t for t in bits(sure) if pool[t] > 0]
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
        out += [t for t in bits(check) if pool[t] > 0 and completes(tb.cards[t])]
    found = listed(out, pool, tb)
    if skips > 0 and lay.need_s > h.skips and completes(SKIP):
        found.append(Out(SKIP, skips))
    if wilds > 0 and (wild or (wild is None and completes(WILD))):
        found.append(Out(WILD, wilds))
    return found, not stopped


def _completing(lay: Layout, chosen: tuple, h: Hand, rules: Rules, need: int
                ) -> tuple[int, bool]:
    """The natural card types that complete a choice of classes holding all but one card,
    when no two of its groups accept one card of the hand (each holds its own), and
    whether a wild does."""
    nn = lay.tb.nn
    cnt, present = h.cnt, h.present
    caps = []
    for cl, size in zip(chosen, lay.sizes, strict=True):
        if cl.window is not None:
            caps.append(window_hold(cl, cnt, present, nn))
        else:
            caps.append(min(size, sum(cnt[t] for t in bits(cl.mask & present))))
    placed = sum(caps)
    lacking = sum(max(0, lo - c) for lo, c in zip(lay.lower, caps, strict=True))
    skip_fill = min(h.skips, lay.need_s)
    ws = lay.need_s - skip_fill if rules.wild_as_skip else 0
    f = Fixed(skip_fill, h.wilds, lay.need_w + ws + lay.total, lay.min_phase if chosen else 0)
    wild = fill_value(placed, lacking, f._replace(wilds=h.wilds + 1)) >= need
    distinct = not rules.sets_share_number
    out = 0
    for j, cl in enumerate(chosen):
        if caps[j] >= lay.sizes[j]:
            continue
        if fill_value(placed + 1, lacking - (caps[j] < lay.lower[j]), f) < need:
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
        if cl.window is not None:  # a run takes a number it lacks (a run of pairs: one short)
            for ni in bits(full_numbers(cl, cnt, present, nn)):
                m &= ~lay.tb.num_mask[ni]
        out |= m
    return out, wild


_SAME: dict[tuple[int, int, int], int] = {}


def _same_cards_mask(lay: Layout, j: int, cl, present: int) -> int:
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


def _completes(lay: Layout, h: Hand, hand: list[Card], card: Card, rules: Rules,
               deadline: float | None) -> bool:
    """Whether the card makes the phase with the hand (SearchLimit past ``deadline``)."""
    if rules.wild_numbers or card.skip:
        return find_counted(lay, Hand.of([*hand, card], lay.tb), rules, deadline) is not None
    if card.wild:
        h2 = Hand.counted(h.cnt, h.present, h.wilds + 1, h.skips, lay.tb, h.by_num)
    else:
        tb = lay.tb
        t = tb.col_index[card.color] * tb.nn + card.number - tb.deck.low
        cnt = list(h.cnt)
        cnt[t] += 1
        by_num = None
        if h.by_num is not None:
            by_num = list(h.by_num)
            by_num[t % tb.nn] += 1
        h2 = Hand.counted(cnt, h.present | 1 << t, h.wilds, h.skips, tb, by_num)
    return search_plans(lay, h2, rules, deadline=deadline) is not None
