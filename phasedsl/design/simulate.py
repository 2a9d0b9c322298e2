"""Many seeded games between bots, and what they say about a pack.

Pure: ``play_game`` plays one game to the end (or to a safety cap) and returns a
``GameRecord``; ``simulate`` plays G of them (in worker processes for ``jobs`` > 1)
and ``summarize`` turns the records into the figures ``phasedsl simulate`` prints.
Game ``i`` is seeded from the run's seed and ``i`` alone, so the figures do not
depend on how the games were shared among processes.
"""

from __future__ import annotations

import math
import random
import statistics
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import closing
from dataclasses import astuple, dataclass, replace
from functools import partial

from ..errors import PhaseDSLError
from ..game import Game, IllegalMove, legal_moves, view
from ..game.table import current_phase, phase_rules, stuck
from ..model.board import Attempt
from ..model.coerce import as_count, as_seed, as_world
from ..packs.lint import going_out, refuse_unplayable
from ..packs.pack import Pack, as_pack, builtin_names
from ..players.bots import Bot
from ..players.botspec import BotSpec as ParsedBot
from ..players.botspec import as_spec, build
from ..players.extbot import ExternalBot, Forfeit
from ..system.workers import Pool, resolve_jobs
from . import gamecache
from .odds import wilson

# A game is stopped (and counted as capped) after this many moves: no game between
# bots that can lay their phases comes near it.
MAX_MOVES = 100_000
MOST_GAMES = 1_000_000  # (as ``phasedsl simulate --games`` takes)
# ... and after this many in one hand (a hand between such bots takes a few hundred): a hand
# that runs on is one nobody can go out of, and the record says whose phases held it.
MAX_HAND_MOVES = 20_000
PLAYER_NAMES = ("ann", "bob", "cat", "dan", "eve", "fay")

# A bot's spec (``botspec``: a built-in name, ``module:...``, ``cmd:...``, as text or
# parsed), or a factory taking a seed (a class such as ``GreedyBot``; it must be
# importable by name for ``jobs`` > 1, as worker processes rebuild it).  ``play_game``
# takes one for every seat, or a sequence of one per seat.
BotSpec = str | ParsedBot | Callable[[int], Bot]


def seat_specs(bot: BotSpec | Sequence[BotSpec], players: int) -> list:
    """One parsed spec per seat (a bad spec is refused here, before any game)."""
    if isinstance(bot, (list, tuple)):
        if len(bot) != players:
            raise PhaseDSLError(f"{len(bot)} bots for {players} seats")
        return [as_spec(b) for b in bot]
    return [as_spec(bot)] * players


