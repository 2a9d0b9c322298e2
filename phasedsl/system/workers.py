"""Worker processes that stop when told: the one pool every ``--jobs`` command uses.

``multiprocessing.Pool`` shares one lock among its workers for reading tasks; a worker
that Ctrl-C (or SIGTERM to the process group) ends while it holds that lock leaves the
others, and ``Pool.terminate`` in the parent, waiting on it forever.  Here each worker
has a pipe of its own (nothing shared, so nothing to be left locked), ignores SIGINT
(the parent alone decides to stop), and is killed outright when the parent stops for any
reason, so no worker outlives the command nor prints a traceback.
"""

from __future__ import annotations

import contextlib
import gc
import multiprocessing
import os
import pickle
import queue
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from multiprocessing.connection import wait
from typing import Any

from ..errors import PhaseDSLError
from .childproc import end_all
from .interrupts import hold, let_in, release

# Items handed to one worker before its first answer comes back: enough that a worker
# never waits for the parent, few enough that little is held in memory.
AHEAD = 2
MAX_DEFAULT_JOBS = 8
# How long a stopped worker has to end its programs before it is killed outright.
STOP_GRACE = 0.5

# A marker the items may hold: every answer before it is given out first (the caller is
# about to wait for input, and must have written what it has).
BARRIER = object()

class WorkerError(PhaseDSLError):
    """A worker process ended without answering (killed from outside)."""


def cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on every platform
        return os.cpu_count() or 1


def resolve_jobs(jobs: int) -> int:
    """``--jobs``: 0 is one process per CPU, at most 8."""
    return jobs if jobs > 0 else min(cpus(), MAX_DEFAULT_JOBS)


def can_fork() -> bool:
    return "fork" in multiprocessing.get_all_start_methods()


def _serve(conn, func: Callable, initializer: Callable | None, initargs: tuple) -> None:
    # Signals were blocked across the fork (a Ctrl-C then would have raised in this
    # process before it could ignore it): set them as a worker wants, then let them in.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _stop)
    let_in()
    # Tasks are read as they come, beside the work: a parent sending the next task never
    # waits on a worker that is itself waiting to send an answer (both pipes full).
    tasks: queue.SimpleQueue = queue.SimpleQueue()

    def receive() -> None:
        try:
            while (task := conn.recv()) is not None:
                tasks.put(task)
        except (EOFError, OSError):
            pass
        tasks.put(None)

    threading.Thread(target=receive, daemon=True).start()
    try:
        if initializer is not None:
            initializer(*initargs)
        # What the worker holds now (the modules, the pack, what it was forked with) lives
        # as long as it does: frozen, the cycle collector no longer walks it at every full
        # collection (nor writes to the pages a forked worker shares with its parent).
        gc.freeze()
        while (task := tasks.get()) is not None:
            index, item = task
            try:
                answer = (index, True, func(item))
            except Exception as e:  # handed to the parent, which raises it there
                answer = (index, False, portable(e))
            conn.send(answer)
    except (EOFError, OSError, KeyboardInterrupt):
        pass  # the parent is gone or stopping: nothing to say
    finally:
        # straight out: the reader thread may still be blocked in recv
        os._exit(0)


def _stop(signum, frame) -> None:
    # The programs this worker started (cmd: bots) die with it by PR_SET_PDEATHSIG, but
    # what they started in turn would not: their process groups are killed first.
    end_all()
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    os.kill(os.getpid(), signal.SIGTERM)


def portable(e: Exception) -> Exception:
    """``e`` if it survives the pipe (an exception whose constructor takes other
    arguments than its message does not), else one of its kind that says the same."""
    try:
        pickle.loads(pickle.dumps(e))
        return e
    except Exception:
        kind = PhaseDSLError if isinstance(e, PhaseDSLError) else RuntimeError
        return kind(str(e) if kind is PhaseDSLError else f"{type(e).__name__}: {e}")


class Pool:
    """``jobs`` worker processes running ``func``; ``map`` gives the answers in order.

    Use as a context manager: leaving it, normally or by any exception (Ctrl-C, SIGTERM
    raised as an exception by the command line), ends every worker at once."""

    def __init__(self, func: Callable, jobs: int, initializer: Callable | None = None,
                 initargs: tuple = (), start: str | None = None) -> None:
        ctx = multiprocessing.get_context(start or ("fork" if can_fork() else "spawn"))
        self.workers: list = []
        self.conns: list = []
        held = hold()
        try:
            try:
                for _ in range(max(1, jobs)):
                    mine, theirs = ctx.Pipe()
                    p = ctx.Process(target=_serve, args=(theirs, func, initializer, initargs),
                                    daemon=True)
                    p.start()
                    theirs.close()
                    self.workers.append(p)
                    self.conns.append(mine)
            finally:
                # a signal that came meanwhile is raised here (by the command line's
                # handler), and the workers started so far are ended below
                release(held)
        except BaseException:
            self.kill()
            raise

    def __enter__(self) -> Pool:
        return self

    def __exit__(self, kind, *rest) -> None:
        if kind is None:
            self.close()
        else:
            self.kill()

    def map(self, items: Iterable[Any]) -> Iterator[Any]:
        """``func(item)`` for each item, in order; a ``BARRIER`` among the items is given
        back where it stands, after every answer before it."""
        source = iter(items)
        pending: dict[Any, deque] = {c: deque() for c in self.conns}
        done: dict[int, Any] = {}
        sent = given = 0
        barrier = exhausted = False

        def feed(conn) -> None:
            nonlocal sent, barrier, exhausted
            while not (barrier or exhausted) and len(pending[conn]) < AHEAD:
                item = next(source, _END)
                if item is _END:
                    exhausted = True
                elif item is BARRIER:
                    barrier = True
                else:
                    try:
                        conn.send((sent, item))
                    except OSError:  # (not the command's output: a worker killed from outside)
                        raise WorkerError("a worker process stopped before it answered") from None
                    pending[conn].append(sent)
                    sent += 1

        for c in self.conns:
            feed(c)
        while True:
            while given in done:
                yield done.pop(given)
                given += 1
            if given == sent:
                if barrier:
                    yield BARRIER
                    barrier = False
                    for c in self.conns:
                        feed(c)
                    continue
                if exhausted:
                    return
            busy = [c for c in self.conns if pending[c]]
            for conn in wait(busy):
                try:
                    index, ok, value = conn.recv()
                except (EOFError, OSError):
                    raise WorkerError("a worker process stopped before it answered") from None
                pending[conn].popleft()
                if not ok:
                    raise value
                done[index] = value
                feed(conn)

    def close(self) -> None:
        for c in self.conns:
            with contextlib.suppress(OSError):
                c.send(None)
        for p in self.workers:
            p.join(1)
        self.kill()

    def kill(self) -> None:
        # SIGTERM first, so that each worker ends the programs it started and what those
        # started (see _stop); SIGKILL for a worker that has not ended within a moment.
        deadline = time.monotonic() + STOP_GRACE
        for step in (lambda p: p.exitcode is None and p.terminate(),
                     lambda p: p.join(max(0.0, deadline - time.monotonic())),
                     lambda p: p.exitcode is None and p.kill(),
                     lambda p: p.join(1)):
            for p in self.workers:
                with contextlib.suppress(OSError, ValueError, AttributeError, AssertionError):
                    step(p)
        for c in self.conns:
            with contextlib.suppress(OSError):
                c.close()


_END = object()
