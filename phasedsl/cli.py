"""The ``phasedsl`` command line: one command per verb, ``--json`` for machines.

Exit codes: 0 yes (made, legal, accepted), 1 no (or not shown: a search stopped at its
budget), 2 bad input.
"""

from __future__ import annotations

import collections
import itertools
import json
import os
import sys
from collections.abc import Iterator
from contextvars import ContextVar
from pathlib import Path
from typing import Annotated, NoReturn

import typer
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption

from . import api
from .errors import InputError, PackError, PhaseDSLError

try:  # Typer 0.2x carries its own copy of Click
    from typer._click.exceptions import UsageError
except ImportError:  # pragma: no cover - older Typer on Click
    from click.exceptions import UsageError

# Whether this run asked for --json: set once the arguments are read, so that every
# error, wherever it is raised, comes out in the form the caller asked for.
_JSON: ContextVar[bool] = ContextVar("phasedsl_json", default=False)


class _Option(TyperOption):
    def display_type_rich(self, ctx) -> str | None:
        # A flag takes no value; a value is named for what it is (PACK, N, FILE), not its
        # Python type (Typer would show "<bool>", "<str>").
        return None if self.is_flag else (self.metavar or self.name.upper())


class _Argument(TyperArgument):
    @property
    def display_name_raw(self) -> str:
        return self.metavar or self.name.upper()

    def display_type_rich(self, ctx) -> str | None:
        return None

    def _usage_display_name(self) -> str:
        if self.metavar:
            return self.metavar
        name = self.display_name_raw + ("..." if self.nargs != 1 else "")
        return name if self.required else f"[{name}]"


def _plain(params: list) -> list:
    """Typer builds its own parameter objects and offers no hook for how help shows
    them, so they are given the subclasses above (which add no state)."""
    for p in params:
        if type(p) is TyperOption:
            p.__class__ = _Option
        elif type(p) is TyperArgument:
            p.__class__ = _Argument
    return params


class _Command(TyperCommand):
    def get_params(self, ctx) -> list:
        return _plain(super().get_params(ctx))


class _Group(TyperGroup):
    """The one place where errors become output: bad input (PhaseDSLError) and usage
    mistakes Typer finds (a missing argument, a bad option value) alike."""

    def get_params(self, ctx) -> list:
        return _plain(super().get_params(ctx))

    def parse_args(self, ctx, args: list[str]) -> list[str]:
        words = args[: args.index("--")] if "--" in args else args
        _JSON.set("--json" in words)
        try:
            return super().parse_args(ctx, args)
        except UsageError as e:
            _usage_error(e)

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except PhaseDSLError as e:
            _fail(e)
        except UsageError as e:
            _usage_error(e)


def _usage_error(e: UsageError) -> NoReturn:
    # One line like every other error (Typer's own is a box under the usage line), naming
    # the help that lists the options; a command given nothing shows its help.
    if type(e).__name__ == "NoArgsIsHelpError":
        raise e
    where = f" (see '{e.ctx.command_path} --help')" if e.ctx is not None else ""
    message = " ".join(e.format_message().split())
    _fail(PhaseDSLError(message + ("" if _JSON.get() else where)))


class _App(typer.Typer):
    def command(self, *args, cls=None, **kwargs):
        return super().command(*args, cls=cls or _Command, **kwargs)


app = _App(
    name="phasedsl",
    cls=_Group,
    help="Rules toolkit for Phase 10 and its variants: read phases, check melds, hits and scores.",
    no_args_is_help=True,
    rich_markup_mode="rich",
    pretty_exceptions_enable=False,
)


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("phasedsl")
    except PackageNotFoundError:  # run from a checkout
        from . import __version__

        return __version__


def _print_version(value: bool) -> None:
    if value:
        _out(f"phasedsl {_version()}")
        raise typer.Exit(0)


@app.callback()
def _root(
    version: Annotated[bool, typer.Option("--version", help="Print the version and exit.",
                                          callback=_print_version, is_eager=True)] = False,
) -> None:
    pass


JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON object instead of text "
                                                      "(errors too).")]
VariantOpt = Annotated[
    str | None,
    typer.Option("--variant", "-v", metavar="PACK",
                 help="A built-in pack name or a pack file: judge under its rules."),
]
PhaseNoOpt = Annotated[
    int | None, typer.Option("--phase", "-p", metavar="N", help="Take phase N of the pack instead "
                                                                 "of a phrase.")
]
WorldOpt = Annotated[
    str | None, typer.Option("--world", "-w", metavar="WORLD",
                             help="For packs with several phase lists: the list --phase N is from.")
]


def _out(text: str = "") -> None:
    typer.echo(text)


def _fail(error: Exception, as_json: bool | None = None, **known) -> NoReturn:
    """Bad input: a clear message on stderr, or with --json one JSON object on stdout
    ({"error", "exit"}, what else is known about the error: column, the pack problems, and
    the ``known`` fields); exit code 2."""
    if as_json is None:
        as_json = _JSON.get()
    if as_json:
        _out(json.dumps(_error_json(error) | known))
    else:
        # a pack's problems already read "file:line:column: error: ..."
        head = "" if isinstance(error, PackError) else "error: "
        if head and sys.stderr.isatty():
            head = typer.style("error:", fg="red", bold=True) + " "
        typer.echo(f"{head}{error}", err=True)
    raise typer.Exit(2)


def _error_json(error: Exception) -> dict:
    out: dict = {"error": str(error), "exit": 2}
    if isinstance(error, InputError) and error.column is not None:
        out.update(message=error.message, column=error.column)
    if isinstance(error, PackError):
        out["problems"] = [d.to_json() if hasattr(d, "to_json") else {"message": str(d)}
                           for d in error.problems]
    return out


def _notes(phase, as_json: bool) -> None:
    """Say what the phrase said that was not read (JSON carries it as "ignored")."""
    if not as_json:
        for text in phase.ignored:
            typer.echo(f"note: ignored {text!r}", err=True)


_VERDICTS = ("made", "legal", "not made", "not legal", "undecided", "fits now:")


def _emit(result: dict, as_json: bool, text, ok: bool) -> NoReturn:
    """Print a verdict (JSON or text) and exit 0 for yes, 1 for no; on a terminal the
    verdict line is colored."""
    if as_json:
        _out(json.dumps(result))
    else:
        tty = sys.stdout.isatty()
        for line in text(result).splitlines():
            if tty and line.startswith(_VERDICTS):
                fg = "green" if ok else "yellow" if line.startswith("undecided") else "red"
                line = typer.style(line, fg=fg, bold=True)
            _out(line)
    raise typer.Exit(0 if ok else 1)


# An over-long line is skipped up to this many characters; past them the input is taken to
# have no line breaks at all (such as /dev/zero), and reading stops instead of running on.
MAX_SKIP = 64 * api.MAX_LINE


def _bounded(fh) -> Iterator[str | None]:
    """The lines of ``fh``; None for a line over api.MAX_LINE, whose rest is skipped, not
    held in memory (a file of one endless line, such as /dev/zero, must not fill it)."""
    number = 0
    while line := fh.readline(api.MAX_LINE + 1):
        number += 1
        if len(line) <= api.MAX_LINE or line.endswith("\n"):
            yield line
            continue
        skipped = len(line)
        while (more := fh.readline(1 << 20)) and not more.endswith("\n"):
            skipped += len(more)
            if skipped > MAX_SKIP:
                _fail(PhaseDSLError(f"line {number} runs past {MAX_SKIP:,} characters with no line "
                                    "break: the rest of the input is not read"))
        yield None


