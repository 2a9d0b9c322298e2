"""Variant packs: load, check and lint the YAML files under ``variants/``.

A pack is checked three ways, and every problem in every file is reported at
once as ``file:line:column: message``: YAML syntax and safety (yamlsafe),
the JSON Schema (``pack.schema.json``, mapped back to the YAML node), and the
phase DSL (the column is the column in the file).
"""

from __future__ import annotations

import copy
import errno
import json
import os
import stat
from dataclasses import asdict, dataclass, field, replace
from functools import cache, cached_property
from pathlib import Path

import jsonschema

from ..dice import MOST_DICE, Dice, DiceScoring, DieKind, parse_face
from ..errors import ArgumentError, InputError, PackError, PhaseDSLError, caret_lines, not_utf8, quoted
from ..model.board import Board, Moves
from ..model.cards import Deck
from ..model.phase import Phase
from ..model.rules import Rules, Scoring
from ..system.resources import schema_path, variants_dir
from .yamlsafe import Located, Mark, YamlLimit, YamlProblem, load, source_lines

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

    @property
    def where(self) -> str:
        """``file:line:column``, ``file``, or nothing for a problem of no file (an unknown
        pack name)."""
        if self.line is None:
            return self.path
        return f"{self.path}:{self.line}:{self.column or 1}"

    def brief(self) -> str:
        """One line: where and what, without the severity and the quoted source."""
        return f"{self.where}: {self.message}" if self.where else self.message

    def __str__(self) -> str:
        where = self.where
        head = f"{where}: {self.severity}: {self.message}" if where else \
            f"{self.severity}: {self.message}"
        if self.source and self.line is not None:
            return f"{head}\n{caret_lines(self.source, self.column or 1)}"
        return head

    def to_json(self) -> dict:
        return {"file": self.path or None, "line": self.line, "column": self.column,
                "severity": self.severity, "message": self.message}


@dataclass(frozen=True)
class PhaseEntry:
    number: int
    text: str
    phase: Phase
    name: str | None = None
    note: str | None = None
    # Where the phrase is written (a problem with no message yet), for a problem found only
    # later, as the odds' search limit: it then points at the file, line and column as the
    # loader's problems do. None for a pack built from a document rather than read from a file.
    at: Diagnostic | None = field(default=None, compare=False, repr=False)

    @property
    def label(self) -> str:
        return f"phase {self.number}" + (f" ({self.name})" if self.name else "")

    def problem(self, message: str) -> PhaseDSLError:
        """A problem with this phase found after loading: one of its file where known."""
        if self.at is None:
            return PhaseDSLError(message)
        return PackError([replace(self.at, message=message)])


@dataclass(frozen=True)
class World:
    name: str
    title: str
    phases: tuple[PhaseEntry, ...]
    rules: Rules
    settings: dict  # the merged `rules` mapping, as written
    source: str | None = None
    note: str | None = None

    @property
    def played(self) -> tuple[PhaseEntry, ...]:
        """The phases a game plays: all, or under phase_order even_only / odd_only the even- or
        odd-numbered ones (each keeps its printed number)."""
        parity = {"even_only": 0, "odd_only": 1}.get(self.settings.get("phase_order", "in_order"))
        return tuple(e for e in self.phases if parity is None or e.number % 2 == parity)


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
    dice: Dice | None = None  # Phase 10 Dice: played with these dice, not cards
    board: Board | None = None  # Phase 10 Twist: the phase a player attempts is their space's

    def world(self, name: str | None) -> World:
        """A world by its name or, case-insensitively, by its title."""
        builtin = self.path is None or Path(self.path).parent == variants_dir()
        listing = f" (see 'phasedsl show {self.name}')" if builtin else " (see 'phasedsl show')"
        if name is None:
            if len(self.worlds) == 1:
                return self.worlds[0]
            raise PhaseDSLError(_fitted(f"pack {quoted(self.name)} has several worlds; choose "
                                        "one with --world", listing))
        key = " ".join(name.split()).casefold()
        for w in self.worlds:
            if key in (w.name, w.title.casefold()):
                return w
        hint = _did_you_mean(key, {w.name: w.name for w in self.worlds}
                             | {w.title.casefold(): w.name for w in self.worlds})
        raise PhaseDSLError(_fitted(f"pack {quoted(self.name)} has no world {quoted(name, 24)}"
                                    f"{hint}", listing if not hint else ""))

    def rules_for(self, world: str | None) -> Rules:
        if world is None and len(self.worlds) != 1:
            return self.rules
        return self.world(world).rules

    @cached_property
    def _entries(self) -> dict:
        """phase_entry's answers: a game asks for its phases on every turn, and one Rules
        object per phase keeps the solver's prepared layouts."""
        return {}

    def phase_entry(self, number: int, world: str | None = None) -> tuple[PhaseEntry, Rules]:
        got = self._entries.get((number, world))
        if got is None:
            got = self._entries[number, world] = self._phase_entry(number, world)
        return got

    def _phase_entry(self, number: int, world: str | None) -> tuple[PhaseEntry, Rules]:
        w = self.world(world)
        where = f"{self.name}{'/' + w.name if len(self.worlds) > 1 else ''}"
        if not 1 <= number <= len(w.phases):
            raise PhaseDSLError(f"{where} has phases 1-{len(w.phases)}, not {number}")
        entry = w.phases[number - 1]
        if entry not in w.played:
            order = w.settings["phase_order"]
            raise PhaseDSLError(
                f"{where} plays only phases {', '.join(str(e.number) for e in w.played)} "
                f"(phase_order: {order}); phase {number} is not played in this game "
                "(--phase takes the printed phase number)")
        rules = w.rules
        postal = w.settings.get("postal") or {}
        if postal.get("enabled") and number <= postal.get("through_phase", 7):
            rules = rules.with_(wild_numbers=frozenset({number}))
        return entry, rules


