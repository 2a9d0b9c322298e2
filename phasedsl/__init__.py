"""phasedsl: the rules toolkit for Phase 10 and its variants.

    >>> from phasedsl import Phase, parse_cards, find
    >>> str(find(Phase.parse("two sets of three"), parse_cards("R5 B5 W G9 G9 Y9")))
    'G9 G9 Y9 | R5 B5 W=5'
"""

__version__ = "0.1.0"

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

# Loaded on first use: ``import phasedsl`` (and every ``phasedsl`` command, which imports it
# first) costs nothing until a name is asked for; checking hands (a batch, say) never needs
# the layout and hit checks.
_LATER = {
    "score": ("melds.scoring", "score"),
    **{n: ("model.cards", n) for n in ("SKIP", "STANDARD_DECK", "WILD", "Card", "Deck",
                                       "format_cards", "parse_cards")},
    **{n: ("model.group", n) for n in ("Group", "Kind", "Part")},
    **{n: ("model.meld", n) for n in ("LaidGroup", "Meld")},
    **{n: ("model.outs", n) for n in ("Out", "Shortfall", "outs", "shortfall")},
    "Phase": ("model.phase", "Phase"),
    **{n: ("model.rules", n) for n in ("DEFAULT_RULES", "Rules", "Scoring")},
    "can_make": ("solver", "can_make"), "find": ("solver", "find"),
    "Hit": ("melds.hits", "Hit"), "HitPlan": ("melds.hits", "HitPlan"),
    "hit_plan": ("melds.hits", "plan"), "hit_targets": ("melds.hits", "targets"),
    "Problem": ("melds.layout", "Problem"), "Verdict": ("melds.layout", "Verdict"),
    "verify": ("melds.layout", "verify"),
}


def __getattr__(name: str):
    if name not in _LATER:
        raise AttributeError(f"module 'phasedsl' has no attribute {name!r}")
    from importlib import import_module

    module, attr = _LATER[name]
    value = globals()[name] = getattr(import_module(f"{__name__}.{module}"), attr)
    return value


# Where each module of 0.1's flat layout now lives: a script that imports one by its old
# name (``phasedsl.odds``, ``phasedsl.packs``) gets the same module object.
MOVED = {
    "cards": "model.cards", "phase": "model.phase", "dsl": "model.dsl", "rephrase": "model.rephrase",
    "rules": "model.rules", "supply": "model.supply", "skipblue": "model.skipblue",
    "meld": "model.meld", "coerce": "model.coerce", "outs": "model.outs",
    "layout": "melds.layout", "runread": "melds.runread", "scoring": "melds.scoring",
    "hits": "melds.hits", "yamlsafe": "packs.yamlsafe", "lint": "packs.lint",
    "gamelog": "game.log", "bots": "players.bots", "strong": "players.strong",
    "turnplan": "players.turnplan", "botspec": "players.botspec", "extbot": "players.extbot",
    "play": "players.play", "tournament": "players.tournament", "odds": "design.odds",
    "oddscache": "design.oddscache", "difficulty": "design.difficulty",
    "simulate": "design.simulate", "balance": "design.balance", "reorder": "design.reorder",
    "generate": "design.generate", "report": "design.report", "svgchart": "design.svgchart",
    "outfiles": "system.outfiles", "workers": "system.workers",
    "interrupts": "system.interrupts", "resources": "system.resources",
}


class _OldNames:
    """Finds ``phasedsl.<old name>`` as the module it moved to (PEP 451 finder and loader)."""

    @staticmethod
    def new_name(name: str) -> str | None:
        head, _, rest = name.partition(".")
        old, _, inner = rest.partition(".")
        if head != __name__ or old not in MOVED:
            return None
        return f"{__name__}.{MOVED[old]}" + (f".{inner}" if inner else "")

    @staticmethod
    def find_spec(name: str, path=None, target=None):
        if _OldNames.new_name(name) is None:
            return None
        from importlib.util import spec_from_loader

        return spec_from_loader(name, _OldNames)

    @staticmethod
    def create_module(spec):
        from importlib import import_module

        return import_module(_OldNames.new_name(spec.name))

    @staticmethod
    def exec_module(module) -> None:
        pass  # (the module ran when it was imported by its own name)


# first: a moved package's old name must not be found on its folder as a second copy
if not any(f is _OldNames for f in __import__("sys").meta_path):
    __import__("sys").meta_path.insert(0, _OldNames)


def load_pack(ref):
    """A variant pack by built-in name or file path (see phasedsl.packs)."""
    from .packs.pack import as_pack  # jsonschema is loaded only when packs are used

    return as_pack(ref, "load_pack")


__all__ = [
    "DEFAULT_RULES", "SKIP", "STANDARD_DECK", "WILD", "ArgumentError", "Card", "CardError", "Deck",
    "Group", "Hit",
    "HitPlan", "InputError", "Kind", "LaidGroup", "LayoutError", "Meld", "Out", "PackError", "Part",
    "Phase", "PhaseDSLError", "PhaseSyntaxError", "PhaseValueError", "Problem", "Rules", "RulesError",
    "Scoring", "Shortfall", "Verdict", "can_make", "find", "format_cards", "hit_plan", "hit_targets",
    "load_pack", "outs", "parse_cards", "score", "shortfall", "verify",
]
