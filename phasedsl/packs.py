"""Variant packs: load, check and lint the YAML files under ``variants/``.

A pack is checked three ways, and every problem in every file is reported at
once as ``file:line:column: message``: YAML syntax and safety (yamlsafe),
the JSON Schema (``pack.schema.json``, mapped back to the YAML node), and the
phase DSL (the column is the column in the file).
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import jsonschema

from .cards import Deck
from .errors import InputError, PackError, PhaseDSLError, caret_lines
from .phase import Phase
from .resources import schema_path, variants_dir
from .rules import Rules, Scoring
from .yamlsafe import Located, Mark, YamlProblem, load

MAX_EXTENDS = 10


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One problem in a pack file."""

    path: str
    line: int | None
    column: int | None
    message: str
    severity: str = "error"  # or "warning"
    source: str = ""  # the offending line of the file

    def __str__(self) -> str:
        where = self.path
        if self.line is not None:
            where += f":{self.line}:{self.column or 1}"
        head = f"{where}: {self.severity}: {self.message}"
        if self.source and self.line is not None:
            return f"{head}\n{caret_lines(self.source, self.column or 1)}"
        return head

    def to_json(self) -> dict:
        return {"file": self.path, "line": self.line, "column": self.column,
                "severity": self.severity, "message": self.message}


@dataclass(frozen=True)
class PhaseEntry:
    number: int
    text: str
    phase: Phase
    name: str | None = None
    note: str | None = None

    @property
    def label(self) -> str:
        return f"phase {self.number}" + (f" ({self.name})" if self.name else "")


@dataclass(frozen=True)
class World:
    name: str
    title: str
    phases: tuple[PhaseEntry, ...]
    rules: Rules
    settings: dict  # the merged `rules` mapping, as written
    source: str | None = None
    note: str | None = None


@dataclass(frozen=True)
class Pack:
    name: str
    title: str
    description: str
    source: str
    worlds: tuple[World, ...]
    rules: Rules
    settings: dict
    extends: str | None = None
    path: str | None = None
    chain: tuple[str, ...] = field(default=())

    def world(self, name: str | None) -> World:
        if name is None:
            if len(self.worlds) == 1:
                return self.worlds[0]
            names = ", ".join(w.name for w in self.worlds)
            raise PhaseDSLError(f"pack {self.name!r} has several worlds; choose one with --world "
                                f"({names})")
        for w in self.worlds:
            if w.name == name.lower():
                return w
        names = ", ".join(w.name for w in self.worlds)
        raise PhaseDSLError(f"pack {self.name!r} has no world {name!r} (it has: {names})")

    def rules_for(self, world: str | None) -> Rules:
        if world is None and len(self.worlds) != 1:
            return self.rules
        return self.world(world).rules

    def phase_entry(self, number: int, world: str | None = None) -> tuple[PhaseEntry, Rules]:
        w = self.world(world)
        if not 1 <= number <= len(w.phases):
            raise PhaseDSLError(f"{self.name}{'/' + w.name if len(self.worlds) > 1 else ''} has "
                                f"phases 1-{len(w.phases)}, not {number}")
        entry = w.phases[number - 1]
        rules = w.rules
        postal = w.settings.get("postal") or {}
        if postal.get("enabled") and number <= postal.get("through_phase", 7):
            rules = rules.with_(wild_numbers=frozenset({number}))
        return entry, rules


# ---------------------------------------------------------------------------- schema


@cache
def schema() -> dict:
    return json.loads(schema_path().read_text(encoding="utf-8"))


def _validator():
    return jsonschema.Draft202012Validator(schema())


def _schema_problems(doc: Located, path: str, lines: list[str]) -> list[Diagnostic]:
    out = []
    errors = sorted(_validator().iter_errors(doc.value), key=lambda e: list(map(str, e.absolute_path)))
    for err in errors:
        at = tuple(err.absolute_path)
        if err.validator == "additionalProperties" and isinstance(err.instance, dict):
            allowed = set((err.schema.get("properties") or {}).keys())
            for key in err.instance:
                if key not in allowed:
                    mark = doc.keys.get((*at, key)) or doc.mark(at)
                    hint = _closest(key, allowed)
                    msg = f"unknown key {key!r}" + (f" (did you mean {hint!r}?)" if hint else "")
                    out.append(_diag(path, mark, msg, lines))
            continue
        mark = doc.mark(at)
        where = "/".join(map(str, at)) or "top level"
        if err.validator == "required":
            msg = f"{where}: {err.message.replace('is a required property', 'is required')}"
        elif err.validator in ("oneOf", "anyOf") and err.context:
            best = min(err.context, key=lambda e: len(list(e.absolute_path)))
            msg = f"{where}: {best.message}"
        else:
            msg = f"{where}: {err.message}"
        out.append(_diag(path, mark, msg, lines))
    return out


