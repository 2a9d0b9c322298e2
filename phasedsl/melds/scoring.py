"""Penalty points for cards left in hand."""

from __future__ import annotations

from collections.abc import Iterable

from ..model.cards import Card
from ..model.coerce import as_cards, as_rules, not_cards
from ..model.rules import DEFAULT_RULES, Rules, Scoring


def card_points(card: Card, scoring: Scoring = DEFAULT_RULES.scoring) -> int:
    if card.wild:
        return scoring.wild
    if card.skip:
        return scoring.skip
    return scoring.high if card.number >= scoring.high_from else scoring.low


def score(cards: Iterable[Card] | str, rules: Rules = DEFAULT_RULES) -> int:
    """Points of the cards left in hand: 5 for 1-9, 10 for 10-12, 15 a skip, 25 a wild.
    ``cards`` may be a card string."""
    rules = as_rules(rules, "score")
    cards = as_cards(cards, rules.deck, "score")
    deck = rules.deck
    for c in cards:  # (a Card made in Python is a value of any fields: R99 scores nothing)
        if not (c.wild or c.skip or c.anti) and (c.number not in deck.numbers
                                                  or c.color not in deck.colors):
            raise not_cards(cards, c, deck)
    return sum(card_points(c, rules.scoring) for c in cards)
