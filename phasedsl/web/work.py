"""Work a request may ask for, bounded: run in a child process with a time limit, killed
when it runs over, when the client goes away or when the server stops, its progress passed on as it comes.

A request's answer must never cost the server minutes (a pack whose balance would take
that long is refused with the reason), and a slow exact count must not stall the other
requests: the work is done by a forked child, which the server waits for in a thread.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from ..errors import PhaseDSLError
from ..system import die_with_parent, portable

# Children working at once (the others wait their turn, up to their own time limit): one a
# CPU, so that a page sending many requests cannot fork the machine to a halt.
_RUNNING = threading.BoundedSemaphore(max(1, len(os.sched_getaffinity(0))
                                          if hasattr(os, "sched_getaffinity")
                                          else os.cpu_count() or 1))


# Set when the server stops: work waiting its turn or waiting for its child gives up at
# once (its child killed), so that the threads the interpreter joins at exit end within a
# poll, not at a report's 180 s limit.
_STOPPING = threading.Event()


def stop_work() -> None:
    """Refuse all work from now on, and end the work under way (the server is stopping)."""
    _STOPPING.set()


def stopping() -> bool:
    """Whether the server is stopping (``stop_work`` was called)."""
    return _STOPPING.is_set()


# The request a thread answers, when its asker may go away: ``asked_by`` sets it, and work
# this thread waits for gives up once it is set (its child killed), so that a page closed
# does not leave minutes of work holding one of the turns to run.
_ASKER = threading.local()


@contextlib.contextmanager
def asked_by(gone: threading.Event) -> Iterator[None]:
    """Work this thread asks for (``bounded``) within the block ends once ``gone`` is set."""
    _ASKER.gone = gone
    try:
        yield
    finally:
        _ASKER.gone = None


def _given_up() -> bool:
    gone = getattr(_ASKER, "gone", None)
    return _STOPPING.is_set() or (gone is not None and gone.is_set())


def _why() -> str:
    return "the server is stopping" if _STOPPING.is_set() else "the request went away"


class Refused(PhaseDSLError):
    """Work past its bounds (time, size): said with the reason, as bad input is."""


def _child(conn, func: Callable, args: tuple, kwargs: dict, with_progress: bool,
           server: int) -> None:
    # killed with the server, even a server killed outright (SIGKILL, out of memory): else
    # it worked on for minutes holding the listening socket, and a server started again
    # found its port in use
    die_with_parent(server)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # (the server alone decides to stop)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    try:
        if with_progress:
            kwargs = dict(kwargs, progress=lambda done, total: conn.send(
                ("progress", (done, total))))
        conn.send(("ok", func(*args, **kwargs)))
    except PhaseDSLError as e:
        conn.send(("error", portable(e)))  # (one holding a value no pickle takes: its words)
    except Exception as e:  # a bug: said as one, never a traceback to the client
        conn.send(("crash", f"{type(e).__name__}: {e}"))
    finally:
        conn.close()


def bounded(func: Callable, *args: Any, seconds: float, what: str,
            progress: Callable[[int, int], None] | None = None, **kwargs: Any) -> Any:
    """``func(*args, **kwargs)`` in a child process; its value, or ``Refused`` past
    ``seconds``.  With ``progress``, ``func`` is given a ``progress(done, total)`` of its
    own whose calls reach ``progress`` here.  A ``PhaseDSLError`` of the work is raised
    here as it was raised there."""
    deadline = time.monotonic() + seconds
    while not _RUNNING.acquire(timeout=min(0.2, max(0.0, deadline - time.monotonic()))):
        if _given_up():
            raise Refused(f"{what}: {_why()}")
        if time.monotonic() >= deadline:
            raise Refused(f"{what}: the server is busy with other work; try again")
    try:
        return _run(func, args, kwargs, deadline, seconds, what, progress)
    finally:
        _RUNNING.release()


def _run(func: Callable, args: tuple, kwargs: dict, deadline: float, seconds: float, what: str,
         progress: Callable[[int, int], None] | None) -> Any:
    ctx = multiprocessing.get_context("fork")
    receive, send = ctx.Pipe(duplex=False)
    child = ctx.Process(target=_child, args=(send, func, args, kwargs, progress is not None,
                                             os.getpid()), daemon=True)
    child.start()
    send.close()
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise Refused(f"{what} would take longer than {seconds:g} s here; the command "
                              "line has no such bound (phasedsl --help)")
            if _given_up():
                raise Refused(f"{what}: {_why()}")
            if not receive.poll(min(left, 0.2)):
                if not child.is_alive() and not receive.poll(0):
                    raise Refused(f"{what} stopped before it answered")
                continue
            try:
                kind, value = receive.recv()
            except EOFError:
                raise Refused(f"{what} stopped before it answered") from None
            if kind == "progress":
                if progress is not None:
                    progress(*value)
                continue
            if kind == "ok":
                return value
            if kind == "error":
                raise value
            raise Refused(f"{what} failed: {value}")
    finally:
        if child.is_alive():
            child.kill()
        child.join(1)
        receive.close()
