"""``--help``, written here: the usage line, the help's paragraphs wrapped at the
terminal's width, and boxed panels of the arguments, the options and the commands.

Typer would hand help to Rich, whose import (its Markdown parser among it) took longer
than the rest of ``phasedsl --help`` together; the layout is Typer's, drawn with plain
strings, styled only where ``style.colour_wanted`` says (never with ``NO_COLOR``).
"""

from __future__ import annotations

import shutil
import sys
import textwrap

from . import style

# (SGR codes: bold, dim, cyan bold, yellow, red bold)
_BOLD, _DIM, _NAME, _TYPE, _STAR = "1", "2", "1;36", "33", "1;31"
# The style of each name column of a parameter's row (``_param_row``): required, long
# names, short names, negations, negated short names, the value's type.
_PARAM_CODES = [_STAR, _NAME, _NAME, _NAME, _NAME, _TYPE]
# The narrowest a panel's help column is made (wider panels, not a column of one word).
_MIN_HELP = 20


def write(command, ctx, formatter) -> None:
    """Write the help of a click ``command`` (a group too: its commands are listed) into
    click's ``formatter`` (click then writes it where it belongs: stdout for ``--help``,
    stderr for a command given nothing)."""
    width = max(40, shutil.get_terminal_size((80, 24)).columns)
    coloured = style.colour_wanted(sys.stdout)
    if coloured:
        ctx.color = True  # (click would strip the codes on their way to a pipe: FORCE_COLOR)
    paint = _painter(coloured)
    box = _box()
    lines = ["", " " + paint(command.get_usage(ctx), _BOLD), ""]
    if command.help:
        lines += [*_prose(command.help, width, paint), ""]
    params = [p for p in command.get_params(ctx) if not getattr(p, "hidden", False)]
    arguments = [p for p in params if p.param_type_name == "argument"]
    options = [p for p in params if p.param_type_name == "option"]
    for title, group in (("Arguments", arguments), ("Options", options)):
        lines += _panel(title, [_param_row(p, ctx) for p in group], _PARAM_CODES, width,
                        paint, box)
    if hasattr(command, "list_commands"):
        listed = [command.get_command(ctx, n) for n in command.list_commands(ctx)]
        rows = [([c.name or ""], _summary(c)) for c in listed if c and not c.hidden]
        lines += _panel("Commands", rows, [_NAME], width, paint, box)
    formatter.write("\n".join(line.rstrip() for line in lines) + "\n")


def _box() -> str:
    """The box's corners and sides: ``╭─╮│╰╯``, or ``+-+|++`` where the output's encoding
    has no such characters (a C locale, Windows' cp1252 into a file)."""
    drawn = "╭─╮│╰╯"
    try:
        drawn.encode(getattr(sys.stdout, "encoding", None) or "ascii")
    except (LookupError, UnicodeEncodeError):
        return "+-+|++"
    return drawn


def _painter(on: bool):
    if not on:
        return lambda text, code: text
    return lambda text, code: f"\x1b[{code}m{text}\x1b[0m" if text and code else text


def _prose(text: str, width: int, paint) -> list[str]:
    """The help's paragraphs, one space in from the edge: the first in bold, the rest dim;
    a paragraph of indented lines (an example) as written."""
    out: list[str] = []
    for k, paragraph in enumerate(text.split("\n\n")):
        if k:
            out.append("")
        lines = paragraph.split("\n")
        if any(line[:1].isspace() for line in lines):
            out += [" " + paint(line, _DIM) for line in lines]
            continue
        wrapped = textwrap.wrap(" ".join(lines), width - 2, break_on_hyphens=False)
        out += [" " + paint(line, _BOLD if k == 0 else _DIM) for line in wrapped]
    return out


def _summary(command) -> str:
    return " ".join((command.short_help or command.help or "").split("\n\n")[0].split())


