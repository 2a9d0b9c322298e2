"""Phase odds: the chance that a dealt hand (plus some draws) makes a phase.

Exact where mathematics allows.  When whether a hand makes the phase depends
only on how many cards it holds of each *class* (each number, for sets, runs
and even/odd groups; each color, for color groups; each color and parity, for
color even/odd groups; each parity, for even/odd alone), hands are counted by
their class counts instead of being sampled: a hand with counts k_1..k_m, w
wilds and s skips arises in prod C(N_i, k_i) * C(W, w) * C(S, s) ways, out of
C(deck, hand) hands.  Counts above what any group can use from a class are
merged, so the solver runs once per distinct merged count vector.  Under
skip_counts_as_blue a skip is a wild for blue color groups only: still exact, with
blue a class apart and the skips counted.

Otherwise (color runs, color sets, mixes of colors and numbers, color maps,
postal wilds with color classes) the chance is sampled: seeded Monte Carlo
with a Wilson 95% interval, in chunks whose seeds derive from the run's seed,
so the figure does not depend on how many processes share the work.
"""

from __future__ import annotations

import math
import operator
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from ..errors import ArgumentError, PhaseDSLError
from ..model.coerce import as_count, as_phase, as_rules
from ..model.group import Kind
from ..model.phase import Phase
from ..model.rules import DEFAULT_RULES, Rules
from ..model.skipblue import takes_blue_skip
from ..solver import Hand, layout_for, makes, tables, wilds_by_numbers

CHUNK = 20_000
# Sampling that would take longer than this (seconds of every process's work together, over
# the processes) is refused with the estimate, rather than left to run for hours: a pilot
# of up to PILOT hands (or PILOT_SECONDS), never counted, times a hand first.
MAX_SAMPLING_SECONDS = 300.0
PILOT = 200
PILOT_SECONDS = 2.0
Z95 = 1.959963984540054


@dataclass(frozen=True)
class Odds:
    """The chance that ``cards`` cards from the deck make ``phase``."""

    phase: Phase
    cards: int  # cards considered: the hand plus any draws
    method: str  # "exact" or "sampled"
    probability: float
    fraction: Fraction | None = None  # exact only
    low: float | None = None  # sampled only: 95% interval
    high: float | None = None
    samples: int | None = None
    hits: int | None = None
    note: str | None = None  # why a figure that could be exact was sampled

    def to_json(self) -> dict:
        out: dict = {"phase": str(self.phase), "cards": self.cards, "method": self.method,
                     "probability": self.probability, "percent": round(100 * self.probability, 6)}
        if self.fraction is not None:
            out["fraction"] = f"{self.fraction.numerator}/{self.fraction.denominator}"
        else:
            out.update(ci95=[self.low, self.high], samples=self.samples, hits=self.hits)
        if self.note:
            out["note"] = self.note
        return out

    def describe(self) -> str:
        pct = 100 * self.probability
        if self.method == "exact":
            return f"{pct:.4f}% (exact)"
        return (f"{pct:.3f}% (sampled, 95% CI {100 * self.low:.3f}-{100 * self.high:.3f}%, "
                f"{self.samples:,} hands)")


# ---------------------------------------------------------------------------- exact


@dataclass(frozen=True)
class _Classes:
    """A partition of the natural card types such that the phase depends only on class counts."""

    members: tuple[tuple[int, ...], ...]  # card types of each class
    caps: tuple[int, ...]  # counts above this behave the same
    symmetric: bool  # classes are interchangeable (sets only, colors only, ...)
    mirror: bool = False  # reversing the class order changes nothing (numbers n <-> high+low-n)
    by_number: bool = False  # class i is number i (each color's card of it)


