"""Benchmark: the exact table of the ten classic phases, and the sampler's speed.

    python benchmarks/bench_odds.py [--cards 10] [--samples 400000] [--jobs 2]

Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import time

from phasedsl import Phase, Rules, load_pack
from phasedsl.design.odds import exact_odds, sampled_odds

# The ten classic phases, as the built-in `original` pack lists them.
CLASSIC = [e.text for e in load_pack("original").worlds[0].phases]
# World Tour phases of three groups and more: no closed form, each count vector searched
SEARCHED = ["1 run of 6 + 2 sets of 2", "1 run of 4 + 1 set of 3 + 1 set of 2"]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cards", type=int, nargs="*", default=[10, 11])
    ap.add_argument("--samples", type=int, default=400_000)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    rules = Rules()
    for cards in args.cards:
        t0 = time.perf_counter()
        print(f"exact, {cards}-card hands:")
        for i, text in enumerate(CLASSIC, 1):
            t = time.perf_counter()
            o = exact_odds(Phase.parse(text), rules, cards)
            print(f"  {i:>2}  {text:<26} {100 * o.probability:8.4f}%   {time.perf_counter() - t:6.2f}s")
        print(f"  all ten: {time.perf_counter() - t0:.1f}s")
    print("exact, searched, 10-card hands:")
    for text in SEARCHED:
        t = time.perf_counter()
        o = exact_odds(Phase.parse(text), rules, 10)
        print(f"  {text:<38} {100 * o.probability:8.4f}%   {time.perf_counter() - t:6.2f}s")
    phase = Phase.parse("1 color run of 4 + 1 set of 4")
    for jobs in sorted({1, args.jobs}):
        t = time.perf_counter()
        o = sampled_odds(phase, rules, 10, samples=args.samples, seed=1, jobs=jobs)
        dt = time.perf_counter() - t
        print(f"sampled {phase}: {args.samples / dt:,.0f} hands/s with --jobs {jobs} "
              f"({o.describe()})")


if __name__ == "__main__":
    main()
