"""Whether a pack's phases rise in difficulty as they are played, and an order that does.

``balance`` measures every phase the pack plays (``difficulty``: the dealt chance and the
completion share in seeded games between greedy bots), flags a phase easier than the one
before it, and proposes an order with no phase flagged: phases sorted by completion share,
highest first, re-simulated with the same seeds, and sorted again by the share pooled
over every run so far (or, once an order repeats, with each flagged pair swapped) for a
few rounds while flags remain; the best order found (fewest flags, then fewest "maybe")
is proposed, and the result says whether it removes every flag.  The measure depends on
where a phase is played (the same phase completes more often in some places than in
others: hands last longer or shorter with what the other players work on), hence the
re-simulation.  It also plays today's order and the proposed one at every
table size the pack allows (or one) and states the game length of each.

Pure: packs and records in, figures out; the CLI prints and writes.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable
from dataclasses import dataclass, replace

from ..errors import PhaseDSLError
from ..model.board import TWIST, Board
from ..model.coerce import as_world
from ..packs.pack import Pack, PhaseEntry, as_pack
from .difficulty import (
    DEFAULT_GAMES,
    DEFAULT_PLAYERS,
    DEFAULT_SEED,
    PhaseInPlay,
    games_to_settle,
    in_play,
    order_matters,
    reason,
)
from .sampling import Rule, both, flags_settled, length_settled, play_until
from .simulate import board_figures, summarize

# Proposed orders simulated at most while flags remain.
MAX_ROUNDS = 5


@dataclass(frozen=True)
class OrderFigures:
    """One order of the phases, as played: ``order`` holds printed phase numbers in play
    order; ``phases`` their figures in that order (numbered as printed; a flag compares
    a phase with the one played before it in this order), from ``games`` games;
    ``lengths`` the hands per game (``summarize``'s figures, and ``"games"``: the games
    played for them) by table size."""

    order: tuple[int, ...]
    phases: tuple[PhaseInPlay, ...]
    lengths: dict[int, dict]
    games: int = 0  # the games the phases' figures rest on

    @property
    def flagged(self) -> tuple[int, ...]:
        return tuple(r.number for r in self.phases if r.easier_than_previous is True)

    @property
    def maybe(self) -> tuple[int, ...]:
        return tuple(r.number for r in self.phases if r.easier_than_previous == "maybe")

    @property
    def badness(self) -> tuple[int, int]:
        """How far the order is from rising: (phases flagged, phases maybe), lower better."""
        return len(self.flagged), len(self.maybe)

    def reasons(self) -> dict[int, str]:
        """The one-line reason of each flagged (or maybe) phase, by printed number."""
        out = {}
        for prev, cur in zip(self.phases, self.phases[1:], strict=False):
            if cur.easier_than_previous:
                out[cur.number] = reason(prev, cur)
        return out

    def to_settle(self, games: int) -> dict[int, int | None]:
        """Each "maybe" phase (by printed number): the games a simulation would need to
        settle it, were the shares to hold (None: more than ``MOST_SETTLE_GAMES``)."""
        return {cur.number: games_to_settle(prev, cur, games)
                for prev, cur in zip(self.phases, self.phases[1:], strict=False)
                if cur.easier_than_previous == "maybe"}


# A space is judged on at least this many hands played there (fewer: shown, not flagged).
MIN_SPACE_HANDS = 20


@dataclass(frozen=True)
class SpaceGain:
    """A board space as played: the hands pawns spent there and the spaces they gained a
    hand (mean, 95% interval), and why it is flagged (None: in line)."""

    space: int
    what: str  # "phase 3" or "twist"
    hands: int
    mean_gain: float
    ci95: tuple[float, float]
    flag: str | None = None

    def to_json(self) -> dict:
        return {"space": self.space, "what": self.what, "hands": self.hands,
                "mean_gain": self.mean_gain, "ci95": list(self.ci95), "flag": self.flag}


def space_gains(board: Board, figures: dict) -> tuple[SpaceGain, ...]:
    """Each space pawns stood on, with its flag.  On a board a hard phase is passed over by
    moving one space on a miss, so what matters is the spaces gained a hand at each space.
    Flagged: a bottleneck (the interval wholly under half the board's typical gain: pawns
    stall there), or a phase space easier than the phase space before it (the interval
    wholly above that one's).  Not judged: a space whose moves the finish cuts short (within
    ``made_out`` spaces of it: there every make gains the spaces left), and the start as
    the space before (a pawn there moves only when its phase is made, where
    ``start_needs_phase``)."""
    last = len(board.spaces)
    rows = [r for r in figures["spaces"] if r["space"] != last]
    near = last - board.moves.made_out

    def judged_here(r: dict) -> bool:
        return r["hands"] >= MIN_SPACE_HANDS and r["space"] <= near

    judged = [r for r in rows if judged_here(r)]
    typical = statistics.median(r["mean_gain"] for r in judged) if judged else None
    out, before = [], None
    for r in rows:
        kind = board.spaces[r["space"] - 1]
        what = "twist" if kind == TWIST else f"phase {kind}"
        lo, hi = r["ci95"]
        flag = None
        if judged_here(r) and typical is not None:
            if hi < typical / 2:
                flag = (f"a bottleneck: pawns gain {r['mean_gain']:.2f} spaces a hand here "
                        f"({lo:.2f}-{hi:.2f}), under half the board's typical "
                        f"{typical:.2f}")
            elif kind != TWIST and before is not None and lo > before.ci95[1]:
                flag = (f"easier than space {before.space} ({before.what}) before it: pawns "
                        f"gain {r['mean_gain']:.2f} a hand here ({lo:.2f}-{hi:.2f}), "
                        f"{before.mean_gain:.2f} there ({before.ci95[0]:.2f}-"
                        f"{before.ci95[1]:.2f})")
        row = SpaceGain(r["space"], what, r["hands"], r["mean_gain"], (lo, hi), flag)
        out.append(row)
        if kind != TWIST and judged_here(r) and not (r["space"] == 1
                                                      and board.start_needs_phase):
            before = row
    return tuple(out)


@dataclass(frozen=True)
class Balance:
    pack: str
    world: str | None  # the world's name in a pack of several, else None
    players: int  # the table the phases are measured at
    games: int
    seed: int
    order_matters: bool
    current: OrderFigures
    proposed: OrderFigures
    rounds: int  # proposed orders simulated
    sizes: tuple[int, ...]  # table sizes the game length is given for
    simulated: int = 0  # games played in all
    board: tuple[SpaceGain, ...] = ()  # a board game: each space as played (today's order)

    @property
    def resolved(self) -> bool:
        """The proposed order has no phase flagged ("maybe" easier ones are said apart)."""
        return not self.proposed.flagged

    @property
    def moved(self) -> list[tuple[int, int, int]]:
        """(printed number, place today, place proposed) of each phase that moves (places
        from 1, in play order)."""
        now = {n: i + 1 for i, n in enumerate(self.current.order)}
        return [(n, now[n], i + 1) for i, n in enumerate(self.proposed.order) if now[n] != i + 1]

    def to_json(self) -> dict:
        reasons = self.current.reasons()
        settle = self.current.to_settle(self.current.games)
        phases = [r.to_json() | {"reason": reasons.get(r.number)}
                  | ({"games_to_settle": settle[r.number]} if r.number in settle else {})
                  for r in self.current.phases]
        proposed_reasons = self.proposed.reasons()
        return {
            "pack": self.pack, "world": self.world, "players": self.players,
            "games": self.games, "games_measured": self.current.games,
            "proposed_games_measured": self.proposed.games,
            "seed": self.seed, "order_matters": self.order_matters,
            "phases": phases,
            "proposed_order": list(self.proposed.order),
            "proposed_phases": [r.to_json() | {"reason": proposed_reasons.get(r.number)}
                                for r in self.proposed.phases],
            "proposed_resolves": self.resolved,
            "rounds": self.rounds, "games_simulated": self.simulated,
            "hands_per_game": {"current": _lengths_json(self.current.lengths),
                               "proposed": _lengths_json(self.proposed.lengths)},
            **({"board": [s.to_json() for s in self.board]} if self.board else {}),
        }


def _lengths_json(lengths: dict[int, dict]) -> dict[str, dict]:
    return {str(n): {"mean": h["mean"], "ci95": h["ci95"], "median": h["median"],
                     "p90": h["p90"], "games": h["n"], "played": h["games"]}
            for n, h in sorted(lengths.items())}


def reordered(pack: Pack, world: str | None, order: tuple[int, ...]) -> Pack:
    """``pack`` with the played phases of ``world`` in ``order`` (printed numbers, a
    permutation of the played ones); a phase keeps its text, name and note and takes the
    number of the place it is played in (phases a game does not play stay where they are)."""
    w = pack.world(world)
    slots = [e.number for e in w.played]
    if sorted(order) != sorted(slots):
        raise PhaseDSLError(f"an order of phases {', '.join(map(str, slots))} is a permutation "
                            f"of them, not {', '.join(map(str, order))}")
    by_number = {e.number: e for e in w.phases}
    phases = list(w.phases)
    for slot, number in zip(slots, order, strict=True):
        e = by_number[number]
        phases[slot - 1] = PhaseEntry(slot, e.text, e.phase, e.name, e.note)
    new_world = replace(w, phases=tuple(phases))
    worlds = tuple(new_world if x is w else x for x in pack.worlds)
    return replace(pack, worlds=worlds)


def table_sizes(pack: Pack, world: str | None) -> list[int]:
    from .report import player_counts

    return player_counts(pack, world)


class _Games:
    """The simulations of one balance run, with one progress count over all of them: each
    plays until its figures are settled (``sampling``), at most ``games``."""

    def __init__(self, pack: Pack, world: str | None, games: int, seed: int, jobs: int,
                 progress: Callable[[int, int], None] | None, total: int) -> None:
        self.pack, self.world, self.games, self.seed, self.jobs = pack, world, games, seed, jobs
        self.progress, self.total, self.done = progress, total, 0

    def play(self, pack: Pack, players: int, settled: Rule) -> list:
        base = self.done

        def tick(k: int) -> None:
            if self.progress:
                self.progress(base + k, max(self.total, base + k))

        records = play_until(pack, players, self.games, self.seed, self.world, self.jobs,
                             settled, progress=tick)
        self.done += len(records)
        self.total -= self.games - len(records)  # (stopped early: less left to play)
        return records

    def expect(self, more: int) -> None:
        self.total += more * self.games


def _measure(games: _Games, pack: Pack, world: str | None, order: tuple[int, ...],
             players: int, with_dealt: bool) -> tuple[OrderFigures, list]:
    played = reordered(pack, world, order)
    records = games.play(played, players, both(flags_settled(played, world, players, games.games),
                                               length_settled(players)))
    rows = in_play(records, played, world, players, with_dealt=with_dealt, jobs=games.jobs)
    slots = [e.number for e in pack.world(world).played]
    printed = dict(zip(slots, order, strict=True))
    rows = tuple(replace(r, number=printed[r.number]) for r in rows)
    return OrderFigures(order, rows, {players: _length(records, players)}, len(records)), \
        records


def measure_order(pack: Pack, world: str | None, order: tuple[int, ...], players: int,
                  games: int = DEFAULT_GAMES, seed: int = DEFAULT_SEED, jobs: int = 1,
                  progress: Callable[[int, int], None] | None = None) -> OrderFigures:
    """One order of a world's played phases (printed numbers), measured as ``balance``
    measures today's: the same games, the same rule for when they are enough."""
    runs = _Games(pack, world, games, seed, jobs, progress, games)
    return _measure(runs, pack, world, order, players, True)[0]


