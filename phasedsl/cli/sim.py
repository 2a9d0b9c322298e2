"""``phasedsl simulate`` and ``phasedsl report``: how a pack plays, from games between bots."""

from __future__ import annotations

import json
import os
import textwrap
from collections.abc import Callable, Iterator
from contextlib import closing
from dataclasses import replace
from pathlib import Path
from typing import Annotated, TypeVar

import typer

from ..errors import PhaseDSLError, printable
from ..players.extbot import DEFAULT_TIMEOUT
from ..system.outfiles import OutputError, check_folder, check_target, clear_folder, write_text
from .common import (
    ForceOpt,
    JobsOpt,
    JsonOpt,
    a_number,
    a_path,
    a_path_or_stdout,
    fail,
    plot_kind,
    progress_bar,
)
from .naming import PackAlias, PackArg, chosen_pack, complete_world, one_world

BotOpt = Annotated[str, typer.Option(
    "--bot", metavar="BOT",
    help="The bot in every seat: greedy, random, strong, module:path.to.Class or cmd:COMMAND (a "
         "program speaking phasedsl docs bot-protocol).")]
BotTimeoutOpt = Annotated[float, typer.Option(
    "--bot-timeout", metavar="SECONDS", min=0.001, max=3600, callback=a_number,
    help="Seconds a cmd: bot has for each answer; a later one forfeits its game.")]

WorldOpt = Annotated[str | None, typer.Option("--world", "-w", metavar="WORLD",
                                              autocompletion=complete_world,
                                              help="For packs with several phase lists: the one "
                                                   "to play.")]
SeedOpt = Annotated[int, typer.Option("--seed", metavar="N", help="Seed of the run: game i is "
                                                                  "seeded from it and i.")]


def simulate(
    pack_arg: PackArg = None,
    players: Annotated[int, typer.Option("--players", "-n", min=1, max=6, metavar="N",
                                         help="Players at the table (1: Phase 10 Dice "
                                              "solo).")] = 4,
    games: Annotated[int, typer.Option("--games", "-g", min=1, max=1_000_000, metavar="N",
                                       help="Games to play.")] = 100,
    world: WorldOpt = None,
    bot: BotOpt = "greedy",
    bot_timeout: BotTimeoutOpt = DEFAULT_TIMEOUT,
    seed: SeedOpt = 1,
    jobs: JobsOpt = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object instead of "
                                                         "text.")] = False,
    plot: Annotated[Path | None, typer.Option("--plot", metavar="FILE", parser=a_path,
                                              help="Draw the game length and phase curves to a "
                                                   ".png or .svg file (needs matplotlib).")] = None,
    logs: Annotated[Path | None, typer.Option("--logs", metavar="DIR", parser=a_path,
                                              help="Write each game's log (JSON lines) into this "
                                                   "folder as the game ends.")] = None,
    force: ForceOpt = False,
    variant: PackAlias = None,
) -> None:
    """Play many seeded games between bots and show how the pack plays.

    Hands per game (mean with a 95% interval, median, 10th and 90th percentiles,
    histogram), turns per hand, for each phase the hands players spend on it and the
    share of attempts that complete it (beside the chance a dealt hand makes it),
    win share by seat and the mean final score.

    --logs DIR refuses a folder that holds game-*.jsonl files already; with --force
    those are removed first, so that the folder holds this run's logs only.

    Examples:

        phasedsl simulate original --players 4 --games 200 --jobs 2

        phasedsl simulate short-game-5 -n 3 -g 50 --bot random --json

        phasedsl simulate world-tour --world jazz-club --games 50
    """
    from ..design.difficulty import phase_odds
    from ..design.simulate import play_games, summarize
    from ..packs.pack import load_pack
    from ..players.botspec import parse_bot

    if plot_kind(plot) is not None:
        fail(plot_kind(plot), as_json)
    if plot is not None:
        import importlib.util

        if importlib.util.find_spec("matplotlib") is None:  # say so before the games
            fail(PhaseDSLError("plotting needs matplotlib: pip install 'phasedsl[plot]'"), as_json)
    try:
        pack = load_pack(chosen_pack(pack_arg, variant))
        one_world(pack, world)
        if pack.dice is not None:
            from .dice import refuse_card_options

            # (the dice summary has no game-length and phase curves to draw)
            refuse_card_options("simulate", pack.name, {"--plot": plot})
            _simulate_dice(pack, players, games, bot, seed, world, as_json, logs, force,
                              bot_timeout)
            return
        spec = parse_bot(bot, bot_timeout)
        if plot is not None:
            check_target(plot, force)
        writer = LogWriter(logs, pack, games, force) if logs is not None else None
        records = collect_games(play_games(pack, players, games, spec, seed, world, jobs,
                                           keep_logs=writer is not None),
                                games, as_json, writer and writer.write)
        summary = {"variant": pack.name, "world": world, "players": players, "bot": bot,
                   "seed": seed, **summarize(records, players, phase_odds(pack, world))}
        if pack.board is not None:  # (a twist card's phase: its number is past the list)
            listed = len(pack.world(world).phases)
            for row in summary["phases"]:
                if row["phase"] > listed:
                    row["twist_phase"] = str(pack.board.twist_phases[row["phase"] - listed - 1])
        if plot is not None:
            plot_summary(summary, plot, force)
            summary["plot"] = str(plot)
    except PhaseDSLError as e:
        fail(e, as_json)
    if as_json:
        typer.echo(json.dumps(summary))
    else:
        typer.echo(summary_text(summary))
        if plot is not None:
            typer.echo(f"wrote {plot}")


