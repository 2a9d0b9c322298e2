"""Closed forms for the two-group phases most of real play is: two sets, a set and a run.

Plain sets and plain runs compete for cards number by number only, so the best
choice of classes for two of them can be read off the hand's counts per
number, with no search:

* two sets: the two most-held numbers (the larger set on the larger count), or,
  when sets may share a number, both on the most-held one;
* a set and a run: each number for the set against each window for the run,
  where the only interaction is the set's number inside the run's window (the
  run then takes one of those cards, or leaves them all to the set).

Each function returns, per group in the layout's order, its class and the
naturals it takes ({card type: count}) as a Plan, or None when the phase is
not made.
They answer exactly what the general search answers; only the meld reported
among several may differ.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from operator import itemgetter

from .classes import Class, Plan
from .handcounts import Hand


def _of_number(ni: int, k: int, cnt: Sequence[int], nn: int, skip: dict | None = None) -> dict:
    """k cards showing number index ni, first colors first (less any already in ``skip``)."""
    got: dict[int, int] = {}
    for t in range(ni, len(cnt), nn):
        if not k:
            break
        have = cnt[t] - (skip.get(t, 0) if skip else 0)
        if have > 0:
            take = have if have < k else k
            got[t] = take
            k -= take
    return got


def two_sets(classes: Sequence[Sequence[Class]], sizes: Sequence[int], lower: Sequence[int],
             total: int, floor: int, distinct: bool, flip: bool, hand: Hand) -> list[Plan] | None:
    """Two plain sets, the first at least as large as the second (``flip``: the second
    is written first)."""
    need = hand.to_place(total, floor)
    if hand.nat < need:
        return None
    by_num = hand.by_num if hand.by_num is not None else hand._by_num()
    s0, s1 = sizes
    l0, l1 = lower
    top = sorted(by_num)
    ca, cb = top[-1], top[-2] if len(top) > 1 else -1  # the two largest counts
    x0 = ca if ca < s0 else s0
    x1 = cb if cb < s1 else s1
    apart = x0 + x1 >= need and x0 >= l0 and x1 >= l1
    both = ca if ca < s0 + s1 else s0 + s1
    if not apart and (distinct or both < need or ca < l0 + l1):
        return None
    a = by_num.index(ca)  # lowest numbers first on ties
    cnt, nn = hand.cnt, hand.nn
    if apart:
        b = by_num.index(cb, a + 1) if cb == ca else by_num.index(cb)
        out = [Plan(classes[0][a], _of_number(a, x0, cnt, nn)),
               Plan(classes[1][b], _of_number(b, x1, cnt, nn))]
    else:
        # both sets on the one number: the first as full as the second's minimum allows
        x0 = min(s0, both - l1)
        first = _of_number(a, x0, cnt, nn)
        out = [Plan(classes[0][a], first),
               Plan(classes[1][a], _of_number(a, both - x0, cnt, nn, first))]
    return out[::-1] if flip else out


def set_and_run(classes: Sequence[Sequence[Class]], sizes: Sequence[int], lower: Sequence[int],
                total: int, floor: int, table: WindowCaps, si: int,
                hand: Hand) -> list[Plan] | None:
    """A plain set and a plain run (whose windows' capacities ``table`` gives); the
    set is group ``si`` of the two as written."""
    need = hand.to_place(total, floor)
    if hand.nat < need:
        return None
    ri = 1 - si
    a, ls, lr = sizes[si], lower[si], lower[ri]
    by_num = hand.by_num if hand.by_num is not None else hand._by_num()
    ranked = table[hand.number_bits()]
    best = ranked[0][0]
    top = max(by_num)
    if (top if top < a else a) + best < need:
        return None
    for s, c in enumerate(by_num):
        v = c if c < a else a
        if v + best < need or c < ls:
            continue
        sbit = 1 << s
        for cw, k, wb in ranked:
            if v + cw < need:
                break
            run_takes_s = True
            if not c or not wb & sbit:
                if cw < lr:
                    continue
                x = v
            elif c > a:  # enough of s for both: the run takes one, the set the rest
                if cw < lr:
                    continue
                x = a
            else:
                # the run takes one of s (and the set one fewer) or none of them:
                # the same total, but only one split may meet both minimums
                if c + cw - 1 < need:
                    continue
                if c >= ls and cw - 1 >= lr:
                    x, run_takes_s = c, False
                elif c - 1 >= ls and cw >= lr:
                    x = c - 1
                else:
                    continue
            return _set_run_plans(classes, si, s, x, k, run_takes_s, hand)
    return None


def _set_run_plans(classes, si: int, s: int, x: int, k: int, run_takes_s: bool,
                   hand: Hand) -> list[Plan]:
    cnt, nn = hand.cnt, hand.nn
    set_takes = _of_number(s, x, cnt, nn)
    run = classes[1 - si][k]
    run_takes: dict[int, int] = {}
    for ni in run.window:  # the first color holding each number (set_takes holds only s)
        if ni != s:
            for t in range(ni, len(cnt), nn):
                if cnt[t]:
                    run_takes[t] = 1
                    break
        elif run_takes_s:
            run_takes.update(_of_number(ni, 1, cnt, nn, set_takes))
    out = [Plan(classes[si][s], set_takes), Plan(run, run_takes)]
    return out if si == 0 else out[::-1]


@lru_cache(maxsize=32)
def window_table(windows: tuple[int, ...]) -> WindowCaps:
    """One table per set of windows, shared by every phase with such a run."""
    return WindowCaps(windows)


_held = itemgetter(0)


class WindowCaps(dict):
    """For the numbers a hand holds (bits): each window as (how many of them it holds,
    its index, its bits), most first.

    Filled on demand, and bounded: a long deck has too many number sets to table."""

    def __init__(self, windows: tuple[int, ...]) -> None:
        super().__init__()
        self.windows = windows

    def __missing__(self, nums: int) -> list[tuple[int, int, int]]:
        # most held first; a stable sort keeps the lower windows first among equals
        ranked = sorted([((nums & wb).bit_count(), k, wb) for k, wb in enumerate(self.windows)],
                        key=_held, reverse=True)
        if len(self) < 1 << 12:
            self[nums] = ranked
        return ranked