def _classes_for(phase: Phase, rules: Rules) -> _Classes | None:
    deck = rules.deck
    tb = tables(deck)
    nn, nc = tb.nn, tb.nc
    groups = [g for g in phase.groups if g.kind.needs_natural]
    kinds = {g.kind for g in groups}
    if rules.runs_one_color and kinds & {Kind.RUN, Kind.PAIR_RUN}:
        return None
    if any(g.colors is not None for g in groups):
        return None

    def use(g) -> int:  # most cards one group takes from one class
        return 1 if g.kind is Kind.RUN else 2 if g.kind is Kind.PAIR_RUN else g.size

    if kinds and all(k.is_bounded for k in kinds) and not rules.wild_numbers:
        return _bounded_classes(groups, rules)

    def parity(ni: int) -> int:
        return (ni + deck.low) % 2

    if kinds <= {Kind.EVEN_ODD} and not rules.wild_numbers:
        members = tuple(tuple(ci * nn + ni for ci in range(nc) for ni in range(nn) if parity(ni) == p)
                        for p in (0, 1))
        sym = False
    elif kinds <= {Kind.COLOR} and not rules.wild_numbers:
        members = tuple(tuple(ci * nn + ni for ni in range(nn)) for ci in range(nc))
        sym = True
    elif kinds <= {Kind.COLOR, Kind.COLOR_EVEN_ODD} and not rules.wild_numbers:
        members = tuple(tuple(ci * nn + ni for ni in range(nn) if parity(ni) == p)
                        for ci in range(nc) for p in (0, 1))
        sym = False
    elif kinds <= {Kind.SET, Kind.RUN, Kind.EVEN_ODD, Kind.PAIR_RUN, Kind.OVER, Kind.UNDER}:
        # all of these read a card's number alone (a run of pairs two of each, an over or
        # under group any past its bound)
        members = tuple(tuple(ci * nn + ni for ci in range(nc)) for ni in range(nn))
        # numbers are interchangeable for sets alone (not when a wild number singles one out)
        sym = kinds <= {Kind.SET} and not rules.wild_numbers
        # (per number: an over or under group takes none of a number it does not admit)
        cap = [sum(use(g) for g in groups if g.admits(ni + deck.low)) for ni in range(nn)]
        # Cards of a wild number keep counting past any cap: each extra one is a wild.
        caps = tuple(len(m) * deck.copies if ni + deck.low in rules.wild_numbers
                     else min(cap[ni], len(m) * deck.copies) for ni, m in enumerate(members))
        # Runs, sets and even/odd groups read the same backwards (a parity swap is harmless;
        # wrapped windows reversed are wrapped windows); an over or under bound does not.
        mirror = not rules.wild_numbers and not any(k.is_bounded for k in kinds)
        return _Classes(members, caps, sym, mirror=mirror, by_number=True)
    else:
        return None
    cap = sum(use(g) for g in groups)
    caps = tuple(min(cap, len(m) * deck.copies) for m in members)
    if _blue_skips(phase, rules):
        sym = False  # blue is not like the other colors: a skip may be a blue card
    return _Classes(members, caps, sym)


def _bounded_classes(groups, rules: Rules) -> _Classes:
    """Over and under groups alone read only which bounds a card's number passes: one
    class per such signature (4 cards over 8: the 9s to 12s, and the rest)."""
    deck = rules.deck
    tb = tables(deck)
    by_sig: dict[tuple, list[int]] = {}
    for ni, n in enumerate(deck.numbers):
        sig = tuple(g.admits(n) for g in groups)
        by_sig.setdefault(sig, []).extend(ci * tb.nn + ni for ci in range(tb.nc))
    members = tuple(tuple(ts) for ts in by_sig.values())
    cap = sum(g.size for g in groups)
    return _Classes(members, tuple(min(cap, len(m) * deck.copies) for m in members), False)


def _blue_skips(phase: Phase, rules: Rules) -> bool:
    """Whether a skip may be laid as a blue card in some group of the phase (then how many
    skips a hand holds matters, and blue is a color apart)."""
    return any(takes_blue_skip(g, rules) for g in phase.groups)


