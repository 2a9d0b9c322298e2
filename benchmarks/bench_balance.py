"""Benchmark: how long `balance original` takes with its default games (two orders of the
ten phases, five table sizes; the goal: under a minute on a 2-core machine).

The dealt chances are worked out first, into a cache folder of this run's own (the
one-time cost of a pack's exact odds, kept on disk for every later run), and timed
apart; then the balance itself, with that cache.  Wall time and the CPU time of all
processes (on a shared machine the wall time grows with the load; CPU time / jobs is
what the run takes on idle cores).  Prints figures; asserts nothing.

    python benchmarks/bench_balance.py [--pack original] [--jobs 2] [--games N]
"""

from __future__ import annotations

import argparse
import os
import resource
import tempfile
import time


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pack", default="original")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--games", type=int, default=None)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="phasedsl-bench-cache-") as cache:
        os.environ["PHASEDSL_CACHE"] = cache
        from phasedsl.design.balance import DEFAULT_GAMES, balance
        from phasedsl.design.difficulty import dealt_or_none
        from phasedsl.packs.pack import load_pack

        games = args.games or DEFAULT_GAMES
        pack = load_pack(args.pack)
        t0, c0 = time.perf_counter(), _cpu()
        for e in pack.world(None).played:
            dealt_or_none(*_phase(pack, e.number), jobs=args.jobs)
        odds_wall, odds_cpu = time.perf_counter() - t0, _cpu() - c0
        t0, c0 = time.perf_counter(), _cpu()
        b = balance(pack, games=games, seed=args.seed, jobs=args.jobs)
        wall, cpu = time.perf_counter() - t0, _cpu() - c0
    print(f"balance {args.pack}: {games} games per simulation, --jobs {args.jobs}: "
          f"{wall:.1f} s wall, {b.simulated:,} games in all ({len(b.sizes)} table sizes, "
          f"{b.rounds} proposed order(s) simulated); flagged {list(b.current.flagged)}, "
          f"proposed {' '.join(map(str, b.proposed.order))}"
          f"{'' if b.resolved else ' (still flagged)'}")
    print(f"CPU time of all processes: {cpu:.1f} s; on {args.jobs} idle cores about "
          f"{cpu / args.jobs:.0f} s wall")
    print(f"first run only: the dealt odds of the {len(pack.world(None).played)} phases, "
          f"{odds_wall:.1f} s wall ({odds_cpu:.1f} s CPU), then cached")


def _phase(pack, number: int):
    entry, rules = pack.phase_entry(number)
    return entry.phase, rules


def _cpu() -> float:
    """User + system seconds of this process and its finished children (the workers)."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


if __name__ == "__main__":
    main()
