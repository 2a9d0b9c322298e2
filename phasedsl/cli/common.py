"""What every command shares: the options, printing answers and errors (exit codes 0/1/2)."""

from __future__ import annotations

import contextlib
import json
import sys
from contextvars import ContextVar
from pathlib import Path
from typing import Annotated, NoReturn

import typer

from ..errors import PackError, PhaseDSLError, error_json, printable, quoted
from . import style
from .naming import complete_pack, complete_world

# Whether this run asked for --json: set once the arguments are read, so that every
# error, wherever it is raised, comes out in the form the caller asked for.
JSON_OUTPUT: ContextVar[bool] = ContextVar("phasedsl_json", default=False)
# Whether --help is among the arguments: it is answered even beside a mistake.
HELP_ASKED: ContextVar[bool] = ContextVar("phasedsl_help", default=False)



JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON object instead of text "
                                                      "(errors too).")]


# Every other command names the pack it judges under with --variant or --pack (-v, the
# older short name, is read but not shown: most tools mean "verbose" by it).
VariantOpt = Annotated[
    str | None,
    typer.Option("--variant", "--pack", "-v", metavar="PACK", autocompletion=complete_pack,
                 help="A built-in pack name or a pack file: judge under its rules."),
]

PhaseNoOpt = Annotated[
    int | None, typer.Option("--phase", "-p", metavar="N", help="Take phase N of the pack instead "
                                                                 "of a phrase.")
]
JobsOpt = Annotated[int, typer.Option(
    "--jobs", "-j", min=0, max=64, metavar="N",
    help="Processes working side by side (0: one per CPU, at most 8). The output is the same "
         "for any count.")]
ForceOpt = Annotated[bool, typer.Option("--force", help="Replace a file that is already there "
                                                        "(never done without it).")]