def _length(records: list, players: int) -> dict:
    return summarize(records, players)["hands_per_game"] | {"games": len(records)}


def _by_share(order: tuple[int, ...], shares: dict[int, float | None]) -> tuple[int, ...]:
    # never attempted: last (it is at least as hard as anything that was); ties keep order
    return tuple(sorted(order, key=lambda n: -(shares.get(n) if shares.get(n) is not None
                                               else -1.0)))


def _swapped(figs: OrderFigures) -> tuple[int, ...]:
    order = list(figs.order)
    for n in figs.flagged + figs.maybe:
        i = order.index(n)
        if i:
            order[i - 1], order[i] = order[i], order[i - 1]
    return tuple(order)


def balance(pack: Pack | str, world: str | None = None, players: int | None = None,
            games: int = DEFAULT_GAMES, seed: int = DEFAULT_SEED, jobs: int = 1,
            all_sizes: bool = True,
            progress: Callable[[int, int], None] | None = None) -> Balance:
    """Measure ``pack``'s phases (``world``: one of several lists) at ``players`` (default
    four, or the largest table allowed), propose an order with no phase flagged, and give
    the game length of both orders at every allowed table size (``all_sizes``) or at
    ``players`` only.  ``progress(done, total)`` counts games played."""
    pack, world = as_pack(pack, "balance"), as_world(world, "balance")
    w = pack.world(world)
    name = w.name if len(pack.worlds) > 1 else None
    allowed = table_sizes(pack, name)
    if players is None:
        players = DEFAULT_PLAYERS if DEFAULT_PLAYERS in allowed or not allowed else allowed[-1]
    sizes = tuple(allowed) if all_sizes else (players,)
    if players not in sizes:
        sizes = tuple(sorted({*sizes, players}))
    matters = order_matters(pack, name)
    today = tuple(e.number for e in w.played)
    runs = _Games(pack, name, games, seed, jobs, progress, 0)
    runs.expect(2 * len(sizes) if matters else len(sizes))
    current, records = _measure(runs, pack, name, today, players, True)
    spaces: tuple[SpaceGain, ...] = ()
    if pack.board is not None:
        finished = [r for r in records if not (r.capped or r.stalled or r.forfeit)]
        spaces = space_gains(pack.board, board_figures(finished))
    proposed, rounds = current, 0
    if matters and current.flagged:
        pooled = {r.number: [r.completed, r.attempts] for r in current.phases}
        tried = {today}
        order = _by_share(today, {r.number: r.completed_share for r in current.phases})
        best = current
        while rounds < MAX_ROUNDS and order not in tried:
            if rounds:
                runs.expect(1)
            tried.add(order)
            figs, _ = _measure(runs, pack, name, order, players, False)
            rounds += 1
            if figs.badness < best.badness or (
                    best is current and figs.badness == best.badness):
                best = figs  # (a simulated proposal beats today's order on a tie)
            if not figs.flagged:
                break  # (a "maybe" left is said, not chased: each round is a full simulation)
            for r in figs.phases:
                pooled[r.number][0] += r.completed
                pooled[r.number][1] += r.attempts
            order = _by_share(order, {n: k / t if t else None for n, (k, t) in pooled.items()})
            if order in tried:
                order = _swapped(figs)
        proposed = _with_dealt(best, current)
    current = _lengths(runs, pack, name, current, sizes, players)
    if proposed.order == current.order:
        proposed = replace(proposed, lengths=current.lengths)
    else:
        proposed = _lengths(runs, pack, name, proposed, sizes, players)
    return Balance(pack.name, name, players, games, seed, matters, current, proposed, rounds,
                   sizes, runs.done, spaces)


