"""The runner: another implementation's answers to the cases, through one process.

COMMAND is started once and spoken to in JSON lines: for each case one line
`{"id", "area", "rules", "input"}` on its stdin, one line back on its stdout, the answer in
the shape of `expected` (or `{"unsupported": true}`: the case is counted apart, not as a
failure). A missing, late or malformed answer fails that case and the run goes on; a
program that exits (or stops reading) is reported with the case that caused it and
started again for the next case; one that is late is stopped and started again, so that
its late answer is never read as the next case's.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import selectors
import subprocess
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..errors import PhaseDSLError
from ..system.childproc import end, read_line, spawn
from .ruleset import differing

PRINTED = "(printed rules)"
# A program that dies this many times is not started again: the cases left fail.
MAX_RESTARTS = 25
MAX_ANSWER = 10_000_000  # characters of one answer line, at most
# Seconds more for the first answer after a (re)start: a program's start-up (an
# interpreter, a grammar built on first use) is not the case's fault.
STARTUP_GRACE = 30.0
RESTART_GRACE = 2.0
# Lines the program may write ahead of the questions before its output waits for us: a
# program that writes without reading (``yes``) is held there, not in our memory.
BACKLOG = 8
# How long one blocking wait lasts before Python looks at Ctrl-C and SIGTERM again: a
# signal delivered to another thread never wakes a wait of the main one.
TICK = 0.1


class RunError(PhaseDSLError):
    """The run cannot start (no such program, bad usage)."""


@dataclass
class Outcome:
    case: dict
    area: str
    status: str  # "passed", "failed", "unsupported"
    got: object = None
    why: str = ""


@dataclass
class Tally:
    passed: int = 0
    failed: int = 0
    unsupported: int = 0

    def add(self, status: str) -> None:
        setattr(self, status, getattr(self, status) + 1)

    def to_json(self) -> dict:
        return {"passed": self.passed, "failed": self.failed, "unsupported": self.unsupported}


@dataclass
class Report:
    outcomes: list[Outcome] = field(default_factory=list)
    restarts: int = 0
    level: str = "full"
    # --assume: the rule values declared, and the ids of the cases skipped as assuming others
    assumed: dict[str, object] = field(default_factory=dict)
    skipped: dict[str, list[str]] = field(default_factory=dict)  # rule key -> case ids

    def compared(self, o: Outcome) -> tuple[object, object]:
        """The expected answer and the got one as this level compares them."""
        if self.level == "verdict":
            return verdict(o.area, o.case["expected"]), verdict(o.area, o.got)
        return o.case["expected"], o.got

    def tallies(self, key: Callable[[Outcome], list[str]]) -> dict[str, Tally]:
        out: dict[str, Tally] = {}
        for o in self.outcomes:
            for k in key(o):
                out.setdefault(k, Tally()).add(o.status)
        return out

    def by_area(self) -> dict[str, Tally]:
        return self.tallies(lambda o: [o.area])

    def by_feature(self) -> dict[str, Tally]:
        got = self.tallies(lambda o: o.case["features"] or [PRINTED])
        return dict(sorted(got.items(), key=lambda kv: (kv[0] != PRINTED, kv[0])))

    @property
    def failures(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.status == "failed"]

    @property
    def ok(self) -> bool:
        return not self.failures


class Program:
    """COMMAND, started on demand; ``ask`` sends one line and waits for one back."""

    def __init__(self, command: Sequence[str], timeout: float,
                 startup: float = STARTUP_GRACE) -> None:
        self.command = list(command)
        self.timeout = timeout
        self.startup = startup
        self.proc: subprocess.Popen | None = None
        self.lines: queue.Queue = queue.Queue(BACKLOG)
        self.stderr: deque[str] = deque(maxlen=5)
        self.starts = 0
        self.fresh = False

    def start(self) -> None:
        try:
            self.proc = spawn(self.command, text=True, encoding="utf-8", errors="replace",
                              bufsize=1)
        except OSError as e:
            raise RunError(f"cannot start {self.command[0]!r}: {e.strerror or e}") from None
        self.starts += 1
        self.fresh = True
        # (its input written by ``_send``, never through the pipe's buffer: a program that
        # does not read would hold a buffered write, and its close, forever)
        os.set_blocking(self.proc.stdin.fileno(), False)
        lines: queue.Queue = queue.Queue(BACKLOG)
        self.lines = lines
        self.stderr.clear()
        threading.Thread(target=_pump, args=(self.proc.stdout, lines), daemon=True).start()
        threading.Thread(target=_tail, args=(self.proc.stderr, self.stderr), daemon=True).start()

    def stop(self) -> None:
        p, self.proc = self.proc, None
        if p is None:
            return
        with contextlib.suppress(OSError):
            p.stdin.close()  # (the program's end of input: it may finish by itself)
        with contextlib.suppress(subprocess.TimeoutExpired):
            p.wait(timeout=0.5)
        end(p)  # (and all it started)

    def ask(self, line: str) -> tuple[str | None, str]:
        """The answer line, or None and why (crashed, late)."""
        if self.proc is None:
            self.start()
        assert self.proc is not None and self.proc.stdin is not None
        # (the first start may load an interpreter and an engine; a restart, much less)
        wait = self.timeout + ((self.startup if self.starts == 1 else RESTART_GRACE)
                               if self.fresh else 0.0)
        self.fresh = False
        deadline = time.monotonic() + wait
        try:
            sent = _send(self.proc.stdin.fileno(), (line + "\n").encode("utf-8"), deadline)
        except OSError:
            return None, self._crashed()
        got: str | None = ""
        while sent and (left := deadline - time.monotonic()) > 0:
            try:
                got = self.lines.get(timeout=min(left, TICK))
                break
            except queue.Empty:
                continue
        else:
            end(self.proc)
            self.stop()
            late = "no answer" if sent else "the case not read"
            return None, f"{late} within {self.timeout:g} s (the program was restarted)"
        if got is None:
            return None, self._crashed()
        return got, ""

    def _crashed(self) -> str:
        p = self.proc
        assert p is not None
        with contextlib.suppress(subprocess.TimeoutExpired):
            p.wait(timeout=2)
        code = end(p)  # (and all it started)
        self.proc = None
        tail = " | ".join(self.stderr)
        return (f"the program ended (exit code {code}) on this case" +
                (f"; its stderr ended: {tail[-300:]}" if tail else "") + " (restarted)")


def _send(fd: int, data: bytes, deadline: float) -> bool:
    """Write ``data`` to the program's input (non-blocking) by ``deadline``; False when it
    does not read it in time.  OSError when its input is closed."""
    with selectors.DefaultSelector() as sel:
        sel.register(fd, selectors.EVENT_WRITE)
        while data:
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            if sel.select(min(left, TICK)):
                with contextlib.suppress(BlockingIOError):
                    data = data[os.write(fd, data):]
    return True


def _pump(stream, lines: queue.Queue) -> None:
    try:
        while (line := read_line(stream, MAX_ANSWER)) is not None:
            if not _put(lines, line, stream):
                return
    except (OSError, ValueError):
        pass
    _put(lines, None, stream)


def _put(lines: queue.Queue, item: str | None, stream) -> bool:
    """``item`` queued once there is room; False when the program was stopped first."""
    while not stream.closed:
        try:
            lines.put(item, timeout=TICK)
            return True
        except queue.Full:
            continue
    return False


def _tail(stream, keep: deque) -> None:
    try:
        while (line := read_line(stream, 500)) is not None:
            keep.append(line.rstrip("\n"))
    except (OSError, ValueError):
        pass


# What each level compares: "full", the whole answer; "verdict", only what an engine that
# answers yes or no gives (see ``verdict``).
LEVELS = ("full", "verdict")


def verdict(area: str, answer: object) -> object:
    """The verdict in an answer of ``area``: whether a phrase reads, a hand makes its phase,
    a layout or a game is legal, a card hits somewhere (a list of places or true/false),
    a roll makes its phase; a score and a hold's chance are their own verdicts.  Which
    cards, why, short_by, outs and problems are left out."""
    if not isinstance(answer, dict) or area == "scoring":
        return answer
    if area == "phrases":
        return {"reads": "error" not in answer}
    if area == "hits":
        hits = answer.get("hits", _ABSENT)
        return {"hits": bool(hits) if isinstance(hits, list | bool) else hits}
    if area == "dice":
        # a roll's verdict is made or not; a hold's chance is its own verdict
        return answer if "chance" in answer else {"made": answer.get("made", _ABSENT)}
    key = "made" if area == "hands" else "legal"
    return {key: answer.get(key, _ABSENT)}


def judge(expected: dict, line: str, area: str = "", level: str = "full"
          ) -> tuple[str, object, str]:
    """Whether the answer ``line`` passes: (status, the answer read, why it failed)."""
    try:
        got = json.loads(line)
    except (ValueError, RecursionError):  # (json's own limit: a line nested too deeply)
        return "failed", line.rstrip("\n")[:300], "the answer is not JSON"
    if not isinstance(got, dict):
        return "failed", got, "the answer is not a JSON object"
    if got.get("unsupported") is True:
        return "unsupported", got, ""
    got.pop("id", None)
    if level == "verdict":
        expected, asked = verdict(area, expected), verdict(area, got)
    else:
        asked = got
    if asked == expected:
        return "passed", got, ""
    said = "; ".join(f"{d['field']}: expected {_brief(d['expected'])}, got {_brief(d['got'])}"
                     for d in differences(expected, asked))
    return "failed", got, f"the answer differs at {said}"


_ABSENT = "(absent)"


def differences(expected: object, got: object, at: str = "") -> list[dict]:
    """Each field where ``got`` differs from ``expected``: ``{"field", "expected", "got"}``,
    the field dotted (``groups.1.cards``), a field one side lacks given as ``"(absent)"``.
    Lists of one length are compared item by item, others whole."""
    if isinstance(expected, dict) and isinstance(got, dict):
        out = []
        for k in [*expected, *(k for k in got if k not in expected)]:
            out += differences(expected.get(k, _ABSENT), got.get(k, _ABSENT),
                               f"{at}.{k}" if at else str(k))
        return out
    if (isinstance(expected, list) and isinstance(got, list) and len(expected) == len(got)
            and expected != got):
        out = []
        for i, (e, g) in enumerate(zip(expected, got, strict=True)):
            out += differences(e, g, f"{at}.{i}" if at else str(i))
        return out
    if expected == got and isinstance(expected, bool) == isinstance(got, bool):
        return []
    return [{"field": at or "(the answer)", "expected": expected, "got": got}]


def _brief(value: object) -> str:
    text = value if value == _ABSENT else json.dumps(value)
    return text if len(text) <= 60 else text[:57] + "..."


def run(cases: Sequence[tuple[str, dict]], command: Sequence[str], timeout: float = 10.0,
        progress: Callable[[int], None] | None = None, level: str = "full",
        startup: float = STARTUP_GRACE) -> Report:
    """Ask ``command`` every case (area, case) in turn, comparing at ``level`` (``LEVELS``);
    the program's first answer may take ``startup`` seconds more (its start-up)."""
    if level not in LEVELS:
        raise RunError(f"--level: expected {' or '.join(map(repr, LEVELS))}, got {level!r}")
    report = Report(level=level)
    program = Program(command, timeout, startup)
    program.start()  # (a program that cannot start is bad usage, before any case)
    try:
        for n, (area, case) in enumerate(cases):
            if program.starts > MAX_RESTARTS and program.proc is None:
                report.outcomes.append(Outcome(case, area, "failed", None,
                                               f"not asked: the program ended {MAX_RESTARTS} times"))
                continue
            line = json.dumps({"id": case["id"], "area": area, "rules": case["rules"],
                               "input": case["input"]})
            got, why = program.ask(line)
            if got is None and not report.outcomes and why.startswith("no answer"):
                # no answer to the first case at all: not an adapter (or a broken one), said
                # once, rather than every case waiting out its time
                raise RunError(f"{command[0]!r} gave no answer to the first case: {why}")
            if got is None:
                report.outcomes.append(Outcome(case, area, "failed", None, why))
            else:
                status, value, why = judge(case["expected"], got, area, level)
                report.outcomes.append(Outcome(case, area, status, value, why))
            if progress is not None:
                progress(n + 1)
    finally:
        program.stop()
        report.restarts = max(0, program.starts - 1)
    return report


