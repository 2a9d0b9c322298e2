"""Reading and judging laid-down groups.

``read_group`` answers "is this list of cards a legal group of this shape, and
where does each wild stand?"; ``verify`` answers the same for a whole phase
laid down as the player would lay it.  Both report *which* rule breaks, in
words, never just "no".
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations, permutations
from typing import NamedTuple

from ..model import skipblue
from ..model.cards import Card
from ..model.coerce import as_cards, as_layout, as_phase, as_rules
from ..model.group import Group, Kind
from ..model.meld import LaidGroup, Meld
from ..model.phase import Phase
from ..model.rules import DEFAULT_RULES, Rules
from .runread import keepable_new_kinds, read_bounded, read_pair_run, read_wrapped_run, run_windows


@dataclass(frozen=True, slots=True)
class Problem:
    """One broken rule: ``group`` is the 0-based index of the group as given (None: the phase)."""

    group: int | None
    rule: str
    message: str

    def __str__(self) -> str:
        where = f"group {self.group + 1}" if self.group is not None else "phase"
        return f"{where}: {self.message}"

    def to_json(self) -> dict:
        return {"group": None if self.group is None else self.group + 1, "rule": self.rule,
                "message": self.message}


@dataclass(frozen=True, slots=True)
class Verdict:
    """Whether a layout is legal; ``meld`` lists its groups in the phase's written order."""

    valid: bool
    meld: Meld | None
    problems: tuple[Problem, ...] = ()

    def __bool__(self) -> bool:
        return self.valid


_NAMES = {
    Kind.SET: "set", Kind.RUN: "run", Kind.COLOR: "color group", Kind.COLOR_RUN: "color run",
    Kind.EVEN_ODD: "even or odd group", Kind.COLOR_EVEN_ODD: "color even or odd group",
    Kind.COLOR_SET: "color set", Kind.WILD: "wild part", Kind.SKIP: "skip part",
    Kind.SUM: "sum", Kind.COLOR_SUM: "color sum",
}


def _label(group: Group) -> str:
    if group.kind.is_pair_run:
        color = "color " if group.kind is Kind.COLOR_PAIR_RUN else ""
        return f"{color}run of {group.length} pairs"
    if group.kind.is_bounded:
        word = "over" if group.kind is Kind.OVER else "under"
        return f"group of {group.size} cards {word} {group.bound}"
    if group.kind.is_sum:
        count = "" if group.any_count else f" of {group.size} cards"
        return f"{_NAMES[group.kind]}{count} totalling {group.total}"
    return f"{_NAMES[group.kind]} of {group.size}"


def _parity(n: int) -> str:
    return "even" if n % 2 == 0 else "odd"


def read_group(group: Group, cards: Sequence[Card], rules: Rules = DEFAULT_RULES
               ) -> tuple[tuple[Card, ...] | None, list[tuple[str, str]]]:
    """Judge ``cards`` as one group of shape ``group``.

    Returns (the cards in laid order with every wild's value filled in, or
    None; the broken rules as (rule, message) pairs).  Cards whose number is
    wild under the rules (postal) are tried as themselves and as wilds; the
    reading that plays the most of them as themselves is returned.
    """
    readings, problems = _readings(group, cards, rules)
    if not readings:
        return None, problems
    return max(readings, key=_preferred).cards, []


def _preferred(r: _Reading) -> tuple[int, bool]:
    # The most cards played as themselves; then, as for a plain W, where the cards lie:
    # Y2 R2 R3 R4 (2s wild) is 1-4, the first 2 standing for the 1 it lies at.
    return r.naturals, r.in_place


class _Reading(NamedTuple):
    """One legal reading of a group: ``cards`` in laid order, each wild's value filled in
    (a card of a wild number played as a wild shown as itself; ``acting`` is (index, the
    wild it acts as) for each), the cards played as naturals, and the number a set shows
    (None: not a set, or a set of wilds only, which may show any number).  (A named tuple:
    made for every group read, and never compared.)"""

    cards: tuple[Card, ...]
    acting: tuple[tuple[int, Card], ...]
    naturals: int
    shows: int | None
    in_place: bool = True  # read in the order the cards lie (low to high or high to low)