# ---------------------------------------------------------------------------- schema


@cache
def schema() -> dict:
    return json.loads(schema_path().read_text(encoding="utf-8"))


def schema_node(dotted: str) -> dict | None:
    """The schema of one rule option (``house_rules.floating``), its ``$ref``s followed; None
    for a key the pack format's ``rules`` does not have."""
    s = schema()
    node = s["$defs"]["rules"]
    for part in dotted.split("."):
        while "$ref" in node:
            node = s["$defs"][node["$ref"].rsplit("/", 1)[-1]]
        node = node.get("properties", {}).get(part)
        if node is None:
            return None
    return node


def _validator():
    return jsonschema.Draft202012Validator(schema())


def _schema_problems(doc: Located, path: str, lines: list[str],
                     errors: list[jsonschema.ValidationError]) -> list[Diagnostic]:
    errors = sorted(errors, key=lambda e: list(map(str, e.absolute_path)))
    said = {(repr(mark), msg): (mark, msg) for err in errors for mark, msg in _explain(err, doc)}
    # several schema rules can say the same thing (each required key): say it once
    return [_diag(path, mark, msg, lines) for mark, msg in said.values()]


# The schema's words for a value's type, as a person writing YAML says them.
_TYPE_WORDS = {"string": "text", "integer": "a whole number", "number": "a number",
               "boolean": "true or false", "object": "a mapping (key: value lines)",
               "array": "a list", "null": "null (nothing)"}

# What a pattern in the schema asks for, in words (the regex itself is for tools).
_PATTERN_WORDS = {
    "^[a-z0-9]+(-[a-z0-9]+)*$": "a name is lowercase letters and digits, in words joined by "
                                "single dashes (like island-paradise)",
    "^[a-rt-vx-z][a-z]*$": "a color name is lowercase letters and may not start with s or w "
                           "(S and W are the skip and the wild in card notation)",
}


def _where(at: tuple, value: object = None) -> str:
    """A place in the file as a person reads it: ``world jazz-club, phase 3``,
    ``rules.deck.skips``; a world is named by its ``name`` when it has a usable one (the form
    every message uses), else by its place in the list."""
    parts: list[str] = []
    keys: list[str] = []
    node = value
    for key in at:
        if isinstance(key, int):
            single = {"phases": "phase", "worlds": "world"}.get(keys[-1]) if keys else None
            if single:
                keys.pop()
            parts += [".".join(keys)] if keys else []
            label = key + 1
            item = node[key] if isinstance(node, list) and 0 <= key < len(node) else None
            if single == "world" and isinstance(item, dict) and _is_name(item.get("name")):
                label = item["name"]
            parts.append(f"{single or 'item'} {label}")
            keys = []
        else:
            keys.append(str(key))
        node = (node.get(key) if isinstance(node, dict) and isinstance(key, str) else
                node[key] if isinstance(node, list) and isinstance(key, int)
                and 0 <= key < len(node) else None)
    return ", ".join(parts + ([".".join(keys)] if keys else []))


def _is_name(value: object) -> bool:
    import re

    return isinstance(value, str) and len(value) <= 60 and \
        re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", value) is not None


def _subject(at: tuple, value: object = None) -> str:
    return _where(at, value) if at else "the pack"


def _found(value: object) -> str:
    """A value as the YAML showed it (never a Python repr)."""
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return f"the number {value}" if _number(value) == str(value) else _number(value)
    if isinstance(value, str):
        return f'the text "{value[:40]}{"..." if len(value) > 40 else ""}"'
    return "a mapping" if isinstance(value, dict) else "a list"


def _number(value: int | float) -> str:
    """A number as a message shows it: a huge one by its size, not its 4,000 digits."""
    text = str(value)
    return text if len(text) <= 20 else f"a number of {len(text):,} digits"


def _quoted(value: object) -> str:
    if isinstance(value, str):  # a long value is cut, as _found cuts it
        return f'"{value[:40]}{"..." if len(value) > 40 else ""}"'
    return _found(value)


