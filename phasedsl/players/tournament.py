"""Bots against each other on duplicate deals: who wins, and how surely.

Every deal is played by every line-up (each choice of ``players`` bots among those
entered) in every rotation of its seats, so each bot plays each seat on the same cards:
the luck of the deal and of the seat cancels out.  Deal ``d`` is seeded from the run's
seed and ``d`` alone (as ``simulate``'s game ``d``), the games are played in a fixed
order and given back in it, so the result is the same for any ``jobs``.

Pure: ``play_tournament`` gives one ``TournamentGame`` per game; ``standings`` turns them
into the figures ``phasedsl tournament`` prints.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import closing
from dataclasses import dataclass
from functools import partial
from itertools import combinations
from math import comb

from ..design.odds import wilson
from ..design.simulate import MAX_MOVES, PLAYER_NAMES, GameRecord, describe_values, play_game
from ..errors import PhaseDSLError
from ..game import Game
from ..model.coerce import as_world
from ..packs.lint import refuse_unplayable
from ..packs.pack import Pack, as_pack
from ..system.workers import Pool, resolve_jobs
from .botspec import BotSpec, as_spec

MAX_GAMES = 1_000_000


def entry_names(specs: Sequence[BotSpec | str]) -> list[str]:
    """Each bot's name in the tables: its spec, with ``#k`` where it is entered twice."""
    texts = [str(s) for s in specs]
    seen: Counter = Counter()
    many = Counter(texts)
    out = []
    for t in texts:
        seen[t] += 1
        out.append(f"{t}#{seen[t]}" if many[t] > 1 else t)
    return out


def line_ups(bots: int, players: int) -> list[tuple[int, ...]]:
    """The seatings of one deal: for each choice of ``players`` bots (by entry number),
    every rotation of them, bot ``lineup[k]`` in seat ``k``."""
    if not 2 <= players <= bots:
        raise PhaseDSLError(f"a tournament of {bots} bots seats 2 to {bots} players, not "
                            f"{players} (enter a bot several times to fill more seats)")
    count = comb(bots, players) * players
    if count > MAX_GAMES:  # (counted first: 100 bots at 6 seats would be 7 billion)
        raise PhaseDSLError(f"{bots} bots at {players} seats make {count:,} seatings of a "
                            f"deal; a tournament plays at most {MAX_GAMES:,} games")
    return [tuple(combo[(k + r) % players] for k in range(players))
            for combo in combinations(range(bots), players) for r in range(players)]


@dataclass(frozen=True, slots=True)
class TournamentGame:
    number: int  # from 0, in the order the games are played and given back
    deal: int
    seats: tuple[int, ...]  # the entry sitting in each seat
    record: GameRecord


_WORKER: dict = {}


def _init_worker(pack: Pack) -> None:
    _WORKER["pack"] = pack


def _play(pack: Pack, task: tuple[int, tuple[int, ...]], specs: tuple, **kw) -> GameRecord:
    deal, seats = task
    return play_game(pack, bot=[specs[i] for i in seats], index=deal, **kw)


def _play_in_worker(task: tuple[int, tuple[int, ...]], **kw) -> GameRecord:
    return _play(_WORKER["pack"], task, **kw)


def play_tournament(pack: Pack | str, specs: Sequence[BotSpec | str], players: int,
                    deals: int, seed: int = 0, world: str | None = None, jobs: int = 1,
                    keep_logs: bool = False,
                    max_moves: int = MAX_MOVES) -> Iterator[TournamentGame]:
    """The games, in order, each as soon as it (and every game before it) is over."""
    pack, world = as_pack(pack, "play_tournament"), as_world(world, "play_tournament")
    specs = tuple(as_spec(s) for s in specs)  # a bad spec fails here, not in a worker
    if len(specs) < 2:
        raise PhaseDSLError("a tournament needs at least 2 bots (--bot A --bot B)")
    seatings = line_ups(len(specs), players)
    if deals < 1 or deals * len(seatings) > MAX_GAMES:
        raise PhaseDSLError(f"{deals:,} deals of {len(seatings)} seatings each: a tournament "
                            f"plays at least 1 game and at most {MAX_GAMES:,} games")
    Game.new(pack, PLAYER_NAMES[:players], world=world)  # the table is refused here
    refuse_unplayable(pack, world)
    tasks = [(d, s) for d in range(deals) for s in seatings]
    kw = dict(players=players, seed=seed, world=world, keep_log=keep_logs,
              max_moves=max_moves)
    jobs = resolve_jobs(jobs)
    if jobs <= 1 or len(tasks) <= 1:
        records: Iterator[GameRecord] = (_play(pack, t, specs, **kw) for t in tasks)
        for n, (t, rec) in enumerate(zip(tasks, records, strict=True)):
            yield TournamentGame(n, t[0], t[1], rec)
        return
    with Pool(partial(_play_in_worker, specs=specs, **kw), min(jobs, len(tasks)), _init_worker,
              (pack,)) as pool, closing(pool.map(tasks)) as played:
        for n, (t, rec) in enumerate(zip(tasks, played, strict=True)):
            yield TournamentGame(n, t[0], t[1], rec)