def _readings(group: Group, cards: Sequence[Card], rules: Rules
              ) -> tuple[list[_Reading], list[tuple[str, str]]]:
    """Every reading of ``cards`` as ``group`` that matters to the rest of a layout: for
    each number a set may show, and otherwise once, the one with the most naturals; or
    none, and the broken rules of the cards read as themselves.

    A card of a wild number (postal) may be played as a wild, and a wild can stand
    wherever the card stands as itself: playing it as a wild never breaks a rule except
    the natural minimum.  So which of them stay natural is a choice among few maximal
    ones, by kind: those showing one number (or color, or parity) of the group's class;
    in a run, one card per number of a window (and of a color, for a one-color run).
    """
    wild_numbers = rules.wild_numbers
    flex = [i for i, c in enumerate(cards) if c.number in wild_numbers and c.natural] \
        if wild_numbers else []
    if not flex:  # one reading (the common case, kept quick)
        laid, problems, _ = _read(group, cards, rules)
        if problems:
            return [], problems
        shows = None
        if group.kind.is_set:
            nums = {c.number for c in cards if c.number is not None}
            shows = nums.pop() if nums else None
        naturals = len(cards) - sum(1 for c in cards if c.wild or c.skip or c.anti)
        return [_Reading(tuple(laid), (), naturals, shows)], []
    best: dict[int | None, _Reading] = {}
    first: list[tuple[str, str]] | None = None
    ident = list(range(len(cards)))
    for kept in _keepable(group, cards, rules, flex):
        as_wild = set(flex) - kept
        seq = [Card(wild=True) if i in as_wild else c for i, c in enumerate(cards)]
        laid, problems, order = _read(group, seq, rules)
        if first is None:
            first = problems
        if problems:
            continue
        # show the real cards, not the wilds they were played as
        shown = tuple(cards[i] if i in as_wild else c for c, i in zip(laid, order, strict=True))
        acting = tuple((k, c) for k, (c, i) in enumerate(zip(laid, order, strict=True))
                       if i in as_wild)
        naturals = sum(1 for i, c in enumerate(cards) if c.natural and i not in as_wild)
        in_place = order in (ident, ident[::-1])
        shows = None
        if group.kind.is_set:
            nums = {c.number for i, c in enumerate(cards)
                    if (c.natural and i not in as_wild) or (c.wild and c.number is not None)}
            shows = nums.pop() if nums else None
        reading = _Reading(shown, acting, naturals, shows, in_place)
        if shows not in best or _preferred(reading) > _preferred(best[shows]):
            best[shows] = reading
    readings = sorted(best.values(), key=_preferred, reverse=True)
    return readings, ([] if readings else first or [])


def _keepable(group: Group, cards: Sequence[Card], rules: Rules, flex: list[int]
              ) -> list[frozenset[int]]:
    """The maximal choices of wild-number cards to keep natural (indices into ``cards``),
    all of them first (the player's likeliest meaning, and the problems to report), none
    last."""
    out = [frozenset(flex)]
    if not flex:
        return out
    kind = group.kind
    if kind.is_pair_run or kind.is_bounded:
        out += keepable_new_kinds(group, cards, rules, flex)
    elif kind.is_run:
        deck = rules.deck
        n = len(cards)
        fixed = {c.number for i, c in enumerate(cards) if c.number is not None and i not in flex}
        one_color = kind.one_color or rules.runs_one_color
        for window in run_windows(n, deck, rules.runs_wrap):
            for color in (deck.colors if one_color else (None,)):
                # Of several cards of one number, the one kept may be the first, or the one
                # lying at that number's place (read up or down): where the cards lie is
                # what says which of them stands for another number.
                for place in (None, "up", "down"):
                    kept: dict[int, int] = {}
                    for i in flex:
                        c = cards[i]
                        allowed = group.allowed(c.number)
                        if (c.number in window and c.number not in fixed
                                and color in (None, c.color)
                                and (allowed is None or c.color in allowed)):
                            at = (None if place is None else window.index(c.number)
                                  if place == "up" else n - 1 - window.index(c.number))
                            if c.number not in kept or (at == i and at != kept[c.number]):
                                kept[c.number] = i
                    out.append(frozenset(kept.values()))
    elif kind.is_sum and len(flex) <= 10:
        # which cards of a wild number stay themselves changes the total: every choice
        out += [frozenset(kept) for r in range(len(flex) - 1, 0, -1)
                for kept in combinations(flex, r)]
    elif kind not in (Kind.WILD, Kind.SKIP):
        def key(c: Card) -> tuple:
            return ((c.number if kind.is_set else None),
                    (c.color if kind.one_color else None),
                    (c.number % 2 if kind.is_parity else None))

        for value in dict.fromkeys(key(cards[i]) for i in flex):
            out.append(frozenset(i for i in flex if key(cards[i]) == value))
    out.append(frozenset())
    return list(dict.fromkeys(out))