def _lines(path: str) -> Iterator[str | None]:
    # Bytes that are not UTF-8 are kept (as lone surrogates) so that the row of their line
    # says so, and the batch goes on.
    if path == "-":
        if hasattr(sys.stdin, "reconfigure"):
            sys.stdin.reconfigure(errors="surrogateescape")
        yield from _bounded(sys.stdin)
        return
    try:
        fh = open(path, encoding="utf-8", errors="surrogateescape")  # noqa: SIM115 (closed below)
    except OSError as e:
        _fail(PhaseDSLError(f"cannot read {path}: {e.strerror}"))
    except ValueError:  # a NUL in the name
        _fail(PhaseDSLError(f"cannot read {path!r}: a file name holds no NUL character"))
    with fh:
        yield from _bounded(fh)


# Lines per piece of work in a batch: big enough that handing a piece to a worker process
# costs little, small enough that the answers stream out steadily.
BATCH_CHUNK = 500
JobsOpt = Annotated[int, typer.Option(
    "--jobs", "-j", min=0, max=64,
    help="With --batch FILE: processes answering lines side by side (0: one per CPU, "
         "at most 8). "
         "The output is the same, in order.")]

# The row function the batch's worker processes run: set before they fork, so that they
# inherit it (a closure over the pack and rules cannot be sent to a process).
_ROW = None


def _answer(piece: tuple[int, list[str | None]]) -> tuple[int, str]:
    """One piece of a batch: (the worst exit code of its rows, their JSON lines)."""
    start, lines = piece
    code = 0
    rows: list[str] = []
    for number, line in enumerate(lines, start):
        if line is not None and not line.strip():
            continue
        # (a line too long to read is None: the row says so, with the same keys as any error)
        result = _ROW(line, number)
        if "error" in result:
            code = 2
        elif "valid" in result and result["valid"] is not True and not code:
            code = 1  # not made or not legal, or undecided (null)
        rows.append(_encode(result))
    return code, "".join(r + "\n" for r in rows)


# rows are plain dicts made here, never circular: the encoder need not look for cycles
_encode = json.JSONEncoder(check_circular=False).encode


def _pieces(lines: Iterator[str | None], size: int) -> Iterator[tuple[int, list[str | None]]]:
    start, piece = 1, []
    for line in lines:
        piece.append(line)
        if len(piece) >= size:
            yield start, piece
            start += len(piece)
            piece = []
    if piece:
        yield start, piece


def _cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on every platform
        return os.cpu_count() or 1


def _run_batch(path: str, row, jobs: int = 1) -> NoReturn:
    """One JSON line out per non-blank line in (``row(line, number)``, numbers 1-based and
    counting blank lines); exit 0 when every row is valid, 1 when some row is not valid
    (not made, not legal, or undecided: "valid" null), 2 when some row is an error.

    Read from a file, the lines are answered in pieces, by ``jobs`` processes side by side
    (0: one per CPU, at most 8) where the platform can fork them; the answers come out in
    order.
    From stdin each answer is written (and flushed) as soon as it is made: a program on
    the other end of a pipe may wait for each one.
    """
    global _ROW
    _ROW = row
    live = path == "-"
    pieces = _pieces(_lines(path), 1 if live else BATCH_CHUNK)
    work: list = []
    pool = None
    jobs = jobs or min(_cpus(), 8)
    if jobs > 1 and not live:
        # worker processes only for more than one piece (they take a moment to start)
        work = list(itertools.islice(pieces, 2))
        import multiprocessing

        if len(work) > 1 and "fork" in multiprocessing.get_all_start_methods():
            from .dsl import parse_phase

            parse_phase("1 set of 3")  # the workers share the phase parser, built once here
            pool = multiprocessing.get_context("fork").Pool(min(jobs, _cpus() * 4))
    code = 0

    def emit(answer: tuple[int, str]) -> None:
        nonlocal code
        code = max(code, answer[0])
        sys.stdout.write(answer[1])
        if live:
            sys.stdout.flush()

    rest = itertools.chain(work, pieces)
    try:
        if pool is None:
            for piece in rest:
                emit(_answer(piece))
        else:
            # a few pieces ahead, never the whole file (it may be huge), and no pause for
            # the slowest piece of a batch of them: the oldest answer is written first
            pending: collections.deque = collections.deque()
            for piece in rest:
                pending.append(pool.apply_async(_answer, (piece,)))
                if len(pending) >= 4 * jobs:
                    emit(pending.popleft().get())
            while pending:
                emit(pending.popleft().get())
    finally:
        if pool is not None:
            pool.terminate()
    raise typer.Exit(code)


