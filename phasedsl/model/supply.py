"""What a deck can put into a phase: natural cards per group, and the fewest wilds a
whole phase needs from the full deck.

``wild_need`` is a sound lower bound (it never says a phase needs more wilds
than the best meld from the whole deck uses), computed in closed form so that
even a hostile ten-group phrase is judged at once.  Groups are split into
families that draw on disjoint slots, and each family is bounded as if it had
the deck to itself, so the families' needs add up:

* sets, color sets, color groups, even/odd and color even/odd groups: each
  group takes its naturals from one pool (a number; a color and number; a
  color; a parity; a color and parity).  The fewest wilds is the best way of
  placing the groups on pools, found exactly by a small search;
* runs and color runs: a run of s cards among m numbers holds every one of the
  middle 2s - m numbers whichever window it takes, and the deck has only so
  many cards of each number;
* wild parts take their wilds;

and, across all groups, the natural-card groups cannot hold more naturals than
the deck has.  The rules (natural minimum, postal wild numbers, wilds as skips)
are not counted: parsing knows only the deck.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from .cards import Deck
from .group import Group, Kind

_POOL_NAMES = {
    Kind.SET: "number", Kind.COLOR_SET: "color and number", Kind.COLOR: "color",
    Kind.EVEN_ODD: "parity", Kind.COLOR_EVEN_ODD: "color and parity",
}
_POOL_PLURALS = {
    Kind.SET: "numbers", Kind.COLOR_SET: "color-and-number classes", Kind.COLOR: "colors",
    Kind.EVEN_ODD: "parities", Kind.COLOR_EVEN_ODD: "color-and-parity classes",
}
_PLURALS = {
    Kind.SET: "sets", Kind.COLOR_SET: "color sets", Kind.COLOR: "color groups",
    Kind.EVEN_ODD: "even or odd groups", Kind.COLOR_EVEN_ODD: "color even or odd groups",
}


def _parities(deck: Deck) -> tuple[int, int]:
    return tuple(sum(1 for n in deck.numbers if n % 2 == p) for p in (0, 1))  # type: ignore[return-value]


def _pools(kind: Kind, deck: Deck) -> tuple[int, ...]:
    """Natural cards in each pool one group of this kind draws from."""
    nc, nn, k = len(deck.colors), len(deck.numbers), deck.copies
    if kind is Kind.SET:
        return (nc * k,) * nn
    if kind is Kind.COLOR_SET:
        return (k,) * (nc * nn)
    if kind is Kind.COLOR:
        return (nn * k,) * nc
    if kind is Kind.EVEN_ODD:
        return tuple(p * nc * k for p in _parities(deck))
    if kind is Kind.COLOR_EVEN_ODD:
        return tuple(p * k for p in _parities(deck)) * nc
    raise ValueError(kind)


def _run_numbers(group: Group, deck: Deck) -> list[int]:
    """The numbers a run may use, low to high (a color map lists consecutive numbers)."""
    if group.colors is not None:
        return [n for n, cs in group.colors if cs]
    return list(deck.numbers)


def natural_cap(group: Group, deck: Deck) -> tuple[int, str]:
    """Most natural cards the deck can put into one group of this shape, and why."""
    if group.kind.is_run:
        usable = _run_numbers(group, deck)
        if group.colors is not None:
            n = len(usable)
            return n, f"the color map allows only {n} number{'' if n == 1 else 's'}"
        return len(usable), f"numbers go from {deck.low} to {deck.high}"
    if not group.kind.needs_natural:
        return 0, "it holds no natural cards"
    nc, k = len(deck.colors), deck.copies
    if group.kind.is_pair_run:
        per = 2 if group.kind is Kind.PAIR_RUN else min(2, k)
        return per * len(deck.numbers), f"{per} cards of each number from {deck.low} to {deck.high}"
    if group.kind.is_bounded:
        fits = sum(1 for n in deck.numbers if group.admits(n))
        word = "over" if group.kind is Kind.OVER else "under"
        return fits * nc * k, f"the deck has {fits * nc * k} cards {word} {group.bound}"
    if group.kind is Kind.SUM:
        return len(deck.numbers) * nc * k, "the deck's natural cards"
    if group.kind is Kind.COLOR_SUM:
        return len(deck.numbers) * k, "the natural cards of one color"
    most = max(_pools(group.kind, deck), default=0)
    return most, f"{most} of each {_POOL_NAMES[group.kind]}"


_PLACEMENT_STEPS = 20_000


@lru_cache(maxsize=4096)  # bounded: a long batch of distinct phrases must not grow it
def _placement_need(sizes: tuple[int, ...], pools: tuple[int, ...]) -> int:
    """Fewest cards of ``sizes`` (groups, largest first) left without a natural when each
    group takes its naturals from one pool and a pool's naturals go to one group each.

    A branch-and-bound search, the emptiest pool first so that the first answer is the
    greedy one; should it run past its step budget (no phrase of ten groups comes near),
    the answer is the simple bound instead (each group alone, and all pools together),
    which is never more than the best placement's."""
    alone = sum(max(0, s - max(pools, default=0)) for s in sizes)
    together = sum(min(s, max(pools, default=0)) for s in sizes) - sum(pools)
    simple = alone + max(0, together)
    best = sum(sizes)
    steps = [_PLACEMENT_STEPS]

    def place(i: int, loads: tuple[int, ...], short: int) -> None:
        nonlocal best
        if short >= best or best == simple:
            return
        if i == len(sizes):
            best = short
            return
        steps[0] -= 1
        if steps[0] < 0:
            raise _TooMany
        tried = set()
        for p in sorted(range(len(pools)), key=lambda p: loads[p] - pools[p]):
            cap, load = pools[p], loads[p]
            if (cap, load) in tried:  # pools alike so far are interchangeable
                continue
            tried.add((cap, load))
            rest = (*loads[:p], load + sizes[i], *loads[p + 1:])
            place(i + 1, rest, short + max(0, sizes[i] - max(0, cap - load)))

    try:
        place(0, (0,) * len(pools), 0)
    except _TooMany:
        return simple
    return best


