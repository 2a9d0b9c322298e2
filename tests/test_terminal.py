"""The CLI on a real terminal: the bytes a pseudo-terminal receives (colour as escape codes
that act, never as text; NO_COLOR, TERM=dumb, pipes and FORCE_COLOR)."""

from __future__ import annotations

import os
import select
import subprocess
import sys

import pytest

from phasedsl.cli import style

pytestmark = pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")

ESC = b"\x1b"
RED_ERROR = b"\x1b[31m\x1b[1merror:\x1b[0m "


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR", "TERM")}
    env["TERM"] = "xterm-256color"
    env.update(extra)
    return env


def on_terminal(*args: str, **env: str) -> tuple[int, bytes]:
    """Run ``phasedsl ARGS`` with stdout and stderr on a pseudo-terminal; its exit code and
    every byte the terminal received."""
    main, tty = os.openpty()
    try:
        proc = subprocess.Popen([sys.executable, "-m", "phasedsl", *args],
                                stdin=subprocess.DEVNULL, stdout=tty, stderr=tty,
                                env=_env(**env))
    finally:
        os.close(tty)
    got = b""
    try:
        while select.select([main], [], [], 60)[0]:  # (a program that hangs fails the test)
            try:
                chunk = os.read(main, 65536)
            except OSError:  # (Linux: EIO once the program's end of the terminal closes)
                break
            if not chunk:
                break
            got += chunk
    finally:
        os.close(main)
        if proc.poll() is None:
            proc.kill()
    return proc.wait(timeout=60), got


def piped(*args: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "phasedsl", *args], capture_output=True,
                          env=_env(**env), timeout=60)


def test_an_error_reaches_the_terminal_in_colour_not_as_text():
    code, got = on_terminal("check", "1 set of 3", "R5", "X5")
    assert code == 2
    assert got.startswith(RED_ERROR), got
    assert b"\\x1b" not in got  # no escape code written out as text
    assert b"column 4: unknown color 'X'" in got


def test_escape_in_the_input_stays_escaped_beside_our_colour():
    code, got = on_terminal("check", "1 set of 3", "R5", "\x1b[2JX5")
    assert code == 2
    assert got.startswith(RED_ERROR), got
    # the user's ESC is shown as \x1b; the only raw ESC bytes are our own styling
    assert b"\\x1b[2JX5" in got
    assert got.count(ESC) == RED_ERROR.count(ESC)


def test_a_verdict_is_coloured_on_the_terminal():
    code, got = on_terminal("check", "1 set of 3", "R5", "B5", "W")
    assert code == 0
    assert b"\x1b[32m\x1b[1mmade\x1b[0m" in got
    code, got = on_terminal("check", "1 set of 3", "R5", "B6", "W")
    assert code == 1
    assert b"\x1b[31m\x1b[1mnot made: 1 card short" in got


@pytest.mark.parametrize("env", [{"NO_COLOR": "1"}, {"NO_COLOR": "0"}, {"TERM": "dumb"}])
def test_no_color_and_a_dumb_terminal_get_plain_text(env):
    code, got = on_terminal("check", "1 set of 3", "R5", "X5", **env)
    assert code == 2
    assert ESC not in got and got.startswith(b"error: column 4"), got
    code, got = on_terminal("check", "1 set of 3", "R5", "B5", "W", **env)
    assert code == 0 and ESC not in got and b"\nmade" in got.replace(b"\r", b"")
    code, got = on_terminal("check", "--help", **env)  # (help, styled on a terminal)
    assert code == 0 and ESC not in got and b"Usage: phasedsl check" in got


def test_help_is_styled_on_a_terminal():
    code, got = on_terminal("check", "--help")
    assert code == 0 and ESC in got


def test_a_pipe_gets_plain_text_unless_colour_is_forced():
    r = piped("check", "1 set of 3", "R5", "X5")
    assert r.returncode == 2 and ESC not in r.stderr and r.stderr.startswith(b"error:")
    r = piped("check", "1 set of 3", "R5", "X5", FORCE_COLOR="1")
    assert r.returncode == 2 and r.stderr.startswith(RED_ERROR), r.stderr
    r = piped("check", "1 set of 3", "R5", "B5", "W", FORCE_COLOR="1")
    assert b"\x1b[32m\x1b[1mmade\x1b[0m" in r.stdout
    # NO_COLOR is the user saying no: it wins over FORCE_COLOR
    r = piped("check", "1 set of 3", "R5", "X5", FORCE_COLOR="1", NO_COLOR="1")
    assert ESC not in r.stderr


class _Stream:
    def __init__(self, tty: bool) -> None:
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


@pytest.mark.parametrize(("env", "tty", "wanted"), [
    ({}, True, True), ({}, False, False), ({"NO_COLOR": "1"}, True, False),
    # an empty NO_COLOR is not set (https://no-color.org: "present and not an empty string")
    ({"NO_COLOR": ""}, True, True), ({"NO_COLOR": "", "TERM": "dumb"}, True, False),
    ({"TERM": "dumb"}, True, False),
    ({"FORCE_COLOR": "1"}, False, True), ({"FORCE_COLOR": "1", "TERM": "dumb"}, True, True),
    ({"FORCE_COLOR": "0"}, False, False), ({"FORCE_COLOR": "1", "NO_COLOR": "x"}, False, False),
])
def test_colour_wanted(monkeypatch, env, tty, wanted):
    for key in ("NO_COLOR", "FORCE_COLOR"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("TERM", "xterm")
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    assert style.colour_wanted(_Stream(tty)) is wanted
