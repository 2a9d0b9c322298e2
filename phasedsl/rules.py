"""Rule options that change what a meld, a hit or a score is.

Defaults follow the printed Fundex rules; every point where sources disagree
is an option (see README, "Meld semantics").
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal

from .cards import STANDARD_DECK, Deck


@dataclass(frozen=True, slots=True)
class Scoring:
    """Penalty points for cards left in hand."""

    low: int = 5  # 1-9
    high: int = 10  # 10 and up
    skip: int = 15
    wild: int = 25
    high_from: int = 10


@dataclass(frozen=True, slots=True)
class Rules:
    deck: Deck = STANDARD_DECK
    hand_size: int = 10
    # "As long as one natural card is used": per group (digital games, published
    # odds) or per phase (the booklet's literal wording).
    min_naturals: int = 1
    natural_scope: Literal["group", "phase"] = "group"
    # Two sets in one phase may show the same number (three 10s and three more 10s).
    sets_share_number: bool = True
    # House rule (Japanese page): every run must be one color.
    runs_one_color: bool = False
    # Lay more than the minimum, with cards that fit the phase's own groups.
    extras: bool = True
    # Numbers whose cards may act as wilds (the "postal" house rule).
    wild_numbers: frozenset[int] = field(default_factory=frozenset)
    # A laid wild may be swapped for the natural it stands for (Utah rules).
    wild_swap: bool = False
    # A laid wild may be replaced by its natural and taken into the hand (Japanese page).
    wild_take_back: bool = False
    # A wild may be played as a skip (also inside a skip part).
    wild_as_skip: bool = False
    # Which end of a run a wild hit takes when both ends are open.
    wild_hit_end: Literal["high", "low"] = "high"
    scoring: Scoring = field(default_factory=Scoring)

    def with_(self, **changes) -> Rules:
        return replace(self, **changes)


DEFAULT_RULES = Rules()
