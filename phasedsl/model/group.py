"""The pieces of a phase: kinds of group, groups, and parts (``count`` groups of one shape).

``phase.py`` puts parts together into a phase; the DSL reads a phrase into parts.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .cards import STANDARD_DECK, Deck
from .words import plural_word


class Kind(StrEnum):
    SET = "set"
    RUN = "run"
    COLOR = "color"
    COLOR_RUN = "color_run"
    EVEN_ODD = "even_odd"
    COLOR_EVEN_ODD = "color_even_odd"
    COLOR_SET = "color_set"
    WILD = "wild"
    SKIP = "skip"
    # Kinds custom phase sets use (issue 19): Phazed's "34-accumulations", the
    # randomizer's runs of pairs and "4 over 8".
    SUM = "sum"
    COLOR_SUM = "color_sum"
    PAIR_RUN = "pair_run"
    COLOR_PAIR_RUN = "color_pair_run"
    OVER = "over"
    UNDER = "under"

    def __str__(self) -> str:
        return self.value

    # What each kind is, as plain attributes of its member (set below, once): the solver
    # and the referee ask them many times a move, and a property testing membership
    # looks the members up on the enum class at every call.
    is_run: bool  # a run of single cards (one card per number); runs of pairs: is_pair_run
    is_pair_run: bool
    is_sum: bool
    is_bounded: bool  # over or under: every card's number strictly above or below Group.bound
    is_set: bool
    is_parity: bool  # even or odd (of one color or not)
    one_color: bool
    needs_natural: bool  # the natural-card minimum applies (wild and skip parts are exempt)


for _kind in Kind:
    _kind.is_run = _kind in (Kind.RUN, Kind.COLOR_RUN)
    _kind.is_pair_run = _kind in (Kind.PAIR_RUN, Kind.COLOR_PAIR_RUN)
    _kind.is_sum = _kind in (Kind.SUM, Kind.COLOR_SUM)
    _kind.is_bounded = _kind in (Kind.OVER, Kind.UNDER)
    _kind.is_set = _kind in (Kind.SET, Kind.COLOR_SET)
    _kind.is_parity = _kind in (Kind.EVEN_ODD, Kind.COLOR_EVEN_ODD)
    _kind.one_color = _kind in (Kind.COLOR, Kind.COLOR_RUN, Kind.COLOR_EVEN_ODD, Kind.COLOR_SET,
                                Kind.COLOR_SUM, Kind.COLOR_PAIR_RUN)
    _kind.needs_natural = _kind not in (Kind.WILD, Kind.SKIP)
del _kind


# For a run whose numbers each allow only some colors (Okie Circle J's "color
# changing phase"): number -> allowed color letters.  Numbers absent from the
# map cannot be part of the run.
ColorMap = tuple[tuple[int, frozenset[str]], ...]


@dataclass(frozen=True, slots=True)
class Group:
    """One group a player lays: its kind and minimum size.

    A sum's cards add up to ``total``: exactly ``size`` cards, or, with
    ``any_count``, as many as it takes (``size`` is then the fewest cards that can
    reach the total, so ``Phase.cards_needed`` stays a true minimum).  An over or
    under group's numbers are all strictly above or below ``bound``.  A run of
    pairs of ``size`` cards covers ``size // 2`` numbers, two cards each.
    """

    kind: Kind
    size: int
    colors: ColorMap | None = None
    total: int | None = None
    bound: int | None = None
    any_count: bool = False

    @property
    def length(self) -> int:
        """Numbers a run covers (a run of pairs: half its cards)."""
        return self.size // 2 if self.kind.is_pair_run else self.size

    def admits(self, number: int) -> bool:
        """Whether a natural card of this number may be in an over or under group."""
        if self.kind is Kind.OVER:
            return number > (self.bound or 0)
        if self.kind is Kind.UNDER:
            return number < (self.bound or 0)
        return True

    def allowed(self, number: int) -> frozenset[str] | None:
        """Colors allowed at this number (None: any color; empty: number not allowed)."""
        if self.colors is None:
            return None
        return dict(self.colors).get(number, frozenset())

    def describe(self, deck: Deck = STANDARD_DECK) -> str:
        key = (self, id(deck))
        got = _DESCRIBED.get(key)
        if got is None or got[0] is not deck:
            if len(_DESCRIBED) >= MAX_DESCRIBED:
                _DESCRIBED.clear()
            got = _DESCRIBED[key] = (deck, Part(1, self).canonical(deck))
        return got[1]

    def to_json(self, deck: Deck = STANDARD_DECK) -> dict:
        out: dict = {"kind": self.kind.value, "size": self.size}
        if self.colors is not None:
            out["colors"] = {str(n): sorted(cs, key=deck.colors.index) for n, cs in self.colors}
        if self.total is not None:
            out["total"] = self.total
            out["any_count"] = self.any_count
        if self.bound is not None:
            out["bound"] = self.bound
        if self.kind.is_pair_run:
            out["pairs"] = self.length
        return out


@dataclass(frozen=True, slots=True)
class Part:
    """``count`` groups of one shape, as written in the phrase."""

    count: int
    group: Group

    def canonical(self, deck: Deck = STANDARD_DECK) -> str:
        n, g = self.count, self.group
        m = g.size
        k = g.kind
        if k is Kind.SET:
            text = f"{n} {plural_word('set', n)} of {m}"
        elif k is Kind.RUN:
            text = f"{n} {plural_word('run', n)} of {m}"
            if g.colors is not None:
                text += " with colors " + format_color_map(g.colors, deck)
        elif k is Kind.COLOR:
            text = f"{m} cards of one color" if n == 1 else f"{n} color groups of {m}"
        elif k is Kind.COLOR_RUN:
            text = f"{n} color {plural_word('run', n)} of {m}"
        elif k is Kind.EVEN_ODD:
            text = f"{n} even or odd of {m}"
        elif k is Kind.COLOR_EVEN_ODD:
            text = f"{n} color even or odd of {m}"
        elif k is Kind.COLOR_SET:
            text = f"{n} color {plural_word('set', n)} of {m}"
        elif k is Kind.WILD:
            text = f"{m} {plural_word('wild', m)}"
        elif k is Kind.SKIP:
            text = f"{m} {plural_word('skip', m)}"
        elif k.is_sum:
            color = " of one color" if k is Kind.COLOR_SUM else ""
            if n == 1:
                cards = "cards" if g.any_count else f"{m} cards"
                text = f"{cards}{color} totalling {g.total}"
            else:
                what = "color groups" if color else "groups"
                text = f"{n} {what}{'' if g.any_count else f' of {m}'} totalling {g.total}"
        elif k.is_pair_run:
            color = "color " if k is Kind.COLOR_PAIR_RUN else ""
            text = f"{n} {color}{plural_word('run', n)} of {g.length} pairs"
        else:
            word = "over" if k is Kind.OVER else "under"
            text = (f"{m} cards {word} {g.bound}" if n == 1
                    else f"{n} groups of {m} {word} {g.bound}")
        return text


    def plain(self, deck: Deck = STANDARD_DECK) -> str:
        """The part in words a casual player reads at the table ("7 cards of one color",
        "2 even-or-odd groups of 4 cards, each one color"); the canonical form is the DSL's."""
        n, g = self.count, self.group
        m, k = g.size, g.kind
        if k in (Kind.WILD, Kind.SKIP):
            return f"{m} {k.value} card{'s' * (m != 1)}"
        if k.is_sum:
            cards = "cards" if g.any_count else f"{m} cards"
            color, each = (" of one color", ", each of one color") if k is Kind.COLOR_SUM else ("", "")
            if n == 1:
                return f"{cards}{color} whose numbers add up to {g.total}"
            return f"{n} groups of {cards} whose numbers add up to {g.total}{each}"
        if k.is_pair_run:
            color = ", all one color" if k is Kind.COLOR_PAIR_RUN else ""
            if n == 1:
                return f"{g.length} numbers in a row, two cards of each{color}"
            return f"{n} groups of {g.length} numbers in a row, two cards of each{color}"
        if k.is_bounded:
            word = "above" if k is Kind.OVER else "below"
            if n == 1:
                return f"{m} cards numbered {word} {g.bound}"
            return f"{n} groups of {m} cards numbered {word} {g.bound}"
        # (one group: what its cards have in common; several: "N ... groups of M cards, each ...")
        one, many = {
            Kind.SET: (f"{m} cards of the same number", f"{n} groups of {m} cards, each of one number"),
            Kind.COLOR_SET: (f"{m} cards of the same number and color",
                             f"{n} groups of {m} cards, each of one number and color"),
            Kind.RUN: (f"{m} numbers in a row", f"{n} groups of {m} numbers in a row"),
            Kind.COLOR_RUN: (f"{m} numbers in a row, all one color",
                             f"{n} groups of {m} numbers in a row, each one color"),
            Kind.COLOR: (f"{m} cards of one color", f"{n} groups of {m} cards, each one color"),
            Kind.EVEN_ODD: (f"{m} cards, all even or all odd", f"{n} even-or-odd groups of {m} cards"),
            Kind.COLOR_EVEN_ODD: (f"{m} cards of one color, all even or all odd",
                                  f"{n} even-or-odd groups of {m} cards, each one color"),
        }[k]
        text = one if n == 1 else many
        if g.colors is not None:
            text += ", colored " + format_color_map(g.colors, deck)
        return text

def format_color_map(colors: ColorMap, deck: Deck = STANDARD_DECK) -> str:
    items = []
    for number, allowed in colors:
        if set(allowed) >= set(deck.colors):
            items.append(f"{number}: any")
        else:
            names = [deck.color_name(c) for c in deck.colors if c in allowed]
            items.append(f"{number}: " + " or ".join(names))
    return "{" + ", ".join(items) + "}"


# Groups already described, with their deck (bounded, as the phrases ``Phase.parse`` keeps).
MAX_DESCRIBED = 4096
_DESCRIBED: dict[tuple[Group, int], tuple[Deck, str]] = {}
