"""Seeded games of Phase 10 Dice between bots, and what they say about a dice pack.

Game ``i`` of a run is rolled from the run's seed and ``i`` alone (as ``simulate``'s card
games are dealt), so a game is played again from its seed and its figures do not depend
on ``--jobs``.  Each turn: roll every die, then while the bot keeps some dice, roll the
others, up to the pack's rolls; then score (``dice.game.score_move``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..dice.game import Bonus, DiceGame, Keep, Move, Roll, Score, apply, score_move
from ..dice.odds import Space
from ..packs.pack import Pack
from ..players.botspec import dice_bot
from ..players.extbot import DEFAULT_TIMEOUT, ExternalBot, Forfeit
from .odds import wilson
from .simulate import describe_values

MAX_TURNS = 10_000  # a game of phases no roll makes stops here (said, not counted)


def dice_seed(seed: int, index: int) -> int:
    return random.Random(f"phasedsl-dice:{seed}:{index}").getrandbits(48)


@dataclass(frozen=True)
class DiceRecord:
    """One game: its moves, the final state, the turns it took, whether it was stopped
    (the turn cap, or a program's forfeit: {"player", "reason", "message"})."""

    index: int
    seed: int
    moves: tuple[Move, ...]
    final: DiceGame
    turns: int
    capped: bool
    forfeit: dict | None = None


def play_game(pack: Pack, players: Sequence[str], bots: Sequence[str], seed: int,
              index: int = 0, world: str | None = None, space: Space | None = None,
              cache: dict | None = None, timeout: float = DEFAULT_TIMEOUT) -> DiceRecord:
    """Play one game; ``cache`` keeps the built-in bots (and their solved tables) between
    games; a ``cmd:`` bot is a program started for its seat and game."""
    cache = cache if cache is not None else {}
    agents = [dice_bot(b, pack.dice, space, timeout) if b.startswith("cmd:") else
              cache.setdefault(b, dice_bot(b, pack.dice, space, timeout)) for b in bots]
    try:
        return _played(pack, players, agents, seed, index, world)
    finally:
        for a in agents:
            if isinstance(a, ExternalBot):
                a.close()


def _played(pack: Pack, players: Sequence[str], agents: list, seed: int, index: int,
            world: str | None) -> DiceRecord:
    w = pack.world(world)
    g = DiceGame.new(pack.dice, w.rules, [e.phase for e in w.played], players)
    s = dice_seed(seed, index)
    rng = random.Random(s)
    moves: list[Move] = []

    def step(m: Move) -> None:
        nonlocal g
        moves.append(m)
        g = apply(g, m)

    turns = 0
    while not g.over and turns < MAX_TURNS:
        while g.owed:
            step(g.owed[0])
        if g.over:
            break
        bot = agents[g.turn]
        step(Roll(g.player, pack.dice.roll((), rng)))
        try:
            while (keep := bot.keep(g)) is not None:
                step(Keep(g.player, tuple(keep)))
                step(Roll(g.player, pack.dice.roll(keep, rng)))
        except Forfeit as e:  # (a program's failure ends its game, the moves before kept)
            return DiceRecord(index, s, tuple(moves), g, turns, False,
                              {"player": g.player, "reason": e.reason, "message": e.message})
        step(score_move(g))
        turns += 1
    while g.owed:
        step(g.owed[0])
    for a in agents:
        if isinstance(a, ExternalBot):
            a.finish({"winner": list(g.winners()) if g.over else None, "forfeit": None,
                      "scores": dict(zip(g.players, g.totals, strict=True))})
    return DiceRecord(index, s, tuple(moves), g, turns, not g.over)


def simulate_dice(pack: Pack, players: int, games: int, bot: str = "best-chance", seed: int = 0,
                  world: str | None = None,
                  progress: Callable[[int], None] | None = None,
                  timeout: float = DEFAULT_TIMEOUT,
                  each: Callable[[DiceRecord], None] | None = None,
                  preparing: Callable[[int, int], None] | None = None) -> list[DiceRecord]:
    """``games`` seeded games of ``players`` copies of ``bot``; ``each`` sees every game
    as it ends (a log written at once).  A built-in exact bot solves every phase's tables
    first (seconds each, unless cached), ``preparing(done, phases)`` told after each, so
    that the games' progress is the games'."""
    names = [f"p{i + 1}" for i in range(players)]
    space = Space(pack.dice)
    cache: dict = {}
    agent = None if bot.startswith("cmd:") else cache.setdefault(
        bot, dice_bot(bot, pack.dice, space, timeout))
    if hasattr(agent, "prepare"):
        w = pack.world(world)
        for k, e in enumerate(w.played):
            agent.prepare(e.phase, w.rules)
            if preparing:
                preparing(k + 1, len(w.played))
    elif preparing:
        preparing(0, 0)  # (nothing to work out first: the games at once)
    out = []
    for i in range(games):
        out.append(play_game(pack, names, [bot] * players, seed, i, world, space, cache,
                             timeout))
        if each:
            each(out[-1])
        if progress:
            progress(i + 1)
    return out


def summarize_dice(records: list[DiceRecord], players: int) -> dict:
    """The figures of a run, each with its interval and the games it rests on."""
    done = [r for r in records if not (r.capped or r.forfeit)]
    n = len(done)
    # a round: every player's turn once (the turns the first finisher took)
    rounds = [sum(1 for m in r.moves if isinstance(m, Score) and m.player == r.final.players[0])
              for r in done]
    totals = [t for r in done for t in r.final.totals]
    five = sum(1 for r in done for m in r.moves
               if isinstance(m, Bonus) and m.kind == "five_phase")
    wins = [0] * players
    for r in done:
        for p in r.final.winners():
            wins[r.final.players.index(p)] += 1
    share = [{"seat": k + 1, "share": wins[k] / n if n else None,
              "ci95": list(wilson(wins[k], n)) if n else None} for k in range(players)]
    return {"games": len(records), "finished": n,
            "capped": [r.index + 1 for r in records if r.capped],
            "forfeited": [{"game": r.index + 1, **r.forfeit} for r in records if r.forfeit],
            "turns_per_game": describe_values([r.turns for r in done], floor=1),
            "turns_of_first_seat": describe_values(rounds, floor=1),
            "final_score": describe_values(totals),
            "winning_score": describe_values([max(r.final.totals) for r in done]),
            "five_phase_bonus_share": {"share": five / len(totals) if totals else None,
                                       "ci95": list(wilson(five, len(totals))) if totals else None,
                                       "players": len(totals)},
            "win_share_by_seat": share,
            "ties_count_for_each": True}


def dice_summary_text(s: dict, pack: Pack, players: int, bot: str) -> str:
    def ci(d: dict, digits: int = 1) -> str:
        if not d["n"]:
            return "-"
        lo, hi = d["ci95"]
        return f"{d['mean']:.{digits}f} (95% CI {lo:.{digits}f}-{hi:.{digits}f})"

    out = [f"{pack.name}: {s['games']} game{'s' * (s['games'] != 1)} of {players} {bot} bots, "
           f"{s['finished']} finished"
           + (f" ({len(s['capped'])} stopped at {MAX_TURNS:,} turns)" if s["capped"] else "")]
    for f in s["forfeited"][:5]:
        out.append(f"  game {f['game']}: {f['player']} forfeits ({f['reason']}): {f['message']}")
    out.append(f"  turns per game (every player's): {ci(s['turns_per_game'])}")
    out.append(f"  turns of the first seat:         {ci(s['turns_of_first_seat'])}")
    out.append(f"  final score:                     {ci(s['final_score'])}")
    out.append(f"  winning score:                   {ci(s['winning_score'])}")
    f = s["five_phase_bonus_share"]
    if f["share"] is not None:
        out.append(f"  five-phase bonus:                {100 * f['share']:.1f}% of {f['players']} "
                   f"players (95% CI {100 * f['ci95'][0]:.1f}-{100 * f['ci95'][1]:.1f})")
    for w in s["win_share_by_seat"]:
        if w["share"] is not None:
            out.append(f"  seat {w['seat']} wins:                     {100 * w['share']:.1f}% "
                       f"(95% CI {100 * w['ci95'][0]:.1f}-{100 * w['ci95'][1]:.1f})")
    out.append("  (a tie counts as a win for each tied player)")
    return "\n".join(out)
