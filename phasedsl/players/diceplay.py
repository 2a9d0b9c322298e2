"""A person playing Phase 10 Dice in the terminal against bots, one command a line.

After each roll the person types ``keep FACES`` (keep those dice and roll the others;
``keep`` alone rolls them all again), ``score`` (end the turn), ``hint`` (the exact best
keep, by chance and by expected score) or ``quit``.  The game is the dice layer's
(``DiceGame``); every move goes to ``log`` as a line of the dice log.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Sequence

from ..dice import (
    DiceGame,
    Keep,
    Roll,
    Space,
    advise,
    apply,
    colour_matters,
    move_to_json,
    parse_kept,
    score_move,
)
from ..errors import PhaseDSLError
from .botspec import DEFAULT_TIMEOUT, dice_bot
from .extbot import ExternalBot, Forfeit

HELP = ("commands: keep FACES (keep those dice, roll the others; 'keep' alone rolls all "
        "again), score (end the turn), hint (the best keep), quit")


def _faces(faces) -> str:
    return " ".join(str(f) for f in sorted(faces))


def play_dice(pack, world: str | None, me: str, others: Sequence[str], bot: str, seed: int,
              read: Callable[[str], str | None], write: Callable[[str], None],
              log: Callable[[list[str]], None], header: dict,
              timeout: float = DEFAULT_TIMEOUT) -> bool:
    """Play to the end; False when the person quits (or input ends)."""
    space = Space(pack.dice)
    bots = {n: dice_bot(bot, pack.dice, space, timeout) for n in others}
    try:
        return _play(pack, world, me, others, bots, seed, read, write, log, header, space)
    finally:
        for b in bots.values():
            if isinstance(b, ExternalBot):
                b.close()


def _play(pack, world, me, others, bots, seed, read, write, log, header, space) -> bool:
    w = pack.world(world)
    g = DiceGame.new(pack.dice, w.rules, [e.phase for e in w.played], [me, *others])
    rng = random.Random(seed)
    log([json.dumps(header)])
    write(f"{pack.title}: {', '.join(g.players)}; {pack.dice.describe()}; "
          f"{pack.dice.rolls} rolls a turn")

    def step(move) -> None:
        nonlocal g
        g = apply(g, move)
        log([json.dumps(move_to_json(move))])

    while True:
        while g.owed:
            b = g.owed[0]
            step(b)
            write(f"  {b.player}: +{b.points} ({b.kind.replace('_', '-')} bonus)")
        if g.over:
            break
        player = g.player
        number = g.place[g.turn] + 1
        write(f"{player}, phase {number}: {g.phase}  (total {g.totals[g.turn]})")
        step(Roll(player, pack.dice.roll((), rng)))
        if player == me:
            if not _turn(me, read, write, step, space, pack, rng, lambda: g):
                return False
        else:
            try:
                while (keep := bots[player].keep(g)) is not None:
                    step(Keep(player, tuple(keep)))
                    write(f"  rolls {_faces(g.showing)}; keeps {_faces(keep) or 'nothing'}")
                    step(Roll(player, pack.dice.roll(keep, rng)))
            except Forfeit as e:
                write(f"  {player} forfeits the game: {e}")
                return True
        s = score_move(g)
        write(f"  {player} shows {_faces(g.showing)}: "
              + (f"made phase {s.phase}, +{s.points}" if s.made else
                 f"missed phase {s.phase}" + (f", {s.points}" if s.points else "")))
        step(s)
    totals = ", ".join(f"{p} {t}" for p, t in zip(g.players, g.totals, strict=True))
    write(f"game over: {totals}; {' and '.join(g.winners())} win"
          + ("s" if len(g.winners()) == 1 else ""))
    return True


def _turn(me, read, write, step, space, pack, rng, now) -> bool:
    """The person's turn after its first roll; False when they quit."""
    while True:
        g = now()
        left = pack.dice.rolls - g.rolls
        write(f"  roll {g.rolls} of {pack.dice.rolls}: {_faces(g.showing)}")
        if left == 0:
            return True
        while True:
            line = read(f"{me}> ")
            if line is None:
                return False
            words = line.split()
            if not words:
                continue
            verb = words[0].lower()
            if verb == "quit":
                return False
            if verb in ("help", "?"):
                write(HELP)
                continue
            if verb in ("score", "stop"):
                return True
            if verb == "hint":
                a = advise(g.phase, g.rules, pack.dice, g.showing, left, space)
                write(f"  best chance: keep {_faces(a.keep) or 'nothing'} "
                      f"({100 * float(a.chance):.2f}% to make it by the last roll); "
                      f"best score: keep {_faces(a.best_score_keep) or 'nothing'} "
                      f"({float(a.expected_score):.2f} expected)")
                continue
            if verb != "keep":
                write(f"  ? {HELP}")
                continue
            try:
                # (a bare 8 or W is read among the dice showing, not every face of the dice)
                keep = parse_kept(words[1:], g.rules.deck, g.showing,
                                  colour_free=not colour_matters(g.phase, g.rules))
            except PhaseDSLError as e:
                write(f"  ? {e}")
                continue
            extra = Counter(keep) - Counter(g.showing)
            if extra:
                write(f"  ? not showing: {_faces(extra.elements())}")
                continue
            step(Keep(me, tuple(keep)))
            step(Roll(me, pack.dice.roll(keep, rng)))
            break