@dataclass(frozen=True, slots=True)
class Forfeited:
    """A game a bot lost by failing: its seat, the reason (``extbot.Forfeit``: crashed,
    timeout, malformed, illegal), what happened, and the move it failed at (from 1)."""

    seat: int
    reason: str
    message: str
    move: int

    def to_json(self) -> dict:
        return {"seat": self.seat, "reason": self.reason, "message": self.message,
                "move": self.move}


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game's outcome, as much as the statistics need."""

    index: int
    seed: int
    hands: int
    turns: tuple[int, ...]  # turns played in each hand
    # (seat, phase attempted, completed) for each player in each hand
    attempts: tuple[tuple[int, int | None, bool], ...]
    winner: int | None  # seat of the winner (None: capped)
    totals: tuple[int, ...]  # final scores by seat
    capped: bool
    tie_hands: int = 0  # tie-break hands among ``hands``
    log: tuple[str, ...] = ()
    # stopped because no player could ever make progress (``game.table.stuck``)
    stalled: bool = False
    # stopped because a bot failed (it loses; with two players the other seat wins)
    forfeit: Forfeited | None = None
    # why a stalled or capped game stopped (the phases the players were on, and what lint
    # says of them)
    why: str = ""
    # a board game: every player's hand on the board, in order (seat, the record)
    board: tuple[tuple[int, Attempt], ...] = ()

    def to_fields(self) -> list | None:
        """The record as JSON fields, as ``gamecache`` keeps it (None: not to be kept: a
        forfeit, a bot's failure, or a record carrying its log)."""
        if self.forfeit is not None or self.log:
            return None
        return [self.index, self.seed, self.hands, list(self.turns),
                [list(a) for a in self.attempts], self.winner, list(self.totals),
                self.capped, self.tie_hands, self.stalled, self.why,
                [[seat, list(astuple(a))] for seat, a in self.board]]

    @classmethod
    def from_fields(cls, fields: list) -> GameRecord:
        """The record ``to_fields`` wrote; fields of the wrong shape raise ``ValueError``."""
        try:
            (index, seed, hands, turns, attempts, winner, totals, capped, tie_hands, stalled,
             why, board) = fields
            return cls(int(index), int(seed), int(hands), tuple(map(int, turns)),
                       tuple((int(s), None if p is None else int(p), bool(done))
                             for s, p, done in attempts),
                       None if winner is None else int(winner), tuple(map(int, totals)),
                       bool(capped), int(tie_hands), (), bool(stalled), None, str(why),
                       tuple((int(seat), Attempt(*a)) for seat, a in board))
        except (TypeError, ValueError, OverflowError) as e:  # (JSON reads Infinity: int() refuses)
            raise ValueError(f"a kept game of the wrong shape: {e}") from e


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a run seeded with ``seed``."""
    return random.Random(f"phasedsl-sim:{seed}:{index}").getrandbits(48)


def play_game(pack: Pack, players: int, bot: BotSpec | Sequence[BotSpec] = "greedy",
              seed: int = 0, index: int = 0, world: str | None = None,
              keep_log: bool = False, max_moves: int = MAX_MOVES) -> GameRecord:
    """Play game ``index`` of a run seeded ``seed``: every seat a ``bot`` (or ``bot[k]`` in
    seat ``k``).  A bot that fails (``extbot.Forfeit``, or an illegal move from a bot that
    is not built in) forfeits: the game stops there and the record says so."""
    s = game_seed(seed, index)
    names = PLAYER_NAMES[:players]
    specs = seat_specs(bot, players)
    game = Game.new(pack, names, seed=s, world=world)
    bots = {n: build(specs[k], s + k + 1) for k, n in enumerate(names)}
    turns: list[int] = []
    count = moves = 0
    hands_before = 0
    checked = -1  # the hand last checked for a stall
    stalled = False
    forfeit = None
    why = ""
    hand_moves = 0
    try:
        while not game.over and moves < max_moves:
            state = game.state
            if state.stage == "turn" and state.hands_played != checked:
                # once a hand, at its first turn (phases change only when a hand ends)
                checked = state.hands_played
                why = stuck(state) or ""
                if why:
                    stalled = True
                    break
            if hand_moves >= MAX_HAND_MOVES:
                why = (f"hand {state.hands_played + 1} did not end in {MAX_HAND_MOVES:,} moves; "
                       + held_by(state))
                break
            who = state.to_move
            legal = legal_moves(state)
            try:
                # a bot is asked only to choose (and only then shown its view)
                move = legal[0] if len(legal) == 1 else bots[who].choose(view(state, who))
                after = game.apply(move)
            except (Forfeit, PhaseDSLError) as e:
                if not isinstance(e, Forfeit) and not getattr(bots[who], "forfeits", False):
                    raise  # a built-in bot's illegal move is a bug, not a forfeit
                reason, message = ((e.reason, e.message) if isinstance(e, Forfeit) else
                                   ("illegal", f"{e.message} [{e.rule}]")
                                   if isinstance(e, IllegalMove) else ("illegal", str(e)))
                forfeit = Forfeited(names.index(who), reason, message, moves + 1)
                break
            if state.stage == "turn" and state.step == "draw":
                count += 1
            game = after
            moves += 1
            hand_moves += 1
            if game.state.hands_played != hands_before:
                hand_moves = 0
                hands_before = game.state.hands_played
                turns.append(count)
                count = 0
        state = game.state
        winner = seat_winner = None
        if forfeit is not None:
            seat_winner = 1 - forfeit.seat if players == 2 else None
        elif state.winner:
            seat_winner = names.index(state.winner)
        winner = names[seat_winner] if seat_winner is not None else None
        result = {"winner": winner, "scores": {st.name: st.total for st in state.seats},
                  "hands": state.hands_played,
                  "forfeit": ({"player": names[forfeit.seat], "reason": forfeit.reason,
                               "message": forfeit.message} if forfeit else None)}
        programs = [b for b in bots.values() if isinstance(b, ExternalBot)]
        for b in programs:
            b.finish(result)
        for b in programs:
            b.close()
    finally:
        # (stopped by Ctrl-C, SIGTERM or an error: the programs end now, unasked)
        for b in bots.values():
            if isinstance(b, ExternalBot):
                b.close(wait=False)
    seat = {n: k for k, n in enumerate(names)}
    attempts = tuple((seat[p], dict(r.attempted).get(p), done)
                     for r in state.results if not r.tie_break for p, done in r.completed)
    if keep_log and forfeit is not None:  # the log says why it stops where it does
        game = replace(game, header={**game.header, "forfeit": result["forfeit"]})
    race = tuple((seat[a.player], a) for r in state.results for a in r.board)
    return GameRecord(index, s, state.hands_played, tuple(turns), attempts, seat_winner,
                      tuple(st.total for st in state.seats),
                      not game.over and not stalled and forfeit is None,
                      sum(r.tie_break for r in state.results),
                      tuple(game.to_log()) if keep_log else (), stalled, forfeit,
                      why or (f"no game end in {max_moves:,} moves" if moves >= max_moves
                              and not game.over else ""), race)


def held_by(state) -> str:
    """The phases the players were on, with what lint says of going out after each."""
    said: dict[int, str] = {}
    for i, seat in enumerate(state.seats):
        k = current_phase(state, i) if seat.playing else None
        if k is None or k in said:
            continue
        phase, rules = phase_rules(state.table, k)
        out = going_out(phase, rules)
        said[k] = f"phase {k} ({phase})" + (f", which {out[0]}" if out else "")
    return ("the players were on " + "; ".join(said.values())) if said else "no player was on a phase"


# Worker processes load the pack once (a Pack pickles small, but once is enough).
_WORKER: dict = {}


def _init_worker(pack: Pack) -> None:
    _WORKER["pack"] = pack


def _play_in_worker(index: int, **kw) -> GameRecord:
    return play_game(_WORKER["pack"], index=index, **kw)


def simulate(pack: Pack | str, players: int, games: int, bot: BotSpec = "greedy", seed: int = 0,
             world: str | None = None, jobs: int = 1, keep_logs: bool = False,
             progress: Callable[[int], None] | None = None,
             max_moves: int = MAX_MOVES, first: int = 0) -> list[GameRecord]:
    """Play ``games`` games (games ``first`` to ``first + games - 1`` of the run seeded
    ``seed``: a run continued with ``first`` plays the games a longer run would have);
    ``progress`` is called with each finished game's count."""
    pack, world = as_pack(pack, "simulate"), as_world(world, "simulate")
    records: list[GameRecord] = []
    # closed on any exception (Ctrl-C in ``progress``): its worker processes end with it
    with closing(play_games(pack, players, games, bot, seed, world, jobs, keep_logs,
                            max_moves, first)) as played:
        for rec in played:
            records.append(rec)
            if progress:
                progress(len(records))
    return records