def _with_dealt(figs: OrderFigures, current: OrderFigures) -> OrderFigures:
    # a phase's dealt chance does not depend on where it is played (postal aside: there
    # it is the chance at its place today), so it is worked out once
    dealt = {r.number: r.dealt for r in current.phases}
    return replace(figs, phases=tuple(replace(r, dealt=dealt.get(r.number)) for r in figs.phases))


def _lengths(runs: _Games, pack: Pack, world: str | None, figs: OrderFigures,
             sizes: tuple[int, ...], players: int) -> OrderFigures:
    lengths = dict(figs.lengths)
    played = reordered(pack, world, figs.order)
    for n in sizes:
        if n not in lengths:
            lengths[n] = _length(runs.play(played, n, length_settled(n)), n)
    return replace(figs, lengths=dict(sorted(lengths.items())))


def balance_worlds(pack: Pack | str, players: int | None = None, games: int = DEFAULT_GAMES,
                   seed: int = DEFAULT_SEED, jobs: int = 1, all_sizes: bool = True,
                   progress: Callable[[int, int], None] | None = None) -> list[Balance]:
    """``balance`` for every world of ``pack`` in turn (one progress count over all)."""
    pack = as_pack(pack, "balance_worlds")
    out: list[Balance] = []
    done = 0

    def tick(k: int, total: int) -> None:
        if progress:
            progress(done + k, done + total)

    for w in pack.worlds:
        got = balance(pack, w.name if len(pack.worlds) > 1 else None, players, games, seed,
                      jobs, all_sizes, tick)
        done += got.simulated
        out.append(got)
    return out


def comparison(results: list[Balance]) -> list[dict]:
    """One row per world: its game length at each table size (today's order), its hardest
    phase (lowest completion share) and its flags."""
    rows = []
    for b in results:
        tried = [r for r in b.current.phases if r.completed_share is not None]
        hardest = min(tried, key=lambda r: r.completed_share) if tried else None
        rows.append({"world": b.world, "phases": len(b.current.order),
                     "hands_per_game": {str(n): h["mean"] for n, h in b.current.lengths.items()},
                     "hardest": None if hardest is None else
                     {"number": hardest.number, "phase": hardest.phase,
                      "completed_share": hardest.completed_share},
                     "flagged": list(b.current.flagged), "maybe": list(b.current.maybe),
                     "order_matters": b.order_matters})
    return rows
