"""Reading laid groups of the kinds custom phase sets use (issue 19): over/under groups,
runs of pairs, and runs that wrap from the deck's top number to its bottom (``runs_wrap``).

``layout`` asks here for these; each reader answers as ``layout._read`` does: (the cards
in laid order with every wild's value filled in, the broken rules as (rule, message)
pairs, the index in the given cards of each laid card).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ..model.cards import Card, Deck
from ..model.group import Group, Kind
from ..model.rules import Rules


def run_windows(length: int, deck: Deck, wrap: bool) -> list[list[int]]:
    """The numbers of each run of ``length`` numbers in a row, in run order, straight ones
    first, low to high; with ``wrap`` also those running on from the top number to the
    bottom (11 12 1 2).  A run of every number is the whole circle, read once, straight;
    none is longer than the deck's numbers."""
    nums = list(deck.numbers)
    count = len(nums)
    if length < 1 or length > count:
        return []
    out = [nums[a:a + length] for a in range(count - length + 1)]
    if wrap and length < count:
        out += [[nums[(a + i) % count] for i in range(length)]
                for a in range(count - length + 1, count)]
    return out


def read_bounded(group: Group, cards: Sequence[Card], label: str,
                 problems: list[tuple[str, str]]):
    """An over or under group: every card's number (a wild's, when said) past the bound."""
    word = "above" if group.kind is Kind.OVER else "below"
    for c in cards:
        if c.number is not None and not group.admits(c.number):
            problems.append(("over_under", f"a {label} holds only cards numbered {word} "
                                           f"{group.bound}, not {c}"))
            break
    return tuple(cards), problems, list(range(len(cards)))


def read_pair_run(group: Group, cards: Sequence[Card], rules: Rules, color: str | None,
                  label: str, problems: list[tuple[str, str]]):
    """A run of pairs: two cards of each of its numbers, the numbers in a row (wrapping
    under ``runs_wrap``); laid number by number, each number's cards then the wilds."""
    deck = rules.deck
    n = len(cards)
    ident = list(range(n))
    if n % 2:
        problems.append(("pairs", f"a {label} holds two cards of each number, this group has "
                                  f"{n} cards"))
        return tuple(cards), problems, ident
    known = [c.number for c in cards if c.number is not None]
    over = sorted(v for v, k in Counter(known).items() if k > 2)
    if over:
        k = Counter(known)[over[0]]
        problems.append(("pairs", f"a run of pairs shows each number twice, this group has "
                                  f"{k} cards numbered {over[0]}"))
        return tuple(cards), problems, ident
    length = n // 2
    wins = [w for w in run_windows(length, deck, rules.runs_wrap) if set(known) <= set(w)]
    if not wins:
        if length > len(deck.numbers):
            problems.append(("bounds", f"a run of {length} pairs needs {length} numbers, the "
                                       f"deck has {len(deck.numbers)}"))
        else:
            lo, hi = min(known), max(known)
            problems.append(("consecutive", f"{lo} and {hi} cannot both be in a run of "
                                            f"{length} pairs"))
        return tuple(cards), problems, ident
    window = _pair_window(wins, cards, known, deck, length)
    stand = color if group.kind is Kind.COLOR_PAIR_RUN else None
    loose = [i for i, c in enumerate(cards) if c.number is None]
    order: list[int] = []
    laid: list[Card] = []
    for x in window:
        mine = [i for i, c in enumerate(cards) if c.number == x]
        while len(mine) < 2:
            mine.append(loose.pop(0))
        for i in mine:
            c = cards[i]
            laid.append(c if c.natural else Card(x, c.color or stand, wild=True))
            order.append(i)
    return tuple(laid), problems, order


