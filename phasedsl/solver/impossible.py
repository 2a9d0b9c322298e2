"""Phases no hand can ever make under the rules, and why (lint says so of a pack; the
shortfall answers such a phase at once, with the reason)."""

from __future__ import annotations

from ..phase import Phase
from ..rules import Rules
from ..supply import natural_cap
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
    if rules.natural_scope != "group":
        if rules.min_naturals and not any(g.kind.needs_natural for g in phase.groups):
            return (f"the phase needs {rules.min_naturals} natural card(s), and it has only "
                    "wild and skip parts to lay them in")
        return None
    for g in phase.groups:
        need = min(rules.min_naturals, g.size)
        supply = natural_cap(g, rules.deck)[0]
        if g.kind.needs_natural and supply < need:
            label = g.describe(rules.deck).removeprefix("1 ")
            return (f"each group needs {need} natural cards, and the deck holds only {supply} "
                    f"that fit a {label}")
    return None
