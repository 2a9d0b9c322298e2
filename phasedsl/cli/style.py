"""Colour on the terminal: whether our own styling reaches a stream, and writing it there.

Only words the program chose are styled (``error:``, a verdict line); what the user gave
is escaped before it is joined to them (``errors.printable``), so a styled line never
passes through that escaping and the escape codes reach the terminal as colour.
"""

from __future__ import annotations

import os
from typing import TextIO

import typer


def colour_wanted(stream: TextIO) -> bool:
    """Whether to style what is written to ``stream``: never with ``NO_COLOR`` set to any
    value but the empty one (https://no-color.org), always with ``FORCE_COLOR`` set (but to 0 or false),
    else on a terminal that is not ``TERM=dumb``; a pipe or a file gets plain text."""
    env = os.environ
    if env.get("NO_COLOR"):
        return False
    force = env.get("FORCE_COLOR")
    if force is not None and force.strip().lower() not in ("", "0", "false", "no"):
        return True
    if env.get("TERM") == "dumb":
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a closed or replaced stream
        return False


def echo(text: str, styled: bool, err: bool = False) -> None:
    """Write a line; one ``styled`` keeps its styling (Click would strip it from a pipe,
    which FORCE_COLOR asks to colour)."""
    typer.echo(text, err=err, color=True if styled else None)