def _hand_for(key: tuple[int, ...], cls: _Classes, wilds: int, skips: int, rules: Rules) -> Hand:
    """A hand with these class counts.

    A class's whole count sits on its first card type: the phase depends only
    on class counts, and the solver does not mind a count above the deck's copies.
    """
    tb = tables(rules.deck)
    cnt = [0] * (tb.nc * tb.nn)
    present = 0
    for k, types in zip(key, cls.members, strict=True):
        if k:
            cnt[types[0]] = k
            present |= 1 << types[0]
    # classes by number, in order (sets, runs): the counts by number are the key itself
    by_num = list(key) if cls.by_number else None
    return Hand.counted(cnt, present, wilds, skips, tb, by_num)


# Hand compositions the exact count visits at most (about a minute's work); past
# that the figure is sampled, and says why.
MAX_COMPOSITIONS = 1_500_000
MAX_COMPOSITIONS_MANY_GROUPS = 700_000  # three or more groups cost more per composition
# Multisets of counts the count of interchangeable classes visits at most (each is a
# recursion's leaf, about 15 microseconds: 5 s)
MAX_MULTISETS = 300_000
MAX_DEAL_STATES = 20_000_000  # compositions times card counts the deal's ways are kept for


def compositions(cls: _Classes, deck_copies: int, cards: int) -> int:
    """How many hand compositions the exact count tells apart: class-count vectors, each
    count read up to its class's cap (a run takes one card of a number: two or eight of it
    are the same to it), of at most ``cards`` cards."""
    ways = [1] + [0] * cards  # ways[t]: capped vectors of the classes so far, t cards at least
    for members, cap in zip(cls.members, cls.caps, strict=True):
        most = min(len(members) * deck_copies, cap)
        ways = [sum(ways[t - c] for c in range(min(most, t) + 1)) for t in range(cards + 1)]
    return sum(ways)


def _capped_deals(sizes: list[int], caps: tuple[int, ...], h: int, comb: list[list[int]],
                  visit: Callable[[tuple[int, ...], list[int], Any], Any],
                  halve: bool = False) -> None:
    """The deal of ``h`` cards' naturals by capped class counts: ``visit(key, ways, hint)``
    for each vector of counts (each read up to its class's cap), ``ways[t]`` the ways to
    pick them as ``t`` naturals (a list of ``h + 1``).  Depth first, class by class, so
    that the work grows with the capped vectors, not with every vector of counts (a run of
    8 in 15 cards: 4,096 of them, not 17 million), and only one path of them is held at a
    time.  The vectors that differ in the last count alone are visited from the largest
    count down, each given what ``visit`` returned for the one before it (``hint``; None
    for the first): a hand of fewer cards of a class needs no fewer wilds.  ``halve``: a
    vector whose mirror image is smaller is left out where its last count already says so
    (less than its first; ``visit`` decides the rest)."""
    if not sizes:  # (no class: every hand is wilds and skips alone)
        visit((), [1] + [0] * h, None)
        return
    last = len(sizes) - 1
    key = [0] * len(sizes)

    def down(i: int, ways: list[int], low: int) -> None:
        n, cap, row = sizes[i], caps[i], comb[sizes[i]]
        merged = None  # the counts at or past the cap: one vector
        # (a last count under the first: the mirror image is smaller; c < cap there)
        first = key[0] if halve and i == last and i else 0
        counts: list[tuple[int, list[int]]] = []
        for c in range(first, min(n, h - low) + 1):
            r = row[c]
            # (ways[t] for t + c > h would be hands of more than h cards: dropped)
            took = ways if c == 0 else [0] * c + [w * r for w in ways[:h + 1 - c]]
            if c < cap:
                counts.append((c, took))
            else:
                merged = took if merged is None else [a + b for a, b in zip(merged, took,
                                                                          strict=True)]
        if merged is not None:
            counts.append((cap, merged))
        if i < last:
            for c, took in counts:
                key[i] = c
                down(i + 1, took, low + c)
            return
        hint = None
        for c, took in reversed(counts):
            key[i] = c
            hint = visit(tuple(key), took, hint)

    down(0, [1] + [0] * h, 0)