def _explain(err: jsonschema.ValidationError, doc: Located) -> list[tuple[Mark | None, str]]:
    """Every schema complaint said for a person who writes YAML: where, and what is expected."""
    at = tuple(err.absolute_path)
    where, v, inst, want = _where(at, doc.value), err.validator, err.instance, err.validator_value
    mark = doc.mark(at)
    if v == "additionalProperties" and isinstance(inst, dict):
        allowed = sorted((err.schema.get("properties") or {}).keys())
        out = []
        for key in inst:
            if key not in allowed:
                hint = _closest(key, set(allowed))
                msg = f"unknown key {quoted(key, 40)}" + (f" (did you mean {hint!r}?)" if hint else
                                                f" (the keys allowed here: {', '.join(allowed)})")
                out.append((doc.keys.get((*at, key)) or mark, (f"{where}: " if at else "") + msg))
        return out
    if v == "required":
        missing = [k for k in want if isinstance(inst, dict) and k not in inst]
        keys = " and ".join(f"'{k}:'" for k in missing)
        return [(mark, f"{_subject(at, doc.value)} needs {'a ' if len(missing) == 1 else ''}{keys} "
                       f"key{'s' if len(missing) > 1 else ''}")]
    if v == "not" and at == () and isinstance(inst, dict) and {"phases", "worlds"} <= inst.keys():
        return [(doc.keys.get(("worlds",)) or mark, "give either 'phases:' (one phase list) or "
                 "'worlds:' (several named lists), not both")]
    if v in ("oneOf", "anyOf") and err.context:
        if all(c.validator == "required" for c in err.context):
            keys = [k for c in err.context for k in c.validator_value]
            return [(mark, f"{_subject(at, doc.value)} needs one of the keys "
                           f"{', '.join(repr(k + ':') for k in keys)}")]
        branches: dict = {}
        for c in err.context:
            branches.setdefault(c.relative_schema_path[0], []).append(c)
        fitting = [errs for errs in branches.values()
                   if not any(c.validator == "type" and tuple(c.absolute_path) == at for c in errs)]
        said = [x for c in (fitting[0] if fitting else []) for x in _explain(c, doc)]
        if said:
            return said
        types = [t for errs in branches.values() for c in errs if c.validator == "type"
                 for t in ([c.validator_value] if isinstance(c.validator_value, str)
                           else c.validator_value)]
        if not types:
            return [(mark, f"{_subject(at, doc.value)}: this value is not allowed here")]
        if set(types) == {"string", "object"} and len(at) >= 2 and at[-2] == "phases":
            return [(mark, f"{where}: a phase is text (\"2 sets of 3\") or a mapping with "
                           f"'phase:' and optional 'name:' and 'note:'; found {_found(inst)}")]
        return [(mark, f"{where}: expected {' or '.join(_TYPE_WORDS.get(t, t) for t in types)}, "
                       f"found {_found(inst)}")]
    if v == "type":
        types = [want] if isinstance(want, str) else want
        return [(mark, f"{_subject(at, doc.value)}: expected "
                       f"{' or '.join(_TYPE_WORDS.get(t, t) for t in types)}, found {_found(inst)}")]
    if v == "enum":
        hint = _closest(inst, set(want)) if isinstance(inst, str) else None
        return [(mark, f"{where}: {_quoted(inst)} is not one of: {', '.join(map(str, want))}"
                       + (f" (did you mean {hint!r}?)" if hint else ""))]
    if v == "pattern":
        rule = _PATTERN_WORDS.get(want) or (err.schema.get("description") or "").rstrip(".")
        return [(mark, f"{where}: {_quoted(inst)} is not allowed: {rule}")]
    if v == "minimum":
        return [(mark, f"{where}: {_number(inst)} is too small: the least allowed is {want}")]
    if v == "maximum":
        return [(mark, f"{where}: {_number(inst)} is too large: the most allowed is {want}")]
    if v == "minLength":
        return [(mark, f"{where}: must not be empty" if want == 1 else
                       f"{where}: is shorter than {want} characters")]
    if v == "maxLength":
        return [(mark, f"{where}: is too long ({len(inst)} characters; at most {want})")]
    if v == "minItems":
        return [(mark, f"{where}: the list is empty: give at least one item" if want == 1 else
                       f"{where}: give at least {want} items")]
    if v == "maxItems":
        return [(mark, f"{where}: {len(inst)} items is too many: at most {want}")]
    if v == "uniqueItems":
        seen: list = []
        twice = next((x for x in inst if x in seen or seen.append(x)), None)
        return [(mark, f"{where}: {_quoted(twice)} is listed twice")]
    what = (err.schema.get("description") or "").rstrip(".") if isinstance(err.schema, dict) else ""
    return [(mark, f"{_subject(at, doc.value)}: this value is not allowed here"
                   + (f" ({what})" if what else ""))]


def _closest(word: str, options: set[str]) -> str | None:
    import difflib

    got = difflib.get_close_matches(word, sorted(options), n=1, cutoff=0.6)
    return got[0] if got else None


def _fitted(message: str, tail: str) -> str:
    """``message`` with ``tail`` when both fit one error line (under 100 columns with
    "error: "); a long name in the message leaves the tail out."""
    return message + tail if len(message) + len(tail) <= 90 else message


def _did_you_mean(word: str, spellings: dict[str, str]) -> str:
    """`` (did you mean 'x'?)`` for a misspelt or shortened name; spellings map each way of
    writing a thing (its name, its title) to its name."""
    word = word.casefold()
    near = _closest(word, set(spellings)) or next(
        (s for s in sorted(spellings) if word and (s.startswith(word) or word in s.split("-"))),
        None)
    return f" (did you mean {spellings[near]!r}?)" if near else ""


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
    """The solver's Rules for a pack's (merged) `rules` mapping; what it leaves out is the
    printed rule (the schema's default)."""
    s = _merge(DEFAULT_SETTINGS, settings)
    d, w, sc = s["deck"], s["wilds"], s["scoring"]
    letters = tuple(n[0].upper() for n in d["colors"])
    deck = Deck(colors=letters, low=d["numbers"]["low"], high=d["numbers"]["high"],
                copies=d["copies"], wilds=d["wilds"], skips=d["skips"],
                color_names=tuple(zip(letters, d["colors"], strict=True)))
    return Rules(
        deck=deck,
        hand_size=s["hand_size"],
        min_naturals=w["natural_minimum"],
        natural_scope=w["natural_scope"],
        sets_share_number=s["sets"]["share_number"],
        runs_one_color=s["runs"]["one_color"],
        runs_wrap=s["runs"]["wrap"],
        extras=s["lay_down"]["extras"],
        wild_swap=w["swap"],
        wild_take_back=w["take_back"],
        wild_as_skip=w["as_skip"],
        wild_hit_end=w["hit_end"],
        # a house rule, but one that changes what a meld is: the solver reads it too
        skip_counts_as_blue=(s.get("house_rules") or {}).get("skip_counts_as_blue", False),
        scoring=Scoring(sc["low"], sc["high"], sc["skip"], sc["wild"]),
    )


# ---------------------------------------------------------------------------- loading


def builtin_names() -> list[str]:
    return sorted(p.stem for p in variants_dir().glob("*.yaml"))


def is_file_ref(ref: str) -> bool:
    """Whether a pack reference names a file: it holds a ``/`` or ends in .yaml or .yml.
    Anything else is a built-in pack's name, wherever it is written (``--variant``,
    ``extends:``, a log's ``variant``), so a file beside it never stands in for a built-in."""
    return "/" in ref or os.sep in ref or ref.endswith((".yaml", ".yml"))