def play_games(pack: Pack | str, players: int, games: int, bot: BotSpec = "greedy",
               seed: int = 0, world: str | None = None, jobs: int = 1,
               keep_logs: bool = False, max_moves: int = MAX_MOVES,
               first: int = 0) -> Iterator[GameRecord]:
    """The games of ``simulate`` one by one, in order, each as soon as it (and every
    game before it) is over: a caller can write each game's log then, not hold them all.
    ``jobs`` processes play them (0: one per CPU, at most 8).  A game played before
    between built-in bots is read from ``gamecache`` (the same record), not played again;
    the games played are kept there once the run is over."""
    pack, world = as_pack(pack, "simulate"), as_world(world, "simulate")
    as_count(players, "simulate(players=...)", 1, len(PLAYER_NAMES), "a number of players")
    # (the command's bound: 10**100 games was a run that never ended)
    as_count(games, "simulate(games=...)", 0, MOST_GAMES, "a number of games")
    as_count(first, "simulate(first=...)", 0, None, "the index of the first game")
    as_count(max_moves, "simulate(max_moves=...)", 1, None, "a number of moves")
    as_seed(seed, "simulate(seed=...)")
    seats = seat_specs(bot, players)  # an unknown bot fails here, not in a worker
    Game.new(pack, PLAYER_NAMES[:players], world=world)  # the table is refused here too
    refuse_unplayable(pack, world)  # a pack no game of which can end: at once, not at the cap
    key = None if keep_logs else gamecache.run_key(pack, world, players, seats, seed,
                                                   max_moves)
    kept = _kept(key, seed, range(first, first + games)) if key else {}
    fresh: dict[int, list] = {}
    i, end = first, first + games
    while i < end:
        if i in kept:
            yield kept[i]
            i += 1
            continue
        j = i
        while j < end and j not in kept:
            j += 1
        for rec in _played(pack, players, seats, seed, world, jobs, keep_logs, max_moves,
                           range(i, j)):
            # (a run's first games only: a long one would hold them all in memory)
            fields = rec.to_fields() if key and rec.index < gamecache.MAX_GAMES else None
            if fields is not None:
                fresh[rec.index] = fields
            yield rec
        i = j
    if key:
        gamecache.store(key, fresh)


