"""``phasedsl play``: a person plays a whole game in the terminal against bots.

Commands are read from stdin one line at a time (a terminal or a pipe); end of input
is ``quit``.  What a line means and how the screen looks is ``phasedsl.players.play``; this
module runs the game loop and does the I/O.
"""

from __future__ import annotations

import contextlib
import json
import re
import secrets
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated

import typer

from ..errors import PhaseDSLError, printable
from .common import a_number
from .naming import OriginalPackArg, PackAlias, chosen_pack, complete_world, one_world

# The referee and the screen are imported where a game is played: every other command
# starts without them (they would add about 0.1 s to each `phasedsl check`).
if TYPE_CHECKING:
    from ..game import Game, Move

BOT_NAMES = ("bob", "cat", "dan", "eve", "fay", "gus")  # the person is ann unless --name


def play_game(game: Game, me: str, bots: dict, read: Callable[[str], str | None],
              write: Callable[[str], None],
              saved: Callable[[Game, list[Move]], None] = lambda g, new: None
              ) -> tuple[Game, bool]:
    """Play ``game`` to its end: ``me`` answers ``read(prompt)`` (None: end of input),
    every other player is a bot from ``bots``; ``saved`` sees the game after each move
    and the moves it added (the move, and the next deal when the hand ended).
    Returns the game and whether it was played to the end (False: the person quit)."""
    from ..game import IllegalMove, legal_moves, view
    from ..game.table import stuck
    from ..players.extbot import Forfeit
    from ..players.play import HELP, CommandError, parse_command, screen, wrap

    table = game.state.table
    deck = table.rules.deck
    write(_deal_line(game))
    fresh = True  # show the screen before the next prompt
    while not game.over:
        state = game.state
        why = stuck(state)
        if why:
            write(f"no hand can ever end again ({why}; see phasedsl lint): the game stops")
            return game, True
        mover = state.to_move
        if mover == me:
            if fresh:
                write(screen(view(state, me)))
                fresh = False
            line = read(f"{me}> ")
            if line is None:
                return game, False
            try:
                move = parse_command(line, me, deck)
            except CommandError as e:
                write("\n".join(wrap("  ? ", printable(str(e)))))
                continue
            if move == "help":
                write(HELP)
                continue
            if move == "quit":
                return game, False
            try:
                after = game.apply(move)
            except IllegalMove as e:
                # the reason may quote what was typed (a player's name)
                write("\n".join(wrap("  not allowed: ", printable(e.message))))
                continue
        else:
            try:
                moves = legal_moves(state)
                # a bot is asked only to choose (and only then shown its view)
                move = moves[0] if len(moves) == 1 else bots[mover].choose(view(state, mover))
                after = game.apply(move)
            except (Forfeit, PhaseDSLError) as e:
                if not isinstance(e, Forfeit) and not getattr(bots[mover], "forfeits", False):
                    raise  # a built-in bot's illegal move is a bug, not a forfeit
                write("\n".join(wrap(f"  {mover} forfeits the game: ", printable(str(e)))))
                return game, True
        new = _since(game, after)
        _report(game, after, new[0], me, write)
        game, fresh = after, True
        saved(game, new)
    return game, True


def _deal_line(game: Game) -> str:
    s = game.state
    return (f"hand {s.hands_played + 1}: {s.seats[s.dealer].name} deals; the up-card is "
            f"{s.discard[-1] if s.discard else 'given away'}")


def _since(before: Game, after: Game) -> list[Move]:
    """The moves ``after`` made since ``before`` (walking its chain back, not the game's)."""
    out = []
    link = after.trail
    while link is not None and link is not before.trail:
        link, move = link
        out.append(move)
    return out[::-1]


def _report(before: Game, after: Game, made: Move, me: str, write: Callable[[str], None]
            ) -> None:
    """Say what a move did (``made`` as the log has it, a deck draw naming its card):
    the move, lost turns, the end of a hand or of the game."""
    from ..players.play import describe, hand_over, skipped

    write(f"  {printable(describe(made, before.state, me))}")  # (a name typed in a skip)
    for p in skipped(before.state, after.state):
        write(f"  {'you lose' if p == me else p + ' loses'} a turn (skipped)")
    results = after.state.results
    if len(results) > len(before.state.results):
        write(hand_over(len(results), results[-1]))
        if after.over:
            write(f"winner: {after.winner}")
        else:
            write(_deal_line(after))


