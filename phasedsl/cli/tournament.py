"""``phasedsl tournament``: bots against each other on duplicate deals, seats rotated."""

from __future__ import annotations

import json
import textwrap
from dataclasses import replace
from pathlib import Path
from typing import Annotated

import typer

from ..errors import PhaseDSLError, printable
from ..players.extbot import DEFAULT_TIMEOUT
from .common import ForceOpt, JobsOpt, JsonOpt, a_path, fail
from .naming import OriginalPackArg, PackAlias, chosen_pack, one_world
from .sim import BotTimeoutOpt, LogWriter, WorldOpt, collect_games


def tournament(
    bot: Annotated[list[str], typer.Option(
        "--bot", metavar="BOT",
        help="A bot entered (give 2 or more; the same one twice plays as NAME#1, NAME#2): "
             "greedy, random, strong, module:path.to.Class or cmd:COMMAND (phasedsl docs bot-protocol).")],
    pack_arg: OriginalPackArg = None,
    world: WorldOpt = None,
    players: Annotated[int | None, typer.Option(
        "--players", "-n", min=2, max=6, metavar="N",
        help="Players at each table (default: the number of bots, at most 6).",
        show_default=False)] = None,
    games: Annotated[int, typer.Option(
        "--games", "-g", min=1, max=1_000_000, metavar="N",
        help="Deals; each is played by every line-up in every seat rotation.")] = 100,
    seed: Annotated[int, typer.Option("--seed", metavar="N", help="Seed of the run: deal d is "
                                                                  "seeded from it and d.")] = 1,
    jobs: JobsOpt = 0,
    bot_timeout: BotTimeoutOpt = DEFAULT_TIMEOUT,
    as_json: JsonOpt = False,
    logs: Annotated[Path | None, typer.Option(
        "--logs", metavar="DIR", parser=a_path, help="Write each game's log (JSON lines) into this folder "
                                      "as the game ends.")] = None,
    force: ForceOpt = False,
    variant: PackAlias = None,
) -> None:
    """Play bots against each other and say which is stronger, and how surely.

    Duplicate deals: each deal is played by every choice of N bots among those
    entered, in every rotation of the seats, so every bot plays every seat on the
    same cards. Per bot: games, wins, the win share with its 95% (Wilson) interval,
    the mean final score and hands per game (games played to the end), and the
    games it forfeited (a bot that crashes, answers what is not a legal move, or
    takes longer than --bot-timeout loses that game; the run goes on). With more
    than two bots, each pair's head-to-head record too. The same seed gives the
    same result for any --jobs.

    Examples:

        phasedsl tournament --bot greedy --bot random --games 50

        phasedsl tournament short-game-5 --bot greedy --bot strong -g 20

        phasedsl tournament --bot "cmd:python3 $(phasedsl docs examples/bot.py --path)" --bot greedy -g 20

        phasedsl tournament --bot greedy --bot greedy --bot random -n 3 --json
    """
    from ..packs.pack import load_pack
    from ..players.botspec import parse_bot
    from ..players.tournament import entry_names, line_ups, play_tournament, summary

    try:
        specs = [parse_bot(b, bot_timeout) for b in bot]
        if len(specs) < 2:
            raise PhaseDSLError("a tournament needs at least 2 bots (--bot A --bot B; the "
                                "same bot may be entered twice)")
        n = players if players is not None else min(len(specs), 6)
        total = games * len(line_ups(len(specs), n))
        pack = load_pack(chosen_pack(pack_arg, variant, "original"))
        one_world(pack, world)
        names = entry_names(specs)
        writer = LogWriter(logs, pack, total, force) if logs is not None else None
        keep = None if writer is None else \
            (lambda g: replace(g, record=writer.write(_logged(g, names))))
        played = collect_games(play_tournament(pack, specs, n, games, seed, world, jobs,
                                               keep_logs=writer is not None),
                               total, as_json, keep)
        result = summary(pack, names, n, games, seed, world, played)
    except PhaseDSLError as e:
        fail(e, as_json)
    if as_json:
        typer.echo(json.dumps(result))
    else:
        typer.echo(standings_text(result))


