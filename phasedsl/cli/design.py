"""``phasedsl balance``: whether a pack's phases rise in difficulty, and an order that does."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from .common import ForceOpt, JobsOpt, JsonOpt, _out

PackArg = Annotated[str, typer.Argument(metavar="PACK", help="A built-in pack name or a pack "
                                                             "file.")]


def balance(
    pack_ref: PackArg,
    world: Annotated[str | None, typer.Option(
        "--world", "-w", metavar="WORLD",
        help="For packs with several phase lists: the one to balance (default: every one, "
             "and a table comparing them).")] = None,
    players: Annotated[int | None, typer.Option(
        "--players", "-n", min=2, max=6, metavar="N",
        help="The table to measure at, and the only one whose game length is given "
             "(default: measured at 4, game length at every table size allowed).")] = None,
    games: Annotated[int, typer.Option("--games", "-g", min=1, max=100_000, metavar="N",
                                       help="Games per simulation.")] = 0,
    seed: Annotated[int, typer.Option("--seed", metavar="N", help="Seed of the runs: game i is "
                                                                  "seeded from it and i.")] = 1,
    jobs: JobsOpt = 0,
    as_json: JsonOpt = False,
    write: Annotated[Path | None, typer.Option(
        "--write", metavar="FILE",
        help="Write the pack with its phases in the proposed order (comments kept).")] = None,
    force: ForceOpt = False,
) -> None:
    """Measure how hard each phase is, dealt and in play; flag a phase easier than the one
    before it; propose an order with no phase flagged; give the game length of both.

    Dealt: the chance a dealt hand makes the phase (exact where `odds` is, else
    sampled, with its 95% interval). In play: the share of attempts that complete it
    in seeded games between greedy bots, and the hands spent on it (95% intervals).
    A phase is flagged when it completes more often than the phase before and the
    intervals do not overlap ("maybe" when they overlap but differ by more than 5
    points). The proposed order is re-simulated with the same seeds. The default of
    120 games per simulation gives about +-4 points on the commonest phases.

    Examples:

        phasedsl balance original

        phasedsl balance world-tour --world jazz-club --players 3 --json

        phasedsl balance my-pack.yaml --write my-pack-balanced.yaml
    """
    from ..balance import DEFAULT_GAMES, balance_worlds
    from ..balance import balance as measure
    from ..outfiles import check_target
    from ..packs import load_pack

    games = games or DEFAULT_GAMES
    pack = load_pack(pack_ref)
    if world is not None:
        pack.world(world)
    if write is not None:
        check_target(write, force)
        from ..reorder import check_writable

        check_writable(pack, write)
    with _progress(as_json) as tick:
        if world is not None or len(pack.worlds) == 1:
            results = [measure(pack, world, players, games, seed, jobs,
                               all_sizes=players is None, progress=tick)]
        else:
            results = balance_worlds(pack, players, games, seed, jobs, players is None, tick)
    written = None
    if write is not None:
        from ..reorder import write_reordered

        written = write_reordered(pack, {r.world: r.proposed.order for r in results}, write,
                                  force)
    if as_json:
        if len(results) == 1 and (world is not None or len(pack.worlds) == 1):
            out = results[0].to_json()
        else:
            from ..balance import comparison

            out = {"pack": pack.name, "worlds": [r.to_json() for r in results],
                   "comparison": comparison(results)}
        if written is not None:
            out["written"] = written
        _out(json.dumps(out))
        return
    text = [balance_text(r, pack) for r in results]
    if len(results) > 1:
        text.append(comparison_text(results))
    if written is not None:
        text.append(written_text(written))
    _out("\n\n".join(text))


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _share(r) -> str:
    if r.completed_share is None:
        return "not attempted"
    lo, hi = r.completed_ci95
    return f"{100 * r.completed_share:.1f}% ({100 * lo:.1f}-{100 * hi:.1f})"


def _spent(r) -> str:
    if r.hands_spent_mean is None:
        return "-"
    lo, hi = r.hands_spent_ci95
    return f"{r.hands_spent_mean:.2f} ({lo:.2f}-{hi:.2f})"


def _mark(r) -> str:
    return {True: "*", "maybe": "?"}.get(r.easier_than_previous, "")


def _ordinal(n: int) -> str:
    tail = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{tail}"


def _table(rows, with_dealt: bool) -> list[str]:
    width = max([5, *(len(r.phase) for r in rows)])
    head = f"{'#':>3}  {'phase':<{width}}  "
    if with_dealt:
        head += f"{'dealt hand makes it':<20}  "
    head += f"{'completed (95% CI)':<19}  hands spent (95% CI)"
    lines = [head]
    for r in rows:
        line = f"{r.number:>3}  {r.phase:<{width}}  "
        if with_dealt:
            line += f"{r.dealt.describe() if r.dealt else '-':<20}  "
        line += f"{_share(r):<19}  {_spent(r):<18}"
        mark = _mark(r)
        lines.append((line + " " + mark) if mark else line.rstrip())
    return lines


def _flags(figs, names: dict[int, str]) -> list[str]:
    reasons = figs.reasons()
    lines = []
    if figs.flagged:
        lines.append("* easier than the phase before (the intervals do not overlap):")
        lines += [f"  phase {n} ({names[n]}): {reasons[n]}" for n in figs.flagged]
    if figs.maybe:
        lines.append("? maybe easier than the phase before (the intervals overlap, the "
                     "shares differ by more than 5 points):")
        lines += [f"  phase {n} ({names[n]}): {reasons[n]}" for n in figs.maybe]
    return lines


def _length(h: dict) -> str:
    if not h["n"]:
        return "no game finished"
    lo, hi = h["ci95"]
    return f"{h['mean']:.2f} ({lo:.2f}-{hi:.2f}), median {h['median']:g}"


def balance_text(b, pack) -> str:
    w = pack.world(b.world)
    title = f"{b.pack}" + (f" / {b.world} ({w.title})" if b.world else "")
    names = {r.number: r.phase for r in b.current.phases}
    lines = [f"{title}: {len(b.current.order)} phases, measured in {b.games:,} games of "
             f"{b.players} greedy bots (seed {b.seed})"]
    lines += _table(b.current.phases, True)
    if not b.order_matters:
        lines.append("players choose which phase to attempt (phase_order: any, or a declared "
                     "phase): the order does not matter, so nothing is flagged and no order "
                     "is proposed")
    else:
        lines += _flags(b.current, names) or ["no phase is easier than the one before it"]
    if b.order_matters and b.proposed.order != b.current.order:
        rounds = f"{b.rounds} order{'s' * (b.rounds != 1)} simulated"
        verdict = ("no phase flagged" if b.resolved else
                   f"still flagged: {', '.join(map(str, b.proposed.flagged))} (the best of "
                   f"the orders tried; no order without a flag was found)")
        lines.append(f"proposed order: {' '.join(map(str, b.proposed.order))} ({rounds}, the "
                     f"same seeds): {verdict}")
        lines.append("moved: " + "; ".join(f"phase {n} ({names[n]}) {_ordinal(a)} -> "
                                           f"{_ordinal(c)}" for n, a, c in b.moved))
        lines.append("the proposed order, re-simulated:")
        lines += _table(b.proposed.phases, False)
        lines += _flags(b.proposed, names)
    lines.append("game length, hands per game: mean (95% CI), median")
    sizes = sorted(b.current.lengths)
    changed = b.proposed.order != b.current.order
    cells = {n: (_length(b.current.lengths[n]),
                 _length(b.proposed.lengths[n]) if changed else "") for n in sizes}
    left = max(len("today"), *(len(c[0]) for c in cells.values()))
    lines.append(f"  players  {'today':<{left}}" + ("  proposed" if changed else ""))
    for n in sizes:
        now, then = cells[n]
        lines.append(f"  {n:>7}  {now:<{left}}" + (f"  {then}" if changed else ""))
    return "\n".join(line.rstrip() for line in lines)


def comparison_text(results) -> str:
    from ..balance import comparison

    rows = comparison(results)
    sizes = sorted({int(n) for r in rows for n in r["hands_per_game"]})
    width = max(5, *(len(r["world"]) for r in rows))
    cells = []
    for r in rows:
        hard = r["hardest"]
        hardest = "-" if hard is None else (f"{hard['number']}: {hard['phase']} "
                                            f"({_pct(hard['completed_share'])})")
        flags = ("order does not matter" if not r["order_matters"] else
                 ", ".join([*map(str, r["flagged"]), *(f"{n}?" for n in r["maybe"])]) or "none")
        hpg = "  ".join(f"{r['hands_per_game'][str(n)]:>5.1f}"
                        if r["hands_per_game"].get(str(n)) is not None else f"{'-':>5}"
                        for n in sizes)
        cells.append((r, hpg, hardest, flags))
    hard_w = max(len("hardest phase (completed)"), *(len(c[2]) for c in cells))
    lines = [f"the worlds compared (today's orders; hands per game at {', '.join(map(str, sizes))}"
             " players; ? maybe easier):",
             f"{'world':<{width}}  phases  " + "  ".join(f"{n:>5}" for n in sizes)
             + f"  {'hardest phase (completed)':<{hard_w}}  flagged"]
    for r, hpg, hardest, flags in cells:
        lines.append(f"{r['world']:<{width}}  {r['phases']:>6}  {hpg}  {hardest:<{hard_w}}  "
                     f"{flags}")
    return "\n".join(lines)


def written_text(written: dict) -> str:
    lines = [f"wrote {written['path']}"]
    if written.get("copied_from"):
        lines[0] += (f" (the phases come from {written['copied_from']}: the list is written "
                     "into the new file)")
    for w in written["worlds"]:
        where = f"{w['world']}: " if w["world"] else ""
        if not w["moved"]:
            lines.append(f"  {where}no phase moved")
        for m in w["moved"]:
            lines.append(f"  {where}{m['phase']!s}: phase {m['from']} -> {m['to']}")
    return "\n".join(lines)


class _progress:
    """A progress bar on a terminal while games are played (nothing when piped or --json);
    the total grows when a proposed order needs one more simulation."""

    def __init__(self, quiet: bool) -> None:
        self.quiet = quiet or not sys.stderr.isatty()
        self.bar = None

    def __enter__(self):
        if self.quiet:
            return None
        from rich.console import Console
        from rich.progress import Progress

        self.bar = Progress(transient=True, console=Console(stderr=True))  # (stdout: the answer)
        self.bar.start()
        task = self.bar.add_task("playing games", total=None)
        return lambda done, total: self.bar.update(task, completed=done, total=total)

    def __exit__(self, *exc) -> None:
        if self.bar is not None:
            self.bar.stop()
