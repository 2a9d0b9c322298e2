"""Benchmark: how long a whole `phasedsl` process takes, against the floor of the same
environment (a Python that imports Typer and does nothing else), started the same way in
the same run.

Each command is started --runs times (default 15) as the installed `phasedsl` executable
(the one beside this Python, else `python -m phasedsl.cli`), in rounds that start the floor
and every command once each; the fastest run is kept, as is usual for start-up times (the
slower ones measure the machine's other work).  Prints
each command's time and its ratio to the floor; the goals (issue 30): `check` and `parse`
at most 2x, `--version` and `--help` at most 1.3x.  Asserts nothing.

    python benchmarks/bench_startup.py [--runs 15]
"""

from __future__ import annotations

import argparse
import compileall
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

COMMANDS = [
    (["--version"], 1.3),
    (["--help"], 1.3),
    (["parse", "1 set of 3 + 1 run of 4"], 2.0),
    (["check", "1 set of 3", "R5", "B5", "G5"], 2.0),
]


def executable() -> list[str]:
    beside = Path(sys.executable).with_name("phasedsl")
    if beside.exists():
        return [str(beside)]
    found = shutil.which("phasedsl")
    return [found] if found else [sys.executable, "-m", "phasedsl.cli"]


def fastest(argv: list[str], runs: int) -> float:
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "80"}
    best = float("inf")
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
                       check=False)
        best = min(best, time.perf_counter() - t0)
    return best


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=15)
    args = ap.parse_args(argv)
    exe = executable()
    # the package's bytecode, as an install from a wheel leaves it (where the environment
    # says not to write bytecode, every start would otherwise compile every module)
    import phasedsl

    compileall.compile_dir(Path(phasedsl.__file__).parent, quiet=1)
    # warm the file cache and the bytecode of both before any run is timed
    fastest([sys.executable, "-c", "import typer"], 2)
    for command, _ in COMMANDS:
        fastest([*exe, *command], 2)
    # round after round, each command once a round beside the floor: a change in the
    # machine's load falls on all of them alike (timed one after the other, the floor could
    # be taken in a quiet minute and a command in a busy one)
    argvs = [[sys.executable, "-c", "import typer"], *([*exe, *c] for c, _ in COMMANDS)]
    best = [float("inf")] * len(argvs)
    for _ in range(args.runs):
        for k, argv in enumerate(argvs):
            best[k] = min(best[k], fastest(argv, 1))
    floor = best[0]
    print(f"start-up, the fastest of {args.runs} runs each, taken in turn "
          f"({' '.join(exe)})")
    print(f"  floor: python -c 'import typer'   {1000 * floor:6.0f} ms")
    for (command, goal), t in zip(COMMANDS, best[1:], strict=True):
        shown = " ".join(c if " " not in c else repr(c) for c in command)
        verdict = "meets" if t / floor <= goal else "misses"
        print(f"  phasedsl {shown:<40} {1000 * t:6.0f} ms  {t / floor:4.2f}x the floor "
              f"({verdict} the goal of {goal:g}x)")

if __name__ == "__main__":
    main()
