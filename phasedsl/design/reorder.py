"""A pack file written again with its phases in another order, and nothing else changed.

The file is read a second time with a round-trip YAML library (``ruamel.yaml``) so that
its comments, key order, quoting, phase names and notes survive; only the items of the
phase lists move (each with its own comment), and ``name`` becomes the new file's name
(a pack's name is its file's name).  Packs are still *read* by the safe loader
(``yamlsafe``): the round trip is only for writing, and only of a file that loaded as a
pack already.  A pack whose phases come from the pack it extends gets the list copied
into the new file (from the file that holds it, comments and all), then reordered.
"""

from __future__ import annotations

import io
import os
import re
from pathlib import Path

from ..errors import PhaseDSLError
from ..packs.pack import Pack, is_file_ref
from ..system.outfiles import write_text

NAME = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")


def check_writable(pack: Pack, path: Path | str) -> None:
    """Refuse, before any work, a pack or a target that cannot be written reordered."""
    path = Path(path)
    if path.suffix not in (".yaml", ".yml"):
        raise PhaseDSLError(f"--write names a pack file: {path.name!r} does not end in .yaml")
    if not NAME.match(path.stem) or len(path.stem) > 64:
        raise PhaseDSLError(f"--write: a pack's name is its file's name, and {path.stem!r} is "
                            "not a pack name (lowercase letters, digits and single dashes)")
    if pack.path is None:
        raise PhaseDSLError(f"pack {pack.name!r} has no file to write again")
    target = Path(pack.extends).stem if pack.extends and is_file_ref(pack.extends) else pack.extends
    if path.stem in pack.chain[:-1] or path.stem == target:
        raise PhaseDSLError(f"--write {path.name}: the pack would be named {path.stem!r} and "
                            f"extend itself ({' -> '.join(pack.chain)})")
    _source(Path(pack.path))  # a list of worlds inherited: refused here, not after the games


def _yaml():
    from ruamel.yaml import YAML

    y = YAML(typ="rt")
    y.preserve_quotes = True
    y.width = 4096  # long lines stay whole: no reflowing of what the author wrote
    # null as written in the packs ("fixed_hands: null"), not an empty value
    y.representer.add_representer(
        type(None), lambda r, d: r.represent_scalar("tag:yaml.org,2002:null", "null"))
    return y


def _load(path: Path, text: str | None = None):
    from ruamel.yaml.util import load_yaml_guess_indent

    if text is None:
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise PhaseDSLError(f"cannot read {path} again: "
                                f"{getattr(e, 'strerror', None) or e}") from None
    _, indent, offset = load_yaml_guess_indent(text)
    y = _yaml()
    y.block_sequences = offset is not None  # (whether the file shows how it indents them)
    indent = indent or 2
    if offset is None:
        y.indent(mapping=indent, sequence=indent, offset=0)
    else:
        y.indent(mapping=max(1, indent - offset), sequence=indent, offset=offset)
    return y, y.load(text)


def _parent_path(path: Path, ref: str) -> Path:
    from ..system.resources import variants_dir

    if not is_file_ref(ref):
        return variants_dir() / f"{ref}.yaml"
    p = Path(ref)
    return p if p.is_absolute() else path.parent / p


def _source(path: Path, doc=None, depth: int = 0) -> tuple[Path, object]:
    """The file holding the phase list a pack plays, and that list (a round-trip node of
    ``doc``, the file read already, when it holds the list itself)."""
    if doc is None:
        _, doc = _load(path)
    if "phases" in doc:
        return path, doc["phases"]
    if "worlds" in doc:
        if depth:
            # inherited worlds merge the child's rules over each world's own: written out,
            # each world's rules would win instead
            raise PhaseDSLError(f"cannot write the phases in another order: they are the "
                                f"worlds of {path.name}, which the pack extends; reorder "
                                "them there")
        return path, doc["worlds"]
    if "extends" in doc and depth < 8:
        return _source(_parent_path(path, str(doc["extends"])), None, depth + 1)
    raise PhaseDSLError(f"{path}: no phase list found to reorder")


def _permute(seq, slots: list[int], order: tuple[int, ...]) -> None:
    """Put item ``number - 1`` at place ``slot - 1`` for each pair, each item's comment
    (the one on its line, and any lines of comment after it) moving with it."""
    items = list(seq)
    notes = dict(seq.ca.items)
    for slot in slots:
        seq.ca.items.pop(slot - 1, None)
    for slot, number in zip(slots, order, strict=True):
        seq[slot - 1] = items[number - 1]
        if number - 1 in notes:
            seq.ca.items[slot - 1] = notes[number - 1]