def set_aside(chosen: list[tuple[str, dict]], assumed: dict[str, object]
              ) -> tuple[list[tuple[str, dict]], dict[str, list[str]]]:
    """The cases whose rules agree with every declared value, and the ids of the others by
    the first declared rule they differ on (skipped, not failed)."""
    kept, skipped = [], {}
    for area, case in chosen:
        other = differing(case["rules"], assumed)
        if other:
            skipped.setdefault(other[0], []).append(case["id"])
        else:
            kept.append((area, case))
    return kept, skipped


def select(cases: dict[str, list[dict]], areas: Sequence[str] | None,
           features: set[str] | None) -> list[tuple[str, dict]]:
    """The cases of ``areas`` (all when None) whose features are all in ``features``
    (any when None)."""
    out = []
    for area, listed in cases.items():
        if areas is not None and area not in areas:
            continue
        for c in listed:
            if features is None or set(c["features"]) <= features:
                out.append((area, c))
    return out


def clip(value: object, width: int = 400) -> str:
    text = value if isinstance(value, str) else json.dumps(value)
    return text if len(text) <= width else text[:width] + f"... ({len(text)} characters)"


def report_json(report: Report, shown: int) -> dict:
    failures = report.failures
    return {
        "ok": report.ok,
        "level": report.level,
        "assumed": report.assumed,
        "skipped": {"total": sum(map(len, report.skipped.values())),
                    "by_rule": {k: len(v) for k, v in report.skipped.items()},
                    "ids": [i for ids in report.skipped.values() for i in ids]},
        "total": Tally(sum(t.passed for t in report.by_area().values()),
                       len(failures),
                       sum(t.unsupported for t in report.by_area().values())).to_json(),
        "areas": {k: t.to_json() for k, t in report.by_area().items()},
        "features": {k: t.to_json() for k, t in report.by_feature().items()},
        "restarts": report.restarts,
        "failed_ids": [o.case["id"] for o in failures],
        # how many of the failures are shown in full, so that a cut list never passes for all
        "shown": min(shown, len(failures)),
        "failures": [{"id": o.case["id"], "area": o.area, "description": o.case["description"],
                      "why": o.why,
                      "differences": (differences(*report.compared(o))
                                      if isinstance(o.got, dict) else []),
                      "input": o.case["input"], "expected": o.case["expected"],
                      "got": o.got} for o in failures[:shown]],
    }