def _read(group: Group, cards: Sequence[Card], rules: Rules
          ) -> tuple[tuple[Card, ...], list[tuple[str, str]], list[int]]:
    """(laid cards, problems, index in ``cards`` of each laid card)."""
    deck = rules.deck
    kind, size, n = group.kind, group.size, len(cards)
    problems: list[tuple[str, str]] = []
    if n == size:
        pass
    elif kind.is_sum:
        pass  # a sum's count is a rule of its own (_read_sum)
    elif n < size:
        problems.append(("size", f"a {_label(group)} needs at least {size} cards, this group has {n}"))
    elif n > size and not rules.extras:
        problems.append(("size", f"a {_label(group)} needs exactly {size} cards (extras are not allowed "
                                 f"under these rules), this group has {n}"))
    if kind is Kind.WILD:
        bad = [c for c in cards if not c.wild]
        if bad:
            problems.append(("wild_part", f"a wild part holds only wilds, not {bad[0]}"))
        return tuple(cards), problems, list(range(n))
    if kind is Kind.SKIP:
        bad = [c for c in cards if not (c.skip or (c.wild and rules.wild_as_skip))]
        if bad:
            problems.append(("skip_part", f"a skip part holds only skips, not {bad[0]}"))
        elif any(c.skip and c.color is not None for c in cards):
            problems.append(("skip_part", "a skip laid as a blue card (S=B) is not a skip: it "
                                          "has no place in a skip part"))
        return tuple(cards), problems, list(range(n))
    if any(c.skip for c in cards):
        blue = _skip_as_blue(group, cards, rules, _label(group))
        if isinstance(blue, tuple):
            problems.append(blue)
            return tuple(cards), problems, list(range(n))
        cards = blue
    if rules.natural_scope == "group":
        nat = [c for c in cards if c.natural]
        if len(nat) < min(rules.min_naturals, size):
            k = rules.min_naturals
            problems.append(("natural_minimum",
                             f"a group needs at least {k} natural card{'s' if k != 1 else ''}, "
                             f"this one has {len(nat)}"))
    known = [c for c in cards if c.number is not None or c.color is not None or c.natural]
    # Color: one color for the one-color kinds (wild annotations included).
    color = None
    if kind.one_color or ((kind.is_run or kind.is_pair_run) and rules.runs_one_color):
        colors = sorted({c.color for c in known if c.color is not None})
        if len(colors) > 1:
            names = " and ".join(deck.color_name(c) for c in colors)
            problems.append(("one_color", f"a {_label(group)} is one color, this group has {names}"))
        color = colors[0] if colors else None
    if kind.is_sum:
        return _read_sum(group, cards, rules, color, problems)
    if kind.is_set:
        nums = sorted({c.number for c in known if c.number is not None})
        if len(nums) > 1:
            shown = " and ".join(map(str, nums))
            problems.append(("same_number", f"a set shows one number, this group has {shown}"))
        number = nums[0] if nums else deck.high
        laid = tuple(c if c.natural else _wild_as(c, number,
                                                  color if kind.one_color else c.color)
                     for c in cards)
        return laid, problems, list(range(n))
    if kind.is_parity:
        pars = sorted({_parity(c.number) for c in known if c.number is not None})
        if len(pars) > 1:
            problems.append(("parity", f"a {_label(group)} is all even or all odd, this group mixes "
                                       "both"))
        laid = tuple(c if c.natural else _wild_as(c, c.number, color) for c in cards)
        return laid, problems, list(range(n))
    if kind is Kind.COLOR:
        # (a skip here is one laid as a blue card: see _skip_as_blue)
        laid = tuple(c if c.natural or c.skip else _wild_as(c, c.number, color)
                     for c in cards)
        return laid, problems, list(range(n))
    if kind.is_bounded:
        return read_bounded(group, cards, _label(group), problems)
    if kind.is_pair_run:
        return read_pair_run(group, cards, rules, color, _label(group), problems)
    if rules.runs_wrap:
        base = list(problems)
        if not _straight_as_laid(cards, rules.deck):
            # read by position: cards that lie in order only across the top (R11 R12 W,
            # W B1 B2) wrap there, each unstated wild standing where it lies (1; 12)
            wrapped = read_wrapped_run(group, cards, rules, color, as_laid=True)
            if wrapped is not None:
                return wrapped[0], base, wrapped[1]
        got = _read_run(group, cards, rules, color, problems)
        if len(got[1]) > len(base):  # no straight reading: one running on from top to bottom
            wrapped = read_wrapped_run(group, cards, rules, color)
            if wrapped is not None:
                return wrapped[0], base, wrapped[1]
        return got
    return _read_run(group, cards, rules, color, problems)