def exact_odds(phase: Phase, rules: Rules = DEFAULT_RULES, cards: int | None = None,
               progress: Callable[[int], None] | None = None) -> Odds | None:
    """The exact chance, or None when the phase is not decided by class counts alone
    (or when counting would take too long; see MAX_COMPOSITIONS)."""
    deck = rules.deck
    h = rules.hand_size if cards is None else cards
    if h > deck.size:
        raise ValueError(f"{h} cards is more than the deck's {deck.size}")
    if phase.cards_needed > h:
        return Odds(phase, h, "exact", 0.0, fraction=Fraction(0))
    cls = _classes_for(phase, rules)
    if cls is None or too_costly(phase, cls, rules, h):
        return None
    lay = layout_for(phase, rules)
    sizes = [len(m) * deck.copies for m in cls.members]
    comb = [[math.comb(n, k) for k in range(h + 1)] for n in range(max([*sizes, 1]) + 1)]
    caps = cls.caps
    # Wilds and skips fill the rest of the hand.
    W, S = deck.wilds, deck.skips
    # (key, skips) -> (fewest wilds that make it, or None; how many wilds were tried): a
    # key is met twice only where a vector is read as its smaller mirror image
    min_w_cache: dict[tuple, tuple[int | None, int]] = {}
    skips_matter = lay.need_s > 0 or _blue_skips(phase, rules)
    # Where skips do not matter, the rest of a hand of t naturals (h - t wilds and skips)
    # is weighed at once: rest[need][t], the ways h - t cards are wilds and skips, at least
    # ``need`` of them wilds.
    rest = None
    if not skips_matter:
        tail = _tail(W, S, h)
        rest = [[tail[h - t][need] for t in range(h + 1)] for need in range(h + 2)]
    # where the counts by number decide it (a set and a run), one look at them
    by_counts = (wilds_by_numbers(phase, lay, rules) if cls.by_number and not skips_matter
                 else None)
    # A count vector and its mirror image are dealt alike when the classes and caps read
    # the same backwards too: each pair is judged once and counted twice.
    halve = (cls.mirror and not cls.symmetric and sizes == sizes[::-1]
             and caps == caps[::-1])
    favourable = 0
    done = 0

    def weigh(key: tuple[int, ...], ways: list[int], floors: dict[int, int] | None = None
              ) -> dict[int, int] | None:
        """Add the hands of these capped counts (``ways[t]``: their ways as t naturals)
        that make the phase.  ``floors``: with ``s`` skips, at least ``floors[s]`` wilds
        are needed (known of a hand of more cards); returned for a hand of fewer."""
        nonlocal favourable, done
        done += 1
        if progress and not done % 5_000:
            progress(5_000)
        twice = 1
        if cls.mirror:
            rev = key[::-1]
            if halve:
                if rev < key:
                    return None
                twice = 1 if rev == key else 2
            elif rev < key:
                key = rev
        fewest = 0
        while not ways[fewest]:
            fewest += 1
        # Only as many wilds as the hand has room for matter: few, for most compositions.
        most = min(W, h - fewest)
        got = 0
        known: dict[int, int] = {}
        for s in range(min(S, h - fewest) + 1 if skips_matter else 1):
            if skips_matter:
                largest = h
                while not ways[largest]:
                    largest -= 1
                if h - s - largest > W:
                    continue  # (every such hand would hold more wilds than the deck)
            need, tried = min_w_cache.get((key, s), (None, -1))
            if need is None and tried < most:
                least = tried + 1
                if floors is not None and floors.get(s, 0) > least:
                    least = floors[s]
                if least <= most:
                    need = _min_wilds(lay, key, cls, s, rules, most, least, by_counts)
                tried = most
                min_w_cache[key, s] = (need, most)
            known[s] = need if need is not None else tried + 1
            if need is None:
                continue
            if rest is not None:
                got += sum(map(operator.mul, ways, rest[need]))
                continue
            for t, weight in enumerate(ways):
                w = h - t - s
                if weight and need <= w <= W:
                    got += weight * math.comb(W, w) * math.comb(S, s)
        favourable += twice * got
        return known

    if cls.symmetric:
        # (by multisets of counts: few, each weighed by its arrangements)
        by_key: dict[tuple, dict[int, int]] = {}
        _enumerate_symmetric(sizes, caps, h, comb, by_key)
        for key, totals in by_key.items():
            ways = [0] * (h + 1)
            for t, w in totals.items():
                ways[t] = w
            weigh(key, ways)
    else:
        _capped_deals(sizes, caps, h, comb, weigh, halve)
    frac = Fraction(favourable, math.comb(deck.size, h))
    return Odds(phase, h, "exact", float(frac), fraction=frac)