def write_reordered(pack: Pack, orders: dict[str | None, tuple[int, ...]], path: Path | str,
                    force: bool = False, made_by: str = "",
                    replaced: dict[str | None, dict[int, str]] | None = None) -> dict:
    """Write ``pack`` to ``path`` with each world's played phases in the order given
    (printed numbers, by world name, None for a pack of one list), and the phrase at each
    place of ``replaced`` (places from 1, by world) put in instead (the item it replaces,
    its name, note and comment, dropped: they were about the phase that went); what moved
    and what was replaced, as data.  The file says where it came from (``made_by``, the
    command, in a comment at its top) and its title says what changed; a schema comment is
    pointed at the schema from the new folder (or dropped where it does not lead there)."""
    path = Path(path)
    check_writable(pack, path)
    text, worlds = _rewritten(pack, Path(pack.path), None, orders, path, made_by,
                              replaced or {})
    size = write_text(path, text, force)
    return {"path": str(path), "name": path.stem, "bytes": size, "copied_from": worlds[1],
            "worlds": worlds[0]}


def reordered_text(pack: Pack, text: str, orders: dict[str | None, tuple[int, ...]],
                   made_by: str = "") -> str:
    """``text`` (the file ``pack`` was read from, given as text: an editor's) with the
    phases in the orders given, as ``write_reordered`` writes them, the name kept."""
    path = Path(f"{pack.name}.yaml")
    return _rewritten(pack, path, text, orders, path, made_by, {})[0]


def _rewritten(pack: Pack, source: Path, text: str | None,
               orders: dict[str | None, tuple[int, ...]], path: Path, made_by: str,
               replaced: dict[str | None, dict[int, str]]) -> tuple[str, tuple[list, str | None]]:
    y, doc = _load(source, text)
    src_path, node = _source(source, doc)
    copied = None
    if src_path != source:
        from copy import deepcopy

        copied = src_path.stem
        if not y.block_sequences:  # the list is written as the file it comes from writes it
            y = _load(src_path)[0]
        doc["phases"] = deepcopy(node)
        node = doc["phases"]
    doc["name"] = path.stem
    ref = doc.get("extends")
    if text is None and isinstance(ref, str) and is_file_ref(ref) and not Path(ref).is_absolute():
        # a relative `extends` names a file beside the pack: say it from the new folder
        target = source.parent / ref
        doc["extends"] = os.path.relpath(target.resolve(), path.parent.resolve())
    worlds = []
    lists = ([(None, node)] if "worlds" not in doc or copied else
             [(w["name"], w["phases"]) for w in doc["worlds"]])
    for name, seq in lists:
        key = name if len(pack.worlds) > 1 else None
        w = pack.world(key)
        if len(seq) != len(w.phases):
            raise PhaseDSLError(f"{pack.path} changed while it was measured: not written")
        order = orders.get(key)
        slots = [e.number for e in w.played]
        moved = []
        new = replaced.get(key, {})
        if order is not None and tuple(order) != tuple(slots):
            _permute(seq, slots, tuple(order))
            moved = [{"phase": str(w.phases[n - 1].phase), "from": n, "to": s}
                     for s, n in zip(slots, order, strict=True) if s != n and s not in new]
        put = []
        for slot, phrase in sorted(new.items()):
            gone = (order or slots)[slot - 1]
            seq[slot - 1] = phrase
            seq.ca.items.pop(slot - 1, None)
            put.append({"place": slot, "phase": phrase,
                        "replaces": str(w.phases[gone - 1].phase)})
        worlds.append({"world": key, "order": list(order or slots), "moved": moved,
                       "replaced": put})
    if isinstance(doc.get("title"), str):
        if any(w["replaced"] for w in worlds):
            doc["title"] = f"{doc['title']} (improved by phasedsl generate)"
        elif any(w["moved"] for w in worlds):
            by = "generate" if "generate" in made_by else "balance"
            doc["title"] = f"{doc['title']} (reordered by phasedsl {by})"
    out = io.StringIO()
    y.dump(doc, out)
    return (_provenance(out.getvalue(), source, path, made_by, pack.name, text is None),
            (worlds, copied))


SCHEMA_COMMENT = re.compile(r"^# yaml-language-server: \$schema=(\S+)\n", re.M)


def _provenance(text: str, source: Path, target: Path, made_by: str, name: str,
                repoint: bool = True) -> str:
    """The written pack's first lines: where it came from, then a schema comment that
    still leads to the schema from the new folder (else none; kept as it is for a pack
    given as text, whose folder is no folder here)."""
    def repointed(m: re.Match) -> str:
        schema = (source.parent / m.group(1)).resolve()
        if not schema.is_file():
            return ""
        return f"# yaml-language-server: $schema={os.path.relpath(schema, target.parent.resolve())}\n"

    if repoint:
        text = SCHEMA_COMMENT.sub(repointed, text, count=1)
    what = (": what phasedsl balance passes kept, what it flags moved or replaced"
            if "generate" in made_by else
            " in the order phasedsl balance proposed from its games")
    head = (f"# made by: {made_by}\n" if made_by else "") + (
        f"# the phases of {name} ({source.name}){what}\n")
    return head + text
