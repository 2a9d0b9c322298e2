"""Batch mode: one JSON line out per line in, answered in pieces by worker processes."""

from __future__ import annotations

import codecs
import itertools
import json
import os
import select
import sys
from collections.abc import Iterator
from typing import NoReturn

import typer

from .. import api
from ..errors import PhaseDSLError
from ..system.workers import BARRIER, Pool, can_fork, cpus, resolve_jobs
from . import common
from .common import (
    fail,
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
                fail(PhaseDSLError(f"line {number} runs past {MAX_SKIP:,} characters with no line "
                                    "break: the rest of the input is not read"))
        yield None


class _Stdin:
    """Standard input read by this program itself, so that it knows whether the next line
    is already there (Python's own buffer does not say): answers are flushed only before
    a read that would wait, so a program talking line by line gets each answer at once
    and a pipe is answered as fast as a file."""

    CHUNK = 1 << 16

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.text = ""
        self.pos = 0
        self.eof = False
        self.decoder = codecs.getincrementaldecoder("utf-8")("surrogateescape")

    def ready(self) -> bool:
        """Whether the next readline returns without waiting for input."""
        if self.eof or self.text.find("\n", self.pos) >= 0:
            return True
        try:
            return bool(select.select([self.fd], [], [], 0)[0])
        except (OSError, ValueError):  # no select on this kind of input here
            return False

    def readline(self, limit: int) -> str:
        """The next line (with its newline), or its first ``limit`` characters; "" at the
        end of the input."""
        while True:
            end = self.text.find("\n", self.pos, self.pos + limit)
            if end >= 0:
                return self._take(end + 1)
            if len(self.text) - self.pos >= limit or self.eof:
                return self._take(min(len(self.text), self.pos + limit))
            chunk = os.read(self.fd, self.CHUNK)
            if self.pos > self.CHUNK:  # forget what was read, now and then
                self.text, self.pos = self.text[self.pos:], 0
            self.text += self.decoder.decode(chunk, final=not chunk)
            self.eof = not chunk

    def _take(self, end: int) -> str:
        line = self.text[self.pos:end]
        self.pos = end
        return line


class _Unready:
    """A stdin with no file descriptor (a test's, an embedding program's): every answer is
    flushed, as nothing says whether more input is there."""

    def __init__(self, fh) -> None:
        self.readline = fh.readline

    def ready(self) -> bool:
        return False


def _stdin():
    try:
        return _Stdin(sys.stdin.fileno())
    except (AttributeError, OSError, ValueError):  # io.UnsupportedOperation is an OSError
        if hasattr(sys.stdin, "reconfigure"):
            sys.stdin.reconfigure(errors="surrogateescape")
        return _Unready(sys.stdin)


def _lines(path: str, stdin=None) -> Iterator[str | None]:
    # Bytes that are not UTF-8 are kept (as lone surrogates) so that the row of their line
    # says so, and the batch goes on.
    if path == "-":
        yield from _bounded(stdin)
        return
    try:
        fh = open(path, encoding="utf-8", errors="surrogateescape")  # noqa: SIM115 (closed below)
    except OSError as e:
        fail(PhaseDSLError(f"cannot read {path}: {e.strerror}"))
    except ValueError:  # a NUL in the name
        fail(PhaseDSLError(f"cannot read {path!r}: a file name holds no NUL character"))
    with fh:
        yield from _bounded(fh)


# Lines per piece of work in a batch: big enough that handing a piece to a worker process
# costs little, small enough that the answers stream out steadily.
BATCH_CHUNK = 500
JobsOpt = common.JobsOpt  # (melds.py takes it from here)

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


def _pieces(lines: Iterator[str | None], size: int, ready=None) -> Iterator:
    """Pieces ``(first line number, lines)`` of at most ``size`` lines; with ``ready`` (the
    input's), a piece also ends where the next line is not there yet, followed by
    ``BARRIER``: everything answered so far is to be written before the input is waited for."""
    start, piece = 1, []
    for line in lines:
        piece.append(line)
        waits = ready is not None and not ready()
        if len(piece) >= size or waits:
            yield start, piece
            start += len(piece)
            piece = []
        if waits:
            yield BARRIER
    if piece:
        yield start, piece


def run_batch(path: str, row, jobs: int = 1) -> NoReturn:
    """One JSON line out per non-blank line in (``row(line, number)``, numbers 1-based and
    counting blank lines); exit 0 when every row is valid, 1 when some row is not valid
    (not made, not legal, or undecided: "valid" null), 2 when some row is an error.

    The lines are answered in pieces, by ``jobs`` processes side by side (0: one per CPU,
    at most 8) where the platform can fork them; the answers come out in order. From
    stdin, what is answered is flushed before each read that would wait for input: a
    program on the other end of a pipe may wait for each answer.
    """
    global _ROW
    _ROW = row
    stdin = _stdin() if path == "-" else None
    pieces = _pieces(_lines(path, stdin), BATCH_CHUNK, stdin.ready if stdin else None)
    jobs = resolve_jobs(jobs)
    # worker processes only when a second piece is there at once (they take a moment to
    # start, and a program talking line by line waits for each answer)
    work = list(itertools.islice(pieces, 2)) if jobs > 1 and can_fork() else []
    code = 0
    out = sys.stdout

    def write_answer(answer) -> None:
        nonlocal code
        if answer is BARRIER:
            out.flush()
            return
        code = max(code, answer[0])
        out.write(answer[1])

    rest = itertools.chain(work, pieces)
    if len(work) > 1 and BARRIER not in work:
        from ..model import dsl

        dsl.read("1 set of 3")  # the workers share the phase parser, built once here
        with Pool(_answer, min(jobs, cpus() * 4)) as pool:
            for answer in pool.map(rest):
                write_answer(answer)
    else:
        for piece in rest:
            write_answer(piece if piece is BARRIER else _answer(piece))
    raise typer.Exit(code)


def parse_row(line: str | None, number: int, rules=api.DEFAULT_RULES) -> dict:
    """One line of ``parse --batch`` (``rules``: a pack's, whose deck reads its own colors)."""
    if line is None:  # not echoed: the input is the line that was too long to read
        return {"line": number, "input": None, "error": api.TOO_LONG}
    text = line.rstrip("\r\n")
    try:
        api.utf8_text(text)
    except PhaseDSLError as e:  # not echoed either: it is not text
        return {"line": number, "input": None, "error": str(e)}
    try:
        return {"line": number, "input": text, **api.parse_json(text, rules)}
    except PhaseDSLError as e:
        return {"line": number, "input": text, "error": str(e)}
