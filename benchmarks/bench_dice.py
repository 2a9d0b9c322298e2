"""Benchmark: Phase 10 Dice's exact tables and hold advice, as a user runs them.

- `phasedsl odds dice` (the ten printed phases, the chance and the score goal each) with
  an empty tables cache, then with it filled;
- `phasedsl hold dice --phase N ...` (a fresh process) with the cache empty for that
  phase, then filled, beside `phasedsl --version` (the process's start alone);
- the advice alone, in a warm process (the tables in memory).

Wall time of each whole command (the best of 3 where the cache is filled).  Prints
figures; asserts nothing.

    python benchmarks/bench_dice.py
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HOLD = ["hold", "dice", "--phase", "8", "--rolls-left", "2", "G7", "G7", "G7", "R5", "R5", "R9",
        "G3", "WY", "WG", "R1"]


def _run(args: list[str], env: dict) -> float:
    t0 = time.perf_counter()
    r = subprocess.run([sys.executable, "-m", "phasedsl", *args], env=env, capture_output=True,
                       text=True)
    if r.returncode:
        sys.exit(r.stderr.strip())
    return time.perf_counter() - t0


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "PHASEDSL_CACHE": str(Path(tmp) / "cache")}
        start = min(_run(["--version"], env) for _ in range(3))
        cold_hold = _run(HOLD, env)
        cold = _run(["odds", "dice"], env)
        warm = min(_run(["odds", "dice"], env) for _ in range(3))
        warm_hold = min(_run(HOLD, env) for _ in range(3))
        size = sum(p.stat().st_size for p in (Path(tmp) / "cache").glob("dice-*.bin"))
        print(f"odds dice (10 phases, exact, both goals): {cold:.1f} s with an empty cache, "
              f"{warm:.2f} s with it filled; the tables on disk {size / 1e6:.1f} MB")
        print(f"hold (a fresh process): {cold_hold:.2f} s with an empty cache, {warm_hold:.2f} s "
              f"with it filled; the process's start alone (--version) {start:.2f} s")
        os.environ["PHASEDSL_CACHE"] = env["PHASEDSL_CACHE"]
        from phasedsl.dice import Face, Space, advise, solve
        from phasedsl.packs.pack import load_pack

        pack = load_pack("dice")
        phase = pack.worlds[0].phases[7].phase
        space = Space(pack.dice)
        tables = {g: solve(phase, pack.rules, pack.dice, g, space) for g in ("chance", "score")}
        showing = [Face(7, "G")] * 3 + [Face(5, "R")] * 2 + [Face(9, "R"), Face(3, "G"),
                                                              Face(None, "Y"), Face(None, "G"),
                                                              Face(1, "R")]
        n = 200
        t0 = time.perf_counter()
        for _ in range(n):
            advise(phase, pack.rules, pack.dice, showing, 2, space, tables.__getitem__)
        per = (time.perf_counter() - t0) / n
        print(f"hold advice in a warm process (tables in memory): {1000 * per:.2f} ms")


if __name__ == "__main__":
    main()