@dataclass(frozen=True)
class _Confined:
    """Where the pack files an untrusted file names must lie (in or below ``folder``), and
    how a refusal names that folder."""

    folder: Path
    says: str


def _resolve(ref: str, base_dir: Path | None, within: _Confined | None = None) -> Path:
    """The file a pack reference names: a built-in by name, or a path relative to
    ``base_dir`` (the current folder when None).  With ``within`` the reference comes from
    an untrusted file (a log, or a pack's ``extends``): the file must lie in or below that
    folder, symbolic links resolved, and whether a refused file exists is never said."""
    if not is_file_ref(ref):
        if ref in builtin_names():
            return variants_dir() / f"{ref}.yaml"
        if not ref.strip():
            raise PackError([Diagnostic("", None, None, "give a pack: a built-in name (see "
                                                        "'phasedsl list') or a .yaml file")])
        hint = ""
        if len(ref) <= 40:
            # a file of that name in the folder is what was meant more surely than a
            # built-in of a like name (a log's names are never looked up: within)
            local = None if within is not None else _nearby_file(ref, base_dir)
            folder = within is None and ((base_dir or Path()) / ref).is_dir()
            hint = (f" (did you mean {local!r}?)" if local else
                    " (a folder of that name is here, and a pack is a file)" if folder else
                    _did_you_mean(ref, {n: n for n in builtin_names()}))
        message = _fitted(f"no pack {quoted(ref, 24)}{hint}",
                          ": see 'phasedsl list', or name a .yaml file")
        raise PackError([Diagnostic("", None, None, message)])
    p = Path(ref)
    if base_dir is not None and not p.is_absolute():
        p = base_dir / p
    if within is None:
        if len(ref) <= 200 and not os.path.lexists(p) and (near := _nearby_file(ref, base_dir)):
            raise PackError([Diagnostic(str(p), None, None, f"cannot read: "
                                        f"{os.strerror(errno.ENOENT)} (did you mean {near!r}?)")])
        return p
    refused = PackError([Diagnostic("", None, None, f"no pack file {quoted(ref, 30)} in or below "
                                                    f"{within.says}")])
    try:
        real = Path(os.path.realpath(p))
        top = Path(os.path.realpath(within.folder))
        if top not in real.parents or not stat.S_ISREG(real.stat().st_mode):
            raise refused
    except (OSError, ValueError):  # missing, a name too long, a NUL: the same answer
        raise refused from None
    return real


def _nearby_file(ref: str, base_dir: Path | None) -> str | None:
    """The pack file ``ref`` (a name that is no built-in, or a file that is not there)
    most likely meant, written as ``ref`` would be (``./harbor-tour.yaml``): in the folder
    ``ref`` points into (from ``base_dir``, else the current folder), the file of its very
    name first, then one of a close name; None when there is none."""
    import difflib

    name = ref.rsplit("/", 1)[-1]
    head = ref[: len(ref) - len(name)] or "./"
    folder = Path(head)
    if base_dir is not None and not folder.is_absolute():
        folder = base_dir / folder
    stem = name.removesuffix(".yaml").removesuffix(".yml").casefold()
    files: dict[str, str] = {}
    try:
        with os.scandir(folder) as found:
            for _, entry in zip(range(2000), found, strict=False):  # (a huge folder: a look)
                if entry.name.endswith((".yaml", ".yml")) and entry.is_file():
                    files.setdefault(entry.name.rsplit(".", 1)[0].casefold(), entry.name)
    except (OSError, ValueError):
        return None
    key = stem if stem in files else next(iter(difflib.get_close_matches(stem, sorted(files),
                                                                        1, 0.75)), None)
    if key is None or files[key] == name or len(head + files[key]) > 60:
        return None  # (a name too long for an error line is not offered)
    return head + files[key]


def _read(path: Path) -> tuple[str, list[str]]:
    """A pack file's text.  Only a regular file is read: a FIFO, a device, a folder or a
    terminal is refused before it is opened (opening a FIFO waits for a writer), and the
    open itself never waits (O_NONBLOCK) should the file change in between."""
    spath = str(path)
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            raise PackError([Diagnostic(spath, None, None, "not a regular file: a pack is a "
                                                           ".yaml file")])
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as fh:
            if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
                raise PackError([Diagnostic(spath, None, None, "not a regular file: a pack is "
                                                               "a .yaml file")])
            data = fh.read(1_000_001)
        if len(data) > 1_000_000:
            raise PackError([Diagnostic(spath, None, None,
                                        "file too large (over 1000 kB); a pack is a small file")])
        text = data.decode("utf-8")
    except PackError:  # (a ValueError too)
        raise
    except UnicodeDecodeError as e:
        line, column, message = not_utf8(data, e)
        raise PackError([Diagnostic(spath, line, column, message)]) from None
    except OSError as e:
        raise PackError([Diagnostic(spath, None, None, f"cannot read: {e.strerror}")]) from None
    except ValueError:
        raise PackError([Diagnostic(repr(spath), None, None,
                                    "cannot read: a file name holds no NUL character")]) from None
    return text, source_lines(text)


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
            diags.append(_diag(path, _phrase_mark(doc, p, text, e, lines),
                               f"{_where((*at, i), doc.value)}: {e.message}", lines))
            continue
        out.append(PhaseEntry(i + 1, text, phase, name, note, _diag(path, doc.mark(p), "", lines)))
    return tuple(out)


