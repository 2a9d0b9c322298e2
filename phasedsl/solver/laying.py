"""From a search's plans to a meld: ``find`` and its kin, and the postal rule's
wild-number cards (each way of playing them is a hand of its own for the search).

``find_counted`` is ``find`` for a hand already counted (the shortfall and the outs ask
it); ``makes`` is the yes/no answer over count vectors (``odds`` asks it millions of
times); ``build_meld`` lays the cards, each wild saying what it stands for.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from functools import cache, lru_cache
from itertools import product

from ..model.cards import SKIP, WILD, Card
from ..model.coerce import meld_args
from ..model.group import Kind
from ..model.meld import LaidGroup, Meld
from ..model.phase import Phase
from ..model.rules import DEFAULT_RULES, Rules
from . import blueskips, budget
from .budget import SearchLimit
from .classes import Class, Plan, Tables
from .handcounts import Hand
from .search import Layout, layout_for, search_plans
from .sums import SumSolution, natural_floor, plain_rules, search_sums


def postal_variants(hand: Hand, rules: Rules, tb: Tables, most_natural: int = 0):
    """Ways of playing wild-number cards (postal): each is (hand, {type: cards played as wilds}).

    A wild can stand wherever such a card stands as itself, so playing it as a
    wild never hurts, except that it then does not count toward a group's
    natural minimum.  Hence only the ways that keep at most ``most_natural``
    of them natural (the minimums' total) need trying: a few, however large the hand.
    """
    if not rules.wild_numbers:
        yield hand, {}
        return
    cnt = hand.cnt
    flex = [t for t, c in enumerate(cnt) if c and (t % tb.nn) + rules.deck.low in rules.wild_numbers]
    if not flex:
        yield hand, {}
        return
    for keep in product(*[range(min(cnt[t], most_natural) + 1) for t in flex]):
        if sum(keep) > most_natural:
            continue
        c2 = list(cnt)
        converted = {}
        for t, k in zip(flex, keep, strict=True):
            converted[t] = cnt[t] - k
            c2[t] = k
        yield (Hand(c2, hand.wilds + sum(converted.values()), hand.skips, tb),
               {t: k for t, k in converted.items() if k})


def keep_most(lay: Layout, rules: Rules) -> int:
    """Most wild-number cards that ever need to stay natural: the natural minimums' total."""
    if rules.natural_scope == "group":
        return sum(lay.lower)
    return rules.min_naturals


def makes(lay: Layout, hand: Hand, rules: Rules) -> bool:
    """Whether a hand already counted makes the layout's phase, over every way of playing
    postal wild-number cards (the yes/no answer odds asks of count vectors; SearchLimit
    when the search stops at its budget)."""
    if _makes(lay, hand, rules):
        return True
    if not rules.skip_counts_as_blue:
        return False
    for v in blueskips.variants(lay.all_groups, rules, blueskips.spare_skips(lay.all_groups,
                                                                             hand.skips)):
        if v.empty:
            if blueskips.empty_made(rules):
                return True
            continue
        if _makes(layout_for(v.phase, rules), _fewer_skips(hand, v.used, lay.tb), rules):
            return True
    return False


def _makes(lay: Layout, hand: Hand, rules: Rules) -> bool:
    if lay.has_sums:
        return find_sums(lay, hand, rules) is not None
    if not rules.wild_numbers:
        return search_plans(lay, hand, rules) is not None
    return any(search_plans(lay, h, rules) is not None
               for h, _ in postal_variants(hand, rules, lay.tb, keep_most(lay, rules)))


def _fewer_skips(h: Hand, used: int, tb: Tables) -> Hand:
    """The hand less the skips laid as blue cards."""
    return Hand.counted(h.cnt, h.present, h.wilds, h.skips - used, tb, h.by_num)


def find(phase: Phase | str, hand: Iterable[Card] | str, rules: Rules = DEFAULT_RULES
         ) -> Meld | None:
    """A meld of ``hand`` that makes ``phase``, or None when no meld exists (SearchLimit
    when the search stops at its budget).  ``phase`` may be a phrase and ``hand`` a card
    string (read under ``rules``' deck)."""
    if not isinstance(phase, Phase) or not isinstance(rules, Rules) or isinstance(hand, str):
        phase, hand, rules = meld_args("find", phase, hand, rules)
    lay = layout_for(phase, rules)
    return find_counted(lay, Hand.of(hand, lay.tb), rules)


def find_counted(lay: Layout, h: Hand, rules: Rules, deadline: float | None = None) -> Meld | None:
    """``find`` for a hand already counted, its search stopped by ``deadline`` (by default
    budget.SEARCH_SECONDS from its start).  Under skip_counts_as_blue a meld with no skip laid
    as a blue card is sought first, then each way of laying some (see blueskips)."""
    meld = _find_counted(lay, h, rules, deadline)
    if meld is not None or not rules.skip_counts_as_blue:
        return meld
    groups = lay.all_groups
    if h.nat + h.wilds + h.skips < lay.total + lay.need_w + lay.need_s:
        return None  # too few cards, skips and all
    found = blueskips.variants(groups, rules, blueskips.spare_skips(groups, h.skips))
    if not found:
        return None
    if deadline is None:
        deadline = budget.now() + budget.SEARCH_SECONDS  # for all the variants
    for v in found:
        if v.empty:
            if blueskips.empty_made(rules):
                return blueskips.restore(v, groups, None, rules)
            continue
        if budget.now() > deadline:
            raise SearchLimit(f"{budget.SEARCH_SECONDS} s")
        got = _find_counted(layout_for(v.phase, rules), _fewer_skips(h, v.used, lay.tb), rules,
                            deadline)
        if got is not None:
            return blueskips.restore(v, groups, got, rules)
    return None


def _find_counted(lay: Layout, h: Hand, rules: Rules, deadline: float | None) -> Meld | None:
    if lay.has_sums:
        return find_sums(lay, h, rules, deadline)
    if lay.quick is not None:
        plans = lay.quick(h)
        return None if plans is None else build_meld(lay, plans, 0, rules, {})
    if not rules.wild_numbers:
        plans = search_plans(lay, h, rules, deadline=deadline)
        return None if plans is None else build_meld(lay, plans, h.skips, rules, {})
    if deadline is None:
        deadline = budget.now() + budget.SEARCH_SECONDS  # for all the ways of playing them
    for h2, converted in postal_variants(h, rules, lay.tb, keep_most(lay, rules)):
        plans = search_plans(lay, h2, rules, deadline=deadline)
        if plans is not None:
            return build_meld(lay, plans, h2.skips, rules, converted)
    return None


def find_within_budget(phase: Phase, hand: Iterable[Card], rules: Rules = DEFAULT_RULES
                       ) -> Meld | None:
    """``find``, but None where its search stops at its budget: for callers that act only
    on a meld they hold (the lay-downs a game offers, a bot's plans), never for a verdict."""
    try:
        return find(phase, hand, rules)
    except SearchLimit:
        return None


def made_within_budget(phase: Phase, hand: Sequence[Card], rules: Rules = DEFAULT_RULES
                       ) -> bool:
    """``find_within_budget(phase, hand, rules) is not None``, with no meld laid where the
    quick plans answer (a bot asking only whether a hand makes its phase)."""
    lay = layout_for(phase, rules)
    if lay.quick is not None and not lay.has_sums:
        if lay.quick(Hand.of(hand, lay.tb)) is not None:
            return True
        if not rules.skip_counts_as_blue:
            return False
    return find_within_budget(phase, hand, rules) is not None


def left_out(phase: Phase, hand: Sequence[Card], rules: Rules = DEFAULT_RULES
             ) -> set[Card] | None:
    """The cards of ``hand`` (as in a hand: plain) that ``find_within_budget``'s meld of it
    lays fewer of than the hand holds; None where it finds no meld.  (A bot asks which of
    its cards a meld leaves free: for the commonest phases the plans are counted, without
    laying the meld's cards.)"""
    lay = layout_for(phase, rules)
    if lay.quick is not None and not lay.has_sums:
        h = Hand.of(hand, lay.tb)
        plans = lay.quick(h)
        if plans is not None:
            nats, wilds = laid_counts(lay, plans)
            cards_of = lay.tb.cards
            cnt = h.cnt
            spent = 0  # the types the meld lays every card of
            for t, k in nats.items():
                if k >= cnt[t]:
                    spent |= 1 << t
            out = set()
            m = h.present & ~spent
            while m:
                low = m & -m
                out.add(cards_of[low.bit_length() - 1])
                m ^= low
            if h.wilds > wilds:
                out.add(WILD)
            if h.skips:  # (the quick phases have no skip part)
                out.add(SKIP)
            return out
        if not rules.skip_counts_as_blue:
            return None
    meld = find_within_budget(phase, hand, rules)
    if meld is None:
        return None
    used = Counter(meld.cards())
    return {c for c, k in Counter(hand).items() if k > used[c]}


def laid_counts(lay: Layout, plans: list[Plan]) -> tuple[dict[int, int], int]:
    """The naturals (per card type) and the wilds that ``build_meld(lay, plans, 0, rules,
    {})`` lays, counted as it places them (for a layout of no wild or skip part)."""
    nn = lay.tb.nn
    nats_laid: dict[int, int] = {}
    wilds = 0
    for g, (cl, nats) in zip(lay.all_groups, plans, strict=True):
        if cl is None:  # a wild or skip part, of wilds alone where no skip is laid
            wilds += g.size
            continue
        window = cl.window
        if window is not None and not _plain_window(cl):
            # number by number, each number's naturals in type order, up to cl.per of them
            left = dict.fromkeys(window, cl.per)
            for t in sorted(nats):
                room = left.get(t % nn, 0)
                k = nats[t] if nats[t] < room else room
                if k > 0:
                    nats_laid[t] = nats_laid.get(t, 0) + k
                    left[t % nn] = room - k
            wilds += sum(left.values())
            continue
        if window is not None:  # one card a number: a later type of a number takes its place
            slots: list[int | None] = [None] * len(window)
            first = window[0]
            for t in nats:
                slots[t % nn - first] = t
            placed = 0
            for t in slots:
                if t is not None:
                    nats_laid[t] = nats_laid.get(t, 0) + 1
                    placed += 1
            wilds += len(window) - placed
            continue
        if nats_laid:
            placed = 0
            for t, k in nats.items():
                nats_laid[t] = nats_laid.get(t, 0) + k
                placed += k
        else:  # (the first group's naturals as they are)
            nats_laid = dict(nats)
            placed = sum(nats.values())
        if placed < g.size:
            wilds += g.size - placed
    return nats_laid, wilds


# Per class (the entry holds it, so its id stays its own): whether build_meld lays it as a
# plain run, one card a number in a row (a run of pairs or a wrapping run: number by number).
_PLAIN_WINDOWS: dict[int, tuple[Class, bool]] = {}


def _plain_window(cl: Class) -> bool:
    got = _PLAIN_WINDOWS.get(id(cl))
    if got is None or got[0] is not cl:
        w = cl.window
        if len(_PLAIN_WINDOWS) > 8192:
            _PLAIN_WINDOWS.clear()
        got = _PLAIN_WINDOWS[id(cl)] = (cl, cl.per <= 1 and w == tuple(range(w[0], w[0] + len(w))))
    return got[1]


def can_make(phase: Phase | str, hand: Iterable[Card] | str, rules: Rules = DEFAULT_RULES) -> bool:
    if not isinstance(phase, Phase) or not isinstance(rules, Rules) or isinstance(hand, str):
        phase, hand, rules = meld_args("can_make", phase, hand, rules)
    return find(phase, hand, rules) is not None


@cache
def _wild(number: int | None, color: str | None) -> Card:
    return Card(number, color, wild=True)


@lru_cache(maxsize=4096)
def _stand_ins(window: tuple[int, ...], low: int, color: str | None) -> tuple[Card, ...]:
    """The wilds that would fill a run's whole window."""
    return tuple(_wild(ni + low, color) for ni in window)


def build_meld(lay: Layout, plans: list[Plan], skips: int, rules: Rules, converted: dict) -> Meld:
    """Turn plans into laid cards: runs in order, each wild saying what it stands for."""
    tb = lay.tb
    low = tb.deck.low
    colors = tb.deck.colors
    cards_of = tb.cards
    # Cards of wild numbers played as wilds (postal) are real cards of the hand:
    # the meld shows them as themselves, spent before the real wilds, and
    # records what each stands for.
    spare = [cards_of[t] for t, k in converted.items() for _ in range(k)] if converted else None
    acting: list[tuple[int, int, Card]] = []

    def wilds(k: int, number: int | None, color: str | None, gi: int, ci: int) -> list[Card]:
        """k wilds standing for number/color, at card ci on of group gi."""
        if not spare:
            return [_wild(number, color)] * k
        out = []
        for j in range(ci, ci + k):
            if spare:
                acting.append((gi, j, _wild(number, color)))
                out.append(spare.pop())
            else:
                out.append(_wild(number, color))
        return out

    laid: list[LaidGroup] = []
    skips_left = skips
    groups = lay.all_groups
    for gi in range(len(groups)):
        g = groups[gi]
        cl, nats = plans[gi]
        if cl is None:  # a wild or skip part
            k = min(skips_left, g.size) if g.kind is Kind.SKIP else 0
            skips_left -= k
            laid.append(LaidGroup(g, tuple([SKIP] * k + wilds(g.size - k, None, None, gi, k))))
            continue
        color = colors[cl.color] if cl.color is not None else None
        if cl.window is not None and (cl.per > 1 or cl.window != tuple(
                range(cl.window[0], cl.window[0] + len(cl.window)))):
            # a run of pairs, or a run wrapping from the top number to the bottom: number
            # by number in run order, each number's naturals, then wilds standing for it
            nn = tb.nn
            at: dict[int, list[Card]] = {}
            for t in sorted(nats):
                at.setdefault(t % nn, []).extend([cards_of[t]] * nats[t])
            cards = []
            for ni in cl.window:
                got = at.get(ni, [])[:cl.per]
                cards += got + wilds(cl.per - len(got), ni + low, color, gi, len(cards) + len(got))
            laid.append(LaidGroup(g, tuple(cards)))
            continue
        if cl.window is not None:
            nn = tb.nn
            first = cl.window[0]
            if spare:
                by_num = {t % nn: cards_of[t] for t in nats}
                cards = [by_num[ni] if ni in by_num else wilds(1, ni + low, color, gi, ci)[0]
                         for ci, ni in enumerate(cl.window)]
            else:
                cards = list(_stand_ins(cl.window, low, color))
                for t in nats:
                    cards[t % nn - first] = cards_of[t]
            laid.append(LaidGroup(g, tuple(cards)))
            continue
        if len(nats) == 1:
            for t, k in nats.items():
                cards = [cards_of[t]] * k
        else:
            cards = []
            # shown by number, then color: type order when the class fixes a number or a color
            for t in (sorted(nats) if cl.number is not None or cl.color is not None
                      else sorted(nats, key=tb.show_rank.__getitem__)):
                cards += [cards_of[t]] * nats[t]
        if len(cards) < g.size:
            cards += wilds(g.size - len(cards), cl.number + low if cl.number is not None else None,
                           color, gi, len(cards))
        laid.append(LaidGroup(g, tuple(cards)))
    return Meld(tuple(laid), tuple(acting))


def find_sums(lay: Layout, h: Hand, rules: Rules, deadline: float | None = None,
              virtual: int = 0) -> Meld | None:
    """``find_counted`` for a phase holding a sum (sums.py searches), over every way of
    playing postal wild-number cards; with ``virtual`` cards still to come, the meld of
    what the hand holds (the sums' cards to come left out)."""
    if deadline is None:
        deadline = budget.now() + budget.SEARCH_SECONDS  # for all the ways of playing them
    plain = plain_rules(rules)
    for h2, converted in postal_variants(h, rules, lay.tb, natural_floor(lay.all_groups, rules)):
        sol = search_sums(lay.all_groups, h2, plain, virtual, deadline)
        if sol is not None:
            return sum_meld(lay, sol, converted)
    return None


def sum_meld(lay: Layout, sol: SumSolution, converted: dict) -> Meld:
    """A sum solution's meld: each sum's naturals by number, then its wilds, each saying
    the number it stands for; the other groups as the class search laid them."""
    tb = lay.tb
    groups = lay.all_groups
    laid: list[LaidGroup | None] = [None] * len(groups)
    if sol.rest_layout is not None:
        rest = build_meld(sol.rest_layout, sol.rest_plans, sol.rest_hand.skips, sol.rest_rules,
                          {})
        for gi, lg in zip(sol.rest_index, rest.groups, strict=True):
            laid[gi] = lg
    for gi, p in sol.sums.items():
        color = tb.deck.colors[p.color] if p.color is not None else None
        cards = [tb.cards[t] for t in sorted(p.naturals, key=tb.sort_key)
                 for _ in range(p.naturals[t])]
        cards += [_wild(x, color) for x in p.wilds]
        laid[gi] = LaidGroup(groups[gi], tuple(cards))
    acting: list[tuple[int, int, Card]] = []
    if converted:
        # cards of wild numbers played as wilds (postal) are real cards of the hand: shown as
        # themselves where the meld has a wild, each recording what it stands for
        spare = [tb.cards[t] for t, k in converted.items() for _ in range(k)]
        for gi, lg in enumerate(laid):
            cards = list(lg.cards)
            for ci, c in enumerate(cards):
                if c.wild and spare:
                    acting.append((gi, ci, c))
                    cards[ci] = spare.pop()
            laid[gi] = LaidGroup(lg.group, tuple(cards))
    return Meld(tuple(laid), tuple(acting))
