"""Card types and group classes: what the solver enumerates.

Card types are indexed color-major (t = ci * nn + ni).  A group's *class* is
what fixes it (a set's number, a run's window, a color, a parity...); every
legal group has exactly one, so enumerating classes loses nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import NamedTuple

from ..model.cards import Card, Deck, interned
from ..model.group import Group, Kind
from ..model.rules import Rules


@dataclass(frozen=True)
class Tables:
    deck: Deck
    nc: int
    nn: int
    num_mask: tuple[int, ...]  # types showing number index ni
    col_mask: tuple[int, ...]  # types of color index ci
    par_mask: tuple[int, ...]  # types of parity p (of the real number)
    col_index: dict  # color letter -> color index
    # color letter -> {number: (card type, its bit, number index)}: a card read in one lookup
    card_type: dict
    cards: tuple[Card, ...]  # the natural card of each type
    show_rank: tuple[int, ...]  # type -> its place when showing cards (by number, then color)

    def sort_key(self, t: int) -> int:
        """Key that orders card types as cards are shown: by number, then color."""
        return self.show_rank[t]


@cache
def tables(deck: Deck) -> Tables:
    nc, nn = len(deck.colors), len(deck.numbers)
    num_mask = tuple(sum(1 << (ci * nn + ni) for ci in range(nc)) for ni in range(nn))
    col_mask = tuple(sum(1 << (ci * nn + ni) for ni in range(nn)) for ci in range(nc))
    par_mask = tuple(
        sum(num_mask[ni] for ni in range(nn) if (ni + deck.low) % 2 == p) for p in (0, 1)
    )
    col_index = {c: ci for ci, c in enumerate(deck.colors)}
    # (the interned cards: the same objects as a dealt hand's, see cards.interned)
    cards = tuple(interned(Card(ni + deck.low, c)) for c in deck.colors for ni in range(nn))
    card_type = {c: {n: (ci * nn + n - deck.low, 1 << (ci * nn + n - deck.low), n - deck.low)
                     for n in deck.numbers}
                 for ci, c in enumerate(deck.colors)}
    show_rank = tuple(sorted(range(nc * nn), key=lambda t: (t % nn, t)).index(t)
                      for t in range(nc * nn))
    return Tables(deck, nc, nn, num_mask, col_mask, par_mask, col_index, card_type, cards,
                   show_rank)


# A class of a group: ``mask`` holds the card types it accepts; for a run,
# ``window`` is the tuple of number indices it covers (one card each).
@dataclass(frozen=True, slots=True)
class Class:
    key: tuple
    mask: int
    window: tuple[int, ...] | None = None
    color: int | None = None  # color index, when the class fixes one
    number: int | None = None  # number index, when the class fixes one (sets)
    # How to read the class's capacity off a Hand: (aggregate, index); for a
    # run, the window's number bits.
    agg: str = "mask"
    index: int = 0
    # A run's cards per number of its window (a run of pairs takes two of each).
    per: int = 1


class Plan(NamedTuple):
    """What one group ends up with: its class, and the naturals it takes."""

    cls: Class | None
    naturals: dict  # type index -> count (None -> virtual cards)


NO_PLAN = Plan(None, {})  # wild and skip parts (never mutated)


def windows(nn: int, length: int, wrap: bool = False) -> list[tuple[int, ...]]:
    """The windows of ``length`` numbers in a row (number indices, in run order).

    With ``wrap`` a window may run on from the top number to the bottom (11 12 1 2);
    a window of every number is then one circle, listed once (any rotation holds the same
    cards), and no window is longer than the deck's numbers."""
    if length > nn or length < 1:
        return []
    if not wrap or length == nn:
        return [tuple(range(a, a + length)) for a in range(nn - length + 1)]
    return [tuple((a + i) % nn for i in range(length)) for a in range(nn)]


