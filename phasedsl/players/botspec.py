"""What ``--bot`` names: a built-in bot, a Python class, or another program.

* a built-in name (``greedy``, ``random``, ... : ``bots.BOTS``);
* ``module:path.to.Class``: a class with ``choose(view)``, imported by name (from the
  current folder too), made with the game's seed when its constructor takes one;
* ``cmd:COMMAND``: a program that speaks the JSON-lines protocol (``extbot``), split as a
  shell would split it (``shlex``) but run without one.

``parse_bot`` reads the text once, before any game (a bad spec is bad input, exit 2), and
gives a ``BotSpec``: a small picklable value that worker processes rebuild bots from.  A
bot that is not built in may fail (raise, answer an illegal move, crash, take too long):
it forfeits its game, it does not stop the run (``forfeits`` on the bot says so).
"""

from __future__ import annotations

import importlib
import inspect
import os
import shlex
import shutil
import sys
from dataclasses import dataclass

from ..errors import PhaseDSLError, printable
from ..game.moves import MOVE_TYPES, Move
from ..game.view import PlayerView
from .bots import BOTS, Bot, make_bot
from .extbot import DEFAULT_TIMEOUT, ExternalBot, Forfeit

# A spec longer than this is not a bot's name (nor a command anyone types).
MAX_SPEC = 4000


class BotSpecError(PhaseDSLError):
    """A ``--bot`` that names no bot."""


@dataclass(frozen=True, slots=True)
class BotSpec:
    """A parsed ``--bot``: ``kind`` is ``builtin``, ``module`` or ``cmd``; ``target`` the
    name, the dotted path or the command; ``timeout`` the seconds a program has per move."""

    text: str
    kind: str
    target: str
    timeout: float = DEFAULT_TIMEOUT

    def make(self, seed: int = 0) -> Bot:
        if self.kind == "builtin":
            return make_bot(self.target, seed)
        if self.kind == "module":
            return GuardedBot(_load_class(self.target), seed)
        return ExternalBot(shlex.split(self.target), self.timeout)

    def __str__(self) -> str:
        return self.text


def dice_bot(text: str, dice, space=None, timeout: float = DEFAULT_TIMEOUT):
    """A player of Phase 10 Dice for ``--bot``: ``best-chance`` (also what ``greedy``, the
    card games' default, means here), ``best-score``, ``naive``, or ``cmd:COMMAND`` (a
    program: docs/bot-protocol.md, "Phase 10 Dice")."""
    from ..dice import BOTS
    from ..dice import make_bot as make_dice_bot

    name = "best-chance" if text == "greedy" else text
    if name in BOTS:
        return make_dice_bot(name, dice, space)
    if not isinstance(text, str) or not text.startswith("cmd:"):
        raise BotSpecError(f"--bot: a dice game's bots are {', '.join(BOTS)} or cmd:COMMAND, "
                           f"not {printable(str(text))[:80]!r}")
    spec = parse_bot(text, timeout)
    return ExternalBot(shlex.split(spec.target), timeout)


class GuardedBot:
    """A Python bot that is not built in: an exception it raises forfeits its game."""

    forfeits = True

    def __init__(self, cls: type, seed: int) -> None:
        self.cls, self.seed = cls, seed
        self.bot = None

    def choose(self, view: PlayerView) -> Move:
        try:
            if self.bot is None:  # made here, so that a constructor's failure forfeits too
                self.bot = _construct(self.cls, self.seed)
            move = self.bot.choose(view)
        # (SystemExit too: a bot's sys.exit() ended the whole run, silently, with its code)
        except (Exception, SystemExit) as e:  # the bot's own failure: its game is lost
            raise Forfeit("crashed", f"the bot raised {type(e).__name__}: "
                                     f"{printable(str(e))[:200]}") from None
        if not isinstance(move, tuple(MOVE_TYPES.values())):
            raise Forfeit("malformed", f"the bot chose {printable(repr(move))[:80]}, not a "
                                       "move")
        return move


def _construct(cls: type, seed: int):
    """The class made with the game's seed where its constructor takes one."""
    try:
        params = inspect.signature(cls).parameters
    except (TypeError, ValueError):
        params = {}
    if "seed" in params:
        return cls(seed=seed)
    if any(p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.VAR_POSITIONAL)
           for p in params.values()):
        return cls(seed)
    return cls()


