"""The ``phasedsl`` command line: one command per verb, ``--json`` for machines.

Exit codes: 0 yes (made, legal, accepted), 1 no (or not shown: a search stopped at its
budget), 2 bad input (or an answer that cannot be written), 130 Ctrl-C, 143 SIGTERM.
"""

from __future__ import annotations

import contextlib
import copy
import inspect  # (Typer loads it in any case)
import os
import signal
import sys
import threading
from collections.abc import Mapping
from contextvars import ContextVar
from functools import cache
from typing import Annotated, NoReturn

import typer
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption

from ..errors import PhaseDSLError

try:  # Typer 0.2x carries its own copy of Click
    from typer._click.exceptions import UsageError
except ImportError:  # pragma: no cover - older Typer on Click
    from click.exceptions import UsageError

from . import helptext
from .common import HELP_ASKED, JSON_OUTPUT, Terminated, cannot_write, fail, say, stopped
from .naming import HIDDEN_SHORT


class _Option(TyperOption):
    def make_metavar(self, ctx=None) -> str:
        # A value is named for what it is (PACK, N, FILE), not its Python type (Typer would
        # show "TEXT", "INTEGER"); a flag's ("BOOLEAN") help leaves out.
        return self.metavar or ("BOOLEAN" if self.is_flag else self.name.upper())


class _Argument(TyperArgument):
    def make_metavar(self, ctx=None, *, usage: bool = False) -> str:
        name = self.metavar or self.name.upper()
        if self.nargs != 1 and not name.endswith("..."):  # (a metavar may say so itself)
            name += "..."
        return f"[{name}]" if usage and not self.required else name


@cache
def _untyped(cls: type) -> type:
    """``cls`` (a parameter type) without a name for help to show: an argument's help
    says what it is; Typer would add its Python type ("<str>")."""
    return type(cls.__name__, (cls,), {"get_metavar": lambda self, *args, **kwargs: ""})


def _plain(params: list) -> list:
    """Typer builds its own parameter objects and offers no hook for how help shows
    them, so they are given the subclasses above (which add no state)."""
    for p in params:
        if type(p) is TyperOption:
            p.__class__ = _Option
        elif type(p) is TyperArgument:
            p.__class__ = _Argument
            p.metavar = p.metavar or p.name.upper()  # (the arguments' panel shows it)
            untyped = copy.copy(p.type)
            untyped.__class__ = _untyped(type(p.type))
            p.type = untyped
    return params


def reflowed(text: str | None) -> str | None:
    """Help text as the terminal should wrap it: the lines of each paragraph joined into
    one (Typer keeps a docstring's line breaks, which a terminal of another width then
    breaks again into ragged lines); a paragraph with indented lines (an example) is kept
    as written."""
    if not text:
        return text
    paragraphs = []
    for paragraph in inspect.cleandoc(text).split("\n\n"):
        lines = paragraph.split("\n")
        if not any(line[:1].isspace() for line in lines):
            paragraph = " ".join(line.strip() for line in lines)
        paragraphs.append(paragraph)
    return "\n\n".join(paragraphs)


def _unshown(param):
    """``param`` as help shows it: --variant without -v, its older short name (still
    read; tools mean "verbose" by -v)."""
    if HIDDEN_SHORT in getattr(param, "opts", ()) and "--variant" in param.opts:
        param = copy.copy(param)
        param.opts = [o for o in param.opts if o != HIDDEN_SHORT]
    return param


# Whether help is being written (get_params then gives the parameters as help shows them).
_SHOWING_HELP: ContextVar[bool] = ContextVar("phasedsl_showing_help", default=False)