T = TypeVar("T")


def collect_games(run: Iterator[T], total: int, quiet: bool,
                  keep: Callable[[T], T] | None = None) -> list[T]:
    """Every game of a run, in order, under a progress bar of ``total`` games (none when
    ``quiet``); ``keep`` (a ``LogWriter``'s: it writes the game's log and forgets it) is
    applied to each as it ends.  The run is closed however this ends (its workers too)."""
    played: list[T] = []
    with progress_bar(quiet, "playing games", total) as bar, closing(run):
        for g in run:
            played.append(keep(g) if keep is not None else g)
            if bar:
                bar(completed=len(played))
    return played


class LogWriter:
    """Each game's log, written into the folder as the game ends (whole: outfiles), so
    that an interrupted run keeps every game it finished."""

    PATTERN = "game-*.jsonl"

    def __init__(self, folder: Path, pack, games: int, force: bool) -> None:
        from ..system.resources import variants_dir

        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise PhaseDSLError(f"cannot make the folder {folder}: {e.strerror}") from None
        try:
            old = sorted(folder.glob(self.PATTERN))
        except OSError as e:
            raise PhaseDSLError(f"cannot read the folder {folder}: {e.strerror}") from None
        if old and not force:
            raise OutputError(f"{folder} holds game logs already ({old[0].name}): give "
                              "--force to replace them")
        check_folder(folder)  # (a folder that takes no file: said now, not after a game)
        if old:
            # a shorter run must not leave the longer one's last games beside its own
            clear_folder(folder, self.PATTERN)
        self.folder = folder
        self.width = max(4, len(str(games)))
        # A log names a pack file relative to the log's own folder.
        self.variant = None
        if pack.path is not None and Path(pack.path).parent != variants_dir():
            self.variant = os.path.relpath(Path(pack.path).resolve(), folder.resolve())

    def write(self, rec):
        lines = list(rec.log)
        if self.variant is not None and lines:
            header = json.loads(lines[0])
            header["variant"] = self.variant
            lines[0] = json.dumps(header)
        self.write_lines(rec.index, lines)
        return replace(rec, log=())

    def write_lines(self, index: int, lines: list[str]) -> None:
        """Game ``index``'s log (from 0), its lines as they are."""
        write_text(self.folder / f"game-{index + 1:0{self.width}d}.jsonl",
                   "\n".join(lines) + "\n")


def forfeits_text(forfeited: list[dict], names: dict[int, str] | None = None) -> str:
    """The games a bot forfeited, the first few with why (``names``: who sat where)."""
    from ..design.simulate import PLAYER_NAMES

    lines = [f"forfeited (a bot failed; not counted): {len(forfeited)} game(s)"]
    for f in forfeited[:5]:
        who = names.get(f["seat"]) if names else PLAYER_NAMES[f["seat"]]
        lines += textwrap.wrap(f"{who} (seat {f['seat'] + 1}) at move {f['move']}, "
                               f"{f['reason']}: {printable(f['message'])}", 80,
                               initial_indent=f"  game {f['game']}: ",
                               subsequent_indent=" " * 6, break_on_hyphens=False)
    if len(forfeited) > 5:
        lines.append(f"  ... and {len(forfeited) - 5} more")
    return "\n".join(lines)


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _span(ci: list[float] | None) -> str:
    return "-" if ci is None else f"{100 * ci[0]:.0f}-{100 * ci[1]:.0f}%"


