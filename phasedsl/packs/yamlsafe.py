"""Reading YAML safely, keeping where every value came from.

Packs are data: no tags that build objects, no anchors or aliases (so no
alias bombs), no duplicate keys, bounded size and depth.  Every value keeps
its line and column so that schema and DSL errors can point into the file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import yaml

MAX_BYTES = 1_000_000
MAX_DEPTH = 32
MAX_NODES = 200_000
# Keys of one mapping.  The schema's largest mapping names 21; each key past those is an
# "unknown key" problem quoting the keys allowed (every problem is said at once, a file of
# 5,000 such keys too), but a file of nothing but keys (60,000 within MAX_BYTES) printed
# 12 MB of problems over 20 s: past this many it is no pack, said once.
MAX_KEYS = 5_000

_STANDARD_TAGS = {
    "tag:yaml.org,2002:" + t for t in ("str", "int", "float", "bool", "null", "seq", "map")
}


@dataclass(frozen=True, slots=True)
class Mark:
    line: int  # 1-based
    column: int  # 1-based


class YamlProblem(Exception):
    def __init__(self, message: str, mark: Mark | None) -> None:
        super().__init__(message)
        self.message = message
        self.mark = mark


class YamlLimit(YamlProblem):
    """A file past what can be read at all (its size, a number's digits): refused as
    unusable input, like a file too large to read; the message quotes nothing of it."""


@dataclass
class Located:
    """A loaded document: the plain value, and the mark of each path in it.

    Paths are tuples of keys and indices; ``keys`` holds the marks of mapping
    keys themselves (for "unknown key" errors)."""

    value: object
    marks: dict
    keys: dict
    styles: dict  # path -> scalar style ('' plain, '"', "'", '|', '>')
    # What was left out, each (mark, message): a key given twice (its second value), a
    # tag, a key that is not plain text.  Said with every other problem of the file, since
    # the rest of the document reads as it would without them.
    problems: list[tuple[Mark, str]] = field(default_factory=list)

    def mark(self, path) -> Mark | None:
        path = tuple(path)
        while path not in self.marks and path:
            path = path[:-1]
        return self.marks.get(path)


def source_lines(text: str) -> list[str]:
    """The lines a diagnostic quotes, as YAML counts their columns: without a byte order
    mark (YAML skips one and counts from the character after it; quoted, it showed as
    ``\\ufeff`` with the caret a column short)."""
    return text.removeprefix("\ufeff").splitlines()


def _mark(node) -> Mark:
    return Mark(node.start_mark.line + 1, node.start_mark.column + 1)


def _plain_words(e: yaml.MarkedYAMLError, text: str):
    """PyYAML's problem said for a person who writes YAML, and the mark to point at: for an
    unclosed quote or bracket the place it was opened, not the end of the file."""
    problem, context = e.problem or "", e.context or ""
    at, opened = e.problem_mark, e.context_mark
    found = problem.rpartition("found ")[2] if "found " in problem else ""
    lines = source_lines(text)
    before = lines[at.line][:at.column].rstrip() if at is not None and at.line < len(lines) else ""
    if "'\\t'" in problem or "tab character" in problem:
        return "a tab character: YAML indents with spaces only, never tabs", at
    if problem.startswith("expected <block end>") or problem.startswith("did not find expected"):
        if found == "'<scalar>'" and before.endswith(("'", '"')):
            return ("text after a closing quote: put the whole value inside the quotes", at)
        return ("the indentation of this line does not match the lines above it (a key or a "
                "'- ' item must line up with the keys or items it belongs with)", at)
    if problem == "mapping values are not allowed here":
        return ("a ':' here would start a key inside a value: put a value that contains ': ' in "
                "quotes, or indent a new key like the keys above it", at)
    if problem == "could not find expected ':'":
        return ("this line is neither 'key: value' nor a '- ' list item: a ':' after the key "
                "is missing (or a value above needs quotes to run on to this line)", opened or at)
    if "quoted scalar" in context and "end of stream" in problem:
        return "this quote is never closed: the matching quote mark is missing", opened or at
    if "unknown escape character" in problem:
        return (f"{problem.rpartition(' ')[2]} after a backslash is not an escape inside double "
                "quotes: use single quotes, or write \\\\ for a backslash", at)
    for kind, close in (("flow sequence", "]"), ("flow mapping", "}")):
        if kind in context:
            if opened is not None and at is not None and opened.line == at.line and \
                    "<stream end>" not in problem:
                return f"a ',' (between items) or the closing '{close}' is missing here", at
            return (f"the '{'[' if close == ']' else '{'}' opened here is never closed with "
                    f"'{close}' (or a ',' between items is missing)", opened or at)
    if "cannot start any token" in problem:
        char = problem.split("'")[1] if "'" in problem else "this character"
        return f"a value cannot start with '{char}': put the text in quotes", at
    if "undefined alias" in problem:
        return "aliases (*name) are not allowed in packs", at
    if "single document" in context:
        return "a pack is one YAML document: remove the '---' line and what follows", at
    return f"{problem or context} (PyYAML's words)", at or opened


# Flow brackets, and what hides them: a quoted string (on one line) or a comment.  (Not
# YAML's grammar, only a bound: a quote inside a plain word can mislead it, so what it
# finds is confirmed by ``_too_deep``.)
_FLOW = re.compile(r"""[\[\]{}]|"(?:[^"\\\n]|\\.)*"|'(?:[^'\n]|'')*'|#[^\n]*""")