class _Command(TyperCommand):
    def __init__(self, *args, help: str | None = None, **kwargs) -> None:
        super().__init__(*args, help=reflowed(help), **kwargs)

    def get_params(self, ctx) -> list:
        params = _plain(super().get_params(ctx))
        return [_unshown(p) for p in params] if _SHOWING_HELP.get() else params

    def format_help(self, ctx, formatter) -> None:
        token = _SHOWING_HELP.set(True)
        try:
            helptext.write(self, ctx, formatter)
        finally:
            _SHOWING_HELP.reset(token)


class _Group(TyperGroup):
    """The one place where errors become output: bad input (PhaseDSLError) and usage
    mistakes Typer finds (a missing argument, a bad option value) alike."""

    def __init__(self, *args, help: str | None = None, **kwargs) -> None:
        super().__init__(*args, help=reflowed(help), **kwargs)

    def get_params(self, ctx) -> list:
        return _plain(super().get_params(ctx))

    def format_help(self, ctx, formatter) -> None:
        helptext.write(self, ctx, formatter)

    def parse_args(self, ctx, args: list[str]) -> list[str]:
        words = args[: args.index("--")] if "--" in args else args
        JSON_OUTPUT.set("--json" in words)
        HELP_ASKED.set("--help" in words)
        try:
            return super().parse_args(ctx, args)
        except UsageError as e:
            _usage_error(e)

    def invoke(self, ctx):
        try:
            try:
                return super().invoke(ctx)
            except PhaseDSLError as e:
                fail(e)
            except UsageError as e:
                _usage_error(e)
        except KeyboardInterrupt as e:  # Ctrl-C, or SIGTERM (see main)
            stopped(e)
        except OSError as e:
            # every file a command writes says so itself (outfiles); what is left is the
            # answer (or the error) on stdout: a full disk, a reader gone
            cannot_write(e)


def _usage_error(e: UsageError) -> NoReturn:
    # One line like every other error (Typer's own is a box under the usage line), naming
    # the help that lists the options; a command given nothing shows its help.
    if type(e).__name__ == "NoArgsIsHelpError" and e.ctx is not None:
        # the help, on stdout as --help writes it (click would send it to stderr), exit 2
        typer.echo(e.ctx.get_help(), color=e.ctx.color)
        raise SystemExit(2)
    if HELP_ASKED.get() and e.ctx is not None:
        # --help beside an option this command does not take (`play --help --json`):
        # the help is what was asked for, and it says which options there are
        help_option = e.ctx.command.get_help_option(e.ctx)
        if help_option is not None:
            JSON_OUTPUT.set(False)
            help_option.callback(e.ctx, help_option, True)
    where = f" (see '{e.ctx.command_path} --help')" if e.ctx is not None else ""
    message = " ".join(e.format_message().split())
    fail(PhaseDSLError(message + ("" if JSON_OUTPUT.get() else where)))


class _App(typer.Typer):
    def command(self, *args, cls=None, **kwargs):
        return super().command(*args, cls=cls or _Command, **kwargs)




def _version() -> str:
    from .. import __version__  # (the package's version is read from it: pyproject.toml)

    return __version__


def _print_version(value: bool) -> None:
    if value:
        say(f"phasedsl {_version()}")
        raise typer.Exit(0)