def _dealt(d: dict | None) -> str:
    """A dealt chance as ``simulate`` shows it: exact, or sampled with its interval."""
    if d is None:
        return "-"
    p = d["probability"]
    places = 1 if p >= 0.01 else 2 if p >= 0.001 else 3  # (a rare phase's figure is read)
    if d["method"] == "exact":
        return f"{100 * p:.{places}f}% exact"
    lo, hi = d["ci95"]
    return f"{100 * p:.{places}f}% ({100 * lo:.{places}f}-{100 * hi:.{places}f}%)"


def _mean(mean: float | None, ci: list[float] | None) -> str:
    return "-" if mean is None else f"{mean:.1f} (95% CI {ci[0]:.1f}-{ci[1]:.1f})"


def board_text(b: dict) -> list[str]:
    """A board game's figures in words (``simulate.board_figures``)."""
    g, t = b["spaces_per_hand"], b["twist"]
    out = [f"spaces gained per hand: mean {g['mean']:.2f} (95% CI {g['ci95'][0]:.2f}-"
           f"{g['ci95'][1]:.2f}, {g['n']:,} hands)"]
    if t["offered"]:
        out.append(f"twist cards: taken in {t['taken']:,} of {t['offered']:,} hands on a twist "
                   f"space, {_pct(t['taken_share'])} ({_span(t['taken_ci95'])})")
        if t["taken"]:
            out.append(f"  the twist made: {t['paid']:,} of {t['taken']:,}, "
                       f"{_pct(t['paid_share'])} ({_span(t['paid_ci95'])})")
    out.append("space  hands  mean gain (95% CI)")
    for row in b["spaces"]:
        ci = row["ci95"]
        out.append(f"{row['space']:>5}  {row['hands']:>5}  {row['mean_gain']:>+6.2f} "
                   f"({ci[0]:+.2f} to {ci[1]:+.2f})")
    return out


def summary_text(s: dict) -> str:
    from ..design.simulate import PLAYER_NAMES

    world = f" ({s['world']})" if s["world"] else ""
    games = f"{s['games']:,} game{'s' if s['games'] != 1 else ''}"
    lines = [f"{s['variant']}{world}: {games} of {s['players']} {s['bot']} bots, "
             f"seed {s['seed']}"]
    if s["capped"]:
        lines.append(f"stopped at the safety cap (not counted): {len(s['capped'])} game(s), "
                     f"numbers {', '.join(str(n) for n in s['capped'][:10])}")
    if s.get("forfeited"):
        lines.append(forfeits_text(s["forfeited"]))
    if s.get("stalled"):
        lines.append(f"stalled (no hand could ever end; stopped, not counted): "
                     f"{len(s['stalled'])} game(s), numbers "
                     f"{', '.join(str(n) for n in s['stalled'][:10])}")
    for w in s.get("why_stopped", []):
        games = ", ".join(str(n) for n in w["games"][:10]) + (", ..." if len(w["games"]) > 10 else "")
        lines += textwrap.wrap(f"why game{'s' * (len(w['games']) != 1)} {games} stopped: {w['why']}",
                               80, subsequent_indent="  ")
    h = s["hands_per_game"]
    if not h["n"]:
        lines.append("no game finished")
        return "\n".join(lines)
    lines.append(f"hands per game: mean {h['mean']:.2f} (95% CI {h['ci95'][0]:.2f}-"
                 f"{h['ci95'][1]:.2f}), median {h['median']:g},")
    lines.append(f"  10th-90th percentile {h['p10']:g}-{h['p90']:g}")
    top = max(h["histogram"].values())
    for hands, count in h["histogram"].items():
        bar = "#" * max(1, round(40 * count / top))
        lines.append(f"  {hands:>4} hands  {count:>6}  {bar}")
    t = s["turns_per_hand"]
    lines.append(f"turns per hand: mean {t['mean']:.1f} (95% CI {t['ci95'][0]:.1f}-"
                 f"{t['ci95'][1]:.1f}, {t['n']:,} hands), median {t['median']:g},")
    lines.append(f"  10th-90th percentile {t['p10']:g}-{t['p90']:g}")
    lines.append(f"phase  {'completed (95% CI) of attempts':<30}  {'hands spent (95% CI)':<20}"
                 "  dealt hand makes it")
    for row in s["phases"]:
        twist = f"  (twist card: {row['twist_phase']})" if row.get("twist_phase") else ""
        done = (f"{_pct(row['completed_share'])} ({_span(row['completed_ci95'])}) of "
                f"{row['attempts']:,}")
        lo, hi = row["hands_spent_ci95"]
        spent = f"{row['hands_spent']:.2f} ({lo:.2f}-{hi:.2f})"
        lines.append(f"{row['phase']:>5}  {done:<30}  {spent:<20}  {_dealt(row['dealt'])}{twist}")
    sampled = {r["dealt"]["samples"] for r in s["phases"]
               if r["dealt"] and r["dealt"]["method"] == "sampled"}
    if sampled:
        lines.append(f"  (a dealt chance with an interval: sampled from {max(sampled):,} dealt "
                     "hands; the others counted)")
    if s.get("board"):
        lines += board_text(s["board"])
    n = s["hands_per_game"]["n"]
    lines.append(f"win share by seat (seat 1 plays first; 95% interval, {n:,} games):")
    seats = [f"{k + 1} ({PLAYER_NAMES[k]}) {_pct(w)} ({_span(ci)})"
             for k, (w, ci) in enumerate(zip(s["win_share_by_seat"], s["win_share_ci95"],
                                             strict=True))]
    lines += ["  " + ", ".join(seats[i:i + 3]) for i in range(0, len(seats), 3)]
    lines.append(f"mean final score: {_mean(s['mean_final_score'], s['mean_final_score_ci95'])}"
                 f"; winners {_mean(s['mean_winning_score'], s['mean_winning_score_ci95'])}")
    return "\n".join(lines)


