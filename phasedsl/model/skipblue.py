"""The house rule ``skip_counts_as_blue``, as every command reads it.

The Japanese page says a skip has two purposes: to make a player lose a turn, and to be
"used as a blue card".  Read as narrowly as those words allow: a skip may be laid as a blue
card (written ``S=B``) only in a group that asks for one color and nothing about numbers, a
color group (``7 cards of one color``), and that group is then blue: its naturals are blue.
Hits onto such a blue group (or one of wilds alone, made blue so) may be skips too.  It is no
natural card (it does not count toward the natural minimum), a skip laid so is not also
played as a skip, and one left in hand scores as a skip.
"""

from __future__ import annotations

from .cards import Card
from .group import Group, Kind
from .rules import Rules


def blue_of(rules: Rules) -> str | None:
    """The deck's blue color letter when the rule is on (None: off, or no blue in the deck)."""
    if not rules.skip_counts_as_blue:
        return None
    return rules.deck.color_letter("blue")


def takes_blue_skip(group: Group, rules: Rules) -> bool:
    """Whether a skip may be laid in this group as a blue card (a plain color group)."""
    return group.kind is Kind.COLOR and group.colors is None and blue_of(rules) is not None


def blue_skip(rules: Rules) -> Card:
    """A skip laid as a blue card (``S=B``); the rule must be on."""
    return Card(None, blue_of(rules), skip=True)
