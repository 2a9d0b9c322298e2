"""How close a hand is to a phase: cards short, and which cards complete it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .cards import SKIP, WILD, Card
from .classes import _classes, _tables
from .handcounts import _Hand
from .phase import Group, Kind, Part, Phase
from .rules import DEFAULT_RULES, Rules
from .solver import _as_played, _keep_most, _layout_for, _postal_variants, _search, find


@dataclass(frozen=True, slots=True)
class Out:
    """A card that completes the phase when drawn, and how many are unseen."""

    card: Card
    unseen: int


@dataclass(frozen=True, slots=True)
class Shortfall:
    """``missing`` cards short of the phase (0: made).

    ``outs`` lists every single card that completes it (when 1 short);
    ``example`` is one set of ``missing`` cards that completes it, and
    ``groups`` the groups those cards complete.
    """

    missing: int
    outs: tuple[Out, ...] = ()
    example: tuple[Card, ...] = ()
    groups: tuple[Group, ...] = ()
    # False when the example is not a real completion from what is left of the deck
    # (the count treats each missing card as any card; rare rule and deck corners, such as
    # two naturals per group from a deck with one copy of each card, break that): then
    # ``missing`` is a lower bound.
    possible: bool = True
    never: str | None = None  # why no hand can make the phase under these rules

    def summary(self, phase: Phase, rules: Rules = DEFAULT_RULES) -> str:
        if self.missing == 0:
            return "made"
        if self.never:
            return f"cannot be made under these rules: {self.never}"
        s = "s" if self.missing != 1 else ""
        # one Phase of the groups, so equal ones read together: '2 sets of 3'
        what = (Phase(tuple(Part(1, g) for g in self.groups)).canonical(rules.deck)
                if self.groups else str(phase))
        if self.missing == 1 and self.outs:
            return f"1 card short: {describe_outs([o.card for o in self.outs], rules)} completes {what}"
        if not self.possible:
            return (f"at least {self.missing} card{s} short of {what} (what is left of the deck "
                    "may not hold the cards that would complete it)")
        shown = " + ".join(str(c) for c in self.example)
        return f"{self.missing} card{s} short: for example {shown} completes {what}"

    def to_json(self) -> dict:
        return {
            "missing": self.missing,
            "outs": [{"card": str(o.card), "unseen": o.unseen} for o in self.outs],
            "example": [str(c) for c in self.example],
            "possible": self.possible,
        }


def describe_outs(cards: Sequence[Card], rules: Rules = DEFAULT_RULES) -> str:
    """'any 6 or a wild', 'R6, B6 or a wild' ..."""
    deck = rules.deck
    by_num: dict[int, list[str]] = {}
    words = []
    for c in cards:
        if c.natural:
            by_num.setdefault(c.number, []).append(c.color)
    for num in sorted(by_num):
        cols = by_num[num]
        if set(cols) >= set(deck.colors):
            words.append(f"any {num}")
        else:
            words += [f"{c}{num}" for c in cols]
    if any(c.wild for c in cards):
        words.append("a wild")
    if any(c.skip for c in cards):
        words.append("a skip")
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " or " + words[-1]


def unseen_counts(hand: Iterable[Card], seen: Iterable[Card] = (), rules: Rules = DEFAULT_RULES
                  ) -> Counter:
    """How many of each card are still unseen: the deck less the hand and the seen cards."""
    deck = rules.deck
    left = Counter({Card(n, c): deck.copies for c in deck.colors for n in deck.numbers})
    left[WILD] = deck.wilds
    left[SKIP] = deck.skips
    left.subtract(c.plain() for c in hand)
    left.subtract(c.plain() for c in seen)
    return +left


def outs(phase: Phase, hand: Sequence[Card], rules: Rules = DEFAULT_RULES,
         seen: Iterable[Card] = ()) -> list[Out]:
    """Every unseen card that, added to ``hand``, makes the phase."""
    pool = unseen_counts(hand, seen, rules)
    hand = list(hand)
    colors = rules.deck.colors

    def order(card: Card) -> tuple:
        return (card.wild, card.skip, card.number or 0, colors.index(card.color) if card.natural else 0)

    return [Out(c, pool[c]) for c in sorted(pool, key=order)
            if find(phase, [*hand, c], rules) is not None]


def shortfall(phase: Phase, hand: Sequence[Card], rules: Rules = DEFAULT_RULES,
              seen: Iterable[Card] = ()) -> Shortfall:
    """The fewest cards missing, with the single-card outs when one is missing.

    Missing cards are counted as free choices of any card (each can be the
    natural a group lacks), so the count is exact; the example picks real
    cards for them.
    """
    if find(phase, hand, rules) is not None:
        return Shortfall(0)
    from .lint import impossible_group

    never = impossible_group(phase, rules)
    if never:
        return Shortfall(phase.cards_needed, possible=False, never=never)
    groups = phase.groups
    tb = _tables(rules.deck)
    lay = _layout_for(phase, rules)
    h = _Hand.of(hand, tb)
    for k in range(1, phase.cards_needed + 1):
        for h2, _ in _postal_variants(h, rules, tb, _keep_most(lay, rules)):
            plans = _search(lay, h2, rules, virtual=k)
            if plans is not None:
                break
        else:
            continue
        completes = tuple(g for g, p in zip(groups, plans, strict=True)
                          if p.naturals.get(None) or not g.kind.needs_natural)
        example, drawable = _example(groups, plans, hand, rules, k)
        found_outs = tuple(outs(phase, hand, rules, seen)) if k == 1 else ()
        real = (bool(found_outs) if k == 1 else
                drawable and find(phase, [*hand, *example], rules) is not None)
        return Shortfall(k, found_outs, example, completes, real)
    return Shortfall(phase.cards_needed)


def _example(groups, plans, hand, rules: Rules, k: int) -> tuple[tuple[Card, ...], bool]:
    """Real cards for the virtual ones: a natural of the group's class where the deck has one."""
    deck = rules.deck
    tb = _tables(deck)
    pool = unseen_counts(hand, (), rules)
    out: list[Card] = []
    distinct = not rules.sets_share_number
    set_numbers = {p.cls.number for g, p in zip(groups, plans, strict=True)
                   if g.kind.is_set and p.cls is not None and any(t is not None for t in p.naturals)}
    for g, p in zip(groups, plans, strict=True):
        v = p.naturals.get(None, 0)
        if not v or p.cls is None:
            continue
        cl = p.cls
        if not any(t is not None for t in p.naturals):
            # a group made only of cards still to come can take any class: the best stocked
            options = [c for c in _classes(_as_played(g, rules), deck)
                       if not (distinct and g.kind.is_set and c.number in set_numbers)]
            cl = max(options or [cl],
                     key=lambda c: sum(pool[tb.card_of(t)] for t in range(tb.nc * tb.nn)
                                       if c.mask >> t & 1))
            if g.kind.is_set:
                set_numbers.add(cl.number)
        used_nums = {t % tb.nn for t in p.naturals if t is not None}
        candidates = []
        for t in range(tb.nc * tb.nn):
            if cl.mask >> t & 1:
                if cl.window is not None and t % tb.nn in used_nums:
                    continue
                candidates.append(tb.card_of(t))
        for _ in range(v):
            pick = next((c for c in candidates if pool[c] > 0), WILD)
            pool[pick] -= 1
            if cl.window is not None and pick.natural:
                used_nums.add(pick.number - deck.low)
                candidates = [c for c in candidates if c.number != pick.number]
            out.append(pick)
    # the rest complete skip or wild parts
    short_s = max(0, sum(g.size for g in groups if g.kind is Kind.SKIP)
                  - sum(1 for c in hand if c.skip))
    pool[SKIP] -= min(short_s, k - len(out))
    out += [SKIP] * min(short_s, k - len(out))
    pool[WILD] -= k - len(out)
    out += [WILD] * (k - len(out))
    return tuple(out), all(v >= 0 for v in pool.values())

