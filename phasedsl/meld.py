"""Melds: the groups a player lays down, each card in place."""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import Card
from .phase import Group


@dataclass(frozen=True, slots=True)
class LaidGroup:
    """One group on the table: the shape it answers and its cards in laid order.

    Runs list their cards from low to high; a wild carries what it stands for.
    """

    group: Group
    cards: tuple[Card, ...]
    # What hits.py read from the cards, per Rules: a laid group is read once, not
    # once per hit.  Not part of the value (equality, hash, repr ignore it).
    _memo: dict | None = field(default=None, init=False, compare=False, repr=False)

    def __str__(self) -> str:
        return " ".join(str(c) for c in self.cards)

    def to_json(self) -> dict:
        return {**self.group.to_json(), "cards": [str(c) for c in self.cards]}


@dataclass(frozen=True, slots=True)
class Meld:
    """A whole phase laid down: one LaidGroup per group, in the phase's written order."""

    groups: tuple[LaidGroup, ...]

    def cards(self) -> list[Card]:
        """The cards used, as they are in a hand (wilds plain)."""
        return [c.plain() for g in self.groups for c in g.cards]

    def __str__(self) -> str:
        return " | ".join(str(g) for g in self.groups)

    def to_json(self) -> list[list[str]]:
        return [[str(c) for c in g.cards] for g in self.groups]
