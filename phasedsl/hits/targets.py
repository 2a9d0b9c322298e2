"""Hits: which laid groups take a card, and where; and a play order for several cards.

A laid group is judged once by ``layout.read_group`` (the one home of the meld
rules) and kept as a small state: a run's ends, a set's number, a color, a
parity.  The state is remembered on the LaidGroup, so asking again costs a
dictionary look-up.

Where an unstated wild sits in a laid run: in place, the run read as written low
to high or high to low (``R5 R6 W``: the wild is 7; ``W R5 R6``: 4); where that
would pass the deck's numbers, the wild takes the other end (``R11 R12 W``: 10).
Write ``W=7`` to say it outright.

Runs never go below or above the deck's numbers.  A wild hit on a run open at
both ends may go at either end, standing for the number there (in the printed
game the player says what a laid wild is); ``Rules.wild_hit_end`` only says
which end is listed, and preferred, first.

``plan`` places as many cards as any order, choice of group and choice of end
can.  Only runs change as cards land; a card that fits a set, a color or a
parity group fits it whatever else is played.  So the search is over run
extensions alone, and every card no run uses goes to such a group if one takes
it.  A card a run uses earns a point only if no other group would take it (that
is what a bridge is worth).  The search itself is in ``hitplan``.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from .cards import WILD, Card
from .coerce import as_cards, as_laid, as_rules, hit_args
from .errors import LayoutError
from .layout import read_group
from .meld import LaidGroup
from .phase import Group, Kind
from .rules import DEFAULT_RULES, Rules


@dataclass(frozen=True, slots=True)
class Hit:
    """One card played onto one group: ``end`` is "low"/"high" on a run, else None.

    ``stands`` is the number a card played as a wild stands for (None for a
    natural played as itself, or where the number is open).  ``swap`` names the
    laid wild a natural replaces (Utah rules); that wild then moves to ``end``
    of the same run, standing for ``stands``.  A swap with no ``end`` is the
    Japanese page's take-back (``Rules.wild_take_back``): the natural takes the
    wild's place and the wild goes to the player's hand.
    """

    card: Card
    index: int  # where the group is in the laid groups given: laid[index] (from 0)
    end: str | None = None
    swap: Card | None = None
    stands: int | None = None

    @property
    def group(self) -> int:
        """The group's number, counted from 1 as the text, the JSON and game logs count."""
        return self.index + 1

    def __str__(self) -> str:
        return hit_words(str(self.card), self.group, self.end,
                      None if self.swap is None else str(self.swap), self.stands,
                      self.card.natural)

    def to_json(self) -> dict:
        out: dict = {"card": str(self.card), "group": self.group, "end": self.end}
        if self.stands is not None:
            out["stands"] = self.stands
        if self.swap is not None:
            out["swap"] = str(self.swap)
            if self.end is None:
                out["wild_to_hand"] = True
        return out


def hit_words(card: str, group: int, end: str | None, swap: str | None, stands: int | None,
           natural: bool) -> str:
    """A hit in words (shared by Hit and the JSON-to-text helper in api.py)."""
    if swap is not None and end is None:
        return f"{card} replaces {swap} in group {group}; the wild goes to your hand"
    if swap is not None:
        return (f"{card} swaps for {swap} in group {group}; the wild moves to the {end} end"
                f" (as {stands})")
    where = f"{card} onto group {group}" + (f" at the {end} end" if end else "")
    if stands is None:
        return where
    return where + (f" (as a wild {stands})" if natural else f" (as {stands})")


@dataclass(frozen=True, slots=True)
class HitPlan:
    """Hits for several cards, in an order that works; ``left`` could not be placed.

    ``exact`` is True when no order places more cards; False only when the
    search stopped at its budget (a very large hand), so more may fit.
    """

    hits: tuple[Hit, ...]
    left: tuple[Card, ...]
    exact: bool = True

    @property
    def complete(self) -> bool:
        return not self.left

    @property
    def placed(self) -> int:
        """How many of the hand's cards the plan places: a take-back puts a wild in the
        hand, so that wild played again is not counted twice."""
        return len(self.hits) - sum(h.swap is not None and h.end is None for h in self.hits)

    def __str__(self) -> str:
        return "\n".join(plan_lines([str(h) for h in self.hits], [str(c) for c in self.left],
                                     self.placed, self.exact))


