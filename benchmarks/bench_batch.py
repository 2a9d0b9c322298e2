"""Benchmark: `phasedsl check --batch` end to end, `shortfall`, and the worst case.

* The batch: seeded random 11-card hands from the 108-card deck against the ten
  classic phases in turn, one JSON line each, written to a file; the real CLI
  runs as a subprocess (start-up included), default output; best of --repeat.
* The same lines through a pipe (`cat FILE | phasedsl check --batch -`).
* `shortfall` calls per second on fresh random hands (a new hand for every call).
* The worst time of `check` (with its shortfall) and of `outs` over a seeded
  random search: phases of 1-15 groups (10 at most) against 10-12-card hands
  and 100-card hands (tests/randomcases.py, as the regression tests use).

Prints figures; asserts nothing.

    python benchmarks/bench_batch.py [--lines 30000] [--seed 2026] [--repeat 3] [--pairs 300]
"""

from __future__ import annotations

import argparse
import compileall
import json
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from randomcases import worst_cases  # noqa: E402

from phasedsl import STANDARD_DECK, Phase, api, load_pack  # noqa: E402
from phasedsl.model.outs import shortfall  # noqa: E402

# The ten classic phases, as the built-in `original` pack lists them.
CLASSIC = [e.text for e in load_pack("original").worlds[0].phases]


def write_batch(path: Path, lines: int, seed: int) -> None:
    rng = random.Random(seed)
    deck = [str(c) for c in STANDARD_DECK.all_cards()]
    with open(path, "w", encoding="utf-8") as fh:
        for i in range(lines):
            fh.write(json.dumps({"id": i, "phase": CLASSIC[i % len(CLASSIC)],
                                 "cards": " ".join(rng.sample(deck, 11))}) + "\n")


def batch_end_to_end(lines: int, seed: int, repeat: int,
                     piped: bool = False) -> tuple[float, float]:
    """Lines per second of the real CLI, start-up included (the best of ``repeat`` runs): by
    the wall clock, and per second of the process's own CPU time (steadier on a shared
    machine). ``piped``: the lines come through a pipe from another process (`cat FILE |
    phasedsl check --batch -`), not from the file named."""
    # the package's bytecode, as an install (or any earlier run, where writing it is
    # allowed) leaves it: start-up is then not a compile of every module
    compileall.compile_dir(ROOT / "phasedsl", quiet=1)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "hands.jsonl"
        write_batch(path, lines, seed)
        best = best_cpu = float("inf")
        for _ in range(repeat):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t0 = time.perf_counter()
            cmd = [sys.executable, "-m", "phasedsl.cli", "check", "--batch"]
            if piped:
                cat = subprocess.Popen(["cat", str(path)], stdout=subprocess.PIPE)
                done = subprocess.run([*cmd, "-"], cwd=ROOT, stdin=cat.stdout,
                                      stdout=subprocess.DEVNULL)
                cat.stdout.close()
                cat.wait()
            else:
                done = subprocess.run([*cmd, str(path)], cwd=ROOT, stdout=subprocess.DEVNULL)
            best = min(best, time.perf_counter() - t0)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            best_cpu = min(best_cpu, after.ru_utime + after.ru_stime
                           - before.ru_utime - before.ru_stime)
            if done.returncode not in (0, 1):
                raise SystemExit(f"the batch failed (exit {done.returncode})")
    return lines / best, lines / best_cpu


def shortfall_rate(pairs: int, seed: int) -> tuple[float, float]:
    """shortfall calls per second on fresh hands, and the share of hands not made."""
    rng = random.Random(seed)
    deck = STANDARD_DECK.all_cards()
    phases = [Phase.parse(p) for p in CLASSIC]
    work = [(phases[i % len(phases)], rng.sample(deck, 11)) for i in range(pairs)]
    t0 = time.perf_counter()
    short = sum(1 for p, h in work if shortfall(p, h).missing)
    return pairs / (time.perf_counter() - t0), short / pairs


def worst(pairs: int, seed: int, big: bool) -> dict:
    """The slowest check and outs over the random search, and how many answers were ranges
    or undecided."""
    out = {"check": (0.0, ""), "outs": (0.0, ""), "ranges": 0, "undecided": 0, "pairs": 0}
    for phase, hand in worst_cases(seed, pairs, big):
        t0 = time.perf_counter()
        got = api.check_json(phase, hand)
        t1 = time.perf_counter()
        api.outs_json(phase, hand, [])
        t2 = time.perf_counter()
        out["pairs"] += 1
        out["undecided"] += got["valid"] is None
        out["ranges"] += got.get("exact") is False and got["valid"] is False
        for key, dt in (("check", t1 - t0), ("outs", t2 - t1)):
            if dt > out[key][0]:
                out[key] = (dt, f"{phase} vs {len(hand)} cards")
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--lines", type=int, default=30_000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--pairs", type=int, default=300, help="random-search pairs (100-card: a third)")
    args = ap.parse_args(argv)
    rate, cpu = batch_end_to_end(args.lines, args.seed, args.repeat)
    print(f"check --batch: {args.lines:,} classic 11-card lines end to end, best of "
          f"{args.repeat}: {rate:,.0f} lines/s, {cpu:,.0f} lines per CPU second "
          "(before this work: ~1,060 lines/s)")
    rate, cpu = batch_end_to_end(args.lines, args.seed, args.repeat, piped=True)
    print(f"check --batch - (the same lines through a pipe): {rate:,.0f} lines/s, "
          f"{cpu:,.0f} lines per CPU second")
    calls, share = shortfall_rate(20_000, args.seed + 1)
    print(f"shortfall: {calls:,.0f} calls/s on fresh classic 11-card hands "
          f"({share:.0%} of them not made)")
    for big, pairs in ((False, args.pairs), (True, max(1, args.pairs // 3))):
        w = worst(pairs, args.seed + 2 + big, big)
        size = "100-card" if big else "10-12-card"
        print(f"worst case, {w['pairs']} random phases of 1-10 groups vs {size} hands: "
              f"check {w['check'][0]:.3f}s ({w['check'][1]}), outs {w['outs'][0]:.3f}s "
              f"({w['outs'][1]}); {w['ranges']} answer(s) given as a range, "
              f"{w['undecided']} undecided")


if __name__ == "__main__":
    main()