def standings(games: Sequence[TournamentGame], names: Sequence[str]) -> dict:
    """Per bot: games, wins, share with its Wilson 95% interval, mean final score and hands
    per game (over games played to the end), forfeits; per pair of bots, the games both
    sat in and who of the two won them.  A forfeit loses the game for its bot; with two
    players the other wins it, with more nobody does."""
    played: Counter = Counter()
    wins: Counter = Counter()
    forfeits: Counter = Counter()
    scores: dict[int, list[int]] = {i: [] for i in range(len(names))}
    hands: dict[int, list[int]] = {i: [] for i in range(len(names))}
    head: dict[tuple[int, int], list[int]] = {}  # (a, b) -> [games, a won, b won]
    for g in games:
        r = g.record
        done = not (r.capped or r.stalled or r.forfeit)
        won = g.seats[r.winner] if r.winner is not None else None
        for k, e in enumerate(g.seats):
            played[e] += 1
            if done:
                scores[e].append(r.totals[k])
                hands[e].append(r.hands)
        if won is not None:
            wins[won] += 1
        if r.forfeit is not None:
            forfeits[g.seats[r.forfeit.seat]] += 1
        for a in set(g.seats):
            for b in set(g.seats) - {a}:
                h = head.setdefault((a, b), [0, 0, 0])
                h[0] += 1
                h[1] += won == a
                h[2] += won == b

    def mean(xs: list[int]) -> float | None:
        return statistics.fmean(xs) if xs else None

    def ci95(xs: list[int]) -> list[float] | None:
        # (normal theory over the games, as the win share's Wilson interval counts them)
        return describe_values([float(x) for x in xs])["ci95"] if xs else None

    results = {}
    for i, name in enumerate(names):
        n = played[i]
        results[name] = {"games": n, "wins": wins[i], "share": wins[i] / n if n else None,
                         "ci95": list(wilson(wins[i], n)) if n else None,
                         "mean_score": mean(scores[i]), "score_ci95": ci95(scores[i]),
                         "mean_hands": mean(hands[i]), "hands_ci95": ci95(hands[i]),
                         "finished": len(scores[i]), "forfeits": forfeits[i]}
    pairwise = {names[a]: {names[b]: {"games": h[0], "wins": h[1], "losses": h[2]}
                           for (a2, b), h in sorted(head.items()) if a2 == a}
                for a in range(len(names))}
    return {"results": results, "pairwise": pairwise,
            "capped": [g.number + 1 for g in games if g.record.capped],
            "stalled": [g.number + 1 for g in games if g.record.stalled],
            "forfeited": [{"game": g.number + 1, "bot": names[g.seats[g.record.forfeit.seat]],
                           **g.record.forfeit.to_json()}
                          for g in games if g.record.forfeit is not None]}


def tournament(pack: Pack | str, specs: Sequence[BotSpec | str], players: int | None = None,
               deals: int = 100, seed: int = 1, world: str | None = None, jobs: int = 1,
               progress: Callable[[int], None] | None = None) -> dict:
    """Play a whole tournament and give its figures (``phasedsl tournament --json``)."""
    players = players if players is not None else min(len(specs), 6)
    names = entry_names(specs)
    games = []
    with closing(play_tournament(pack, specs, players, deals, seed, world, jobs)) as played:
        for g in played:
            games.append(g)
            if progress:
                progress(len(games))
    return summary(pack, names, players, deals, seed, world, games)


def summary(pack: Pack | str, names: Sequence[str], players: int, deals: int, seed: int,
            world: str | None, games: Sequence[TournamentGame]) -> dict:
    pack = as_pack(pack, "tournament")
    return {"variant": pack.name, "world": world, "bots": list(names), "players": players,
            "deals": deals, "seatings": len(line_ups(len(names), players)),
            "games": len(games), "seed": seed, **standings(games, names)}