def too_costly(phase: Phase, cls: _Classes, rules: Rules, cards: int) -> bool:
    if cls.symmetric:
        # counted up to permutation: few for the printed deck (2 sets of 3: 4,000 multisets
        # of counts), not for any deck (31 numbers of 40 cards, 50-card hands: millions)
        n = len(cls.members[0]) * rules.deck.copies
        return _multisets(len(cls.members), n, cards, MAX_MULTISETS) > MAX_MULTISETS
    groups = sum(1 for g in phase.groups if g.kind.needs_natural)
    limit = MAX_COMPOSITIONS if groups <= 2 else MAX_COMPOSITIONS_MANY_GROUPS
    keys = compositions(cls, rules.deck.copies, cards)
    # (each composition is judged once; the deal's ways are kept by card count beside it)
    return keys > limit or keys * (cards + 1) > MAX_DEAL_STATES


def _tail(wilds: int, skips: int, cards: int) -> list[list[int]]:
    """tail[rest][need]: the ways ``rest`` cards are wilds and skips of the deck's, at least
    ``need`` of them wilds (need up to ``cards`` + 1: none)."""
    out = []
    for rest in range(cards + 1):
        by_w = [0] * (cards + 2)
        for s in range(min(skips, rest) + 1):
            w = rest - s
            if w <= wilds:
                by_w[w] = math.comb(wilds, w) * math.comb(skips, s)
        for need in range(cards, -1, -1):
            by_w[need] += by_w[need + 1]
        out.append(by_w)
    return out


def _multisets(classes: int, size: int, cards: int, limit: int) -> int:
    """How many multisets of ``classes`` counts, each at most ``size``, of at most ``cards``
    cards in all, there are (the leaves ``_enumerate_symmetric`` visits), or a number past
    ``limit`` as soon as there are more."""
    # ways[k][t]: the counts chosen so far (largest values first), k of them, t cards
    ways = [[0] * (cards + 1) for _ in range(classes + 1)]
    ways[0][0] = 1
    for v in range(min(size, cards), 0, -1):
        new = [row[:] for row in ways]
        for k in range(classes):
            for t in range(cards - v + 1):
                w = ways[k][t]
                if w:
                    j = 1
                    while k + j <= classes and t + j * v <= cards:
                        new[k + j][t + j * v] += w
                        j += 1
        ways = new
        if sum(map(sum, ways)) > limit:
            return limit + 1
    return sum(map(sum, ways))  # (the counts not chosen are 0)