def _load_class(path: str) -> type:
    module, _, name = path.rpartition(".")
    if not module or not name or not all(part.isidentifier() for part in path.split(".")):
        raise BotSpecError(f"--bot module:{printable(path)[:80]}: expected "
                           "module:path.to.Class (a module and a class in it)")
    try:
        try:
            mod = importlib.import_module(module)
        except ModuleNotFoundError:
            if os.getcwd() in sys.path:
                raise
            # as `python -m` would find it: a module in the current folder
            sys.path.append(os.getcwd())
            mod = importlib.import_module(module)
    except ModuleNotFoundError as e:
        raise BotSpecError(f"--bot module:{path}: no module {e.name!r} (on the Python path "
                           "or in the current folder)") from None
    # (SystemExit too: a module calling sys.exit() as it loads ended phasedsl silently)
    except (Exception, SystemExit) as e:  # the user's module failed to load: say how
        raise BotSpecError(f"--bot module:{path}: importing {module} raised "
                           f"{type(e).__name__}: {printable(str(e))[:200]}") from None
    cls = getattr(mod, name, None)
    if cls is None:
        raise BotSpecError(f"--bot module:{path}: {module} has no {name!r}")
    if not callable(cls):
        raise BotSpecError(f"--bot module:{path}: {name!r} is not a class")
    if not callable(getattr(cls, "choose", None)):
        raise BotSpecError(f"--bot module:{path}: {name!r} has no choose(view) method")
    return cls


def parse_bot(text: str, timeout: float = DEFAULT_TIMEOUT) -> BotSpec:
    """Read one ``--bot``; raises ``BotSpecError`` saying what is wrong."""
    if not isinstance(text, str) or not text.strip():
        raise BotSpecError("--bot needs a bot " + _forms())
    if len(text) > MAX_SPEC:
        raise BotSpecError(f"--bot is {len(text):,} characters long (at most {MAX_SPEC:,})")
    if not timeout > 0 or timeout != timeout:
        raise BotSpecError(f"--bot-timeout must be more than 0 seconds, not {timeout:g}")
    kind, sep, rest = text.partition(":")
    if not sep:
        if text not in BOTS:
            raise BotSpecError(f"unknown bot {printable(text)[:80]!r} {_forms()}")
        return BotSpec(text, "builtin", text, timeout)
    if kind == "module":
        _load_class(rest.strip())
        return BotSpec(text, "module", rest.strip(), timeout)
    if kind == "cmd":
        if not hasattr(os, "killpg"):  # a process group to end, pipes to wait on
            raise BotSpecError("--bot cmd: needs a POSIX system (Linux, macOS, a BSD)")
        try:
            argv = shlex.split(rest)
        except ValueError as e:  # an open quote
            raise BotSpecError(f"--bot cmd:{printable(rest)[:80]}: {e}") from None
        if not argv:
            raise BotSpecError("--bot cmd: needs a command, e.g. cmd:'python3 mybot.py'")
        program = argv[0]
        found = (program if os.sep in program and os.access(program, os.X_OK)
                 and os.path.isfile(program) else
                 shutil.which(program) if os.sep not in program else None)
        if found is None:
            raise BotSpecError(f"--bot cmd:{printable(rest)[:80]}: no program "
                               f"{printable(program)[:80]!r} "
                               + ("that can be run there" if os.sep in program
                                  else "on the PATH"))
        return BotSpec(text, "cmd", rest, timeout)
    raise BotSpecError(f"unknown bot {printable(text)[:80]!r} {_forms()}")


def _forms() -> str:
    return (f"(the bots are: {', '.join(sorted(BOTS))}; or module:path.to.Class, a Python "
            "class with choose(view), or cmd:COMMAND, a program speaking "
            "phasedsl docs bot-protocol)")


def as_spec(bot: object, timeout: float = DEFAULT_TIMEOUT):
    """A ``BotSpec`` for a spec's text, else the value as given (a spec, or a factory
    taking a seed such as ``GreedyBot``: the Python API's way)."""
    if isinstance(bot, str):
        return parse_bot(bot, timeout)
    if isinstance(bot, BotSpec) or callable(bot):
        return bot
    raise BotSpecError(f"a bot is a bot's name, a BotSpec or a class taking a seed, not "
                       f"{type(bot).__name__}")


def build(bot: object, seed: int) -> Bot:
    """The bot a spec (or a factory) makes for one seat of one game."""
    spec = as_spec(bot)
    return spec.make(seed) if isinstance(spec, BotSpec) else spec(seed)