def plan_lines(hits: Sequence[str], left: Sequence[str], placed: int, exact: bool,
               taken: Collection[str] = ()) -> list[str]:
    """A plan in words: its hits in order, each card left and why, how many were placed
    (shared by HitPlan and the CLI's text, which lists first every single hit that fits,
    and so knows the cards in ``taken``: those that fit only by taking a wild back)."""
    lines = []
    if hits:
        lines.append("play in this order:" if len(hits) > 1 else "play:")
        lines += ["  " + h for h in hits]
    lines += [f"  {c}: " + ("fits only by taking a wild back (above), and no group has room "
                            "for the wild that frees" if c in taken else "no group takes it")
              for c in left]
    total = placed + len(left)
    if not total:
        lines.append("no cards to place")
    elif not left:
        lines.append(f"all {total} cards placed" if total > 1 else "the card is placed")
    elif exact:
        lines.append(f"{placed} of {total} placed: no order places more")
    else:
        lines.append(f"{placed} of {total} placed; the search stopped at its limit, so another "
                     "order may place more")
    return lines


class _State:
    """A laid group as hits see it, read under one Rules.

    ``number``, ``color``, ``parity`` are None where the group leaves them open
    (a group of wilds only); ``swaps`` are a run's laid wilds, with their numbers.
    """

    __slots__ = ("cmap", "color", "ends", "high", "kind", "low", "memo", "number", "parity",
                 "rules", "swaps")

    def __init__(self, rules: Rules, kind: Kind, low: int = 0, high: int = 0,
                 number: int | None = None, color: str | None = None,
                 parity: int | None = None, cmap: dict | None = None,
                 swaps: tuple[Card, ...] = ()) -> None:
        self.rules = rules
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
                and (self.parity is None or card.number % 2 == self.parity))

    @property
    def open_class(self) -> bool:
        """A set, color or parity group that no natural has fixed yet."""
        k = self.kind
        return ((k.is_set and self.number is None) or (k.one_color and self.color is None)
                or (k in _PARITY and self.parity is None))

    def fixed_by(self, card: Card) -> _State:
        """This open group once ``card`` (a natural) has fixed what it left open."""
        k = self.kind
        return _State(self.rules, k, number=card.number if k.is_set else None,
                      color=card.color if k.one_color else None,
                      parity=card.number % 2 if k in _PARITY else None)


_PARITY = (Kind.EVEN_ODD, Kind.COLOR_EVEN_ODD)
_STATIC = (Kind.WILD, Kind.SKIP)


def _one(values: set) -> object | None:
    return next(iter(values)) if len(values) == 1 else None


def _build(group: Group, given: Sequence[Card], read: Sequence[Card], rules: Rules) -> _State:
    """The state of a legal group: ``given`` as laid, ``read`` as read_group placed it."""
    k = group.kind
    if rules.runs_one_color and k is Kind.RUN:
        k = Kind.COLOR_RUN
    wn = rules.wild_numbers
    # What the player fixed: naturals as themselves and what a wild was said to be.
    # A card of a wild number (postal rule) may be acting as a wild, so it fixes
    # nothing unless two naturals per group are needed and only such cards give them.
    sure = [c for c in given if c.wild or (c.natural and c.number not in wn)]
    if not any(c.natural for c in sure) and rules.natural_scope == "group" \
            and rules.min_naturals >= 2:
        sure = [c for c in given if not c.skip]
    color = _one({c.color for c in sure if c.color is not None}) if k.one_color else None
    if k.is_run:
        n = len(read)
        starts = {c.number - i for i, c in enumerate(read) if c.wild or c.number not in wn}
        low = _one(starts)
        if low is None:  # every card is of a wild number: read as laid from the first
            first = read[0].number
            low = first if first + n - 1 <= rules.deck.high else rules.deck.high - n + 1
        cmap = dict(group.colors) if group.colors is not None else None
        # A laid wild, for swaps.  In a one-color run the reading paints every wild the
        # run's color; the color the player gave is already in ``color``.
        swaps = tuple(Card(c.number, None if k.one_color else c.color, wild=True)
                      for c in read if c.wild)
        return _State(rules, k, low, low + n - 1, color=color, cmap=cmap, swaps=swaps)
    nums = {c.number for c in sure if c.number is not None}
    # the wilds a natural may take back (wild_take_back), whatever card they stand for here
    wilds = tuple(c for c in given if c.wild)
    if k.is_set:
        return _State(rules, k, number=_one(nums), color=color, swaps=wilds)
    if k in _PARITY:
        return _State(rules, k, parity=_one({x % 2 for x in nums}), color=color, swaps=wilds)
    return _State(rules, k, color=color, swaps=wilds)


def _not_legal(problems: list[tuple[str, str]]) -> str:
    return "; ".join(msg for _, msg in problems) or "it cannot be read"


def read_laid(group: Group, cards: Sequence[Card], rules: Rules = DEFAULT_RULES,
              name: str = "the laid group") -> LaidGroup:
    """A laid group, checked at once: LayoutError says which rule it breaks."""
    read, problems = read_group(group, cards, rules)
    if problems or read is None:
        raise LayoutError(f"{name} is not legal: {_not_legal(problems)}")
    lg = LaidGroup(group, tuple(cards))
    _remember(lg, rules, _build(group, cards, read, rules))
    return lg