def report_text(report: Report, shown: int) -> str:
    def table(title: str, rows: dict[str, Tally]) -> list[str]:
        width = max([len(title), *map(len, rows)])
        out = [f"{title:<{width}}  {'passed':>7}  {'failed':>7}  {'unsupported':>11}"]
        for k, t in rows.items():
            out.append(f"{k:<{width}}  {t.passed:>7}  {t.failed:>7}  {t.unsupported:>11}")
        return out

    areas = report.by_area()
    total = Tally(sum(t.passed for t in areas.values()), sum(t.failed for t in areas.values()),
                  sum(t.unsupported for t in areas.values()))
    lines = [*table("area", {**areas, "all": total}), "", *table("feature", report.by_feature())]
    if report.level == "verdict":
        lines += ["", "answer level: verdict (only whether a phrase reads, a hand is made, a "
                      "layout or game is legal, a card hits, and the points were compared)"]
    if report.skipped:
        n = sum(map(len, report.skipped.values()))
        lines += ["", f"skipped: {n:,} case{'s' * (n != 1)} whose rules differ from "
                      "--assume (" + ", ".join(
                          f"{k}={json.dumps(report.assumed[k])}: {len(v):,}"
                          for k, v in report.skipped.items()) + ")"]
    if report.restarts:
        lines += ["", f"the program was started again {report.restarts} times"]
    for o in report.failures[:shown]:
        lines += ["", f"FAILED {o.case['id']}: {o.case['description']}", f"  why:      {o.why}",
                  f"  input:    {clip(o.case['input'])}", f"  expected: {clip(o.case['expected'])}",
                  f"  got:      {clip(o.got) if o.got is not None else '(nothing)'}"]
    more = len(report.failures) - shown
    if more > 0:
        lines.append(f"... and {more} more failed (--json lists every failed id)")
    lines += ["", f"{total.passed} passed, {total.failed} failed, {total.unsupported} unsupported"]
    return "\n".join(lines)