def _may_be_too_deep(text: str) -> bool:
    """Whether ``text`` may open flow lists or mappings past MAX_DEPTH levels.  PyYAML's
    scanner is quadratic in the depth of open brackets (each keeps a possible key that
    every later token checks): 2,000 ``[`` took a second to refuse, where this takes
    microseconds."""
    depth = 0
    for m in _FLOW.finditer(text):
        c = m.group()[0]
        if c in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return True
        elif c in "]}" and depth:
            depth -= 1
    return False


def _too_deep(text: str) -> Mark | None:
    """Where ``text`` opens its list or mapping past MAX_DEPTH levels (below the top one,
    as ``load`` counts)."""
    depth = -1
    for event in yaml.parse(text, Loader=yaml.SafeLoader):
        if isinstance(event, yaml.CollectionStartEvent):
            depth += 1
            if depth > MAX_DEPTH:
                return _mark(event)
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1
    return None


def load(text: str) -> Located:
    """Parse one YAML document; raise YamlProblem with a mark on anything broken, or unsafe
    to read further (aliases, depth, size).  A duplicate key, a tag or a key that is not
    plain text is left out and said in ``Located.problems``."""
    if len(text.encode("utf-8", errors="replace")) > MAX_BYTES:
        raise YamlLimit(f"file too large (over {MAX_BYTES // 1000} kB); a pack is a small file", None)
    if _may_be_too_deep(text):
        at = _too_deep(text)
        if at is not None:
            raise YamlProblem(f"nested too deeply (the limit is {MAX_DEPTH} levels)", at)
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as e:
        message, m = _plain_words(e, text)
        raise YamlProblem(f"YAML syntax: {message}", Mark(m.line + 1, m.column + 1) if m else None
                          ) from None
    except yaml.reader.ReaderError as e:  # (a character YAML refuses: its place in the text)
        at = e.position
        raise YamlProblem(f"the character U+{e.character:04X} is not allowed in YAML text: "
                          "remove it",
                          Mark(text.count("\n", 0, at) + 1, at - text.rfind("\n", 0, at))
                          ) from None
    except yaml.YAMLError as e:
        raise YamlProblem(f"YAML: {e}", None) from None
    except RecursionError:  # (composing recurses; the events that show where do not)
        raise YamlProblem(f"nested too deeply (the limit is {MAX_DEPTH} levels)",
                          _too_deep(text)) from None
    if node is None:
        return Located(None, {(): Mark(1, 1)}, {}, {})
    marks: dict = {}
    keys: dict = {}
    styles: dict = {}
    seen: set[int] = set()
    problems: list[tuple[Mark, str]] = []
    constructor = yaml.SafeLoader("")
    count = [0]

    def build(n, path: tuple, depth: int):
        if depth > MAX_DEPTH:
            raise YamlProblem(f"nested too deeply (the limit is {MAX_DEPTH} levels)", _mark(n))
        count[0] += 1
        if count[0] > MAX_NODES:
            raise YamlProblem("too many values in one file", _mark(n))
        if id(n) in seen:
            raise YamlProblem("anchors and aliases (&name, *name) are not allowed in packs", _mark(n))
        seen.add(id(n))
        marks[path] = _mark(n)
        if n.tag not in _STANDARD_TAGS:
            # (never constructed: the value is left out, the tag said)
            problems.append((_mark(n), f"the tag {n.tag!r} is not allowed: packs hold plain "
                                       "data only"))
            return None
        if isinstance(n, yaml.MappingNode):
            if len(n.value) > MAX_KEYS:
                raise YamlProblem(f"a mapping of {len(n.value):,} keys: too many for a pack "
                                  f"(at most {MAX_KEYS:,} are read)", _mark(n.value[MAX_KEYS][0]))
            out = {}
            for k, v in n.value:
                if k.tag == "tag:yaml.org,2002:merge" or (
                        isinstance(k, yaml.ScalarNode) and k.value == "<<"):
                    raise YamlProblem("merge keys (<<) are not allowed in packs", _mark(k))
                if not isinstance(k, yaml.ScalarNode):
                    problems.append((_mark(k), "mapping keys must be plain strings"))
                    continue
                if k.tag not in _STANDARD_TAGS:
                    problems.append((_mark(k), f"the tag {k.tag!r} is not allowed"))
                    continue
                key = k.value
                if (*path, key) in keys:
                    problems.append((_mark(k), f"duplicate key {key!r} (first given on line "
                                               f"{keys[(*path, key)].line})"))
                    continue
                keys[(*path, key)] = _mark(k)
                out[key] = build(v, (*path, key), depth + 1)
            return out
        if isinstance(n, yaml.SequenceNode):
            return [build(v, (*path, i), depth + 1) for i, v in enumerate(n.value)]
        styles[path] = n.style or ""
        try:
            return constructor.construct_object(n)
        except ValueError:
            # Python reads no integer of over 4,300 digits (a pack's numbers have a few)
            raise YamlLimit(f"a number of {len(n.value):,} characters: far too long for any "
                              "value of a pack", _mark(n)) from None

    try:
        value = build(node, (), 0)
    except RecursionError:
        raise YamlProblem(f"nested too deeply (the limit is {MAX_DEPTH} levels)", None) from None
    return Located(value, marks, keys, styles, problems)