def play(
    pack_arg: OriginalPackArg = None,
    world: Annotated[str | None, typer.Option("--world", "-w", metavar="WORLD",
                                              autocompletion=complete_world,
                                              help="The pack's world, when it has several.")] = None,
    bots: Annotated[int, typer.Option("--bots", metavar="N", help="How many bots play against you.",
                                      min=1, max=5)] = 2,
    bot: Annotated[str, typer.Option("--bot", metavar="BOT",
                                     help="The bots' strategy: greedy, random, strong, "
                                     "module:path.to.Class or cmd:COMMAND (phasedsl docs bot-protocol).")
                   ] = "greedy",
    bot_timeout: Annotated[float, typer.Option(
        "--bot-timeout", metavar="SECONDS", min=0.001, max=3600, callback=a_number,
        help="Seconds a cmd: bot has for each answer; a later one forfeits the game.")] = 5.0,
    seed: Annotated[int | None, typer.Option("--seed", metavar="S", help="Seed of the shuffles and the "
                                                            "bots: the same seed, the same game "
                                                            "(default: a new one, shown).")] = None,
    name: Annotated[str, typer.Option("--name", metavar="NAME", help="Your name at the table.")] = "ann",
    log: Annotated[str | None, typer.Option("--log", metavar="FILE", help="Write the game log (JSON lines) "
                                                          "here; it replays.")] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace the --log FILE if it is there "
                                                        "(a log is a record: never done without it).")
                     ] = False,
    variant: PackAlias = None,
) -> None:
    """Play a whole game in the terminal against bots, one command a line.

    Commands: draw deck, draw discard, lay R5 B5 W | G7 G8 G9 G10,
    hit G11 on bob 2, discard R5, discard S skip cat, declare 4, save R5,
    help (all of them), quit.  End of input quits; the log holds the game
    so far.

    A dice pack (phasedsl play dice): after each roll, keep FACES (keep those
    dice, roll the others), score, hint (the exact best keep), quit; --bot is
    best-chance (the default), best-score or naive.

    Examples:

        phasedsl play short-game-5 --seed 7 --log game.jsonl

        phasedsl play masters --bots 3 --bot random --name zoe

    Exit 0 when the game ends or you quit; 2 for bad options.
    """
    from ..game import Game
    from ..packs.lint import refuse_unplayable
    from ..packs.pack import load_pack
    from ..players.botspec import parse_bot
    from ..players.extbot import ExternalBot
    from .common import fail

    try:
        variant = chosen_pack(pack_arg, variant, "original")
    except PhaseDSLError as e:
        fail(e)
    names = [n for n in BOT_NAMES if n != name][:bots]
    if not re.fullmatch(r"[A-Za-z0-9_-]{1,20}", name):
        # Commands name players as single words ("hit G11 on bob 2").
        fail(PhaseDSLError(f"--name must be one word of letters, digits, _ or - (at most 20), "
                            f"not {name[:40]!r}"))
    chosen = seed is None
    if chosen:  # a new game each time; the seed is shown and logged, to play it again
        seed = secrets.randbelow(1_000_000)
    try:
        pack = load_pack(variant)
        one_world(pack, world)
        if pack.dice is not None:
            _play_dice(pack, world, name, names, bot, seed, chosen, log, force, bot_timeout)
            return
        spec = parse_bot(bot, bot_timeout)
        game = Game.new(pack, [name, *names], seed=seed, world=world)
        refuse_unplayable(game.state.table.pack, game.state.table.world)
        if log is not None:  # a log names its pack from its own folder, as replay reads it
            from dataclasses import replace
            from pathlib import Path

            from ..game.log import variant_ref

            ref = variant_ref(game.state.table.pack, Path(log).parent)
            game = replace(game, header={**game.header, "variant": ref})
            if ref.startswith("../") or Path(ref).is_absolute():  # replay would refuse it
                typer.echo(f"note: the pack is not in the log's folder: replay the log with "
                           f"--variant {variant}", err=True)
        # (--log "" is a name that names no file, not "no log")
        out = _Record(log, force) if log is not None else None
    except PhaseDSLError as e:
        fail(e)

    players = {n: spec.make(seed + k) for k, n in enumerate(names, 1)}
    read = _reader(out)

    def write(lines: list[str]) -> None:
        # Event by event as the game goes: however the program ends, the log holds the game.
        if out is not None:
            out.add(lines)

    def save(g: Game, new: list[Move]) -> None:
        write([json.dumps(m.to_log()) for m in new])

    if chosen:
        typer.echo(f"seed {seed}: play again with --seed {seed}")
    finished = False
    stop = None
    try:
        write(game.to_log())
        game, finished = play_game(game, name, players, read, typer.echo, save)
    except KeyboardInterrupt as e:  # Ctrl-C or SIGTERM: the log is kept, then exit 130/143
        typer.echo("")
        stop = e
    except PhaseDSLError as e:
        fail(e)
    finally:
        for b in players.values():  # a cmd: bot's program ends with the game
            if isinstance(b, ExternalBot):
                if finished:
                    state = game.state
                    b.finish({"winner": state.winner, "hands": state.hands_played,
                              "scores": {st.name: st.total for st in state.seats},
                              "forfeit": None})
                b.close(wait=finished)
    if out is not None:
        try:
            out.commit()
        except PhaseDSLError as e:
            fail(e)
    if not finished:
        typer.echo("game stopped" + (f"; the log so far is in {log}" if log is not None else ""))
    elif log is not None:
        typer.echo(f"the log is in {log}")
    if stop is not None:
        raise stop