def _closest(word: str, options: set[str]) -> str | None:
    import difflib

    got = difflib.get_close_matches(word, sorted(options), n=1, cutoff=0.6)
    return got[0] if got else None


def _diag(path: str, mark: Mark | None, message: str, lines: list[str],
          severity: str = "error") -> Diagnostic:
    if mark is None:
        return Diagnostic(path, None, None, message, severity)
    src = lines[mark.line - 1] if 0 < mark.line <= len(lines) else ""
    return Diagnostic(path, mark.line, mark.column, message, severity, src)


# ---------------------------------------------------------------------------- rules


def _merge(base: dict, over: dict) -> dict:
    out = copy.deepcopy(base)
    for k, v in over.items():
        if isinstance(v, dict) and isinstance(out.get(k), dict):
            out[k] = _merge(out[k], v)
        else:
            out[k] = copy.deepcopy(v)
    return out


def rules_from(settings: dict) -> Rules:
    """The solver's Rules for a pack's (merged) `rules` mapping."""
    d = settings.get("deck") or {}
    names = d.get("colors") or ["red", "blue", "green", "yellow"]
    letters = tuple(n[0].upper() for n in names)
    nums = d.get("numbers") or {}
    deck = Deck(
        colors=letters,
        low=nums.get("low", 1),
        high=nums.get("high", 12),
        copies=d.get("copies", 2),
        wilds=d.get("wilds", 8),
        skips=d.get("skips", 4),
        color_names=tuple(zip(letters, names, strict=True)),
    )
    w = settings.get("wilds") or {}
    sc = settings.get("scoring") or {}
    return Rules(
        deck=deck,
        hand_size=settings.get("hand_size", 10),
        min_naturals=w.get("natural_minimum", 1),
        natural_scope=w.get("natural_scope", "group"),
        sets_share_number=(settings.get("sets") or {}).get("share_number", True),
        runs_one_color=(settings.get("runs") or {}).get("one_color", False),
        extras=(settings.get("lay_down") or {}).get("extras", True),
        wild_swap=w.get("swap", False),
        wild_as_skip=w.get("as_skip", False),
        wild_hit_end=w.get("hit_end", "high"),
        scoring=Scoring(sc.get("low", 5), sc.get("high", 10), sc.get("skip", 15), sc.get("wild", 25)),
    )


# ---------------------------------------------------------------------------- loading


def builtin_names() -> list[str]:
    return sorted(p.stem for p in variants_dir().glob("*.yaml"))


def _resolve(ref: str, base_dir: Path | None) -> Path:
    if not ref.strip():
        raise PhaseDSLError(f"give a pack: a file path or one of: {', '.join(builtin_names())}")
    p = Path(ref)
    if p.suffix in (".yaml", ".yml") or p.exists():
        if not p.is_absolute() and base_dir is not None and not p.exists():
            p = base_dir / p
        return p
    if base_dir is not None and (base_dir / f"{ref}.yaml").exists():
        return base_dir / f"{ref}.yaml"
    builtin = variants_dir() / f"{ref}.yaml"
    if builtin.exists():
        return builtin
    raise PhaseDSLError(f"no pack {ref!r}: give a file path or one of: {', '.join(builtin_names())}")


def _read(path: Path) -> tuple[str, list[str]]:
    try:
        if path.stat().st_size > 1_000_000:
            raise PackError([Diagnostic(str(path), None, None,
                                        "file too large (over 1000 kB); a pack is a small file")])
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise PackError([Diagnostic(str(path), None, None, "not UTF-8 text")]) from None
    except OSError as e:
        raise PackError([Diagnostic(str(path), None, None, f"cannot read: {e.strerror}")]) from None
    return text, text.splitlines()


def _phase_entries(doc: Located, path: str, lines: list[str], at: tuple, items: list,
                   deck: Deck, diags: list[Diagnostic]) -> tuple[PhaseEntry, ...]:
    out = []
    for i, item in enumerate(items):
        p = (*at, i)
        if isinstance(item, dict):
            text, name, note = item.get("phase"), item.get("name"), item.get("note")
            p = (*p, "phase")
        else:
            text, name, note = item, None, None
        if not isinstance(text, str):
            continue  # the schema has said so
        try:
            phase = Phase.parse(text, deck)
        except InputError as e:
            mark = doc.marks.get(p)
            if mark is not None and e.column is not None and "\n" not in text:
                quoted = 1 if doc.styles.get(p) in ('"', "'") else 0
                mark = Mark(mark.line, mark.column + quoted + e.column - 1)
            diags.append(_diag(path, mark, f"phase {i + 1}: {e.message}", lines))
            continue
        out.append(PhaseEntry(i + 1, text, phase, name, note))
    return tuple(out)