def _min_wilds(lay, key, cls, skips: int, rules: Rules, most: int, least: int = 0,
               by_counts: Callable[[tuple[int, ...]], int | None] | None = None
               ) -> int | None:
    """Fewest wilds, from ``least`` to ``most``, with which these counts and skips make the
    phase (None: none of those).

    Where the counts by number alone say it (``by_counts``: a set and a run), one look;
    elsewhere each try is one feasibility search, and a hand has room for few wilds, so
    this is cheaper than finding the most naturals the groups could hold.
    """
    if by_counts is not None:
        need = by_counts(key)
        if need is not None:
            return need if least <= need <= most else None
    hand = _hand_for(key, cls, 0, skips, rules)
    for w in range(least, most + 1):
        hand.wilds = w
        if makes(lay, hand, rules):
            return w
    return None


def _enumerate_symmetric(sizes, caps, h, comb, by_key) -> None:
    """Class counts up to permutation (all classes the same size), weighted by arrangements."""
    m, n, cap = len(sizes), sizes[0], caps[0]
    row = comb[n]
    counts: list[int] = []

    def rec(i: int, left: int, top: int) -> None:
        if i == m:
            # distinct arrangements of this multiset of counts over the m classes
            arrangements = math.factorial(m)
            for v in set(counts):
                arrangements //= math.factorial(counts.count(v))
            weight = arrangements
            for c in counts:
                weight *= row[c]
            key = tuple(c if c < cap else cap for c in counts)
            total = sum(counts)
            d = by_key.setdefault(key, {})
            d[total] = d.get(total, 0) + weight
            return
        for c in range(min(top, left, n), -1, -1):
            counts.append(c)
            rec(i + 1, left - c, c)
            counts.pop()

    rec(0, h, n)


# ---------------------------------------------------------------------------- sampled


def _sample_chunk(args) -> int:
    phase, rules, cards, n, seed = args
    lay = layout_for(phase, rules)
    tb = lay.tb
    deck = rules.deck
    # the deck as card codes: a type index, or -1 wild, -2 skip
    codes = [t for t in range(tb.nc * tb.nn) for _ in range(deck.copies)]
    codes += [-1] * deck.wilds + [-2] * deck.skips
    rand = random.Random(seed).random
    size = tb.nc * tb.nn
    hits = 0
    total = len(codes)
    draws = range(cards)
    for _ in range(n):
        cnt = [0] * size
        present = wilds = skips = 0
        # A partial Fisher-Yates shuffle of the deck puts a uniform random hand in
        # front (whatever order the previous hand left the deck in).
        for i in draws:
            j = i + int(rand() * (total - i))
            t = codes[j]
            codes[i], codes[j] = t, codes[i]
            if t >= 0:
                cnt[t] += 1
                present |= 1 << t
            elif t == -1:
                wilds += 1
            else:
                skips += 1
        hand = Hand.counted(cnt, present, wilds, skips, tb)
        if makes(lay, hand, rules):
            hits += 1
    return hits


def _pilot(phase: Phase, rules: Rules, cards: int, seed: int) -> float:
    """Seconds a sampled hand takes here: hands of their own seeds, not counted."""
    start = time.process_time()
    n = 0
    while n < PILOT and time.process_time() - start < PILOT_SECONDS:
        _sample_chunk((phase, rules, cards, 1, _seed(seed, -1 - n)))
        n += 1
    return (time.process_time() - start) / n


def _duration(seconds: float) -> str:
    if seconds < 2 * 3600:
        return f"{seconds / 60:,.0f} minutes"
    if seconds < 3 * 86400:
        return f"{seconds / 3600:,.0f} hours"
    return f"{seconds / 86400:,.0f} days"


def _seed(seed: int, chunk: int) -> int:
    return (seed * 1_000_003 + chunk * 7_919 + 17) & 0xFFFFFFFFFFFF


