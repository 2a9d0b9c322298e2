"""Benchmark: how long `simulate` takes for 1,000 four-player games of `original` with
greedy bots and two worker processes, now and before the referee judged each move once.

The goal (issue 18): at most half the time of the code before, measured on the same
machine in the same run.  "Before" is the commit ``--before`` (default: the last commit
before that change), taken out of this checkout's git history into a temporary folder
(``git archive``) and run exactly as this tree is: the same games in a fresh process
each, one after the other.  For each: the wall time of the whole run (start-up, pack
loading and workers included) and the CPU time of all its processes (on a shared machine
the wall time grows with the load; the CPU time hardly does, and CPU time / jobs is what
the run takes on idle cores).  Both runs also print a digest of every game's record
(hands, turns, winner, scores), which must be the same: the same seeds, the same games.
Prints figures; asserts nothing but that digest.

    python benchmarks/bench_simulate.py [--games 1000] [--jobs 2] [--players 4] [--seed 1]
                                        [--before REV | --no-before]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The last commit before the referee judged each move once (legal_moves keeping what it
# judged for apply; bots with one move not asked).
BEFORE = "1162c9c5dcd1f75336057f6795dac5b9e6066057"

# Run in a fresh process with the tree to measure first on sys.path.
RUN = """
import hashlib, json, resource, sys, time
sys.path.insert(0, sys.argv[1])
t0 = time.perf_counter()
from phasedsl.design.simulate import simulate, summarize
args = json.loads(sys.argv[2])
records = simulate(args["variant"], args["players"], args["games"], args["bot"], args["seed"],
                   jobs=args["jobs"])
wall = time.perf_counter() - t0
me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
cpu = me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime
s = summarize(records, args["players"])
digest = hashlib.sha256(repr([(r.hands, r.turns, r.winner, r.totals, r.capped)
                              for r in records]).encode()).hexdigest()[:16]
print(json.dumps({"wall": wall, "cpu": cpu, "turns": sum(sum(r.turns) for r in records),
                  "hands": s["hands_per_game"]["mean"], "capped": len(s["capped"]),
                  "digest": digest}))
"""


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--variant", default="original")
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--bot", default="greedy")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--before", default=BEFORE, help="the commit to compare with")
    ap.add_argument("--no-before", action="store_true", help="measure this tree only")
    args = ap.parse_args()
    spec = json.dumps({k: getattr(args, k) for k in ("variant", "games", "players", "jobs",
                                                     "bot", "seed")})
    what = (f"{args.games:,} {args.players}-player games of {args.variant} with {args.bot} "
            f"bots, --jobs {args.jobs}")
    runs = {}
    if not args.no_before:
        with tempfile.TemporaryDirectory() as tmp:
            archive = subprocess.run(["git", "-C", str(ROOT), "archive", args.before],
                                     capture_output=True, check=True).stdout
            subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
            runs["before"] = _run(tmp, spec)
    runs["now"] = _run(str(ROOT), spec)
    for name, r in runs.items():
        label = f"{name} ({args.before[:9]})" if name == "before" else name
        print(f"simulate {label}: {what}: {r['wall']:.1f} s wall "
              f"({args.games / r['wall']:.1f} games/s, {r['turns'] / r['wall']:,.0f} turns/s); "
              f"CPU time of all processes {r['cpu']:.1f} s ({1000 * r['cpu'] / args.games:.0f} "
              f"ms a game, about {r['cpu'] / args.jobs:.0f} s on {args.jobs} idle cores); "
              f"{r['hands']:.2f} hands per game, {r['capped']} capped; games {r['digest']}")
    if "before" in runs:
        b, n = runs["before"], runs["now"]
        print(f"now / before: {n['wall'] / b['wall']:.0%} of the wall time, "
              f"{n['cpu'] / b['cpu']:.0%} of the CPU time (goal: at most 50%); "
              f"the same games: {'yes' if n['digest'] == b['digest'] else 'NO'}")
        if n["digest"] != b["digest"]:
            sys.exit(1)


def _run(tree: str, spec: str) -> dict:
    # An empty cache of its own: games played before are kept (design/gamecache.py), and a
    # run that read them would time nothing.
    with tempfile.TemporaryDirectory(prefix="phasedsl-bench-cache-") as cache:
        out = subprocess.run([sys.executable, "-c", RUN, tree, spec], capture_output=True,
                             text=True, check=True,
                             env={**os.environ, "PHASEDSL_CACHE": cache}).stdout
    return json.loads(out.strip().splitlines()[-1])


if __name__ == "__main__":
    main()