def _remember(lg: LaidGroup, rules: Rules, state: _State) -> None:
    memo = lg._memo
    if memo is None:
        memo = {}
        object.__setattr__(lg, "_memo", memo)
    elif len(memo) > 8:
        memo.clear()
    # Keyed by identity (hashing Rules costs more than a hit); the entry holds the
    # Rules, so its id cannot be reused while the entry lives.
    memo[id(rules)] = (rules, state)


def _state(lg: LaidGroup, index: int, rules: Rules) -> _State:
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
    state = _build(lg.group, lg.cards, read, rules)
    _remember(lg, rules, state)
    return state


def _acts_wild(card: Card, rules: Rules) -> bool:
    return card.wild or (card.natural and card.number in rules.wild_numbers)


def _options(st: _State, card: Card) -> list[tuple[str | None, Card | None, int | None]]:
    """Where ``card`` (as in a hand) goes on this group now: (end, swapped wild, stands)."""
    rules = st.rules
    k = st.kind
    if card.skip:
        return [(None, None, None)] if k is Kind.SKIP else []
    wildish = _acts_wild(card, rules)
    if k is Kind.SKIP:
        return [(None, None, None)] if wildish and rules.wild_as_skip else []
    if k is Kind.WILD:
        return [(None, None, None)] if wildish else []
    if not k.is_run:
        if card.natural and st.takes(card):
            return [(None, None, None), *_take_back(st, card)]
        return [(None, None, st.number)] if wildish else []
    out: list[tuple[str | None, Card | None, int | None]] = []
    for end in st.ends:
        n = st.slot(end, st.low, st.high)
        if n is None:
            continue
        if card.natural and card.number == n and st.color_ok(st.color, card.color, n):
            out.append((end, None, None))
        elif wildish:
            out.append((end, None, n))
    if rules.wild_swap and card.natural:
        for w in st.swaps:
            # (a card of a wild number may stand in for the wild as a wild itself)
            if w.number == card.number and w.color in (None, card.color) \
                    and (st.color_ok(st.color, card.color, w.number) or wildish):
                for end in st.ends:
                    n = st.slot(end, st.low, st.high)
                    if n is not None:
                        out.append((end, w, n))
                break
    return out + _take_back(st, card)


def _take_back(st: _State, card: Card) -> list[tuple[str | None, Card | None, int | None]]:
    """The Japanese page's take-back: ``card`` (a natural) replaces a laid wild that stands
    for it (in a run, the wild at its number; elsewhere, each wild laid as something the
    card is, once per way it was laid: which one goes may matter to later hits), and the
    wild goes to the hand.  A card of a wild number acting as a wild is a natural laid,
    not a wild to take back."""
    if not (st.rules.wild_take_back and card.natural):
        return []
    out: list[tuple[str | None, Card | None, int | None]] = []
    for w in dict.fromkeys(st.swaps):
        if st.kind.is_run:
            if (w.number == card.number and w.color in (None, card.color)
                    and st.color_ok(st.color, card.color, w.number)):
                return [(None, w, None)]
        elif w.number in (None, card.number) and w.color in (None, card.color):
            out.append((None, w, None))
    return out


def targets(laid: Sequence[LaidGroup | str] | str, card: Card | str, rules: Rules = DEFAULT_RULES
            ) -> list[Hit]:
    """Every legal single hit of ``card`` onto the laid groups (a wild: each open end).
    ``card`` may be a card string, ``laid`` hold ``'KIND: CARDS'`` strings."""
    # The hot path of a hit checker: answers are kept per group state, per card
    # (as a plain tuple: hashing it is cheaper than hashing a Card), per index.
    out: list[Hit] = []
    try:  # (free until an argument is not of its type: then it is read, or refused, below)
        if card.wild:
            card = WILD
        key = (card.number, card.color, card.wild, card.skip)
        rid = id(rules)
        for i, lg in enumerate(laid):
            memo = lg._memo
            got = memo.get(rid) if memo is not None else None
            st = got[1] if got is not None else _state(lg, i, rules)
            per_index = st.memo.get(key)
            if per_index is None:
                if len(st.memo) > 512:
                    st.memo.clear()
                per_index = st.memo[key] = {}
            hits = per_index.get(i)
            if hits is None:
                hits = per_index[i] = tuple(Hit(card, i, end, swap, stands)
                                            for end, swap, stands in _options(st, card))
            out += hits
    except (AttributeError, TypeError):
        args = hit_args("hit_targets", laid, card, rules)  # an ArgumentError if not of use
        if (type(laid) not in (list, tuple) or args[1] is not card or args[2] is not rules
                or any(a is not b for a, b in zip(args[0], laid, strict=True))):
            return targets(*args)
        raise  # every argument was of its type: the fault is not the caller's
    return out