def sampled_odds(phase: Phase, rules: Rules = DEFAULT_RULES, cards: int | None = None,
                 samples: int = 200_000, seed: int = 1, jobs: int = 1,
                 progress: Callable[[int], None] | None = None) -> Odds:
    """A Monte Carlo estimate with a Wilson 95% interval; the same for any number of jobs
    (the chunks are seeded by their place, not by the process that samples them; 0 jobs:
    one per CPU, at most 8)."""
    from ..system.workers import Pool, resolve_jobs

    jobs = resolve_jobs(jobs)
    h = rules.hand_size if cards is None else cards
    if h > rules.deck.size:
        raise ValueError(f"{h} cards is more than the deck's {rules.deck.size}")
    if samples < 1:
        raise ValueError("samples must be at least 1")
    per_hand = _pilot(phase, rules, h, seed)
    if per_hand * samples / jobs > MAX_SAMPLING_SECONDS:
        took = per_hand * samples / jobs
        fewer = max(1, int(60 * jobs / per_hand))
        raise PhaseDSLError(
            f"sampling {samples:,} hands of {h} cards for {phase} would take about "
            f"{_duration(took)} ({1000 * per_hand:.1f} ms a hand): --samples {fewer:,} takes "
            "about a minute (a rougher figure), or --jobs shares the work")
    chunks = [(phase, rules, h, min(CHUNK, samples - i), _seed(seed, k))
              for k, i in enumerate(range(0, samples, CHUNK))]
    hits = 0
    if jobs > 1 and len(chunks) > 1:
        with Pool(_sample_chunk, min(jobs, len(chunks))) as pool:
            for got, chunk in zip(pool.map(chunks), chunks, strict=True):
                hits += got
                if progress:
                    progress(chunk[3])
    else:
        for chunk in chunks:
            hits += _sample_chunk(chunk)
            if progress:
                progress(chunk[3])
    p = hits / samples
    low, high = wilson(hits, samples)
    return Odds(phase, h, "sampled", p, low=low, high=high, samples=samples, hits=hits)


def wilson(hits: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion."""
    p = hits / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # At 0 or n hits the bound is exactly p in theory, but rounding can put it a hair
    # past p (a lower bound of 5e-17 for an estimate of 0): the interval must contain p.
    return min(p, max(0.0, centre - half)), max(p, min(1.0, centre + half))


def odds(phase: Phase | str, rules: Rules = DEFAULT_RULES, cards: int | None = None, *,
         samples: int = 200_000, seed: int = 1, jobs: int = 1,
         progress: Callable[[int], None] | None = None, exact: bool = True) -> Odds:
    """Exact when the phase allows it, sampled otherwise (``phase`` may be a phrase)."""
    rules = as_rules(rules, "odds")
    phase = as_phase(phase, rules, "odds")
    if cards is not None:
        as_count(cards, "odds(cards=...)", 0, rules.deck.size,
                 "a number of cards the deck holds (or None: the hand size)")
    as_count(samples, "odds(samples=...)", 1)
    as_count(seed, "odds(seed=...)", None)
    as_count(jobs, "odds(jobs=...)", 0, None, "a number of processes (0: one per CPU)")
    if progress is not None and not callable(progress):
        raise ArgumentError("odds(progress=...)", "a function of the hands done, or None",
                            progress)
    if exact:
        got = exact_odds(phase, rules, cards, progress)
        if got is not None:
            return got
    got = sampled_odds(phase, rules, cards, samples, seed, jobs, progress)
    if any(g.kind.is_sum for g in phase.groups):
        return replace(got, note="sampled: whether a hand makes a sum depends on which "
                                 "numbers it holds, not on how many cards of a class")
    cls = _classes_for(phase, rules)
    if exact and cls is not None:
        h = rules.hand_size if cards is None else cards
        if cls.symmetric:
            n = _multisets(len(cls.members), len(cls.members[0]) * rules.deck.copies, h,
                           MAX_MULTISETS)
            what = (f"more than {MAX_MULTISETS:,}" if n > MAX_MULTISETS else f"{n:,}")
        else:
            what = f"{compositions(cls, rules.deck.copies, h):,}"
        got = replace(got, note=f"sampled: an exact count would visit {what} hand compositions")
    return got
