"""Players of Phase 10 Dice: after each roll, keep some dice and roll again, or score.

- ``best-chance``: the exact policy of ``odds`` that makes the phase most often (it stops
  once the dice make the phase);
- ``best-score``: the exact policy with the most points expected from the turn (a miss is
  0), which may re-roll made dice for more points;
- ``naive``: keeps what already fits (wilds, and the most common number for a phase of
  sets, the longest stretch of numbers for a run, the commonest colour for a colour
  phase) and stops once made.

A bot answers ``keep(game)``: the faces to keep before the next roll, or None to score.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

from ..model.phase import Phase
from ..model.rules import Rules
from .faces import Dice, Face
from .game import DiceGame
from .odds import Solved, Space, advise, solve
from .rolls import colour_matters, judge

BOTS = ("best-chance", "best-score", "naive")


class ExactBot:
    """The exact best holds, by chance or by expected score (tables solved once a phase)."""

    def __init__(self, dice: Dice, objective: str, space: Space | None = None) -> None:
        self.dice, self.objective = dice, objective
        self.space = space or Space(dice)
        self.solved: dict[tuple[Phase, str], Solved] = {}

    def _solved(self, g: DiceGame, objective: str) -> Solved:
        return self.prepare(g.phase, g.rules, objective)

    def prepare(self, phase: Phase, rules: Rules, objective: str | None = None) -> Solved:
        """The tables of ``phase`` (for this bot's goal), solved now if not yet: a game
        that meets a phase not solved waits seconds for it."""
        key = (phase, objective or self.objective)
        if key not in self.solved:
            self.solved[key] = solve(phase, rules, self.dice, key[1], self.space)
        return self.solved[key]

    def keep(self, g: DiceGame) -> tuple[Face, ...] | None:
        left = self.dice.rolls - g.rolls
        if left <= 0:
            return None
        j = judge(g.phase, g.showing, g.rules)
        now = (1 if j.made else 0) if self.objective == "chance" else j.score  # score now
        a = advise(g.phase, g.rules, self.dice, g.showing, left, self.space,
                   lambda obj: self._solved(g, obj), (self.objective,))
        best = a.chance if self.objective == "chance" else a.expected_score
        if Fraction(now) >= best:
            return None
        return a.keep if self.objective == "chance" else a.best_score_keep


class NaiveBot:
    """Keeps what already fits, stops once made."""

    def keep(self, g: DiceGame) -> tuple[Face, ...] | None:
        if g.rolls >= g.dice.rolls or judge(g.phase, g.showing, g.rules).made:
            return None
        wilds = [f for f in g.showing if f.wild]
        naturals = [f for f in g.showing if not f.wild]
        kinds = {grp.kind.value for grp in g.phase.groups}
        if colour_matters(g.phase, g.rules):
            colour = Counter(f.color for f in g.showing).most_common(1)[0][0]
            return tuple(f for f in g.showing if f.color == colour)
        if kinds <= {"run"}:
            numbers = sorted({f.number for f in naturals})
            best: list[int] = []
            run: list[int] = []
            for n in numbers:
                run = [*run, n] if run and n == run[-1] + 1 else [n]
                best = max(best, run, key=len)
            kept = [next(f for f in naturals if f.number == n) for n in best]
            return tuple(kept + wilds)
        sets = sum(p.count for p in g.phase.parts if p.group.kind.value == "set") or 1
        common = [n for n, _ in Counter(f.number for f in naturals).most_common(sets)]
        return tuple([f for f in naturals if f.number in common] + wilds)


def make_bot(name: str, dice: Dice, space: Space | None = None):
    if name == "best-chance":
        return ExactBot(dice, "chance", space)
    if name == "best-score":
        return ExactBot(dice, "score", space)
    if name == "naive":
        return NaiveBot()
    raise ValueError(f"no dice bot {name!r}: the bots are {', '.join(BOTS)}")
