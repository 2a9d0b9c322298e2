"""Benchmark: how often the `strong` bot beats `greedy`, and how long it takes a turn.

Seat-rotated duplicate games: every deal is played once with `strong` in each seat
(the other seats greedy), so no seat's advantage and no lucky deal favours either bot.
Two tables: two players (strong against one greedy bot) and four (strong as one seat
against three). Prints each table's win share with its Wilson 95% interval, the games
it rests on and the mean CPU milliseconds of a strong turn (a draw and what follows it
up to the discard), over every game. Asserts nothing.

    python benchmarks/bench_strong.py [--games 400] [--variant original] [--jobs 2]
        [--seed 1] [--players 2 4]

(``--games`` per table, rounded up to whole deals: 200 deals at two players, 100 at four.)
"""

from __future__ import annotations

import argparse
import math
import signal
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from phasedsl.bots import GreedyBot
from phasedsl.game import Game, view
from phasedsl.game.table import hopeless
from phasedsl.packs import Pack, as_pack
from phasedsl.simulate import MAX_MOVES, PLAYER_NAMES, game_seed
from phasedsl.strong import StrongBot
from phasedsl.workers import Pool, resolve_jobs

Z95 = 1.959963984540054


@dataclass(frozen=True, slots=True)
class Seated:
    """One game with the strong bot in ``seat``: the winner's seat (None: capped or
    stalled), the strong bot's CPU seconds and its turns."""

    seat: int
    winner: int | None
    seconds: float
    turns: int


def wilson(wins: int, n: int) -> tuple[float, float]:
    """The Wilson score 95% interval of a share ``wins / n``."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    d = 1 + Z95 * Z95 / n
    mid = (p + Z95 * Z95 / (2 * n)) / d
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95 * Z95 / (4 * n * n)) / d
    return (mid - half, mid + half)


def play_seated(pack: Pack, players: int, seat: int, seed: int,
                strong: Callable[[int], object] = StrongBot,
                world: str | None = None) -> Seated:
    """Play the deal seeded ``seed`` with ``strong`` in ``seat`` and greedy elsewhere."""
    names = PLAYER_NAMES[:players]
    game = Game.new(pack, names, seed=seed, world=world)
    bots = {n: (strong if k == seat else GreedyBot)(seed + k + 1) for k, n in enumerate(names)}
    me = names[seat]
    spent, turns, moves = 0.0, 0, 0
    checked = -1
    while not game.over and moves < MAX_MOVES:
        state = game.state
        if state.stage == "turn" and state.hands_played != checked:
            checked = state.hands_played
            if hopeless(state):
                break
        who = state.to_move
        if who == me:
            t0 = time.process_time()
            move = bots[who].choose(view(state, who))
            spent += time.process_time() - t0
            turns += state.stage == "turn" and state.step == "draw"
        else:
            move = bots[who].choose(view(state, who))
        game = game.apply(move)
        moves += 1
    winner = names.index(game.state.winner) if game.over and game.state.winner else None
    return Seated(seat, winner, spent, turns)


_WORKER: dict = {}


def _init(pack: Pack) -> None:
    _WORKER["pack"] = pack


def _one(task: tuple[int, int, int], world: str | None = None) -> Seated:
    players, seat, seed = task
    return play_seated(_WORKER["pack"], players, seat, seed, world=world)


def run(pack: Pack | str, players: int, deals: int, seed: int = 1, jobs: int = 1,
        world: str | None = None) -> list[Seated]:
    """Every deal of a run played with strong in each seat."""
    pack = as_pack(pack, "bench_strong")
    tasks = [(players, seat, game_seed(seed, i)) for i in range(deals) for seat in range(players)]
    jobs = resolve_jobs(jobs)
    if jobs <= 1:
        _init(pack)
        return [_one(t, world) for t in tasks]
    with Pool(partial(_one, world=world), min(jobs, len(tasks)), _init, (pack,)) as pool:
        return list(pool.map(tasks))


def summary(games: list[Seated]) -> str:
    wins = sum(g.winner == g.seat for g in games)
    lo, hi = wilson(wins, len(games))
    turns = sum(g.turns for g in games)
    ms = 1000 * sum(g.seconds for g in games) / max(turns, 1)
    return (f"strong won {wins}/{len(games)} = {wins / max(len(games), 1):.1%} "
            f"(95% Wilson {lo:.1%}-{hi:.1%}); {ms:.2f} ms CPU a strong turn")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="original")
    ap.add_argument("--world", default=None)
    ap.add_argument("--games", type=int, default=400, help="games per table (each deal "
                    "played once per seat)")
    ap.add_argument("--players", type=int, nargs="+", default=[2, 4])
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    for players in args.players:
        t0 = time.perf_counter()
        deals = -(-args.games // players)
        games = run(args.variant, players, deals, args.seed, args.jobs, args.world)
        wall = time.perf_counter() - t0
        fair = 1 / players
        print(f"{args.variant}, strong as 1 of {players} (fair share {fair:.0%}), "
              f"{deals} deals x {players} seats: {summary(games)}; {wall:.0f} s wall",
              flush=True)


def _stop(signum, frame) -> None:
    raise KeyboardInterrupt  # unwinds through the pool, which stops its workers


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, _stop)
    try:
        main()
    except KeyboardInterrupt:
        sys.exit(130)
