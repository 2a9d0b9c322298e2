"""Programs phasedsl starts (``cmd:`` bots, ``conformance run -- PROGRAM``), bounded.

``spawn`` starts one in a session of its own, so that everything it starts is one process
group, and (on Linux) asks the kernel to kill it should phasedsl's process die first (a
worker killed by its pool): nothing is left behind even when no cleanup runs.  ``end``
kills that whole group (a program that ignores SIGTERM, or forked children, included)
and reaps it.  ``read_line`` reads one line of at most ``limit`` characters, so that a
program flooding its output never fills phasedsl's memory.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from collections.abc import Sequence
from functools import partial
from typing import IO

_LIBC = None
if sys.platform.startswith("linux"):
    with contextlib.suppress(Exception):
        import ctypes

        _LIBC = ctypes.CDLL(None, use_errno=True)


def die_with_parent(parent: int) -> None:  # pragma: no cover - in the child
    """Called in a child process (before exec, or forked to work): the kernel kills it
    should ``parent`` die first, even killed outright (Linux's PR_SET_PDEATHSIG; elsewhere
    nothing is set)."""
    with contextlib.suppress(Exception):
        _LIBC.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    if os.getppid() != parent:  # it died before that was set
        os._exit(1)


# The process groups this process started and has not ended yet: the kernel's
# PR_SET_PDEATHSIG kills only the program itself, not what it started, so a worker being
# stopped ends these groups itself (``end_all``) before it dies.
_GROUPS: set[int] = set()


def spawn(argv: Sequence[str], **popen) -> subprocess.Popen:
    """Start ``argv`` with piped stdin, stdout and stderr, in a process group of its own
    (``popen``: more ``subprocess.Popen`` arguments); OSError where it cannot start."""
    proc = subprocess.Popen(
        list(argv), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        start_new_session=True,
        preexec_fn=partial(die_with_parent, os.getpid()) if _LIBC is not None else None,
        **popen)
    _GROUPS.add(proc.pid)
    return proc


def end_all() -> None:
    """Kill every process group ``spawn`` started here and ``end`` has not ended (safe in
    a signal handler: it only sends signals)."""
    for group in list(_GROUPS):
        with contextlib.suppress(OSError):
            os.killpg(group, signal.SIGKILL)


def end(proc: subprocess.Popen) -> int:
    """Kill the program and all it started (its process group), reap it, close its pipes;
    its exit code."""
    with contextlib.suppress(OSError):
        os.killpg(proc.pid, signal.SIGKILL)
    with contextlib.suppress(OSError):
        proc.kill()
    code = proc.wait()
    _GROUPS.discard(proc.pid)
    for f in (proc.stdin, proc.stdout, proc.stderr):
        with contextlib.suppress(OSError, ValueError):
            if f is not None:
                f.close()
    return code


def read_line(stream: IO[str], limit: int) -> str | None:
    """The next line of ``stream`` (None at its end), cut to ``limit`` characters: the rest
    of a longer line is read and dropped in pieces, never held whole."""
    line = stream.readline(limit + 1)
    if not line:
        return None
    if len(line) > limit and not line.endswith("\n"):
        while True:
            more = stream.readline(limit)
            if not more or more.endswith("\n"):
                break
        return line[:limit] + "\n"
    return line
