"""A case's `rules` object: the pack format's `rules` mapping in full, plus `wild_numbers`.

Every case carries its rules whole, so that an implementation needs nothing of phasedsl's
packs to answer it. The keys are the pack keys (docs/pack-format.md), every one present;
`wild_numbers` (the numbers whose cards act as wilds: the postal rule at a given phase) is
the one key a pack does not have, since a pack derives it from the phase number.
"""

from __future__ import annotations

import copy
import json
from functools import lru_cache

from ..model.phase import Phase
from ..model.rules import Rules
from ..packs.pack import DEFAULT_SETTINGS, Pack, PhaseEntry, World, board_of, rules_from

# A feature's name for each dotted rules key whose pack name says too little on its own
# (`wilds.swap` is `wild_swap`); any other key is named by its dotted path with `_`
# (`runs.wrap` is `runs_wrap`), a house rule by its own name, and every deck, scoring and
# postal key by its section, so that a new rule option needs no entry here.
FEATURE_NAMES = {
    "wilds.natural_minimum": "natural_minimum",
    "wilds.natural_scope": "natural_scope",
    "wilds.swap": "wild_swap",
    "wilds.take_back": "wild_take_back",
    "wilds.as_skip": "wild_as_skip",
    "wilds.hit_end": "hit_end",
    "lay_down.extras": "extras",
}
SECTION_FEATURES = ("deck", "scoring", "postal")


def printed() -> dict:
    """The printed rules, in full."""
    return {**copy.deepcopy(DEFAULT_SETTINGS), "wild_numbers": []}


def flatten(settings: dict, prefix: str = "") -> dict[str, object]:
    out: dict[str, object] = {}
    for k, v in settings.items():
        key = f"{prefix}{k}"
        if isinstance(v, dict):
            out.update(flatten(v, key + "."))
        else:
            out[key] = v
    return out


def with_changes(base: dict, changes: dict[str, object]) -> dict:
    """``base`` with each dotted key of ``changes`` set."""
    out = copy.deepcopy(base)
    for dotted, value in changes.items():
        *path, last = dotted.split(".")
        node = out
        for p in path:
            node = node.setdefault(p, {})
        node[last] = copy.deepcopy(value)
    return out


def full(settings: dict, wild_numbers: frozenset[int] | list[int] = ()) -> dict:
    """A pack's (merged) rules mapping as a case's rules object: every key present."""
    out = with_changes(printed(), {k: v for k, v in flatten(settings).items()})
    out["wild_numbers"] = sorted(wild_numbers)
    return out


def changes(rules: dict) -> dict[str, object]:
    """The dotted keys where ``rules`` differs from the printed rules."""
    base = flatten(printed())
    return {k: v for k, v in flatten(rules).items() if base.get(k, _MISSING) != v}


_MISSING = object()


def feature_name(dotted: str) -> str:
    if dotted in FEATURE_NAMES:
        return FEATURE_NAMES[dotted]
    head, _, rest = dotted.partition(".")
    if head in SECTION_FEATURES:
        return head
    if head == "house_rules" and rest:
        return rest
    return dotted.replace(".", "_")


def features(rules: dict) -> list[str]:
    """The features a rules object depends on: one name per rule that is not printed."""
    return sorted({feature_name(k) for k in changes(rules)})


def solver_rules(rules: dict) -> Rules:
    """The solver's Rules for a case's rules object (RulesError/PackError-free input only:
    the caller checks the shape)."""
    settings = {k: v for k, v in rules.items() if k != "wild_numbers"}
    got = rules_from(settings)
    wild = rules.get("wild_numbers") or []
    return got.with_(wild_numbers=frozenset(wild)) if wild else got


def game_pack(rules: dict, phases: list[str], board: dict | None = None) -> Pack:
    """A pack playing ``phases`` under ``rules`` (on ``board``, a pack's ``board:`` section,
    if given), made in memory (a game case names no file)."""
    return _pack_for(json.dumps([rules, phases, board], sort_keys=True))


@lru_cache(maxsize=64)
def _pack_for(key: str) -> Pack:
    # one Pack per rule set and phase list: cases share a few, and a Pack keeps its
    # deck, so that the phases read once are read once per deck
    rules, phases, board = json.loads(key)
    settings = {k: v for k, v in rules.items() if k != "wild_numbers"}
    r = rules_from(settings)
    entries = tuple(PhaseEntry(n, text, Phase.parse(text, r.deck))
                    for n, text in enumerate(phases, 1))
    world = World("conformance", "Conformance case", entries, r, settings)
    played = None
    if board is not None:
        played = board_of(board, tuple(Phase.parse(t, r.deck)
                                       for t in board.get("twist_phases") or ()))
    return Pack("conformance", "Conformance case", "a game case of the conformance suite",
                "phasedsl conformance", (world,), r, settings, board=played)


def assumed(pairs: list[str]) -> dict[str, object]:
    """The rule values an engine declares it plays by (``KEY=VALUE``, keys dotted as in a
    case's ``rules``, values as JSON, a bare word as text), each checked against the pack
    format: PhaseDSLError (bad usage) naming the key or the values allowed."""
    from difflib import get_close_matches

    import jsonschema

    from ..errors import PhaseDSLError
    from ..packs.pack import schema_node

    keys = sorted(flatten(printed()))
    out: dict[str, object] = {}
    for pair in pairs:
        key, eq, text = pair.partition("=")
        key = key.strip()
        if not eq or not key:
            raise PhaseDSLError(f"--assume {pair!r}: expected KEY=VALUE, like "
                                "wilds.natural_minimum=0")
        if key not in keys:
            hint = get_close_matches(key, keys, 1)
            raise PhaseDSLError(f"--assume: no rule {key!r}"
                                + (f" (did you mean {hint[0]!r}?)" if hint else "")
                                + f"; the rules are {', '.join(keys)}")
        try:
            value = json.loads(text)
        except (ValueError, RecursionError):  # (JSON nested too deeply: no rule's value)
            value = text.strip()
        node = schema_node(key)  # (None: wild_numbers, a case's key no pack has)
        problem = (next(iter(jsonschema.Draft202012Validator(node)
                             .iter_errors(value)), None) if node is not None
                   else None if isinstance(value, list) and all(
                       isinstance(n, int) and not isinstance(n, bool) for n in value)
                   else "a list of numbers")
        if problem is not None:
            allowed = (node.get("enum") or (f"an integer from {node.get('minimum')} to "
                                            f"{node.get('maximum')}" if node.get("type")
                                            == "integer" else node.get("type"))
                       or "a value of the pack format" if node is not None else problem)
            said = ", ".join(map(json.dumps, allowed)) if isinstance(allowed, list) else allowed
            raise PhaseDSLError(f"--assume {key}={text}: not a value of {key} (allowed: {said})")
        out[key] = value
    return out


def differing(rules: dict, assumptions: dict[str, object]) -> list[str]:
    """The declared keys whose value in a case's ``rules`` is another."""
    flat = flatten(rules)
    return [k for k, v in assumptions.items() if flat.get(k) != v]