def _deck_problems(doc: Located, value: dict, path: str, lines: list[str]) -> list[Diagnostic]:
    """What the schema cannot say about a deck: its numbers in order, its colors told apart."""
    out = []
    places = [("rules",)] + [("worlds", i, "rules") for i in range(len(value.get("worlds") or []))]
    for at in places:
        node = value
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
        colors = [c for c in deck.get("colors") or [] if isinstance(c, str) and c]
        by_letter: dict[str, list[str]] = {}
        for c in colors:
            by_letter.setdefault(c[0].upper(), []).append(c)
        for letter, names in by_letter.items():
            if len(names) > 1:
                # the example is a color of this deck whose letter is its own
                plain = next((c for c in colors if len(by_letter[c[0].upper()]) == 1), None)
                example = f" ({plain[0].upper()}5 is the {plain} 5)" if plain else ""
                out.append(_diag(path, doc.mark((*at, "deck", "colors")),
                                 f"{' and '.join(names)} both start with {letter}: a card names its "
                                 f"color by the first letter{example}, so {letter}5 could not say "
                                 "which is meant; rename one", lines))
    return out


def check_file(ref: str | Path, strict: bool = False, within: str | Path | None = None
               ) -> tuple[Pack | None, list[Diagnostic]]:
    """Load a pack and report every problem (with ``strict``, lint warnings too).

    ``within``: the reference comes from an untrusted file in that folder (a game log), so
    it names a built-in pack or a file in or below the folder (its ``extends:`` too), and
    nothing of a file that does not read as a pack is ever quoted back."""
    if within is None and isinstance(ref, Path):
        return _load(ref, (), strict, None)
    top = None if within is None else _Confined(
        Path(within), "the log's folder (replay --variant FILE names one)")
    return _load(_resolve(str(ref), None if top is None else top.folder, top), (), strict, top)


def check_text(text: str, strict: bool = True) -> tuple[Pack | None, list[Diagnostic]]:
    """A pack given as text (an editor's, a web page's), checked as ``check_file`` checks a
    file, its problems said as of ``NAME.yaml``.  It may extend a built-in pack only: no
    file it names is read."""
    if len(text) > 1_000_000:
        return None, [Diagnostic("pack", None, None,
                                 "too large (over 1000 kB); a pack is a small file")]
    try:
        doc = load(text)
    except YamlProblem:
        doc = None  # (said below, where the pack is read, at its line)
    value = doc.value if doc is not None else None
    name = value.get("name") if isinstance(value, dict) else None
    name = name if isinstance(name, str) and _is_name(name) else "pack"
    path = Path(f"{name}.yaml")
    ref = value.get("extends") if isinstance(value, dict) else None
    if isinstance(ref, str) and is_file_ref(ref):
        return None, [_diag(str(path), doc.mark(("extends",)), f"extends {quoted(ref)}: a pack "
                            "given as text may extend a built-in pack only (no file is read)",
                            source_lines(text))]
    try:
        return _load(path, (), strict, None, text)
    except PackError as e:
        return None, list(e.problems)


# The keys a pack's top level may hold (the schema's), and those it must.
_PACK_KEYS = frozenset(schema()["properties"])
_REQUIRED_KEYS = frozenset(schema()["required"])


def _not_a_pack(spath: str) -> list[Diagnostic]:
    # An untrusted file that is not a pack is not quoted: it may be any file at all.
    return [Diagnostic(spath, None, None, "not a pack: a pack is a YAML mapping with the keys "
                                          "name, title, description and source")]


def _name_problems(doc: Located, path: Path, lines: list[str]) -> list[Diagnostic]:
    name = doc.value.get("name")
    if not isinstance(name, str) or name == path.stem:
        return []
    return [_diag(str(path), doc.mark(("name",)),
                  f"name {name!r} differs from the file name {path.stem!r}", lines)]


def _load(path: Path, chain: tuple[str, ...], strict: bool, within: _Confined | None,
          text: str | None = None) -> tuple[Pack | None, list[Diagnostic]]:
    pack, diags = _read_pack(path, chain, strict, within, text)
    return (None if any(d.severity == "error" for d in diags) else pack), diags


# Built-in packs read in this process, by file and its stamp: a pack is an immutable value,
# and commands and tests load the same few (every ``extends: original`` reads original).
_BUILT_IN: dict[tuple, tuple[Pack | None, list[Diagnostic]]] = {}


def _read_pack(path: Path, chain: tuple[str, ...], strict: bool, within: _Confined | None,
               text: str | None = None) -> tuple[Pack | None, list[Diagnostic]]:
    """A pack and every problem of its file (or of ``text``, read as that file's), found in
    one run: the pack is built from what reads (also when there are errors, so that an
    ``extends`` of it and lint can read on), or None where nothing does (YAML that does not
    parse, a file that is no mapping)."""
    if text is not None or path.parent != variants_dir():
        return _read_pack_now(path, chain, strict, within, text)
    try:
        st = os.stat(path)
    except OSError:
        return _read_pack_now(path, chain, strict, within, text)
    key = (str(path), st.st_mtime_ns, st.st_size, chain, strict, within)
    if key not in _BUILT_IN:
        _BUILT_IN[key] = _read_pack_now(path, chain, strict, within, text)
    pack, diags = _BUILT_IN[key]
    return pack, list(diags)