def plot_summary(s: dict, path: Path, force: bool = False) -> None:
    """Game length histogram and the phase curve (matplotlib, an optional extra)."""
    from ..api import drawing

    with drawing(path, "the figures", force, ncols=2, figsize=(11, 4.5)) as (fig, (a, b)):
        hist = s["hands_per_game"]["histogram"]
        a.bar([int(k) for k in hist], list(hist.values()))
        a.set_xlabel("hands per game")
        a.set_ylabel("games")
        a.set_title(f"{s['variant']}: {s['games']} games, {s['players']} players")
        rows = s["phases"]
        xs = [r["phase"] for r in rows]
        b.plot(xs, [r["hands_spent"] for r in rows], marker="o", label="hands spent on it")
        b.set_xlabel("phase")
        b.set_ylabel("hands")
        b.set_xticks(xs)
        c = b.twinx()
        c.plot(xs, [100 * r["completed_share"] for r in rows], marker="s", color="green",
               label="attempts completed (%)")
        if all(r["dealt_odds"] is not None for r in rows):
            c.plot(xs, [100 * r["dealt_odds"] for r in rows], marker="^", color="gray",
                   label="dealt hand makes it (%)")
        c.set_ylabel("%")
        fig.legend(loc="upper right")


def report(
    output: Annotated[Path, typer.Option("--output", "-o", metavar="FILE",
                                         parser=a_path_or_stdout,
                                         help="The HTML file to write (- for standard "
                                              "output).")],
    pack_arg: PackArg = None,
    world: Annotated[str | None, typer.Option(
        "--world", "-w", metavar="WORLD", autocompletion=complete_world,
        help="For packs with several phase lists: report this one only (default: every "
             "world, compared on one page).")] = None,
    games: Annotated[int | None, typer.Option(
        "--games", "-g", min=1, max=100_000, metavar="N",
        help="The most games per table size (2-6 players; fewer where the figures settle sooner) "
             "[default: 80, as balance; 20 for each world of a pack "
             "of several].", show_default=False)] = None,
    seed: SeedOpt = 1,
    jobs: JobsOpt = 0,
    force: ForceOpt = False,
    as_json: JsonOpt = False,
    variant: PackAlias = None,
) -> None:
    """Write a one-page HTML report of a pack: rules in words, phases (also in plain
    words), how hard each is (the chance a dealt hand makes it, exact where it can be
    counted, and the share of attempts completed in play, with 95% intervals and the
    phases easier than the one before flagged), game length for 2-6 players, and a
    printable phase and score sheet.

    A pack of several worlds without --world: every world on one page, with a table
    comparing them. Self-contained (inline SVG and CSS, no script, nothing fetched).
    --games and --jobs trade time for precision. An existing FILE is replaced only with
    --force.

    Examples:

        phasedsl report original -o original.html

        phasedsl report world-tour -o world-tour.html --jobs 2

        phasedsl report world-tour --world jazz-club -o jazz.html --games 200
    """
    from ..design.report import pack_figures, planned_work, render_html
    from ..packs.pack import load_pack

    try:
        pack = load_pack(chosen_pack(pack_arg, variant))
        if world is not None:
            pack.world(world)
        to_stdout = str(output) == "-"
        if to_stdout and as_json:
            raise PhaseDSLError("-o - writes the page to standard output, where --json would "
                                "write too: name a file, or leave out --json")
        if not to_stdout:
            check_target(output, force)
        if pack.dice is not None:
            _dice_report(pack, world, output, games or 80, seed, force, as_json)
            return
        with progress_bar(as_json, "playing games", planned_work(pack, world, games)) as bar:
            tick = bar and (lambda done: bar(completed=done))
            figures = pack_figures(pack, world, games, seed, jobs, progress=tick)
        _written(pack, world, output, render_html(pack, world, figures), figures, force,
                 as_json)
    except PhaseDSLError as e:
        fail(e, as_json)


