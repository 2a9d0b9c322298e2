"""Programs phasedsl starts, bounded (issue 26, item 21): a program that never answers,
floods its output without a line break, answers a 100 MB line, ignores SIGTERM or forks a
child ends within its time, named in one clear error, with no traceback and nothing left
running; for ``conformance run -- PROGRAM`` and for ``cmd:`` bots alike."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

PY = sys.executable
ROOT = Path(__file__).resolve().parents[1]

# Each hostile program writes the pids it started to PIDS (argv[1]) first.
HOSTILE = {
    "silent": "import time\nwhile True: time.sleep(1)\n",
    "flood": "import sys\nwhile True: sys.stdout.write('x' * 65536)\n",
    # answers every case before it is asked, never reading one (as ``yes`` does)
    "no-read": "import sys\nwhile True: sys.stdout.write('y\\n')\n",
    "huge-line": ("import sys, time\nsys.stdin.readline()\n"
                  "sys.stdout.write('y' * 100_000_000 + '\\n'); sys.stdout.flush()\n"
                  "for line in sys.stdin: print('{}', flush=True)\n"),
    "no-term": ("import signal, time\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
                "while True: time.sleep(1)\n"),
    "forks": ("import os, time\npid = os.fork()\n"
              "if pid == 0:\n    while True: time.sleep(1)\n"
              "open(PIDS, 'a').write(f'{pid}\\n')\nwhile True: time.sleep(1)\n"),
}


def _program(tmp_path: Path, name: str) -> tuple[Path, Path]:
    pids = tmp_path / "pids.txt"
    script = tmp_path / f"{name}.py"
    script.write_text(f"import os\nPIDS = {str(pids)!r}\nopen(PIDS, 'a').write(f'{{os.getpid()}}\\n')\n"
                      + HOSTILE[name])
    return script, pids


def _alive(pids: Path) -> list[int]:
    out = []
    for line in pids.read_text().split() if pids.exists() else []:
        pid = int(line)
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            continue
        # (a zombie not yet reaped by init counts as gone)
        stat = Path(f"/proc/{pid}/stat")
        if stat.exists() and stat.read_text().split(") ")[-1].startswith("Z"):
            continue
        out.append(pid)
    return out


def _cli(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([PY, "-m", "phasedsl", *args], capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT)


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_conformance_run_bounds_a_hostile_program(tmp_path, name):
    from phasedsl.conformance import RunError, load, run

    # (the first answer's start-up grace, 30 s by default, cut for the test: the bound is
    # what counts)
    script, pids = _program(tmp_path, name)
    cases = [("scoring", c) for c in load()["scoring"][:20]]
    start = time.monotonic()
    if name in ("huge-line", "no-read"):  # it answers, badly: each case fails, bounded
        report = run(cases, [PY, str(script)], timeout=2.0, startup=1.0)
        assert len(report.failures) == 20
    else:  # no answer to the first case: one error naming the program, at once
        with pytest.raises(RunError, match="gave no answer to the first case"):
            run(cases, [PY, str(script)], timeout=0.5, startup=1.0)
    assert time.monotonic() - start < 15
    time.sleep(0.3)
    assert _alive(pids) == []


def test_conformance_run_of_a_program_that_never_reads_ends_on_sigterm_in_bounded_memory(tmp_path):
    # It fills its input pipe (the run cannot write the next case) and floods its output:
    # the case fails as not read within --timeout, the backlog of lines stays small, and
    # SIGTERM ends the run at once, the program with it.
    script, pids = _program(tmp_path, "no-read")
    p = subprocess.Popen([PY, "-m", "phasedsl", "conformance", "run", "--timeout", "1",
                          "--startup", "1", "--", PY, str(script)], cwd=ROOT,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        time.sleep(4)
        rss = int(Path(f"/proc/{p.pid}/statm").read_text().split()[1]) * os.sysconf("SC_PAGESIZE")
        sent = time.monotonic()
        p.terminate()
        _, err = p.communicate(timeout=10)
        took = time.monotonic() - sent
    finally:
        p.kill()
    assert (p.returncode, err) == (143, b"terminated\n"), err[-2000:]
    assert took < 2, took
    assert rss < 400_000_000, rss
    time.sleep(0.3)
    assert _alive(pids) == []


@pytest.mark.slow
def test_conformance_run_says_it_in_one_error(tmp_path):
    # the command line: one line naming the program, exit 2, no traceback (the first
    # answer's start-up grace, 30 s by default, waited out: 1 s here)
    script, pids = _program(tmp_path, "forks")
    r = _cli("conformance", "run", "--area", "scoring", "--timeout", "0.5", "--startup", "1",
             "--", PY, str(script))
    assert r.returncode == 2 and r.stderr.count("\n") == 1, r.stderr
    assert "gave no answer to the first case" in r.stderr and "Traceback" not in r.stderr
    time.sleep(0.3)
    assert _alive(pids) == []


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_hostile_cmd_bot_forfeits_within_its_time(tmp_path, name):
    script, pids = _program(tmp_path, name)
    start = time.monotonic()
    r = _cli("simulate", "original", "--games", "1", "--players", "2", "--jobs", "1",
             "--bot", f"cmd:{PY} {script}", "--bot-timeout", "0.5", "--json", timeout=120)
    took = time.monotonic() - start
    assert "Traceback" not in r.stderr, r.stderr
    assert took < 30, took
    import json

    out = json.loads(r.stdout)
    (forfeit,) = out["forfeited"]
    assert forfeit["reason"] in ("timeout", "malformed", "crashed"), forfeit
    time.sleep(0.3)
    assert _alive(pids) == []