def _pair_window(wins: list[list[int]], cards: Sequence[Card], known: list[int], deck: Deck,
                 length: int) -> list[int]:
    """The window a run of pairs is read on: the one its cards lie in (two by two, up or
    down), else, as for a run, the one from its lowest number (or the deck's top, with
    no number said), straight before wrapped."""
    for w in wins:
        for seq in (w, w[::-1]):
            if all(c.number is None or c.number == seq[i // 2] for i, c in enumerate(cards)):
                return w  # (laid low to high, as a run is)
    straight = [w for w in wins if w == sorted(w)]
    if not straight:  # wrapped: as a run, from its first number said on
        return next((w for w in wins if w[0] in known), wins[0])
    lo = min(known) if known else deck.high - length + 1
    return next((w for w in straight if w[0] == lo), straight[-1])


def read_wrapped_run(group: Group, cards: Sequence[Card], rules: Rules, color: str | None,
                     as_laid: bool = False) -> tuple[tuple[Card, ...], list[int]] | None:
    """A run that wraps from the deck's top number to its bottom (``runs_wrap``): the cards
    in laid order with each wild's value, and the index of each laid card; None when no
    wrapped window holds them (the straight reading's problems then stand).  ``as_laid``:
    only a window the cards lie in as laid (up or down), each wild where it lies."""
    deck = rules.deck
    n = len(cards)
    values = [c.number for c in cards]
    known = [v for v in values if v is not None]
    if len(set(known)) != len(known):
        return None
    stand = color if group.kind is Kind.COLOR_RUN else None
    # as a straight run is read: from its first number said on, wilds at the high end
    wins = sorted((w for w in run_windows(n, deck, True) if w != sorted(w)),
                  key=lambda w: w[0] not in known)
    for window in wins:
        if not set(known) <= set(window):
            continue
        if any(group.allowed(x) == frozenset() for x in window):
            continue
        place = {x: k for k, x in enumerate(window)}
        order = _wrapped_order(group, cards, values, window, place, as_laid)
        if order is None:
            continue
        laid = tuple(c if c.natural else Card(window[k], c.color or stand, wild=True)
                     for k, c in enumerate(cards[i] for i in order))
        return laid, order
    return None


def _wrapped_order(group: Group, cards: Sequence[Card], values: list[int | None],
                   window: list[int], place: dict[int, int], as_laid: bool = False
                   ) -> list[int] | None:
    """Which given card stands at each place of the window: as laid (up or down) when
    they lie so, else each number at its place and the unsaid wilds in the gaps, each
    where a color map allows its color."""

    def fits(k: int, c: Card) -> bool:
        allowed = group.allowed(window[k])
        return allowed is None or c.color is None or c.color in allowed

    n = len(cards)
    ident = list(range(n))
    for order in (ident, ident[::-1]):
        if all((values[i] is None or place[values[i]] == k) and fits(k, cards[i])
               for k, i in enumerate(order)):
            return order
    if as_laid:
        return None
    slots: list[int | None] = [None] * n
    for i, v in enumerate(values):
        if v is not None:
            if not fits(place[v], cards[i]):
                return None
            slots[place[v]] = i
    loose = [i for i, v in enumerate(values) if v is None]
    for k in range(n):
        if slots[k] is None:
            pick = next((i for i in loose if fits(k, cards[i])), None)
            if pick is None:
                return None
            loose.remove(pick)
            slots[k] = pick
    return [i for i in slots if i is not None]


def keepable_new_kinds(group: Group, cards: Sequence[Card], rules: Rules, flex: list[int]
                       ) -> list[frozenset[int]]:
    """For an over/under group or a run of pairs, the maximal choices of the cards of wild
    numbers (postal) to keep natural (indices into ``cards``): an over/under group keeps
    those past its bound; a run of pairs, per window (and color, for a one-color run), up
    to two of each of its numbers."""
    if group.kind.is_bounded:
        return [frozenset(i for i in flex if group.admits(cards[i].number))]
    deck = rules.deck
    fixed = Counter(c.number for i, c in enumerate(cards) if c.number is not None and i not in flex)
    one_color = group.kind.one_color or rules.runs_one_color
    out = []
    for window in run_windows(len(cards) // 2, deck, rules.runs_wrap):
        for color in (deck.colors if one_color else (None,)):
            kept: list[int] = []
            room = {x: 2 - fixed[x] for x in window}
            for i in flex:
                c = cards[i]
                if room.get(c.number, 0) > 0 and color in (None, c.color):
                    room[c.number] -= 1
                    kept.append(i)
            out.append(frozenset(kept))
    return out
