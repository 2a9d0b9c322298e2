"""``phasedsl replay``: referee a whole game from its log (exit 0 legal, 1 illegal, 2 unreadable)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from ..errors import PhaseDSLError

# Characters read at most: refused beyond, before any work (hostile input).
MAX_LOG = 200_000_000


def replay(
    log: Annotated[str, typer.Argument(help="The game log (JSON lines), or - for stdin.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object instead of "
                                                         "text (errors too).")] = False,
) -> None:
    """Check every event of a game log against the pack's rules and show the standings.

    Examples:

        phasedsl replay game.jsonl

        phasedsl replay - --json < game.jsonl

    Exit 0 when every event is legal (the game may be unfinished), 1 at the first
    illegal event (its line, the event and the reason), 2 when the log cannot be read.
    """
    from ..gamelog import MAX_EVENTS, report_text
    from ..gamelog import replay as run

    try:
        if log == "-":
            text = sys.stdin.read(MAX_LOG + 1)
            base = Path.cwd()
        else:
            path = Path(log)
            with open(path, encoding="utf-8-sig") as fh:  # a BOM from Windows editors is fine
                text = fh.read(MAX_LOG + 1)
            base = path.parent
    except (OSError, UnicodeDecodeError) as e:
        _fail(PhaseDSLError(f"cannot read {log}: {getattr(e, 'strerror', None) or e}"), as_json)
    except ValueError:  # a NUL in the name
        _fail(PhaseDSLError(f"cannot read {log!r}: a file name holds no NUL character"), as_json)
    if len(text) > MAX_LOG:
        _fail(PhaseDSLError(f"{log} holds more than {MAX_LOG:,} characters; a game log (about "
                            "20 kB a hand) is far smaller"), as_json)
    lines = text.splitlines()
    if len(lines) > MAX_EVENTS:  # said at once, before any line is read
        _fail(PhaseDSLError(f"{log} has {len(lines):,} lines; a log holds at most "
                            f"{MAX_EVENTS:,}"), as_json)
    try:
        result = run(lines, base)
    except PhaseDSLError as e:
        _fail(e, as_json)
    if as_json:
        typer.echo(json.dumps(result.to_json()))
    else:
        raw = lines[result.error["line"] - 1].strip() if result.error else None
        typer.echo(report_text(result, raw))
    raise typer.Exit(0 if result.legal else 1)


def _fail(error: Exception, as_json: bool):
    from .common import _fail as fail

    fail(error, as_json)