def _straight_as_laid(cards: Sequence[Card], deck) -> bool:
    """Whether the cards, as laid (low to high or high to low), lie in a run within the
    deck's numbers; cards that say no number lie anywhere."""
    n = len(cards)
    values = [c.number for c in cards]
    if all(v is None for v in values):
        return True
    for starts in ({v - i for i, v in enumerate(values) if v is not None},
                   {v + i - n + 1 for i, v in enumerate(values) if v is not None}):
        if len(starts) == 1 and deck.low <= next(iter(starts)) <= deck.high - n + 1:
            return True
    return False


def _wild_as(c: Card, number: int | None, color: str | None) -> Card:
    """``Card(number, color, wild=True)``: ``c`` itself where it is that card already (a
    group read again, as a hit's is: its wilds say what they stand for)."""
    if c.wild and c.number == number and c.color == color and not (c.skip or c.anti):
        return c
    return Card(number, color, wild=True)


def _read_sum(group: Group, cards: Sequence[Card], rules: Rules, color: str | None,
              problems: list[tuple[str, str]]):
    """A sum: its count (exactly ``size`` cards, or any number of them), and numbers adding
    up to its total, each wild that says no number standing for whatever makes it up."""
    deck = rules.deck
    n, total, label = len(cards), group.total or 0, _label(group)
    if not group.any_count and n != group.size:
        problems.append(("size", f"a {label} holds exactly {group.size} cards, this group "
                                 f"has {n}"))
    if n == 0:
        problems.append(("size", f"a {label} needs at least one card"))
    known = sum(c.number for c in cards if c.number is not None)
    loose = [i for i, c in enumerate(cards) if c.number is None]
    u = len(loose)
    gap = total - known
    if not u and gap:
        problems.append(("total", f"a {label}: its numbers add up to {known}, not {total}"))
    elif u and not u * deck.low <= gap <= u * deck.high:
        s = "s" if u != 1 else ""
        problems.append(("total", f"a {label}: its numbers add up to {known}, and its {u} "
                                  f"wild{s} can add only {u * deck.low} to {u * deck.high}, "
                                  f"not {gap}"))
    if problems:
        return tuple(cards), problems, list(range(n))
    laid = list(cards)
    for k, i in enumerate(loose):
        # the wilds left make up the gap: each as high as the ones after it allow
        x = min(deck.high, gap - (u - k - 1) * deck.low)
        gap -= x
        c = cards[i]
        laid[i] = Card(x, c.color or (color if group.kind.one_color else None), wild=True)
    return tuple(laid), problems, list(range(n))


def _skip_as_blue(group: Group, cards: Sequence[Card], rules: Rules, label: str
                  ) -> list[Card] | tuple[str, str]:
    """The cards with each skip read as a blue card (house rule skip_counts_as_blue: only in
    a color group, which is then blue), or the rule the skips break."""
    blue = skipblue.blue_of(rules)
    if blue is None:
        said = " (a skip counts as a blue card only under house_rules.skip_counts_as_blue)" \
            if any(c.skip and c.color is not None for c in cards) else ""
        return ("skip", f"a skip cannot be part of a {label}{said}")
    if not skipblue.takes_blue_skip(group, rules):
        return ("skip_as_blue", f"a skip may be laid as a blue card only in a color group "
                                f"(cards of one color), not in a {label}")
    others = sorted({c.color for c in cards if not c.skip and c.color is not None} - {blue})
    if others:
        names = " and ".join(rules.deck.color_name(c) for c in others)
        return ("skip_as_blue", f"a skip laid as a blue card makes this color group blue, and "
                                f"it has {names}")
    s = skipblue.blue_skip(rules)
    return [s if c.skip else c for c in cards]


