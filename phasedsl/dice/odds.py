"""Exact chances of Phase 10 Dice with the best holds: a finite decision process over the
faces showing.

A state is, for each kind of identical dice, how many of them show each face (dice of a
kind are interchangeable, so 462 x 126 states for the printed dice's six high and four low
dice).  With no re-roll left, a state is worth 1 where its dice make the phase (or, for
the score objective, the best score they make).  With k re-rolls left, the player keeps
the sub-multiset K of the dice showing worth the most, where a kept K is worth the
expectation of the state after the rest are rolled (worked out one die at a time over
every partial state, then the best K below each state by a running maximum).  The
chance with r rolls is the expectation of the first roll's state with r - 1 re-rolls
left.  Everything is integer arithmetic on values scaled by the dice's outcomes, so every
chance is an exact fraction.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from itertools import combinations_with_replacement
from math import comb, prod

from ..errors import ArgumentError, PhaseDSLError
from ..model.phase import Phase
from ..model.rules import Rules
from .faces import Dice, Face
from .rolls import makes_sorted, roll_makes

# Partial states above which the exact table is refused (a pack of many dice and faces).
MOST_STATES = 600_000


class TooManyStates(PhaseDSLError):
    """Dice with too many states for the exact tables."""


def _multisets(m: int, most: int) -> list[tuple[int, ...]]:
    """Every way to show ``m`` faces on at most ``most`` dice, as counts, by size."""
    out = []
    for size in range(most + 1):
        for combo in combinations_with_replacement(range(m), size):
            counts = [0] * m
            for i in combo:
                counts[i] += 1
            out.append(tuple(counts))
    return out


@dataclass
class Space:
    """The partial states of a set of dice, indexed; adding and removing one die."""

    dice: Dice
    faces: list[list[Face]] = field(init=False)  # each kind's distinct faces
    weights: list[list[int]] = field(init=False)  # how many sides show each
    sides: list[int] = field(init=False)

    def __post_init__(self) -> None:
        # (the states are counted before any is built: a pack of many dice is refused fast)
        size = prod(comb(len(set(k.faces)) + k.count, k.count) for k in self.dice.kinds)
        if size > MOST_STATES:
            raise TooManyStates(f"these dice ({self.dice.describe()}) have {size:,} states of "
                                f"dice kept: the exact tables stop at {MOST_STATES:,}")
        self.faces, self.weights, self.sides = [], [], []
        for k in self.dice.kinds:
            distinct = sorted(set(k.faces))
            self.faces.append(distinct)
            self.weights.append([k.faces.count(f) for f in distinct])
            self.sides.append(len(k.faces))
        self.per_kind = [_multisets(len(fs), k.count)
                         for fs, k in zip(self.faces, self.dice.kinds, strict=True)]
        self.index_of = [{ms: i for i, ms in enumerate(mss)} for mss in self.per_kind]
        self.radix = [len(mss) for mss in self.per_kind]
        self.size = prod(self.radix)
        # state index = mixed radix over the kinds (the last kind varies fastest)
        self.stride = [prod(self.radix[i + 1:]) for i in range(len(self.radix))]

    def states(self) -> range:
        return range(self.size)

    @cached_property
    def parts(self) -> list[tuple[int, ...]]:
        """Each state's index per kind."""
        return [self.parts_of(s) for s in range(self.size)]

    @cached_property
    def count(self) -> list[int]:
        """Dice showing in each state."""
        sizes = [[sum(ms) for ms in mss] for mss in self.per_kind]
        return [sum(sizes[k][p] for k, p in enumerate(parts)) for parts in self.parts]

    @cached_property
    def full(self) -> list[int]:
        n = self.dice.count
        return [s for s in self.states() if self.count[s] == n]

    def parts_of(self, s: int) -> tuple[int, ...]:
        return tuple((s // st) % r for st, r in zip(self.stride, self.radix, strict=True))

    def fewer(self, s: int) -> list[int]:
        """The states with one die fewer than ``s`` (one per distinct face showing)."""
        less = []
        for k, p in enumerate(self.parts_of(s)):
            ms = self.per_kind[k][p]
            for fi, c in enumerate(ms):
                if c:
                    shrunk = list(ms)
                    shrunk[fi] -= 1
                    less.append(s + (self.index_of[k][tuple(shrunk)] - p) * self.stride[k])
        return less

    def faces_of(self, s: int) -> tuple[Face, ...]:
        out: list[Face] = []
        for k, p in enumerate(self.parts_of(s)):
            for f, c in zip(self.faces[k], self.per_kind[k][p], strict=True):
                out += [f] * c
        return tuple(sorted(out))

    @cached_property
    def add(self) -> list[tuple[int, list[tuple[int, int]]] | None]:
        """For a state not full: the kind the next die is of (the first not full) and, for
        each face of it, (its weight, the state with it added)."""
        out: list[tuple[int, list[tuple[int, int]]] | None] = []
        for s in self.states():
            parts = self.parts[s]
            nxt = None
            for k, p in enumerate(parts):
                ms = self.per_kind[k][p]
                if sum(ms) < self.dice.kinds[k].count:
                    moves = []
                    for fi, w in enumerate(self.weights[k]):
                        grown = list(ms)
                        grown[fi] += 1
                        moves.append((w, s + (self.index_of[k][tuple(grown)] - p) * self.stride[k]))
                    nxt = (k, moves)
                    break
            out.append(nxt)
        return out

    @cached_property
    def remove(self) -> list[list[int]]:
        """For each state, the states with one die fewer (one per distinct face showing)."""
        return [self.fewer(s) for s in self.states()]

    @cached_property
    def held_scale(self) -> list[int]:
        """The product of the sides of the dice a state holds."""
        out = []
        for parts in self.parts:
            out.append(prod(self.sides[k] ** sum(self.per_kind[k][p])
                            for k, p in enumerate(parts)))
        return out

    @cached_property
    def order_down(self) -> list[int]:
        return sorted(self.states(), key=lambda s: -self.count[s])

    @cached_property
    def order_up(self) -> list[int]:
        return sorted(self.states(), key=lambda s: self.count[s])

    @property
    def outcomes(self) -> int:
        """Equally likely outcomes of a roll of every die (the scale of one roll)."""
        return prod(s ** k.count for s, k in zip(self.sides, self.dice.kinds, strict=True))


def expect(space: Space, value: list[int | None]) -> list[int]:
    """For every partial state K: the expectation of ``value`` (given on full states)
    after the missing dice are rolled, times the outcomes of a whole roll (an integer)."""
    u = list(value)
    for s in space.order_down:
        nxt = space.add[s]
        if nxt is None:
            continue
        u[s] = sum(w * u[t] for w, t in nxt[1])
    scale = space.held_scale
    return [u[s] * scale[s] for s in space.states()]


def best_below(space: Space, worth: list[int]) -> list[int]:
    """For every state, the most any sub-multiset of it (itself too) is worth."""
    best = list(worth)
    for s in space.order_up:
        for t in space.remove[s]:
            if best[t] > best[s]:
                best[s] = best[t]
    return best


def terminal(space: Space, phase: Phase, rules: Rules, objective: str) -> list[int | None]:
    """Each full state's worth with no re-roll left: 1 or 0 (made), or the best score
    (0 where not made); None on the other states."""
    n = phase.cards_needed
    worth: list[int | None] = [None] * space.size
    if n > space.dice.count:
        for s in space.full:
            worth[s] = 0
        return worth
    # the best score of a state = the most among its sub-multisets of exactly n dice that
    # make the phase (-1: none does), by a running maximum from size n up
    best = [-1] * space.size
    for s in space.order_up:
        c = space.count[s]
        if c < n:
            continue
        if c == n:
            faces = space.faces_of(s)
            if makes_sorted(phase, faces, rules):
                best[s] = sum(f.points() for f in faces)
            continue
        for t in space.remove[s]:
            if best[t] > best[s]:
                best[s] = best[t]
    for s in space.full:
        if objective == "chance":
            worth[s] = 1 if best[s] >= 0 else 0
        else:
            worth[s] = max(best[s], 0)
    return worth


@dataclass(frozen=True)
class Table:
    """A phase's exact figures: the chance with 1..rolls rolls (best holds), the best
    expected score of a turn, and per re-roll level the worth of every state (for hold
    advice)."""

    phase: Phase
    by_rolls: tuple[Fraction, ...]
    expected_score: Fraction
    best_roll: int = 0  # the most a roll scores for this phase

    @property
    def chance(self) -> Fraction:
        return self.by_rolls[-1]

    @property
    def expected_turns(self) -> Fraction | None:
        """Turns to make it, on average, trying every turn (geometric)."""
        return 1 / self.chance if self.chance else None

    def to_json(self, index: int | None = None) -> dict:
        return {"index": index, "phase": str(self.phase), "exact": _frac(self.chance),
                "decimal": float(self.chance),
                "by_rolls": {str(i + 1): _frac(p) for i, p in enumerate(self.by_rolls)},
                "expected_turns": None if self.expected_turns is None else float(self.expected_turns),
                "expected_score": float(self.expected_score),
                "expected_score_exact": _frac(self.expected_score),
                "best_roll": self.best_roll}


def _frac(x: Fraction) -> str:
    return f"{x.numerator}/{x.denominator}"


class Solved:
    """The decision process of one phase and goal (``chance`` or ``score``): the chance
    (or expected score) with 1..rolls rolls, the best a single roll can be worth, and for
    each re-roll count the worth of every kept partial state (for hold advice)."""

    def __init__(self, by_rolls: list[Fraction], best: int, keep: list[list[int]]) -> None:
        self.by_rolls, self.best, self.keep = by_rolls, best, keep

    @classmethod
    def work_out(cls, space: Space, phase: Phase, rules: Rules, objective: str) -> Solved:
        worth = terminal(space, phase, rules, objective)
        best = max((w for w in worth if w is not None), default=0)
        d = space.outcomes
        keep: list[list[int]] = []
        by_rolls: list[Fraction] = []
        for k in range(space.dice.rolls):
            # u[K]: the worth of keeping K with k re-rolls after the one to come, scaled by
            # d ** (k + 1)
            u = expect(space, worth)
            by_rolls.append(Fraction(u[0], d ** (k + 1)))
            if k + 1 < space.dice.rolls:
                keep.append(u)
                below = best_below(space, u)
                worth = [below[s] if space.count[s] == space.dice.count else None
                         for s in space.states()]
        return cls(by_rolls, best, keep)

    def keep_worth(self, rolls_left: int) -> list[int]:
        """Each partial state's worth when kept with ``rolls_left`` re-rolls to come,
        scaled by outcomes ** rolls_left."""
        return self.keep[rolls_left - 1]


def solve(phase: Phase, rules: Rules, dice: Dice, objective: str = "chance",
          space: Space | None = None) -> Solved:
    """The phase's tables, from the cache on disk when they were worked out before."""
    from . import tablecache

    space = space or Space(dice)
    k = tablecache.key(dice, phase, rules, objective)
    kept = tablecache.load(k, space.size, dice.rolls - 1)
    if kept is not None:
        return Solved(*kept)
    solved = Solved.work_out(space, phase, rules, objective)
    tablecache.store(k, solved.by_rolls, solved.best, solved.keep)
    return solved


def table(phase: Phase, rules: Rules, dice: Dice, space: Space | None = None) -> Table:
    space = space or Space(dice)
    chance = solve(phase, rules, dice, "chance", space)
    score = solve(phase, rules, dice, "score", space)
    return Table(phase, tuple(chance.by_rolls), score.by_rolls[-1], score.best)


@dataclass(frozen=True)
class Advice:
    """What to keep before a re-roll: the keep with the best chance (ties), and the keep
    with the best expected score."""

    keep: tuple[Face, ...]
    chance: Fraction
    ties: tuple[tuple[Face, ...], ...]
    best_score_keep: tuple[Face, ...]
    expected_score: Fraction

    def to_json(self) -> dict:
        return {"keep": [str(f) for f in self.keep], "chance": _frac(self.chance),
                "decimal": float(self.chance),
                "ties": [[str(f) for f in t] for t in self.ties],
                "best_score_keep": [str(f) for f in self.best_score_keep],
                "expected_score": float(self.expected_score),
                "expected_score_exact": _frac(self.expected_score)}


def advise(phase: Phase, rules: Rules, dice: Dice, showing: Sequence[Face], rolls_left: int,
           space: Space | None = None,
           solved: Callable[[str], Solved] | None = None,
           objectives: Sequence[str] = ("chance", "score")) -> Advice:
    """The keeps of ``showing`` (every die's face) with ``rolls_left`` re-rolls allowed
    (``objectives``: the chance's keep, the score's, or both; one left out is empty)."""
    if not isinstance(rolls_left, int) or isinstance(rolls_left, bool):
        # (a "1" from a form or a command line would be compared with a number below)
        raise ArgumentError("advise(rolls_left=...)", "a whole number of re-rolls", rolls_left)
    space = space or Space(dice)
    state = state_of(space, showing)
    if not 1 <= rolls_left < dice.rolls:
        raise ValueError(f"rolls left: 1 to {dice.rolls - 1}, not {rolls_left}")
    get = solved or (lambda obj: solve(phase, rules, dice, obj, space))
    scale = space.outcomes ** rolls_left
    out = {}
    for obj in objectives:
        worth = get(obj).keep_worth(rolls_left)
        subs = _subs(space, state)
        top = max(worth[t] for t in subs)
        tops = [t for t in subs if worth[t] == top]
        # the fewest dice that do as well: a keep that holds another as good is not named
        within = set(tops)
        least = [t for t in tops if not any(r in within for r in _subs(space, t) if r != t)]
        best = sorted((space.faces_of(t) for t in least), key=lambda f: (len(f), f))
        out[obj] = (best, Fraction(top, scale))
    (ties, chance) = out.get("chance", ([()], Fraction(0)))
    (score_keeps, score) = out.get("score", ([()], Fraction(0)))
    return Advice(ties[0], chance, tuple(ties[1:]), score_keeps[0], score)


def _subs(space: Space, state: int) -> list[int]:
    seen, todo = {state}, [state]
    while todo:
        s = todo.pop()
        for t in space.fewer(s):
            if t not in seen:
                seen.add(t)
                todo.append(t)
    return sorted(seen)


def state_of(space: Space, faces: Sequence[Face]) -> int:
    """The full state showing these faces (each face put on a kind of die that shows it;
    where kinds share a face, the first with room)."""
    if len(faces) != space.dice.count:
        raise ValueError(f"{len(faces)} faces: every one of the {space.dice.count} dice shows one")
    counts = [[0] * len(fs) for fs in space.faces]
    room = [k.count for k in space.dice.kinds]
    for f in sorted(faces, key=lambda f: len(space.dice.kind_of(f))):
        for k in space.dice.kind_of(f):
            if room[k]:
                counts[k][space.faces[k].index(f)] += 1
                room[k] -= 1
                break
        else:
            raise ValueError(f"{f}: no die left that shows it")
    return sum(space.index_of[k][tuple(c)] * space.stride[k] for k, c in enumerate(counts))


SAMPLED_ROLLS = 4_000


def unmakeable(phase: Phase, rules: Rules, dice: Dice) -> str | None:
    """Why no roll of these dice makes the phase, or None when some roll does (found among
    seeded rolls, else by trying every roll)."""
    import random

    need = phase.cards_needed
    if need > dice.count:
        return f"it needs {need} dice, and there are {dice.count}"
    rng = random.Random(f"phasedsl-dice-lint:{phase}")
    for _ in range(SAMPLED_ROLLS):
        roll = [rng.choice(k.faces) for k in dice.kinds for _ in range(k.count)]
        if roll_makes(phase, roll, rules):
            return None
    try:
        space = Space(dice)
    except TooManyStates:
        return None  # (not proved either way: no error is said)
    # (every roll holds some sub-multiset of exactly the dice needed: those are fewer)
    if any(makes_sorted(phase, space.faces_of(s), rules)
           for s in space.states() if space.count[s] == need):
        return None
    return f"every roll of {dice.describe()} was tried"
