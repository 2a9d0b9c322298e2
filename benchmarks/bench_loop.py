"""Benchmark: the author's loop (issue 30), now and before, as a user runs it.

Three commands, each a fresh ``phasedsl`` process, exactly as typed:

    phasedsl balance original --jobs 2
    phasedsl report original -o original.html --jobs 2
    phasedsl generate --phases 10 --seed 1 --jobs 2 -o generated.yaml

by this tree and by the commit ``--before`` (default: the code the issue measured,
96c9ce3), ``git archive``d into a temporary folder and run the same way in the same run,
each in the states of the cache an author meets:

* **first run**: an empty cache (a pack never seen: every dealt chance worked out, every
  game played);
* **dealt odds kept**: the cache holds the dealt chances the first run worked out, and no
  game (a pack whose phases were measured before, in a new order or at a new table: every
  game played).  The goals of issue 30 are stated against this row and the first;
* **again** (now only: before kept no game): the whole cache of the first run (the same
  command asked again, or ``report`` after ``balance`` of the same pack: the games are
  read, not played).

For each: the wall time and the CPU time of all its processes (the command and its
workers; on a shared machine the wall time grows with the load, the CPU time hardly
does), and now / before.  Goals, in CPU time: balance at most 15%, report 30%, generate
40% of before.  Prints figures; asserts nothing.

    python benchmarks/bench_loop.py [--before REV] [--now REV] [--only balance report ...]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BEFORE = "96c9ce3"
GOALS = {"balance": 0.15, "report": 0.30, "generate": 0.40}
COMMANDS = {
    "balance": ["balance", "original", "--jobs", "2"],
    "report": ["report", "original", "-o", "{out}/original.html", "--force", "--jobs", "2"],
    "generate": ["generate", "--phases", "10", "--seed", "1", "--jobs", "2",
                 "-o", "{out}/generated.yaml", "--force"],
}
STATES = ("first run", "dealt odds kept", "again")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--before", default=BEFORE, help="the commit to compare with")
    ap.add_argument("--now", default=None, help="a commit to measure instead of this tree")
    ap.add_argument("--only", nargs="+", choices=list(COMMANDS), default=list(COMMANDS))
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="phasedsl-bench-loop-") as tmp:
        trees = {"before": _archive(args.before, Path(tmp) / "before"),
                 "now": _archive(args.now, Path(tmp) / "now") if args.now else ROOT}
        for name in args.only:
            got: dict[str, dict[str, tuple[float, float]]] = {}
            for label, tree in trees.items():
                first = Path(tmp) / f"cache-{label}-{name}"
                kept = Path(tmp) / f"dealt-{label}-{name}"
                got[label] = {"first run": _run(tree, COMMANDS[name], first, Path(tmp))}
                kept.mkdir()
                if (first / "dealt.json").exists():
                    shutil.copy(first / "dealt.json", kept / "dealt.json")
                got[label]["dealt odds kept"] = _run(tree, COMMANDS[name], kept, Path(tmp))
                if label == "now":
                    got[label]["again"] = _run(tree, COMMANDS[name], first, Path(tmp))
            for state in STATES:
                n = got["now"][state]
                b = got["before"].get(state) or got["before"]["dealt odds kept"]
                print(f"{name} ({state}): now {n[1]:.1f} s CPU, {n[0]:.1f} s wall; before "
                      f"({args.before}) {b[1]:.1f} s CPU, {b[0]:.1f} s wall; now / before "
                      f"{n[1] / b[1]:.0%} of the CPU time (goal: at most "
                      f"{GOALS[name]:.0%})", flush=True)


def _archive(rev: str, into: Path) -> Path:
    into.mkdir(parents=True)
    data = subprocess.run(["git", "-C", str(ROOT), "archive", rev], capture_output=True,
                          check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=data, check=True)
    return into


def _run(tree: Path, argv: list[str], cache: Path, out: Path) -> tuple[float, float]:
    """(wall, CPU) seconds of one command run by ``tree``'s code."""
    env = {**os.environ, "PHASEDSL_CACHE": str(cache), "PYTHONPATH": str(tree)}
    cmd = [sys.executable, "-m", "phasedsl", *(a.format(out=out) for a in argv)]
    c0 = _cpu()
    t0 = time.perf_counter()
    r = subprocess.run(cmd, env=env, capture_output=True, text=True, cwd=out)
    wall = time.perf_counter() - t0
    if r.returncode:
        sys.exit(f"{' '.join(argv)} failed ({tree}):\n{r.stderr.strip()}")
    return wall, _cpu() - c0


def _cpu() -> float:
    """User + system seconds of the finished children (the command and its workers)."""
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return kids.ru_utime + kids.ru_stime


if __name__ == "__main__":
    main()