def _parse_row(line: str | None, number: int) -> dict:
    if line is None:  # not echoed: the input is the line that was too long to read
        return {"line": number, "input": None, "error": api.TOO_LONG}
    text = line.rstrip("\r\n")
    try:
        api.utf8_text(text)
    except PhaseDSLError as e:  # not echoed either: it is not text
        return {"line": number, "input": None, "error": str(e)}
    try:
        return {"line": number, "input": text, **api.parse_json(text)}
    except PhaseDSLError as e:
        return {"line": number, "input": text, "error": str(e)}


def _context(variant, phase_no, world) -> api.Context:
    # a bad --variant, --phase or --world is reported by _Group.invoke, like any bad input
    return api.Context.load(variant, phase_no, world)


# --------------------------------------------------------------------------- parse


@app.command()
def parse(
    phrase: Annotated[str | None, typer.Argument(help="A phase, e.g. '1 set of 3 + 1 run of 4'.")] = None,
    batch: Annotated[
        str | None, typer.Option("--batch", metavar="FILE",
                                 help="Read one phrase per line from FILE ('-': stdin).")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Read a phase phrase and print its canonical form and groups.

    Examples:

        phasedsl parse "two sets of three"

        phasedsl parse "1 color run of 4 + 3 of one color" --json

        printf '2 sets of 3\\nrun of 4, set of 3\\n' | phasedsl parse --batch -

    --batch reads one phrase per line (plain text, not JSON) and writes one JSON
    object per line with the input's line number; exit code 0 when every phrase
    reads, 2 when some does not.

    Exit code 0, or 2 for bad input.
    """
    if batch is not None:
        if phrase is not None:
            _fail(PhaseDSLError("--batch reads the phrases from FILE; give no phrase with it"), as_json)
        _run_batch(batch, _parse_row)
    if phrase is None:
        _fail(PhaseDSLError("give a phrase, or --batch FILE"), as_json)
    phase = api.parse(phrase)
    if as_json:
        _out(json.dumps({"input": phrase, **api.parse_json(phrase)}))
        return
    _notes(phase, as_json)
    _out(phase.canonical())
    for i, g in enumerate(phase.groups, 1):
        _out(f"  group {i}: {g.describe()}  [{g.kind.value}, {g.size} cards]")
    _out(f"  cards needed: {phase.cards_needed}")


# --------------------------------------------------------------------------- check


@app.command()
def check(
    args: Annotated[
        list[str] | None,
        typer.Argument(help="PHASE then CARDS (or only CARDS with --phase N).", show_default=False,
                       metavar="[PHASE] CARDS..."),
    ] = None,
    groups: Annotated[
        list[str] | None,
        typer.Option("--groups", "-g", metavar="CARDS",
                     help="A laid group, e.g. 'G7 G8 W G10'; repeat per group."),
    ] = None,
    batch: Annotated[
        str | None, typer.Option("--batch", metavar="FILE", help="JSON lines from FILE ('-': stdin).")
    ] = None,
    jobs: JobsOpt = 0,
    variant: VariantOpt = None,
    phase_no: PhaseNoOpt = None,
    world: WorldOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Does a hand make a phase? Or, with --groups, is a laid-down layout legal?

    Examples:

        phasedsl check "1 set of 3 + 1 run of 4" R5 B5 G7 G8 G10 W W Y2

        phasedsl check "2 sets of 3" --groups "R5 B5 W" --groups "G9 G9 Y9"

        phasedsl check --variant twist --phase 8 R1 R2 R3 R4 W

        phasedsl check --batch hands.jsonl

    Exit code 0 made/legal, 1 not (or undecided: the search stopped at its budget), 2 bad
    input.

    --batch reads one JSON object per line ({"id", "phase", "cards"} or {"id", "phase",
    "groups"}) and writes one per line, each with the input's line number; exit code 0 when
    every line is made or legal, 1 when some line is not, 2 when some line is an error.
    """
    ctx = _context(variant, phase_no, world)
    if batch is not None:
        if args or groups:
            _fail(PhaseDSLError("--batch reads every hand from FILE; give no phase, cards or "
                                "--groups with it"), as_json)
        _run_batch(batch, lambda line, number: api.check_json_line(line, ctx, number), jobs)
    words = list(args or [])
    phase, rules, words = ctx.take_phase(words)
    if groups:
        if words:
            raise PhaseDSLError("give the cards either as arguments or as --groups, not both")
        verdict = api.verify_text(phase, groups, rules)
        result = api.verdict_json(phase, verdict, rules)
    else:
        result = api.check_json(phase, api.held(" ".join(words), rules), rules)
    _notes(phase, as_json)
    _emit(result, as_json, lambda r: api.check_text(phase, r), ok=result["valid"] is True)


# --------------------------------------------------------------------------- hit


@app.command()
def hit(
    cards: Annotated[list[str], typer.Argument(help="The cards to play (one or more).", show_default=False)],
    on: Annotated[
        list[str],
        typer.Option("--on", "-o", metavar="GROUP",
                     help="A laid group as 'KIND: CARDS', e.g. 'run: R3 R4 W=5 R6'."),
    ],
    variant: VariantOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Which laid groups take these cards, and where? And an order that places the most.

    KIND is set, run, color, color_run, even_odd, color_even_odd, color_set,
    wild or skip (or a phase phrase for one group, like 'color run of 4').

    A laid group that breaks a rule is refused. A wild may take either open end of a run.

    The plan places as many cards as any order can, and says what each wild stands for.

    Examples:

        phasedsl hit R3 --on "run: R4 R5 W=6 R7" --on "set: B9 G9 W"

        phasedsl hit R3 R2 W --on "run: R4 R5 R6 R7" --json

    Exit code 0 when every card finds a place, 1 when some do not, 2 bad input.
    """
    ctx = _context(variant, None, None)
    rules = ctx.rules
    laid = [api.laid_group(text, rules) for text in on]
    hand = api.hand(" ".join(cards), rules, also=[c for g in laid for c in g.cards])
    if not hand:
        raise PhaseDSLError("give the card(s) to play, like R3 or W")
    result = api.hit_json(laid, hand, rules)
    _emit(result, as_json, api.hit_text, ok=not result["left"])


# --------------------------------------------------------------------------- score


@app.command()
def score(
    cards: Annotated[list[str] | None, typer.Argument(help="Cards left in hand.")] = None,
    variant: VariantOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Penalty points of the cards left in hand (5 for 1-9, 10 for 10-12, 15 a skip, 25 a wild).

    Examples:

        phasedsl score R5 B12 W S

        phasedsl score --variant masters R5 B12 W --json

    Exit code 0, or 2 for bad input.
    """
    ctx = _context(variant, None, None)
    hand = api.cards(" ".join(cards or []), ctx.rules)
    result = api.score_json(hand, ctx.rules)
    if as_json:
        _out(json.dumps(result))
    else:
        _out(f"{result['points']} points")
        for card, pts in result["cards"]:
            _out(f"  {card:>4}  {pts}")


# --------------------------------------------------------------------------- odds


@app.command()
def odds(
    phrase: Annotated[str | None, typer.Argument(help="A phase; leave out with --variant to rank "
                                                      "every phase of the pack.")] = None,
    variant: VariantOpt = None,
    world: Annotated[str | None, typer.Option(
        "--world", "-w", metavar="WORLD",
        help="For packs with several phase lists: rank this one (or judge the phrase under its "
             "rules).")] = None,
    draws: Annotated[int, typer.Option("--draws", "-d", min=0, max=50, metavar="K",
                                       help="Also count K more cards from the deck.")] = 0,
    # 20 million hands take a few minutes; more would tie a machine up for hours.
    samples: Annotated[int, typer.Option("--samples", min=1, max=20_000_000, metavar="N",
                                         help="Hands to sample when no exact count exists.")] = 200_000,
    seed: Annotated[int, typer.Option("--seed", metavar="N", help="Seed of the sampler.")] = 1,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=1, max=64, metavar="N",
                                      help="Processes for sampling.")] = 1,
    plot: Annotated[Path | None, typer.Option("--plot", metavar="FILE",
                                              help="Also draw the difficulty curve to a .png or .svg "
                                                   "file (needs matplotlib).")] = None,
    as_json: JsonOpt = False,
) -> None:
    """The chance that a dealt hand makes a phase: exact where counting allows, sampled otherwise.

    With --variant and no phase, rank every phase of the pack (or --world),
    flag a phase that is easier than the one before it, and draw the
    difficulty curve.

    Examples:

        phasedsl odds "1 set of 3 + 1 run of 4"

        phasedsl odds "1 color run of 4 + 1 set of 4" --samples 1000000 --jobs 2

        phasedsl odds --variant original --draws 1 --plot curve.svg

    Exit code 0, or 2 for bad input or a plot that cannot be made.
    """
    from .odds import odds as compute

    ctx = _context(variant, None, None)
    if plot is not None and plot.suffix.lower() not in (".png", ".svg"):
        raise PhaseDSLError(f"--plot writes .png or .svg files, not {plot.suffix or 'no suffix'}")
    if plot is not None:
        import importlib.util

        if importlib.util.find_spec("matplotlib") is None:  # say so before any long count
            raise PhaseDSLError("plotting needs matplotlib: pip install 'phasedsl[plot]'")
    if phrase is not None:
        rules = ctx.rules if world is None else _pack_rules(variant, world)
        entries = [("", api.parse(phrase, rules), rules)]
    elif variant is not None:
        entries = _pack_entries(variant, world)
    else:
        raise PhaseDSLError("give a phase, or --variant PACK to rank its phases")
    cards = entries[0][2].hand_size + draws
    if cards > entries[0][2].deck.size:
        raise PhaseDSLError(f"{cards} cards is more than the deck holds")
    results = []
    with _progress(as_json) as tick:
        for label, phase, rules in entries:
            results.append((label, compute(phase, rules, rules.hand_size + draws, samples=samples,
                                           seed=seed, jobs=jobs, progress=tick)))
    report = api.odds_report(results, cards, draws)
    if not as_json:
        _out(api.odds_text(report))
    if plot is not None:
        try:
            api.plot_curve(report, plot)
        except PhaseDSLError as e:
            _fail(e, report=report)  # the figures took long to make: keep them
    if as_json:
        _out(json.dumps(report))


def _pack_rules(variant, world):
    from .packs import load_pack

    if variant is None:
        raise PhaseDSLError("--world needs --variant PACK")
    return load_pack(variant).rules_for(world)


def _pack_entries(variant: str, world: str | None):
    from .packs import load_pack

    pack = load_pack(variant)
    w = pack.world(world)
    out = []
    for e in w.played:
        _, rules = pack.phase_entry(e.number, w.name if len(pack.worlds) > 1 else None)
        out.append((str(e.number), e.phase, rules))
    return out


class _progress:
    """A progress bar on the terminal while odds are worked out (nothing when piped or with --json)."""

    def __init__(self, quiet: bool) -> None:
        self.quiet = quiet or not sys.stderr.isatty()
        self.bar = None

    def __enter__(self):
        if self.quiet:
            return None
        from rich.progress import Progress

        self.bar = Progress(transient=True, console=None)
        self.bar.start()
        self.task = self.bar.add_task("counting and sampling hands", total=None)
        return lambda n: self.bar.advance(self.task, n)

    def __exit__(self, *exc) -> None:
        if self.bar is not None:
            self.bar.stop()


@app.command()
def outs(
    args: Annotated[list[str], typer.Argument(help="PHASE then CARDS (or only CARDS with --phase N).",
                                              metavar="[PHASE] CARDS...")],
    seen: Annotated[str | None, typer.Option("--seen", metavar="CARDS",
                                             help="Cards known to be out of reach, "
                                                  "such as the discard pile.")] = None,
    variant: VariantOpt = None,
    phase_no: PhaseNoOpt = None,
    world: WorldOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Which single cards complete the phase, how many are unseen, the chance the next draw does.

    Examples:

        phasedsl outs "1 set of 3 + 1 run of 4" R5 B5 G7 G8 G10 Y2 --seen "W W W"

        phasedsl outs --variant original --phase 2 R5 B5 G7 G8 G10 Y2 W --json

    Exit code 0 when the hand is made or some card completes it, 1 when none does (or
    none was found before the search stopped at its budget: the answer says so).
    """
    ctx = _context(variant, phase_no, world)
    words = list(args)
    phase, rules, words = ctx.take_phase(words)
    seen_cards = api.cards(seen or "", rules)
    hand = api.held(" ".join(words), rules, also=seen_cards)
    result = api.outs_json(phase, hand, seen_cards, rules)
    _emit(result, as_json, api.outs_text, ok=result["made"] or bool(result["outs"]))


# --------------------------------------------------------------------------- packs


@app.command()
def validate(
    files: Annotated[list[str], typer.Argument(help="Pack files (or built-in pack names).")],
    strict: Annotated[bool, typer.Option("--strict", help="Also report lint warnings.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Check variant packs: YAML, schema and every phase; report every problem at once.

    Examples:

        phasedsl validate variants/*.yaml

        phasedsl validate my-house-rules.yaml --json

    Exit code 0 clean, 1 problems found, 2 unusable input.
    """
    _report(files, strict, as_json)


@app.command()
def lint(
    files: Annotated[list[str], typer.Argument(help="Pack files (or built-in pack names).")],
    as_json: JsonOpt = False,
) -> None:
    """Validate packs and warn about what is legal but surely wrong (same as validate --strict).

    Examples:

        phasedsl lint my-house-rules.yaml

        phasedsl lint original twist --json

    Exit code 0 clean, 1 problems or warnings found, 2 unusable input.
    """
    _report(files, True, as_json)


def _report(files: list[str], strict: bool, as_json: bool) -> None:
    from .packs import check_file

    found = []
    unusable = 0
    for f in files:
        try:
            _pack, diags = check_file(f, strict=strict)
        except PhaseDSLError as e:
            unusable += 1
            diags = getattr(e, "problems", None) or [str(e)]
        found += diags
    code = 2 if unusable else 1 if found else 0
    errors = sum(1 for d in found if getattr(d, "severity", "error") == "error")
    summary = (f"{api.plural(len(files), 'file')}: {api.plural(errors, 'error')}, "
               f"{api.plural(len(found) - errors, 'warning')}")
    if as_json:
        out: dict = {"problems": [d.to_json() if hasattr(d, "to_json") else {"message": d}
                                  for d in found], "exit": code}
        if unusable:
            out["error"] = f"{api.plural(unusable, 'file')} of {len(files)} could not be used"
        _out(json.dumps(out))
    else:
        for d in found:
            _out(str(d))
        typer.echo(summary, err=True)
    raise typer.Exit(code)


@app.command("list")
def list_packs(as_json: JsonOpt = False) -> None:
    """List the built-in packs and their worlds.

    Examples:

        phasedsl list

        phasedsl list --json

    Exit code 0.
    """
    from .packs import builtin_names, load_pack

    rows = []
    for name in builtin_names():
        pack = load_pack(name)
        rows.append({"name": pack.name, "title": pack.title, "extends": pack.extends,
                     "worlds": [{"name": w.name, "title": w.title, "phases": len(w.phases)}
                                for w in pack.worlds]})
    if as_json:
        _out(json.dumps(rows))
        return
    cells = []
    for r in rows:
        ext = f" (extends {r['extends']})" if r["extends"] else ""
        cells.append([r["name"], r["title"] + ext])
        if len(r["worlds"]) > 1:
            cells += [["  " + w["name"], f"{w['title']} ({api.plural(w['phases'], 'phase')})"]
                      for w in r["worlds"]]
    for line in api.table(cells, "<<", flex=1):
        _out(line)


@app.command()
def show(
    pack_ref: Annotated[str, typer.Argument(metavar="PACK", help="A built-in name or a file.")],
    world: Annotated[str | None, typer.Option(
        "--world", "-w", metavar="WORLD",
        help="For packs with several phase lists: show only this one.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Show a pack: its phases and the rules that differ from the printed rules.

    Examples:

        phasedsl show original

        phasedsl show world-tour --world jazz-club --json

    Exit code 0, or 2 when the pack cannot be loaded.
    """
    from .packs import describe_rules, load_pack

    pack = load_pack(pack_ref)
    worlds = [pack.world(world)] if world is not None else list(pack.worlds)
    if as_json:
        _out(json.dumps({
            "name": pack.name, "title": pack.title, "description": pack.description,
            "source": pack.source, "extends": pack.extends,
            "rules_changed": dict(describe_rules(pack.settings)),
            "worlds": [{"name": w.name, "title": w.title,
                        "rules_changed": dict(describe_rules(w.settings)),
                        "phases": [{"number": e.number, "canonical": e.phase.canonical(w.rules.deck),
                                    "cards_needed": e.phase.cards_needed, "name": e.name,
                                    "note": e.note} for e in w.phases]} for w in worlds],
        }, default=str))
        return
    _out(f"{pack.title} [{pack.name}]")
    _out(_wrap(pack.description))
    _out(_wrap(f"source: {pack.source}", "        "))
    for w in worlds:
        _out("")
        if len(pack.worlds) > 1:
            _out(f"== {w.title} [{w.name}]")
        cells: list = [["#", "cards", "phase"]]
        for e in w.phases:
            name = f" ({e.name})" if e.name else ""
            cells.append([str(e.number), str(e.phase.cards_needed), e.phase.canonical(w.rules.deck) + name])
            if e.note:
                cells.append(_wrap(f"note: {e.note}", "          ", "    "))
        for line in api.table(cells, ">><", flex=2):
            _out(line)
        changed = describe_rules(w.settings)
        _out("rules that differ from the printed rules:" + ("" if changed else " none"))
        for key, value in changed:
            _out(_wrap(f"{key}: {json.dumps(value)}", "      ", "  "))


def _wrap(text: str, indent: str = "", first: str = "") -> str:
    """Text wrapped to the width the tables fit, each line break kept."""
    return "\n".join("\n".join(api.wrap(line, api.WIDTH, first, indent))
                     for line in text.strip().splitlines())


@app.command("schema")
def schema_cmd(as_json: JsonOpt = False) -> None:
    """Print the JSON Schema of the pack format (for editors and other tools); it is JSON already.

    Examples:

        phasedsl schema > pack.schema.json

        phasedsl schema --json

    Exit code 0.
    """
    from .resources import schema_path

    _out(schema_path().read_text(encoding="utf-8").rstrip())


from .cli_game import replay  # noqa: E402  (the game commands live in their own module)
from .cli_play import play  # noqa: E402

app.command()(replay)
app.command()(play)

from .cli_sim import report, simulate  # noqa: E402

app.command()(simulate)
app.command()(report)


def main() -> None:
    app()


def run() -> NoReturn:
    """The ``phasedsl`` command: ``main``, then straight out once the output is flushed.

    Tearing the interpreter down (freeing every object, module by module) takes tens of
    milliseconds at the end of every command and changes nothing a user sees; ``main``
    itself exits the usual way, for callers that run it in their own process.
    """
    try:
        main()
        code = 0
    except SystemExit as e:
        code = e.code
    if code is not None and not isinstance(code, int):  # sys.exit("message")
        print(code, file=sys.stderr)
        code = 1
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except OSError:  # the reader went away (`| head`): nothing more can be written
        code = code or 1
    os._exit(code or 0)


if __name__ == "__main__":  # pragma: no cover
    run()

__all__ = ["app", "main", "run"]