def _loose_phase_problems(doc: Located, path: str, lines: list[str]) -> list[Diagnostic]:
    """DSL errors in a pack that also has schema errors, so that all are reported at once."""
    from .cards import STANDARD_DECK

    value = doc.value
    try:
        deck = rules_from(value.get("rules") or {}).deck
    except Exception:  # the schema has already said what is wrong with `rules`
        deck = STANDARD_DECK
    ints = (deck.low, deck.high, deck.copies, deck.wilds, deck.skips)
    if not all(type(v) is int for v in ints) or not all(isinstance(c, str) for c in deck.colors):
        deck = STANDARD_DECK  # a deck the schema refused: read the phases against the printed one
    diags: list[Diagnostic] = []
    if isinstance(value.get("phases"), list):
        _phase_entries(doc, path, lines, ("phases",), value["phases"], deck, diags)
    worlds = value.get("worlds")
    if isinstance(worlds, list):
        for wi, w in enumerate(worlds):
            if isinstance(w, dict) and isinstance(w.get("phases"), list):
                _phase_entries(doc, path, lines, ("worlds", wi, "phases"), w["phases"], deck, diags)
    return diags


def _deck_problems(doc: Located, path: str, lines: list[str]) -> list[Diagnostic]:
    """What the schema cannot say about a deck: its numbers in order, its colors told apart."""
    out = []
    places = [("rules",)] + [("worlds", i, "rules") for i in range(len(doc.value.get("worlds") or []))]
    for at in places:
        node = doc.value
        for key in at:
            node = node.get(key) if isinstance(node, dict) else (
                node[key] if isinstance(node, list) and key < len(node) else None)
        deck = (node or {}).get("deck") if isinstance(node, dict) else None
        if not isinstance(deck, dict):
            continue
        nums = deck.get("numbers") or {}
        if nums.get("low", 1) > nums.get("high", 12):
            out.append(_diag(path, doc.mark((*at, "deck", "numbers")),
                             f"deck numbers go from low to high: {nums.get('low', 1)} is above "
                             f"{nums.get('high', 12)}", lines))
        colors = deck.get("colors") or []
        letters = [c[0].upper() for c in colors if c]
        if len(set(letters)) != len(letters):
            out.append(_diag(path, doc.mark((*at, "deck", "colors")),
                             "two colors start with the same letter; cards could not tell them "
                             "apart (R5 is the red 5)", lines))
    return out


def check_file(ref: str | Path, strict: bool = False) -> tuple[Pack | None, list[Diagnostic]]:
    """Load a pack and report every problem (with ``strict``, lint warnings too)."""
    return _load(Path(ref) if isinstance(ref, Path) else _resolve(str(ref), None), (), strict)


