"""Ctrl-C and SIGTERM held off across a step that must not be cut in two.

The command line raises both as an exception in the main thread.  A step that makes
something only its own cleanup knows of (a temporary file whose name is not yet back, a
worker process not yet in the list) holds them; a signal that came meanwhile is raised
when they are let in, where that cleanup is ready.  A mask is per thread, and there are
none on Windows: there, nothing is held.
"""

from __future__ import annotations

import signal

STOPS = frozenset({signal.SIGINT, signal.SIGTERM})
_MASKS = hasattr(signal, "pthread_sigmask")


def hold() -> set:
    """Hold the two signals; the mask to ``release`` to."""
    return signal.pthread_sigmask(signal.SIG_BLOCK, STOPS) if _MASKS else set()


def release(previous: set) -> None:
    """Let the signals in again: the handler of one that came runs before this returns."""
    if _MASKS:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def let_in() -> None:
    """Let the two signals in whatever was held before (a forked worker's start)."""
    if _MASKS:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOPS)