def _played(pack: Pack, players: int, seats: list, seed: int, world: str | None, jobs: int,
            keep_logs: bool, max_moves: int, indexes: range) -> Iterator[GameRecord]:
    kw = dict(players=players, bot=seats, seed=seed, world=world, keep_log=keep_logs,
              max_moves=max_moves)
    jobs = resolve_jobs(jobs)
    if jobs <= 1 or len(indexes) <= 1:
        for i in indexes:
            yield play_game(pack, index=i, **kw)
        return
    with Pool(partial(_play_in_worker, **kw), min(jobs, len(indexes)), _init_worker,
              (pack,)) as pool:
        yield from pool.map(indexes)


def _kept(key: str, seed: int, indexes: range) -> dict[int, GameRecord]:
    """The games of ``indexes`` kept for the run ``key`` (none, if one is not as written)."""
    kept = gamecache.read(key)
    out = {}
    try:
        for i in indexes:
            if i in kept:
                rec = GameRecord.from_fields(kept[i])
                if rec.index != i or rec.seed != game_seed(seed, i):
                    return {}
                out[i] = rec
    except ValueError:
        return {}
    return out


# --------------------------------------------------------------------------- figures


def _percentile(sorted_values: list[float], q: float) -> float:
    """Linear interpolation between closest ranks (numpy's default)."""
    if not sorted_values:
        return math.nan
    pos = (len(sorted_values) - 1) * q
    lo = math.floor(pos)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (pos - lo)


def describe_values(values: list[float], floor: float | None = None) -> dict:
    """Mean (with its normal 95% interval), median and 10th-90th percentiles.  ``floor``:
    the least value the quantity can take (a count of hands: 1), where the interval is cut
    (a few spread games put its lower end below it: "turns per hand -119-371" said of two
    hands; the mean cannot be there, so the cut interval covers it as often)."""
    n = len(values)
    if not n:
        return {"n": 0, "mean": None, "ci95": None, "median": None, "p10": None, "p90": None}
    mean = statistics.fmean(values)
    half = 1.959963984540054 * statistics.stdev(values) / math.sqrt(n) if n > 1 else 0.0
    ordered = sorted(values)
    low = mean - half if floor is None else max(mean - half, floor)
    return {"n": n, "mean": mean, "ci95": [low, mean + half],
            "median": _percentile(ordered, 0.5), "p10": _percentile(ordered, 0.1),
            "p90": _percentile(ordered, 0.9)}


@dataclass(frozen=True, slots=True)
class PhaseTally:
    """What the games say about one phase: ``spent`` holds, for each player who attempted
    it in a game, the hands that player spent on it there (their attempts); ``completed``
    counts the attempts that made it."""

    spent: tuple[int, ...]
    completed: int

    @property
    def attempts(self) -> int:
        return sum(self.spent)


def phase_tallies(records: list[GameRecord]) -> dict[int, PhaseTally]:
    """Each attempted phase's tally over ``records`` (tie-break hands are not attempts), by
    printed phase number in ascending order; the caller leaves out unfinished games."""
    spent: dict[int, list[int]] = {}
    made: Counter = Counter()
    for r in records:
        per: Counter = Counter((seat, phase) for seat, phase, _ in r.attempts if phase is not None)
        for (_, phase), n in per.items():
            spent.setdefault(phase, []).append(n)
        for _, phase, done in r.attempts:
            if phase is not None and done:
                made[phase] += 1
    return {p: PhaseTally(tuple(spent[p]), made[p]) for p in sorted(spent)}


