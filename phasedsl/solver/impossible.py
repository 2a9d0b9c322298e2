"""Phases no hand can ever make under the rules, and why (lint says so of a pack; the
shortfall answers such a phase at once, with the reason)."""

from __future__ import annotations

from ..model.group import Group, Kind
from ..model.phase import Phase
from ..model.rules import Rules
from ..model.supply import natural_cap
from .classes import as_played, played_classes


def impossible_group(phase: Phase, rules: Rules) -> str | None:
    """Why no hand can ever make the phase under these rules (a run no window of its color
    map can hold, a natural minimum nowhere to be laid or more than the deck holds for a
    group), or None."""
    for g in phase.groups:
        if g.colors is not None and not played_classes(g, rules):
            if as_played(g, rules).kind.one_color:
                return (f"a run of {g.size} is one color under these rules, and no color is "
                        f"allowed at {g.size} numbers in a row of its color map")
            return f"the color map of a run of {g.size} has no {g.size} numbers in a row"
    for g in phase.groups:
        if g.kind.is_sum and (g.total or 0) > sum_reach(g, rules):
            return (f"a sum totalling {g.total} is more than the deck's cards can add up to "
                    f"({sum_reach(g, rules)}{' in one color' if g.kind.one_color else ''}, "
                    "wilds at the top number)")
    totals = sum(g.total or 0 for g in phase.groups if g.kind.is_sum)
    whole = sum_reach(Group(Kind.SUM, 1, total=1, any_count=True), rules)
    if totals > whole:  # the sums' cards are distinct: together within the deck's
        return (f"its sums add up to {totals} in all, more than the deck's cards can "
                f"({whole}, wilds at the top number)")
    if rules.natural_scope != "group":
        if rules.min_naturals and not any(g.kind.needs_natural for g in phase.groups):
            return (f"the phase needs {rules.min_naturals} natural card(s), and it has only "
                    "wild and skip parts to lay them in")
        if any(g.kind.is_sum for g in phase.groups):
            # a meld holds each group at its size, bar a sum of any count: as many cards
            # as its total allows, each at least the deck's lowest number
            low = max(rules.deck.low, 1)
            room = sum((g.total or 0) // low if g.kind.is_sum and g.any_count else g.size
                       for g in phase.groups if g.kind.needs_natural)
            if rules.min_naturals > room:
                return (f"the phase needs {rules.min_naturals} natural card(s), and its groups "
                        f"hold at most {room} card(s) in all (a sum no more than its total "
                        "allows)")
        return None
    for g in phase.groups:
        need = min(rules.min_naturals, g.size)
        supply = natural_cap(g, rules.deck)[0]
        if g.kind.needs_natural and supply < need:
            label = g.describe(rules.deck).removeprefix("1 ")
            return (f"each group needs {need} natural cards, and the deck holds only {supply} "
                    f"that fit a {label}")
    return None


def sum_reach(g: Group, rules: Rules, cards: int | None = None) -> int:
    """The most a sum's cards can add up to from the whole deck (of one color for a color
    sum): every natural it may hold and every wild at the top number; a fixed count, the
    ``size`` largest of those; with ``cards``, at most that many (what a hand can hold)."""
    deck = rules.deck
    colors = 1 if g.kind.one_color else len(deck.colors)
    values = [deck.high] * deck.wilds + [n for n in deck.numbers
                                         for _ in range(colors * deck.copies)]
    values.sort(reverse=True)
    k = len(values) if g.any_count else g.size
    return sum(values[:k if cards is None else min(k, cards)])
