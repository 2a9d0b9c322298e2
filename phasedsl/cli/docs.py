"""The docs command: the reference pages a program needs beside phasedsl (the bot
protocol, the game log, the conformance vectors, the pack format) and the examples they
name, as installed with it: a wheel holds no checkout to find ``docs/`` in."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from ..errors import PhaseDSLError
from .common import JsonOpt, say

# (name, what it is); each a file of the installed docs folder (``resources.docs_dir``)
PAGES = {
    "bot-protocol.md": "how a bot that is another program talks to phasedsl (cmd:COMMAND)",
    "game-log.md": "the game log: one JSON object a line, as replay checks it",
    "conformance.md": "the conformance vectors: each area's question and answer",
    "pack-format.md": "the pack format, with examples",
    "examples/bot.py": "a bot in Python over the protocol (cmd:python3 FILE)",
    "examples/dicebot.py": "a Phase 10 Dice bot over the protocol",
    "examples/hand.jsonl": "a game log of one hand",
    "examples/twist.jsonl": "a game log of Phase 10 Twist",
}


def _page(name: str) -> str:
    """The page ``name`` names (its ``.md`` may be left out)."""
    for page in (name, f"{name}.md"):
        if page in PAGES:
            return page
    shown = name if len(name) <= 40 else name[:40] + "..."
    raise PhaseDSLError(f"no page {shown!r}: the pages are {', '.join(PAGES)}")


def docs(
    page: Annotated[str | None, typer.Argument(metavar="PAGE", help="A page (its .md may be "
                                               "left out); none: list them.")] = None,
    path: Annotated[bool, typer.Option("--path", help="Print where the page is installed, "
                                       "not its text (no PAGE: the folder).")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Print a reference page installed with phasedsl (the bot protocol, the game log, the
    conformance vectors, the pack format) or an example it names; with no PAGE, list them.

    Examples:

        phasedsl docs

        phasedsl docs bot-protocol

        phasedsl tournament --bot "cmd:python3 $(phasedsl docs examples/bot.py --path)" --bot greedy

    Exit code 0; 2 for a page not installed.
    """
    from ..system.resources import docs_dir

    folder = docs_dir()
    if page is None and path:  # the folder itself, for a script to copy the examples from
        say(json.dumps({"path": str(folder)}) if as_json else str(folder))
        return
    if page is None:
        if as_json:
            say(json.dumps({"pages": [{"page": p, "about": a, "path": str(folder / p)}
                                      for p, a in PAGES.items()]}))
            return
        from ..api import wrap

        width = max(map(len, PAGES))
        for p, about in PAGES.items():  # 80 columns: a long 'about' wraps in its column
            for line in wrap(about, first=f"{p:<{width}}  ", indent=" " * (width + 2)):
                say(line)
        for line in wrap(f"(installed in {folder}; the whole documentation is a site built "
                         "from docs/ of the source)"):
            say(line)
        return
    name = _page(page)
    where = folder / name
    try:
        text = where.read_text(encoding="utf-8")
    except OSError as e:
        raise PhaseDSLError(f"{name} is not installed here ({e.strerror or e}): "
                            "this copy of phasedsl lacks its docs folder") from None
    if as_json:
        say(json.dumps({"page": name, "path": str(where)} | ({} if path else {"text": text})))
    else:
        say(str(where) if path else text.rstrip("\n"))
