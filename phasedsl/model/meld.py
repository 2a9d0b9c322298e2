"""Melds: the groups a player lays down, each card in place."""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import Card, card_names
from .group import Group


@dataclass(frozen=True, slots=True)
class LaidGroup:
    """One group on the table: the shape it answers and its cards in laid order.

    ``find`` and ``verify`` list a run low to high, each wild with what it stands
    for; ``hits.laid_group`` keeps the cards as the player wrote them (hits/laid.py
    says how an unstated wild's place is read).
    """

    group: Group
    cards: tuple[Card, ...]
    # What hits/laid.py read from the cards, per Rules: a laid group is read once, not
    # once per hit.  Not part of the value (equality, hash, repr ignore it).
    _memo: dict | None = field(default=None, init=False, compare=False, repr=False)

    def __str__(self) -> str:
        return " ".join(str(c) for c in self.cards)

    def to_json(self) -> dict:
        return {**self.group.to_json(), "cards": [str(c) for c in self.cards]}


def acting_text(card: Card, wild: Card) -> str:
    """A card of a wild number played as a wild, written like a wild with the card in front
    of '=': ``R3=5`` (R3 standing for a 5), ``R3=R7``, ``R3=W`` (standing for nothing yet)."""
    return f"{card}={str(wild).removeprefix('W=') if wild.number or wild.color else 'W'}"


def _as_itself(card: Card, wild: Card) -> bool:
    said = wild.number is not None or wild.color is not None
    return said and wild.number in (None, card.number) and wild.color in (None, card.color)


@dataclass(frozen=True, slots=True)
class Meld:
    """A whole phase laid down: one LaidGroup per group, in the phase's written order.

    ``acting`` lists the cards of a wild number (the postal rule) that are played
    as wilds: (group index, card index, the wild the card acts as, e.g. ``W=5``).
    The groups hold the real cards, as they left the hand.
    """

    groups: tuple[LaidGroup, ...]
    acting: tuple[tuple[int, int, Card], ...] = ()

    def cards(self) -> list[Card]:
        """The cards used, as they are in a hand (wilds plain)."""
        return [c.plain() for g in self.groups for c in g.cards]

    def card_texts(self) -> list[list[str]]:
        """Each group's cards as text, a card acting as a wild shown as ``R3=5``."""
        # A card standing for what it is anyway (R3 as a 3 in a set of 3s) is shown plain.
        if not self.acting:
            return [card_names(g.cards) for g in self.groups]
        acting = {(gi, ci): w for gi, ci, w in self.acting
                  if not _as_itself(self.groups[gi].cards[ci], w)}
        return [[acting_text(c, acting[gi, ci]) if (gi, ci) in acting else str(c)
                 for ci, c in enumerate(g.cards)] for gi, g in enumerate(self.groups)]

    def __str__(self) -> str:
        return " | ".join(" ".join(texts) for texts in self.card_texts())

    def to_json(self) -> list[list[str]]:
        return self.card_texts()
