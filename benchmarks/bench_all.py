"""Every benchmark in one run, each in a fresh process, with the checkout first on the path.

The README's figures are the ones these scripts print.  A script that fails is
reported and the rest still run; the exit code is then 1.

    python benchmarks/bench_all.py [--skip odds] [--only find batch]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

# The paths users take first (a whole process first of all); odds last (its exact table takes about a minute).
ORDER = ["startup", "find", "batch", "hits", "replay", "simulate", "strong", "loop", "odds"]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", nargs="+", choices=ORDER, help="run only these")
    ap.add_argument("--skip", nargs="+", choices=ORDER, default=[], help="leave these out")
    args = ap.parse_args(argv)
    names = [n for n in (args.only or ORDER) if n not in args.skip]
    path = [str(ROOT), os.environ.get("PYTHONPATH", "")]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, path))}
    failed = []
    for name in names:
        script = HERE / f"bench_{name}.py"
        if not script.exists():
            continue
        print(f"== {script.name}", flush=True)
        t0 = time.perf_counter()
        r = subprocess.run([sys.executable, str(script)], cwd=ROOT, env=env)
        print(f"   ({time.perf_counter() - t0:.0f} s)", flush=True)
        if r.returncode:
            failed.append(name)
    if failed:
        print("failed: " + ", ".join(failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
