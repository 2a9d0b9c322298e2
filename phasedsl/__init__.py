"""phasedsl: the rules toolkit for Phase 10 and its variants.

    >>> from phasedsl import Phase, parse_cards, find
    >>> str(find(Phase.parse("two sets of three"), parse_cards("R5 B5 W G9 G9 Y9")))
    'G9 G9 Y9 | R5 B5 W=5'
"""

__version__ = "0.1.0"

from .cards import SKIP, STANDARD_DECK, WILD, Card, Deck, format_cards, parse_cards
from .errors import (
    ArgumentError,
    CardError,
    InputError,
    LayoutError,
    PackError,
    PhaseDSLError,
    PhaseSyntaxError,
    PhaseValueError,
    RulesError,
)
from .meld import LaidGroup, Meld
from .outs import Out, Shortfall, outs, shortfall
from .phase import Group, Kind, Part, Phase
from .rules import DEFAULT_RULES, Rules, Scoring
from .scoring import score
from .solver import can_make, find

# Loaded on first use: checking hands (a batch, say) never needs the layout and hit checks.
_LATER = {"Hit": ("hits", "Hit"), "HitPlan": ("hits", "HitPlan"), "hit_plan": ("hits", "plan"),
          "hit_targets": ("hits", "targets"), "Problem": ("layout", "Problem"),
          "Verdict": ("layout", "Verdict"), "verify": ("layout", "verify")}


def __getattr__(name: str):
    if name not in _LATER:
        raise AttributeError(f"module 'phasedsl' has no attribute {name!r}")
    from importlib import import_module

    module, attr = _LATER[name]
    value = globals()[name] = getattr(import_module(f"{__name__}.{module}"), attr)
    return value


def load_pack(ref):
    """A variant pack by built-in name or file path (see phasedsl.packs)."""
    from .packs import as_pack  # jsonschema is loaded only when packs are used

    return as_pack(ref, "load_pack")


__all__ = [
    "DEFAULT_RULES", "SKIP", "STANDARD_DECK", "WILD", "ArgumentError", "Card", "CardError", "Deck",
    "Group", "Hit",
    "HitPlan", "InputError", "Kind", "LaidGroup", "LayoutError", "Meld", "Out", "PackError", "Part",
    "Phase", "PhaseDSLError", "PhaseSyntaxError", "PhaseValueError", "Problem", "Rules", "RulesError",
    "Scoring", "Shortfall", "Verdict", "can_make", "find", "format_cards", "hit_plan", "hit_targets",
    "load_pack", "outs", "parse_cards", "score", "shortfall", "verify",
]