class _TooMany(Exception):
    pass


@dataclass(frozen=True, slots=True)
class WildNeed:
    """At least ``wilds`` wilds are needed to make the phase from the whole deck."""

    wilds: int
    parts: int  # of them, the wilds its wild parts take
    reasons: tuple[str, ...]

    def message(self, deck: Deck) -> str:
        """'needs at least N wilds[, the deck has M]: why', as parse and lint both say it."""
        have = f", the deck has {deck.wilds}" if self.wilds > deck.wilds else ""
        s = "" if self.wilds == 1 else "s"
        return f"needs at least {self.wilds} wild{s}{have}: " + "; ".join(self.reasons)


def wild_need(groups: Sequence[Group], deck: Deck, wrap: bool = False) -> WildNeed:
    """A sound lower bound on the wilds any meld of a phase of ``groups`` uses, with the reasons
    (``wrap``: runs may wrap from the top number to the bottom, so no number is in every
    window of a run shorter than the deck's numbers)."""
    reasons: list[str] = []
    family_need = 0
    for kind in _PLURALS:
        gs = sorted((g for g in groups if g.kind is kind), key=lambda g: -g.size)
        if not gs:
            continue
        pools = _pools(kind, deck)
        need = _placement_need(tuple(g.size for g in gs), pools)
        alone = 0
        for g in dict.fromkeys(h for h in groups if h.kind is kind):  # in written order
            cap, why = natural_cap(g, deck)
            if g.size > cap:
                many = sum(1 for h in gs if h == g)
                who = "each" if many > 1 else "a"
                label = g.describe(deck).removeprefix("1 ")
                reasons.append(f"{who} {label} can hold at most {cap} natural cards ({why})")
                alone += many * (g.size - cap)
        if need > alone:
            caps = " or ".join(str(p) for p in sorted(set(pools)))
            reasons.append(f"the {len(gs)} {_PLURALS[kind]} must share {len(pools)} "
                           f"{_POOL_PLURALS[kind]} of {caps} natural cards each")
        family_need += need
    for g in dict.fromkeys(h for h in groups if h.kind.is_pair_run or h.kind.is_bounded):
        # runs of pairs and over/under groups: each alone, and the alike ones together
        # (they draw on one pool: two cards of each number, the cards past one bound)
        cap, why = natural_cap(g, deck)
        many = sum(1 for h in groups if h == g)
        over = many * g.size - cap if g.kind.is_bounded else many * max(0, g.size - cap)
        if over > 0:
            label = g.describe(deck).removeprefix("1 ")
            who = f"{many} groups of {label} hold" if many > 1 else f"a {label} holds"
            reasons.append(f"{who} at most {cap} natural cards ({why})")
            family_need += over
    run_need, run_reason = _forced_numbers(groups, deck, wrap)
    if run_need:
        reasons.append(run_reason)
        family_need += run_need
    natural_sizes = sum(g.size for g in groups if g.kind.needs_natural)
    naturals = len(deck.colors) * len(deck.numbers) * deck.copies
    if natural_sizes - naturals > family_need:
        family_need = natural_sizes - naturals
        reasons = [f"its groups hold {natural_sizes} cards and the deck has {naturals} "
                   "natural cards"]
    parts = sum(g.size for g in groups if g.kind is Kind.WILD)
    if parts:
        reasons.append(f"its wild parts take {parts}" + (" more" if family_need else ""))
    return WildNeed(family_need + parts, parts, tuple(reasons))


def _forced_numbers(groups: tuple[Group, ...], deck: Deck, wrap: bool = False
                    ) -> tuple[int, str]:
    """Wilds the runs need because every window of a long run holds the middle numbers
    (a run of pairs two cards of each; under ``wrap`` only a run of every number)."""
    demand: dict[int, int] = {}
    for g in groups:
        if not (g.kind.is_run or g.kind.is_pair_run):
            continue
        numbers = _run_numbers(g, deck) if g.kind.is_run else list(deck.numbers)
        m, s = len(numbers), g.length
        if 2 * s > m and (not wrap or s >= m):
            for n in numbers[m - s:s]:
                demand[n] = demand.get(n, 0) + (2 if g.kind.is_pair_run else 1)
    per_number = len(deck.colors) * deck.copies
    short = {n: d - per_number for n, d in demand.items() if d > per_number}
    if not short:
        return 0, ""
    low, high = min(short), max(short)
    where = f"the number {low}" if low == high else f"each number from {low} to {high}"
    return sum(short.values()), (f"{where} must be in {max(demand.values())} of its runs "
                                 f"whichever number each starts at, and the deck has "
                                 f"{per_number} cards of each number")
