"""Benchmark: how long `phasedsl generate --phases 10 --seed 1` takes (the goal: about a
minute on a 2-core machine), with an empty dealt-odds cache and again with it filled.

Wall time of the whole command (a fresh process, as a user runs it) and the CPU time of all
its processes (on a shared machine the wall time grows with the load; CPU time / 2 is
what it takes on two idle cores).  Prints figures; asserts nothing.

    python benchmarks/bench_generate.py [--phases 10] [--seed 1]
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--phases", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "PHASEDSL_CACHE": str(Path(tmp) / "cache")}
        for label in ("empty cache", "filled cache"):
            out = Path(tmp) / "bench.yaml"
            cmd = [sys.executable, "-m", "phasedsl", "generate", "--phases", str(args.phases),
                   "--seed", str(args.seed), "--jobs", "2", "-o", str(out), "--force"]
            c0 = _cpu()
            t0 = time.perf_counter()
            r = subprocess.run(cmd, env=env, capture_output=True, text=True)
            wall = time.perf_counter() - t0
            cpu = _cpu() - c0
            if r.returncode:
                sys.exit(r.stderr.strip())
            length = r.stdout.strip().splitlines()[-1].strip()
            print(f"generate --phases {args.phases} --seed {args.seed} --jobs 2 ({label}): "
                  f"{wall:.1f} s wall, CPU time of all processes {cpu:.1f} s (about "
                  f"{cpu / 2:.0f} s on 2 idle cores); {length}")


def _cpu() -> float:
    """User + system seconds of the finished children (the command and its workers)."""
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return kids.ru_utime + kids.ru_stime


if __name__ == "__main__":
    main()