WorldOpt = Annotated[
    str | None, typer.Option("--world", "-w", metavar="WORLD", autocompletion=complete_world,
                             help="For packs with several phase lists: the list --phase N is from.")
]


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised where the program is, so that it unwinds as for Ctrl-C."""


def a_number(value: float | None) -> float | None:
    """An option's callback: NaN is refused as not a number (a range's bounds do not catch
    it: every comparison with NaN is false, and a wait of NaN seconds never ends)."""
    if value is not None and value != value:
        raise typer.BadParameter("nan is not a number")
    return value


def a_path(value: str) -> Path:
    """The parser of an option naming a file or folder to write: '' names none (as a Path it
    would be the current folder) and '-' is not standard output here (a file of that name
    is written as ./-)."""
    if value == "":
        raise typer.BadParameter("an empty name names no file")
    if value == "-":
        raise typer.BadParameter("this option does not write to standard output ('-'): give a "
                                 "name (./- for one called -)")
    path = Path(value)
    # (./- is a file called -, though as a Path it reads "-", standard output's name)
    return Path.cwd() / path if str(path) == "-" else path


def a_path_or_stdout(value: str) -> Path:
    """``a_path``, where '-' is standard output."""
    return Path(value) if value == "-" else a_path(value)


def plot_kind(plot: Path | None) -> PhaseDSLError | None:
    """Why ``--plot`` cannot draw to ``plot`` by its name (it writes .png or .svg), or None."""
    if plot is None or plot.suffix.lower() in (".png", ".svg"):
        return None
    if plot.suffix:
        return PhaseDSLError(f"--plot writes .png or .svg files, not {plot.suffix}")
    return PhaseDSLError(f"--plot writes .png or .svg files: name one (like plot.svg), not "
                         f"{quoted(str(plot), 40)}")


def stopped(e: KeyboardInterrupt) -> NoReturn:
    """Ctrl-C or SIGTERM: one line on stderr, exit 130 (SIGTERM: 143), as a shell reports
    a command a signal ended."""
    term = isinstance(e, Terminated)
    with contextlib.suppress(OSError):
        typer.echo("terminated" if term else "interrupted", err=True)
    raise typer.Exit(143 if term else 130)


def cannot_write(e: OSError) -> NoReturn:
    """The answer cannot be written (a full disk, a closed pipe): exit 2, never a verdict."""
    with contextlib.suppress(OSError):
        typer.echo(f"error: cannot write the output: {e.strerror or e}", err=True)
    raise typer.Exit(2)


def say(text: str = "") -> None:
    typer.echo(text)


def fail(error: Exception, as_json: bool | None = None, **known) -> NoReturn:
    """Bad input: a clear message on stderr, or with --json one JSON object on stdout
    ({"error", "exit"}, what else is known about the error: column, the pack problems, and
    the ``known`` fields); exit code 2."""
    if as_json is None:
        as_json = JSON_OUTPUT.get()
    if as_json:
        say(json.dumps(error_json(error) | known))
    else:
        colour = style.colour_wanted(sys.stderr)
        head = typer.style("error:", fg="red", bold=True) if colour else "error:"
        # a message may quote what was typed: no control character of it reaches the
        # terminal; only then is our own styled word put before it
        if isinstance(error, PackError):
            # a problem in a file reads "file:line:column: error: ..." over the line it
            # points at, as compilers say it; one of no line is an "error: ..." line
            text = "\n".join(printable(str(d)) if getattr(d, "line", None) is not None else
                             f"{head} {printable(_brief(d))}" for d in error.problems)
        else:
            text = f"{head} {printable(str(error))}"
        style.echo(text, styled=colour, err=True)
    raise typer.Exit(2)


def _brief(problem) -> str:
    return problem.brief() if hasattr(problem, "brief") else str(problem)


def print_notes(phase, as_json: bool) -> None:
    """Say what the phrase said that was not read (JSON carries it as "ignored")."""
    if not as_json:
        for text in phase.ignored:
            typer.echo(f"note: ignored {text!r}", err=True)


_VERDICTS = ("made", "legal", "not made", "not legal", "undecided", "fits now:")


def emit(result: dict, as_json: bool, text, ok: bool) -> NoReturn:
    """Print a verdict (JSON or text) and exit 0 for yes, 1 for no; on a terminal the
    verdict line is colored."""
    if as_json:
        say(json.dumps(result))
    else:
        colour = style.colour_wanted(sys.stdout)
        for line in text(result).splitlines():
            if colour and line.startswith(_VERDICTS):
                fg = "green" if ok else "yellow" if line.startswith("undecided") else "red"
                style.echo(typer.style(line, fg=fg, bold=True), styled=True)
            else:
                say(line)
    raise typer.Exit(0 if ok else 1)


def pack_context(variant, phase_no, world, cards_only: str | None = None):
    """The pack's context; ``cards_only``: the command, which a dice pack has no use for
    (its words would be read as cards, and refused one by one as no card)."""
    # a bad --variant, --phase or --world is reported by _Group.invoke, like any bad input
    from .. import api  # (only the commands that check melds need it)

    ctx = api.Context.load(variant, phase_no, world)
    if cards_only and ctx.dice is not None:
        raise PhaseDSLError(f"{cards_only} is for packs of cards, and {variant} is a Phase 10 "
                            f"Dice pack: check --variant {variant} judges a roll, hold "
                            "advises what to keep")
    return ctx


@contextlib.contextmanager
def progress_bar(quiet: bool, label: str, total: float | None = None):
    """A progress bar on the terminal's stderr while work is done (stdout holds the answer);
    nothing when piped or with --json.  Yields ``update(completed=, total=, description=)``,
    or None when no bar is shown."""
    if quiet or not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import Progress

    with Progress(transient=True, console=Console(stderr=True)) as bar:
        task = bar.add_task(label, total=total)
        yield lambda **kw: bar.update(task, **kw)


class PhaseProgress:
    """On a terminal, while odds are worked out (nothing when piped or with --json): the
    phases done of all, the share and the time left, as ``simulate`` shows its games;
    hands counted or sampled show as the bar moves within a phase.  (``odds`` of a dice
    pack shows the same, without hands.)"""

    def __init__(self, quiet: bool, phases: int) -> None:
        self.quiet = quiet or not sys.stderr.isatty()
        self.phases = phases
        self.bar = None

    def __enter__(self):
        if self.quiet:
            return None, lambda: None
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TaskProgressColumn,
            TextColumn,
            TimeRemainingColumn,
        )

        self.bar = Progress(TextColumn("[progress.description]{task.description}"), BarColumn(),
                            MofNCompleteColumn(), TextColumn("phases"), TaskProgressColumn(),
                            TimeRemainingColumn(), transient=True, console=Console(stderr=True))
        self.bar.start()
        task = self.bar.add_task("working out the odds", total=self.phases)
        hands = 0

        def tick(n: int) -> None:
            nonlocal hands
            hands += n
            self.bar.update(task, description=f"working out the odds ({hands:,} hands)")

        def phase_done() -> None:
            self.bar.advance(task, 1)

        return tick, phase_done

    def __exit__(self, *exc) -> None:
        if self.bar is not None:
            self.bar.stop()