def _read_pack_now(path: Path, chain: tuple[str, ...], strict: bool, within: _Confined | None,
                   text: str | None) -> tuple[Pack | None, list[Diagnostic]]:
    spath = str(path)
    text, lines = (text, source_lines(text)) if text is not None else _read(path)
    untrusted = within is not None and path.parent != variants_dir()
    try:
        doc = load(text)
    except YamlLimit as e:  # unusable input, wherever it is named from (said without a quote)
        raise PackError([_diag(spath, e.mark, e.message, [])]) from None
    except YamlProblem as e:
        if untrusted:
            return None, _not_a_pack(spath)
        return None, [_diag(spath, e.mark, e.message, lines)]
    value = doc.value
    if untrusted and (doc.problems or not (
            isinstance(value, dict) and _REQUIRED_KEYS <= value.keys() <= _PACK_KEYS)):
        return None, _not_a_pack(spath)
    if not isinstance(value, dict):
        return None, [_diag(spath, Mark(1, 1), "a pack is a mapping (name, title, ...)", lines)]
    diags = [_diag(spath, mark, msg, lines) for mark, msg in doc.problems]
    refused = list(_validator().iter_errors(value))
    diags += _schema_problems(doc, spath, lines, refused)
    if refused:
        # every problem at once: the checks below read what the schema accepts
        value = _accepted(value, refused)
    name = value.get("name") if isinstance(value.get("name"), str) else path.stem
    diags += _name_problems(doc, path, lines)
    diags += _deck_problems(doc, value, spath, lines)
    parent: Pack | None = None
    if "extends" in value:
        parent = _parent(doc, value["extends"], path, (*chain, name), within, lines, diags)
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
        worlds.append(World(name, value.get("title", ""), entries, rules, settings))
    elif parent is not None:
        # inherit the parent's phase lists, under this pack's rules
        for w in parent.worlds:
            ws = _merge(w.settings, value.get("rules") or {})
            wr = rules_from(ws)
            entries = _inherited(doc, spath, lines, w, len(parent.worlds) > 1, wr, diags)
            worlds.append(World(w.name if len(parent.worlds) > 1 else name,
                                w.title if len(parent.worlds) > 1 else value.get("title", ""),
                                entries, wr, ws, w.source, w.note))
    elif not refused and "extends" not in value:  # (else said already)
        diags.append(_diag(spath, Mark(1, 1), "a pack needs `phases`, `worlds` or `extends`", lines))
    dice = _dice(doc, value, parent, rules, spath, lines, diags)
    before = len(diags)
    board = _board(doc, value, parent, rules, spath, lines, diags)
    twists_refused = len(diags) > before
    pack = Pack(name, value.get("title", ""), value.get("description", ""),
                value.get("source", ""), tuple(worlds), rules, settings, value.get("extends"),
                spath, (*chain, name), dice, board)
    if strict:
        # warnings also for a file with errors (in the phases that read), so that one run
        # says all that is wrong with it
        from .lint import game_rule_errors, lint

        said = {(d.line, d.column, d.message) for d in diags}
        more = [_diag(spath, doc.mark(at), msg, lines, "warning") for at, msg in lint(pack, value)]
        more += [_diag(spath, doc.mark(at), msg, lines)
                 for at, msg in game_rule_errors(pack, twists_refused)]
        diags += [d for d in more if (d.line, d.column, d.message) not in said]
    # (this file's problems first, then those of a pack it extends)
    diags.sort(key=lambda d: (d.path != spath, d.line or 0, d.column or 0))
    return pack, diags


def _inherited(doc: Located, path: str, lines: list[str], world: World, named: bool,
               rules: Rules, diags: list[Diagnostic]) -> tuple[PhaseEntry, ...]:
    """A parent world's phases read again under this pack's rules; one this pack's deck
    cannot hold is a problem of this file, said at its ``extends``."""
    out = []
    for e in world.phases:
        try:
            phase = Phase.parse(e.text, rules.deck)
        except InputError as err:
            of = f"world {world.name}, " if named else ""
            diags.append(_diag(path, doc.mark(("extends",)),
                               f"{of}phase {e.number} ({quoted(e.text, 60)}), inherited: "
                               f"{err.message} under this pack's rules", lines))
            continue
        out.append(PhaseEntry(e.number, e.text, phase, e.name, e.note, e.at))  # written there
    return tuple(out)


def _dice(doc: Located, value: dict, parent: Pack | None, rules: Rules, spath: str,
          lines: list[str], diags: list[Diagnostic]) -> Dice | None:
    """The pack's dice (its own ``dice:``, else its parent's), each face read under the
    pack's deck; a face the deck has not is an error at its place."""
    given = value.get("dice")
    if not isinstance(given, dict):
        return parent.dice if parent is not None else None
    kinds = []
    for ki, k in enumerate(given.get("dice") or []):
        faces = []
        for fi, token in enumerate(k.get("faces") or []):
            try:
                faces.append(parse_face(token, rules.deck))
            except InputError as e:
                diags.append(_diag(spath, doc.mark(("dice", "dice", ki, "faces", fi)),
                                   e.message, lines))
        if faces:
            kinds.append(DieKind(k.get("name", f"die {ki + 1}"), int(k.get("count", 1)),
                                 tuple(faces)))
    if not kinds:
        return None
    if sum(k.count for k in kinds) > MOST_DICE:
        diags.append(_diag(spath, doc.mark(("dice", "dice")),
                           f"{sum(k.count for k in kinds)} dice: a game has at most {MOST_DICE}",
                           lines))
        return None
    return Dice(tuple(kinds), int(given.get("rolls", 3)),
                DiceScoring(**(given.get("scoring") or {})))