# One module per family of commands, imported only when one of its commands runs (or shows
# its own help): ``phasedsl check`` loads the solver, not the game engine and the bots.
# ``phasedsl --help`` lists each by the first paragraph of its help, kept here
# (tests/test_help.py compares each with the command's own).  In the order --help lists them.
COMMANDS: dict[str, tuple[str, str, str]] = {
    "parse": ("melds", "parse", "Read a phase phrase and print its canonical form and groups."),
    "check": ("melds", "check", "Does a hand make a phase? Or, with --groups, is a laid-down "
                                "layout legal?"),
    "hit": ("melds", "hit", "Which laid groups take these cards, and where? And an order that "
                            "places the most."),
    "score": ("melds", "score", "Penalty points of the cards left in hand (5 for 1-9, 10 for "
                                "10-12, 15 a skip, 25 a wild)."),
    "odds": ("odds", "odds", "The chance that a dealt hand makes a phase: exact where counting "
                             "allows, sampled otherwise."),
    "hold": ("dice", "hold", "Phase 10 Dice: which dice to keep before a re-roll, and the exact "
                             "chance it gives."),
    "outs": ("melds", "outs", "Which single cards complete the phase, how many are unseen, the "
                              "chance the next draw does."),
    "validate": ("packs", "validate", "Check variant packs: YAML, schema and every phase; report "
                                      "every problem at once."),
    "lint": ("packs", "lint", "Validate packs and warn about what is legal but surely wrong "
                              "(same as validate --strict)."),
    "list": ("packs", "list_packs", "List the built-in packs and their worlds."),
    "show": ("packs", "show", "Show a pack: its phases and the rules that differ from the "
                              "printed rules."),
    "schema": ("packs", "schema_cmd", "Print the JSON Schema of the pack format (for editors and "
                                      "other tools); it is JSON already."),
    "replay": ("game", "replay", "Check every event of a game log against the pack's rules and "
                                 "show the standings."),
    "play": ("play", "play", "Play a whole game in the terminal against bots, one command a "
                             "line."),
    "simulate": ("sim", "simulate", "Play many seeded games between bots and show how the pack "
                                    "plays."),
    "report": ("sim", "report", "Write a one-page HTML report of a pack: rules in words, phases "
                                "(also in plain words), how hard each is (the chance a dealt hand "
                                "makes it, exact where it can be counted, and the share of "
                                "attempts completed in play, with 95% intervals and the phases "
                                "easier than the one before flagged), game length for 2-6 "
                                "players, and a printable phase and score sheet."),
    "tournament": ("tournament", "tournament", "Play bots against each other and say which is "
                                               "stronger, and how surely."),
    "balance": ("design", "balance", "Measure how hard each phase is, dealt and in play; flag a "
                                     "phase easier than the one before it; propose an order with "
                                     "no phase flagged; give the game length of both."),
    "generate": ("generate", "generate", "Write a new pack whose phases rise in difficulty, each "
                                         "phase's dealt chance beside it."),
    "serve": ("serve", "serve", "Start a local web workbench for authors: a phrase box, a meld "
                                "checker, a pack editor that lints as you type, balance with a "
                                "button that applies its proposed order, the report, a game "
                                "against bots, and links that carry a pack in their fragment."),
    "docs": ("docs", "docs", "Print a reference page installed with phasedsl (the bot protocol, "
                             "the game log, the conformance vectors, the pack format) or an "
                             "example it names; with no PAGE, list them."),
    "conformance": ("conformance", "conformance_group", "Phase 10's rules as test vectors: export "
                                                       "them, run another implementation over "
                                                       "them (phasedsl docs conformance)."),
}

# Whether the root's help is being written: its commands are then listed, not loaded.
_LISTING: ContextVar[bool] = ContextVar("phasedsl_listing", default=False)


def command(name: str):
    """The click command ``name`` (its module imported now)."""
    from importlib import import_module

    module, attr, _ = COMMANDS[name]
    loaded = import_module(f".{module}", __package__)
    if name == "conformance":
        sub = _App(name="conformance", cls=_Group, no_args_is_help=True,
                   rich_markup_mode=None, add_completion=False)
        sub.callback()(loaded.conformance_group)
        for verb, fn in (("export", loaded.export_cmd), ("run", loaded.run_cmd),
                         ("adapter", loaded.adapter_cmd)):
            sub.command(verb)(fn)
        group = typer.main.get_command(sub)
        group.name = name
        return group
    # (completion is the root's option: --install-completion, not one per command)
    one = _App(cls=_Group, rich_markup_mode=None, pretty_exceptions_enable=False,
               add_completion=False)
    one.command(name)(getattr(loaded, attr))
    return typer.main.get_command(one)