def _logged(g, names: list[str]):
    """The game's record as its log file holds it: numbered as the tournament plays it,
    its header naming the bot in each seat."""
    rec = g.record
    header = json.loads(rec.log[0])
    header["bots"] = {p: names[e] for p, e in zip(header["players"], g.seats, strict=True)}
    return replace(rec, index=g.number, log=(json.dumps(header), *rec.log[1:]))


NAME_WIDTH = 80 - 47  # what the table's row leaves for a bot's name


def _wrap(head: str, text: str) -> list[str]:
    return textwrap.wrap(text, 80, initial_indent=head, subsequent_indent=" " * 6,
                         break_on_hyphens=False)


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _mean(x: float | None, ci: list[float] | None, places: int) -> str:
    if x is None:
        return "-"
    return f"{x:.{places}f} ({ci[0]:.{places}f}-{ci[1]:.{places}f})"


def standings_text(s: dict) -> str:
    world = f" ({s['world']})" if s["world"] else ""
    lines = [f"{s['variant']}{world}: {len(s['bots'])} bots, {s['players']} players, "
             f"{s['deals']:,} deal{'s' if s['deals'] != 1 else ''} x {s['seatings']} "
             f"seatings = {s['games']:,} games, seed {s['seed']}"]
    # A name that does not fit its column (a cmd: bot's is its command) is shown as
    # "bot N" and spelled out under the table, so that every line fits 80 columns.
    shown = {name: printable(name) if len(printable(name)) <= NAME_WIDTH else f"bot {k}"
             for k, name in enumerate(s["bots"], 1)}
    lines.append("games   wins  win share (95% CI)   forfeits  bot")
    for name, r in s["results"].items():
        ci = r["ci95"]
        share = (f"{_pct(r['share'])} ({100 * ci[0]:.1f}-{100 * ci[1]:.1f})" if ci else "-")
        lines.append(f"{r['games']:>5,}  {r['wins']:>5,}  {share:<19}  {r['forfeits']:>8,}  "
                     f"{shown[name]}")
    for name in s["bots"]:
        if shown[name] != printable(name):
            lines += _wrap(f"  {shown[name]}: ", printable(name))
    lines.append("means of the games played to the end (95% CI):")
    lines.append(f"{'final score':<24}{'hands per game':<21}bot")
    for name, r in s["results"].items():
        lines.append(f"{_mean(r['mean_score'], r['score_ci95'], 1):<22}  "
                     f"{_mean(r['mean_hands'], r['hands_ci95'], 2):<19}  {shown[name]}")
    if len(s["bots"]) > 2:
        lines.append("head to head (wins of each in the games both played):")
        names = s["bots"]
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                h = s["pairwise"][a][b]
                lines.append(f"  {shown[a]} {h['wins']:,} - {h['losses']:,} {shown[b]} "
                             f"(of {h['games']:,} games)")
    if s["forfeited"]:
        lines.append(f"forfeited (the bot loses; with 2 players the other wins): "
                     f"{len(s['forfeited']):,} game(s)")
        for f in s["forfeited"][:5]:
            lines += _wrap(f"  game {f['game']}: ", f"{shown[f['bot']]} in seat {f['seat'] + 1}, "
                           f"move {f['move']}, {f['reason']}: {printable(f['message'])}")
        if len(s["forfeited"]) > 5:
            lines.append(f"  ... and {len(s['forfeited']) - 5:,} more")
    for key, what in (("capped", "stopped at the safety cap"),
                      ("stalled", "stalled (no player could ever lay a phase again)")):
        if s[key]:
            lines.append(f"{what}, no winner: {len(s[key])} game(s), numbers "
                         f"{', '.join(str(n) for n in s[key][:10])}")
    return "\n".join(lines)
