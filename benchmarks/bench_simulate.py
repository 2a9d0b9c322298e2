"""Benchmark: how long `simulate` takes for 1,000 four-player games of `original` with
greedy bots and two worker processes (the goal: under 3 minutes on a 2-core machine).

Wall time of the whole run, pack loading and worker start-up included, and the CPU
time of all its processes (on a shared machine the wall time grows with the load; the
CPU time hardly does, and CPU time / jobs is what the run takes on idle cores).
Prints figures; asserts nothing.

    python benchmarks/bench_simulate.py [--games 1000] [--jobs 2] [--players 4] [--seed 1]
"""

from __future__ import annotations

import argparse
import resource
import time

from phasedsl.simulate import simulate, summarize


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--variant", default="original")
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--bot", default="greedy")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    t0 = time.perf_counter()
    c0 = _cpu()
    records = simulate(args.variant, args.players, args.games, args.bot, args.seed,
                       jobs=args.jobs)
    wall = time.perf_counter() - t0
    cpu = _cpu() - c0
    s = summarize(records, args.players)
    turns = sum(sum(r.turns) for r in records)
    print(f"simulate: {args.games:,} {args.players}-player games of {args.variant} with "
          f"{args.bot} bots, --jobs {args.jobs}: {wall:.1f} s wall "
          f"({args.games / wall:.1f} games/s, {turns / wall:,.0f} turns/s); "
          f"{s['hands_per_game']['mean']:.2f} hands per game, {len(s['capped'])} capped")
    print(f"CPU time of all processes: {cpu:.1f} s ({1000 * cpu / args.games:.0f} ms a game); "
          f"on {args.jobs} idle cores about {cpu / args.jobs:.0f} s wall")


def _cpu() -> float:
    """User + system seconds of this process and its finished children (the workers)."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


if __name__ == "__main__":
    main()
