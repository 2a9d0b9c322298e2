"""Benchmark: how long `replay` takes to referee a 20-hand, 4-player game of `original`.

The game is played here by seeded random legal moves (lays and hits favoured), then
its log is cut after the 20th hand and replayed through the referee, best of several
runs.  Prints figures; asserts nothing.

    python benchmarks/bench_replay.py [--hands 20] [--seed S] [--repeat 5]
"""

from __future__ import annotations

import argparse
import json
import random
import time

from phasedsl.game import Game
from phasedsl.game import moves as mv
from phasedsl.game.log import replay


def long_game(hands: int, seed: int) -> list[str]:
    """A log of at least ``hands`` hands (games are retried with the next seed)."""
    while True:
        g = Game.new("original", ["ann", "bob", "cat", "dan"], seed=seed)
        rng = random.Random(seed)
        while not g.over and len(g.state.results) < hands:
            moves = g.legal_moves()
            plays = [m for m in moves if isinstance(m, (mv.Lay, mv.Hit))]
            # lay rarely, so that the game lasts
            g = g.apply(rng.choice(plays) if plays and rng.random() < 0.3 else rng.choice(moves))
        if len(g.state.results) >= hands:
            log = g.to_log()
            # cut after the event that ended the hand (drop the next deal)
            while json.loads(log[-1])["type"] == "deal":
                log.pop()
            return log
        seed += 1


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=20)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    log = long_game(args.hands, args.seed)
    best = float("inf")
    result = None
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        result = replay(log)
        best = min(best, time.perf_counter() - t0)
    assert result is not None and result.legal
    print(f"replay of a {len(result.hands)}-hand, 4-player game of original "
          f"({len(log)} events): {best * 1000:.0f} ms (best of {args.repeat}); "
          f"{len(log) / best:,.0f} events/s")


if __name__ == "__main__":
    main()
