"""MkDocs hooks: the reference pages written from the code itself, at build time.

* ``<!-- phasedsl:cli -->`` becomes every command's help, read from the Typer app (the
  click commands it builds): usage, the help text, each argument and option.
* ``<!-- phasedsl:schema -->`` becomes the pack format, read from the JSON Schema the
  loader checks packs with (``phasedsl/pack.schema.json``).

So the reference cannot drift from the program: it is the program's own text.  The
functions are plain, for the tests to call too (``tests/test_docs.py``).
"""

from __future__ import annotations

import json
from pathlib import Path

CLI_MARK = "<!-- phasedsl:cli -->"
SCHEMA_MARK = "<!-- phasedsl:schema -->"


def on_page_markdown(markdown: str, page, config, files) -> str:  # (MkDocs' hook)
    if CLI_MARK in markdown:
        markdown = markdown.replace(CLI_MARK, cli_reference())
    if SCHEMA_MARK in markdown:
        markdown = markdown.replace(SCHEMA_MARK, schema_reference())
    return markdown


# ----------------------------------------------------------------------- the CLI


def cli_reference() -> str:
    """Every command of ``phasedsl``, as Markdown, in the order ``phasedsl --help`` lists.
    (The commands are Typer's click objects, read by what they have: a group has
    ``commands``; each command its ``params``.)"""
    from phasedsl.cli import COMMANDS, command

    out = []
    for name in COMMANDS:
        cmd = command(name)
        subs = getattr(cmd, "commands", {})
        if len(subs) == 1:  # (one command wrapped in a group of its own)
            out.append(_command_md(f"phasedsl {name}", next(iter(subs.values())), 2))
            continue
        out.append(_command_md(f"phasedsl {name}", cmd, 2))
        for sub, inner in subs.items():
            out.append(_command_md(f"phasedsl {name} {sub}", inner, 3))
    return "\n".join(out)


def _command_md(title: str, cmd, level: int) -> str:
    ctx = _context(cmd, title)
    usage = " ".join(cmd.collect_usage_pieces(ctx))
    lines = [f"{'#' * level} `{title}`", "", f"```text\n{title} {usage}\n```", ""]
    lines += _help_md(cmd.help or "")
    rows = []
    for p in cmd.get_params(ctx):
        if getattr(p, "hidden", False) or p.name == "help":
            continue
        if p.param_type_name == "argument":
            what = p.make_metavar(ctx) if _takes_ctx(p) else p.human_readable_name
            meaning = getattr(p, "help", None) or ""
        else:
            what = ", ".join(p.opts + list(p.secondary_opts))
            if p.metavar and not getattr(p, "is_flag", False):
                what += f" {p.metavar}"
            meaning = p.help or ""
        default = "" if p.default in (None, False, ()) or isinstance(p.default, list) \
            else str(p.default)
        rows.append(f"| `{_cell(what)}` | {_cell(meaning)} | {_cell(default)} |")
    if rows:
        lines += ["", "| argument or option | meaning | default |", "|---|---|---|", *rows]
    return "\n".join(lines) + "\n"


def _context(cmd, title: str):
    import inspect

    context_class = getattr(cmd, "context_class", None)
    if context_class is None:  # (click's Context, as the command's own module names it)
        context_class = inspect.getmodule(type(cmd)).Context
    return context_class(cmd, info_name=title)


def _takes_ctx(p) -> bool:
    import inspect

    return "ctx" in inspect.signature(p.make_metavar).parameters


def _help_md(text: str) -> list[str]:
    """A command's help as Markdown: paragraphs as they are, an indented paragraph (the
    examples) as a code block."""
    out: list[str] = []
    for para in text.split("\n\n"):
        body = para.split("\n")
        if all(line.startswith("    ") or not line.strip() for line in body):
            lines = [line[4:] for line in body]
            if out[-2:] == ["```", ""]:  # (examples one after another: one block)
                out[-2:] = ["", *lines, "```", ""]
            else:
                out += ["```sh", *lines, "```", ""]
        else:
            out += [para.replace("\n", " "), ""]
    return out


def _cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


# ----------------------------------------------------------------------- the schema


def schema_path() -> Path:
    from phasedsl.system.resources import schema_path as path

    return Path(path())


def schema_reference() -> str:
    """The pack format: each key of a pack, of its rules and of a world, with its type,
    what it means, its default and its allowed values, from the JSON Schema."""
    schema = json.loads(schema_path().read_text(encoding="utf-8"))
    defs = schema.get("$defs", {})
    out = [schema.get("description", ""), ""]
    out += _object_md("A pack", schema, defs, "", 2)
    for name in ("rules", "world"):
        if name in defs:
            out += _object_md(f"`{name}`", defs[name], defs, f"{name}.", 2)
    return "\n".join(out)


def _object_md(title: str, node: dict, defs: dict, prefix: str, level: int) -> list[str]:
    props = node.get("properties") or {}
    if not props:
        return []
    out = [f"{'#' * level} {title}", ""]
    if node.get("description") and prefix:
        out += [node["description"], ""]
    out += ["| key | type | meaning | default |", "|---|---|---|---|"]
    nested = []
    for key, sub in props.items():
        resolved = _resolve(sub, defs)
        out.append(f"| `{prefix}{key}` | {_cell(_type(resolved, defs))} | "
                   f"{_cell(sub.get('description') or resolved.get('description') or '')} | "
                   f"{_cell(json.dumps(resolved['default']) if 'default' in resolved else '')} |")
        if resolved.get("type") == "object" and resolved.get("properties") and not (
                "$ref" in sub and sub["$ref"].rsplit("/", 1)[-1] in ("rules", "world")):
            nested.append((key, resolved))
    out.append("")
    for key, sub in nested:
        out += _object_md(f"`{prefix}{key}`", sub, defs, f"{prefix}{key}.", min(level + 1, 4))
    return out


def _resolve(node: dict, defs: dict) -> dict:
    ref = node.get("$ref")
    if ref and ref.startswith("#/$defs/"):
        return {**defs.get(ref.rsplit("/", 1)[-1], {}), **{k: v for k, v in node.items()
                                                          if k != "$ref"}}
    return node


def _type(node: dict, defs: dict) -> str:
    if "enum" in node:
        return " \\| ".join(json.dumps(v) for v in node["enum"])
    if "const" in node:
        return json.dumps(node["const"])
    for key in ("oneOf", "anyOf"):
        if key in node:
            return " or ".join(_type(_resolve(n, defs), defs) for n in node[key])
    kind = node.get("type")
    if isinstance(kind, list):
        return " or ".join(kind)
    if kind == "array":
        items = _resolve(node.get("items", {}), defs)
        return f"list of {_type(items, defs)}"
    if kind in ("integer", "number"):
        bounds = [f"≥ {node['minimum']}" if "minimum" in node else "",
                  f"≤ {node['maximum']}" if "maximum" in node else ""]
        said = ", ".join(b for b in bounds if b)
        return f"{kind} ({said})" if said else kind
    ref = node.get("$ref")
    if ref:
        return ref.rsplit("/", 1)[-1]
    return kind or "any"
