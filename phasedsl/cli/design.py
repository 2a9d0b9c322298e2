"""``phasedsl balance``: whether a pack's phases rise in difficulty, and an order that does."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from .common import ForceOpt, JobsOpt, JsonOpt, a_path, progress_bar, say
from .naming import PackAlias, PackArg, chosen_pack, complete_world

# Times ``balance --settle`` measures again at most.
SETTLE_ROUNDS = 3


def balance(
    pack_arg: PackArg = None,
    world: Annotated[str | None, typer.Option(
        "--world", "-w", metavar="WORLD", autocompletion=complete_world,
        help="For packs with several phase lists: the one to balance (default: every one, "
             "and a table comparing them).")] = None,
    players: Annotated[int | None, typer.Option(
        "--players", "-n", min=2, max=6, metavar="N",
        help="The table to measure at, and the only one whose game length is given "
             "(default: measured at 4, game length at every table size allowed).")] = None,
    games: Annotated[int | None, typer.Option(
        "--games", "-g", min=1, max=100_000, metavar="N",
        help="The most games a simulation plays (default 80); it stops sooner, from 40 "
             "games, once every flag is settled and the game length is known to 4%.")] = None,
    seed: Annotated[int, typer.Option("--seed", metavar="N", help="Seed of the runs: game i is "
                                                                  "seeded from it and i.")] = 1,
    jobs: JobsOpt = 0,
    as_json: JsonOpt = False,
    write: Annotated[Path | None, typer.Option(
        "--write", metavar="FILE", parser=a_path,
        help="Write the pack with its phases in the proposed order (comments kept).")] = None,
    force: ForceOpt = False,
    settle: Annotated[bool, typer.Option(
        "--settle", help="Where a phase is only maybe easier than the one before (?), measure "
                         "again with as many games as would settle it, were the shares to "
                         "hold (at most 20,000 a simulation; up to three times, as the "
                         "shares move).")] = False,
    variant: PackAlias = None,
) -> None:
    """Measure how hard each phase is, dealt and in play; flag a phase easier than the one
    before it; propose an order with no phase flagged; give the game length of both.

    Dealt: the chance a dealt hand makes the phase (exact where `odds` is, else
    sampled, with its 95% interval). In play: the share of attempts that complete it
    in seeded games between greedy bots, and the hands spent on it (95% intervals).
    A phase is flagged when it completes more often than the phase before and the
    intervals do not overlap ("maybe" when they overlap but differ by more than 5
    points). The proposed order is re-simulated with the same seeds. Each simulation
    plays until no phase is only maybe easier than the one before and the game
    length is known to 4% (at most 80 games by default; each figure says the games
    it rests on).

    Examples:

        phasedsl balance original

        phasedsl balance world-tour --world jazz-club --players 3 --json

        phasedsl balance my-pack.yaml --write my-pack-balanced.yaml
    """
    from ..design.balance import DEFAULT_GAMES, balance_worlds
    from ..design.balance import balance as measure
    from ..packs.pack import load_pack
    from ..system.outfiles import check_target

    games = games or DEFAULT_GAMES
    pack = load_pack(chosen_pack(pack_arg, variant))
    if world is not None:
        pack.world(world)
    if write is not None:
        check_target(write, force)
        from ..design.reorder import check_writable

        check_writable(pack, write)
    def measured(n: int, label: str) -> list:
        """Every world asked for, balanced with ``n`` games a simulation."""
        with progress_bar(as_json, label) as bar:
            # (the total grows when a proposed order needs one more simulation)
            tick = bar and (lambda done, total: bar(completed=done, total=total))
            if world is not None or len(pack.worlds) == 1:
                return [measure(pack, world, players, n, seed, jobs,
                                all_sizes=players is None, progress=tick)]
            return balance_worlds(pack, players, n, seed, jobs, players is None, tick)

    results = measured(games, "playing games")
    settled = None
    for _ in range(SETTLE_ROUNDS if settle else 0):
        # (the shares move as games are added: measured again until no ? is left that
        # more games would settle, or the rounds run out)
        needed = [g for r in results for g in r.current.to_settle(r.current.games).values()
                  if g is not None]
        if not needed or max(needed) <= (settled or games):
            break
        settled = max(needed)
        results = measured(settled, f"settling: {settled:,} games")
    written = None
    if write is not None and all(r.proposed.order == r.current.order for r in results):
        # a copy of the pack as it is would only look like a change
        written = {"path": str(write), "written": False, "reason": "no change is proposed"}
    elif write is not None:
        from ..design.reorder import write_reordered

        made_by = " ".join(["phasedsl balance", pack_arg or variant or "original",
                            *(["--world", world] if world else []),
                            *(["--players", str(players)] if players else []),
                            "--games", str(results[0].games), "--seed", str(seed),
                            "--write", write.name])
        written = write_reordered(pack, {r.world: r.proposed.order for r in results}, write,
                                  force, made_by)
    if as_json:
        if len(results) == 1 and (world is not None or len(pack.worlds) == 1):
            out = results[0].to_json()
        else:
            from ..design.balance import comparison

            out = {"pack": pack.name, "worlds": [r.to_json() for r in results],
                   "comparison": comparison(results)}
        if written is not None:
            out["written"] = written
        if settle:
            out["settled_with"] = settled
        say(json.dumps(out))
        return
    text = [balance_text(r, pack) for r in results]
    if len(results) > 1:
        text.append(comparison_text(results))
    if written is not None:
        text.append(written_text(written))
    if settle:
        text.append(f"--settle: measured again with {settled:,} games a simulation"
                    if settled is not None else
                    "--settle: nothing to settle (no ? flag that more games would settle)")
    say("\n\n".join(text))


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _share(r) -> str:
    if r.completed_share is None:
        return "not tried"
    lo, hi = r.completed_ci95
    return f"{100 * r.completed_share:.1f} ({100 * lo:.1f}-{100 * hi:.1f})"


def _spent(r) -> str:
    if r.hands_spent_mean is None:
        return "-"
    lo, hi = r.hands_spent_ci95
    return f"{r.hands_spent_mean:.2f} ({lo:.2f}-{hi:.2f})"


def _dealt(d) -> str:
    if d is None:
        return "-"
    if d.method == "exact":
        return f"{100 * d.probability:.4f} exact"
    lo, hi = d.ci95
    # odds' digits, so that the two print one figure for one question (at two decimals a
    # rare phase read "0.01 (0.01-0.04)" where odds says 0.0150% (0.005-0.044%))
    return f"{100 * d.probability:.4f} ({100 * lo:.3f}-{100 * hi:.3f})"


def _mark(r) -> str:
    return {True: "*", "maybe": "?"}.get(r.easier_than_previous, "")


def _ordinal(n: int) -> str:
    tail = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{tail}"


# The table fits 80 columns, a long phase wrapping in its own.
WIDTH = 80


def _wrap_phase(text: str, width: int) -> list[str]:
    """A phase in lines of ``width``, broken between its groups where it can be."""
    import textwrap

    lines: list[str] = []
    for group in text.split(" + "):
        if lines and len(lines[-1]) + 3 + len(group) <= width:
            lines[-1] += " + " + group
        elif lines:
            lines[-1] += " +"
            lines += textwrap.wrap(group, width) or [group]
        else:
            lines += textwrap.wrap(group, width) or [group]
    return lines


def _table(rows, with_dealt: bool) -> list[str]:
    heads = (["dealt %"] if with_dealt else []) + ["completed %", "hands spent"]
    cells = [([_dealt(r.dealt)] if with_dealt else []) + [_share(r), _spent(r)] for r in rows]
    # each column as wide as its widest cell: a sampled figure's interval is longer than an
    # exact one's word, and a fixed width let the columns after it shift on its row
    widths = [max(len(c) for c in column) for column in zip(heads, *cells, strict=True)]
    room = WIDTH - (3 + 2 + sum(w + 2 for w in widths) + 2)
    width = max(5, min(room, max(len(r.phase) for r in rows)))

    def line(number: str, phase: str, row: list[str]) -> str:
        return "  ".join([f"{number:>3}", f"{phase:<{width}}",
                          *(f"{c:<{w}}" for c, w in zip(row, widths, strict=True))])

    lines = [line("#", "phase", heads).rstrip()]
    for r, row in zip(rows, cells, strict=True):
        parts = _wrap_phase(r.phase, width)
        mark = _mark(r)
        lines.append(f"{line(str(r.number), parts[0], row)} {mark}" if mark
                     else line(str(r.number), parts[0], row).rstrip())
        lines += [f"{'':>3}  {more}" for more in parts[1:]]
    return lines


def _flags(figs, names: dict[int, str]) -> list[str]:
    import textwrap

    from ..design import MOST_SETTLE_GAMES

    reasons = figs.reasons()
    games = figs.games
    settle = figs.to_settle(games)
    lines = []
    for numbers, head in ((figs.flagged, "* easier than the phase before (the intervals do "
                                         "not overlap):"),
                          (figs.maybe, "? maybe easier than the phase before (the intervals "
                                       "overlap, the shares differ by more than 5 points):")):
        if numbers:
            lines += textwrap.wrap(head, WIDTH, subsequent_indent="  ")
            for n in numbers:
                lines += textwrap.wrap(f"phase {n} ({names[n]}): {reasons[n]}", WIDTH,
                                       initial_indent="  ", subsequent_indent="    ")
                if n in settle:
                    needed = settle[n]
                    said = (f"about {needed:,} games a simulation would settle it (today "
                            f"{games:,}), were the shares to hold: balance --settle plays "
                            "them" if needed is not None else
                            f"too close to settle by play (more than {MOST_SETTLE_GAMES:,} "
                            "games a simulation)")
                    lines += textwrap.wrap(said, WIDTH, initial_indent="    ",
                                           subsequent_indent="    ")
    return lines


def _games(played: int, most: int) -> str:
    """"40 games (settled; at most 80)": how many games a figure rests on."""
    return (f"{played:,} games (settled; at most {most:,})" if played < most
            else f"{played:,} games")


def _length(h: dict) -> str:
    if not h["n"]:
        return "no game finished"
    lo, hi = h["ci95"]
    return f"{h['mean']:.2f} ({lo:.2f}-{hi:.2f}), median {h['median']:g}, {h['games']} games"


def balance_text(b, pack) -> str:
    w = pack.world(b.world)
    title = f"{b.pack}" + (f" / {b.world} ({w.title})" if b.world else "")
    names = {r.number: r.phase for r in b.current.phases}
    import textwrap

    from ..design import MIN_SPACE_HANDS

    lines = textwrap.wrap(f"{title}: {len(b.current.order)} phases, measured in "
                          f"{_games(b.current.games, b.games)} of {b.players} greedy bots "
                          f"(seed {b.seed}); 95% intervals in brackets", WIDTH)
    lines += _table(b.current.phases, True)
    sampled = [r.dealt.samples for r in b.current.phases
               if r.dealt is not None and r.dealt.method == "sampled" and r.dealt.samples]
    if sampled:  # an interval says little without the count it rests on (odds says it too)
        lines.append(f"sampled dealt figures: {sampled[0]:,} hands each, seeded")
    if not b.order_matters:
        lines += textwrap.wrap("players choose which phase to attempt (phase_order: any, or a "
                               "declared phase): the order does not matter, so nothing is "
                               "flagged and no order is proposed", WIDTH)
    else:
        flagged = _flags(b.current, names)
        lines += flagged or ["no phase is easier than the one before it"]
        if flagged:
            lines += textwrap.wrap("(a flag follows play, the share of attempts completed, not "
                                   "the dealt chance: a phase is made over a hand's draws, and "
                                   "some phases gain more from them than others)", WIDTH)
    if b.order_matters and b.proposed.order != b.current.order:
        rounds = f"{b.rounds} order{'s' * (b.rounds != 1)} simulated"
        unsettled = ", ".join(map(str, b.proposed.maybe))
        verdict = ((f"no phase surely easier than the one before; maybe: {unsettled} (marked "
                    "?, the intervals overlap: --settle measures it with the games it needs)")
                   if unsettled else "no phase flagged"
                   if b.resolved else
                   f"still flagged: {', '.join(map(str, b.proposed.flagged))} (the best of "
                   f"the orders tried; no order without a flag was found)")
        lines += textwrap.wrap(f"proposed order: {' '.join(map(str, b.proposed.order))} "
                               f"({rounds}, the same seeds): {verdict}", WIDTH,
                               subsequent_indent="  ")
        moved = ", ".join(f"{n} to {_ordinal(c)}" for n, _, c in b.moved)
        lines += textwrap.wrap(f"moved: {moved}", WIDTH, subsequent_indent="  ")
        lines.append(f"the proposed order, re-simulated "
                     f"({_games(b.proposed.games, b.games)}):")
        lines += _table(b.proposed.phases, False)
        lines += _flags(b.proposed, names)
    if b.board:
        lines += textwrap.wrap("on the board (today's order): spaces gained a hand at each space, "
                               f"mean (95% CI); spaces with fewer than {MIN_SPACE_HANDS} hands, "
                               "and those whose moves the finish cuts short, are shown, not "
                               "judged", WIDTH)
        lines.append("  space  what       hands  gain")
        for s in b.board:
            lines.append(f"  {s.space:>5}  {s.what:<9}  {s.hands:>5}  {s.mean_gain:+.2f} "
                         f"({s.ci95[0]:+.2f} to {s.ci95[1]:+.2f})" + ("  FLAGGED" if s.flag else ""))
        flagged = [s for s in b.board if s.flag]
        for s in flagged:
            lines += textwrap.wrap(f"space {s.space} ({s.what}) is {s.flag}", WIDTH,
                                   subsequent_indent="  ")
        if not flagged:
            lines.append("no space is out of line")
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
    """One row per world (today's orders): its game length at each table size, its
    hardest phase and its flags; a world's name on a line of its own when it is long."""
    import textwrap

    from ..design.balance import comparison

    rows = comparison(results)
    sizes = sorted({int(n) for r in rows for n in r["hands_per_game"]})
    name_w = 14
    lines = textwrap.wrap("the worlds compared (today's orders): hands per game at "
                          f"{', '.join(map(str, sizes))} players, the hardest phase (its "
                          "completion share), the phases flagged (? maybe easier)", WIDTH)
    lines.append(f"{'world':<{name_w}}  " + " ".join(f"{n:>5}" for n in sizes)
                 + "  hardest      flagged")
    for r in rows:
        hard = r["hardest"]
        hardest = "-" if hard is None else f"{hard['number']} ({_pct(hard['completed_share'])})"
        flags = ("order does not matter" if not r["order_matters"] else
                 ", ".join([*map(str, r["flagged"]), *(f"{n}?" for n in r["maybe"])]) or "none")
        hpg = " ".join(f"{r['hands_per_game'][str(n)]:>5.1f}"
                       if r["hands_per_game"].get(str(n)) is not None else f"{'-':>5}"
                       for n in sizes)
        name = r["world"]
        if len(name) > name_w:
            lines.append(name)
            name = ""
        lines.append(f"{name:<{name_w}}  {hpg}  {hardest:<11}  {flags}")
    return "\n".join(line.rstrip() for line in lines)


def written_text(written: dict) -> str:
    if written.get("written") is False:
        return f"{written['path']} not written: {written['reason']}"
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


