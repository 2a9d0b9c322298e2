"""phasedsl: the rules toolkit for Phase 10 and its variants."""

from .cards import SKIP, STANDARD_DECK, WILD, Card, Deck, format_cards, parse_cards
from .errors import (
    CardError,
    InputError,
    LayoutError,
    PackError,
    PhaseDSLError,
    PhaseSyntaxError,
    PhaseValueError,
)
from .phase import Group, Kind, Part, Phase

__all__ = [
    "SKIP", "STANDARD_DECK", "WILD", "Card", "CardError", "Deck", "Group", "InputError", "Kind",
    "LayoutError", "PackError", "Part", "Phase", "PhaseDSLError", "PhaseSyntaxError",
    "PhaseValueError", "format_cards", "parse_cards",
]
