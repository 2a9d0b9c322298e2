"""Batch mode: one JSON line out per line in, answered in pieces by worker processes."""

from __future__ import annotations

import collections
import itertools
import json
import os
import sys
from collections.abc import Iterator
from typing import Annotated, NoReturn

import typer

from .. import api
from ..errors import PhaseDSLError
from .common import (
    _fail,
)

# An over-long line is skipped up to this many characters; past them the input is taken to
# have no line breaks at all (such as /dev/zero), and reading stops instead of running on.
MAX_SKIP = 64 * api.MAX_LINE


def _bounded(fh) -> Iterator[str | None]:
    """The lines of ``fh``; None for a line over api.MAX_LINE, whose rest is skipped, not
    held in memory (a file of one endless line, such as /dev/zero, must not fill it)."""
    number = 0
    while line := fh.readline(api.MAX_LINE + 1):
        number += 1
        if len(line) <= api.MAX_LINE or line.endswith("\n"):
            yield line
            continue
        skipped = len(line)
        while (more := fh.readline(1 << 20)) and not more.endswith("\n"):
            skipped += len(more)
            if skipped > MAX_SKIP:
                _fail(PhaseDSLError(f"line {number} runs past {MAX_SKIP:,} characters with no line "
                                    "break: the rest of the input is not read"))
        yield None


def _lines(path: str) -> Iterator[str | None]:
    # Bytes that are not UTF-8 are kept (as lone surrogates) so that the row of their line
    # says so, and the batch goes on.
    if path == "-":
        if hasattr(sys.stdin, "reconfigure"):
            sys.stdin.reconfigure(errors="surrogateescape")
        yield from _bounded(sys.stdin)
        return
    try:
        fh = open(path, encoding="utf-8", errors="surrogateescape")  # noqa: SIM115 (closed below)
    except OSError as e:
        _fail(PhaseDSLError(f"cannot read {path}: {e.strerror}"))
    except ValueError:  # a NUL in the name
        _fail(PhaseDSLError(f"cannot read {path!r}: a file name holds no NUL character"))
    with fh:
        yield from _bounded(fh)


# Lines per piece of work in a batch: big enough that handing a piece to a worker process
# costs little, small enough that the answers stream out steadily.
BATCH_CHUNK = 500
JobsOpt = Annotated[int, typer.Option(
    "--jobs", "-j", min=0, max=64,
    help="With --batch FILE: processes answering lines side by side (0: one per CPU, "
         "at most 8). "
         "The output is the same, in order.")]

# The row function the batch's worker processes run: set before they fork, so that they
# inherit it (a closure over the pack and rules cannot be sent to a process).
_ROW = None


def _answer(piece: tuple[int, list[str | None]]) -> tuple[int, str]:
    """One piece of a batch: (the worst exit code of its rows, their JSON lines)."""
    start, lines = piece
    code = 0
    rows: list[str] = []
    for number, line in enumerate(lines, start):
        if line is not None and not line.strip():
            continue
        # (a line too long to read is None: the row says so, with the same keys as any error)
        result = _ROW(line, number)
        if "error" in result:
            code = 2
        elif "valid" in result and result["valid"] is not True and not code:
            code = 1  # not made or not legal, or undecided (null)
        rows.append(_encode(result))
    return code, "".join(r + "\n" for r in rows)


# rows are plain dicts made here, never circular: the encoder need not look for cycles
_encode = json.JSONEncoder(check_circular=False).encode


def _pieces(lines: Iterator[str | None], size: int) -> Iterator[tuple[int, list[str | None]]]:
    start, piece = 1, []
    for line in lines:
        piece.append(line)
        if len(piece) >= size:
            yield start, piece
            start += len(piece)
            piece = []
    if piece:
        yield start, piece


def _cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on every platform
        return os.cpu_count() or 1


def _run_batch(path: str, row, jobs: int = 1) -> NoReturn:
    """One JSON line out per non-blank line in (``row(line, number)``, numbers 1-based and
    counting blank lines); exit 0 when every row is valid, 1 when some row is not valid
    (not made, not legal, or undecided: "valid" null), 2 when some row is an error.

    Read from a file, the lines are answered in pieces, by ``jobs`` processes side by side
    (0: one per CPU, at most 8) where the platform can fork them; the answers come out in
    order.
    From stdin each answer is written (and flushed) as soon as it is made: a program on
    the other end of a pipe may wait for each one.
    """
    global _ROW
    _ROW = row
    live = path == "-"
    pieces = _pieces(_lines(path), 1 if live else BATCH_CHUNK)
    work: list = []
    pool = None
    jobs = jobs or min(_cpus(), 8)
    if jobs > 1 and not live:
        # worker processes only for more than one piece (they take a moment to start)
        work = list(itertools.islice(pieces, 2))
        import multiprocessing

        if len(work) > 1 and "fork" in multiprocessing.get_all_start_methods():
            from ..dsl import parse_phase

            parse_phase("1 set of 3")  # the workers share the phase parser, built once here
            pool = multiprocessing.get_context("fork").Pool(min(jobs, _cpus() * 4))
    code = 0

    def emit(answer: tuple[int, str]) -> None:
        nonlocal code
        code = max(code, answer[0])
        sys.stdout.write(answer[1])
        if live:
            sys.stdout.flush()

    rest = itertools.chain(work, pieces)
    try:
        if pool is None:
            for piece in rest:
                emit(_answer(piece))
        else:
            # a few pieces ahead, never the whole file (it may be huge), and no pause for
            # the slowest piece of a batch of them: the oldest answer is written first
            pending: collections.deque = collections.deque()
            for piece in rest:
                pending.append(pool.apply_async(_answer, (piece,)))
                if len(pending) >= 4 * jobs:
                    emit(pending.popleft().get())
            while pending:
                emit(pending.popleft().get())
    finally:
        if pool is not None:
            pool.terminate()
    raise typer.Exit(code)


def _parse_row(line: str | None, number: int) -> dict:
    if line is None:  # not echoed: the input is the line that was too long to read
        return {"line": number, "input": None, "error": api.TOO_LONG}
    text = line.rstrip("\r\n")
    try:
        api.utf8_text(text)
    except PhaseDSLError as e:  # not echoed either: it is not text
        return {"line": number, "input": None, "error": str(e)}
    try:
        return {"line": number, "input": text, **api.parse_json(text)}
    except PhaseDSLError as e:
        return {"line": number, "input": text, "error": str(e)}