@lru_cache(maxsize=1024)
def classes_of(group: Group, deck: Deck, wrap: bool = False) -> tuple[Class, ...]:
    """Every class of a group in this deck (``wrap``: runs may wrap from top to bottom)."""
    tb = tables(deck)
    nc, nn = tb.nc, tb.nn
    k, size = group.kind, group.size
    out: list[Class] = []
    if k is Kind.SET:
        out = [Class(("n", ni), tb.num_mask[ni], number=ni, agg="num", index=ni)
               for ni in range(nn)]
    elif k is Kind.COLOR_SET:
        out = [
            Class(("cn", ci, ni), 1 << (ci * nn + ni), color=ci, number=ni, agg="type",
                   index=ci * nn + ni)
            for ci in range(nc)
            for ni in range(nn)
        ]
    elif k is Kind.COLOR:
        # (a color map on a color group keeps the colors it allows at every number: the
        # blue groups a skip is laid in as a blue card, see blueskips)
        out = [Class(("c", ci), tb.col_mask[ci], color=ci, agg="col", index=ci)
               for ci in range(nc)
               if group.colors is None or all(deck.colors[ci] in cs for _, cs in group.colors)]
    elif k is Kind.EVEN_ODD:
        out = [Class(("p", p), tb.par_mask[p], agg="par", index=p) for p in (0, 1)]
    elif k is Kind.COLOR_EVEN_ODD:
        out = [
            Class(("cp", ci, p), tb.col_mask[ci] & tb.par_mask[p], color=ci, agg="cp",
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
            for window in windows(nn, size, wrap):
                a = window[0]
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
                    out.append(Class(key, mask, window, color=ci, agg=agg, index=winbits))
    elif k.is_pair_run:
        # two cards of each number of the window (a color form: of one color)
        colors = range(nc) if k is Kind.COLOR_PAIR_RUN else [None]
        for ci in colors:
            for window in windows(nn, group.length, wrap):
                winbits = sum(1 << ni for ni in window)
                mask = sum(tb.num_mask[ni] if ci is None else 1 << (ci * nn + ni)
                           for ni in window)
                if ci is None:
                    out.append(Class(("pr", window[0]), mask, window, agg="prun",
                                     index=winbits, per=2))
                else:
                    out.append(Class(("cpr", ci, window[0]), mask, window, color=ci,
                                     agg="cprun", index=winbits, per=2))
    elif k.is_bounded:
        # one class: every card past the bound
        mask = sum(tb.num_mask[ni] for ni in range(nn) if group.admits(ni + deck.low))
        if mask:
            out = [Class(("b",), mask, agg="bmask")]
    return tuple(out)


def window_counts(cl: Class, cnt, present: int, nn: int) -> dict[int, int]:
    """For a run's class: the hand's cards it accepts at each number of its window."""
    got: dict[int, int] = {}
    m = cl.mask & present
    while m:  # (the bits inline: a hot loop of the one-group shortfall)
        low = m & -m
        m ^= low
        t = low.bit_length() - 1
        ni = t % nn
        got[ni] = got.get(ni, 0) + cnt[t]
    return got


def window_hold(cl: Class, cnt, present: int, nn: int) -> int:
    """How many of the hand's cards a run's class holds (``per`` of each number at most)."""
    per = cl.per
    return sum(c if c < per else per for c in window_counts(cl, cnt, present, nn).values())


def full_numbers(cl: Class, cnt, present: int, nn: int) -> int:
    """The numbers (bits) at which a run's class already holds all it can take."""
    out = 0
    for ni, c in window_counts(cl, cnt, present, nn).items():
        if c >= cl.per:
            out |= 1 << ni
    return out


@cache
def best_window(nn: int, size: int, wrap: bool = False) -> _WindowBest:
    """For a set of numbers present (a bit mask), the most of them one run window holds."""
    return _WindowBest(nn, size, wrap)


class _WindowBest(dict):
    """Filled on demand: a full table has 2**numbers entries, too many for a long deck."""

    def __init__(self, nn: int, size: int, wrap: bool = False) -> None:
        super().__init__()
        self.windows = [sum(1 << ni for ni in w) for w in windows(nn, size, wrap)]

    def __missing__(self, mask: int) -> int:
        best = max([(mask & w).bit_count() for w in self.windows], default=0)
        if len(self) < 1 << 16:
            self[mask] = best
        return best


def bits(mask: int) -> Iterable[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def as_played(g: Group, rules: Rules) -> Group:
    """The group as its classes are enumerated under the rules (runs of one color)."""
    if rules.runs_one_color and g.kind is Kind.RUN:
        return Group(Kind.COLOR_RUN, g.size, g.colors)
    if rules.runs_one_color and g.kind is Kind.PAIR_RUN:
        return Group(Kind.COLOR_PAIR_RUN, g.size)
    return g


def played_classes(g: Group, rules: Rules) -> tuple[Class, ...]:
    """The classes of a group as played under the rules (one color, wrap-around)."""
    return classes_of(as_played(g, rules), rules.deck, rules.runs_wrap)
