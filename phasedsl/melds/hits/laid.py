"""Laid groups as hits see them: each read once, by ``layout.read_group`` (the one home of
the meld rules), and kept as a small ``State`` (a run's ends, a set's number, a color, a
parity, the wilds laid) remembered on the LaidGroup, so asking again costs a dictionary
look-up.  Also the readers: ``read_laid`` (a group and its cards), ``laid_group`` (the text
'KIND: CARDS') and ``as_laid`` (what the Python API accepts for laid groups).

Where an unstated wild sits in a laid run: in place, the run read as written low
to high or high to low (``R5 R6 W``: the wild is 7; ``W R5 R6``: 4); where that
would pass the deck's numbers, the wild takes the other end (``R11 R12 W``: 10).
Write ``W=7`` to say it outright.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ...errors import ArgumentError, LayoutError, quoted
from ...model.cards import Card, parse_cards
from ...model.group import Group, Kind
from ...model.meld import LaidGroup
from ...model.phase import Phase
from ...model.rules import DEFAULT_RULES, Rules
from ...model.skipblue import blue_of
from ..layout import read_group


class State:
    """A laid group as hits see it, read under one Rules.

    ``number``, ``color``, ``parity`` are None where the group leaves them open
    (a group of wilds only); ``swaps`` are a run's laid wilds, with their numbers.
    """

    __slots__ = ("bounded", "cmap", "color", "ends", "high", "kind", "low", "memo", "number",
                 "parity", "rules", "swaps")

    def __init__(self, rules: Rules, kind: Kind, low: int = 0, high: int = 0,
                 number: int | None = None, color: str | None = None,
                 parity: int | None = None, cmap: dict | None = None,
                 swaps: tuple[Card, ...] = (), bounded: Group | None = None) -> None:
        self.rules = rules
        self.bounded = bounded  # an over or under group: which numbers it takes
        self.kind = kind
        self.low, self.high = low, high
        self.number, self.color, self.parity = number, color, parity
        self.cmap = cmap
        self.swaps = swaps
        self.ends = ("high", "low") if rules.wild_hit_end == "high" else ("low", "high")
        self.memo: dict = {}  # card fields -> {group index: the Hits of that card here}

    def slot(self, end: str, low: int, high: int) -> int | None:
        """The number the next card at ``end`` stands for, or None if that end is closed."""
        n = low - 1 if end == "low" else high + 1
        deck = self.rules.deck
        if self.rules.runs_wrap:
            # past the top number comes the bottom one (``low``/``high`` run on past the
            # deck's numbers: 11..14 is 11 12 1 2); a run of every number is closed
            count = deck.high - deck.low + 1
            if high - low + 1 >= count:
                return None
            n = (n - deck.low) % count + deck.low
        if n < deck.low or n > deck.high or (self.cmap is not None and not self.cmap.get(n)):
            return None
        return n

    def color_ok(self, run_color: str | None, card_color: str | None, n: int) -> bool:
        """May a natural of this color stand at number ``n`` of this run?"""
        if run_color is not None and card_color != run_color:
            return False
        return self.cmap is None or card_color in self.cmap.get(n, ())

    def takes(self, card: Card) -> bool:
        """Does a natural fit this (non-run) group as itself?"""
        return ((self.number is None or card.number == self.number)
                and (self.color is None or card.color == self.color)
                and (self.parity is None or card.number % 2 == self.parity)
                and (self.bounded is None or self.bounded.admits(card.number)))

    @property
    def open_class(self) -> bool:
        """A set, color or parity group that no natural has fixed yet."""
        k = self.kind
        return ((k.is_set and self.number is None)
                or (k.one_color and self.color is None)
                or (k.is_parity and self.parity is None))

    def fixed_by(self, card: Card) -> State:
        """This open group once ``card`` (a natural) has fixed what it left open."""
        k = self.kind
        return State(self.rules, k, number=card.number if k.is_set else None,
                      color=card.color if k.one_color else None,
                      parity=card.number % 2 if k.is_parity else None)


STATIC = (Kind.WILD, Kind.SKIP)


def _one(values: set) -> object | None:
    return next(iter(values)) if len(values) == 1 else None


def build_state(group: Group, given: Sequence[Card], read: Sequence[Card], rules: Rules) -> State:
    """The state of a legal group: ``given`` as laid, ``read`` as read_group placed it."""
    k = group.kind
    if rules.runs_one_color and k is Kind.RUN:
        k = Kind.COLOR_RUN
    if rules.runs_one_color and k is Kind.PAIR_RUN:
        k = Kind.COLOR_PAIR_RUN
    wn = rules.wild_numbers
    # What the player fixed: naturals as themselves and what a wild was said to be.
    # A card of a wild number (postal rule) may be acting as a wild, so it fixes
    # nothing unless two naturals per group are needed and only such cards give them.
    sure = [c for c in given if c.wild or (c.natural and c.number not in wn)]
    if not any(c.natural for c in sure) and rules.natural_scope == "group" \
            and rules.min_naturals >= 2:
        sure = [c for c in given if not c.skip]
    color = _one({c.color for c in sure if c.color is not None}) if k.one_color else None
    if k is Kind.COLOR and any(c.skip for c in given):
        color = blue_of(rules)  # a skip in a color group is a blue card (read_group said so)
    if k.is_run:
        n = len(read)
        starts = {c.number - i for i, c in enumerate(read) if c.wild or c.number not in wn}
        if rules.runs_wrap:  # a wrapped run starts where its first card is (12 1 2: at 12)
            dl, count = rules.deck.low, len(rules.deck.numbers)
            starts = {(s - dl) % count + dl for s in starts}
        low = _one(starts)
        if low is None and rules.runs_wrap:
            low = read[0].number
        elif low is None:  # every card is of a wild number: read as laid from the first
            first = read[0].number
            low = first if first + n - 1 <= rules.deck.high else rules.deck.high - n + 1
        cmap = dict(group.colors) if group.colors is not None else None
        # A laid wild, for swaps.  In a one-color run the reading paints every wild the
        # run's color; the color the player gave is already in ``color``.
        swaps = tuple(Card(c.number, None if k.one_color else c.color, wild=True)
                      for c in read if c.wild)
        return State(rules, k, low, low + n - 1, color=color, cmap=cmap, swaps=swaps)
    if k.is_pair_run:
        # no single card extends a run of pairs; its laid wilds, with their numbers, may
        # be taken back (wild_take_back)
        swaps = tuple(Card(c.number, None if k.one_color else c.color, wild=True)
                      for c in read if c.wild)
        return State(rules, k, color=color, swaps=swaps)
    nums = {c.number for c in sure if c.number is not None}
    # the wilds a natural may take back (wild_take_back), whatever card they stand for here
    wilds = tuple(c for c in given if c.wild)
    if k.is_set:
        return State(rules, k, number=_one(nums), color=color, swaps=wilds)
    if k.is_parity:
        return State(rules, k, parity=_one({x % 2 for x in nums}), color=color, swaps=wilds)
    return State(rules, k, color=color, swaps=wilds,
                 bounded=group if k.is_bounded else None)


def _not_legal(problems: list[tuple[str, str]]) -> str:
    return "; ".join(msg for _, msg in problems) or "it cannot be read"


def read_laid(group: Group, cards: Sequence[Card], rules: Rules = DEFAULT_RULES,
              name: str = "the laid group") -> LaidGroup:
    """A laid group, checked at once: LayoutError says which rule it breaks."""
    read, problems = read_group(group, cards, rules)
    if problems or read is None:
        raise LayoutError(f"{name} is not legal: {_not_legal(problems)}")
    lg = LaidGroup(group, tuple(cards))
    remember(lg, rules, build_state(group, cards, read, rules))
    return lg


def remember(lg: LaidGroup, rules: Rules, state: State) -> None:
    memo = lg._memo
    if memo is None:
        memo = {}
        object.__setattr__(lg, "_memo", memo)
    elif len(memo) > 8:
        memo.clear()
    # Keyed by identity (hashing Rules costs more than a hit); the entry holds the
    # Rules, so its id cannot be reused while the entry lives.
    memo[id(rules)] = (rules, state)


def remember_read(lg: LaidGroup, rules: Rules) -> None:
    """Remember the state of a group whose cards are already ``read_group``'s reading of
    them under ``rules`` (a hit's result: the group with the card in place, as read): a
    reading read again is itself, so the state is built from the cards without reading
    them a second time (the group the referee made by a hit is the one hit next)."""
    remember(lg, rules, build_state(lg.group, lg.cards, lg.cards, rules))


def state_of(lg: LaidGroup, index: int, rules: Rules) -> State:
    memo = lg._memo
    if memo is not None:
        got = memo.get(id(rules))
        if got is not None:
            return got[1]
        for known, state in memo.values():  # equal Rules made afresh for each call
            if known == rules:
                return state
    read, problems = read_group(lg.group, lg.cards, rules)
    if problems or read is None:
        raise LayoutError(f"laid group {index + 1} ({lg.group.describe(rules.deck)}: {lg}) "
                          f"is not legal: {_not_legal(problems)}")
    state = build_state(lg.group, lg.cards, read, rules)
    remember(lg, rules, state)
    return state



_KINDS = {k.value: k for k in Kind} | {
    "color run": Kind.COLOR_RUN, "even odd": Kind.EVEN_ODD, "even or odd": Kind.EVEN_ODD,
    "color set": Kind.COLOR_SET, "color even odd": Kind.COLOR_EVEN_ODD,
    "color even or odd": Kind.COLOR_EVEN_ODD, "wilds": Kind.WILD, "skips": Kind.SKIP,
}


def laid_group(text: str, rules: Rules = DEFAULT_RULES) -> LaidGroup:
    """Read 'KIND: CARDS' (e.g. 'run: R3 R4 W=5 R6'); KIND may also be a one-group phrase.

    The group is checked at once: a LayoutError says which rule it breaks.
    """
    if not isinstance(text, str):
        raise ArgumentError("laid_group(text=...)", "a laid group as text, like 'run: R3 R4 W R6'",
                            text)
    head, sep, body = text.rpartition(":")  # a phrase head may hold colons (color maps)
    if not sep:
        raise LayoutError("write a laid group as 'KIND: CARDS', like 'run: R3 R4 W R6' "
                          f"(got {quoted(text, 60)})")
    cards_ = parse_cards(body, rules.deck)
    if not cards_:
        raise LayoutError(f"the laid group {text.strip()!r} has no cards")
    key = head.strip().lower()
    kind = _KINDS.get(key) or _KINDS.get(key.replace("_", " "))
    if kind is not None and kind.is_sum:
        # a sum's total is part of its shape: the cards alone cannot say it (wilds)
        raise LayoutError(f"write a laid sum with its phrase, like 'cards totalling 34: "
                          f"{body.strip()}' (got {quoted(text, 60)})")
    if kind is not None:
        group = Group(kind, max(1, len(cards_)))
    else:
        phase = Phase.parse(head, rules.deck)
        if len(phase.groups) != 1:
            raise LayoutError(f"{head.strip()!r} is {len(phase.groups)} groups; a laid group is one")
        group = phase.groups[0]
    return read_laid(group, cards_, rules, name=f"the laid group {text.strip()!r}")


def as_laid(x: object, rules: Rules, where: str) -> list[LaidGroup]:
    """Laid groups: LaidGroup values or ``'KIND: CARDS'`` strings (read by ``laid_group``),
    or one of either."""
    if isinstance(x, LaidGroup | str):
        x = [x]
    if not isinstance(x, Iterable) or isinstance(x, bytes | dict):
        raise ArgumentError(f"{where}(laid=...)", "laid groups (LaidGroup values, or strings "
                            "like 'run: R4 R5 R6')", x)
    out = []
    for g in x:
        if isinstance(g, LaidGroup):
            out.append(g)
        elif isinstance(g, str):
            out.append(laid_group(g, rules))
        else:
            raise ArgumentError(f"{where}(laid=...)", "laid groups (LaidGroup values, or "
                                "strings like 'run: R4 R5 R6')", g)
    return out