def _load(path: Path, chain: tuple[str, ...], strict: bool) -> tuple[Pack | None, list[Diagnostic]]:
    spath = str(path)
    text, lines = _read(path)
    try:
        doc = load(text)
    except YamlProblem as e:
        return None, [_diag(spath, e.mark, e.message, lines)]
    diags = _schema_problems(doc, spath, lines)
    value = doc.value
    if diags or not isinstance(value, dict):
        if not isinstance(value, dict):
            diags = [_diag(spath, Mark(1, 1), "a pack is a mapping (name, title, ...)", lines)]
        else:
            diags += _loose_phase_problems(doc, spath, lines)
        return None, sorted(diags, key=lambda d: (d.line or 0, d.column or 0))
    name = value["name"]
    if name != path.stem:
        diags.append(_diag(spath, doc.mark(("name",)),
                           f"name {name!r} differs from the file name {path.stem!r}", lines))
    diags += _deck_problems(doc, spath, lines)
    parent: Pack | None = None
    if "extends" in value:
        ref = value["extends"]
        mark = doc.mark(("extends",))
        if ref in chain or ref == name or len(chain) >= MAX_EXTENDS:
            diags.append(_diag(spath, mark, f"extends {ref!r} makes a cycle or a chain longer than "
                                            f"{MAX_EXTENDS}: {' -> '.join((*chain, name, ref))}",
                               lines))
            return None, diags
        try:
            ppath = _resolve(ref, path.parent)
        except PhaseDSLError as e:
            diags.append(_diag(spath, mark, str(e), lines))
            return None, diags
        parent, pd = _load(ppath, (*chain, name), False)
        if parent is None:
            diags.append(_diag(spath, mark, f"the pack it extends ({ppath}) has errors:", lines))
            diags += pd
            return None, diags
    settings = _merge(parent.settings if parent else {}, value.get("rules") or {})
    rules = rules_from(settings)
    worlds: list[World] = []
    if "worlds" in value:
        for wi, w in enumerate(value["worlds"]):
            ws = _merge(settings, w.get("rules") or {})
            wr = rules_from(ws)
            entries = _phase_entries(doc, spath, lines, ("worlds", wi, "phases"), w["phases"],
                                     wr.deck, diags)
            worlds.append(World(w["name"], w["title"], entries, wr, ws, w.get("source"),
                                w.get("note")))
        seen: dict[str, int] = {}
        for wi, w in enumerate(worlds):
            if w.name in seen:
                diags.append(_diag(spath, doc.mark(("worlds", wi, "name")),
                                   f"world name {w.name!r} is used twice", lines))
            seen[w.name] = wi
    elif "phases" in value:
        entries = _phase_entries(doc, spath, lines, ("phases",), value["phases"], rules.deck, diags)
        worlds.append(World(name, value["title"], entries, rules, settings))
    elif parent is not None:
        # inherit the parent's phase lists, under this pack's rules
        for w in parent.worlds:
            ws = _merge(w.settings, value.get("rules") or {})
            wr = rules_from(ws)
            entries = tuple(PhaseEntry(e.number, e.text, Phase.parse(e.text, wr.deck), e.name,
                                       e.note) for e in w.phases)
            worlds.append(World(w.name if len(parent.worlds) > 1 else name,
                                w.title if len(parent.worlds) > 1 else value["title"],
                                entries, wr, ws, w.source, w.note))
    else:
        diags.append(_diag(spath, Mark(1, 1), "a pack needs `phases`, `worlds` or `extends`", lines))
    if any(d.severity == "error" for d in diags):
        return None, diags
    pack = Pack(name, value["title"], value["description"], value["source"], tuple(worlds),
                rules, settings, value.get("extends"), spath, (*chain, name))
    if strict:
        from .lint import lint

        diags += [_diag(spath, doc.mark(at), msg, lines, "warning") for at, msg in lint(pack, value)]
    return pack, diags


def load_pack(ref: str | Path) -> Pack:
    """A pack by built-in name or file path; raise PackError listing every problem."""
    pack, diags = check_file(ref)
    if pack is None:
        raise PackError(diags)
    return pack


def describe_rules(settings: dict, defaults: dict | None = None) -> list[tuple[str, object]]:
    """The settings that differ from the printed rules, as (dotted key, value)."""
    defaults = defaults if defaults is not None else DEFAULT_SETTINGS
    out: list[tuple[str, object]] = []

    def walk(prefix: str, value, base):
        if isinstance(value, dict):
            for k, v in value.items():
                walk(f"{prefix}.{k}" if prefix else k, v,
                     base.get(k) if isinstance(base, dict) else None)
        elif value != base:
            out.append((prefix, value))

    walk("", settings, defaults)
    return out


DEFAULT_SETTINGS: dict = {
    "deck": {"colors": ["red", "blue", "green", "yellow"], "numbers": {"low": 1, "high": 12},
             "copies": 2, "wilds": 8, "skips": 4},
    "hand_size": 10,
    "wilds": {"natural_minimum": 1, "natural_scope": "group", "swap": False, "as_skip": False,
              "hit_end": "high"},
    "postal": {"enabled": False, "through_phase": 7},
    "sets": {"share_number": True},
    "runs": {"one_color": False},
    "lay_down": {"extras": True},
    "phase_order": "in_order",
    "game_length": 10,
    "scoring": {"low": 5, "high": 10, "skip": 15, "wild": 25},
    "house_rules": {
        "floating": False, "dealer_chooses_wild_recipient": False, "anti_phase": False,
        "anti_phase_for_others": False, "skip_target": "choose", "skip_once_per_round": True,
        "hit_same_turn": True, "go_out_after_first_round": False, "save_pile": False,
        "declare_phase": "never", "abandon_phase": False, "everyone_advances": False,
        "fixed_hands": None, "tie_break": "lowest_score_then_replay", "tie_break_phase": None,
        "wild_points_in_phase": False, "wild_steal_penalty": None, "wild_reuse_same_turn": False,
        "skip_counts_as_blue": False, "baseball_short_game": False,
    },
}