def _read_run(group: Group, cards: Sequence[Card], rules: Rules, color: str | None,
              problems: list[tuple[str, str]]):
    deck = rules.deck
    n = len(cards)
    ident = list(range(n))
    values = [c.number for c in cards]  # None for an unannotated wild
    known = [v for v in values if v is not None]
    dup = sorted(v for v, k in Counter(known).items() if k > 1) \
        if len(set(known)) < len(known) else None
    if dup:
        problems.append(("distinct_numbers", f"a run shows each number once, this group has "
                                             f"{dup[0]} twice"))
        return tuple(cards), problems, ident
    start = None
    order = list(range(n))

    def fits(first: int) -> bool:
        # within the deck's numbers, and (a color map) every number one the run may hold
        return (deck.low <= first and first + n - 1 <= deck.high
                and (group.colors is None
                     or all(group.allowed(x) != frozenset() for x in range(first, first + n))))

    def misfit(num: int, c: Card) -> tuple[str, str] | None:
        """What is wrong with ``c`` standing at ``num`` of a run with a color map."""
        allowed = group.allowed(num)
        if allowed is None:
            return None
        if not allowed:
            return ("color_map", f"{num} is not part of this run's color map")
        shown = c.color
        if shown is not None and shown not in allowed:
            names = " or ".join(deck.color_name(x) for x in deck.colors if x in allowed)
            return ("color_map", f"the {num} of this run must be {names}, not "
                                 f"{deck.color_name(shown)}")
        return None

    def lay(first: int, seq: list[Card]) -> tuple[Card, ...]:
        return tuple(c if c.natural else _wild_as(c, first + k, c.color or (
            color if group.kind is Kind.COLOR_RUN else None))
            for k, c in enumerate(seq))

    if not problems and group.colors is not None:
        # A color map: the cards as laid (either way), else any window and any places for
        # the unstated wilds that the map allows (a wild said to be red where red may go).
        for first, got in _placements(n, values, fits, misfit, cards, deck):
            return lay(first, [cards[i] for i in got]), problems, got
    if known:
        # As laid, low to high (or high to low): every known card fixes the start.
        ups = {v - i for i, v in enumerate(values) if v is not None}
        downs = {v + i - n + 1 for i, v in enumerate(values) if v is not None}

        if len(ups) == 1 and fits(next(iter(ups))):
            start = ups.pop()
        elif len(downs) == 1 and fits(next(iter(downs))):
            start = downs.pop()
            order.reverse()
        else:
            lo, hi = min(known), max(known)
            if hi - lo + 1 > n:
                problems.append(("consecutive", f"{lo} and {hi} cannot both be in a run of {n} "
                                                "cards"))
                return tuple(cards), problems, ident
            # Laid out of order: place it, wilds filling gaps first, then the high end.
            start = lo if lo + n - 1 <= deck.high else deck.high - n + 1
            start = max(start, hi - n + 1)
            if not fits(start):  # a color map may leave only other windows
                start = next((s for s in range(hi - n + 1, lo + 1) if fits(s)), start)
            order = None
    else:
        start = next((s for s in range(deck.high - n + 1, deck.low - 1, -1) if fits(s)),
                     deck.high - n + 1)
    if start < deck.low or start + n - 1 > deck.high:
        if rules.runs_wrap and n > deck.high - deck.low + 1:
            # (a wrapping run has no end to pass: "would need a 0" named none of its rules)
            problems.append(("bounds", f"a run shows each number once, even when it wraps: "
                                       f"at most {deck.high - deck.low + 1} cards, this group "
                                       f"has {n}"))
            return tuple(cards), problems, ident
        lo_end, hi_end = start, start + n - 1
        bad = lo_end if lo_end < deck.low else hi_end
        problems.append(("bounds", f"this run would need a {bad}: numbers go from {deck.low} to "
                                   f"{deck.high}"
                                   f"{'' if rules.runs_wrap else ', with no wrap-around'}"))
        return tuple(cards), problems, ident
    if order is None:
        slots: list[int | None] = [None] * n
        loose = []
        for i, c in enumerate(cards):
            if c.number is not None:
                slots[c.number - start] = i
            else:
                loose.append(i)
        order = [s if s is not None else loose.pop(0) for s in slots]
    seq = [cards[i] for i in order]
    if group.colors is not None:  # (no color map: nothing misfits)
        problems += [p for k, c in enumerate(seq) if (p := misfit(start + k, c)) is not None]
    return lay(start, seq), problems, order