def _phrase_mark(doc: Located, at: tuple, text: str, e: InputError,
                 lines: list[str]) -> Mark | None:
    """Where in the file a phrase's error is: the DSL's column found by walking the scalar's
    source from its start, character for character and a run of spaces or line breaks for a
    space, so a phrase folded over lines (plain, quoted, a '>' or '|' block) is pointed at
    on the line that holds the error.  Where the source is not the text as written before
    the error (an escape such as \\u00e9 or a doubled '' quote) it is the phrase's own start:
    never a column that holds something else."""
    mark = doc.marks.get(at)
    if mark is None or e.column is None:
        return mark
    style = doc.styles.get(at)
    line, col = mark.line - 1, mark.column - 1 + (1 if style in ('"', "'") else 0)
    if style in ("|", ">") and line + 1 < len(lines):
        # the text starts on the line after the block's indicator, past its indentation
        line += 1
        col = len(lines[line]) - len(lines[line].lstrip(" "))

    def source():
        for n in range(line, len(lines)):
            for c in range(col if n == line else 0, len(lines[n])):
                yield n, c, lines[n][c]
            yield n, len(lines[n]), "\n"

    chars = source()
    here = next(chars, None)
    want = text[:e.column - 1]
    i, spaces = 0, None
    while i < len(want):
        if here is None:
            return mark
        if want[i].isspace():
            if not here[2].isspace():
                return mark
            while i < len(want) and want[i].isspace():
                i += 1
            spaces = here
            while here is not None and here[2].isspace():
                here = next(chars, None)
        elif here[2] != want[i]:
            return mark
        else:
            i += 1
            here = next(chars, None)
    if want[-1:].isspace() and e.column > len(text):
        here = spaces  # (the phrase's end: where its last spaces start, not the next key)
    return mark if here is None else Mark(here[0] + 1, here[1] + 1)


def _board(doc: Located, value: dict, parent: Pack | None, rules: Rules, spath: str,
           lines: list[str], diags: list[Diagnostic]) -> Board | None:
    """The pack's board (its own ``board:``, else its parent's), each twist phase read by
    the DSL under the pack's deck (an error at its place where it does not read)."""
    given = value.get("board")
    if not isinstance(given, dict):
        return parent.board if parent is not None else None
    twists = []
    for i, text in enumerate(given.get("twist_phases") or []):
        try:
            twists.append(Phase.parse(text, rules.deck))
        except InputError as e:
            diags.append(_diag(spath, _phrase_mark(doc, ("board", "twist_phases", i), text, e,
                                                            lines),
                               f"twist phase {i + 1}: {e.message}", lines))
    return board_of(given, tuple(twists))


def board_of(given: dict, twists: tuple[Phase, ...]) -> Board:
    """A ``board:`` section (schema-valid) as a ``Board``, its twist deck read already."""
    return Board(tuple(given.get("spaces") or ()), twists, Moves(**(given.get("moves") or {})),
                 bool(given.get("start_needs_phase", True)), int(given.get("discard_piles", 1)),
                 str(given.get("skip_placement", "in_front")))


def _parent(doc: Located, ref: str, path: Path, chain: tuple[str, ...], within: _Confined | None,
            lines: list[str], diags: list[Diagnostic]) -> Pack | None:
    """The pack ``extends: ref`` names, read as far as it reads (its problems are added to
    ``diags``), or None where there is none to read: the rest of the file is checked
    either way, against the printed rules where no parent reads."""
    spath = str(path)
    mark = doc.mark(("extends",))
    # (a pack's name is its file's name, so a file's name says which pack it holds)
    target = Path(ref).stem if is_file_ref(ref) else ref
    if target in chain or len(chain) > MAX_EXTENDS:
        diags.append(_diag(spath, mark, f"extends {ref!r} makes a cycle or a chain longer than "
                                        f"{MAX_EXTENDS}: {' -> '.join((*chain, ref))}", lines))
        return None
    try:
        # a bare name is a built-in; a path is read from this file's folder or below (from
        # a log's folder or below, when a log named this pack): a pack is a file from
        # anywhere, and what it names is confined as a log's names are, never quoted back
        # unless it reads as a pack
        if within is None and is_file_ref(ref):
            within = _Confined(path.parent, f"the folder of {path.name}")
        ppath = _resolve(ref, path.parent, within)
        parent, pd = _read_pack(ppath, chain, False, within)
    except PackError as e:
        diags += [_diag(spath, mark, f"extends {quoted(ref, 40)}: {d.path + ': ' if d.path else ''}"
                                     f"{d.message}", lines) for d in e.problems]
        return None
    if any(d.severity == "error" for d in pd):
        diags.append(_diag(spath, mark, f"the pack it extends ({ppath}) has errors:", lines))
        diags += pd
    return parent


def _accepted(value: dict, errors: list[jsonschema.ValidationError] | None = None) -> dict:
    """A copy of a pack's mapping without what its schema refuses (an unknown key, a value
    of the wrong type or out of range: the printed rule stands in for a rule left out), so
    that the checks that read the rest (phases, the deck, extends, world names, lint) say
    their problems in the same run.  A phase left out leaves its place (None), so that the
    phases after it keep their numbers, and a world its place (what it lacks stands
    empty)."""
    out = copy.deepcopy(value)
    if errors is None:
        errors = list(_validator().iter_errors(value))
    for _ in range(3):  # (leaving a value out may leave its container refused)
        if not errors:
            break
        for err in errors:
            _leave_out(out, err)
        errors = list(_validator().iter_errors(out))
    worlds = out.get("worlds")
    if isinstance(worlds, list):
        # a world keeps its place (its phases are read, lint names it); what it lacks stands
        # empty, its name as written where it is text
        written = value.get("worlds") or []
        for wi, w in enumerate(worlds):
            w = worlds[wi] = w if isinstance(w, dict) else {}
            if not isinstance(w.get("name"), str):
                was = written[wi].get("name") if isinstance(written[wi], dict) else None
                w["name"] = was if isinstance(was, str) else f"world-{wi + 1}"
            w.setdefault("title", "")
            w.setdefault("phases", [])
    elif "worlds" in out:
        del out["worlds"]
    return out


