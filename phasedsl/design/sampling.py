"""Sequential sampling: games are played in steps until the figures asked of them are
settled, or a cap is reached, instead of a fixed count for every question.

Game ``i`` of a run is seeded from the run's seed and ``i`` alone (``simulate``), so a
run stopped at 40 games holds exactly the first 40 games of the run that went on to 80:
a figure depends on the seed, the cap and the rule that stopped it, never on the steps
or on how many processes played.

Two rules stop a run:

* ``flags_settled``: every phase has been attempted and no phase is "maybe" easier than
  the one before (each flag is either a parting of the 95% intervals or no flag), or each
  "maybe" left is one the cap cannot settle (stopping for futility: were the shares to
  hold, its intervals would part only past ``FUTILE`` times the cap, so the games up to
  the cap would be played for a "maybe" all the same; the result says the games that
  would settle it, and ``balance --settle`` plays them);
* ``length_settled``: the 95% interval of the hands per game is within
  ``LENGTH_PRECISION`` of the mean either side.

Each rule says when it is first asked and how often after.  (Looking more than once makes
a stopped run's intervals a little less sure than their 95%; the first looks late enough
and the cap keep that small, and every figure says the games it rests on.)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import pairwise

from ..packs.pack import Pack
from .difficulty import games_to_settle, in_play
from .simulate import GameRecord, simulate, summarize

# A game length is settled once its 95% interval is within this share of the mean either
# side (about half a hand at two or three players of ``original``, three quarters at six).
LENGTH_PRECISION = 0.04
# A "maybe" whose intervals would part only past this many times the cap (were the shares
# to hold) is not played for; one projected within it is played on (the projection from
# the games so far is rough, hence the margin).
FUTILE = 2


@dataclass(frozen=True)
class Rule:
    """When a run may stop: ``settled(records)``, asked after ``first`` games and then
    every ``step`` games."""

    settled: Callable[[list[GameRecord]], bool]
    first: int
    step: int


def play_until(pack: Pack, players: int, most: int, seed: int, world: str | None,
               jobs: int, rule: Rule, bot: str = "greedy",
               progress: Callable[[int], None] | None = None) -> list[GameRecord]:
    """Games 0, 1, ... of the run seeded ``seed`` at ``players`` players, until ``rule``
    is settled at a look, or ``most`` games.  ``progress(k)``: k games done."""
    records: list[GameRecord] = []
    while len(records) < most:
        upto = min(most, len(records) + (rule.step if records else rule.first))
        before = len(records)
        records += simulate(pack, players, upto - before, bot, seed, world, jobs,
                            progress=progress and (lambda k, b=before: progress(b + k)),
                            first=before)
        if len(records) < most and rule.settled(records):
            break
    return records


def flags_settled(pack: Pack, world: str | None, players: int, most: int) -> Rule:
    """Every phase attempted in the finished games, and none "maybe" easier than the
    phase before it but one that ``most`` games (the run's cap) would not settle
    (``FUTILE``); first asked at 40 games (half of ``DEFAULT_GAMES``: a flag's absence
    is not judged on fewer), then every 20."""
    def settled(records: list[GameRecord]) -> bool:
        rows = in_play(records, pack, world, players, with_dealt=False)
        if not all(r.attempts for r in rows):
            return False
        for prev, cur in pairwise(rows):
            if cur.easier_than_previous == "maybe":
                needed = games_to_settle(prev, cur, len(records))
                if needed is not None and needed <= FUTILE * most:
                    return False
        return True

    return Rule(settled, 40, 20)


def length_settled(players: int) -> Rule:
    """The hands per game known to ``LENGTH_PRECISION`` of the mean (95%); first asked at
    20 games, then every 10."""
    def settled(records: list[GameRecord]) -> bool:
        h = summarize(records, players)["hands_per_game"]
        if h["n"] < 2:
            return False
        lo, hi = h["ci95"]
        return (hi - lo) / 2 <= LENGTH_PRECISION * h["mean"]

    return Rule(settled, 20, 10)


def both(*rules: Rule) -> Rule:
    """Settled when every one of ``rules`` is; first asked when the last of them is."""
    return Rule(lambda records: all(r.settled(records) for r in rules),
                max(r.first for r in rules), min(r.step for r in rules))
