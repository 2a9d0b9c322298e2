"""An independent brute-force reference for the `dice` cases: no solver, no decision
process, only the rules of a group written out and every choice tried.

A roll makes a phase when its dice can be dealt into the phase's groups, each exactly its
size: every way of choosing each group's dice is tried.  A group of naturals and wilds is
legal when (sets) its naturals share one number, (runs) its naturals are distinct numbers
that fit in one stretch of its length within the deck's numbers, (colour groups, colour
runs, colour sets) its naturals share one colour and every wild is of that colour (wilds
alone: one colour among them), with at least the rules' natural minimum of naturals.  The
score is the sum of the naturals used (a wild 0), the most among the ways that make it.
A hold's chance is found by trying every subset of the dice (by position) as the keep and
every face of every die rolled, with the same choice again before each later roll.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import cache
from itertools import combinations, product

# A face: (number or None for a wild, colour letter).
Face = tuple[int | None, str]
KINDS = ("set", "run", "color", "color_run", "color_set")


def group_ok(kind: str, size: int, faces: Sequence[Face], low: int, high: int,
             natural_minimum: int) -> bool:
    if len(faces) != size:
        return False
    naturals = [f for f in faces if f[0] is not None]
    if len(naturals) < natural_minimum:
        return False
    if kind in ("color", "color_run", "color_set"):
        colours = {f[1] for f in faces}
        if len(colours) > 1:
            return False
    if kind in ("set", "color_set"):
        return len({n for n, _ in naturals}) <= 1
    if kind in ("run", "color_run"):
        numbers = [n for n, _ in naturals]
        if len(set(numbers)) != len(numbers):
            return False
        if not numbers:
            return size <= high - low + 1
        return any(all(start <= n < start + size for n in numbers)
                   for start in range(low, high - size + 2))
    return True  # color: one colour, numbers free


def best_score(groups: Sequence[tuple[str, int]], faces: Sequence[Face], low: int, high: int,
               natural_minimum: int) -> int | None:
    """The most the roll scores making these groups (each exactly its size), or None."""
    best: int | None = None

    def place(g: int, left: tuple[int, ...], total: int) -> None:
        nonlocal best
        if g == len(groups):
            if best is None or total > best:
                best = total
            return
        kind, size = groups[g]
        for chosen in combinations(left, size):
            dice = [faces[i] for i in chosen]
            if group_ok(kind, size, dice, low, high, natural_minimum):
                rest = tuple(i for i in left if i not in chosen)
                place(g + 1, rest, total + sum(n for n, _ in dice if n is not None))

    place(0, tuple(range(len(faces))), 0)
    return best


def hold_chance(groups: Sequence[tuple[str, int]], sides: Sequence[Sequence[Face]],
                showing: Sequence[Face], rolls_left: int, low: int, high: int,
                natural_minimum: int) -> Fraction:
    """The best chance of making the groups by the last roll, from the faces showing with
    ``rolls_left`` re-rolls (``sides``: each die's faces, in the order of ``showing``)."""
    @cache
    def made(faces: tuple[Face, ...]) -> int:
        return 0 if best_score(groups, faces, low, high, natural_minimum) is None else 1

    @cache
    def value(faces: tuple[Face, ...], left: int) -> Fraction:
        if left == 0:
            return Fraction(made(faces))
        top = Fraction(0)
        for keep in product((True, False), repeat=len(faces)):
            outcomes = list(product(*[[f] if k else s for f, k, s in
                                      zip(faces, keep, sides, strict=True)]))
            got = sum((value(tuple(o), left - 1) for o in outcomes), Fraction(0)) / len(outcomes)
            top = max(top, got)
        return top

    return value(tuple(showing), rolls_left)


def confirm_dice(phase_groups: Sequence[tuple[str, int]], inp: dict, expected: dict, low: int,
                 high: int, natural_minimum: int) -> str | None:
    """Why the reference disagrees with a `dice` case's expected answer, or None."""
    def face(t: str) -> Face:
        return (None, t[1]) if t[0] == "W" else (int(t[1:]), t[0])

    if any(k not in KINDS for k, _ in phase_groups):
        return f"a group kind the reference does not know: {phase_groups}"
    faces = [face(t) for t in inp["faces"]]
    if inp.get("rolls_left") is None:
        best = best_score(phase_groups, faces, low, high, natural_minimum)
        got = {"made": best is not None, "score": best or 0}
    else:
        sides = [[face(t) for t in k["faces"]] for k in inp["dice"]["dice"]
                 for _ in range(k["count"])]
        chance = hold_chance(phase_groups, sides, faces, inp["rolls_left"], low, high,
                             natural_minimum)
        got = {"chance": f"{chance.numerator}/{chance.denominator}"}
    return None if got == expected else f"reference {got}, answer {expected}"
