"""What ``assess``, ``shortfall`` and ``outs`` return, and how they read.

``Assessment`` (the meld, or how far the hand is), ``Shortfall`` (cards short, the outs,
an example completion, and whether the count is exact and decided) and ``Out`` (a
completing card with its unseen copies); ``describe_outs`` and ``unseen_counts`` for
callers that word or count outs themselves.  The Outs and their wording are kept, since a
batch names the same few dozen cards on every line.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..model.cards import SKIP, WILD, Card, card_names
from ..model.group import Group, Part
from ..model.meld import Meld
from ..model.phase import Phase
from ..model.rules import DEFAULT_RULES, Rules
from . import budget


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
    # False when the search hit its step budget (huge phases only): ``missing`` is then
    # a lower bound, ``at_most`` an upper one, and the example holds ``at_most`` cards.
    exact: bool = True
    at_most: int | None = None
    # False when neither search could settle whether the hand makes the phase within its
    # budget: ``missing`` is then 0 as a lower bound (it may be made), not "made".
    decided: bool = True

    def summary(self, phase: Phase, rules: Rules = DEFAULT_RULES) -> str:
        if not self.decided:
            s = "s" if self.at_most != 1 else ""
            shown = " + ".join(card_names(self.example))
            example = f" (for example {shown} completes it)" if self.possible and shown else ""
            return (f"undecided: the search stopped at its budget ({budget.SEARCH_STEPS:,} steps "
                    f"or {budget.SEARCH_SECONDS} s); the hand is at most {self.at_most} card{s} short"
                    f"{example} and may make the phase")
        if self.missing == 0:
            return "made"
        if self.never:
            return f"cannot be made under these rules: {self.never}"
        s = "s" if self.missing != 1 else ""
        if not self.exact and self.missing == self.at_most:
            shown = " + ".join(str(c) for c in self.example)
            return (f"{self.missing} card{s} short: for example {shown} (the search stopped at "
                    "its budget before it could list every card that completes it)")
        if not self.exact:
            return (f"at least {self.missing} card{s} short and at most {self.at_most} (the exact "
                    f"count was out of reach of the search's {budget.SHORTFALL_STEPS:,} steps)")
        # one Phase of the groups, so equal ones read together: '2 sets of 3'
        what = _groups_text(self.groups, rules) if self.groups else phase.canonical(rules.deck)
        if self.missing == 1 and self.outs:
            return f"1 card short: {_outs_text(self.outs, rules)} completes {what}"
        if not self.possible:
            return (f"at least {self.missing} card{s} short of {what} (what is left of the deck "
                    "may not hold the cards that would complete it)")
        shown = " + ".join(card_names(self.example))
        return f"{self.missing} card{s} short: for example {shown} completes {what}"

    def to_json(self) -> dict:
        return {
            "missing": self.missing,
            "outs": [{"card": str(o.card), "unseen": o.unseen} for o in self.outs],
            "example": [str(c) for c in self.example],
            "possible": self.possible,
            **({} if self.exact else {"exact": False, "at_most": self.at_most}),
            **({} if self.decided else {"decided": False}),
        }


_GROUPS_TEXT: dict[tuple, tuple] = {}


def _groups_text(groups: tuple[Group, ...], rules: Rules) -> str:
    """The groups as one phrase, equal ones read together ('2 sets of 3'); kept, since a
    batch names the same few on every line."""
    key = (id(rules.deck), *map(id, groups))
    got = _GROUPS_TEXT.get(key)
    if got is None:
        if len(_GROUPS_TEXT) > 4096:
            _GROUPS_TEXT.clear()
        # the entry holds the objects, so their ids stay theirs
        got = _GROUPS_TEXT[key] = (groups, rules.deck, Phase(tuple(Part(1, g) for g in groups)
                                                            ).canonical(rules.deck))
    return got[2]


# Outs already made and worded (each entry keeps its objects, so their ids stay their own):
# hands one short name the same few dozen cards and the same few lists of them.
_OUTS: dict[tuple[int, int], Out] = {}


_OUTS_TEXT: dict[tuple, tuple] = {}


def listed(types: Iterable[int], pool: list[int], tb) -> list[Out]:
    """An Out for each card type with unseen copies, in the order cards are shown."""
    kept = [t for t in types if pool[t] > 0]
    kept.sort(key=tb.sort_key)
    out = []
    for t in kept:
        card, n = tb.cards[t], pool[t]
        got = _OUTS.get((id(card), n))
        if got is None:
            if len(_OUTS) > 4096:
                _OUTS.clear()
            got = _OUTS[id(card), n] = Out(card, n)
        out.append(got)
    return out


_NUMBER_OUTS: dict[tuple, tuple] = {}


def number_outs(numbers: Iterable[int], pool: list[int], tb) -> list[Out]:
    """An Out for each card of these number indices (ascending) with unseen copies, in the
    order cards are shown (number, then color: the types' order within a number)."""
    nn = tb.nn
    out: list[Out] = []
    for ni in numbers:
        left = pool[ni::nn]
        key = (id(tb), ni, *left)
        got = _NUMBER_OUTS.get(key)
        if got is None:
            if len(_NUMBER_OUTS) > 4096:
                _NUMBER_OUTS.clear()
            got = _NUMBER_OUTS[key] = (tb, tuple(listed(range(ni, len(pool), nn), pool, tb)))
        out += got[1]
    return out


def _outs_text(outs: tuple[Out, ...], rules: Rules) -> str:
    cards = [o.card for o in outs]
    key = (id(rules.deck), *map(id, cards))
    got = _OUTS_TEXT.get(key)
    if got is None:
        if len(_OUTS_TEXT) > 4096:
            _OUTS_TEXT.clear()
        got = _OUTS_TEXT[key] = (cards, rules.deck, describe_outs(cards, rules))
    return got[2]


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


@dataclass(frozen=True)
class Assessment:
    """A hand against a phase: the meld when made, else how far it is."""

    meld: Meld | None
    shortfall: Shortfall