def _placements(n: int, values: list[int | None], fits, misfit, cards: Sequence[Card], deck):
    """(first number, index in ``cards`` of each card in run order) for each legal way to
    lay the run: as laid low to high, high to low, then by window (the one an unordered
    reading prefers first) with the cards of no number matched to the places left."""
    known = [v for v in values if v is not None]
    ident = list(range(n))
    if known:
        lo, hi = min(known), max(known)
        ups = {v - i for i, v in enumerate(values) if v is not None}
        downs = {v + i - n + 1 for i, v in enumerate(values) if v is not None}
        laid = [(first, ident) for first in ups if len(ups) == 1] + \
            [(first, ident[::-1]) for first in downs if len(downs) == 1]
        for first, order in laid:
            if fits(first) and all(misfit(first + k, cards[i]) is None
                                   for k, i in enumerate(order)):
                yield first, order
        pref = max(lo if lo + n - 1 <= deck.high else deck.high - n + 1, hi - n + 1)
        windows = sorted(range(hi - n + 1, lo + 1), key=lambda s: (s != pref, s))
    else:
        windows = list(range(deck.high - n + 1, deck.low - 1, -1))
    loose = [i for i, v in enumerate(values) if v is None]
    for first in windows:
        if not fits(first):
            continue
        slots: list[int | None] = [None] * n
        for i, v in enumerate(values):
            if v is not None:
                slots[v - first] = i
        if any(i is not None and misfit(first + k, cards[i]) for k, i in enumerate(slots)):
            continue
        free = [k for k, i in enumerate(slots) if i is None]
        owner: dict[int, int] = {}  # place -> loose card, by augmenting paths

        def put(i: int, seen: set, free=free, owner=owner, first=first) -> bool:
            for k in free:
                if k not in seen and misfit(first + k, cards[i]) is None:
                    seen.add(k)
                    if k not in owner or put(owner[k], seen):
                        owner[k] = i
                        return True
            return False

        if all(put(i, set()) for i in loose):
            for k, i in owner.items():
                slots[k] = i
            yield first, slots


