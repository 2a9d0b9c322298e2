"""The search under the house rule ``skip_counts_as_blue`` (read as skipblue says: a skip
may be laid as a blue card in a color group, which is then blue; it is no natural card).

The search sees it as a reduction, not as a new card type.  A skip in a blue color group is a
wild that may fill only that group's slots, and the blue color groups all accept the same
cards, so what matters is *which* color groups are blue (B) and *how many* skips they take
(T), never which of them takes which skip.  For each such choice the phase is solved with
those groups forced blue and T slots fewer (a group filled by skips alone is dropped), and
the hand holds T skips fewer.  Under the per-group natural minimum more skips never hurt (a
skip takes the place of a card beyond the minimum), so T is the most the groups take; under
the per-phase minimum a skip may take the place of a natural the phase needs, so every T is
tried.  Skip parts take their skips first: a skip there frees a wild, which can do all that a
blue skip can.  The variants are cached per (groups, rules, skips to spare).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

from ..model.cards import Card
from ..model.group import Group, Kind, Part
from ..model.meld import LaidGroup, Meld
from ..model.phase import Phase
from ..model.rules import Rules
from ..model.skipblue import blue_of, blue_skip, takes_blue_skip
from .budget import SearchLimit


def applies(groups: tuple[Group, ...], rules: Rules) -> bool:
    """Whether the rule can change anything for this phase."""
    return blue_of(rules) is not None and any(takes_blue_skip(g, rules) for g in groups)


def spare_skips(groups: tuple[Group, ...], skips: int) -> int:
    """Skips a hand can lay as blue cards: those its skip parts leave (they fill first)."""
    need = sum(g.size for g in groups if g.kind is Kind.SKIP)
    return max(0, skips - need)


@dataclass(frozen=True)
class Variant:
    """One way of laying skips as blue cards: the phase left to make with the rest."""

    phase: Phase  # the groups left, forced-blue ones with fewer slots (none: ``empty``)
    kept: tuple[int, ...]  # for each group of ``phase``: its index among the original groups
    skips: tuple[int, ...]  # per original group: the skips laid in it as blue cards
    used: int  # their total
    empty: bool  # every group was filled by skips alone (the phase then has no groups)


def _forced_blue(size: int, rules: Rules) -> Group:
    blue = frozenset({blue_of(rules)})
    return Group(Kind.COLOR, size, tuple((n, blue) for n in rules.deck.numbers))


# Ways of laying skips as blue cards tried at most (each is a search of its own); a phase
# of many color groups of different sizes under the per-phase minimum has more, and its
# answer is then past the budget (SearchLimit), never minutes.
MAX_VARIANTS = 512


def variants(groups: tuple[Group, ...], rules: Rules, spare: int) -> tuple[Variant, ...]:
    """Every way worth trying to lay ``spare`` skips (or fewer) as blue cards, most skips
    first; none when no skip can be so laid.  SearchLimit past MAX_VARIANTS."""
    slots = [g for g in groups if takes_blue_skip(g, rules)]
    spare = min(spare, sum(g.size for g in slots))
    if spare <= 0 or not slots:
        return ()
    ways = math.prod(slots.count(g) + 1 for g in set(slots)) - 1
    if rules.natural_scope != "group":
        ways *= spare
    if ways > MAX_VARIANTS:
        raise SearchLimit(f"{MAX_VARIANTS} ways of laying skips as blue cards")
    return _variants(groups, rules, spare)


@lru_cache(maxsize=256)
def _variants(groups: tuple[Group, ...], rules: Rules, spare: int) -> tuple[Variant, ...]:
    per_group = rules.natural_scope == "group"
    slots = [i for i, g in enumerate(groups) if takes_blue_skip(g, rules)]
    # identical color groups are interchangeable: choose how many of each shape are blue
    shapes: dict[Group, list[int]] = {}
    for i in slots:
        shapes.setdefault(groups[i], []).append(i)
    out: list[Variant] = []
    for counts in _counts([len(v) for v in shapes.values()]):
        blue = [i for (_, idx), c in zip(shapes.items(), counts, strict=True) for i in idx[:c]]
        room = [groups[i].size - (min(rules.min_naturals, groups[i].size) if per_group else 0)
                for i in blue]
        most = min(spare, sum(room))
        for used in ([most] if per_group else range(most, 0, -1)):
            if used <= 0:
                continue
            skips = [0] * len(groups)
            left = used
            for i, r in zip(blue, room, strict=True):
                skips[i] = min(r, left)
                left -= skips[i]
            kept, parts = [], []
            for i, g in enumerate(groups):
                if i in blue:
                    rest = g.size - skips[i]
                    if rest:
                        kept.append(i)
                        parts.append(Part(1, _forced_blue(rest, rules)))
                else:
                    kept.append(i)
                    parts.append(Part(1, g))
            out.append(Variant(Phase(tuple(parts)), tuple(kept), tuple(skips), used, not parts))
    out.sort(key=lambda v: -v.used)
    return tuple(out)


def _counts(sizes: list[int]) -> Iterator[tuple[int, ...]]:
    """Every tuple of 0..size per entry, bar all zeros."""
    if not sizes:
        return
    head, rest = sizes[0], sizes[1:]
    tails = list(_counts(rest)) if rest else []
    zero = (0,) * len(rest)
    for c in range(head + 1):
        if c:
            yield (c, *zero)
        for t in tails:
            yield (c, *t)


def empty_made(rules: Rules) -> bool:
    """Whether a phase whose every group is filled by skips laid as blue cards is made:
    only where no natural card is needed at all."""
    return rules.min_naturals == 0


def restore(v: Variant, groups: tuple[Group, ...], meld: Meld | None, rules: Rules) -> Meld:
    """The meld of the original phase from a variant's meld: each blue group gets its skips
    (``S=B``) after its other cards, and wilds in it stand for blue."""
    blue = blue_of(rules)
    s = blue_skip(rules)
    inner = {} if meld is None else dict(zip(v.kept, meld.groups, strict=True))
    laid = []
    for i, g in enumerate(groups):
        cards: tuple[Card, ...] = inner[i].cards if i in inner else ()
        if v.skips[i]:
            cards = tuple(Card(c.number, blue, wild=True) if c.wild else c for c in cards)
            cards += (s,) * v.skips[i]
        laid.append(LaidGroup(g, cards))
    acting = () if meld is None else tuple((v.kept[gi], ci, w) for gi, ci, w in meld.acting)
    return Meld(tuple(laid), acting)


def original_group(v: Variant, groups: tuple[Group, ...], g: Group) -> Group:
    """The original group a variant's group stands for (a forced-blue one: its color group)."""
    if g.kind is not Kind.COLOR or g.colors is None:
        return g
    for i in v.kept:
        if v.skips[i] and groups[i].size - v.skips[i] == g.size:
            return groups[i]
    return g
