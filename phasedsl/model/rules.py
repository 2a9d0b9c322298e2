"""Rule options that change what a meld, a hit or a score is.

Defaults follow the printed Fundex rules; every point where sources disagree
is an option (see README, "Meld semantics").
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Literal

from ..errors import RulesError
from .cards import STANDARD_DECK, Deck


def _int(owner: str, name: str, value: object, low: int) -> None:
    # bool is an int in Python, but Rules(min_naturals=True) is surely a mistake
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise RulesError(f"{owner}{name}", f"a whole number, at least {low}", value)


def _bool(name: str, value: object) -> None:
    if not isinstance(value, bool):
        raise RulesError(name, "True or False", value)


def _choice(name: str, value: object, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        raise RulesError(name, " or ".join(repr(a) for a in allowed), value)


@dataclass(frozen=True, slots=True)
class Scoring:
    """Penalty points for cards left in hand."""

    low: int = 5  # 1-9
    high: int = 10  # 10 and up
    skip: int = 15
    wild: int = 25
    high_from: int = 10

    def __post_init__(self) -> None:
        for name in ("low", "high", "skip", "wild", "high_from"):
            _int("scoring.", name, getattr(self, name), 0)


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
    # Runs may wrap from the deck's top number to its bottom (11 12 1 2; Phazed).
    runs_wrap: bool = False
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
    # A skip may be laid as a blue card in a color group (Japanese page); it is no natural.
    skip_counts_as_blue: bool = False
    # Which end of a run a wild hit takes when both ends are open.
    wild_hit_end: Literal["high", "low"] = "high"
    scoring: Scoring = field(default_factory=Scoring)

    def __post_init__(self) -> None:
        """Refuse what no rule means, naming the field and what it allows."""
        if not isinstance(self.deck, Deck):
            raise RulesError("deck", "a Deck", self.deck)
        _int("", "hand_size", self.hand_size, 1)
        _int("", "min_naturals", self.min_naturals, 0)
        _choice("natural_scope", self.natural_scope, ("group", "phase"))
        _choice("wild_hit_end", self.wild_hit_end, ("high", "low"))
        for name in ("sets_share_number", "runs_one_color", "extras", "wild_swap", "wild_take_back",
                     "wild_as_skip", "runs_wrap", "skip_counts_as_blue"):
            _bool(name, getattr(self, name))
        if not isinstance(self.wild_numbers, frozenset) or not all(
                isinstance(n, int) and not isinstance(n, bool) for n in self.wild_numbers):
            raise RulesError("wild_numbers", "a frozenset of card numbers, like frozenset({3})",
                             self.wild_numbers)
        if not isinstance(self.scoring, Scoring):
            raise RulesError("scoring", "a Scoring", self.scoring)

    def with_(self, **changes) -> Rules:
        return replace(self, **changes)


DEFAULT_RULES = Rules()


def rules_fingerprint(rules: Rules) -> str:
    """The rules fields a dealt hand's making depends on (scoring does not), as text."""
    return repr([(f.name, getattr(rules, f.name)) for f in fields(rules) if f.name != "scoring"])
