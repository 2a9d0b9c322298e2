"""Benchmark: `find` on the ten classic phases, and its worst case on random phases.

Seeded random 11-card hands from the 108-card deck, a new hand for every
(hand, phase) pair, the ten classic phases in turn.  Prints, best of three:

* pairs/s with the ten Phase objects reused;
* pairs/s with a fresh Phase object per pair (an equal but distinct object,
  as an API call or a batch line has), the parse not timed, and then timed;
* pairs/s per phase;
* the slowest single `find` of the seeded random search of the tests (1-10
  groups against 10-12-card and 100-card hands) and of the hard cases of
  issue 8;
* the slowest single `find` of the sums' hard cases (tests/sumcases.py, issue 19).

Asserts nothing.

    python benchmarks/bench_find.py [--pairs N] [--seed S]
"""

from __future__ import annotations

import argparse
import copy
import random
import sys
import time
from pathlib import Path

from phasedsl import STANDARD_DECK, Phase, load_pack
from phasedsl.solver import SearchLimit, find

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from randphase import WORST_CASES, random_cases
from sumcases import SUM_WORST_CASES

# The ten classic phases, as the built-in `original` pack lists them.
CLASSIC = [e.text for e in load_pack("original").worlds[0].phases]


def _best(repeat: int, run) -> float:
    """The least disturbed of several runs (process time: other work on the machine aside)."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.process_time()
        run()
        best = min(best, time.process_time() - t0)
    return best


def main(pairs: int = 100_000, seed: int = 2026, size: int = 11, repeat: int = 3,
         search: tuple[int, int] = (2000, 300)) -> None:
    rng = random.Random(seed)
    deck = STANDARD_DECK.all_cards()
    hands = [rng.sample(deck, size) for _ in range(pairs)]
    phases = [Phase.parse(p) for p in CLASSIC]
    jobs = [(phases[i % len(phases)], h) for i, h in enumerate(hands)]
    # Equal but distinct objects, whether or not Phase.parse keeps a cache of its own.
    fresh = [(copy.deepcopy(p), h) for p, h in jobs]
    texts = [(CLASSIC[i % len(CLASSIC)], h) for i, h in enumerate(hands)]

    def reused() -> None:
        for p, h in jobs:
            find(p, h)

    def fresh_objects() -> None:
        for p, h in fresh:
            find(p, h)

    def parsed() -> None:
        for text, h in texts:
            find(Phase.parse(text), h)

    reused()  # warm the caches: every run below starts alike
    made = sum(find(p, h) is not None for p, h in jobs)
    dt = _best(repeat, reused)
    print(f"find, phases reused: {pairs / dt:,.0f} pairs/s ({pairs:,} pairs, a new "
          f"{size}-card hand each, ten classic phases in turn; {made / pairs:.1%} made)")
    dt_fresh = _best(repeat, fresh_objects)
    print(f"find, a fresh equal Phase per pair: {pairs / dt_fresh:,.0f} pairs/s "
          f"({dt / dt_fresh:.2f}x reused)")
    dt_parse = _best(repeat, parsed)
    print(f"find, Phase.parse per pair (parse timed): {pairs / dt_parse:,.0f} pairs/s")
    per = pairs // len(phases)
    for p in phases:
        hs = hands[:per]
        dt_p = _best(repeat, lambda p=p, hs=hs: [find(p, h) for h in hs])
        n = sum(find(p, h) is not None for h in hs)
        print(f"  {p.canonical():28s} {per / dt_p:>10,.0f} pairs/s   made {n / per:6.2%}")
    worst, what, count, limits = 0.0, "", 0, 0
    cases = [(Phase.parse(t), h) for t, h, _ in WORST_CASES]
    for phase, hand in [*cases, *random_cases(seed, *search)]:
        t0 = time.perf_counter()
        try:
            find(phase, hand)
        except SearchLimit:
            limits += 1
        dt_case = time.perf_counter() - t0
        count += 1
        if dt_case > worst:
            worst, what = dt_case, f"{phase} against {len(hand)} cards"
    print(f"find, worst case: {worst:.2f} s ({what}) over {count:,} phases "
          f"({len(cases)} hard cases of issue 8, {search[0]:,} random with 10-12 cards, "
          f"{search[1]:,} with 100); {limits} out of reach (find raises SearchLimit; "
          "check answers undecided)")
    worst, what, limits = 0.0, "", 0
    for text, hand, _ in SUM_WORST_CASES:
        phase = Phase.parse(text)
        t0 = time.perf_counter()
        try:
            find(phase, hand)
        except SearchLimit:
            limits += 1
        dt_case = time.perf_counter() - t0
        if dt_case > worst:
            worst, what = dt_case, f"{phase} against {len(hand)} cards"
    print(f"find, sums' worst case: {worst:.2f} s ({what}) over {len(SUM_WORST_CASES)} hard "
          f"cases of issue 19 (tests/sumcases.py); {limits} out of reach")


def _cli() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pairs", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--size", type=int, default=11)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    main(args.pairs, args.seed, args.size, args.repeat)


if __name__ == "__main__":
    _cli()