def _reader(out: _Record | None) -> Callable[[str], str | None]:
    """What the person types, a line at a time (None: the input ended): from a terminal
    with line editing, else read bounded and echoed into the transcript; the log is on
    disk before the person is waited for."""
    from ..players.play import MAX_COMMAND

    tty = sys.stdin.isatty()
    if tty:
        with contextlib.suppress(ImportError):  # not on every platform
            import readline  # noqa: F401  (line editing and history for input())

    def read(prompt: str) -> str | None:
        if out is not None:  # the game so far is on disk before the person is waited for
            out.commit()
        if tty:
            try:
                return input(prompt)
            except EOFError:
                typer.echo("")
                return None
        typer.echo(prompt, nl=False)
        line = sys.stdin.readline(MAX_COMMAND + 1)
        if not line:
            typer.echo("")
            return None
        if len(line) > MAX_COMMAND and not line.endswith("\n"):
            # the rest of an over-long line is skipped unread; an endless one ends the game
            skipped = 0
            while (more := sys.stdin.readline(1 << 16)) and not more.endswith("\n"):
                skipped += len(more)
                if skipped > 1000 * MAX_COMMAND:
                    typer.echo("\nthe input has a line with no end: the game stops")
                    return None
        # a piped command shows in the transcript as typed (a long one cut short)
        shown = printable(line.rstrip("\n"))
        typer.echo(shown if len(shown) <= 200 else shown[:200] + " ...")
        return line

    return read


def _play_dice(pack, world, name, names, bot, seed, chosen, log, force, timeout) -> None:
    """``play`` of a dice pack (players.diceplay), its log written as the game goes."""
    from pathlib import Path

    from ..game.log import dice_header, variant_ref
    from ..players.botspec import dice_bot
    from ..players.diceplay import play_dice

    bot = "best-chance" if bot == "greedy" else bot
    dice_bot(bot, pack.dice, None, timeout)  # (a bad --bot is said before the game)
    out = _Record(log, force) if log is not None else None
    ref = variant_ref(pack, Path(log).parent) if log is not None else pack.name
    header = dice_header(pack, ref, world, [name, *names], seed)

    read = _reader(out)

    if chosen:
        typer.echo(f"seed {seed}: play again with --seed {seed}")
    finished = False
    try:
        finished = play_dice(pack, world, name, names, bot, seed, read, typer.echo,
                             out.add if out is not None else lambda lines: None, header, timeout)
    finally:
        if out is not None:
            out.commit()
    if not finished:
        typer.echo("game stopped" + (f"; the log so far is in {log}" if log is not None else ""))
    elif log is not None:
        typer.echo(f"the log is in {log}")


class _Record:
    """The game log as it grows: the whole file is written again (outfiles: to a temporary
    file, then renamed) each time the game waits for the person and when it ends, so the
    log on disk is always a whole game so far that replays, never a cut-off line. Only its
    first writing needs --force to replace a file there; after that the file is the game's."""

    def __init__(self, path: str, force: bool) -> None:
        from ..system.outfiles import check_target

        self.path = check_target(path, force)
        self.force = force
        self.lines: list[str] = []
        self.written = -1

    def add(self, lines: list[str]) -> None:
        self.lines += lines

    def commit(self) -> None:
        from ..system.outfiles import write_text

        if len(self.lines) == self.written:
            return
        write_text(self.path, "".join(line + "\n" for line in self.lines), self.force)
        self.written = len(self.lines)
        self.force = True