def _dice_report(pack, world, output, games: int, seed: int, force: bool, as_json: bool) -> None:
    """``report`` of a dice pack (design.dicereport): two best-chance bots a game."""
    from ..design.dicereport import dice_figures, render_dice_html

    with progress_bar(as_json, "counting phases", None) as bar:
        figures = dice_figures(pack, world, games, 2, seed,
                               bar and (lambda done: bar(completed=done)),
                               bar and _then_games(bar, games))
    _written(pack, world, output, render_dice_html(pack, world, figures), figures, force,
             as_json)


def _written(pack, world, output: Path, page: str, figures: dict, force: bool,
             as_json: bool) -> None:
    """The report's page written to ``output`` (``-``: standard output, the page alone),
    and what was written said."""
    if str(output) == "-":
        typer.echo(page, nl=False)
        return
    size = write_text(output, page, force)
    if as_json:
        typer.echo(json.dumps({"variant": pack.name, "world": world, "path": str(output),
                               "bytes": size, "figures": figures}))
    else:
        typer.echo(f"wrote {output} ({size:,} bytes)")


def _then_games(bar, games: int):
    """A dice pack's progress: its phases worked out (``(done, phases)``), then its games."""
    def preparing(done: int, total: int) -> None:
        if done < total:
            bar(completed=done, total=total)
        else:
            bar(description="playing games", completed=0, total=games)
    return preparing


def _simulate_dice(pack, players: int, games: int, bot: str, seed: int, world: str | None,
                      as_json: bool, logs, force: bool, timeout: float) -> None:
    """``simulate`` of a dice pack: the bots are best-chance (the default), best-score,
    naive and cmd:COMMAND."""
    from ..design.dicesim import dice_summary_text, simulate_dice, summarize_dice
    from ..players.botspec import dice_bot

    bot = "best-chance" if bot == "greedy" else bot
    dice_bot(bot, pack.dice, None, timeout)  # (a bad --bot is said before any game)
    each = None
    if logs is not None:
        from ..dice import log_lines
        from ..game.log import dice_header, variant_ref

        writer = LogWriter(logs, pack, games, force)  # (refuses old logs before any game)
        ref = variant_ref(pack, logs)

        def each(r) -> None:  # (each game's log written as it ends, as for cards)
            header = dice_header(pack, ref, world, r.final.players, r.seed)
            writer.write_lines(r.index, list(log_lines(header, r.moves, r.final)))

    with progress_bar(as_json, "counting phases", None) as bar:
        records = simulate_dice(pack, players, games, bot, seed, world, timeout=timeout,
                                each=each, progress=bar and (lambda done: bar(completed=done)),
                                preparing=bar and _then_games(bar, games))
    summary = {"variant": pack.name, "world": world, "players": players, "bot": bot,
               "seed": seed, **summarize_dice(records, players)}
    if as_json:
        typer.echo(json.dumps(summary))
    else:
        typer.echo(dice_summary_text(summary, pack, players, bot))