# Search nodes before the plan settles for the best found so far (and says so).
# Keeps any call, up to the 200-card limit, well under two seconds.
SEARCH_BUDGET = 20_000
MAX_CARDS = 200
MAX_GROUPS = 100


def plan(laid: Sequence[LaidGroup | str] | str, cards: Sequence[Card] | str,
         rules: Rules = DEFAULT_RULES,
         budget: int = SEARCH_BUDGET) -> HitPlan:
    """Place as many of ``cards`` as any play order can, and give that order.  ``cards``
    may be a card string, ``laid`` hold ``'KIND: CARDS'`` strings."""
    rules = as_rules(rules, "hit_plan")
    laid = as_laid(laid, rules, "hit_plan")
    cards = as_cards(cards, rules.deck, "hit_plan")
    if len(cards) > MAX_CARDS:
        raise LayoutError(f"too many cards to hit at once ({len(cards)}; the limit is "
                          f"{MAX_CARDS})")
    if len(laid) > MAX_GROUPS:
        raise LayoutError(f"too many laid groups ({len(laid)}; the limit is {MAX_GROUPS})")
    hand = [c.plain() for c in cards]
    if rules.wild_take_back:
        return _taking_back(list(laid), hand, rules, budget)
    return _search(laid, hand, rules, budget)[0]


def _search(laid: Sequence[LaidGroup], hand: list[Card], rules: Rules, budget: int
            ) -> tuple[HitPlan, int]:
    """The plan of hits and Utah swaps, and the search nodes it took."""
    from .hitplan import Search  # the search builds on this module's states

    search = Search([_state(lg, i, rules) for i, lg in enumerate(laid)], hand, rules, budget)
    return search.run(), search.nodes


def _taking_back(laid: list[LaidGroup], hand: list[Card], rules: Rules, budget: int) -> HitPlan:
    """The best plan when naturals may take laid wilds back (the Japanese page): a take-back
    places its natural and puts the wild in the hand, where it may then be played like any
    wild, so a plan may place more cards with some.  A wild taken back and played, then
    taken back again, does no more than the natural played there directly; so the plan is
    some take-backs of the wilds laid now, then hits.  Every sequence of take-backs is
    tried (a take-back may allow another: G5 for W=G5 leaves a group of 5s that R5 may
    take W=5 from, where the postal 5s act as wilds), each table once, sharing the
    search budget."""
    left = budget
    best: HitPlan | None = None
    exact = True
    seen: set = set()

    def visit(laid: list[LaidGroup], hand: list[Card], done: tuple[Hit, ...]) -> None:
        nonlocal left, best, exact
        key = (tuple(lg.cards for lg in laid), tuple(sorted(map(str, hand))))
        if key in seen:
            return
        seen.add(key)
        got, nodes = _search(laid, hand, rules, max(left, 1))
        left -= nodes
        exact = exact and got.exact
        if best is None or len(got.left) < len(best.left):
            best = HitPlan((*done, *got.hits), got.left)
        # a wild-like card left over: no group has room for the wild a take-back frees
        if not best.left or any(_acts_wild(c, rules) for c in got.left):
            return
        for card in dict.fromkeys(c for c in hand if c.natural):
            for h in targets(laid, card, rules):
                if h.swap is None or h.end is not None:
                    continue
                if left <= 0:
                    exact = False
                    return
                rest = list(hand)
                rest.remove(card)
                visit([*laid[:h.index], _take_back_laid(laid[h.index], h, rules),
                       *laid[h.index + 1:]], [*rest, WILD], (*done, h))

    visit(laid, hand, ())
    assert best is not None
    return HitPlan(best.hits, best.left, exact)


def _take_back_laid(lg: LaidGroup, h: Hit, rules: Rules) -> LaidGroup:
    """``lg`` once ``h.card`` has taken the wild ``h.swap`` back: in a run the wild standing
    at the card's number (the run keeps its ends), elsewhere any wild laid as ``h.swap``."""
    before = _state(lg, h.index, rules)
    for k, c in enumerate(lg.cards):
        if not c.wild or (not before.kind.is_run and c != h.swap):
            continue
        cards = (*lg.cards[:k], h.card, *lg.cards[k + 1:])
        read, problems = read_group(lg.group, cards, rules)
        if problems or read is None:
            continue
        new = LaidGroup(lg.group, cards)
        after = _build(lg.group, cards, read, rules)
        if (after.low, after.high) == (before.low, before.high):
            _remember(new, rules, after)
            return new
    raise AssertionError(f"{h} was offered but cannot be made")  # targets offers only these