def _leave_out(value: dict, err: jsonschema.ValidationError) -> None:
    at = list(err.absolute_path)
    if err.validator == "required":
        return  # nothing there to leave out
    if err.validator in ("oneOf", "anyOf") and err.context:
        # the branch of the value's own type says what to leave out of it (a phase mapping
        # with an unknown key keeps its phase)
        branches: dict = {}
        for c in err.context:
            branches.setdefault(c.relative_schema_path[0], []).append(c)
        fitting = [errs for errs in branches.values()
                   if not any(c.validator == "type" and list(c.absolute_path) == at
                              for c in errs)]
        if len(fitting) == 1:
            for c in fitting[0]:
                _leave_out(value, c)
            return
    if err.validator == "additionalProperties":
        node = _node(value, at)
        if isinstance(node, dict):
            for key in [k for k in node if k not in (err.schema.get("properties") or {})]:
                del node[key]
        return
    # a refused item of a list other than a list of phases or worlds leaves the list out
    # whole (a deck's colors, say, read as a whole)
    while len(at) >= 2 and isinstance(at[-1], int) and at[-2] not in ("phases", "worlds"):
        at = at[:-1]
    if not at:
        return  # the whole file (phases and worlds both given): read as it is
    node = _node(value, at[:-1])
    if isinstance(node, dict):
        node.pop(at[-1], None)
    elif isinstance(node, list) and isinstance(at[-1], int) and at[-1] < len(node):
        node[at[-1]] = None


def _node(value: object, at: list) -> object:
    """The value at ``at``, or None where it has been left out."""
    for key in at:
        try:
            value = value[key]  # type: ignore[index]
        except (KeyError, IndexError, TypeError):
            return None
    return value


def pack_document(pack: Pack) -> dict:
    """The pack as one self-contained mapping of the pack format: its rules and phases
    resolved (no ``extends`` left), as a log's header carries it (docs/game-log.md)."""

    def phases(w: World) -> list:
        return [e.text if not (e.name or e.note) else
                {"phase": e.text, **({"name": e.name} if e.name else {}),
                 **({"note": e.note} if e.note else {})} for e in w.phases]

    doc: dict = {"name": pack.name, "title": pack.title or pack.name,
                 "description": pack.description or pack.title or pack.name,
                 "source": pack.source or "phasedsl"}
    if pack.dice is not None:
        doc["dice"] = dice_document(pack.dice)
    if pack.board is not None:
        doc["board"] = board_document(pack.board)
    if len(pack.worlds) == 1 and pack.worlds[0].name == pack.name:
        return {**doc, "rules": pack.worlds[0].settings, "phases": phases(pack.worlds[0])}
    return {**doc, "rules": pack.settings,
            "worlds": [{"name": w.name, "title": w.title or w.name, "rules": w.settings,
                        "phases": phases(w), **({"source": w.source} if w.source else {}),
                        **({"note": w.note} if w.note else {})} for w in pack.worlds]}


def dice_document(dice: Dice) -> dict:
    """A pack's dice as its ``dice:`` section."""
    return {"rolls": dice.rolls, "dice": [{"name": k.name, "count": k.count,
                                           "faces": [str(f) for f in k.faces]}
                                          for k in dice.kinds],
            "scoring": asdict(dice.scoring)}


def board_document(board: Board) -> dict:
    """A pack's board as its ``board:`` section."""
    return {"spaces": list(board.spaces), "twist_phases": [str(p) for p in board.twist_phases],
            "moves": asdict(board.moves), "start_needs_phase": board.start_needs_phase,
            "discard_piles": board.discard_piles, "skip_placement": board.skip_placement}


# A pack carried in a log is confined to no folder at all: its ``extends`` may name only a
# built-in pack.
_NO_FOLDER = _Confined(Path(os.devnull) / "no-folder",
                       "no folder (a pack carried in a log may extend a built-in only)")


def pack_from_document(doc: object) -> Pack:
    """The pack a log's header carries (``pack_document``'s form), read as untrusted input:
    the same schema, limits and checks as a pack file a log names, never quoted where it
    does not read, and an ``extends`` in it only a built-in's name; PackError otherwise."""
    label = "the log's \"pack\""
    if not isinstance(doc, dict):
        raise PackError([Diagnostic(label, None, None, "not a pack: a pack is a mapping")])
    text = json.dumps(doc)
    if len(text) > 1_000_000:
        raise PackError([Diagnostic(label, None, None, "too large (over 1000 kB); a pack is "
                                                       "small")])
    name = doc.get("name")
    stem = name if isinstance(name, str) and _is_name(name) else "pack"
    pack, diags = _read_pack(Path(f"{stem}.yaml"), (), False, _NO_FOLDER, text)
    if pack is None or any(d.severity == "error" for d in diags):
        raise PackError([replace(d, path=label) for d in diags] or _not_a_pack(label))
    return replace(pack, path=None)


def load_pack(ref: str | Path, within: str | Path | None = None) -> Pack:
    """A pack by built-in name or file path; raise PackError listing every problem.
    ``within``: as for ``check_file`` (a pack named by a log in that folder)."""
    pack, diags = check_file(ref, within=within)
    if pack is None:
        raise PackError(diags)
    return pack


def as_pack(x: object, where: str) -> Pack:
    """What the Python API takes for a pack: a Pack, or a built-in name or file path to
    load; anything else is an ArgumentError naming the argument."""
    if isinstance(x, Pack):
        return x
    if isinstance(x, str | os.PathLike):
        return load_pack(os.fspath(x))
    raise ArgumentError(f"{where}(pack=...)", "a Pack, or a built-in pack name or a pack "
                        "file path like 'original'", x)


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


def _schema_defaults(node: dict) -> dict:
    out: dict = {}
    for key, sub in (node.get("properties") or {}).items():
        if "properties" in sub:
            out[key] = _schema_defaults(sub)
        elif "default" in sub:
            out[key] = sub["default"]
    return out


# The printed rules: every rule option's default, as the schema states it.
DEFAULT_SETTINGS: dict = _schema_defaults(schema()["$defs"]["rules"])
