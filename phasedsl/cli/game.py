"""``phasedsl replay``: referee a whole game from its log (exit 0 legal, 1 illegal, 2 unreadable)."""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path
from typing import Annotated

import typer

from ..errors import PhaseDSLError, not_utf8
from .common import fail
from .naming import complete_pack

# Characters read at most: refused beyond, before any work (hostile input).
MAX_LOG = 200_000_000


def replay(
    log: Annotated[str, typer.Argument(help="The game log (JSON lines), or - for stdin.")],
    variant: Annotated[str | None, typer.Option(
        "--variant", "--pack", "-v", metavar="PACK", autocompletion=complete_pack,
        help="Play under this pack (a built-in name or a file) instead of the one the log "
             "names: for a log moved away from its pack.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object instead of "
                                                         "text (errors too).")] = False,
) -> None:
    """Check every event of a game log against the pack's rules and show the standings.

    Examples:

        phasedsl replay game.jsonl

        phasedsl replay - --json < game.jsonl

        phasedsl replay moved.jsonl --variant my-pack.yaml

    Exit 0 when every event is legal (the game may be unfinished), 1 at the first
    illegal event (its line, the event and the reason), 2 when the log cannot be read.
    """
    from ..game.log import MAX_EVENTS, report_text
    from ..game.log import replay as run
    from ..packs.pack import load_pack

    try:
        if log == "":  # (as a Path, the current folder)
            raise PhaseDSLError("give a game log: an empty name names no file (- for stdin)")
        if log == "-":
            stdin = getattr(sys.stdin, "buffer", None)
            text = (_decoded(stdin.read(MAX_LOG + 1), log) if stdin is not None
                    else sys.stdin.read(MAX_LOG + 1))
            base = Path.cwd()
        else:
            path = Path(log)
            text = _read_regular(path)
            base = path.parent
    except PhaseDSLError as e:
        fail(e, as_json)
    except OSError as e:
        fail(PhaseDSLError(f"cannot read {log}: {getattr(e, 'strerror', None) or e}"
                           f"{_installed_example(log, e)}"), as_json)
    except ValueError:  # a NUL in the name
        fail(PhaseDSLError(f"cannot read {log!r}: a file name holds no NUL character"), as_json)
    if len(text) > MAX_LOG:
        fail(PhaseDSLError(f"{log} holds more than {MAX_LOG:,} characters; a game log (about "
                            "20 kB a hand) is far smaller"), as_json)
    # said at once, before any line is read, and counted before the lines are made: a
    # 60 MB log of 20 million short lines was 1.5 GB of strings (5 s) before it was refused
    count = line_count(text)
    if count > MAX_EVENTS:
        fail(PhaseDSLError(f"{log} has {count:,} lines; a log holds at most "
                            f"{MAX_EVENTS:,}"), as_json)
    lines = text.splitlines()
    try:
        # the user named this pack, so it is read as --variant is everywhere
        pack = load_pack(variant) if variant is not None else None
        result = run(lines, base, pack)
    except PhaseDSLError as e:
        fail(e, as_json)
    if as_json:
        typer.echo(json.dumps(result.to_json()))
    else:
        raw = lines[result.error["line"] - 1].strip() if result.error else None
        typer.echo(report_text(result, raw))
    raise typer.Exit(0 if result.legal else 1)


# What str.splitlines splits at ("\r\n" is one break).
LINE_BREAKS = "\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"


def line_count(text: str) -> int:
    """``len(text.splitlines())``, without making the lines."""
    if not text:
        return 0
    breaks = sum(text.count(c) for c in LINE_BREAKS) - text.count("\r\n")
    return breaks + (0 if text[-1] in LINE_BREAKS else 1)


def _installed_example(log: str, error: OSError) -> str:
    """A hint for a missing docs/examples/ log: the guides name it as in the checkout, and
    a user who installed the wheel has none, but the example is installed (phasedsl docs)."""
    from .docs import PAGES

    if not isinstance(error, FileNotFoundError):
        return ""
    parts = Path(log).parts
    page = "/".join(parts[-2:])
    if len(parts) < 2 or parts[-2] != "examples" or page not in PAGES:
        return ""
    return f" (installed with phasedsl: phasedsl replay \"$(phasedsl docs {page} --path)\")"


def _read_regular(path: Path) -> str:
    """A log file's text: a FIFO, a device or a folder is refused before it is opened (a
    FIFO would wait for a writer; ``-`` reads stdin), and the open never waits."""
    if not stat.S_ISREG(os.stat(path).st_mode):
        raise PhaseDSLError(f"cannot read {path}: not a regular file (give - for stdin)")
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    with open(fd, "rb") as fh:
        if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
            raise PhaseDSLError(f"cannot read {path}: not a regular file (give - for stdin)")
        return _decoded(fh.read(MAX_LOG + 1), str(path))


def _decoded(data: bytes, log: str) -> str:
    """A log's bytes as text (a BOM from Windows editors is fine: dropped); where it is not
    UTF-8, the line and column said."""
    if len(data) > MAX_LOG:  # (said by the caller; cut here, a character may be cut in two)
        return data[:MAX_LOG + 1].decode("utf-8", "replace")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line, column, message = not_utf8(data, e)
        raise PhaseDSLError(f"cannot read {log}: line {line}, column {column}: {message}"
                            ) from None