def _param_row(p, ctx) -> tuple[list[str], str]:
    """(the name columns, the help) of a parameter, as Typer's panels show it."""
    if p.param_type_name == "argument":
        names = ["", p.metavar or p.name.upper(), "", ""]  # (as usage shows it, less "[]")
        kind = ""
    else:
        long = [o for o in p.opts if o.startswith("--")]
        short = [o for o in p.opts if not o.startswith("--")]
        names = [",".join(long), ",".join(short),
                 ",".join(o for o in p.secondary_opts if o.startswith("--")),
                 ",".join(o for o in p.secondary_opts if not o.startswith("--"))]
        kind = "" if p.is_flag else p.make_metavar(ctx=ctx)
        bounds = _bounds(p.type)
        if bounds:
            kind += f" [{bounds}]"
    words = [" ".join(part.split()) for part in (p.help or "").split("\n\n")]
    shown = _default(p)
    if shown is not None:
        words.append(f"[default: {shown}]")
    if p.required:
        words.append("[required]")
    return (["*" if p.required else "", *names, kind], "\n".join(w for w in words if w))


def _bounds(kind) -> str:
    """An integer or float range as Click describes it: ``0<=x<=64``."""
    low, high = getattr(kind, "min", None), getattr(kind, "max", None)
    if low is None and high is None:
        return ""
    lt_low = "<" if getattr(kind, "min_open", False) else "<="
    lt_high = "<" if getattr(kind, "max_open", False) else "<="
    if low is None:
        return f"x{lt_high}{high}"
    if high is None:
        return f"x{'>' if lt_low == '<' else '>='}{low}"
    return f"{low}{lt_low}x{lt_high}{high}"


def _default(p) -> str | None:
    """The default as help states it (None: not stated): a flag's off, an unset value and
    an empty list go unsaid."""
    if isinstance(p.show_default, str):
        return p.show_default
    if p.show_default is False or getattr(p, "is_flag", False):
        return None
    value = p.default
    if value is None or value == () or value == [] or callable(value):
        return None
    if isinstance(value, (list, tuple)):
        return ", ".join(map(str, value))
    return str(getattr(value, "value", value))


def _panel(title: str, rows: list[tuple[list[str], str]], codes: list[str], width: int,
           paint, box: str) -> list[str]:
    """A box titled ``title``: each row's name columns (an empty column left out), then
    its help wrapped in what is left of the width (under the names, where too little is
    left)."""
    if not rows:
        return []
    columns = len(rows[0][0])
    sizes = [max(len(names[i]) for names, _ in rows) for i in range(columns)]
    used = [i for i in range(columns) if sizes[i]]
    lead = sum(sizes[i] + 2 for i in used)
    inner = width - 4
    # too narrow for the names beside their help: each help under its names, indented
    stacked = inner - lead < _MIN_HELP
    indent = 4 if stacked else lead
    body: list[str] = []

    def row(text: str, shown: str) -> None:
        # (``shown`` may carry colour codes; ``text`` is what it shows)
        body.append(paint(box[3], _DIM) + " " + shown + " " * max(0, inner - len(text)) + " "
                    + paint(box[3], _DIM))

    for names, text in rows:
        helps = _help_lines(text, inner - indent) or [""]
        if stacked:  # (the names one space apart, folded where they are still too wide)
            named = [(names[i], codes[i]) for i in used if names[i]]
            joined = " ".join(n for n, _ in named)
            if len(joined) <= inner:
                row(joined, " ".join(paint(n, c) for n, c in named))
            else:
                for line in textwrap.wrap(joined, inner, subsequent_indent="  "):
                    row(line, line)
            helps = [h for h in helps if h]
        else:
            cells = [names[i].ljust(sizes[i]) + "  " for i in used]
            shown = "".join(paint(c.rstrip(), codes[i]) + c[len(c.rstrip()):]
                            for c, i in zip(cells, used, strict=True))
            row("".join(cells) + helps[0], shown + helps[0])
            helps = helps[1:]
        for line in helps:
            row(" " * indent + line, " " * indent + line)
    top = f"{box[0]}{box[1]} {title} " + box[1] * max(0, width - len(title) - 5) + box[2]
    bottom = box[4] + box[1] * (width - 2) + box[5]
    return [paint(top, _DIM), *body, paint(bottom, _DIM)]


def _help_lines(text: str, room: int) -> list[str]:
    """The help's lines at ``room`` columns; a bracketed note (``[default: 4]``) goes at
    the end of the last line where it fits, else on a line of its own."""
    out: list[str] = []
    for part in text.split("\n") if text else []:
        if part.startswith("[") and out and len(out[-1]) + 1 + len(part) <= room:
            out[-1] += " " + part
            continue
        out += textwrap.wrap(part, room, break_on_hyphens=False) or [""]
    return out