def verify(phase: Phase | str, layout: Sequence[Sequence[Card] | str] | str,
           rules: Rules = DEFAULT_RULES, hand: Sequence[Card] | str | None = None) -> Verdict:
    """Judge a layout: the groups as the player lays them, in any order.

    Each given group is matched to one of the phase's groups; the verdict's
    meld lists them in the phase's written order.  With ``hand``, the layout's
    cards must also come from that hand.  Exact under every reading of cards of
    a wild number (postal): the layout is legal when some choice of which of them
    act as wilds makes it so.  ``phase`` may be a phrase, each group (and ``hand``) a card
    string, and ``layout`` one string with the groups split by ``|``.
    """
    rules = as_rules(rules, "verify")
    phase = as_phase(phase, rules, "verify")
    layout = as_layout(layout, rules.deck, "verify")
    if hand is not None:
        hand = as_cards(hand, rules.deck, "verify", "hand")
    groups = phase.groups
    problems: list[Problem] = []
    if len(layout) != len(groups):
        extra = " (laying an extra group is never allowed)" if len(layout) > len(groups) else ""
        problems.append(Problem(None, "group_count",
                                f"the phase has {len(groups)} group{'s' if len(groups) != 1 else ''}"
                                f" ({phase}), the layout has {len(layout)}{extra}"))
        return Verdict(False, None, tuple(problems))
    if sum(map(len, layout)) > rules.deck.size:
        # more cards than the deck holds: no need (and, for thousands of cards of wild
        # numbers, no time) to read the groups
        return Verdict(False, None, tuple(_phase_problems(None, layout, rules, hand)))
    # equal groups read once: the first phase group equal to each (found by equality: a
    # phase has few groups, and hashing one costs more than comparing it)
    first = [next(k for k in range(j + 1) if groups[k] == g) for j, g in enumerate(groups)]
    reads = []
    for cards in layout:
        row: list = []
        for j, g in enumerate(groups):
            if first[j] < j:
                row.append(row[first[j]])
            elif _wrong_size(g, len(cards), rules):
                # no reading at all (every reading has its cards): what it breaks is worked
                # out only if the layout fails (below)
                row.append(_UNREAD)
            else:
                row.append(_readings(g, cards, rules))
        reads.append(row)
    need = rules.min_naturals if rules.natural_scope == "phase" else 0
    assignment = _match(reads, groups, rules, need)
    if assignment is None and need:
        # no reading holds enough naturals: lay it anyway, and say so below
        assignment = _match(reads, groups, rules, 0)
    if assignment is None:
        # No pairing works: report each group against the phase group it comes
        # closest to making (fewest broken rules), each phase group used once.
        n = len(groups)
        for i, cards in enumerate(layout):
            reads[i] = [_readings(groups[j], cards, rules) if r is _UNREAD else r
                        for j, r in enumerate(reads[i])]
        pairing = list(range(n))
        if n <= 7:
            pairing = list(min(permutations(range(n)),
                               key=lambda p: sum(_weight(reads[i][p[i]][1]) for i in range(n))))
        for i, j in enumerate(pairing):
            for rule, msg in reads[i][j][1]:
                problems.append(Problem(i, rule, msg))
        if not problems:
            problems.append(Problem(None, "distinct_sets",
                                    "the sets of this phase must show different numbers"))
        return Verdict(False, None, tuple(problems))
    laid: list[LaidGroup | None] = [None] * len(groups)
    acting = []
    shown = {r.shows for j, r in assignment if groups[j].kind.is_set and r.shows is not None}
    spare: list[int] | None = None  # (the numbers no set shows: found if a set needs one)
    for j, r in assignment:
        cards, stands = r.cards, r.acting
        # A set that shows no number shows whatever the player says: where sets must
        # differ, one the other sets leave free.
        num = None
        if groups[j].kind.is_set and r.shows is None and not rules.sets_share_number:
            if spare is None:
                spare = [x for x in rules.deck.numbers if x not in shown]
            num = spare.pop() if spare else None
        if num is not None:
            stand = {k for k, _ in stands}
            cards = tuple(Card(num, c.color, wild=True) if c.wild and k not in stand else c
                          for k, c in enumerate(cards))
            stands = tuple((k, Card(num, w.color, wild=True)) for k, w in stands)
        laid[j] = LaidGroup(groups[j], cards)
        acting += [(j, k, wild) for k, wild in stands]
    meld = Meld(tuple(laid), tuple(sorted(acting)))  # type: ignore[arg-type]
    problems += _phase_problems(meld, layout, rules, hand)
    return Verdict(not problems, meld, tuple(problems))


# A group of cards too many or too few for a phase group: no reading there (its problems
# read only if the layout is refused).
_UNREAD: tuple[list, list] = ([], [])


def _wrong_size(group: Group, n: int, rules: Rules) -> bool:
    """Whether ``_read`` refuses ``n`` cards as ``group`` by their count alone (as every
    reading of them: each reads all the cards)."""
    return not group.kind.is_sum and (n < group.size or (n > group.size and not rules.extras))


def _weight(problems: list[tuple[str, str]]) -> int:
    # A wrong size is the surest sign a group was meant for another part.
    return sum(3 if rule == "size" else 1 for rule, _ in problems)


