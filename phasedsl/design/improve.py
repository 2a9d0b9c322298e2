"""An existing pack made better (``generate --from``): what ``balance`` passes is kept, and
only what it flags is moved or replaced.

1. ``balance`` measures the world as it is, in the games it plays at its defaults.  No
   phase flagged: nothing changes.
2. Each flagged phase alone is moved up to where its share of completed attempts fits
   (after the last phase before it that completes more often; the others keep their
   order), and the order is measured again: no flag left, that order is the answer
   (the phases are moved, none replaced).  Else balance's own proposal (every phase in
   the order of its share), where it removes every flag.
3. Otherwise the phases still flagged in the better of those two orders are replaced:
   every phase balance passes is held at its place in it (``generate``'s pins), and
   ``generate``'s settling rounds
   put in a flagged phase's place a new phrase of the pack's kinds whose share of
   completed attempts lies between its neighbours', played again until no phase is
   flagged (or the rounds run out, and the flags left are said).

Pure: packs in, an ``Improved`` out; ``reorder.write_reordered`` writes the file.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from ..model.coerce import as_world
from ..packs.pack import Pack, as_pack
from .balance import Balance, OrderFigures, balance, measure_order
from .difficulty import DEFAULT_GAMES, DEFAULT_SEED
from .generate import (
    CALIBRATION_EXTRA,
    EASY,
    HARD,
    KINDS,
    POOL,
    GenerateError,
    Progress,
    Rung,
    Table,
    candidates,
    flag_words,
    ladder,
    measure,
    screen,
    settle,
    share_of,
)


@dataclass(frozen=True)
class Improved:
    """What ``improve`` did to one world: ``how`` is "nothing", "moved" (the flagged phases
    alone moved up), "reordered" (balance's proposed order) or "replaced"; ``order`` the
    printed numbers of the phases in their new places (a replaced place keeps the number
    of the phase it replaced); ``replaced`` the new phrase of each replaced place (from 1);
    ``flags`` what balance still flags, in words; ``maybe`` the phases still only maybe
    easier than the one before (by printed number)."""

    world: str | None
    before: Balance
    how: str
    order: tuple[int, ...]
    replaced: dict[int, str]
    flags: tuple[str, ...] = ()
    maybe: tuple[int, ...] = ()

    def changes(self) -> list[str]:
        """Each change in words: "phase 8 (7 cards of one color) moved to 4th", "phase 7
        (2 sets of 4) replaced by 1 run of 6 + 1 set of 2"."""
        names = {r.number: r.phase for r in self.before.current.phases}
        out = []
        for place, number in enumerate(self.order, 1):
            if place in self.replaced:
                out.append(f"phase {place} ({names[number]}) replaced by {self.replaced[place]}")
            elif number != place:
                out.append(f"phase {number} ({names[number]}) moved to place {place}")
        return out

    def to_json(self) -> dict:
        return {"world": self.world, "how": self.how, "order": list(self.order),
                "replaced": {str(k): v for k, v in sorted(self.replaced.items())},
                "changes": self.changes(), "flags_left": list(self.flags),
                "maybe_left": list(self.maybe),
                "balance_before": {"flagged": list(self.before.current.flagged),
                                   "maybe": list(self.before.current.maybe),
                                   "games": self.before.current.games}}


def pack_kinds(pack: Pack, world: str | None) -> tuple[str, ...]:
    """The ``generate`` kinds a world's phases use (and "wrap" where its runs wrap)."""
    w = pack.world(world)
    used = {g.kind.value for e in w.played for g in e.phase.groups}
    if w.rules.runs_wrap:
        used.add("wrap")
    return tuple(k for k in KINDS if k in used)  # (wilds and skips are no generate kind)


def improve(pack: Pack | str, world: str | None = None, kinds: tuple[str, ...] | None = None,
            seed: int = 1, jobs: int = 1, games: int = DEFAULT_GAMES,
            players: int | None = None, progress: Progress | None = None) -> Improved:
    """``pack``'s ``world`` improved as the module says; ``kinds``: those new phrases may
    use (default: the kinds the world uses); ``seed`` chooses the new phrases."""
    pack, world = as_pack(pack, "improve"), as_world(world, "improve")
    progress = progress or (lambda stage, done, total: None)
    w = pack.world(world)
    name = w.name if len(pack.worlds) > 1 else None

    def tick(done: int, total: int) -> None:
        progress("balance", done, total)

    before = balance(pack, name, players, games, DEFAULT_SEED, jobs, all_sizes=False,
                     progress=tick)
    today = before.current.order
    if not before.current.flagged:
        return Improved(name, before, "nothing", today, {})
    moved = measure_order(pack, name, moved_up(before.current), before.players, games,
                          DEFAULT_SEED, jobs, tick)
    if not moved.flagged:
        return Improved(name, before, "moved", moved.order, {}, maybe=moved.maybe)
    if before.resolved:  # (balance's own proposal: every phase sorted by its share)
        return Improved(name, before, "reordered", before.proposed.order, {},
                        maybe=before.proposed.maybe)
    best = min((moved, before.proposed), key=lambda f: f.badness)
    return replace_flagged(pack, name, before, best, kinds or pack_kinds(pack, name), seed,
                           jobs, progress)


def moved_up(figs: OrderFigures) -> tuple[int, ...]:
    """``figs``' order with each flagged phase moved up to just after the last phase before
    it that completes more often (the others keep their order)."""
    share = {r.number: r.completed_share or 0.0 for r in figs.phases}
    order = list(figs.order)
    for n in figs.flagged:
        i = order.index(n)
        order.pop(i)
        j = i
        while j and share[order[j - 1]] < share[n]:
            j -= 1
        order.insert(j, n)
    return tuple(order)


def replace_flagged(pack: Pack, world: str | None, before: Balance, best: OrderFigures,
                    kinds: tuple[str, ...], seed: int, jobs: int, progress: Progress) -> Improved:
    """``best`` (an order of the world's phases, measured) with each phase it flags replaced,
    the others held at their places."""
    w = pack.world(world)
    rules = w.rules
    rows = {r.number: r for r in best.phases}
    entries = {e.number: e for e in w.played}
    flagged = set(best.flagged)
    order = [Rung(entries[n].phase, entries[n].phase.canonical(rules.deck), 0.0,
                  rows[n].dealt, rows[n]) for n in best.order]
    pins = {r.phase: i for i, r in enumerate(order) if r.play.number not in flagged}
    have = {e.phase for e in w.phases}
    found = [p for p in candidates(kinds, rules) if p not in have]
    if not found:
        raise GenerateError(f"no phrase of {', '.join(kinds)} fits a hand of "
                            f"{rules.hand_size} cards with nothing for lint to say: "
                            "--kinds allows more")
    rng = random.Random(f"phasedsl-improve:{seed}")
    sample = found if len(found) <= POOL else rng.sample(found, POOL)
    pool = screen(sample, rules, seed, jobs, progress)
    settings = dict(w.settings)
    table = Table(pack.name, settings, rules, before.players, before.games, DEFAULT_SEED,
                  jobs, progress)
    rungs = ladder(pool, min(len(pool), 3 * len(flagged) + CALIBRATION_EXTRA), EASY, HARD, rng)
    measured, _ = measure(sorted(rungs, key=lambda r: (-r.screen, r.text)),
                          replace(table, games=max(2, before.games // 2), seed=seed),
                          "measuring new phrases in play", sequential=False)
    spare = [r for r in measured if r.play is not None and r.play.completed_share is not None]
    if not spare:
        raise GenerateError("no new phrase of " + ", ".join(kinds) + " was completed in play")
    for i, r in enumerate(order):  # (each flagged phase replaced before the first round)
        if r.play.number not in flagged:
            continue
        above = share_of(order[i - 1]) if i else 1.0
        below = share_of(order[i + 1]) if i + 1 < len(order) else max(0.0, above - 0.2)
        new = min(spare, key=lambda c: (not below < share_of(c) < above,
                                        abs(share_of(c) - (above + below) / 2), c.text))
        spare.remove(new)
        order[i] = new
    got, _, _ = settle(order, spare, table, "", frozenset(pins), pins)
    by_phase = {entries[n].phase: n for n in best.order}
    new_order, replaced = [], {}
    taken = [by_phase[r.phase] for r in got if r.phase in by_phase]
    left = iter(n for n in best.order if n not in taken)  # (the numbers of replaced ones)
    for place, r in enumerate(got, 1):
        if r.phase in by_phase:
            new_order.append(by_phase[r.phase])
        else:
            new_order.append(next(left))
            replaced[place] = r.text
    return Improved(world, before, "replaced" if replaced else "reordered", tuple(new_order),
                    replaced, flag_words(got, before.games))