class _Commands(Mapping):
    """The root's commands by name, each loaded on first use."""

    def __init__(self) -> None:
        self.loaded: dict[str, object] = {}

    def __getitem__(self, name: str):
        if name not in COMMANDS:
            raise KeyError(name)
        if name not in self.loaded:
            self.loaded[name] = command(name)
        return self.loaded[name]

    def __iter__(self):
        return iter(COMMANDS)

    def __len__(self) -> int:
        return len(COMMANDS)


class _Root(_Group):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.commands = _Commands()

    def list_commands(self, ctx) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx, cmd_name: str):
        if _LISTING.get() and cmd_name in COMMANDS:
            return TyperCommand(cmd_name, help=COMMANDS[cmd_name][2])
        return self.commands.get(cmd_name)

    def format_help(self, ctx, formatter) -> None:
        token = _LISTING.set(True)
        try:
            super().format_help(ctx, formatter)
        finally:
            _LISTING.reset(token)


app = _App(
    name="phasedsl",
    cls=_Root,
    help="Rules toolkit for Phase 10 and its variants (cards, Phase 10 Dice, Phase 10 Twist): "
         "read phases, check melds, hits, scores and rolls; referee, simulate, balance and "
         "generate packs; 'phasedsl serve' for a workbench in the browser.",
    no_args_is_help=True,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
)


@app.callback()
def _root(
    version: Annotated[bool, typer.Option("--version", help="Print the version and exit.",
                                          callback=_print_version, is_eager=True)] = False,
) -> None:
    pass


def _terminate(signum, frame) -> None:
    raise Terminated()


def main(prog_name: str | None = None) -> None:
    if sys.stdout is None:  # started with stdout closed: no answer could be seen
        with contextlib.suppress(OSError, AttributeError):
            sys.stderr.write("error: cannot write the output: standard output is closed\n")
        raise SystemExit(2)
    # Started with stderr or stdin closed (``2>&-``, ``<&-``): the answer still goes to
    # stdout (its progress and notes nowhere), and a command reading stdin reads nothing
    # and says so, as for an empty file, instead of failing on a missing stream.
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w")  # noqa: SIM115 (for the life of the process)
    if sys.stdin is None:
        sys.stdin = open(os.devnull)  # noqa: SIM115
    if threading.current_thread() is threading.main_thread():
        # SIGTERM unwinds like Ctrl-C (worker processes are stopped, files being written
        # are removed whole), then exits 143
        signal.signal(signal.SIGTERM, _terminate)
    app(prog_name=prog_name)


def run(prog_name: str | None = None) -> NoReturn:
    """The ``phasedsl`` command: ``main``, then straight out once the output is flushed.

    Tearing the interpreter down (freeing every object, module by module) takes tens of
    milliseconds at the end of every command and changes nothing a user sees; ``main``
    itself exits the usual way, for callers that run it in their own process.
    """
    try:
        main(prog_name)
        code = 0
    except SystemExit as e:
        code = e.code
    except KeyboardInterrupt as e:  # before or after a command ran
        code = 143 if isinstance(e, Terminated) else 130
        with contextlib.suppress(OSError, AttributeError):
            sys.stderr.write("terminated\n" if code == 143 else "interrupted\n")
    if code is not None and not isinstance(code, int):  # sys.exit("message")
        print(code, file=sys.stderr)
        code = 1
    try:
        if sys.stdout is not None:
            sys.stdout.flush()
    except OSError as e:  # the reader went away (`| head`), a full disk
        if code in (0, 1, None):  # a verdict no one received is not a verdict
            with contextlib.suppress(OSError):
                sys.stderr.write(f"error: cannot write the output: {e.strerror or e}\n")
            code = 2
    with contextlib.suppress(OSError, AttributeError):
        sys.stderr.flush()
    os._exit(code or 0)


if __name__ == "__main__":  # pragma: no cover
    run()

__all__ = ["app", "main", "run"]
