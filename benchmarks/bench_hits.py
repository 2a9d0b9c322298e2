"""Benchmark: hit_targets calls per second, and hit_plan's worst case.

Seeded random laid groups (runs, sets, color and parity groups, some wilds),
each read once; then one card at a time against one or two of them.  For
hit_plan, a seeded random search over laid groups with hands of 2-12 cards,
plus hands of 60-108 cards (the rest of the deck), under the default rules and
under Utah swaps.  Prints figures;
asserts nothing.

    python benchmarks/bench_hits.py [--calls N] [--plans N] [--big N] [--crowded N] [--seed S]
"""

from __future__ import annotations

import argparse
import random
import time

from phasedsl import STANDARD_DECK, Card, Rules, hit_plan, hit_targets
from phasedsl.api import laid_group
from phasedsl.model.cards import WILD
from phasedsl.model.rules import DEFAULT_RULES

COLORS = STANDARD_DECK.colors


def random_group(rng: random.Random, pool: list[Card]) -> str | None:
    """A legal laid group as 'KIND: CARDS', taken out of ``pool`` (None if it ran short)."""
    kind = rng.choice(["run", "run", "run", "set", "set", "color", "even_odd", "color_run"])
    size = rng.randint(3, 7) if "run" in kind else rng.randint(2, 5)
    one = rng.choice(COLORS)
    if "run" in kind:
        start = rng.randint(1, 13 - size)
        want = [Card(n, one if kind == "color_run" else rng.choice(COLORS))
                for n in range(start, start + size)]
    elif kind == "set":
        num = rng.randint(1, 12)
        want = [Card(num, rng.choice(COLORS)) for _ in range(size)]
    elif kind == "color":
        want = [Card(rng.randint(1, 12), one) for _ in range(size)]
    else:
        par = rng.randint(0, 1)
        want = [Card(rng.choice(range(1 + par, 13, 2)), rng.choice(COLORS)) for _ in range(size)]
    # a wild for some card (never the first: a group keeps a natural)
    if rng.random() < 0.3 and WILD in pool:
        k = rng.randrange(1, size)
        want[k] = Card(want[k].number if "run" in kind else None, None, wild=True)
    taken = []
    for c in want:
        plain = c.plain()
        if plain not in pool:
            for t in taken:
                pool.append(t)
            return None
        pool.remove(plain)
        taken.append(plain)
    return f"{kind}: " + " ".join(str(c) for c in want)


def table(rng: random.Random, groups: int, rules: Rules = DEFAULT_RULES):
    pool = STANDARD_DECK.all_cards()
    laid = []
    while len(laid) < groups:
        text = random_group(rng, pool)
        if text is not None:
            laid.append(laid_group(text, rules))
    return laid, pool


def bench_targets(rng: random.Random, calls: int, repeat: int) -> list[str]:
    rules = Rules()
    tables = [table(rng, 2)[0] for _ in range(200)]
    deck = STANDARD_DECK.all_cards()
    cards = [rng.choice(deck) for _ in range(calls)]
    lines = []
    for n in (1, 2):
        pairs = [(tables[k % len(tables)][:n], c) for k, c in enumerate(cards)]
        best = float("inf")
        for _ in range(repeat):
            t0 = time.perf_counter()
            for laid, card in pairs:
                hit_targets(laid, card, rules)
            best = min(best, time.perf_counter() - t0)
        lines.append(f"hit_targets: one card vs {n} laid group{'s' if n > 1 else ''}: "
                     f"{calls / best:,.0f} calls/s")
    t0 = time.perf_counter()
    fresh = [laid_group("run: R4 R5 W R7") for _ in range(2000)]
    for g in fresh:
        hit_targets([g], WILD, rules)
    dt = time.perf_counter() - t0
    lines.append(f"  reading a laid group and the first hit on it: {dt / len(fresh) * 1e6:,.0f} µs")
    return lines


def bench_plans(rng: random.Random, plans: int, big: int, rules: Rules, label: str) -> list[str]:
    worst = (0.0, "")
    total = 0.0
    cut = 0
    cases = [(rng.randint(1, 6), rng.randint(2, 12)) for _ in range(plans)]
    cases += [(rng.randint(2, 8), rng.choice([60, 80, 100, 108])) for _ in range(big)]
    big_worst = 0.0
    for groups, size in cases:
        laid, pool = table(rng, groups, rules)
        hand = rng.sample(pool, min(size, len(pool)))
        t0 = time.perf_counter()
        p = hit_plan(laid, hand, rules)
        dt = time.perf_counter() - t0
        total += dt
        cut += not p.exact
        if size > 12:
            big_worst = max(big_worst, dt)
        if dt > worst[0]:
            worst = (dt, f"{len(hand)} cards on {len(laid)} groups")
    return [f"hit_plan ({label}): {len(cases)} seeded random plans ({plans} with 2-12 cards, {big} with "
            f"60-108 cards): mean {total / len(cases) * 1000:.1f} ms, worst {worst[0] * 1000:.0f} ms "
            f"({worst[1]}), worst 60-108-card hand {big_worst * 1000:.0f} ms; "
            f"{cut} stopped at the search budget"]


def bench_crowded(rng: random.Random, tables: int, rules: Rules, label: str) -> list[str]:
    """The hardest kind seen: 8-14 laid groups and every card left in the deck in hand."""
    worst, cut = 0.0, 0
    for _ in range(tables):
        laid, pool = table(rng, rng.randint(8, 14), rules)
        t0 = time.perf_counter()
        p = hit_plan(laid, pool, rules)
        worst = max(worst, time.perf_counter() - t0)
        cut += not p.exact
    return [f"hit_plan ({label}): {tables} tables of 8-14 laid groups, the rest of the deck in "
            f"hand: worst {worst * 1000:.0f} ms; {cut} stopped at the search budget"]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--calls", type=int, default=200_000)
    ap.add_argument("--plans", type=int, default=3_000)
    ap.add_argument("--big", type=int, default=100, help="hands of 60-108 cards")
    ap.add_argument("--crowded", type=int, default=100, help="tables of 8-14 groups")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    for line in bench_targets(rng, args.calls, args.repeat):
        print(line)
    for rules, label in ((Rules(), "default rules"), (Rules(wild_swap=True), "Utah swaps")):
        if args.plans + args.big:
            for line in bench_plans(random.Random(args.seed), args.plans, args.big, rules, label):
                print(line)
        if args.crowded:
            for line in bench_crowded(random.Random(args.seed), args.crowded, rules, label):
                print(line)


if __name__ == "__main__":
    main()