def _match(reads, groups: Sequence[Group], rules: Rules, need: int
           ) -> list[tuple[int, _Reading]] | None:
    """Pair each given group with a distinct phase group and one of its readings there, so
    that (unless sets may share a number) the sets show different numbers, and the
    readings hold at least ``need`` naturals together: (phase group, reading) per given
    group, or None.

    The given groups with the fewest places go first (one with none ends it at once), and
    a state that failed is not tried again (which phase groups are taken, the numbers
    shown, the naturals so far): ten groups that cannot pair up fail in a moment."""
    n = len(groups)
    distinct = not rules.sets_share_number
    room = len(rules.deck.numbers)  # the numbers the sets may show between them
    if n == 1:
        # (what the search below finds for one group: its first reading with the naturals
        # asked, where a set has a number to show)
        if distinct and groups[0].kind.is_set and room < 1:
            return None
        return next(([(0, r)] for r in reads[0][0][0] if r.naturals >= need), None)
    order = sorted(range(n), key=lambda i: sum(1 for rs, _ in reads[i] if rs))
    most = [max((r.naturals for rs, _ in reads[i] for r in rs), default=0) for i in order]
    rest = [sum(most[k:]) for k in range(n + 1)]
    out: dict[int, tuple[int, _Reading]] = {}
    failed: dict[tuple, int] = {}  # state -> the most naturals it failed with
    fits = [[j for j in range(n) if reads[i][j][0]] for i in order]
    pairable: dict[int, bool] = {}

    def can_pair(k: int, used: int) -> bool:
        """Can the given groups from the k-th on each take a phase group not in ``used``
        (readings aside)?  A matching, by augmenting paths."""
        if used not in pairable:
            owner: dict[int, int] = {}

            def place(a: int, seen: set) -> bool:
                for j in fits[a]:
                    if not used >> j & 1 and j not in seen:
                        seen.add(j)
                        if j not in owner or place(owner[j], seen):
                            owner[j] = a
                            return True
                return False

            pairable[used] = all(place(a, set()) for a in range(k, n))
        return pairable[used]

    def rec(k: int, used: int, shown: frozenset, free: int, naturals: int) -> bool:
        if k == n:
            return naturals >= need
        if naturals + rest[k] < need or not can_pair(k, used):
            return False
        state = (k, used, shown, free)
        if failed.get(state, -1) >= naturals:
            return False
        i = order[k]
        tried: list[Group] = []  # (few: compared, not hashed)
        for j in range(n):
            readings = reads[i][j][0]
            if used >> j & 1 or not readings or groups[j] in tried:
                continue
            tried.append(groups[j])  # identical phase groups are interchangeable
            for r in readings:
                sn, fr = shown, free
                if distinct and groups[j].kind.is_set:
                    if r.shows is None:
                        fr += 1
                    elif r.shows in shown:
                        continue
                    else:
                        sn = shown | {r.shows}
                    if len(sn) + fr > room:
                        continue
                out[i] = (j, r)
                if rec(k + 1, used | 1 << j, sn, fr, naturals + r.naturals):
                    return True
        failed[state] = naturals
        return False

    return [out[i] for i in range(n)] if rec(0, 0, frozenset(), 0, 0) else None


def _phase_problems(meld: Meld | None, layout, rules: Rules, hand) -> list[Problem]:
    deck = rules.deck
    problems: list[Problem] = []
    plain = [c.plain() for cards in layout for c in cards]
    if meld is None:
        problems.append(Problem(None, "deck_supply", f"the layout holds {len(plain)} cards, the "
                                                     f"deck only {deck.size}"))
    elif rules.natural_scope == "phase":
        # a card of a wild number played as a wild is not a natural card of the phase
        nat = sum(1 for c in plain if c.natural) - len(meld.acting)
        if nat < rules.min_naturals:
            acting = (" (cards of a wild number count only when played as themselves, and "
                      "no reading plays more of them so)") if rules.wild_numbers else ""
            problems.append(Problem(None, "natural_minimum",
                                    f"the phase needs at least {rules.min_naturals} natural "
                                    f"card(s), the layout has {nat}{acting}"))
    used = Counter(plain)
    # (only the cards beyond the deck's supply are sorted, by name, for their messages)
    over = [(card, k) for card, k in used.items() if k > deck.supply(card)]
    for card, k in sorted(over, key=lambda x: str(x[0])):
        problems.append(Problem(None, "deck_supply",
                                f"the layout uses {k} x {card}, the deck has only "
                                f"{deck.supply(card)}"))
    if hand is not None:
        missing = used - Counter(c.plain() for c in hand)
        if missing:
            shown = " ".join(str(c) for c in missing.elements())
            problems.append(Problem(None, "not_in_hand", f"not in the hand: {shown}"))
    return problems