def summarize(records: list[GameRecord], players: int, odds: dict | None = None) -> dict:
    """The figures of a run (the JSON ``phasedsl simulate --json`` prints), each share and
    mean with its 95% interval; ``odds`` (``phase_odds``: each phase's ``Dealt``) is set
    beside each phase's completion share."""
    finished = [r for r in records if not (r.capped or r.stalled or r.forfeit)]
    hands = [r.hands for r in finished]
    out: dict = {"games": len(records), "finished": len(finished),
                 "capped": [r.index + 1 for r in records if r.capped],  # game numbers, from 1
                 "stalled": [r.index + 1 for r in records if r.stalled],
                 "forfeited": [{"game": r.index + 1, **r.forfeit.to_json()}
                               for r in records if r.forfeit]}
    why: dict[str, list[int]] = {}
    for r in records:
        if (r.capped or r.stalled) and r.why:
            why.setdefault(r.why, []).append(r.index + 1)
    out["why_stopped"] = [{"why": w, "games": g} for w, g in why.items()]
    out["hands_per_game"] = describe_values(hands, floor=1)
    out["hands_per_game"]["histogram"] = {str(h): c for h, c in sorted(Counter(hands).items())}
    out["turns_per_hand"] = describe_values([t for r in finished for t in r.turns], floor=0)
    tallies = phase_tallies(finished)
    out["phases"] = []
    for p, t in tallies.items():
        dealt = (odds or {}).get(p)
        out["phases"].append({
            "phase": p, "players": len(t.spent), "attempts": t.attempts,
            "hands_spent": t.attempts / len(t.spent),
            "hands_spent_ci95": describe_values([float(k) for k in t.spent], floor=1)["ci95"],
            "completed_share": t.completed / t.attempts,
            "completed_ci95": list(wilson(t.completed, t.attempts)),
            "dealt_odds": None if dealt is None else dealt.probability,
            "dealt": None if dealt is None else dealt.to_json()})
    wins = Counter(r.winner for r in finished)
    out["win_share_by_seat"] = [wins[k] / len(finished) if finished else None
                                for k in range(players)]
    out["win_share_ci95"] = [list(wilson(wins[k], len(finished))) if finished else None
                             for k in range(players)]
    if any(r.board for r in records):
        out["board"] = board_figures(finished)
    # (a game's scores are one sample: its players' totals are not independent)
    scores = [statistics.fmean(r.totals) for r in finished]
    out["mean_final_score"] = statistics.fmean(scores) if scores else None
    out["mean_final_score_ci95"] = describe_values(scores)["ci95"]
    winners = [float(r.totals[r.winner]) for r in finished if r.winner is not None]
    out["mean_winning_score"] = statistics.fmean(winners) if winners else None
    out["mean_winning_score_ci95"] = describe_values(winners)["ci95"]
    return out


def board_figures(records: list[GameRecord]) -> dict:
    """A board game's figures over finished games: spaces gained per hand (all hands, and
    at each space), how often a pawn on a twist space took the twist card and how often
    that paid (the twist made), each share with its 95% interval and its sample."""
    hands = [a for r in records for _, a in r.board]
    gains = [a.end - a.start for a in hands]
    offered = [a for a in hands if a.on_twist]
    taken = [a for a in offered if a.twist]
    paid = sum(a.made for a in taken)
    at: dict[int, list[int]] = {}
    for a in hands:
        at.setdefault(a.start, []).append(a.end - a.start)
    return {
        "spaces_per_hand": describe_values([float(g) for g in gains]),
        "twist": {"offered": len(offered), "taken": len(taken),
                  "taken_share": len(taken) / len(offered) if offered else None,
                  "taken_ci95": list(wilson(len(taken), len(offered))) if offered else None,
                  "paid": paid, "paid_share": paid / len(taken) if taken else None,
                  "paid_ci95": list(wilson(paid, len(taken))) if taken else None},
        "spaces": [{"space": k, "hands": len(v), **_gain(v)} for k, v in sorted(at.items())],
    }


def _gain(values: list[int]) -> dict:
    d = describe_values([float(v) for v in values])
    return {"mean_gain": d["mean"], "ci95": d["ci95"]}


def playable_tables(players: int = 2) -> list[str]:
    """Every built-in table a game of ``players`` can be dealt at, as ``pack`` or
    ``pack/world`` (each world of a pack with several); a pack the referee refuses (lint
    says why) is left out. For benchmarks and tests that play every table."""
    out = []
    for name in builtin_names():
        pack = as_pack(name, "simulate")
        worlds = [w.name for w in pack.worlds] if len(pack.worlds) > 1 else [None]
        for w in worlds:
            try:
                Game.new(pack, PLAYER_NAMES[:players], world=w)
            except PhaseDSLError:
                continue
            out.append(f"{name}/{w}" if w else name)
    return out
